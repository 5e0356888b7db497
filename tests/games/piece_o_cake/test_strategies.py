"""The greedy strategies' shortcuts give exactly what the plain valuation gives."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.engine.jit import as_index
from cakesim.games.piece_o_cake import strategies
from cakesim.games.piece_o_cake.kernel import new_scratch, new_state, rule_data
from cakesim.games.piece_o_cake.strategies import (
    COLLECT_WEIGHT,
    DECLINE_THRESHOLD,
    EAT_WEIGHT,
    chance_table_shape,
    fill_chances,
)
from cakesim.games.slicing.circle import cut_table
from tests.games.piece_o_cake.conftest import RULES

KINDS = len(RULES.kinds)
N = RULES.slices_per_cake
MOST = max(RULES.slice_kind.count(k) for k in range(KINDS))
CREAM_OF_KIND = [RULES.slice_cream[RULES.slice_kind.index(k)] for k in range(KINDS)]

weights = st.tuples(st.floats(0, 3), st.floats(0, 3), st.floats(0, 2), st.floats(-5, 5))
piles = st.lists(st.lists(st.integers(0, 4), min_size=KINDS, max_size=KINDS), min_size=2,
                 max_size=5)


def view(params, piles, cake):
    """Chance table, the kernel's bundles and the piles of a made-up position.

    The bundles are the kernel's ``View`` (piles, cake and open counts filled in), its
    ``RuleData`` for the players of ``piles``, and fresh ``Scratch``.
    """
    chances = np.zeros(chance_table_shape(MOST))
    fill_chances(np.array(params), True, chances)
    collected = np.array(piles, dtype=np.int16)
    kinds = np.array(cake, dtype=np.uint8)
    players = len(piles)
    rules = rule_data(RULES.for_table(players).arrays,
                      cut_table(N, RULES.portion_limit(players)))
    seen = new_state(rules, players).seen._replace(
        collected=collected,
        collected_cream=collected * np.array(CREAM_OF_KIND, dtype=np.int16),
        cake_kind=kinds, cake_cream=np.array([CREAM_OF_KIND[k] for k in cake], dtype=np.int8),
        still_open=np.bincount(kinds, minlength=KINDS).astype(np.int16) + 1)
    return chances, seen, rules, new_scratch(rules, players)


@settings(max_examples=150, deadline=None)
@given(weights, piles, st.lists(st.integers(0, KINDS - 1), min_size=N, max_size=N),
       st.integers(1, N))
def test_reused_gains_value_every_arc_as_planning_it_afresh(params, piles, cake, longest):
    chances, seen, rules, scratch = view(params, piles, cake)
    strategies.fill_rivals(seen.collected, 0, scratch.rivals)
    values = []
    for reuse in (False, True):
        scratch.arc_value[:] = 0.0
        strategies._value_arcs(np.array(params), chances, 0, longest, seen,
                               rules._replace(reuse_gains=reuse), scratch)
        values.append(scratch.arc_value.copy())
    assert np.array_equal(values[0], values[1])


@settings(max_examples=300, deadline=None)
@given(weights, piles, st.floats(-10, 40))
def test_a_skipped_decline_could_not_have_won(params, piles, best_value):
    chances, seen, rules, scratch = view(params, piles, [0] * N)
    strategies.fill_rivals(seen.collected, 0, scratch.rivals)
    params = np.array(params)
    if strategies._no_decline_beats(params, 0, seen.collected_cream, best_value):
        kind, gain = strategies.best_decline(params, chances, 0, seen, rules, scratch)
        assert kind < 0 or gain - params[DECLINE_THRESHOLD] <= best_value


def test_the_bound_is_only_trusted_for_weights_that_are_not_negative():
    cream = np.array([[6] + [0] * (KINDS - 1)], dtype=np.int16)
    params = np.zeros(4)
    params[EAT_WEIGHT], params[COLLECT_WEIGHT] = 1.0, -1.0
    assert not strategies._no_decline_beats(params, 0, cream, 100.0)


def test_as_index_is_the_identity_in_plain_python():
    assert as_index(7) == 7 and type(as_index(7)) is int
