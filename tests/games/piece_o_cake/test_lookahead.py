"""The lookahead players: the same games in both engines, blind to the hidden order, and
the cut (or move) after which the waiter (or chooser) stands furthest ahead."""

from dataclasses import replace

import numpy as np
import pytest

from cakesim.engine.seeding import DECISION_STREAM, reset_stream
from cakesim.games.piece_o_cake import kernel, lookahead, steps
from cakesim.games.piece_o_cake.search import choice_candidates, seat_rollout
from cakesim.games.piece_o_cake.strategies import BALANCED_CUT, choose_action
from cakesim.kits.bandit import DETAIL, INDEX, KIND
from tests.conformance.conftest import assert_parity
from tests.games.piece_o_cake.conftest import GAME, RULES, table_arrays


def looking_ahead(players):
    """The tuned bot at ``players``, cutting by lookahead (and choosing greedily)."""
    return replace(GAME.named_strategy("tuned", players), name="lookahead-cut",
                   cutter="lookahead")


def choosing_ahead(players):
    """The tuned bot at ``players``, choosing by lookahead (and cutting balanced)."""
    return replace(GAME.named_strategy("tuned", players), name="lookahead-choice",
                   chooser="lookahead")


def test_the_named_lookahead_is_the_tuned_bot_looking_ahead_at_both():
    named, tuned = GAME.named_strategy("lookahead", 4), GAME.named_strategy("tuned", 4)
    assert (named.chooser, named.cutter) == ("lookahead", "lookahead")
    assert named.weights == tuned.weights


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "joker-compensation"),
                                                  (3, "joker-2-rounds"), (5, "joker")])
def test_kernel_matches_reference_with_lookahead_players(players, variant):
    # The joker leaves decisions pending inside a served cake; banked rounds count in a
    # standing; a lookahead chooser keeps the set-aside slice as the greedy one does.
    others = [choosing_ahead(players), GAME.named_strategy("tuned", players),
              looking_ahead(players), GAME.named_strategy("random"),
              GAME.named_strategy("greedy", players)]
    table = GAME.table(RULES, players, [GAME.named_strategy("lookahead", players),
                                        *others][:players], variant, duplicate=True)
    assert_parity(table, seed=6, first=0, games=6)


def test_a_lookahead_cutter_compiles_the_working_space(monkeypatch):
    tuned = GAME.named_strategy("tuned", 3)
    table = GAME.table(RULES, 3, [tuned, looking_ahead(3), tuned], "base")
    assert GAME.searching(table) is True
    monkeypatch.setattr(type(GAME), "searching", staticmethod(lambda table: None))
    with pytest.raises(ValueError, match="compiled without the search"):
        GAME.play_chunk(table, 1, 0, 1)


def _first_cut(rules, seats, state, scratch, space):
    steps.start_game(rules, state)
    assert not steps.advance(rules, seats, state, scratch)
    assert lookahead.waits_for_lookahead(seats, state)
    return lookahead.lookahead_cut(rules, seats, state, scratch, space)


def _first_choice(rules, seats, state, scratch, space):
    steps.start_game(rules, state)
    assert not steps.advance(rules, seats, state, scratch)
    assert lookahead.waits_for_lookahead(seats, state)
    return tuple(int(x) for x in lookahead.lookahead_choice(rules, seats, state, scratch, space))


@pytest.mark.parametrize(("player", "first_decision"), [(looking_ahead, _first_cut),
                                                        (choosing_ahead, _first_choice)])
def test_the_lookahead_cannot_see_the_hidden_order(player, first_decision):
    rules, seats, state, scratch, space = table_arrays(4, player(4))
    kernel.deal_order(np.uint64(9), 0, 0, state.deal_stream, state.order)
    reset_stream(state.seen.stream, np.uint64(9), 0, DECISION_STREAM)
    n = rules.slices_per_cake
    decision = first_decision(rules, seats, state, scratch, space)
    hidden = state.order[n:].copy()
    for shift in (1, 7):
        state.order[n:] = np.roll(hidden, shift)
        assert first_decision(rules, seats, state, scratch, space) == decision


def _serve_by_hand(rules, seats, scratch, world, served):
    """The rest of the cake in ``world``: ``served`` more turns, each chooser greedy."""
    for _ in range(served):
        waiter = steps.waiter_of(world.clock, 4)
        seat = (waiter + world.clock[steps.TURN]) % 4
        action, index, eat_mask = choose_action(
            seats, seat, world.seen, world.clock[steps.PORTIONS], rules, scratch)
        steps.choose(seat, action, index, eat_mask, rules, world)


def test_the_cut_leaves_the_waiter_furthest_ahead():
    # Every cut served by hand, in the kernel's own steps: none leaves the waiter further
    # ahead than the chosen one, and the chosen one is the first that far ahead.
    rules, seats, state, scratch, space = table_arrays(4, looking_ahead(4))
    kernel.deal_order(np.uint64(3), 0, 0, state.deal_stream, state.order)
    cut = _first_cut(rules, seats, state, scratch, space)
    leads = []
    for mask in rules.cut_masks:
        world = kernel.new_state(rules, 4)
        world.order[:] = state.order
        steps.start_game(rules, world)
        steps.cut_cake(mask, world)
        _serve_by_hand(rules, seats, scratch, world, 4)
        leads.append(lookahead.standing_lead(rules, seats.chances[0], 0, world, scratch))
    leads = np.array(leads)
    chosen = int(np.flatnonzero(rules.cut_masks == cut)[0])
    assert leads[chosen] == leads.max()
    assert chosen == int(np.argmax(leads))
    # The lookahead is not the enumerating cutter under another name: it differs there.
    assert leads.max() > leads.min()


def test_the_choice_leaves_the_chooser_furthest_ahead():
    # At the first chooser's turn (seat 1; the waiter cut balanced), every candidate move
    # served by hand: the chosen move is the first of those leaving seat 1 furthest ahead,
    # and on some deal it is not the greedy move.
    rules, seats, state, scratch, space = table_arrays(4, choosing_ahead(4))
    differs = 0
    for deal in range(12):
        kernel.deal_order(np.uint64(deal), 0, 0, state.deal_stream, state.order)
        chosen = _first_choice(rules, seats, state, scratch, space)
        # The candidates: the greedy move first, then every other take, decline and pass.
        rollout = kernel.Strategies(seats.codes.copy(), seats.params.copy(),
                                    seats.chances.copy())
        seat_rollout(seats, 1, rollout)
        assert (rollout.codes[:, 1] == BALANCED_CUT).all()
        count = choice_candidates(rules, rollout, 1, state, scratch, space.bandit)
        moves = [tuple(int(x) for x in space.bandit.move[c, [KIND, INDEX, DETAIL]])
                 for c in range(count)]
        leads = []
        for action, index, eat_mask in moves:
            world = kernel.new_state(rules, 4)
            world.order[:] = state.order
            steps.start_game(rules, world)
            assert not steps.advance(rules, seats, world, scratch)
            steps.choose(1, action, index, eat_mask, rules, world)
            _serve_by_hand(rules, seats, scratch, world, 3)
            leads.append(lookahead.standing_lead(rules, seats.chances[1], 1, world, scratch))
        assert chosen == moves[int(np.argmax(leads))]
        differs += chosen != moves[0]
    assert differs > 0
