"""What a game may add to its reports: sections, answers, team-game columns, item parts and
the score after each round (the ``ReportHooks`` capability, mixed into ``Game``).

The reports and the experiment loader ask ``hooks_of(game)``: a game that adds nothing
gets the defaults, so a new game needs none of this to be reported.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import Game, TableSpec
from cakesim.engine.tables import Table


class Section(Protocol):
    """A game-specific or shared analysis an experiment can ask for (``[ladder]``, ...).

    A section is a module with these functions; ``ReportHooks.experiment_sections`` names them.
    """

    def parse(self, table: Table):
        """The section's question, read strictly from its experiment-file table; the
        question has ``at_most(games)``, the same question playing no more games than
        that in runs of its own."""

    def check(self, question, tables: list, path) -> None:
        """Optional: refuse, when the experiment is read and before any game is played,
        tables the question cannot use (``InputError`` naming ``path`` and the key)."""

    def analyse(self, experiment, runs: list, question, n_jobs: int = -1,
                cache: ChunkCache | None = None) -> dict:
        """Every number of the section, from the experiment's runs (and runs of its own,
        whose chunks go into ``cache``)."""

    def headline(self, data: dict) -> str:
        """The section's answer in one line."""

    def numbers(self, data: dict) -> dict[str, dict]:
        """The numbers the regression gate watches, each an ``Estimate`` as a dict."""

    def markdown(self, data: dict, plot) -> list[str]:
        """The section's part of report.md."""

    def plot(self, data: dict, runs: list, summary: dict, out: Path):
        """Draw the section's figure into ``out``; its path, or ``None``."""


@dataclass(frozen=True)
class ReportColumn:
    """A per-game mean a team game's report shows beside each table's win rate."""

    metric: str
    heading: str
    share: bool = False
    """Shown as a percentage (a 0/1 metric such as how games were lost), else ``x ± h``."""


class ReportHooks:
    """A game's own report parts; every default adds nothing."""

    report_columns: ClassVar[tuple[ReportColumn, ...]] = ()
    """Per-game means a team game's report shows beside the win rate."""
    option_targets: ClassVar[dict[str, float]] = {}
    """A target win rate per value of the first table option (Speedtorte: per level),
    drawn on a team game's win-rate plot."""

    def experiment_sections(self) -> dict[str, Section]:
        """The game's own experiment sections (beyond the shared ones), by name."""
        return {}

    def answers(self) -> dict[str, Any]:
        """The game's own answer kinds an experiment may open with (``answer = "cards"``):
        name -> function of the report's summary giving an ``Answer`` (see
        ``cakesim.reports.answer``)."""
        return {}

    def score_trajectory(self, table: TableSpec, seed: int, index: int) -> np.ndarray | None:
        """Every seat's score after each round (a cake, a pizza) of game ``index``, shape
        ``(rounds, P)``, from the reference engine: for lead changes and the score-by-round
        plot. ``None`` (the default) for a game without rounds scored as it goes."""
        return None

    def summarise_items(self, runs: list) -> list[dict]:
        """Per item over all runs: what a report says of each (none by default)."""
        return []

    def items_markdown(self, summary: dict, out: Path) -> list[str]:
        """The report's section on items, its plots drawn into ``out`` (none by default)."""
        return []


NO_HOOKS = ReportHooks()


def hooks_of(game: Game) -> ReportHooks:
    """``game``'s report hooks, or the defaults when it adds none."""
    return game if isinstance(game, ReportHooks) else NO_HOOKS
