"""The lookahead players: every legal cut or move tried on a copy of the table, the rest
of the cake served.

A waiter that cuts by ``lookahead`` tries each of the hundreds of legal cuts on a copy of
the game (``search.SearchSpace.world``): the choosers to its left take their turns by the
rule steps (``steps.advance``), each playing the waiter's own greedy chooser and weights
(the waiter does not know the others' weights, as for the enumerating cutter), then the
waiter takes its own turn the same way. The cut it makes is the one after which it stands
furthest ahead of its strongest rival (``standing_lead``): the choosers' picks are the
rule steps' own, not a one-step prediction, and the value counts what the cut gives every
rival, not only what it leaves the waiter. A chooser that chooses by ``lookahead`` does
the same with its own move: every take (with the greedy eat plan), every decline and the
pass (the search's candidates, ``search.choice_candidates``), the choosers after it and
the waiter served greedily, the move after which it stands furthest ahead kept.

Why: one cut at a time, a rollout value of every legal cut among tuned players at 4
players (32 play-outs per cut, 7,000 cuts of tuned self-play) gives the enumerating
cutter's choice a 24.3 % win share, the cut after which the waiter stands furthest ahead
36.4 %; a linear or boosted re-weighting of the enumerating cutter's own prediction does
not pass 26 % (issue 30's closing note of 2026-12-04).

Two cutters share that value. The ``lead`` cutter serves nothing: each chooser's pick is
the enumerating cutter's one-step prediction (``predicted_serve``), put on copies of the
piles; at 2 players, where that prediction is nearly the rule steps' own, it makes the
lookahead's cut in 90 % of positions. The ``lookahead2`` cutter serves the cuts the lead
cutter ranks highest with every chooser, and then the waiter, choosing by lookahead
(``served_ahead``): two plies, the choosers modelled as the lookahead players they are.

Nothing hidden is read: the served cake is on the table, and the value stops at the end
of the cake (what the next cake holds is never looked at). A pending joker decision of
the waiter after its own take is left unmade; the joker then counts nowhere.
"""

import numpy as np

from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.games.piece_o_cake.search import choice_candidates, copy_game, seat_rollout
from cakesim.games.piece_o_cake.steps import (
    BANKED_CREAM,
    BANKED_MAJORITY,
    NOTHING,
    PENDING,
    PORTIONS,
    TURN,
    advance,
    choose,
    cut_cake,
    waiter_of,
)
from cakesim.games.piece_o_cake.strategies import (
    GREEDY,
    LEAD_CUT,
    LOOKAHEAD,
    LOOKAHEAD2_CUT,
    LOOKAHEAD_CUT,
    SEARCH,
    fill_rivals,
    greedy_move,
    majority_chance,
    plan_portion,
    predicted_pick,
    rank_cuts,
)
from cakesim.games.slicing.circle import along, arcs_of_cut
from cakesim.kits.bandit import DETAIL, INDEX, KIND


@jit_borrowing
def waits_for_lookahead(seats, state):
    """Whether the decision ``state.clock`` points at is a lookahead or lead waiter's cut
    or a lookahead chooser's move."""
    players = state.eaten_count.shape[0]
    turn = state.clock[TURN]
    if state.pending[PENDING] != NOTHING or turn > players:
        return False
    seat = (waiter_of(state.clock, players) + turn) % players
    if turn == 0:
        return seats.codes[seat, 1] in (LOOKAHEAD_CUT, LEAD_CUT, LOOKAHEAD2_CUT)
    return seats.codes[seat, 0] == LOOKAHEAD


@jit_borrowing
def look_ahead(rules, seats, state, scratch, space):
    """Make the lookahead (or lead) cut or the lookahead move ``state.clock`` points at, in
    the real game."""
    players = state.eaten_count.shape[0]
    cutting = state.clock[TURN] == 0
    seat = (waiter_of(state.clock, players) + state.clock[TURN]) % players
    if cutting and seats.codes[seat, 1] == LEAD_CUT:
        # The lead cutter serves no copy of the game: no working space needed.
        cut_cake(lead_cut(rules, seats, state, scratch), state)
        return
    if space is None:
        raise ValueError("a seat looks ahead, but its kernel was compiled without the "
                         "search's working space")
    if cutting and seats.codes[seat, 1] == LOOKAHEAD2_CUT:
        cut_cake(lookahead2_cut(rules, seats, state, scratch, space), state)
    elif cutting:
        cut_cake(lookahead_cut(rules, seats, state, scratch, space), state)
    else:
        action, index, eat_mask = lookahead_choice(rules, seats, state, scratch, space)
        choose(seat, action, index, eat_mask, rules, state)


@jit_borrowing
def lookahead_cut(rules, seats, state, scratch, space):
    """The waiter's cut (a gap mask) at ``state.clock``: the legal cut after whose served
    cake it stands furthest ahead (the first such cut in ``rules.cut_masks``)."""
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    rollout, world = space.rollout, space.world
    seat_rollout(seats, waiter, rollout, GREEDY)
    # The copy stops at the waiter's own turn, which is then taken here.
    rollout.codes[waiter, 0] = SEARCH
    cut_masks = rules.cut_masks
    best = 0
    best_lead = -np.inf
    for c in range(cut_masks.shape[0]):
        copy_game(state, world)
        cut_cake(cut_masks[c], world)
        lead = served_lead(rules, rollout, waiter, waiter, True, world, scratch)
        if lead > best_lead:
            best, best_lead = c, lead
    return cut_masks[best]


@jit_borrowing
def lookahead_choice(rules, seats, state, scratch, space):
    """The chooser's move ``(action, index, eat_mask)`` at ``state.clock``: the candidate
    (``search.choice_candidates``, the greedy move first) after whose served cake it
    stands furthest ahead (the first such)."""
    return choice_ahead(rules, seats, state, scratch, space.rollout, space.world,
                        space.bandit)


@jit_borrowing
def choice_ahead(rules, seats, state, scratch, rollout, world, bandit):
    """``lookahead_choice``, with the rollout players, the copy of the game it serves and
    the candidate list passed in (a two-ply cutter serves its own copy meanwhile).

    Compiled once and called, not inlined into its two callers: it runs once per chooser's
    decision, so the call costs nothing measurable (lookahead 4P: 295 games/s either way),
    and the search build of the kernel compiles about 20 s faster.
    """
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    seat = (waiter + state.clock[TURN]) % players
    moves = bandit.move
    seat_rollout(seats, seat, rollout, GREEDY)
    count = choice_candidates(rules, rollout, seat, state, scratch, bandit)
    # The copy stops at the waiter's turn (unless the chooser is the waiter).
    rollout.codes[waiter, 0] = SEARCH
    best = 0
    best_lead = -np.inf
    for c in range(count):
        copy_game(state, world)
        choose(seat, moves[c, KIND], moves[c, INDEX], moves[c, DETAIL], rules, world)
        lead = served_lead(rules, rollout, waiter, seat, seat != waiter, world, scratch)
        # Kept as a one-play-out bandit arm, for the fitted chooser's examples (training.py).
        bandit.visits[c] = 1
        bandit.reward[c] = lead
        if lead > best_lead:
            best, best_lead = c, lead
    return moves[best, KIND], moves[best, INDEX], moves[best, DETAIL]


@jit_inline
def served_lead(rules, rollout, waiter, seat, waiter_to_move, world, scratch):
    """``seat``'s ``standing_lead`` once the cake in ``world`` is served: the choosers
    still to move play by the rule steps, then, if ``waiter_to_move``, the waiter (whose
    chooser code in ``rollout`` is ``SEARCH``, so that ``advance`` stops at its turn)
    greedily."""
    if waiter_to_move:
        advance(rules, rollout, world, scratch)
        action, index, eat_mask = greedy_move(rollout, waiter, world.seen,
                                              world.clock[PORTIONS], rules, scratch)
        choose(waiter, action, index, eat_mask, rules, world)
    return standing_lead(rules, rollout.chances[seat], seat, world, scratch)


@jit_inline
def standing_lead(rules, chances, seat, state, scratch):
    """``seat``'s ``lead_of`` in the game ``state``: the piles as they stand, the banked
    points and the cream eaten so far."""
    for other in range(state.eaten_count.shape[0]):
        scratch.points[other] = sure_points(rules, state, other)
    view = state.seen
    return lead_of(rules, chances, seat, view.collected, scratch.points, view.still_open,
                scratch.rivals)


@jit_inline
def sure_points(rules, state, seat):
    """``seat``'s points no later play takes away: its banked rounds, the cream eaten and
    its seat bonus."""
    return (state.banked[BANKED_MAJORITY, seat] + state.banked[BANKED_CREAM, seat]
            + state.eaten_cream[seat] + rules.seat_bonus[seat])


@jit_inline
def lead_of(rules, chances, seat, piles, points, still_open, rivals):
    """``seat``'s standing less that of its strongest rival (``standing``)."""
    strongest = -np.inf
    for other in range(piles.shape[0]):
        if other != seat:
            strongest = max(strongest, standing(rules, chances, other, piles, points,
                                                still_open, rivals))
    return standing(rules, chances, seat, piles, points, still_open, rivals) - strongest


@jit_inline
def standing(rules, chances, seat, piles, points, still_open, rivals):
    """The points ``seat`` expects: its sure ``points`` (banked rounds, cream eaten) and
    each kind's majority value times its chance of the majority with ``piles`` collected
    and ``still_open`` slices of each kind to come (``chances``: the judge's)."""
    fill_rivals(piles, seat, rivals)
    expected = 0.0
    for kind in range(piles.shape[1]):
        expected += rules.majority_value[kind] * majority_chance(
            chances, piles[seat, kind], rivals[kind], still_open[kind])
    return points[seat] + expected


# ----------------------------------------------------------------------------------------
# The lead cutter: the lookahead's value of a cut without serving the cake.


@jit_borrowing
def lead_cut(rules, seats, state, scratch):
    """The lead cutter's cut (a gap mask) at ``state.clock``: every legal cut served as the
    enumerating cutter predicts (``predicted_serve``), the one after which the waiter
    stands furthest ahead of its strongest rival (``lead_of``; the first such)."""
    rank_by_lead(rules, seats, state, scratch)
    return rules.cut_masks[first_best(scratch.cut_outcome)]


@jit_borrowing
def rank_by_lead(rules, seats, state, scratch):
    """``scratch.cut_outcome[c]``: the waiter's ``lead_of`` after cut ``c``'s predicted
    serve (``predicted_serve``), for every legal cut."""
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    view = state.seen
    params, chances = seats.params[waiter], seats.chances[waiter]
    rank_cuts(params, chances, waiter, view, rules, scratch)
    cut_masks, n = rules.cut_masks, view.cake_kind.shape[0]
    for c in range(cut_masks.shape[0]):
        count = arcs_of_cut(cut_masks[c], n, scratch.starts, scratch.lengths)
        predicted_serve(rules, params, chances, waiter, count, state, scratch)
        # After the serve every slice of the cake is decided: only the unseen are open.
        scratch.cut_outcome[c] = lead_of(rules, chances, waiter, scratch.piles, scratch.points,
                                         view.unseen, scratch.rivals)


@jit_borrowing
def first_best(values):
    """The index of the largest value (the first of equals)."""
    # Compiled on its own, as rank_by_lead and served_ahead are: inlined into
    # lookahead2_cut (Numba 0.68), the cut it returned changed from one process to the
    # next. Each runs once per cut or per ranked cut, so the call costs nothing.
    top = 0
    for i in range(values.shape[0]):
        top = i if values[i] > values[top] else top
    return top


@jit_inline
def predicted_serve(rules, params, chances, waiter, count, state, scratch):
    """The serve of the cut whose ``count`` arcs are in ``scratch.starts``/``lengths``, as
    the enumerating cutter predicts it (``strategies.cut_outcomes`` has filled
    ``scratch``): in turn from the waiter's left, the waiter last, each seat takes the
    untaken arc it values most, with its greedy eat plan, unless its best decline is worth
    more; then it eats that kind (or passes, with nothing to eat). The piles and sure
    points it leaves go to ``scratch.piles`` and ``scratch.points``.

    Every pick is valued from the piles as they stood before the cut, as in the
    enumerating cutter: what one chooser takes does not change the next one's values.
    """
    view = state.seen
    piles, points, taken = scratch.piles, scratch.points, scratch.taken
    starts, lengths = scratch.starts, scratch.lengths
    players, n = piles.shape[0], view.cake_kind.shape[0]
    for seat in range(players):
        for kind in range(piles.shape[1]):
            piles[seat, kind] = view.collected[seat, kind]
        points[seat] = sure_points(rules, state, seat)
    taken[:count] = False
    for turn in range(1, players + 1):
        seat = (waiter + turn) % players
        pick = predicted_pick(scratch.arc_value[seat], starts, lengths, taken, count)
        kind = scratch.decline_kind[seat]
        if pick >= 0 and (scratch.arc_value[seat, starts[pick], lengths[pick]]
                          >= scratch.decline_value[seat]):
            taken[pick] = True
            fill_rivals(view.collected, seat, scratch.rivals)
            _, eat_mask = plan_portion(params, chances, seat, starts[pick], lengths[pick],
                                       view, rules, scratch)
            position = starts[pick]
            for j in range(lengths[pick]):
                if (eat_mask >> j) & 1:
                    points[seat] += view.cake_cream[position]
                else:
                    piles[seat, view.cake_kind[position]] += 1
                position = along(position, 1, n)
        elif kind >= 0 and (pick >= 0 or scratch.decline_value[seat] > 0.0):
            points[seat] += view.collected_cream[seat, kind]
            piles[seat, kind] = 0


# ----------------------------------------------------------------------------------------
# The two-ply lookahead cutter: the choosers look ahead too.


LEAD_RANKED = 32
"""How many cuts the two-ply cutter serves: those the lead cutter ranks highest. Serving
one costs a lookahead choice per chooser, each serving the cake again per candidate
move; the best cut by one-ply lookahead was among the lead cutter's top 32 in nearly
every decision measured (docs/piece_o_cake.md)."""


@jit_borrowing
def lookahead2_cut(rules, seats, state, scratch, space):
    """The two-ply lookahead's cut (a gap mask) at ``state.clock``: of the ``LEAD_RANKED``
    cuts the lead cutter ranks highest, the one after whose serve the waiter stands
    furthest ahead (``standing_lead``; the first such in the lead cutter's order), every
    chooser, and then the waiter, choosing by lookahead (``served_ahead``)."""
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    rank_by_lead(rules, seats, state, scratch)
    ranked = scratch.cut_outcome
    model = space.model
    seat_rollout(seats, waiter, model, GREEDY)
    for row in range(players):
        model.codes[row, 0] = LOOKAHEAD
    best = 0
    best_lead = -np.inf
    for _ in range(min(LEAD_RANKED, ranked.shape[0])):
        c = first_best(ranked)
        ranked[c] = -np.inf
        lead = served_ahead(rules, model, waiter, rules.cut_masks[c], state, scratch, space)
        if lead > best_lead:
            best, best_lead = c, lead
    return rules.cut_masks[best]


@jit_borrowing
def served_ahead(rules, model, waiter, mask, state, scratch, space):
    """The waiter's ``standing_lead`` once cut ``mask`` is served on a copy of the game
    (``space.world``): every chooser, then the waiter, chooses by lookahead with the
    waiter's weights (``model``), each on its own copy (``space.inner``); the joker
    decisions between them by the rule steps, greedily."""
    world = space.world
    copy_game(state, world)
    cut_cake(mask, world)
    players = world.eaten_count.shape[0]
    for turn in range(1, players + 1):
        # Plays the pending joker decisions, then stops at the next chooser.
        advance(rules, model, world, scratch)
        seat = (waiter + turn) % players
        action, index, eat_mask = choice_ahead(rules, model, world, scratch, space.rollout,
                                               space.inner, space.bandit)
        choose(seat, action, index, eat_mask, rules, world)
    return standing_lead(rules, model.chances[waiter], waiter, world, scratch)
