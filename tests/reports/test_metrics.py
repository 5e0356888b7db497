"""Table metrics from per-game rows: Balance, first-place ties, winning margin."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from cakesim.engine.cache import ChunkCache
from cakesim.engine.runner import run_table
from cakesim.reports import metrics
from cakesim.reports.hooks import ReportHooks
from cakesim.reports.metrics import balance, lead_changes, markdown, table_metrics, trajectories
from tests.games.piece_o_cake.conftest import table_of


def _run(win_units: list[list[int]], totals: list[list[int]], units: int = 2):
    games, players = np.shape(win_units)
    rows = pd.DataFrame({"game": np.repeat(np.arange(games), players),
                         "deal": np.repeat(np.arange(games), players),
                         "seat": np.tile(np.arange(players), games),
                         "win_units": np.ravel(win_units), "total": np.ravel(totals)})
    table = SimpleNamespace(players=players, game=SimpleNamespace(win_units=units))
    return SimpleNamespace(rows=rows.sample(frac=1, random_state=1), table=table,
                           rows_complete=True)


def test_ties_and_margin_follow_their_definitions():
    # Seat 0 wins games 0 and 1 alone; game 2 is a shared first place; seat 1 wins game 3.
    run = _run([[2, 0], [2, 0], [1, 1], [0, 2]], [[9, 5], [7, 6], [4, 4], [3, 8]])
    found = table_metrics(run, seed=1)
    assert found["first_place_ties"]["value"] == pytest.approx(0.25)
    assert found["winning_margin"]["value"] == pytest.approx((4 + 1 + 0 + 5) / 4)


def test_balance_is_one_minus_the_largest_gap_when_deals_do_not_vary():
    # Every deal alike: no chance to remove, the interval is the value itself.
    found = balance(np.tile([0.45, 0.2, 0.35], (5, 1)), seed=1)
    assert (found.value, found.low, found.high) == pytest.approx((0.75, 0.75, 0.75))


def test_the_balance_interval_covers_it_over_many_deals():
    # Win shares 0.625 and 0.375: the seats are 0.25 apart, 5 standard errors.
    run = _run([[2, 0], [2, 0], [1, 1], [0, 2]] * 100, [[9, 5], [7, 6], [4, 4], [3, 8]] * 100)
    found = table_metrics(run, seed=1)["balance"]
    assert found["value"] == pytest.approx(0.75, abs=0.005)
    assert found["low"] < 0.75 < found["high"] and found["high"] - found["low"] < 0.3


def test_a_gap_within_chance_reaches_balance_one_and_is_partly_removed():
    # Four games: shares 0.625 and 0.375 are well within chance of a fair table.
    run = _run([[2, 0], [2, 0], [1, 1], [0, 2]], [[9, 5], [7, 6], [4, 4], [3, 8]])
    found = table_metrics(run, seed=1)["balance"]
    assert found["high"] == 1 and 0.75 < found["value"] <= 1


def test_a_table_of_one_deal_has_no_balance_and_the_report_says_why():
    found = table_metrics(_run([[2, 0]], [[5, 1]]), seed=1)
    assert np.isnan([found["balance"][k] for k in ("value", "low", "high")]).all()
    # Read back from strict JSON the numbers are None.
    for shown in (found, {**found, "balance": {k: None for k in found["balance"]}}):
        table = {"label": "x", "control": False, "metrics": shown}
        assert "— (too few deals)" in "\n".join(markdown([table]))


def test_a_table_without_rows_has_no_metrics_and_the_report_leaves_it_out():
    run = _run([[2, 0]], [[1, 0]])
    run.rows = run.rows.iloc[:0]
    assert table_metrics(run, seed=1) is None
    assert markdown([{"label": "x", "metrics": None}]) == []


def test_lead_changes_count_a_new_sole_leader_and_ignore_shared_leads():
    # Seat 0 leads, a tie, seat 0 again (no change), seat 1 (one), back to seat 0 (two).
    scores = np.array([[3, 1], [3, 3], [4, 3], [4, 6], [9, 6]])
    assert lead_changes(scores) == 2
    assert lead_changes(np.array([[1, 1], [2, 2]])) == 0


def test_trajectories_average_each_seat_after_each_round_by_deal():
    paths = {0: [[1, 0], [1, 2]], 1: [[0, 1], [3, 1]]}

    class Game(ReportHooks):
        def score_trajectory(self, table, seed, index):
            return np.array(paths[index % 2])

    table = SimpleNamespace(game=Game(), games_per_deal=2, players=2)
    run = SimpleNamespace(table=table, seed=5, totals=SimpleNamespace(games=60))
    found = trajectories(run, games=5)
    assert found["games"] == 4  # whole deals only
    assert trajectories(run)["games"] == 6  # a tenth of the table's games
    assert found["lead_changes"]["value"] == pytest.approx(1.0)
    assert found["score_by_round"][1][0]["value"] == pytest.approx(2.0)
    assert found["score_by_round"][0][1]["value"] == pytest.approx(0.5)


class _Alternating(ReportHooks):
    """Game ``i`` scores as game ``i % 3`` does: a module-level class, so workers get it."""

    def score_trajectory(self, table, seed, index):
        return np.array([[index % 3, 1], [2, index % 3 + seed]])


def test_trajectories_replayed_on_several_cores_are_the_same_numbers():
    table = SimpleNamespace(game=_Alternating(), games_per_deal=1, players=2)
    run = SimpleNamespace(table=table, seed=4, totals=SimpleNamespace(games=6000))
    alone = trajectories(run, n_jobs=1)
    # 600 replays: the first, then three parallel tasks of at most 250.
    assert alone["games"] == 600
    assert trajectories(run, n_jobs=2) == alone
    assert alone["score_by_round"][0][0]["value"] == pytest.approx(1.0)


def test_replays_filed_in_the_cache_are_read_back_instead_of_played(tmp_path, monkeypatch):
    run = run_table(table_of(2, "base", ("random",)), 3000, seed=3, n_jobs=1, progress=False)
    cache = ChunkCache(tmp_path)
    played = trajectories(run, n_jobs=1, cache=cache)
    filed = sorted(tmp_path.rglob("*.replays.npy"))
    assert played["games"] == 300 and len(filed) == 2  # games 1-250 and 251-299

    def not_again(*args):
        raise AssertionError("replayed although filed")

    with monkeypatch.context() as patched:
        patched.setattr(metrics, "_replays", not_again)
        assert trajectories(run, n_jobs=1, cache=cache) == played
    # An unreadable file is replayed (and filed again); other seeds are other replays.
    filed[0].write_bytes(b"")
    assert trajectories(run, n_jobs=1, cache=cache) == played
    assert sum(len(np.load(path)) for path in filed) == 299
    again = run_table(run.table, 3000, seed=4, n_jobs=1, progress=False)
    assert trajectories(again, n_jobs=1, cache=cache) != played
    assert len(list(tmp_path.rglob("*.replays.npy"))) == 4
