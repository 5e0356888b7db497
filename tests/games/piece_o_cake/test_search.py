"""The search player: replayable, blind to the hidden order, always legal, finds a win."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.games.piece_o_cake import kernel, search, steps, strategies
from cakesim.games.piece_o_cake.rules import JOKER_PLACEMENTS
from cakesim.kits.bandit import INDEX, KIND
from cakesim.kits.search import search_decision
from tests.conformance.conftest import assert_parity
from tests.games.piece_o_cake.conftest import GAME, RULES, deal_into, reference_result, table_arrays


def searcher(players, iterations=12.0, **weights):
    """The shipped search player at ``players`` with a small budget (and other weights)."""
    base = GAME.named_strategy("search", players)
    return GAME.with_weights(base, "search", {"iterations": iterations, **weights})


def test_search_strategies_are_the_tuned_bot_searching():
    tuned, deep = GAME.named_strategy("tuned", 4), GAME.named_strategy("search-deep", 4)
    assert (deep.chooser, deep.cutter) == ("search", "search")
    assert GAME.weights_of(deep) == GAME.weights_of(tuned) | {"iterations": 300.0}


def test_only_a_table_with_a_searching_player_compiles_the_search(monkeypatch):
    tuned = GAME.named_strategy("tuned", 3)
    assert GAME.searching(GAME.table(RULES, 3, [tuned] * 3, "base")) is None
    table = GAME.table(RULES, 3, [tuned, searcher(3), tuned], "base")
    assert GAME.searching(table) is True
    # A kernel told that nobody searches refuses a seat that does, rather than hang.
    monkeypatch.setattr(type(GAME), "searching", staticmethod(lambda table: None))
    with pytest.raises(ValueError, match="compiled without the search"):
        GAME.play_chunk(table, 1, 0, 1)


def test_a_game_is_a_function_of_seed_and_index():
    table = GAME.table(RULES, 3, [searcher(3)] * 3, "compensation")
    whole = GAME.play_chunk(table, 5, 0, 12)
    again = GAME.play_chunk(table, 5, 0, 12)
    second_half = GAME.play_chunk(table, 5, 6, 6)
    for metric, values in whole.seat.items():
        assert np.array_equal(values, again.seat[metric])
        assert np.array_equal(values[6:], second_half.seat[metric])


def test_kernel_matches_reference_with_search_against_other_strategies():
    table = GAME.table(RULES, 4, [searcher(4), GAME.named_strategy("tuned", 4),
                                  GAME.named_strategy("random"), searcher(4, 5.0)],
                       "compensation", duplicate=True)
    assert_parity(table, seed=3, first=0, games=8)


def test_kernel_matches_reference_with_tree_searchers():
    # Searchers with a tree of their own later decisions, beside a flat one; the joker
    # gives them every kind of decision.
    table = GAME.table(RULES, 3, [searcher(3, 30.0, depth=3.0), searcher(3),
                                  searcher(3, 20.0, depth=8.0)], "joker-compensation",
                       duplicate=True)
    assert_parity(table, seed=4, first=0, games=6)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1),
       iterations=st.integers(1, 30), exploration=st.floats(0.0, 2.0),
       widening=st.floats(0.1, 3.0), depth=st.sampled_from((1.0, 2.0, 6.0)))
def test_search_plays_only_legal_moves(players, seed, iterations, exploration, widening,
                                       depth):
    # The reference engine asserts that every move is legal.
    variant = "compensation" if RULES.has_compensation(players) else "base"
    player = searcher(players, float(iterations), exploration=exploration, widening=widening,
                      depth=depth)
    table = GAME.table(RULES, players, [player] * players, variant)
    result = reference_result(table, seed, 0)
    assert sum(result.win_units) == GAME.win_units
    assert GAME.kernel_outcome(GAME.play_chunk(table, seed, 0, 1), 0) == \
        GAME.result_metrics(table, result)


@pytest.mark.parametrize("placement", JOKER_PLACEMENTS)
def test_search_places_the_joker_only_where_it_may_go(placement):
    # The search player, told to place the joker wherever it may (so that it does), plays
    # only moves the reference engine accepts, and the same games as the kernel.
    rules = replace(RULES, joker_placement=placement)
    player = searcher(3, 8.0, joker_eat_bias=-50.0, swap_threshold=-50.0)
    table = GAME.table(rules, 3, [player] * 3, "joker-compensation", duplicate=True)
    chunk = GAME.play_chunk(table, 6, 0, 6)
    assert chunk.game["joker_placed"].sum() > 0
    assert_parity(table, seed=6, first=0, games=6)


def test_the_search_offers_the_joker_only_the_kinds_it_may_go_on():
    # Seat 1 holds the joker after a take that got it its first two kiwi; it had one plum
    # before. By default the kiwi is no candidate; the older reading offers it too.
    kinds = list(RULES.kinds)
    plum, kiwi = kinds.index("plum"), kinds.index("kiwi")
    offered = {}
    for placement in JOKER_PLACEMENTS:
        rules, seats, state, scratch, space = table_arrays(
            3, searcher(3), replace(RULES, joker_placement=placement), "joker")
        kernel.deal_order(np.uint64(9), 0, 1, state.deal_stream, state.order)
        steps.start_game(rules, state)
        view = state.seen
        view.collected[:] = 0
        view.collected[1, plum], view.collected[1, kiwi] = 1, 2
        view.before_take[:] = 0
        view.before_take[plum] = 1
        view.joker[:] = [strategies.JOKER_HAND, 1, -1]
        state.pending[:] = [steps.PLACE, 1, 0, 0]
        seat, *_ = search.prepare(rules, seats, state, space)
        count, _ = search.candidates(rules, seat, state, scratch, space, space.bandit)
        moves = space.bandit.move[:count]
        assert seat == 1 and set(moves[:, KIND]) == {search.JOKER}
        offered[placement] = sorted(moves[:, INDEX].tolist())
    assert offered == {"earlier": [-1, plum], "same_take": [-1, plum, kiwi]}


def _decision(rules, seats, state, scratch, space, stream):
    """The search's move at ``state`` drawing from a copy of ``stream``."""
    state.seen.stream[:] = stream
    return search_decision(rules, seats, state, scratch, space)


@pytest.mark.parametrize("depth", [1.0, 8.0])
def test_the_search_cannot_see_the_hidden_order(depth):
    # With a tree too: its nodes are keyed by what the searcher knows, not by the deal.
    rules, seats, state, scratch, space = table_arrays(3, searcher(3, 60.0, depth=depth))
    deal_into(state, 9)
    steps.start_game(rules, state)
    assert not steps.advance(rules, seats, state, scratch)  # the first cut
    stream = state.seen.stream.copy()
    seen = _decision(rules, seats, state, scratch, space, stream)
    n = rules.slices_per_cake
    hidden = state.order[n:].copy()
    permuted = []
    for shift in (1, 7):
        state.order[n:] = np.roll(hidden, shift)
        permuted.append(_decision(rules, seats, state, scratch, space, stream))
    assert permuted == [seen, seen]
    # Another deal of the next cakes (a different hidden set) may change it; the same
    # hidden set in another order may not. The decision is a real one:
    assert seen[0] == search.CUT and int(seen[2]) in set(rules.cut_masks.tolist())


def test_search_finds_the_only_winning_move_at_the_end():
    # 2 players, the last cake, the waiter (seat 0) chooses last. Seat 1 holds the
    # chocolate majority (4 against 3) and 13 points; seat 0 has 5 cream eaten. Taking the
    # last portion (two plum slices, 1 dollop each) gives at most 5 + 2 or 5 + plum's 3:
    # a loss. Declining and eating the three chocolate slices (3 dollops each) gives
    # 5 + 9 = 14: the only win. The rollout policy (every weight 0) takes the portion.
    player = searcher(2, 40.0, eat_weight=0.0, collect_weight=0.0, deny_weight=0.0)
    rules, seats, state, scratch, space = table_arrays(2, player)
    kinds = list(RULES.kinds)
    plum, chocolate = kinds.index("plum"), kinds.index("chocolate")
    kernel.deal_order(np.uint64(1), 0, 0, state.deal_stream, state.order)
    steps.start_game(rules, state)
    view = state.seen
    view.collected[:] = 0
    view.collected_cream[:] = 0
    view.collected[0, chocolate], view.collected_cream[0, chocolate] = 3, 9
    view.collected[1, chocolate], view.collected_cream[1, chocolate] = 4, 12
    state.eaten_cream[:] = [5, 2]
    n = rules.slices_per_cake
    view.cake_kind[:] = chocolate
    view.cake_kind[:2] = plum
    view.cake_cream[:] = 3
    view.cake_cream[:2] = 1
    view.portion_start[:2] = [0, 2]
    view.portion_len[:2] = [2, n - 2]
    view.portion_taken[:2] = [False, True]
    state.clock[:] = [rules.cakes - 1, 2, 2, 0]
    policy = seats._replace(codes=np.full_like(seats.codes, strategies.GREEDY))
    assert strategies.choose_action(policy, 0, view, 2, rules, scratch)[0] == strategies.TAKE
    move = _decision(rules, seats, state, scratch, space, np.zeros(2, dtype=np.uint64))
    assert move == (strategies.DECLINE_EAT, chocolate, 0)
