"""High card's rule set: read strictly from TOML, every error naming file and key."""

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from cakesim.engine.tables import Table, read_toml

DEFAULT_RULES = Path(__file__).with_name("rules.toml")


@dataclass(frozen=True)
class RuleSet:
    """The deck and the player range."""

    values: tuple[int, ...]
    """The value of every card of the deck, in component order."""
    min_players: int
    max_players: int
    first_bonus: int = 0
    """Added to the first seat's card when the cards are compared (a lever to balance)."""
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})

    def with_overrides(self, **overrides: str) -> "RuleSet":
        """High card has no one-line overrides."""
        return replace(self)

    @property
    def deck(self) -> np.ndarray:
        """The card values as the kernel reads them."""
        return np.array(self.values, dtype=np.int64)


def load_rules(path: str | Path | None = None) -> RuleSet:
    """The rule set at ``path`` (default: the published one)."""
    source = str(path or DEFAULT_RULES)
    top = Table(read_toml(source, "rules"), source)
    top.only(["name", "players", "values", "first_bonus"])
    players = top.sub("players")
    players.only(["min", "max"])
    low = players.int_in("min", 2, 8)
    high = players.int_in("max", low, 8)
    values = top.int_list("values", 1, 100)
    if len(values) < 2 * high:
        raise top.error("values", f"{len(values)} cards; allowed: at least two per player "
                                  f"({2 * high})")
    return RuleSet(tuple(values), low, high, top.int_in("first_bonus", -10, 10, 0), source)
