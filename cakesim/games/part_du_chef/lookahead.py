"""The lookahead players of La Part du Chef: every legal cut or portion tried on a copy of
the table, the rest of the pizza served.

As Piece o' Cake's (``piece_o_cake/lookahead.py``): a chef that cuts by ``lookahead``
tries each legal cut (exactly P portions) on a copy of the game
(``search.SearchSpace.world``); the players to its left take their portions by the rule
steps (``steps.advance``), each playing the chef's own greedy chooser, thief, Marianne code
and weights (the chef does not know the others'), then the chef takes the last portion
the same way. The cut it makes is the one after which it stands furthest ahead of its
strongest opponent (``standing_lead``). A player that chooses by ``lookahead`` does the
same with each untaken portion (with the greedy eat plan: the search's candidates,
``search.portion_candidates``).

Nothing hidden is read: the served pizza is on the table and the value stops before the
next pizza is laid out. A finisher's steal or La Marianne that draws (a random thief or
Marianne) draws from a copy of the game's decision stream, the same for every candidate;
the real stream is not advanced by the lookahead.
"""

import numpy as np

from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.games.part_du_chef.search import copy_game, portion_candidates, seat_rollout
from cakesim.games.part_du_chef.steps import (
    PIZZA,
    PORTIONS,
    TURN,
    advance,
    cut_pizza,
    play_turn,
    take_turn,
)
from cakesim.games.part_du_chef.strategies import (
    CHOOSER,
    CUTTER,
    LOOKAHEAD,
    LOOKAHEAD_CUT,
    PEPPER_WORTH,
    SEARCH,
    UNCERTAINTY,
    greedy_portion,
    open_portions,
)
from cakesim.games.slicing.tabletop import lead_chance
from cakesim.kits.bandit import DETAIL, INDEX


@jit_borrowing
def waits_for_lookahead(seats, state):
    """Whether the decision ``state.clock`` points at is a lookahead chef's cut or a
    lookahead player's portion choice."""
    players = state.seen.kept.shape[0]
    turn = state.clock[TURN]
    seat = (state.clock[PIZZA] + turn) % players
    return seats.seat_codes[seat, CUTTER] == LOOKAHEAD_CUT if turn == 0 else \
        seats.seat_codes[seat, CHOOSER] == LOOKAHEAD


@jit_borrowing
def look_ahead(rules, seats, state, scratch, space):
    """Make the lookahead cut or choice ``state.clock`` points at, in the real game."""
    if space is None:
        raise ValueError("a seat looks ahead, but its kernel was compiled without the "
                         "search's working space")
    if state.clock[TURN] == 0:
        cut_pizza(lookahead_cut(rules, seats, state, scratch, space), state)
    else:
        seat = (state.clock[PIZZA] + state.clock[TURN]) % state.seen.kept.shape[0]
        index, eat_mask = lookahead_choice(rules, seats, state, scratch, space)
        play_turn(seat, index, eat_mask, rules, seats, state, scratch)


@jit_borrowing
def lookahead_cut(rules, seats, state, scratch, space):
    """The chef's cut (a gap mask) at ``state.clock``: the legal cut after whose served
    pizza it stands furthest ahead (the first such cut in ``rules.cut_masks``)."""
    chef = state.clock[PIZZA] % state.seen.kept.shape[0]
    rollout, world = space.rollout, space.world
    seat_rollout(seats, chef, rollout)
    # The copy stops at the chef's own turn, which is then taken here.
    rollout.seat_codes[chef, CHOOSER] = SEARCH
    cut_masks = rules.cut_masks
    best = 0
    best_lead = -np.inf
    for c in range(cut_masks.shape[0]):
        serve_from(state, world)
        cut_pizza(cut_masks[c], world)
        lead = served_lead(rules, rollout, chef, chef, True, world, scratch)
        if lead > best_lead:
            best, best_lead = c, lead
    return cut_masks[best]


@jit_borrowing
def lookahead_choice(rules, seats, state, scratch, space):
    """The player's pick ``(portion, eat_mask)`` at ``state.clock``: the candidate
    (``search.portion_candidates``, the greedy pick first) after whose served pizza it
    stands furthest ahead (the first such)."""
    players = state.seen.kept.shape[0]
    chef = state.clock[PIZZA] % players
    seat = (chef + state.clock[TURN]) % players
    rollout, world, moves = space.rollout, space.world, space.bandit.move
    seat_rollout(seats, seat, rollout)
    count = portion_candidates(rules, rollout, seat, state, scratch, space.bandit)
    # The copy stops at the chef's turn (unless the player is the chef).
    rollout.seat_codes[chef, CHOOSER] = SEARCH
    best = 0
    best_lead = -np.inf
    for c in range(count):
        serve_from(state, world)
        if seat == chef:
            take_turn(seat, moves[c, INDEX], moves[c, DETAIL], rules, rollout, world, scratch)
        else:
            play_turn(seat, moves[c, INDEX], moves[c, DETAIL], rules, rollout, world, scratch)
        lead = served_lead(rules, rollout, chef, seat, seat != chef, world, scratch)
        if lead > best_lead:
            best, best_lead = c, lead
    return moves[best, INDEX], moves[best, DETAIL]


@jit_inline
def serve_from(state, world):
    """``world`` becomes a copy of the game, its decision stream too (each candidate then
    meets the same draws, and the real stream is left where it is)."""
    copy_game(state, world)
    for i in range(state.stream.shape[0]):
        world.stream[i] = state.stream[i]


@jit_inline
def served_lead(rules, rollout, chef, seat, chef_to_move, world, scratch):
    """``seat``'s ``standing_lead`` once the pizza in ``world`` is served: the players
    still to choose play by the rule steps, then, if ``chef_to_move``, the chef (whose
    chooser code in ``rollout`` is ``SEARCH``, so that ``advance`` stops at its turn) takes
    the last portion greedily, without passing the turn to the next pizza."""
    if chef_to_move:
        advance(rules, rollout, world, scratch)
        index, eat_mask = greedy_portion(rollout, chef, world.seen, world.clock[PORTIONS],
                                         rules, world.stream, scratch)
        take_turn(chef, index, eat_mask, rules, rollout, world, scratch)
    return standing_lead(rules, rollout.seat_params[seat], seat, world, scratch)


@jit_inline
def standing_lead(rules, params, seat, state, scratch):
    """``seat``'s standing less that of its strongest opponent (``standing``)."""
    strongest = -np.inf
    for other in range(state.seen.kept.shape[0]):
        if other != seat:
            strongest = max(strongest, standing(rules, params, other, state, scratch))
    return standing(rules, params, seat, state, scratch) - strongest


@jit_inline
def standing(rules, params, seat, state, scratch):
    """The points ``seat`` expects (RULES.md s2 "Scoring"): its eaten olives, receipt
    points, burnt penalty and diversity bonus as they stand, its peppers at
    ``pepper_worth``, and each kind's majority value times its chance of the majority
    (``lead_chance`` against its strongest opponent, with the slices still to come)."""
    view = state.seen
    kept = view.kept
    kinds = rules.majority_value.shape[0]
    open_portions(seat, view, state.clock[PORTIONS], scratch)
    held = state.received[seat]
    if rules.receipt_holder:
        held = state.eaten_count[seat]
        for category in range(kinds + 1):
            held += kept[seat, category]
    lowest = kept[seat, 0]
    expected = 0.0
    for kind in range(kinds):
        mine = kept[seat, kind]
        lowest = min(lowest, mine)
        if mine > 0:
            expected += rules.majority_value[kind] * lead_chance(
                mine - scratch.rivals[kind], scratch.still_open[kind], params[UNCERTAINTY],
                True)
    return (expected + state.eaten_olives[seat] + rules.slice_point * held
            + rules.diversity_bonus * lowest + params[PEPPER_WORTH] * kept[seat, kinds]
            - rules.burnt_penalty * kept[seat, kinds + 1])
