"""The lookahead cutter: the same games in both engines, blind to the hidden order, and
the cut after which the waiter stands furthest ahead."""

from dataclasses import replace

import numpy as np
import pytest

from cakesim.engine.seeding import DECISION_STREAM, reset_stream
from cakesim.games.piece_o_cake import kernel, lookahead, steps
from cakesim.games.piece_o_cake.strategies import choose_action
from tests.conformance.conftest import assert_parity
from tests.games.piece_o_cake.conftest import GAME, RULES, table_arrays


def looking_ahead(players):
    """The tuned bot at ``players``, cutting by lookahead."""
    return replace(GAME.named_strategy("tuned", players), name="lookahead", cutter="lookahead")


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "joker-compensation"),
                                                  (3, "joker-2-rounds")])
def test_kernel_matches_reference_with_lookahead_cutters(players, variant):
    # The joker leaves decisions pending inside a served cake; banked rounds count in a
    # standing.
    others = [GAME.named_strategy("tuned", players), GAME.named_strategy("random"),
              GAME.named_strategy("greedy", players)]
    table = GAME.table(RULES, players, [looking_ahead(players), *others][:players], variant,
                       duplicate=True)
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


def test_the_lookahead_cannot_see_the_hidden_order():
    rules, seats, state, scratch, space = table_arrays(4, looking_ahead(4))
    kernel.deal_order(np.uint64(9), 0, 0, state.deal_stream, state.order)
    reset_stream(state.seen.stream, np.uint64(9), 0, DECISION_STREAM)
    n = rules.slices_per_cake
    cut = _first_cut(rules, seats, state, scratch, space)
    hidden = state.order[n:].copy()
    for shift in (1, 7):
        state.order[n:] = np.roll(hidden, shift)
        assert _first_cut(rules, seats, state, scratch, space) == cut
    assert int(cut) in set(rules.cut_masks.tolist())


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
        for _ in range(4):
            waiter = steps.waiter_of(world.clock, 4)
            seat = (waiter + world.clock[steps.TURN]) % 4
            action, index, eat_mask = choose_action(
                seats, seat, world.seen, world.clock[steps.PORTIONS], rules, scratch)
            steps.choose(seat, action, index, eat_mask, rules, world)
        leads.append(lookahead.standing_lead(rules, seats.chances[0], 0, world, scratch))
    leads = np.array(leads)
    chosen = int(np.flatnonzero(rules.cut_masks == cut)[0])
    assert leads[chosen] == leads.max()
    assert chosen == int(np.argmax(leads))
    # The lookahead is not the enumerating cutter under another name: it differs there.
    assert leads.max() > leads.min()
