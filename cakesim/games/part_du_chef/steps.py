"""La Part du Chef's rule steps on the kernel's bundles, and the game as a machine that pauses.

The steps carry the reference engine's names (RULES.md section 2): ``lay_out_pizza``,
``cut_pizza``, ``take_portion``, ``receive_slice``, ``finisher_steals``,
``consider_marianne``. A game in progress knows where it is from ``State.clock`` (the
pizza, and whose turn within it), so it can stop at any decision and go on later:
``advance`` plays every decision of a heuristic strategy itself and pauses where a
searching player must decide. The kernel then asks the search (``search.py``), whose
rollouts play on with ``advance`` too, from copies of the game. The search never calls
itself: its rollout players are heuristic, so ``advance`` never pauses inside a rollout.

Only a cut and a portion choice (the portion and its eat plan) pause: whom a kept
finisher robs and La Marianne are decided within the turn (``play_turn``) by the seat's
thief and Marianne codes, searching or not.

Bundles are those of ``kernel.py`` (``State``, ``View``, ``Rules``, ``Strategies``,
``Scratch``, ``Sheet``); this module only reads and writes their arrays.
"""

from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.games.part_du_chef.strategies import (
    CHOOSER,
    CUTTER,
    LOOKAHEAD,
    LOOKAHEAD_CUT,
    SEARCH,
    SEARCH_CUT,
    choose_cut,
    choose_marianne,
    choose_portion,
    choose_victim,
)
from cakesim.games.slicing.circle import arcs_of_cut
from cakesim.games.slicing.tabletop import WIN_UNITS, majority_points
from cakesim.kits.seating import split_wins

MARIANNE_HOLDER = 0
"""La Marianne goes to the first chef (RULES.md s2), seat 0."""

# Fields of ``State.clock``.
PIZZA = 0
"""The pizza being served (0-based); ``Rules.pizzas`` once the game is over."""
TURN = 1
"""Within the pizza: 0 the chef's cut, ``1 .. P`` the chooser that many seats to the
chef's left (``P`` the chef, who gets the last portion)."""
PORTIONS = 2
"""How many portions the pizza's cut made (always P: a chef cuts exactly P)."""

# Fields of ``State.tally``: the per-game counts of the ``Results``.
STEALS = 0
EMPTY_STEALS = 1
FINISHERS_EATEN = 2
MARIANNE_PIZZA = 3
"""The 1-based pizza on whose turn La Marianne was played, 0 while it is held (or out of
play): the holder still has it while this is 0 and ``Rules.marianne``."""


@jit_borrowing
def start_game(rules, state):
    """Set up the dealt game (``state.order``): empty piles, the first pizza on the table."""
    view = state.seen
    kept = view.kept
    for seat in range(kept.shape[0]):
        for category in range(kept.shape[1]):
            kept[seat, category] = 0
        state.received[seat] = 0
        state.eaten_olives[seat] = 0
        state.eaten_count[seat] = 0
    for category in range(kept.shape[1]):
        view.unseen[category] = state.box_count[category]
    for i in range(state.tally.shape[0]):
        state.tally[i] = 0
    state.clock[PIZZA] = 0
    lay_out_pizza(rules, state)


@jit_inline
def lay_out_pizza(rules, state):
    """The pizza is laid out as a circle of 13: everyone sees its slices."""
    view = state.seen
    n = rules.slices_per_pizza
    pizza = state.clock[PIZZA]
    for position in range(n):
        s = state.order[pizza * n + position]
        view.pizza_category[position] = rules.slice_category[s]
        view.pizza_olives[position] = rules.slice_olives[s]
        view.pizza_finisher[position] = rules.slice_finisher[s]
        view.unseen[rules.slice_category[s]] -= 1
    state.clock[TURN] = 0


@jit_inline
def cut_pizza(mask, state):
    """The chef's cut (a gap mask) makes the portions; the chef's left-hand neighbour is next."""
    view = state.seen
    n = view.pizza_category.shape[0]
    state.clock[PORTIONS] = arcs_of_cut(mask, n, view.portion_start, view.portion_len)
    for p in range(n):
        view.portion_taken[p] = False
    state.clock[TURN] = 1


@jit_inline
def play_turn(seat, index, eat_mask, rules, seats, state, scratch):
    """A chooser's turn (``take_turn``); the turn passes, after the chef to the next pizza."""
    take_turn(seat, index, eat_mask, rules, seats, state, scratch)
    state.clock[TURN] += 1
    if state.clock[TURN] > state.seen.kept.shape[0]:
        next_pizza(rules, state)


@jit_inline
def take_turn(seat, index, eat_mask, rules, seats, state, scratch):
    """A chooser takes portion ``index`` (``eat_mask``: the slices it eats), then plays La
    Marianne if it holds it."""
    take_portion(seat, index, eat_mask, rules, seats, state)
    if rules.marianne and state.tally[MARIANNE_PIZZA] == 0 and seat == MARIANNE_HOLDER:
        consider_marianne(seat, rules, seats, state, scratch)


@jit_inline
def take_portion(seat, index, eat_mask, rules, seats, state):
    """Left of the chef first, each player takes a portion; the chef gets the last.

    Each received slice is at once kept or eaten (bit ``j`` of ``eat_mask``: the
    portion's ``j``-th slice is eaten); burnt and pepper are kept.
    """
    view = state.seen
    n = view.pizza_category.shape[0]
    view.portion_taken[index] = True
    for j in range(view.portion_len[index]):
        receive_slice(seat, (view.portion_start[index] + j) % n, (eat_mask & (1 << j)) != 0,
                      rules, seats, state)


@jit_inline
def receive_slice(seat, position, eat, rules, seats, state):
    """+1 on receipt (not for burnt); eaten: its olives; kept: its pile, a finisher steals."""
    view = state.seen
    category = view.pizza_category[position]
    if category != rules.majority_value.shape[0] + 1:
        state.received[seat] += 1
    if eat:
        state.eaten_olives[seat] += view.pizza_olives[position]
        state.eaten_count[seat] += 1
        if view.pizza_finisher[position]:
            state.tally[FINISHERS_EATEN] += 1
        return
    view.kept[seat, category] += 1
    if view.pizza_finisher[position]:
        finisher_steals(seat, category, rules, seats, state)


@jit_inline
def finisher_steals(seat, kind, rules, seats, state):
    """A kept finisher steals one kept slice of its kind from an opponent of the keeper's
    choice (none if no opponent has one); the receipt point stays put."""
    kept = state.seen.kept
    victim = choose_victim(seats, seat, kind, kept, rules, state.stream)
    if victim < 0:
        state.tally[EMPTY_STEALS] += 1
    else:
        kept[victim, kind] -= 1
        kept[seat, kind] += 1
        state.tally[STEALS] += 1


@jit_inline
def consider_marianne(seat, rules, seats, state, scratch):
    """La Marianne: once, on their own turn, the holder may swap two kept slices for two
    kept slices of other players (their choice); then the card leaves the game."""
    kept = state.seen.kept
    pizza = state.clock[PIZZA]
    use, give_1, owner_1, take_1, give_2, owner_2, take_2 = choose_marianne(
        seats, seat, pizza == rules.pizzas - 1, rules.pizzas - pizza, kept, scratch.work,
        rules, state.stream)
    if use:
        state.tally[MARIANNE_PIZZA] = pizza + 1
        kept[seat, give_1] -= 1
        kept[seat, give_2] -= 1
        kept[owner_1, take_1] -= 1
        kept[owner_2, take_2] -= 1
        kept[owner_1, give_1] += 1
        kept[owner_2, give_2] += 1
        kept[seat, take_1] += 1
        kept[seat, take_2] += 1


@jit_inline
def next_pizza(rules, state):
    """The chef's role passes left; the next pizza is laid out, if any is left."""
    state.clock[PIZZA] += 1
    if state.clock[PIZZA] < rules.pizzas:
        lay_out_pizza(rules, state)


@jit_borrowing
def advance(rules, seats, state, scratch):
    """Play on until a searching seat must decide (False) or the game is over (True).

    ``seats`` decide by their codes (their seat rows); a seat whose chooser code is
    ``SEARCH`` or ``LOOKAHEAD`` (choosing a portion) or whose cutter code is ``SEARCH_CUT``
    or ``LOOKAHEAD_CUT`` (cutting) makes ``advance`` return at its decision, with
    ``state.clock`` pointing at it.
    """
    view, clock, stream = state.seen, state.clock, state.stream
    players = view.kept.shape[0]
    while clock[PIZZA] < rules.pizzas:
        chef = clock[PIZZA] % players
        turn = clock[TURN]
        if turn == 0:
            cutter = seats.seat_codes[chef, CUTTER]
            if cutter in (SEARCH_CUT, LOOKAHEAD_CUT):
                return False
            cut_pizza(choose_cut(seats, chef, view, rules, stream, scratch), state)
        else:
            seat = (chef + turn) % players
            chooser = seats.seat_codes[seat, CHOOSER]
            if chooser in (SEARCH, LOOKAHEAD):
                return False
            index, eat_mask = choose_portion(seats, seat, view, clock[PORTIONS], rules, stream,
                                             scratch)
            play_turn(seat, index, eat_mask, rules, seats, state, scratch)
    return True


@jit_borrowing
def score_game(rules, state, sheet):
    """The score sheet of a finished game (RULES.md s2 "Scoring"), one entry per seat.

    ``counts[seat, kind]`` ends as the kept slices with peppers assigned; ``points``
    holds the majority points, then the diversity and receipt points, the totals (with
    the olives and the burnt penalty) and the win units.
    """
    kept = state.seen.kept
    counts = sheet.counts
    assigned = sheet.assigned
    pepper_sequential = rules.pepper_sequential
    players = kept.shape[0]
    kinds = rules.majority_value.shape[0]
    for seat in range(players):
        for k in range(kinds):
            counts[seat, k] = kept[seat, k]
            assigned[seat, k] = 0
    for seat in range(players):
        # Independent: against the others' counts without peppers; sequential: with the
        # peppers of the holders before this one.
        assign_peppers(seat, kept, counts if pepper_sequential else kept, rules, sheet)
        if pepper_sequential:
            for k in range(kinds):
                counts[seat, k] += assigned[seat, k]
    if not pepper_sequential:
        for seat in range(players):
            for k in range(kinds):
                counts[seat, k] += assigned[seat, k]
    majority_points(counts, rules.majority_value, True, sheet.points)
    for seat in range(players):
        lowest = counts[seat, 0]
        for k in range(kinds):
            lowest = min(lowest, counts[seat, k])
        if rules.receipt_holder:
            held = state.eaten_count[seat]
            for category in range(kinds + 1):
                held += kept[seat, category]
        else:
            held = state.received[seat]
        sheet.diversity_points[seat] = rules.diversity_bonus * lowest
        sheet.slice_points[seat] = rules.slice_point * held
        sheet.total[seat] = (sheet.points[seat] + state.eaten_olives[seat]
                             + sheet.slice_points[seat] + sheet.diversity_points[seat]
                             - rules.burnt_penalty * kept[seat, kinds + 1])
    split_wins(sheet.total, WIN_UNITS, sheet.wins)


@jit_borrowing
def assign_peppers(seat, kept, rivals_of, rules, sheet):
    """``assigned[seat]``: the kinds of ``seat``'s peppers that maximise its total.

    RULES.md s2 (**default**): against the opponents' counts ``rivals_of`` (kinds only);
    majority and diversity together; every multiset of kinds is tried in lexicographic
    order, so ties go to the earliest kinds.
    """
    majority_value = rules.majority_value
    assign = sheet.assign
    extra = sheet.extra
    assigned = sheet.assigned
    kinds = majority_value.shape[0]
    peppers = kept[seat, kinds]
    for k in range(kinds):
        assigned[seat, k] = 0
    if peppers == 0:
        return
    for i in range(peppers):
        assign[i] = 0
    best = -1
    while True:
        for k in range(kinds):
            extra[k] = 0
        for i in range(peppers):
            extra[assign[i]] += 1
        value = 0
        lowest = kept[seat, 0] + extra[0]
        for k in range(kinds):
            mine = kept[seat, k] + extra[k]
            lowest = min(lowest, mine)
            if mine == 0:
                continue
            top = True
            for other in range(kept.shape[0]):
                if other != seat and rivals_of[other, k] > mine:
                    top = False
            if top:
                value += majority_value[k]
        value += rules.diversity_bonus * lowest
        if value > best:
            best = value
            for k in range(kinds):
                assigned[seat, k] = extra[k]
        i = peppers - 1
        while i >= 0 and assign[i] == kinds - 1:
            i -= 1
        if i < 0:
            return
        assign[i] += 1
        for j in range(i + 1, peppers):
            assign[j] = assign[i]
