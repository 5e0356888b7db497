"""Shared pieces of the Speedtorte tests: the published rules and a table maker."""

from cakesim.games.speedtorte.game import GAME
from cakesim.games.speedtorte.rules import load_rules
from cakesim.games.speedtorte.strategies import named_strategy

RULES = load_rules()
LEVELS = [level.name for level in RULES.levels]


def table_of(players: int, level: str = "Lehrling", variant: str = "signals",
             bakers=("team",), profile: str = "adult"):
    """A table of ``players`` with one built-in baker per seat (or one for all)."""
    names = list(bakers) * players if len(bakers) == 1 else list(bakers)
    return GAME.table(RULES, players, [named_strategy(n) for n in names], variant,
                      level=level, profile=profile)
