"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 2), on fixed-size integer arrays. All game constants arrive as arguments (see
``TableRules.arrays``); the results go into preallocated output arrays, one row per game.

State, per game: ``kept[seat, category]`` the slices each seat keeps face up (categories
``0 .. K-1`` the kinds, ``K`` pepper, ``K + 1`` burnt); ``received[seat]`` the slices a
seat received that earn the receipt point (burnt excluded); ``eaten_olives[seat]`` and
``eaten_count[seat]``; ``unseen[category]`` the slices on pizzas not yet laid out.
"""

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import DEAL_STREAM, DECISION_STREAM, below, game_key, shuffle_in_place
from cakesim.games.part_du_chef.strategies import (
    choose_cut,
    choose_marianne,
    choose_portion,
    choose_victim,
)
from cakesim.games.slicing.circle import arcs_of_cut
from cakesim.games.slicing.tabletop import WIN_UNITS, majority_points, seat_of_deal, split_wins

__all__ = ["WIN_UNITS", "deal_pizzas", "play_games", "score_game", "seat_of_deal"]

MARIANNE_HOLDER = 0
"""La Marianne goes to the first chef (RULES.md s2), seat 0."""


@jit_borrowing
def restart(stream, seed, game, which):
    """Restart draw stream ``stream`` as stream ``which`` of game ``game`` under ``seed``."""
    stream[0] = game_key(seed, game, which)
    stream[1] = 0


@jit_borrowing
def deal_pizzas(seed, deal, deal_stream, slice_category, burnt, n, order, pool):
    """Deal ``deal``: ``order[pizza * n + position]`` is the component at that place.

    RULES.md s2 "Deal": the non-burnt components are shuffled (``pool``, in component
    order before the shuffle), then each pizza in turn gets its burnt slice at a uniformly
    random position and the next shuffled components in the other places.
    """
    filled = 0
    for s in range(slice_category.shape[0]):
        if slice_category[s] != burnt:
            pool[filled] = s
            filled += 1
    restart(deal_stream, seed, deal, DEAL_STREAM)
    shuffle_in_place(deal_stream, pool)
    pizza = 0
    taken = 0
    for s in range(slice_category.shape[0]):
        if slice_category[s] != burnt:
            continue
        position = below(deal_stream, n)
        for place in range(n):
            if place == position:
                order[pizza * n + place] = s
            else:
                order[pizza * n + place] = pool[taken]
                taken += 1
        pizza += 1


@jit
def play_games(seed, first_game, duplicate, slice_category, slice_olives, slice_finisher,
               majority_value, pizzas, slices_per_pizza, diversity_bonus, slice_point,
               burnt_penalty, receipt_holder, pepper_sequential, marianne, cut_masks, cut_starts,
               cut_lengths, codes,
               params, total, majority, olives, slices, diversity, burnt, win_units, steals,
               empty_steals, finishers_eaten, eaten_slices, marianne_pizza):
    """Play ``total.shape[0]`` games; seat 0 is the first chef, seats in play order.

    ``codes[j]``/``params[j]`` is player ``j``'s strategy; player ``j`` sits at seat
    ``(j + rotation) % P``. Per seat: total, majority, olives, slice (receipt) points,
    diversity points, kept burnt slices, win units. Per game: finisher steals, finishers
    kept with nobody to rob, finishers eaten, eaten slices, and the pizza (1-based) on
    whose turn La Marianne was played (0: not played).
    """
    players = total.shape[1]
    kinds = majority_value.shape[0]
    categories = kinds + 2
    pepper = kinds
    charred = kinds + 1
    n = slices_per_pizza
    box = slice_category.shape[0]
    box_count = np.zeros(categories, dtype=np.int16)
    for s in range(box):
        box_count[slice_category[s]] += 1

    seat_codes = np.empty((players, codes.shape[1]), dtype=codes.dtype)
    seat_params = np.empty((players, params.shape[1]), dtype=params.dtype)
    order = np.empty(pizzas * n, dtype=np.int16)
    pool = np.empty(box - box_count[charred], dtype=np.int16)
    deal_stream = np.zeros(2, dtype=np.uint64)
    stream = np.zeros(2, dtype=np.uint64)
    kept = np.zeros((players, categories), dtype=np.int16)
    received = np.zeros(players, dtype=np.int16)
    eaten_olives = np.zeros(players, dtype=np.int16)
    eaten_count = np.zeros(players, dtype=np.int16)
    unseen = np.zeros(categories, dtype=np.int16)
    pizza_category = np.zeros(n, dtype=np.int8)
    pizza_olives = np.zeros(n, dtype=np.int8)
    pizza_finisher = np.zeros(n, dtype=np.bool_)
    portion_start = np.zeros(n, dtype=np.int64)
    portion_len = np.zeros(n, dtype=np.int64)
    portion_taken = np.zeros(n, dtype=np.bool_)
    # Scratch space of the decision functions and of the score sheet.
    still_open = np.zeros(categories, dtype=np.int16)
    rivals = np.zeros(categories, dtype=np.int16)
    rival_ties = np.zeros(categories, dtype=np.int16)
    added = np.zeros(categories, dtype=np.int16)
    decided = np.zeros(categories, dtype=np.int16)
    arc_value = np.zeros((players, n, n + 1))
    taken = np.zeros(n, dtype=np.bool_)
    work = np.zeros((players, categories), dtype=np.int16)
    assigned = np.zeros((players, kinds), dtype=np.int16)
    counts = np.zeros((players, kinds), dtype=np.int16)
    assign = np.zeros(max(box_count[pepper], 1), dtype=np.int16)
    extra = np.zeros(kinds, dtype=np.int16)
    points = np.zeros(players, dtype=np.int16)
    diversity_points = np.zeros(players, dtype=np.int16)
    slice_points = np.zeros(players, dtype=np.int16)
    wins = np.zeros(players, dtype=np.int16)
    sheet_total = np.zeros(players, dtype=np.int16)

    for g in range(total.shape[0]):
        game = first_game + g
        deal, rotation = seat_of_deal(game, players, duplicate)
        for seat in range(players):
            player = (seat - rotation) % players
            seat_codes[seat] = codes[player]
            seat_params[seat] = params[player]
        deal_pizzas(seed, deal, deal_stream, slice_category, charred, n, order, pool)
        restart(stream, seed, game, DECISION_STREAM)
        kept[:] = 0
        received[:] = 0
        eaten_olives[:] = 0
        eaten_count[:] = 0
        unseen[:] = box_count
        marianne_held = marianne

        for pizza in range(pizzas):
            chef = pizza % players
            # Lay out the pizza: its slices become visible to everyone.
            for position in range(n):
                s = order[pizza * n + position]
                pizza_category[position] = slice_category[s]
                pizza_olives[position] = slice_olives[s]
                pizza_finisher[position] = slice_finisher[s]
                unseen[slice_category[s]] -= 1
            # Cut into exactly P portions.
            mask = choose_cut(seat_codes, seat_params, chef, pizza_category, pizza_olives,
                              pizza_finisher, kept, unseen, majority_value, diversity_bonus,
                              slice_point, burnt_penalty, cut_masks, cut_starts, cut_lengths,
                              stream, still_open, rivals, rival_ties, added, decided,
                              arc_value, taken)
            n_portions = arcs_of_cut(mask, n, portion_start, portion_len)
            portion_taken[:] = False
            # Take: left of the chef first, the chef last (the portion left over).
            for turn in range(1, players + 1):
                seat = (chef + turn) % players
                index, eat_mask = choose_portion(
                    seat_codes, seat_params, seat, pizza_category, pizza_olives,
                    pizza_finisher, portion_start, portion_len, portion_taken, n_portions,
                    kept, unseen, majority_value, diversity_bonus, slice_point,
                    burnt_penalty, stream, still_open, rivals, rival_ties, added, decided)
                portion_taken[index] = True
                for j in range(portion_len[index]):
                    position = (portion_start[index] + j) % n
                    category = pizza_category[position]
                    if category != charred:
                        received[seat] += 1
                    if eat_mask & (1 << j):
                        eaten_olives[seat] += pizza_olives[position]
                        eaten_count[seat] += 1
                        if pizza_finisher[position]:
                            finishers_eaten[g] += 1
                        continue
                    kept[seat, category] += 1
                    if pizza_finisher[position]:
                        victim = choose_victim(seat_codes, seat_params, seat, category, kept,
                                               majority_value, diversity_bonus,
                                               burnt_penalty, stream)
                        if victim < 0:
                            empty_steals[g] += 1
                        else:
                            kept[victim, category] -= 1
                            kept[seat, category] += 1
                            steals[g] += 1
                # La Marianne, on the holder's own turn.
                if marianne_held and seat == MARIANNE_HOLDER:
                    use, give_1, owner_1, take_1, give_2, owner_2, take_2 = choose_marianne(
                        seat_codes, seat_params, seat, pizza == pizzas - 1, pizzas - pizza,
                        kept, work, majority_value, diversity_bonus, burnt_penalty, stream)
                    if use:
                        marianne_held = False
                        marianne_pizza[g] = pizza + 1
                        kept[seat, give_1] -= 1
                        kept[seat, give_2] -= 1
                        kept[owner_1, take_1] -= 1
                        kept[owner_2, take_2] -= 1
                        kept[owner_1, give_1] += 1
                        kept[owner_2, give_2] += 1
                        kept[seat, take_1] += 1
                        kept[seat, take_2] += 1

        score_game(kept, received, eaten_olives, eaten_count, majority_value,
                   diversity_bonus, slice_point, burnt_penalty, receipt_holder,
                   pepper_sequential, assigned, counts, assign, extra, points,
                   diversity_points, slice_points, sheet_total, wins)
        for seat in range(players):
            total[g, seat] = sheet_total[seat]
            majority[g, seat] = points[seat]
            olives[g, seat] = eaten_olives[seat]
            slices[g, seat] = slice_points[seat]
            diversity[g, seat] = diversity_points[seat]
            burnt[g, seat] = kept[seat, charred]
            win_units[g, seat] = wins[seat]
            eaten_slices[g] += eaten_count[seat]


@jit_borrowing
def assign_peppers(kept, seat, rivals_of, majority_value, diversity_bonus, assign, extra,
                   assigned):
    """``assigned[seat]``: the kinds of ``seat``'s peppers that maximise its total.

    RULES.md s2 (**default**): against the opponents' counts ``rivals_of`` (kinds only);
    majority and diversity together; every multiset of kinds is tried in lexicographic
    order, so ties go to the earliest kinds.
    """
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
        value += diversity_bonus * lowest
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


@jit_borrowing
def score_game(kept, received, eaten_olives, eaten_count, majority_value, diversity_bonus,
               slice_point, burnt_penalty, receipt_holder, pepper_sequential, assigned,
               counts, assign, extra, points, diversity_points, slice_points, total, wins):
    """The score sheet of a finished game (RULES.md s2 "Scoring"), one entry per seat.

    ``counts[seat, kind]`` ends as the kept slices with peppers assigned; ``points``
    holds the majority points, then the diversity and receipt points, the totals (with
    the olives and the burnt penalty) and the win units.
    """
    players = kept.shape[0]
    kinds = majority_value.shape[0]
    for seat in range(players):
        for k in range(kinds):
            counts[seat, k] = kept[seat, k]
            assigned[seat, k] = 0
    for seat in range(players):
        # Independent: against the others' counts without peppers; sequential: with the
        # peppers of the holders before this one.
        assign_peppers(kept, seat, counts if pepper_sequential else kept, majority_value,
                       diversity_bonus, assign, extra, assigned)
        if pepper_sequential:
            for k in range(kinds):
                counts[seat, k] += assigned[seat, k]
    if not pepper_sequential:
        for seat in range(players):
            for k in range(kinds):
                counts[seat, k] += assigned[seat, k]
    majority_points(counts, majority_value, True, points)
    for seat in range(players):
        lowest = counts[seat, 0]
        for k in range(kinds):
            lowest = min(lowest, counts[seat, k])
        if receipt_holder:
            held = eaten_count[seat]
            for category in range(kinds + 1):
                held += kept[seat, category]
        else:
            held = received[seat]
        diversity_points[seat] = diversity_bonus * lowest
        slice_points[seat] = slice_point * held
        total[seat] = (points[seat] + eaten_olives[seat] + slice_points[seat]
                       + diversity_points[seat] - burnt_penalty * kept[seat, kinds + 1])
    split_wins(total, wins)
