"""Do the intervals cover the truth 95 % of the time? Checked where the truth is known.

Two cheap Piece o' Cake tables: 2 players at random on independent deals, and the greedy
chooser with the balanced cutter at both seats on duplicate deals (the same deterministic
player in every seat, so the two rotations of a deal are the same game: the case where
counting games instead of deals gives intervals about 1/sqrt(2) too narrow; the balanced
cutter plays some 150,000 games/s, the enumerating one of plain greedy 4,000). Their truth
(the first seat's win share and mean score) comes from one large run, stored in
``tests/data/coverage_truth.json`` with its seed and size; ``make parity`` checks that it
is reproduced. Then many small runs (consecutive blocks of games of another seed: blocks
of deals are independent samples just like runs of other seeds) each compute their
intervals exactly as a report does, and we count how many cover the truth.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cakesim.engine.contract import Chunk
from cakesim.engine.runner import DealSums, TableRun, Totals
from cakesim.reports.summaries import seat_summary
from tests.games.piece_o_cake.conftest import GAME, table_of

TRUTH = Path(__file__).parents[1] / "data" / "coverage_truth.json"
TABLES = {"random independent": (("random",), False),
          "greedy-balanced duplicate": (("greedy-balanced",), True)}
NUMBERS = ("win_share", "mean_total")
SMALL_SEED = 20261202


def table(name: str):
    """One of the two coverage tables, at 2 players."""
    names, duplicate = TABLES[name]
    return table_of(2, "base", names, duplicate=duplicate)


def block_summaries(name: str, blocks: int, deals: int, seed: int,
                    first_game: int = 0) -> list[dict]:
    """Seat 0's report entry for each of ``blocks`` consecutive blocks of ``deals`` deals."""
    t = table(name)
    size = deals * t.games_per_deal
    chunk = GAME.play_chunk(t, seed, first_game, blocks * size)
    found = []
    for b in range(blocks):
        part = slice(b * size, (b + 1) * size)
        piece = Chunk(first_game + b * size, {k: v[part] for k, v in chunk.seat.items()},
                      {k: v[part] for k, v in chunk.game.items()})
        totals = Totals(t.players, (*GAME.seat_metrics, "win_units"), GAME.game_metrics_of(t))
        totals.add(DealSums.of_chunk(piece, t))
        found.append(seat_summary(TableRun(t, seed, totals, pd.DataFrame(), False))[0])
    return found


def compute_truth(games: int, seed: int) -> dict:
    """The first seat's win share and mean score of both tables from ``games`` games."""
    truth = {}
    for name in TABLES:
        t = table(name)
        blocks = games // 100_000
        entries = block_summaries(name, blocks, 100_000 // t.games_per_deal, seed)
        truth[name] = {n: float(np.mean([e[n]["value"] for e in entries])) for n in NUMBERS}
    return {"seed": seed, "games": games, "truth": truth}


def coverage(name: str, blocks: int, deals: int) -> dict[str, float]:
    """Share of blocks whose 95 % interval covers the stored truth, per number."""
    truth = json.loads(TRUTH.read_text())["truth"][name]
    entries = block_summaries(name, blocks, deals, SMALL_SEED)
    return {n: float(np.mean([e[n]["low"] <= truth[n] <= e[n]["high"] for e in entries]))
            for n in NUMBERS}


@pytest.mark.parametrize("name", TABLES)
def test_intervals_cover_the_truth_95_percent_of_the_time(name):
    # 1,000 runs of 100 deals: the coverage is known to +-0.7 pp.
    for number, share in coverage(name, 1000, 100).items():
        assert 0.93 <= share <= 0.97, (name, number, share)


@pytest.mark.slow
@pytest.mark.parametrize("name", TABLES)
def test_intervals_cover_the_truth_in_a_long_run(name):
    for number, share in coverage(name, 5000, 200).items():
        assert 0.94 <= share <= 0.96, (name, number, share)


@pytest.mark.slow
def test_the_stored_truth_is_reproduced():
    stored = json.loads(TRUTH.read_text())
    assert compute_truth(stored["games"], stored["seed"]) == stored
