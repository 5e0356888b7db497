"""The Numba kernel and the reference engine play the same games, game for game.

Every setting at a few games is the conformance suite's (``tests/conformance``); here are
the game's own tables (mixed seats, deny weights, scoring switches) and, in ``make
parity``, every setting at length."""

import itertools

import pytest

from cakesim.games.part_du_chef.strategies import Strategy
from tests.conformance.conftest import assert_parity
from tests.games.part_du_chef.conftest import ENUMERATING, GAME, RULES, STRATEGY_NAMES, table_of

SETTINGS = list(itertools.product((2, 3, 4, 5), ("base", "marianne"), STRATEGY_NAMES))
# The plain-Python reference plays about 100 random games/s, 45 greedy ones with the
# balanced cutter and 13 with the enumerating cutter; the search and lookahead players,
# compiled in both engines, 3 to 40 games/s: fewer games where it is slow.
SEARCHING = GAME.search_strategies



@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_tables_on_duplicate_deals(players):
    names = [STRATEGY_NAMES[(s + 2) % len(STRATEGY_NAMES)] for s in range(players)]
    assert_parity(table_of(players, "marianne", names, duplicate=True), seed=5, first=0,
                  games=2 * players)


# deny_weight off the built-in 1: half and double, with the enumerating cutter (a chef
# values every seat's arcs with its own weights) and with sure leads (uncertainty 0).
DENYING = {s.name: s for s in (
    Strategy("deny-half", cutter="balanced", weights=(("deny_weight", 0.5),)),
    Strategy("deny-double", weights=(("deny_weight", 2.0),)),
    Strategy("deny-sure", cutter="balanced", weights=(
        ("deny_weight", 1.5), ("uncertainty", 0.0), ("diversity_weight", 0.5))))}
DENY_TABLES = {2: ("deny-double", "greedy-balanced"),
               3: ("deny-sure", "greedy-balanced", "greedy-deny"),
               4: ("greedy-deny", "random", "deny-half", "greedy-balanced"),
               5: ("deny-half", "greedy-balanced", "greedy-deny", "glutton", "deny-double")}


@pytest.mark.parametrize(("players", "variant"),
                         list(itertools.product((2, 3, 4, 5), ("base", "marianne"))))
def test_deny_weights_at_mixed_tables_on_duplicate_deals(players, variant):
    seated = [DENYING.get(n) or GAME.named_strategy(n, players) for n in DENY_TABLES[players]]
    assert_parity(GAME.table(RULES, players, seated, variant, duplicate=True), seed=17,
                  first=0, games=2 * players)


@pytest.mark.parametrize(("receipt", "peppers"), [("holder", "independent"),
                                                  ("receiver", "sequential"),
                                                  ("holder", "sequential")])
def test_scoring_switches(receipt, peppers):
    rules = RULES.with_overrides(receipt_point=receipt, pepper_assignment=peppers)
    assert_parity(table_of(3, "marianne", ("random",), rules=rules), 3, 0, 30)
    assert_parity(table_of(4, "base", ("glutton",), rules=rules), 3, 0, 8)


LONG_RUN = {"random": 2000, **{name: 100 for name in ENUMERATING},
            **{name: 40 for name in SEARCHING}, "lookahead": 40}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant", "strategy"), SETTINGS)
def test_kernel_matches_reference_at_length(players, variant, strategy):
    assert_parity(table_of(players, variant, (strategy,)), seed=2026, first=0,
                  games=LONG_RUN.get(strategy, 400))
