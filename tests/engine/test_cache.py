"""The chunk cache: a restarted run reuses finished chunks and gets the same result."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cakesim.app.api import run_experiment
from cakesim.app.experiment import load_experiment
from cakesim.engine.cache import ChunkCache
from cakesim.engine.runner import run_table
from cakesim.games import GAMES
from cakesim.reports.summary_file import read_summary
from cakesim.stats.baseline import results_digest
from tests.games.piece_o_cake.conftest import table_of


def test_a_stored_chunk_comes_back_unchanged(tmp_path):
    table = table_of(3, "base", ("greedy",))
    cache = ChunkCache(tmp_path)
    first = run_table(table, 900, seed=3, n_jobs=1, chunk_size=300, progress=False,
                      cache=cache)
    again = run_table(table, 900, seed=3, n_jobs=1, chunk_size=300, progress=False,
                      cache=cache)
    assert (first.chunks_reused, again.chunks_reused, again.chunks) == (0, 3, 3)
    assert results_digest([first]) == results_digest([again])
    assert first.rows.equals(again.rows)


def test_another_seed_or_strategy_is_not_taken_from_the_cache(tmp_path):
    cache = ChunkCache(tmp_path)
    run_table(table_of(3, "base", ("greedy",)), 300, seed=3, n_jobs=1, progress=False,
              cache=cache)
    other_seed = run_table(table_of(3, "base", ("greedy",)), 300, seed=4, n_jobs=1,
                           progress=False, cache=cache)
    other_play = run_table(table_of(3, "base", ("random",)), 300, seed=3, n_jobs=1,
                           progress=False, cache=cache)
    assert other_seed.chunks_reused == other_play.chunks_reused == 0


def test_a_damaged_chunk_is_played_again(tmp_path):
    table = table_of(2, "base", ("random",))
    cache = ChunkCache(tmp_path)
    first = run_table(table, 400, seed=1, n_jobs=1, chunk_size=200, progress=False,
                      cache=cache)
    cache.path(table, 1, 0, 200).write_bytes(b"half a chunk")
    again = run_table(table, 400, seed=1, n_jobs=1, chunk_size=200, progress=False,
                      cache=cache)
    assert again.chunks_reused == 1
    assert results_digest([first]) == results_digest([again])


def test_a_filed_result_comes_back_under_its_own_key_only(tmp_path):
    cache = ChunkCache(tmp_path)
    key = {"result": "upper_bound", "seed": 3, "deals": 40}
    assert cache.load_result(key) is None
    cache.store_result(key, {"won": 38, "unproven": 1})
    assert cache.load_result(key) == {"won": 38, "unproven": 1}
    assert cache.load_result(key | {"seed": 4}) is None
    cache.result_path(key).write_text('{"won": 3')  # cut short: computed again
    assert cache.load_result(key) is None


def test_a_run_killed_midway_and_restarted_plays_only_the_missing_chunks(
        tmp_path, tiny_experiment):
    # Many small chunks, so that the run is killed midway; few games, as the restarted
    # run's report replays a tenth of them in plain Python (the score by round).
    path = tiny_experiment(games=2000, chunk=50)
    env = dict(os.environ, CAKESIM_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "cakesim", "run", str(path), "--n-jobs", "1",
               "--quiet", "--out", str(tmp_path / "killed")]
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list((tmp_path / "cache").rglob("*.npz"))) < 5:
        assert run.poll() is None, "the run finished before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    run.send_signal(signal.SIGKILL)
    run.wait()
    finished = len(list((tmp_path / "cache").rglob("*.npz")))
    total = 4 * 2000 // 50
    assert finished < total

    restarted = subprocess.run([*command[:-1], str(tmp_path / "restarted")], env=env,
                               capture_output=True, text=True, check=True)
    assert f"reused {finished} of {total} chunks" in restarted.stderr

    whole = run_experiment(path, n_jobs=1, progress=False, cache=False, write=False)
    resumed = run_experiment(path, n_jobs=1, progress=False, cache=tmp_path / "cache",
                             write=False)
    assert resumed.chunks_reused == total
    assert results_digest(whole.runs) == results_digest(resumed.runs)
    assert np.array_equal(whole.runs[0].totals.seat_sum["total"],
                          resumed.runs[0].totals.seat_sum["total"])


def assert_same_totals(a, b) -> None:
    """Every exact sum of two tables' totals is equal: seat, player, game and item stores."""
    assert (a.games, a.deals) == (b.games, b.deals)
    for store in ("seat_sum", "seat_sq", "player_sum", "player_sq", "contrast_sum",
                  "contrast_sq", "game_sum", "game_sq", "item_sum", "item_sq"):
        mine, theirs = getattr(a, store), getattr(b, store)
        assert mine.keys() == theirs.keys(), store
        for metric in mine:
            assert np.array_equal(mine[metric], theirs[metric]), (store, metric)


def test_a_zero_byte_chunk_counts_as_missing(tmp_path):
    table = table_of(2, "base", ("random",))
    cache = ChunkCache(tmp_path)
    run_table(table, 200, seed=1, n_jobs=1, progress=False, cache=cache)
    cache.path(table, 1, 0, 200).write_bytes(b"")
    again = run_table(table, 200, seed=1, n_jobs=1, progress=False, cache=cache)
    assert again.chunks_reused == 0


ONE_PER_GAME = ("first_player_bias", "finisher_value", "order_card_difficulty",
                "topp_jar_policies")
"""The smallest experiment of each game: the default suite re-runs these, ``make parity``
every experiment (the cache is shared machinery; each game's metrics must survive it)."""


@pytest.mark.parametrize("name", [
    pytest.param(p.stem, marks=() if p.stem in ONE_PER_GAME else pytest.mark.slow)
    for p in sorted(Path("experiments").glob("*.toml"))])
def test_every_experiment_reruns_from_the_cache_with_identical_totals(tmp_path, name):
    # Per-item metrics (Speedtorte's order cards) must survive the cache like every other.
    experiment = load_experiment(name, ci=True)
    # The cache, not the sample size, is under test: at most 20 games per table (10 per
    # skill row, with search players at every seat) keeps the ladders (hundreds of tables,
    # some with enumerating cutters), the skill rows and the lookahead bakers to seconds.
    games = min(experiment.ci.games, 20)
    runs = []
    for attempt in ("played", "cached"):
        result = run_experiment(name, games=games, seed=experiment.ci.seed,
                                n_jobs=1, out=tmp_path / attempt, progress=False,
                                cache=tmp_path / "cache", sample_size=False, skill_games=10)
        runs.append(result)
        assert (tmp_path / attempt / "report.md").exists()
    played, cached = runs
    assert cached.chunks_reused == cached.chunks > 0 and played.chunks_reused == 0
    for a, b in zip(played.runs, cached.runs, strict=True):
        assert_same_totals(a.totals, b.totals)
        if a.by_deal is not None:
            for kind in ("seat", "player", "game", "item"):
                for metric, values in getattr(a.by_deal, kind).items():
                    assert np.array_equal(values, getattr(b.by_deal, kind)[metric])
    first = read_summary(tmp_path / "played")
    second = read_summary(tmp_path / "cached")
    for summary in (first, second):
        summary.pop("written")
        summary.pop("command", None)
    assert first == second


def test_one_experiment_per_game_reruns_in_the_default_suite():
    games = {load_experiment(name).game.name for name in ONE_PER_GAME}
    assert games == set(GAMES)
