"""What ``make bench`` times of a game: its benchmark tables and speed targets (the
``Benchmarked`` capability, mixed into ``Game``; a game without it is not benchmarked)."""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from cakesim.engine.contract import RuleSet, TableSpec


@dataclass(frozen=True)
class BenchTarget:
    """A speed target ``make bench`` checks for one strategy's tables of a game."""

    strategy: str
    rate: float
    """Kernel games per second on one core, at least."""
    ratio: float
    """Kernel speed over the reference engine's on the same games, at least."""
    players: int | None = None
    """The one player count the target is set for (``None``: every count)."""

    def covers(self, strategy: str, players: int) -> bool:
        """Whether the target applies to ``strategy``'s table at ``players``."""
        return self.strategy == strategy and self.players in (None, players)

    def describe(self) -> str:
        """The target in words, for the benchmark's header."""
        where = f"{self.strategy} rows" + (f" at {self.players}P" if self.players else "")
        return (f"{where}: >= {self.rate:,.0f} games/s per core and >= {self.ratio:,.0f}x "
                "the reference engine")


class Benchmarked(ABC):
    """A game with benchmark tables, each timed against the reference engine."""

    bench_targets: ClassVar[tuple[BenchTarget, ...]] = ()
    """The speed targets of the game's benchmark tables."""

    @abstractmethod
    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables, each with the strategy name it is reported under."""

    def searched_moves(self, table: TableSpec) -> int:
        """Moves per game that search players make at ``table`` (the benchmark's
        decisions/s); 0 when nobody searches."""
        return 0
