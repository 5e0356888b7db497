"""Shared helpers: play the same games with the kernel and with the reference engine."""

from cakesim.games import game_named
from cakesim.games.piece_o_cake.reference import play_game

GAME = game_named("piece-o-cake")
RULES = GAME.load_rules()
STRATEGY_NAMES = ("random", "greedy", "greedy-balanced")


def table_of(players, variant="base", names=("greedy",), duplicate=False, rules=RULES):
    """A table with the named built-in strategies (one name, or one per seat)."""
    names = list(names) * players if len(names) == 1 else list(names)
    return GAME.table(rules, players, [GAME.named_strategy(n) for n in names], variant,
                      duplicate)


def reference_metrics(table, seed, game):
    """The kernel's result columns, recomputed from the reference engine's game."""
    result = play_game(table.rules, list(table.strategies), seed, game, table.duplicate)
    actions = [m.action for m in result.log]
    return result, {
        "total": result.total, "majority": result.majority, "cream": result.cream,
        "win_units": result.win_units, "declines": actions.count("decline"),
        "passes": actions.count("pass"),
        "discarded": sum(len(m.slices) for m in result.log if m.action == "discard"),
        "eaten_slices": sum(len(p.eaten) for p in result.players),
        "collected_slices": sum(len(v) for p in result.players for v in p.collected.values()),
    }


def assert_parity(table, seed, first, games):
    """Kernel and reference agree on every metric of every game."""
    chunk = GAME.play_chunk(table, seed, first, games)
    for g in range(games):
        _, expected = reference_metrics(table, seed, first + g)
        for metric, value in expected.items():
            got = chunk.seat[metric][g] if metric in chunk.seat else chunk.game[metric][g]
            assert list(got) == value if isinstance(value, list) else got == value, (
                f"{table.label}: game {first + g} of seed {seed} differs in {metric}: "
                f"kernel {got}, reference {value}")

