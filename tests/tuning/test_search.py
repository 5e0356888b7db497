"""The self-play tuner: reproducible from its seed, resumable, and it finds better play."""

import dataclasses

import numpy as np
import pytest

from cakesim.tuning import search
from cakesim.tuning.search import Budget, Space, tune
from tests.tuning.conftest import GAME

SMALL = Budget(evaluations=24, rounds=2, games=200, confirm=400)


def test_the_unit_box_maps_weights_there_and_back(arena):
    space = Space(arena, GAME.named_strategy("greedy-balanced"))
    x = np.linspace(0.1, 0.9, len(space.names))
    again = space.point(space.strategy(x, "probe"))
    assert np.allclose(again, x, atol=1e-3)
    assert space.strategy(x, "probe").cutter == "balanced"


def test_tuning_is_a_pure_function_of_its_seed(arena):
    one = tune(arena, SMALL, seed=5, n_jobs=1, progress=False)
    two = tune(arena, SMALL, seed=5, n_jobs=2, progress=False)
    other = tune(arena, SMALL, seed=6, n_jobs=1, progress=False)
    assert one.strategy == two.strategy
    assert [s.value for s in one.against] == [s.value for s in two.against]
    assert other.strategy != one.strategy


def test_an_interrupted_tuning_continues_to_the_same_strategy(arena, tmp_path, monkeypatch):
    whole = tune(arena, SMALL, seed=5, n_jobs=1, progress=False)
    calls = {"n": 0}
    measure = search.measure

    def interrupted(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return measure(*args, **kwargs)

    monkeypatch.setattr(search, "measure", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tune(arena, SMALL, seed=5, n_jobs=1, progress=False, cache=tmp_path)
    monkeypatch.setattr(search, "measure", measure)
    # The global generator is disturbed in between, as any other work would.
    np.random.seed(12345)
    resumed = tune(arena, SMALL, seed=5, n_jobs=1, progress=False, cache=tmp_path)
    assert resumed.strategy == whole.strategy
    assert [s.value for s in resumed.against] == [s.value for s in whole.against]


def test_tuning_finds_play_that_beats_the_stock_bot(arena):
    outcome = tune(arena, Budget(evaluations=32, rounds=1, games=400, confirm=2000), seed=1,
                   n_jobs=1, progress=False)
    # The stock bot never breaks a tie; any win-seeking candidate buries it.
    assert [m.name for m in outcome.population] == ["greedy-balanced", "exploiter 1"]
    assert outcome.alone[0].low > 0.6 and outcome.against[0].high < 0.4
    assert dataclasses.replace(outcome.strategy, weights=()).cutter == "balanced"
