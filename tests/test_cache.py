"""The chunk cache: a restarted run reuses finished chunks and gets the same result."""

import os
import signal
import subprocess
import sys
import time

import numpy as np

from cakesim.api import run_experiment
from cakesim.baseline import results_digest
from cakesim.cache import ChunkCache
from cakesim.runner import run_table
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


def test_a_run_killed_midway_and_restarted_plays_only_the_missing_chunks(
        tmp_path, tiny_experiment):
    path = tiny_experiment(games=6000, chunk=150)
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
    total = 4 * 6000 // 150
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
