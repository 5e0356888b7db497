"""The Numba kernel and the reference engine play the same games, game for game."""

import itertools

import pytest

from tests.conformance.conftest import assert_parity
from tests.games.part_du_chef.conftest import ENUMERATING, RULES, STRATEGY_NAMES, table_of

SETTINGS = list(itertools.product((2, 3, 4, 5), ("base", "marianne"), STRATEGY_NAMES))
# The plain-Python reference plays about 100 random games/s, 45 greedy ones with the
# balanced cutter and 13 with the enumerating cutter: fewer games where it is slow.
GAMES = {"random": 30, **{name: 4 for name in ENUMERATING}}


@pytest.mark.parametrize(("players", "variant", "strategy"), SETTINGS)
def test_kernel_matches_reference(players, variant, strategy):
    assert_parity(table_of(players, variant, (strategy,)), seed=11, first=1000,
                  games=GAMES.get(strategy, 12))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_tables_on_duplicate_deals(players):
    names = [STRATEGY_NAMES[(s + 2) % len(STRATEGY_NAMES)] for s in range(players)]
    assert_parity(table_of(players, "marianne", names, duplicate=True), seed=5, first=0,
                  games=2 * players)


@pytest.mark.parametrize(("receipt", "peppers"), [("holder", "independent"),
                                                  ("receiver", "sequential"),
                                                  ("holder", "sequential")])
def test_scoring_switches(receipt, peppers):
    rules = RULES.with_overrides(receipt_point=receipt, pepper_assignment=peppers)
    assert_parity(table_of(3, "marianne", ("random",), rules=rules), 3, 0, 30)
    assert_parity(table_of(4, "base", ("glutton",), rules=rules), 3, 0, 8)


LONG_RUN = {"random": 2000, **{name: 100 for name in ENUMERATING}}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant", "strategy"), SETTINGS)
def test_kernel_matches_reference_at_length(players, variant, strategy):
    assert_parity(table_of(players, variant, (strategy,)), seed=2026, first=0,
                  games=LONG_RUN.get(strategy, 400))
