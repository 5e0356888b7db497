"""What the shared machinery needs from a game: a table to play and a chunk of results."""

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from cakesim.tables import Table

WEIGHT_MAX = 1e6
"""No strategy weight may be larger in size: far beyond any sensible weight, and far from
where the valuations' sums and products would overflow to infinity."""
WEIGHT = (0.0, WEIGHT_MAX)
"""The range of a strategy weight that is 0 or more."""
SIGNED_WEIGHT = (-WEIGHT_MAX, WEIGHT_MAX)
"""The range of a strategy weight that may be negative."""
SCORE_MAX = int(np.iinfo(np.int16).max)
"""The largest score the kernels' per-game result arrays (``np.int16``) hold."""


def check_score_fits(table: Table, key: str, terms: str, largest: int) -> None:
    """Refuse a rule set whose largest possible score exceeds ``SCORE_MAX``.

    ``largest`` bounds every score at every player count; ``terms`` says in words how it
    is made up, so that the error shows a designer which values to lower.
    """
    if largest > SCORE_MAX:
        raise table.error(key, f"the largest possible score, {terms} = {largest}, is more "
                               f"than the {SCORE_MAX} a simulated score holds; allowed: "
                               f"values whose largest score is at most {SCORE_MAX}")


@dataclass(frozen=True)
class TableSpec:
    """One table to simulate: the rules in force and a strategy per player."""

    game: str
    label: str
    players: int
    variant: str
    rules: Any
    """The game's rule set at this table (for Piece o' Cake, a ``TableRules``)."""
    strategies: tuple
    """One strategy per player; player ``j`` sits at seat ``j`` unless deals rotate."""
    duplicate: bool = False
    """Play every deal once per seat rotation, so seats are compared on identical deals."""

    @property
    def games_per_deal(self) -> int:
        """Games played on each deal: P with duplicate deals, else 1."""
        return self.players if self.duplicate else 1

    def player_of_seat(self, seat: np.ndarray, rotation: np.ndarray) -> np.ndarray:
        """The player (strategy slot) at ``seat`` in a game of ``rotation``."""
        return (seat - rotation) % self.players


@dataclass
class Chunk:
    """The results of games ``first_game .. first_game + n``: per seat and per game."""

    first_game: int
    seat: dict[str, np.ndarray]
    """Per-seat metrics, arrays of shape ``(n, P)``: in a competitive game ``win_units``
    is always present; a cooperative game has none."""
    game: dict[str, np.ndarray]
    """Per-game metrics, arrays of shape ``(n,)``."""
    item: dict[str, np.ndarray] = field(default_factory=dict)
    """Per-item metrics (e.g. per order card), arrays of shape ``(n, K)``: summed, not kept."""

    @property
    def games(self) -> int:
        """Number of games in the chunk."""
        return next(iter(self.game.values())).shape[0]


class Game(Protocol):
    """A game as the runner, the experiments and the CLI use it."""

    name: str
    title: str
    cooperative: bool
    """All players win or lose together: no seats to compare, a win rate per table."""
    win_units: int
    seat_metrics: tuple[str, ...]
    game_metrics: tuple[str, ...]

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` of ``seed`` at ``table``."""

    def seat_role(self, table: TableSpec, seat: int) -> str:
        """A seat's name in the game's words, e.g. ``first waiter (cakes 1, 5)``."""
