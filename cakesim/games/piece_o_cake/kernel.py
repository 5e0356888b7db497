"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 1), on fixed-size integer arrays. All game constants arrive as arguments (see
``TableRules.arrays``); the results go into preallocated output arrays, one row per game.
"""

import numpy as np

from cakesim.circle import arcs_of_cut
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    TAKE,
    choose_action,
    choose_bonus,
    choose_cut,
)
from cakesim.jit import jit, jit_borrowing
from cakesim.seeding import DEAL_STREAM, DECISION_STREAM, new_stream, shuffle_in_place

WIN_UNITS = 840
"""A game's win is 840 units, split evenly among tied winners (840 = lcm(1..8))."""


@jit
def deal_order(seed, deal, box_size):
    """The shuffled component list of deal ``deal``: cakes in stack order, then set-aside."""
    order = np.arange(box_size).astype(np.int16)
    shuffle_in_place(new_stream(seed, deal, DEAL_STREAM), order)
    return order


@jit
def seat_of_deal(game, players, duplicate):
    """``(deal, rotation)`` of a game: with duplicate deals each deal is played P times."""
    if duplicate:
        return game // players, game % players
    return game, 0


@jit
def play_games(seed, first_game, duplicate, slice_kind, slice_cream, majority_value, cakes,
               slices_per_cake, portion_limit, ties_score, bonus_after_cake, cut_masks,
               codes, params, total, majority, cream, win_units, declines, passes,
               discarded, eaten_slices, collected_slices):
    """Play ``total.shape[0]`` games; seat 0 is the first waiter, seats in play order.

    ``codes[j]``/``params[j]`` is player ``j``'s strategy; player ``j`` sits at seat
    ``(j + rotation) % P``. Per seat: total, majority and cream points and win units;
    per game: declines with eating, passes, discarded slices, eaten and collected slices.
    """
    players = total.shape[1]
    kinds = majority_value.shape[0]
    n = slices_per_cake
    box = slice_kind.shape[0]
    aside = box - cakes * n

    seat_codes = np.empty((players, codes.shape[1]), dtype=codes.dtype)
    seat_params = np.empty((players, params.shape[1]), dtype=params.dtype)
    collected = np.zeros((players, kinds), dtype=np.int16)
    collected_cream = np.zeros((players, kinds), dtype=np.int16)
    eaten_cream = np.zeros(players, dtype=np.int16)
    eaten_count = np.zeros(players, dtype=np.int16)
    unseen = np.zeros(kinds, dtype=np.int16)
    cake_kind = np.zeros(n, dtype=np.int8)
    cake_cream = np.zeros(n, dtype=np.int8)
    portion_start = np.zeros(n, dtype=np.int64)
    portion_len = np.zeros(n, dtype=np.int64)
    portion_taken = np.zeros(n, dtype=np.bool_)
    aside_kind = np.zeros(aside, dtype=np.int8)
    aside_cream = np.zeros(aside, dtype=np.int8)
    aside_left = np.zeros(aside, dtype=np.bool_)
    # Scratch space of the decision functions.
    still_open = np.zeros(kinds, dtype=np.int16)
    added = np.zeros(kinds, dtype=np.int16)
    decided = np.zeros(kinds, dtype=np.int16)
    arc_value = np.zeros((players, n, n + 1))
    decline_value = np.zeros(players)
    starts = np.zeros(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    taken = np.zeros(n, dtype=np.bool_)

    for g in range(total.shape[0]):
        game = first_game + g
        deal, rotation = seat_of_deal(game, players, duplicate)
        for seat in range(players):
            player = (seat - rotation) % players
            seat_codes[seat] = codes[player]
            seat_params[seat] = params[player]
        order = deal_order(seed, deal, box)
        stream = new_stream(seed, game, DECISION_STREAM)
        collected[:] = 0
        collected_cream[:] = 0
        eaten_cream[:] = 0
        eaten_count[:] = 0
        unseen[:] = 0
        for s in range(box):
            unseen[slice_kind[s]] += 1
        for a in range(aside):
            aside_kind[a] = slice_kind[order[cakes * n + a]]
            aside_cream[a] = slice_cream[order[cakes * n + a]]
            aside_left[a] = True

        for cake in range(cakes):
            waiter = cake % players
            # Lay out the cake: its slices become visible to everyone.
            for position in range(n):
                s = order[cake * n + position]
                cake_kind[position] = slice_kind[s]
                cake_cream[position] = slice_cream[s]
                unseen[slice_kind[s]] -= 1
            # Cut.
            mask = choose_cut(seat_codes[waiter], seat_params[waiter], waiter, cake_kind,
                              cake_cream, collected, collected_cream, unseen, majority_value,
                              ties_score, portion_limit, cut_masks, stream, still_open, added,
                              decided, arc_value, decline_value, starts, lengths, taken)
            n_portions = arcs_of_cut(mask, n, portion_start, portion_len)
            portion_taken[:] = False
            # Choose: left of the waiter first, the waiter last.
            for turn in range(1, players + 1):
                seat = (waiter + turn) % players
                action, index, eat_mask = choose_action(
                    seat_codes[seat], seat_params[seat], seat, cake_kind, cake_cream,
                    portion_start, portion_len, portion_taken, n_portions, collected,
                    collected_cream, unseen, majority_value, ties_score, stream, still_open,
                    added, decided)
                if action == TAKE:
                    portion_taken[index] = True
                    for j in range(portion_len[index]):
                        position = (portion_start[index] + j) % n
                        if eat_mask & (1 << j):
                            eaten_cream[seat] += cake_cream[position]
                            eaten_count[seat] += 1
                        else:
                            collected[seat, cake_kind[position]] += 1
                            collected_cream[seat, cake_kind[position]] += cake_cream[position]
                elif action == DECLINE_EAT:
                    declines[g] += 1
                    eaten_cream[seat] += collected_cream[seat, index]
                    eaten_count[seat] += collected[seat, index]
                    collected[seat, index] = 0
                    collected_cream[seat, index] = 0
                else:
                    passes[g] += 1
            # Portions nobody took leave the game.
            for p in range(n_portions):
                if not portion_taken[p]:
                    discarded[g] += portion_len[p]
            # Compensation variant: this cake's waiter keeps one set-aside slice.
            if bonus_after_cake[cake]:
                a, eat = choose_bonus(seat_codes[waiter], seat_params[waiter], waiter,
                                      aside_kind, aside_cream, aside_left, collected, unseen,
                                      majority_value, ties_score, stream)
                aside_left[a] = False
                unseen[aside_kind[a]] -= 1
                if eat:
                    eaten_cream[waiter] += aside_cream[a]
                    eaten_count[waiter] += 1
                else:
                    collected[waiter, aside_kind[a]] += 1
                    collected_cream[waiter, aside_kind[a]] += aside_cream[a]

        score_game(collected, eaten_cream, majority_value, ties_score, total[g], majority[g],
                   cream[g], win_units[g])
        for seat in range(players):
            eaten_slices[g] += eaten_count[seat]
            for kind in range(kinds):
                collected_slices[g] += collected[seat, kind]


@jit_borrowing
def score_game(collected, eaten_cream, majority_value, ties_score, total, majority, cream,
               win_units):
    """Majorities, cream, totals and the split win of one finished game."""
    players, kinds = collected.shape
    majority[:] = 0
    for kind in range(kinds):
        most = 0
        holders = 0
        for seat in range(players):
            if collected[seat, kind] > most:
                most = collected[seat, kind]
                holders = 1
            elif collected[seat, kind] == most:
                holders += 1
        if most == 0 or (holders > 1 and not ties_score):
            continue
        for seat in range(players):
            if collected[seat, kind] == most:
                majority[seat] += majority_value[kind]
    best = -1
    winners = 0
    for seat in range(players):
        cream[seat] = eaten_cream[seat]
        total[seat] = majority[seat] + cream[seat]
        if total[seat] > best:
            best = total[seat]
            winners = 1
        elif total[seat] == best:
            winners += 1
    for seat in range(players):
        win_units[seat] = WIN_UNITS // winners if total[seat] == best else 0
