"""Shared pieces of the Speedtorte tests: the published rules and a table maker."""

from cakesim.games.speedtorte.game import GAME
from cakesim.games.speedtorte.reference import play_game
from cakesim.games.speedtorte.rules import load_rules
from cakesim.games.speedtorte.strategies import named_strategy

RULES = load_rules()
LEVELS = [level.name for level in RULES.levels]


def table_of(players: int, level: str = "Lehrling", variant: str = "signals",
             bakers=("team",)):
    """A table of ``players`` with one built-in baker per seat (or one for all)."""
    names = list(bakers) * players if len(bakers) == 1 else list(bakers)
    return GAME.table(RULES, players, [named_strategy(n) for n in names], variant,
                      level=level)


def reference_metrics(table, seed: int, index: int) -> tuple:
    """The kernel's per-game metrics, as the reference engine computes them."""
    r = play_game(table.rules, list(table.strategies), seed, index)
    return (int(r.ending == 0), r.score, r.moves, r.fulfilled, int(r.ending == 1),
            int(r.ending == 2), r.supply_left, r.rushes_missed)


def assert_parity(table, seed: int, first: int, games: int) -> None:
    """Kernel and reference agree on every per-game metric of every game."""
    chunk = GAME.play_chunk(table, seed, first, games)
    for g in range(games):
        kernel = tuple(int(chunk.game[m][g]) for m in GAME.game_metrics)
        assert kernel == reference_metrics(table, seed, first + g), (table.label, first + g)
