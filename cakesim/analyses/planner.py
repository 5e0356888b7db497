"""The sample-size planner's pilot runs: a short run of a table on independent and on
duplicate deals, whose variances ``cakesim.stats.planner`` turns into games needed."""

from dataclasses import replace

import pandas as pd

from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import TableSpec
from cakesim.engine.runner import DEFAULT_CHUNK, run_table
from cakesim.stats.planner import Question, plan_rows, seat_variance


def plan_table(table: TableSpec, question: Question, pilot_games: int, seed: int,
               n_jobs: int = -1, progress: bool = False,
               cache: ChunkCache | None = None) -> pd.DataFrame:
    """One row per seat: pilot variances, duplicate factor and games needed both ways
    (the pilot's chunks kept in ``cache``, as a table's are)."""
    variance = {}
    for duplicate in (False, True):
        deals = "duplicate" if duplicate else "independent"
        pilot = replace(table, duplicate=duplicate, label=f"pilot: {table.label}, {deals} deals")
        run = run_table(pilot, pilot_games, seed, n_jobs, min(DEFAULT_CHUNK, pilot_games),
                        keep_rows=0, progress=progress, cache=cache)
        variance[duplicate] = seat_variance(run.totals, table.game.win_units)
    return plan_rows(table, question, variance)


def plan_tables(tables: list[TableSpec], question: Question, pilot_games: int, seed: int,
                n_jobs: int = -1, progress: bool = False,
                cache: ChunkCache | None = None) -> pd.DataFrame:
    """:func:`plan_table` for every table, in one frame."""
    return pd.concat([plan_table(t, question, pilot_games, seed, n_jobs, progress, cache)
                      for t in tables], ignore_index=True)
