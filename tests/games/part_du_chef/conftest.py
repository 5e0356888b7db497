"""Shared helpers: play the same games with the kernel and with the reference engine."""

from cakesim.games import game_named
from cakesim.games.part_du_chef.reference import play_game

GAME = game_named("part-du-chef")
RULES = GAME.load_rules()
STRATEGY_NAMES = GAME.strategy_names
"""Every named strategy, the tuned ones (read per player count) included."""
ENUMERATING = tuple(n for n in STRATEGY_NAMES if GAME.named_strategy(n, 2).cutter == "enumerate")


def table_of(players, variant="base", names=("greedy",), duplicate=False, rules=RULES):
    """A table with the named built-in strategies (one name, or one per seat)."""
    names = list(names) * players if len(names) == 1 else list(names)
    return GAME.table(rules, players, [GAME.named_strategy(n, players, variant) for n in names],
                      variant, duplicate)


def reference_result(table, seed, game):
    """The reference engine's result of one game (its metrics: ``GAME.result_metrics``)."""
    return play_game(table.rules, list(table.strategies), seed, game, table.duplicate)
