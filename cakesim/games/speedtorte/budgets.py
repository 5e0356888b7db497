"""Eilauftrag time budgets: which budget gives a level the intended chance of winning.

The clock never changes how the bakers play, so a table is simulated once without a
clock: a game won after ``T`` seconds is won under every budget of at least ``T``. The win
rate at budget ``B`` is then the share of games won within ``B``, and the budget for a
target win rate ``w`` is the ``w``-quantile of the finishing times, lost games counting as
never finishing. Intervals on budgets come from a bootstrap over games (percentile
method); intervals on win rates are Wilson intervals.
"""

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import Game, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.runner import DEFAULT_KEEP_ROWS, run_table
from cakesim.engine.tables import Table
from cakesim.games.speedtorte.timing import PARAMETERS
from cakesim.stats.intervals import wilson

SENSITIVITY = (0.8, 1.2)
"""Each timing parameter is scaled by these factors to see how far a budget moves."""


@dataclass(frozen=True)
class BudgetQuestion:
    """What the budget analysis reports: targets, bootstrap size, sensitivity tables."""

    targets: tuple[float, ...] = (0.5, 0.8)
    bootstrap: int = 1000
    sensitivity_players: tuple[int, ...] = (3,)
    sensitivity_games: int = 5000

    def at_most(self, games: int) -> "BudgetQuestion":
        """The same question with sensitivity runs of at most ``games`` games."""
        return replace(self, sensitivity_games=min(self.sensitivity_games, games))


def parse_question(table: Table) -> BudgetQuestion:
    """The ``[budgets]`` section of an experiment."""
    table.only(["targets", "bootstrap", "sensitivity_players", "sensitivity_games"])
    targets = table.get("targets", list, [0.5, 0.8])
    for target in targets:
        if not isinstance(target, int | float) or not 0 < target < 1:
            raise table.error("targets", f"{target!r} is not a win rate between 0 and 1")
    players = table.int_list("sensitivity_players", 1, 5, [3])
    return BudgetQuestion(tuple(float(t) for t in targets),
                          table.int_in("bootstrap", 100, 100_000, 1000), tuple(players),
                          table.int_in("sensitivity_games", 100, 10**7, 5000))


def finishing_seconds(rows: pd.DataFrame) -> np.ndarray:
    """Per game: seconds to the win, or infinity for a lost game."""
    seconds = rows["finish_ms"].to_numpy(np.float64) / 1000.0
    return np.where(rows["won"].to_numpy() == 1, seconds, np.inf)


def budget_for(seconds: np.ndarray, target: float) -> float:
    """The shortest budget under which a share ``target`` of the games is won (or NaN)."""
    k = math.ceil(target * seconds.size)
    value = np.partition(seconds, k - 1)[k - 1]
    return float(value) if np.isfinite(value) else math.nan


def bootstrap_budgets(seconds: np.ndarray, target: float, draws: int,
                      seed: int) -> np.ndarray:
    """``draws`` bootstrap replicates of :func:`budget_for`."""
    return _resampled(lambda pick: budget_for(seconds[pick], target), seconds.size, draws,
                      seed)


def _resampled(statistic, games: int, draws: int, seed: int) -> np.ndarray:
    """``statistic`` of ``draws`` bootstrap samples of ``games`` game indices.

    A paired statistic draws the same games from two tables; a budget out of reach is
    NaN, which ``interval`` reports. (``scipy.stats.bootstrap(paired=True)`` could do
    both, but draws its samples in another order: these are the draws behind the
    committed reports and baselines.)
    """
    rng = np.random.default_rng(seed)
    return np.array([statistic(rng.integers(0, games, games)) for _ in range(draws)])


def interval(replicates: np.ndarray) -> tuple[float, float]:
    """The 95 % percentile interval of bootstrap replicates (NaN if any is unreachable)."""
    if np.isnan(replicates).any():
        return math.nan, math.nan
    low, high = np.percentile(replicates, [2.5, 97.5])
    return float(low), float(high)


def paired_budget_difference(after: np.ndarray, before: np.ndarray, target: float,
                             draws: int, seed: int) -> dict:
    """The budget for ``target`` under ``after`` minus under ``before``, both played on the
    same deals (game ``i`` of one is game ``i`` of the other), with a bootstrap interval
    that draws the same games from both (NaN where either is out of reach)."""
    low, high = interval(_resampled(
        lambda pick: budget_for(after[pick], target) - budget_for(before[pick], target),
        after.size, draws, seed))
    return {"target": target,
            "difference": budget_for(after, target) - budget_for(before, target),
            "low": low, "high": high}


def budget_estimate(seconds: np.ndarray, target: float, draws: int, seed: int) -> dict:
    """The budget for ``target`` with its bootstrap interval and the win rate it gives."""
    budget = budget_for(seconds, target)
    low, high = interval(bootstrap_budgets(seconds, target, draws, seed))
    rate = win_rate_at(seconds, budget) if not math.isnan(budget) else None
    return {"target": target, "value": budget, "low": low, "high": high,
            "win_rate": rate.as_dict() if rate is not None else None}


def win_rate_at(seconds: np.ndarray, budget: float):
    """The share of games won within ``budget`` seconds, with its Wilson interval."""
    return wilson(float((seconds <= budget).mean()), seconds.size)


def with_scaled_timing(table: TableSpec, parameter: str, factor: float) -> TableSpec:
    """``table`` with one timing parameter of its profile scaled by ``factor``."""
    profile = table.rules.timing.scaled(parameter, factor)
    return replace(table, rules=replace(table.rules, timing=profile),
                   label=f"{table.label} ({parameter} x{factor:g})")


def sensitivity(table: TableSpec, question: BudgetQuestion, seed: int, n_jobs: int = -1,
                cache: ChunkCache | None = None) -> list[dict]:
    """How far each target's budget moves when each timing parameter changes by ±20 %
    (the runs' chunks kept in ``cache``, so that a second run reads them back)."""
    base = run_table(table, question.sensitivity_games, seed, n_jobs, progress=False,
                     cache=cache)
    reference = {t: budget_for(finishing_seconds(base.rows), t) for t in question.targets}
    moves = []
    for parameter in PARAMETERS:
        for factor in SENSITIVITY:
            run = run_table(with_scaled_timing(table, parameter, factor),
                            question.sensitivity_games, seed, n_jobs, progress=False,
                            cache=cache)
            seconds = finishing_seconds(run.rows)
            for target in question.targets:
                moves.append({"table": table.label, "parameter": parameter, "factor": factor,
                              "target": target, "budget": budget_for(seconds, target),
                              "base_budget": reference[target]})
    return moves


def clock(seconds: float) -> str:
    """``3:25`` (minutes and seconds), or ``out of reach`` for NaN."""
    if seconds is None or math.isnan(seconds):
        return "out of reach"
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def recommend_budget(game: Game, rules, level: str, players: int, target: float,
                     profile: str | None = None, games: int = 10_000, seed: int = 20261201,
                     bootstrap: int = 1000, n_jobs: int = -1, tier: str = "team") -> str:
    """``cakesim speedtorte budget``: the budget for ``target`` wins, its interval and effect,
    for bakers of skill ``tier``."""
    if games > DEFAULT_KEEP_ROWS:
        # The budget is a quantile of every game's finishing time: all rows must be kept.
        raise InputError("--games", "games", f"{games} is out of range; allowed: 1 to "
                                             f"{DEFAULT_KEEP_ROWS} (every game's time is kept)")
    profile = rules.timing.profile(profile).name
    table = game.table(rules, players, [game.named_strategy(tier)] * players, "eilauftrag",
                       level=level, profile=profile)
    seed_budget = rules.timing.seed_budget(table.rules.level.name, players)
    run = run_table(table, games, seed, n_jobs, progress=False)
    seconds = finishing_seconds(run.rows)
    estimate = budget_estimate(seconds, target, bootstrap, seed)
    at_seed = win_rate_at(seconds, seed_budget)
    lines = [f"{table.rules.level.name}, {players} player(s), {profile} bakers: {games:,} "
             f"Eilauftrag games (seed {seed}, {tier} bakers)"]
    without = float(np.isfinite(seconds).mean())
    if math.isnan(estimate["value"]):
        lines.append(f"A {100 * target:g} % win rate is out of reach: even without a clock only "
                     f"{100 * without:.1f} % of games are won.")
    else:
        rate = estimate["win_rate"]
        bounds = ("[interval open: the target is near the win rate without a clock]"
                  if math.isnan(estimate["low"]) else
                  f"[{clock(estimate['low'])}, {clock(estimate['high'])}]")
        lines.append(f"Budget for {100 * target:g} % wins: {clock(estimate['value'])} {bounds}"
                     f" (95 % bootstrap); it gives {100 * rate['value']:.1f} % "
                     f"[{100 * rate['low']:.1f}, {100 * rate['high']:.1f}] wins.")
    lines.append(f"The seed's budget {clock(seed_budget)} gives {100 * at_seed.value:.1f} % wins;"
                 f" without a clock {100 * without:.1f} %.")
    return "\n".join(lines)
