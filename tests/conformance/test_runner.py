"""Results do not depend on how games are cut into chunks, on processes, or on the cache."""

import numpy as np

from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import ResultKind
from cakesim.engine.fingerprint import digest
from cakesim.engine.runner import run_table
from tests.conformance.conftest import default_table


def _table(game):
    # Duplicate deals where a game has seats, so chunks must start on deal boundaries.
    return default_table(game, duplicate=game.result_kind is ResultKind.SEATS)


def test_results_do_not_depend_on_chunks_or_processes(game):
    table = _table(game)
    games = 30 * table.games_per_deal
    one = run_table(table, games, seed=5, n_jobs=1, chunk_size=games, progress=False)
    many = run_table(table, games, seed=5, n_jobs=2, chunk_size=7, progress=False)
    assert digest(one.totals) == digest(many.totals)
    for kind in ("seat", "player", "game", "item"):
        a, b = getattr(one.by_deal, kind), getattr(many.by_deal, kind)
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[m], b[m]) for m in a), kind
    assert one.rows.equals(many.rows)


def test_a_chunk_read_back_from_the_cache_is_the_chunk_stored(game, tmp_path):
    table = _table(game)
    chunk = game.play_chunk(table, seed=2, first_game=0, games=2 * table.games_per_deal)
    cache = ChunkCache(tmp_path)
    assert cache.load(table, 2, 0, chunk.games) is None
    cache.store(table, 2, chunk)
    back = cache.load(table, 2, 0, chunk.games)
    for kind in ("seat", "game", "item"):
        stored, read = getattr(chunk, kind), getattr(back, kind)
        assert stored.keys() == read.keys(), kind
        for metric in stored:
            assert np.array_equal(stored[metric], read[metric]), (kind, metric)
            assert stored[metric].dtype == read[metric].dtype, (kind, metric)


def test_a_run_from_the_cache_sums_to_the_same_totals(game, tmp_path):
    table = _table(game)
    games = 12 * table.games_per_deal
    cache = ChunkCache(tmp_path)
    played = run_table(table, games, 4, n_jobs=1, chunk_size=5, progress=False, cache=cache)
    again = run_table(table, games, 4, n_jobs=1, chunk_size=5, progress=False, cache=cache)
    assert again.chunks_reused == again.chunks == played.chunks
    assert digest(played.totals) == digest(again.totals)
