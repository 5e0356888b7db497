"""Piece o' Cake's rule steps on the kernel's bundles, and the game as a machine that pauses.

The steps carry the reference engine's names (RULES.md section 1): ``lay_out_cake``,
``cut_cake``, ``take_portion``, ``decline_and_eat``, ``discard_leftovers``,
``keep_set_aside_slice``. A game in progress knows where it is from ``GameState.clock``
(the cake, and whose turn within it), so it can stop at any decision and go on later:
``advance`` plays every decision of a heuristic strategy itself and pauses where a
searching player must decide. The kernel then asks the search (``search.py``), whose
rollouts play on with ``advance`` too, from copies of the game. The search never calls
itself: its rollout players are heuristic, so ``advance`` never pauses inside a rollout.

Bundles are those of ``kernel.py`` (``GameState``, ``View``, ``RuleData``, ``Strategies``,
``Scratch``); this module only reads and writes their arrays.
"""

from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    SEARCH,
    SEARCH_CUT,
    TAKE,
    choose_action,
    choose_bonus,
    choose_cut,
)
from cakesim.games.slicing.circle import along, arcs_of_cut
from cakesim.games.slicing.tabletop import majority_points, split_wins

# Fields of ``GameState.clock``.
CAKE = 0
"""The cake being served (0-based); ``RuleData.cakes`` once the game is over."""
TURN = 1
"""Within the cake: 0 the waiter's cut, ``1 .. P`` the chooser that many seats to the
waiter's left (``P`` the waiter), ``P + 1`` the waiter's set-aside slice."""
PORTIONS = 2
"""How many portions the cake's cut made."""

# Fields of ``GameState.tally``: the per-game counts of the ``Results``.
DECLINES = 0
PASSES = 1
DISCARDED = 2


@jit_borrowing
def start_game(rules, state):
    """Set up the dealt game (``state.order``): empty piles, the first cake on the table."""
    view = state.seen
    kinds = rules.majority_value.shape[0]
    n = view.cake_kind.shape[0]
    aside = view.aside_kind.shape[0]
    view.collected[:] = 0
    view.collected_cream[:] = 0
    state.eaten_cream[:] = 0
    state.eaten_count[:] = 0
    state.tally[:] = 0
    for kind in range(kinds):
        view.unseen[kind] = rules.kind_count[kind]
    for a in range(aside):
        view.aside_kind[a] = rules.slice_kind[state.order[rules.cakes * n + a]]
        view.aside_cream[a] = rules.slice_cream[state.order[rules.cakes * n + a]]
        view.aside_left[a] = True
    state.clock[CAKE] = 0
    lay_out_cake(rules, state)


@jit_inline
def lay_out_cake(rules, state):
    """The waiter lays the next stack out as a circle, in stack order: all see it."""
    view = state.seen
    cake_kind, unseen, still_open = view.cake_kind, view.unseen, view.still_open
    n = cake_kind.shape[0]
    cake = state.clock[CAKE]
    for position in range(n):
        s = state.order[cake * n + position]
        cake_kind[position] = rules.slice_kind[s]
        view.cake_cream[position] = rules.slice_cream[s]
        unseen[rules.slice_kind[s]] -= 1
    # Everything not yet taken is still open; taking a portion closes its slices.
    for kind in range(unseen.shape[0]):
        still_open[kind] = unseen[kind]
    for position in range(n):
        still_open[cake_kind[position]] += 1
    state.clock[TURN] = 0


@jit_inline
def cut_cake(mask, state):
    """The waiter's cut (a gap mask) makes the portions; the first chooser is next."""
    view = state.seen
    state.clock[PORTIONS] = arcs_of_cut(mask, view.cake_kind.shape[0], view.portion_start,
                                        view.portion_len)
    view.portion_taken[:] = False
    state.clock[TURN] = 1


@jit_inline
def choose(seat, action, index, eat_mask, rules, state):
    """Carry out a chooser's move (``strategies.choose_action``'s answer); the turn passes."""
    if action == TAKE:
        take_portion(seat, index, eat_mask, state)
    elif action == DECLINE_EAT:
        decline_and_eat(seat, index, state)
    else:
        state.tally[PASSES] += 1
    state.clock[TURN] += 1
    if state.clock[TURN] > state.eaten_count.shape[0]:
        discard_leftovers(state)
        if not rules.bonus_after_cake[state.clock[CAKE]]:
            next_cake(rules, state)


@jit_inline
def take_portion(seat, index, eat_mask, state):
    """The chooser takes a remaining portion and decides, slice by slice, eat or collect."""
    view = state.seen
    cake_kind, cake_cream, still_open = view.cake_kind, view.cake_cream, view.still_open
    n = cake_kind.shape[0]
    view.portion_taken[index] = True
    position = view.portion_start[index]
    for j in range(view.portion_len[index]):
        kind = cake_kind[position]
        still_open[kind] -= 1
        if eat_mask & (1 << j):
            state.eaten_cream[seat] += cake_cream[position]
            state.eaten_count[seat] += 1
        else:
            view.collected[seat, kind] += 1
            view.collected_cream[seat, kind] += cake_cream[position]
        position = along(position, 1, n)


@jit_inline
def decline_and_eat(seat, kind, state):
    """Declining, the chooser eats all collected slices of one kind."""
    view = state.seen
    state.tally[DECLINES] += 1
    state.eaten_cream[seat] += view.collected_cream[seat, kind]
    state.eaten_count[seat] += view.collected[seat, kind]
    view.collected[seat, kind] = 0
    view.collected_cream[seat, kind] = 0


@jit_inline
def discard_leftovers(state):
    """Portions left after the waiter has chosen leave the game."""
    view = state.seen
    for p in range(state.clock[PORTIONS]):
        if not view.portion_taken[p]:
            state.tally[DISCARDED] += view.portion_len[p]


@jit_inline
def keep_set_aside_slice(waiter, a, eat, rules, state):
    """Compensation variant: the waiter keeps one set-aside slice, eats or collects it."""
    view = state.seen
    kind = view.aside_kind[a]
    view.aside_left[a] = False
    view.unseen[kind] -= 1
    if eat:
        state.eaten_cream[waiter] += view.aside_cream[a]
        state.eaten_count[waiter] += 1
    else:
        view.collected[waiter, kind] += 1
        view.collected_cream[waiter, kind] += view.aside_cream[a]
    next_cake(rules, state)


@jit_inline
def next_cake(rules, state):
    """The waiter role passes left; the next cake is laid out, if any is left."""
    state.clock[CAKE] += 1
    if state.clock[CAKE] < rules.cakes:
        lay_out_cake(rules, state)


@jit_borrowing
def advance(rules, seats, state, scratch):
    """Play on until a searching seat must decide (False) or the game is over (True).

    ``seats`` decide by their codes; a seat whose code is ``SEARCH`` (choosing, and keeping
    a set-aside slice) or ``SEARCH_CUT`` (cutting) makes ``advance`` return at its
    decision, with ``state.clock`` pointing at it.
    """
    view, clock = state.seen, state.clock
    players = state.eaten_count.shape[0]
    while clock[CAKE] < rules.cakes:
        waiter = clock[CAKE] % players
        turn = clock[TURN]
        if turn == 0:
            if seats.codes[waiter, 1] == SEARCH_CUT:
                return False
            cut_cake(choose_cut(seats, waiter, view, rules, scratch), state)
        elif turn <= players:
            seat = (waiter + turn) % players
            if seats.codes[seat, 0] == SEARCH:
                return False
            action, index, eat_mask = choose_action(seats, seat, view, clock[PORTIONS], rules,
                                                    scratch)
            choose(seat, action, index, eat_mask, rules, state)
        else:
            if seats.codes[waiter, 0] == SEARCH:
                return False
            a, eat = choose_bonus(seats, waiter, view, rules)
            keep_set_aside_slice(waiter, a, eat, rules, state)
    return True


@jit_borrowing
def score_game(rules, state, majority, total, win_units):
    """Majorities, totals and the split win of a finished game, one entry per seat."""
    majority_points(state.seen.collected, rules.majority_value, rules.ties_score, majority)
    for seat in range(total.shape[0]):
        total[seat] = majority[seat] + state.eaten_cream[seat]
    split_wins(total, win_units)
