"""The greedy valuation of keeping a slice (``strategies.keep_gain``), the deny term above all.

``deny_weight`` credits what a kept slice takes from the best opponent's chance of the
kind's majority (``strategies.rival_value``). Hypothesis picks the piles and the weights;
``keep_gain`` runs compiled, as the kernel runs it, and as plain Python, as the reference does.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.engine.jit import plain_python
from cakesim.games.part_du_chef import strategies
from cakesim.games.part_du_chef.kernel import View, new_scratch, table_rules
from cakesim.games.part_du_chef.strategies import (
    DENY_WEIGHT,
    DIVERSITY_WEIGHT,
    MAJORITY_WEIGHT,
    PARAMETERS,
    SEARCH_PARAMETERS,
    UNCERTAINTY,
    Strategy,
    fill_rivals,
    keep_gain,
)
from cakesim.games.slicing.tabletop import lead_chance
from tests.games.part_du_chef.conftest import GAME, RULES

KINDS = len(RULES.kinds)
CATEGORIES = KINDS + 2
N = RULES.slices_per_pizza
RULES_OF = {p: table_rules(RULES.for_table(p)) for p in range(2, 6)}
plain_keep_gain = plain_python(keep_gain)

weights = st.fixed_dictionaries({
    "majority_weight": st.floats(0.0, 3.0), "diversity_weight": st.floats(0.0, 3.0),
    "uncertainty": st.floats(0.0, 2.0), "deny_weight": st.floats(0.0, 5.0)})

cases = st.integers(2, 5).flatmap(lambda players: st.fixed_dictionaries({
    "kept": st.lists(st.lists(st.integers(0, 6), min_size=CATEGORIES, max_size=CATEGORIES),
                     min_size=players, max_size=players),
    "added": st.lists(st.integers(0, 2), min_size=CATEGORIES, max_size=CATEGORIES),
    "seat": st.integers(0, players - 1), "kind": st.integers(0, KINDS - 1),
    "finisher": st.booleans(), "left": st.integers(0, 12), "weights": weights}))


def _params(weights: dict, **changes: float) -> np.ndarray:
    return Strategy("case", weights=tuple((weights | changes).items())).params


def _bundles(case: dict):
    """The view, rules and scratch ``keep_gain`` reads, rivals filled for ``seat``."""
    players = len(case["kept"])
    kept = np.array(case["kept"], np.int16)
    view = View(kept, np.zeros(CATEGORIES, np.int16), np.zeros(N, np.int8),
                np.zeros(N, np.int8), np.zeros(N, np.bool_), np.zeros(N, np.int64),
                np.zeros(N, np.int64), np.zeros(N, np.bool_))
    scratch = new_scratch(players, CATEGORIES, N)
    scratch.added[:] = case["added"]
    fill_rivals(kept, case["seat"], scratch.rivals, scratch.rival_ties)
    return view, RULES_OF[players], scratch


def _gain(case: dict, compiled: bool = True, **changes: float) -> float:
    view, rules, scratch = _bundles(case)
    function = keep_gain if compiled else plain_keep_gain
    return function(_params(case["weights"], **changes), case["seat"], case["kind"],
                    case["finisher"], case["left"], view, rules, scratch)


def _old_keep_gain(case: dict) -> float:
    """``keep_gain`` as it was before ``deny_weight``, written out in plain Python."""
    params = _params(case["weights"])
    kept, added, seat, kind, left = (case[k] for k in ("kept", "added", "seat", "kind", "left"))
    rows = [row for s, row in enumerate(kept) if s != seat]
    rival = max(row[kind] for row in rows)
    ties = sum(row[kind] == rival for row in rows)
    value = RULES.majority_value[kind]
    mine = kept[seat][kind] + added[kind]

    def held(m, r):
        if m <= 0:
            return 0.0
        return params[MAJORITY_WEIGHT] * value * lead_chance(m - r, left, params[UNCERTAINTY],
                                                             True)

    before = held(mine, rival)
    if case["finisher"] and rival > 0:
        after = held(mine + 2, rival - 1 if ties == 1 else rival)
    else:
        after = held(mine + 1, rival)
    gain = after - before
    counts = [kept[seat][k] + added[k] for k in range(KINDS)]
    if mine == min(counts):
        gain += params[DIVERSITY_WEIGHT] * RULES.diversity_bonus / counts.count(mine)
    return gain


def _denied(case: dict) -> float:
    """The deny term as the task states it: weight x value x the best rival's chance lost."""
    params = _params(case["weights"])
    kept, seat, kind, left = case["kept"], case["seat"], case["kind"], case["left"]
    rows = [row for s, row in enumerate(kept) if s != seat]
    rival = max(row[kind] for row in rows)
    ties = sum(row[kind] == rival for row in rows)
    mine = kept[seat][kind] + case["added"][kind]

    def chance(m, r):
        return 0.0 if r <= 0 else lead_chance(r - m, left, params[UNCERTAINTY], True)

    if case["finisher"] and rival > 0:
        after = chance(mine + 2, rival - 1 if ties == 1 else rival)
    else:
        after = chance(mine + 1, rival)
    return (params[DENY_WEIGHT] * RULES.majority_value[kind]
            * (chance(mine, rival) - after))


def test_deny_weight_is_the_last_heuristic_weight_and_off_by_default():
    # Only the search's weights come after it (appended, so older strategies play on).
    assert list(PARAMETERS)[DENY_WEIGHT] == "deny_weight"
    assert list(PARAMETERS)[DENY_WEIGHT + 1:] == list(SEARCH_PARAMETERS)
    assert PARAMETERS["deny_weight"][0] == 0.0
    for name, strategy in strategies.BUILTIN.items():
        assert strategy.params[DENY_WEIGHT] == (1.0 if name == "greedy-deny" else 0.0)
    deny = GAME.named_strategy("greedy-deny")
    balanced = GAME.named_strategy("greedy-balanced")
    assert deny.codes.tolist() == balanced.codes.tolist()
    assert np.array_equal(np.delete(deny.params, DENY_WEIGHT),
                          np.delete(balanced.params, DENY_WEIGHT))


@settings(max_examples=300, deadline=None)
@given(cases)
def test_without_deny_weight_keep_gain_is_the_old_formula(case):
    assert _gain(case, deny_weight=0.0) == _old_keep_gain(case)


@settings(max_examples=300, deadline=None)
@given(cases)
def test_the_deny_term_is_the_best_rivals_lost_chance_and_never_negative(case):
    # The rival's count never rises when I keep a slice: denying never costs.
    without = _gain(case, deny_weight=0.0)
    with_deny = _gain(case)
    assert with_deny >= without
    denied = _denied(case)
    assert denied >= 0.0
    assert with_deny - without == pytest.approx(denied, rel=1e-9, abs=1e-9)
    # The reference engine runs the same function as plain Python: the same float.
    assert _gain(case, compiled=False) == with_deny


@settings(max_examples=200, deadline=None)
@given(cases)
def test_no_deny_term_when_no_opponent_keeps_the_kind(case):
    for s, row in enumerate(case["kept"]):
        if s != case["seat"]:
            row[case["kind"]] = 0
    assert _denied(case) == 0.0
    assert _gain(case) == _gain(case, deny_weight=0.0)


@settings(max_examples=200, deadline=None)
@given(cases, st.integers(1, 6))
def test_breaking_a_tie_with_nothing_left_to_come_is_worth_the_value(case, tied):
    # My count equals the best opponent's: the tie scores for both; one more slice (a
    # finisher's two and its steal alike) takes the whole value from the opponent.
    case["left"] = 0
    case["added"][case["kind"]] = 0
    for row in case["kept"]:
        row[case["kind"]] = min(row[case["kind"]], tied)
    case["kept"][case["seat"]][case["kind"]] = tied
    case["kept"][(case["seat"] + 1) % len(case["kept"])][case["kind"]] = tied
    weight = case["weights"]["deny_weight"]
    value = RULES.majority_value[case["kind"]]
    assert _gain(case, diversity_weight=0.0) == weight * value
    assert _gain(case, diversity_weight=0.0, deny_weight=0.0) == 0.0

