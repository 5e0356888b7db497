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
    DENY_WEIGHT,
    EAT_WEIGHT,
    PARAMETERS,
    chance_table_shape,
    fill_chances,
)
from cakesim.games.slicing.circle import cut_table
from tests.games.piece_o_cake.conftest import RULES

KINDS = len(RULES.kinds)
N = RULES.slices_per_cake
MOST = max(RULES.slice_kind.count(k) for k in range(KINDS))
CREAM_OF_KIND = [RULES.slice_cream[RULES.slice_kind.index(k)] for k in range(KINDS)]

weights = st.tuples(st.floats(0, 3), st.floats(0, 3), st.floats(0, 2), st.floats(-5, 5),
                    st.floats(0, 3))
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
        # No kind has more than MOST slices still open: the chance tables end there.
        still_open=np.minimum(np.bincount(kinds, minlength=KINDS) + 1, MOST).astype(np.int16))
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
    params = np.zeros(len(PARAMETERS))
    params[EAT_WEIGHT], params[COLLECT_WEIGHT] = 1.0, -1.0
    assert not strategies._no_decline_beats(params, 0, cream, 100.0)


def test_as_index_is_the_identity_in_plain_python():
    assert as_index(7) == 7 and type(as_index(7)) is int


# The win-seeking term: what a collected slice denies the best rival (``deny_weight``).

counts = st.integers(0, MOST)


def chance_table(params):
    """A filled chance table for ``params`` (ties score, as in the published rules)."""
    chances = np.zeros(chance_table_shape(MOST))
    fill_chances(np.array(params), True, chances)
    return chances


@settings(max_examples=300, deadline=None)
@given(weights, counts, counts, st.integers(0, MOST))
def test_a_slice_never_raises_the_rivals_chance(params, mine, rival, still_open):
    chances = chance_table(params)
    mine = min(mine, MOST - 1)
    denied = strategies.denied(chances, mine, rival, still_open)
    assert denied >= 0.0
    if rival == 0:
        assert denied == 0.0


@settings(max_examples=200, deadline=None)
@given(weights, st.integers(1, MOST - 1), st.integers(1, 6), st.integers(0, 4))
def test_breaking_a_settled_tie_is_worth_the_kind_only_through_denial(params, tied, value,
                                                                       cream):
    params = np.array(params)
    chances = chance_table(params)
    # Nothing left to come: a tie already wins our majority, so only the rival loses.
    assert strategies.chance_rise(chances, tied, tied, 0) == 0.0
    assert strategies.denied(chances, tied, tied, 0) == 1.0
    gain, eat = strategies.slice_choice(params, chances, tied, tied, 0, value, cream)
    collect = params[DENY_WEIGHT] * value
    assert gain == max(collect, params[EAT_WEIGHT] * cream)
    assert eat == (params[EAT_WEIGHT] * cream >= collect)


@settings(max_examples=300, deadline=None)
@given(weights, counts, counts, st.integers(0, MOST), st.integers(1, 6), st.integers(0, 4))
def test_without_denial_a_slice_is_valued_by_its_own_chance_alone(params, mine, rival,
                                                                  still_open, value, cream):
    params = np.array(params)
    params[DENY_WEIGHT] = 0.0
    chances = chance_table(params)
    mine = min(mine, MOST - 1)
    gain, _ = strategies.slice_choice(params, chances, mine, rival, still_open, value, cream)
    own = params[COLLECT_WEIGHT] * value * strategies.chance_rise(chances, mine, rival,
                                                                  still_open)
    assert gain == max(own, params[EAT_WEIGHT] * cream)


@settings(max_examples=200, deadline=None)
@given(weights, piles)
def test_denial_makes_eating_a_pile_no_more_attractive(params, piles):
    chances, seen, rules, scratch = view(params, piles, [0] * N)
    strategies.fill_rivals(seen.collected, 0, scratch.rivals)
    params = np.array(params)
    selfish = params.copy()
    selfish[DENY_WEIGHT] = 0.0
    for kind in range(KINDS):
        seen.collected[0, :] = 0
        seen.collected[0, kind] = piles[0][kind]
        seen.collected_cream[0, :] = seen.collected[0, :] * np.array(CREAM_OF_KIND)
        _, with_denial = strategies.best_decline(params, chances, 0, seen, rules, scratch)
        _, without = strategies.best_decline(selfish, chances, 0, seen, rules, scratch)
        assert with_denial <= without
