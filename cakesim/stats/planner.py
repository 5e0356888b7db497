"""How many games a question needs, from the variance measured in a short pilot run.

The estimate of seat ``k``'s win share is the mean of its per-game shares; written as
the seat contrast ``(P x_k - sum x) / P`` summed per deal (shares sum to one per game), the
same formula covers independent deals and duplicate deals, where each deal is played once
per seat rotation. Its variance per game played, ``v``, sets the games needed:

- for a 95 % interval of half-width ``h``: ``n = (z / h)^2 v``;
- to detect a seat ``effect`` away from fair with ``power`` at two-sided ``level``:
  ``n = ((z_level + z_power) / effect)^2 v``.

The variance-reduction factor of duplicate deals is ``v_independent / v_duplicate``: above
one, duplicate deals need that many times fewer games for the same precision.

This module is the arithmetic; ``cakesim.analyses.planner`` plays the pilot runs.
"""

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from cakesim.engine.contract import TableSpec
from cakesim.engine.runner import Totals
from cakesim.stats.intervals import LEVEL, z_value


@dataclass(frozen=True)
class Question:
    """What the games must achieve: an interval half-width, or power against an effect."""

    half_width: float | None = None
    effect: float | None = None
    power: float = 0.8
    level: float = LEVEL

    def factor(self) -> float:
        """``n / v``: games needed per unit of per-game variance."""
        if self.half_width is not None:
            return (z_value(self.level) / self.half_width) ** 2
        z_power = float(scipy_stats.norm.ppf(self.power))
        return ((z_value(self.level) + z_power) / self.effect) ** 2

    def describe(self) -> str:
        """``a 95 % interval of ±0.5 pp``, or ``a 1 pp effect at power 0.8, level 0.05``."""
        if self.half_width is not None:
            return f"a {100 * self.level:g} % interval of ±{100 * self.half_width:g} pp"
        return (f"a {100 * self.effect:g} pp effect at power {self.power:g}, "
                f"two-sided level {1 - self.level:g}")


def seat_variance(totals: Totals, win_units: int) -> np.ndarray:
    """Per seat: variance, per game played, of the seat's win-share estimate."""
    players, deals = totals.players, totals.deals
    per_deal = totals.games // deals
    total = totals.contrast_sum["win_units"].astype(np.float64)
    square = totals.contrast_sq["win_units"].astype(np.float64)
    variance = (square - total * total / deals) / (deals - 1)
    return variance / (win_units ** 2 * players ** 2 * per_deal)


def plan_rows(table: TableSpec, question: Question,
              variance: dict[bool, np.ndarray]) -> pd.DataFrame:
    """One row per seat: the pilots' variances (``variance[duplicate]``, per game), the
    duplicate factor and the games ``question`` needs both ways."""
    per_variance = question.factor()
    rows = []
    for seat in range(table.players):
        independent, duplicate = variance[False][seat], variance[True][seat]
        games_duplicate = math.ceil(per_variance * duplicate / table.players) * table.players
        rows.append({
            "table": table.label, "seat": seat + 1,
            "role": str(table.game.seat_name(table, seat)),
            "variance_independent": independent, "variance_duplicate": duplicate,
            "duplicate_factor": independent / duplicate if duplicate > 0 else math.inf,
            "games_independent": math.ceil(per_variance * independent),
            "games_duplicate": games_duplicate,
        })
    return pd.DataFrame(rows)


GATE_POWER = 0.8
"""The power the regression gate's ``[ci]`` size must give against ``GATE_MOVE``."""

GATE_MOVE = 0.015
"""The move of a headline (primary) win share that the regression gate must catch."""


def gate_power(se: float, family: int, level: float, move: float = GATE_MOVE) -> float:
    """Power of the gate to flag one primary number that moved by ``move``.

    ``se`` is the standard error of one run's estimate; a paired comparison after a real
    change is taken at its worst, as if the change re-dealt every game (``sqrt(2) se``; a
    changed majority value measured ``1.24 se``), and Holm's first step at its strictest,
    Bonferroni over the ``family``.
    """
    if not math.isfinite(se) or se <= 0:
        return 0.0 if not math.isfinite(se) else 1.0
    z = float(scipy_stats.norm.isf(level / (2 * family)))
    return float(scipy_stats.norm.sf(z - move / (math.sqrt(2) * se)))


def gate_games(games: int, se: float, family: int, level: float,
               move: float = GATE_MOVE, power: float = GATE_POWER) -> int:
    """The games a table needs for ``gate_power`` to reach ``power``, from a run of
    ``games`` games whose estimate had standard error ``se`` (``se`` shrinks as 1/sqrt n)."""
    z = float(scipy_stats.norm.isf(level / (2 * family))) + float(scipy_stats.norm.ppf(power))
    return math.ceil(games * (math.sqrt(2) * se * z / move) ** 2)
