"""The Numba kernel and the reference engine play the same Speedtorte games, game for game."""

import itertools

import pytest

from cakesim.games.speedtorte.game import VARIANTS
from tests.conformance.conftest import assert_parity
from tests.games.speedtorte.conftest import LEVELS, table_of

BASIC = ("signals", "silence", "open_hands", "special_orders", "eilauftrag")
SETTINGS = list(itertools.product((1, 2, 3, 5), BASIC))
COMBINED = [v for v in VARIANTS if v not in BASIC]
"""The modes combined with special orders and the Eilauftrag."""


@pytest.mark.parametrize(("players", "variant"), SETTINGS)
def test_kernel_matches_reference(players, variant):
    for level in (LEVELS[0], LEVELS[3]):
        assert_parity(table_of(players, level, variant), seed=17, first=500, games=25)


@pytest.mark.parametrize("variant", COMBINED)
def test_every_combination_of_modes(variant):
    assert_parity(table_of(3, LEVELS[3], variant, ("team", "novice", "greedy")), seed=23,
                  first=0, games=25)


@pytest.mark.parametrize("level", LEVELS)
def test_mixed_and_random_bakers(level):
    assert_parity(table_of(3, level, "signals", ("random", "team", "greedy")), seed=2,
                  first=0, games=40)


@pytest.mark.parametrize("variant", ["signals", "open_hands", "eilauftrag",
                                     "special_orders+eilauftrag"])
def test_lookahead_and_novice_bakers(variant):
    assert_parity(table_of(3, LEVELS[4], variant, ("lookahead", "novice", "team")), seed=9,
                  first=0, games=12)


@pytest.mark.parametrize("profile", ["adult", "novice"])
def test_real_time_with_every_profile_and_mixed_bakers(profile):
    table = table_of(4, LEVELS[2], "eilauftrag", ("random", "team", "greedy", "team"),
                     profile)
    assert_parity(table, seed=6, first=0, games=40)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant"), SETTINGS + [(3, v) for v in COMBINED])
def test_long_parity_run(players, variant):
    for level in LEVELS:
        assert_parity(table_of(players, level, variant), seed=99, first=0, games=300)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_long_lookahead_parity_run(players):
    for level in LEVELS:
        assert_parity(table_of(players, level, "signals", ("lookahead",)), seed=98, first=0,
                      games=40)
