"""Piece o' Cake's rule steps on the kernel's bundles, and the game as a machine that pauses.

The steps carry the reference engine's names (RULES.md section 1): ``start_round``,
``lay_out_cake``, ``cut_cake``, ``take_portion`` (and ``begin_take``), ``decline_and_eat``,
``discard_leftovers``, ``keep_set_aside_slice``, ``swap_joker``, ``place_joker``,
``end_round``. A game in progress knows where it is from ``GameState.clock`` (the round,
the cake, and whose turn within it) and ``GameState.pending`` (a joker decision that must
come first), so it can stop at any decision and go on later: ``advance`` plays every
decision of a heuristic strategy itself and pauses where a searching player must decide.
The kernel then asks the search (``search.py``), whose rollouts play on with ``advance``
too, from copies of the game. The search never calls itself: its rollout players are
heuristic or fitted, so ``advance`` pauses inside a rollout only at a fitted chooser's
move, which the rollout makes itself (``search.play_on``).

Bundles are those of ``kernel.py`` (``GameState``, ``View``, ``RuleData``, ``Strategies``,
``Scratch``); this module only reads and writes their arrays.
"""

from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.engine.seeding import below, shuffle_range
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    FITTED,
    JOKER_EATEN,
    JOKER_HAND,
    JOKER_HIDDEN,
    JOKER_KIND,
    JOKER_PLACED,
    JOKER_SEAT,
    JOKER_TABLE,
    JOKER_WHERE,
    LEAD_CUT,
    LOOKAHEAD,
    LOOKAHEAD2_CUT,
    LOOKAHEAD_CUT,
    SEARCH,
    SEARCH_CUT,
    TAKE,
    choose_action,
    choose_bonus,
    choose_cut,
    choose_joker,
    choose_swap,
)
from cakesim.games.slicing.circle import along, arcs_of_cut
from cakesim.games.slicing.tabletop import WIN_UNITS, majority_points
from cakesim.kits.seating import split_wins

# Fields of ``GameState.clock``.
CAKE = 0
"""The cake being served within the round (0-based); ``RuleData.cakes`` once the game is
over."""
TURN = 1
"""Within the cake: 0 the waiter's cut, ``1 .. P`` the chooser that many seats to the
waiter's left (``P`` the waiter), ``P + 1`` the waiter's set-aside slice."""
PORTIONS = 2
"""How many portions the cut made."""
ROUND = 3
"""The round being played (0-based); ``RuleData.rounds`` once the game is over."""

# Fields of ``GameState.pending``: a joker decision the turn waits for.
PENDING = 0
"""``NOTHING``, ``SWAP`` (may the seat swap a real slice it just took for the joker?) or
``PLACE`` (the seat holds the joker: eat it or put it on a collected kind)."""
PENDING_SEAT = 1
"""The seat that decides."""
SWAP_CREAM = 2
"""For ``SWAP``: the cream of the real slice the seat would hand over."""
SWAP_EATEN = 3
"""For ``SWAP``: 1 if the seat ate that slice, 0 if it collected it."""
NOTHING = 0
SWAP = 1
PLACE = 2

# Fields of ``GameState.tally``: the per-game counts of the ``Results``.
DECLINES = 0
PASSES = 1
DISCARDED = 2
SWAPS = 3
EATEN = 4
"""Slices eaten, counted at the end of each round."""
COLLECTED = 5
"""Slices collected (face up), counted at the end of each round."""
JOKER_EATEN_ROUNDS = 6
"""Rounds that ended with the joker eaten."""
JOKER_PLACED_ROUNDS = 7
"""Rounds that ended with the joker on a pile."""

# Fields of ``GameState.banked``: points of the finished rounds.
BANKED_MAJORITY = 0
BANKED_CREAM = 1


@jit_borrowing
def deal_round(deal_stream, order, jokers):
    """Shuffle every slice into ``order`` (cakes in stack order, then the set-aside ones).

    The real slices are shuffled first, exactly as in a box without a joker; then the
    joker (the box's last slice) goes into one of the ``box`` places, the slices after it
    moving one on. That is a uniform shuffle of the whole box, and a table with the joker
    deals the base game's deal with one slice inserted: paired comparisons stay close.
    The joker's place is drawn with or without a joker (at most one is in the box), so
    that every later round starts from the same point of the deal stream either way.
    """
    box = order.shape[0]
    real = box - jokers
    for s in range(box):
        order[s] = s
    shuffle_range(deal_stream, order, 0, real)
    place = below(deal_stream, real + 1)
    if jokers:
        for s in range(real, place, -1):
            order[s] = order[s - 1]
        order[place] = real


@jit_inline
def waiter_of(clock, players):
    """The seat serving the cake: the round's first waiter is seat ``round``, and the
    role passes left with each cake (RULES.md s1, multi-round option)."""
    return (clock[ROUND] + clock[CAKE]) % players


@jit_borrowing
def start_game(rules, state):
    """Set up the dealt game (``state.order``): nothing banked, the first round begins."""
    state.banked[:] = 0
    state.tally[:] = 0
    state.pending[:] = 0
    state.clock[ROUND] = 0
    start_round(rules, state)


@jit_borrowing
def start_round(rules, state):
    """Empty piles, the set-aside slices put aside, the round's first cake on the table."""
    view = state.seen
    kinds = rules.majority_value.shape[0]
    n = view.cake_kind.shape[0]
    aside = view.aside_kind.shape[0]
    view.collected[:] = 0
    view.collected_cream[:] = 0
    state.eaten_cream[:] = 0
    state.eaten_count[:] = 0
    view.joker[JOKER_WHERE] = JOKER_HIDDEN
    view.joker[JOKER_SEAT] = -1
    view.joker[JOKER_KIND] = -1
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
        if rules.slice_kind[s] == rules.joker_kind:
            view.joker[JOKER_WHERE] = JOKER_TABLE
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
    """Carry out a chooser's move (``strategies.choose_action``'s answer); the turn passes
    unless the move leaves a joker decision to make."""
    if action == TAKE:
        take_portion(seat, index, eat_mask, rules, state)
    elif action == DECLINE_EAT:
        decline_and_eat(seat, index, state)
    else:
        state.tally[PASSES] += 1
    finish_turn(rules, state)


@jit_inline
def finish_turn(rules, state):
    """Unless a joker decision is pending: the next chooser, or the cake's end (leftovers
    discarded, the set-aside slice of the compensation variant, the next cake)."""
    if state.pending[PENDING] != NOTHING:
        return
    players = state.eaten_count.shape[0]
    if state.clock[TURN] > players:
        # The waiter's set-aside slice is settled.
        next_cake(rules, state)
        return
    state.clock[TURN] += 1
    if state.clock[TURN] > players:
        discard_leftovers(rules, state)
        if not rules.bonus_after_cake[state.clock[CAKE]]:
            next_cake(rules, state)


@jit_inline
def take_portion(seat, index, eat_mask, rules, state):
    """The chooser takes a remaining portion and decides, slice by slice, eat or collect.

    The joker, if the portion holds it, waits in the hand for ``place_joker``; a real
    slice of the kind the joker stands on (on another seat's pile) opens a ``SWAP``.
    """
    view = state.seen
    cake_kind, cake_cream, still_open = view.cake_kind, view.cake_cream, view.still_open
    n = cake_kind.shape[0]
    begin_take(seat, view)
    view.portion_taken[index] = True
    position = view.portion_start[index]
    for j in range(view.portion_len[index]):
        kind = cake_kind[position]
        still_open[kind] -= 1
        eat = (eat_mask & (1 << j)) != 0
        if kind == rules.joker_kind:
            hold_joker(seat, state)
        else:
            offer_swap(seat, kind, cake_cream[position], eat, state)
            get_slice(seat, kind, cake_cream[position], eat, state)
        position = along(position, 1, n)


@jit_inline
def begin_take(seat, view):
    """A take begins (a portion, or a set-aside slice): the seat's piles as they stand are
    the kinds it collected earlier, the only ones a joker it gets may go on (RULES.md s1,
    ``strategies.may_place_joker``)."""
    for kind in range(view.before_take.shape[0]):
        view.before_take[kind] = view.collected[seat, kind]


@jit_inline
def get_slice(seat, kind, cream, eat, state):
    """A real slice eaten (face down) or collected (face up, on its kind's pile)."""
    if eat:
        state.eaten_cream[seat] += cream
        state.eaten_count[seat] += 1
    else:
        state.seen.collected[seat, kind] += 1
        state.seen.collected_cream[seat, kind] += cream


@jit_inline
def hold_joker(seat, state):
    """The seat has the joker in hand: it must eat or place it (``PLACE`` is pending)."""
    joker = state.seen.joker
    joker[JOKER_WHERE] = JOKER_HAND
    joker[JOKER_SEAT] = seat
    joker[JOKER_KIND] = -1
    state.pending[PENDING] = PLACE
    state.pending[PENDING_SEAT] = seat


@jit_inline
def offer_swap(seat, kind, cream, eat, state):
    """A real slice of the kind the joker stands on, taken by another seat than its
    holder, may be swapped for it: the first such slice of a take is offered."""
    joker = state.seen.joker
    if (joker[JOKER_WHERE] == JOKER_PLACED and joker[JOKER_KIND] == kind
            and joker[JOKER_SEAT] != seat and state.pending[PENDING] == NOTHING):
        state.pending[PENDING] = SWAP
        state.pending[PENDING_SEAT] = seat
        state.pending[SWAP_CREAM] = cream
        state.pending[SWAP_EATEN] = 1 if eat else 0


@jit_inline
def decline_and_eat(seat, kind, state):
    """Declining, the chooser eats all collected slices of one kind (the joker with them,
    if it stands there)."""
    view = state.seen
    state.tally[DECLINES] += 1
    state.eaten_cream[seat] += view.collected_cream[seat, kind]
    state.eaten_count[seat] += view.collected[seat, kind]
    view.collected[seat, kind] = 0
    view.collected_cream[seat, kind] = 0
    joker = view.joker
    if joker[JOKER_WHERE] == JOKER_PLACED and joker[JOKER_SEAT] == seat \
            and joker[JOKER_KIND] == kind:
        joker[JOKER_WHERE] = JOKER_EATEN
        joker[JOKER_KIND] = -1


@jit_inline
def discard_leftovers(rules, state):
    """Portions left after the waiter has chosen leave the game (the joker with them)."""
    view = state.seen
    n = view.cake_kind.shape[0]
    for p in range(state.clock[PORTIONS]):
        if not view.portion_taken[p]:
            state.tally[DISCARDED] += view.portion_len[p]
            position = view.portion_start[p]
            for _ in range(view.portion_len[p]):
                kind = view.cake_kind[position]
                # Decided now: nobody can have them (the set-aside slice reads this).
                view.still_open[kind] -= 1
                if kind == rules.joker_kind:
                    view.joker[JOKER_WHERE] = JOKER_HIDDEN
                position = along(position, 1, n)


@jit_inline
def keep_set_aside_slice(waiter, a, eat, rules, state):
    """Compensation variant: the waiter keeps one set-aside slice, eats or collects it (the
    joker: eats or places it, ``PLACE``; a real slice may open a ``SWAP``)."""
    view = state.seen
    kind = view.aside_kind[a]
    begin_take(waiter, view)
    view.aside_left[a] = False
    view.unseen[kind] -= 1
    view.still_open[kind] -= 1
    if kind == rules.joker_kind:
        hold_joker(waiter, state)
    else:
        offer_swap(waiter, kind, view.aside_cream[a], eat, state)
        get_slice(waiter, kind, view.aside_cream[a], eat, state)
    finish_turn(rules, state)


@jit_inline
def swap_joker(seat, claim, rules, state):
    """``SWAP``: if ``claim``, the seat hands the real slice it just took to the joker's
    holder (onto the pile where the joker stood) and takes the joker, to eat or place."""
    view, pending, joker = state.seen, state.pending, state.seen.joker
    pending[PENDING] = NOTHING
    if claim:
        kind, holder, cream = joker[JOKER_KIND], joker[JOKER_SEAT], pending[SWAP_CREAM]
        if pending[SWAP_EATEN] == 1:
            state.eaten_cream[seat] -= cream
            state.eaten_count[seat] -= 1
        else:
            view.collected[seat, kind] -= 1
            view.collected_cream[seat, kind] -= cream
        # The holder's pile keeps its count: the real slice for the joker.
        view.collected_cream[holder, kind] += cream - rules.joker_points
        state.tally[SWAPS] += 1
        hold_joker(seat, state)
    finish_turn(rules, state)


@jit_inline
def place_joker(seat, kind, rules, state):
    """``PLACE``: the joker is eaten (``kind`` -1, it scores its points) or put on a kind
    it may go on (``strategies.may_place_joker``), where it counts as one more slice."""
    view, joker = state.seen, state.seen.joker
    state.pending[PENDING] = NOTHING
    if kind < 0:
        state.eaten_cream[seat] += rules.joker_points
        state.eaten_count[seat] += 1
        joker[JOKER_WHERE] = JOKER_EATEN
    else:
        view.collected[seat, kind] += 1
        view.collected_cream[seat, kind] += rules.joker_points
        joker[JOKER_WHERE] = JOKER_PLACED
        joker[JOKER_KIND] = kind
    finish_turn(rules, state)


@jit_inline
def next_cake(rules, state):
    """The waiter role passes left; the next cake is laid out, or the round ends."""
    state.clock[CAKE] += 1
    if state.clock[CAKE] < rules.cakes:
        lay_out_cake(rules, state)
    else:
        end_round(rules, state)


@jit_borrowing
def end_round(rules, state):
    """The round is scored and banked; the next round is dealt afresh, if any is left."""
    view, tally = state.seen, state.tally
    majority_points(view.collected, rules.majority_value, rules.ties_score, state.majority)
    for seat in range(state.majority.shape[0]):
        state.banked[BANKED_MAJORITY, seat] += state.majority[seat]
        state.banked[BANKED_CREAM, seat] += state.eaten_cream[seat]
        tally[EATEN] += state.eaten_count[seat]
        for kind in range(view.collected.shape[1]):
            tally[COLLECTED] += view.collected[seat, kind]
    tally[JOKER_EATEN_ROUNDS] += 1 if view.joker[JOKER_WHERE] == JOKER_EATEN else 0
    tally[JOKER_PLACED_ROUNDS] += 1 if view.joker[JOKER_WHERE] == JOKER_PLACED else 0
    state.clock[ROUND] += 1
    if state.clock[ROUND] < rules.rounds:
        deal_round(state.deal_stream, state.order, 1 if rules.joker_kind >= 0 else 0)
        start_round(rules, state)


@jit_borrowing
def advance(rules, seats, state, scratch):
    """Play on until a searching seat must decide (False) or the game is over (True).

    ``seats`` decide by their codes; a seat whose code is ``SEARCH`` (choosing, keeping a
    set-aside slice, the joker's decisions), ``LOOKAHEAD`` (choosing), ``SEARCH_CUT``,
    ``LOOKAHEAD_CUT``, ``LEAD_CUT`` or ``LOOKAHEAD2_CUT`` (cutting) makes ``advance``
    return at its decision, with ``state.clock`` and ``state.pending`` pointing at it; so
    does a ``FITTED`` chooser's (``fitted.fitted_move`` plays it in the real game,
    ``search.play_on`` in a play-out: the kernel built without the working space then
    compiles no network).
    """
    view, clock, pending = state.seen, state.clock, state.pending
    players = state.eaten_count.shape[0]
    while clock[ROUND] < rules.rounds:
        if pending[PENDING] != NOTHING:
            seat = pending[PENDING_SEAT]
            if seats.codes[seat, 0] == SEARCH:
                return False
            if pending[PENDING] == SWAP:
                claim = choose_swap(seats, seat, pending[SWAP_CREAM], pending[SWAP_EATEN] == 1,
                                    view, rules)
                swap_joker(seat, claim, rules, state)
            else:
                place_joker(seat, choose_joker(seats, seat, view, rules), rules, state)
            continue
        waiter = waiter_of(clock, players)
        turn = clock[TURN]
        if turn == 0:
            cutter = seats.codes[waiter, 1]
            if cutter in (SEARCH_CUT, LOOKAHEAD_CUT, LEAD_CUT, LOOKAHEAD2_CUT):
                return False
            cut_cake(choose_cut(seats, waiter, view, rules, scratch), state)
        elif turn <= players:
            seat = (waiter + turn) % players
            if seats.codes[seat, 0] in (SEARCH, LOOKAHEAD, FITTED):
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
    """Majorities, totals (with the seat bonus) and the split win of a finished game (every
    round banked), one entry per seat."""
    for seat in range(total.shape[0]):
        majority[seat] = state.banked[BANKED_MAJORITY, seat]
        total[seat] = (majority[seat] + state.banked[BANKED_CREAM, seat]
                       + rules.seat_bonus[seat])
    split_wins(total, WIN_UNITS, win_units)
