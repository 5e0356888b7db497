"""The lookahead players of La Part du Chef: the same games in both engines, blind to the
hidden order and to the stream, and the cut after which the chef stands furthest ahead."""

import dataclasses

import numpy as np
import pytest

from cakesim.engine.seeding import DECISION_STREAM
from cakesim.games.part_du_chef import kernel, lookahead, steps
from cakesim.games.part_du_chef.strategies import Strategy, choose_portion
from tests.conformance.conftest import assert_parity
from tests.games.part_du_chef.conftest import GAME, RULES
from tests.games.part_du_chef.test_search import DRAWING, copy_of, reshuffled


def looking_ahead(players, variant="base", **codes):
    """The named lookahead strategy of the table (the tuned one cutting and choosing by
    lookahead), with other ``codes`` if given."""
    return dataclasses.replace(GAME.named_strategy("lookahead", players, variant), **codes)


def tuned(players, variant="base"):
    return GAME.named_strategy("tuned", players, variant)


def test_the_named_lookahead_is_the_tuned_bot_looking_ahead_at_both():
    named = GAME.named_strategy("lookahead", 4, "marianne")
    assert (named.chooser, named.cutter) == ("lookahead", "lookahead")
    assert named.weights == tuned(4, "marianne").weights


TABLES = {
    "2P lookahead against tuned": (2, "base", lambda: [looking_ahead(2), tuned(2)]),
    "4P lookahead cutter among tuned, La Marianne": (
        4, "marianne", lambda: [looking_ahead(4, "marianne", chooser="greedy")]
        + [tuned(4, "marianne")] * 3),
    # Its steals and La Marianne draw from the stream, in the served pizzas too.
    "3P drawing lookahead players, La Marianne": (
        3, "marianne", lambda: [looking_ahead(3, "marianne", **DRAWING),
                                GAME.named_strategy("random"),
                                looking_ahead(3, "marianne", cutter="balanced")]),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_kernel_matches_reference_with_lookahead_players(name):
    players, variant, seated = TABLES[name]
    table = GAME.table(RULES, players, seated(), variant, duplicate=True)
    assert_parity(table, seed=31, first=0, games=2 * players)


def paused_games(players, variant, strategy, seed):
    """Game 0 of ``seed`` in the kernel with ``strategy`` at every seat, yielded at every
    lookahead decision ``(rules, seats, state, scratch, space)``; then it is made."""
    rules = kernel.table_rules(RULES.for_table(players, variant))
    codes, params = Strategy.arrays([strategy] * players)
    seats = kernel.Strategies(codes, params, codes, params)
    state = kernel.new_state(rules, players)
    scratch = kernel.new_scratch(players, len(RULES.kinds) + 2, RULES.slices_per_pizza,
                                 len(rules.cut_masks))
    space = kernel.new_search_space(rules, seats)
    kernel.deal_pizzas(seed, 0, rules, state.deal_stream, state.order, state.pool)
    kernel.restart(state.stream, seed, 0, DECISION_STREAM)
    steps.start_game(rules, state)
    while not steps.advance(rules, seats, state, scratch):
        assert lookahead.waits_for_lookahead(seats, state)
        yield rules, seats, state, scratch, space
        lookahead.look_ahead(rules, seats, state, scratch, space)


def _decision(rules, seats, state, scratch, space):
    if state.clock[steps.TURN] == 0:
        return int(lookahead.lookahead_cut(rules, seats, state, scratch, space))
    return tuple(int(x) for x in lookahead.lookahead_choice(rules, seats, state, scratch,
                                                            space))


@pytest.mark.parametrize(("players", "variant"), [(3, "base"), (4, "marianne")])
def test_no_decision_depends_on_the_hidden_order_nor_moves_the_stream(players, variant):
    rng = np.random.default_rng(players)
    strategy = looking_ahead(players, variant, **DRAWING)
    decisions = 0
    for rules, seats, state, scratch, space in paused_games(players, variant, strategy, 4):
        stream = state.stream.copy()
        made = {_decision(rules, seats, world, scratch, space)
                for world in (copy_of(state), reshuffled(state, rng), reshuffled(state, rng))}
        assert len(made) == 1
        assert np.array_equal(state.stream, stream)
        decisions += 1
    # Every cut and every choice of every pizza looked ahead.
    assert decisions == rules.pizzas * (players + 1)


def test_the_cut_leaves_the_chef_furthest_ahead():
    # Every legal cut of the first pizza served by hand, in the kernel's own steps: none
    # leaves the chef further ahead than the chosen one, the first that far ahead.
    strategy = looking_ahead(3, cutter="lookahead", chooser="greedy")
    rules, seats, state, scratch, space = next(paused_games(3, "base", strategy, 9))
    cut = int(lookahead.lookahead_cut(rules, seats, state, scratch, space))
    leads = []
    for mask in rules.cut_masks:
        world = copy_of(state)
        steps.cut_pizza(mask, world)
        for turn in (1, 2, 3):
            seat = turn % 3
            index, eat_mask = choose_portion(seats, seat, world.seen, 3, rules, world.stream,
                                             scratch)
            steps.take_turn(seat, index, eat_mask, rules, seats, world, scratch)
            world.clock[steps.TURN] += 1
        leads.append(lookahead.standing_lead(rules, seats.seat_params[0], 0, world, scratch))
    leads = np.array(leads)
    chosen = int(np.flatnonzero(rules.cut_masks == cut)[0])
    assert chosen == int(np.argmax(leads))
    assert leads.max() > leads.min()
