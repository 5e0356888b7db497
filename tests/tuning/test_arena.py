"""Measurements of a candidate: seats, duplicate deals, splits and refusals."""

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.games import game_named
from cakesim.tuning.arena import Arena, candidate_wins, measure, share_of
from tests.tuning.conftest import GAME


def test_a_strategy_against_itself_wins_exactly_its_share_of_every_deal(arena):
    # Deterministic play: on a duplicate deal the candidate takes each seat once, so
    # its wins over the deal are one whole game's, whoever wins each rotation.
    bot = GAME.named_strategy("greedy-balanced")
    wins = candidate_wins(arena, bot, bot, seed=3, first_deal=0, deals=200)
    assert wins.shape == (200, 2)
    assert np.allclose(wins.sum(axis=1), 1.0)


def test_the_candidate_is_player_zero_at_every_seat_in_turn(arena):
    # Against random play the greedy candidate should win at both seats.
    wins = candidate_wins(arena, GAME.named_strategy("greedy-balanced"),
                          GAME.named_strategy("random"), seed=3, first_deal=0, deals=300)
    assert (wins.mean(axis=0) > 0.8).all()


def test_a_measurement_does_not_depend_on_how_it_is_split(arena):
    pairs = [(GAME.named_strategy("greedy-deny"), GAME.named_strategy("greedy-balanced")),
             (GAME.named_strategy("random"), GAME.named_strategy("greedy"))]
    whole = measure(arena, pairs, seed=9, games=400, n_jobs=1)
    split = measure(arena, pairs, seed=9, games=400, n_jobs=2, deals_per_job=37)
    for a, b in zip(whole, split, strict=True):
        assert np.array_equal(a, b)
    assert share_of(whole[0]).n == 200


def test_team_games_and_missing_variants_are_refused():
    speedtorte = game_named("speedtorte")
    with pytest.raises(InputError, match="self-play"):
        Arena(speedtorte, speedtorte.load_rules(), 3, "signals")
    with pytest.raises(InputError, match="--variant"):
        Arena(GAME, GAME.load_rules(), 2, "no-such-variant")
