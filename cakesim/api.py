"""The Python API the CLI and notebooks share."""

import shlex
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from cakesim.experiment import Experiment, load_experiment
from cakesim.games import get_game
from cakesim.report import write_report
from cakesim.runner import DEFAULT_CHUNK, DEFAULT_KEEP_ROWS, TableRun, run_table


@dataclass
class ExperimentResult:
    """An experiment's runs and where its report went."""

    experiment: Experiment
    runs: list[TableRun]
    report: Path | None


def simulate(game: str, players: int, strategies="greedy", games: int = 10_000,
             seed: int = 0, variant: str = "base", duplicate: bool = False,
             rules: str | Path | None = None, n_jobs: int = -1,
             chunk_size: int = DEFAULT_CHUNK, keep_rows: int = DEFAULT_KEEP_ROWS,
             progress: bool = False) -> pd.DataFrame:
    """Play ``games`` games and return one row per game and seat.

    ``strategies`` is a built-in strategy name, a strategy object, or one per seat.
    Seat 0 is the first waiter. ``rules`` is a rule-set file (default: published rules).
    """
    g = get_game(game)
    if not isinstance(strategies, list | tuple):
        strategies = [strategies] * players
    chosen = [g.named_strategy(s) if isinstance(s, str) else s for s in strategies]
    table = g.table(g.load_rules(rules), players, chosen, variant, duplicate)
    return run_table(table, games, seed, n_jobs, chunk_size, keep_rows, progress).rows


def run_experiment(path: str | Path, games: int | None = None, seed: int | None = None,
                   n_jobs: int = -1, out: str | Path | None = None,
                   progress: bool = True, write: bool = True) -> ExperimentResult:
    """Run every table of an experiment and (unless ``write`` is false) write its report."""
    experiment = load_experiment(str(path), games, seed)
    runs = [run_table(table, count, experiment.seed, n_jobs, experiment.chunk_size,
                      experiment.keep_rows, progress)
            for table, count in zip(experiment.tables, experiment.table_games, strict=True)]
    report = None
    if write:
        out = Path(out) if out is not None else Path("reports") / experiment.name
        command = f"cakesim run {shlex.quote(str(experiment.path))} --seed {experiment.seed}"
        if games is not None:
            command += f" --games {games}"
        report = write_report(experiment, runs, out, command)
    return ExperimentResult(experiment, runs, report)
