"""The runner: results never depend on n_jobs or chunking; memory stays bounded."""

import numpy as np
import pandas as pd
import pytest

from cakesim.engine import runner
from cakesim.engine.cache import ChunkCache
from cakesim.engine.runner import (
    Estimate,
    Interrupted,
    RunProgress,
    chunk_bounds,
    duration_text,
    estimate,
    run_table,
    run_tables,
)
from tests.engine.test_cache import assert_same_totals
from tests.games.piece_o_cake.conftest import table_of


def test_one_job_and_two_jobs_give_identical_results():
    table = table_of(4, "compensation", ("greedy",))
    one = run_table(table, 3000, seed=9, n_jobs=1, chunk_size=700, progress=False)
    two = run_table(table, 3000, seed=9, n_jobs=2, chunk_size=1100, progress=False)
    assert_same_totals(one.totals, two.totals)
    pd.testing.assert_frame_equal(one.rows, two.rows)


def test_tables_sharing_one_pool_give_each_table_its_own_results(tmp_path):
    tables = [(table_of(4, "compensation", ("greedy",)), 1400),
              (table_of(3, "base", ("random", "greedy", "greedy"), duplicate=True), 900)]
    cache = ChunkCache(tmp_path)
    # The first table's chunks are in the cache already: only the others are played.
    run_table(*tables[0], seed=9, n_jobs=1, chunk_size=300, progress=False, cache=cache)
    pooled = run_tables(tables, seed=9, n_jobs=2, chunk_size=300, progress=False, cache=cache)
    assert [run.table for run in pooled] == [table for table, _ in tables]
    assert [(run.chunks_reused, run.chunks) for run in pooled] == [(5, 5), (0, 3)]
    for (table, games), run in zip(tables, pooled, strict=True):
        alone = run_table(table, games, seed=9, n_jobs=1, chunk_size=500, progress=False)
        assert_same_totals(alone.totals, run.totals)
        pd.testing.assert_frame_equal(alone.rows, run.rows)


def test_the_pool_gets_the_slowest_chunks_first(monkeypatch):
    fast = table_of(4, "compensation", ("greedy",))
    slow = table_of(3, "base", ("random", "greedy", "greedy"), duplicate=True)
    # Known rates stand in for the timing; one job plays the chunks in the order sent.
    monkeypatch.setattr(runner, "seconds_per_game",
                        lambda table, seed, most: 1.0 if table is slow else 0.01)
    played = []

    def record(table, seed, start, stop):
        played.append((table is slow, stop - start))
        return table.game.play_chunk(table, seed, start, stop - start)

    monkeypatch.setattr(runner, "_play", record)
    run_tables([(fast, 500), (slow, 600)], seed=9, n_jobs=1, chunk_size=200, progress=False)
    # Cost is rate times games: every chunk of the slow table (its last, of 6 games, costs
    # 6 against 2 for 200 fast games), then the fast table's, its last of 100 games last.
    assert played == [(True, 198), (True, 198), (True, 198), (True, 6),
                      (False, 200), (False, 200), (False, 100)]


def test_rates_from_the_estimate_are_not_timed_again(monkeypatch):
    fast = table_of(4, "compensation", ("greedy",))
    slow = table_of(3, "base", ("random", "greedy", "greedy"), duplicate=True)
    timed = []
    monkeypatch.setattr(runner, "seconds_per_game",
                        lambda table, seed, most: timed.append(table) or 0.01)
    pairs = [(fast, 500), (slow, 600)]
    found = estimate(pairs, seed=9, chunk_size=200, cache=None, n_jobs=1)
    assert found.rates == (0.01, 0.01) and timed == [fast, slow]
    played = []

    def record(table, seed, start, stop):
        played.append(table is slow)
        return table.game.play_chunk(table, seed, start, stop - start)

    monkeypatch.setattr(runner, "_play", record)
    # The rates given, not the timing, order the work: the slow table's chunks first.
    run_tables(pairs, seed=9, n_jobs=1, chunk_size=200, progress=False, rates=(0.01, 1.0))
    assert timed == [fast, slow] and played == [True] * 4 + [False] * 3


def test_keep_rows_bounds_the_rows_but_not_the_sums():
    table = table_of(3, "base", ("random", "greedy", "greedy"), duplicate=True)
    full = run_table(table, 1200, seed=4, n_jobs=1, chunk_size=300, progress=False)
    capped = run_table(table, 1200, seed=4, n_jobs=1, chunk_size=300, keep_rows=450,
                       progress=False)
    assert_same_totals(full.totals, capped.totals)
    assert capped.rows["game"].nunique() == 450 and not capped.rows_complete
    assert len(full.rows) == 1200 * 3 and full.rows_complete
    # Sums agree with the rows they summarise.
    by_seat = full.rows.groupby("seat")["total"].sum().to_numpy()
    assert np.array_equal(by_seat, full.totals.seat_sum["total"])


def test_duplicate_deals_rotate_players_over_identical_deals():
    table = table_of(3, "base", ("random", "greedy", "greedy-balanced"), duplicate=True)
    rows = run_table(table, 30, seed=1, n_jobs=1, progress=False).rows
    assert rows["deal"].nunique() == 10
    seats_of_random = rows[rows["player"] == 0].groupby("deal")["seat"].apply(sorted)
    assert all(s == [0, 1, 2] for s in seats_of_random)


def test_chunks_start_on_deal_boundaries():
    assert chunk_bounds(10, 4, per_deal=3) == [(0, 3), (3, 6), (6, 9), (9, 10)]
    assert chunk_bounds(10, 4) == [(0, 4), (4, 8), (8, 10)]


def test_a_run_counts_every_game_of_its_tables_and_the_chunks_it_keeps(tmp_path):
    tables = [table_of(3, "base", ("greedy",)), table_of(4, "base", ("random",), duplicate=True)]
    cache = ChunkCache(tmp_path)
    # 101 games at 4 players on duplicate deals are 26 deals: 104 games.
    with RunProgress(200 + 104, enabled=False) as run:
        for table, games in zip(tables, (200, 101), strict=True):
            run_table(table, games, seed=2, n_jobs=1, chunk_size=100, progress=False,
                      cache=cache)
        assert run.games == 304 and run.kept == 2 + 2
    assert RunProgress.active() is None
    with pytest.raises(Interrupted) as stop, RunProgress(None, enabled=False) as again:
        run_table(tables[0], 200, seed=2, n_jobs=1, chunk_size=100, progress=False,
                  cache=cache)
        assert again.kept == 2
        raise KeyboardInterrupt
    assert stop.value.message == ("interrupted: 2 finished chunks kept; rerun the same "
                                  "command to resume")


def test_an_estimate_counts_only_the_games_the_cache_lacks(tmp_path):
    table = table_of(3, "base", ("greedy",))
    cache = ChunkCache(tmp_path)
    run_table(table, 100, seed=2, n_jobs=1, chunk_size=100, progress=False, cache=cache)
    found = estimate([(table, 300), (table_of(4, "base", ("random",), duplicate=True), 101)],
                     seed=2, chunk_size=100, cache=cache, n_jobs=2)
    # The first 100 games of the first table are cached; the duplicate table rounds up.
    assert (found.games, found.chunks, found.cached) == (200 + 104, 3 + 2, 1)
    assert found.workers == 2 and 0 < found.seconds < 60
    assert found.message.startswith("304 games to play, 1 of 5 chunks in the cache: about ")
    assert found.message.endswith(" on 2 cores (timed on a few games of each table)")


def test_an_estimate_of_a_cached_run_plays_nothing(tmp_path):
    table = table_of(2, "base", ("random",))
    cache = ChunkCache(tmp_path)
    run_table(table, 50, seed=1, n_jobs=1, chunk_size=25, progress=False, cache=cache)
    found = estimate([(table, 50)], seed=1, chunk_size=25, cache=cache, n_jobs=1)
    assert found == Estimate(games=0, chunks=2, cached=2, seconds=0.0, workers=1, rates=(0.0,))
    assert found.message == "every one of the 2 chunks is in the cache: nothing to play"


@pytest.mark.parametrize(("seconds", "text"), [(4.24, "4.2 s"), (185, "3 min 05 s"),
                                               (3720, "1 h 02 min")])
def test_durations_read_as_a_person_would_say_them(seconds, text):
    assert duration_text(seconds) == text
