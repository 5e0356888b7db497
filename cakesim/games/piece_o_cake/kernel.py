"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 1), on fixed-size integer arrays. All game constants arrive as arguments (see
``TableRules.arrays``); the results go into preallocated output arrays, one row per game.
"""

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import DEAL_STREAM, DECISION_STREAM, reset_stream, shuffle_in_place
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    TAKE,
    chance_table_shape,
    choose_action,
    choose_bonus,
    choose_cut,
    fill_chances,
)
from cakesim.games.slicing.circle import along, arcs_of_cut
from cakesim.games.slicing.tabletop import majority_points, seat_of_deal, split_wins


@jit_borrowing
def deal_order(seed, deal, deal_stream, order):
    """Shuffle deal ``deal``'s components into ``order``: cakes in stack order, then set-aside."""
    for s in range(order.shape[0]):
        order[s] = s
    reset_stream(deal_stream, seed, deal, DEAL_STREAM)
    shuffle_in_place(deal_stream, order)


@jit
def same_cream_kinds(slice_kind, slice_cream, kinds):
    """Whether every slice of each kind carries the same cream (see ``_value_circle``)."""
    cream_of_kind = np.full(kinds, -1, dtype=np.int64)
    for s in range(slice_kind.shape[0]):
        kind = slice_kind[s]
        if cream_of_kind[kind] < 0:
            cream_of_kind[kind] = slice_cream[s]
        elif slice_cream[s] != cream_of_kind[kind]:
            return False
    return True


@jit
def play_games(seed, first_game, duplicate, slice_kind, slice_cream, majority_value, cakes,
               slices_per_cake, portion_limit, ties_score, bonus_after_cake, cut_masks,
               codes, params, total, majority, cream, win_units, declines, passes,
               discarded, eaten_slices, collected_slices):
    """Play ``total.shape[0]`` games; seat 0 is the first waiter, seats in play order.

    ``codes[j]``/``params[j]`` is player ``j``'s strategy; player ``j`` sits at seat
    ``(j + rotation) % P``. Per seat: total, majority and cream points and win units;
    per game: declines with eating, passes, discarded slices, eaten and collected slices.
    Here every array is allocated, once; ``play_batch`` plays the games in them.
    """
    players = total.shape[1]
    kinds = majority_value.shape[0]
    n = slices_per_cake
    box = slice_kind.shape[0]
    aside = box - cakes * n

    kind_count = np.zeros(kinds, dtype=np.int16)
    for s in range(box):
        kind_count[slice_kind[s]] += 1
    most = kind_count.max()
    planes, opens, leads = chance_table_shape(most)
    chances = np.zeros((players, planes, opens, leads))
    for player in range(players):
        fill_chances(params[player], ties_score, chances[player])
    seat_codes = np.empty((players, codes.shape[1]), dtype=codes.dtype)
    seat_params = np.empty((players, params.shape[1]), dtype=params.dtype)
    seat_chances = np.empty_like(chances)
    order = np.empty(box, dtype=np.int16)
    deal_stream = np.zeros(2, dtype=np.uint64)
    stream = np.zeros(2, dtype=np.uint64)
    collected = np.zeros((players, kinds), dtype=np.int16)
    collected_cream = np.zeros((players, kinds), dtype=np.int16)
    eaten_cream = np.zeros(players, dtype=np.int16)
    eaten_count = np.zeros(players, dtype=np.int16)
    unseen = np.zeros(kinds, dtype=np.int16)
    cake_kind = np.zeros(n, dtype=np.uint8)
    cake_cream = np.zeros(n, dtype=np.int8)
    portion_start = np.zeros(n, dtype=np.int64)
    portion_len = np.zeros(n, dtype=np.int64)
    portion_taken = np.zeros(n, dtype=np.bool_)
    aside_kind = np.zeros(aside, dtype=np.uint8)
    aside_cream = np.zeros(aside, dtype=np.int8)
    aside_left = np.zeros(aside, dtype=np.bool_)
    # Scratch space of the decision functions.
    still_open = np.zeros(kinds, dtype=np.int16)
    rivals = np.zeros(kinds, dtype=np.int16)
    added = np.zeros(kinds, dtype=np.int16)
    decided = np.zeros(kinds, dtype=np.int16)
    arc_value = np.zeros((players, n, n + 1))
    decline_value = np.zeros(players)
    starts = np.zeros(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    taken = np.zeros(n, dtype=np.bool_)
    reuse_gains = same_cream_kinds(slice_kind, slice_cream, kinds)
    known_gain = np.zeros((kinds, n))

    play_batch(seed, first_game, duplicate, codes, params, chances, seat_codes, seat_params,
               seat_chances, order, deal_stream, kind_count, slice_kind, slice_cream,
               majority_value, cakes, portion_limit, ties_score, bonus_after_cake, cut_masks,
               stream, collected, collected_cream, eaten_cream, eaten_count, unseen, cake_kind,
               cake_cream, portion_start, portion_len, portion_taken, aside_kind, aside_cream,
               aside_left, still_open, rivals, added, decided, arc_value, decline_value,
               starts, lengths, taken, reuse_gains, known_gain, total, majority, cream,
               win_units, declines, passes, discarded, eaten_slices, collected_slices)


@jit_borrowing
def play_batch(seed, first_game, duplicate, codes, params, chances, seat_codes, seat_params,
               seat_chances, order, deal_stream, kind_count, slice_kind, slice_cream,
               majority_value, cakes, portion_limit, ties_score, bonus_after_cake, cut_masks,
               stream, collected, collected_cream, eaten_cream, eaten_count, unseen, cake_kind,
               cake_cream, portion_start, portion_len, portion_taken, aside_kind, aside_cream,
               aside_left, still_open, rivals, added, decided, arc_value, decline_value,
               starts, lengths, taken, reuse_gains, known_gain, total, majority, cream,
               win_units, declines, passes, discarded, eaten_slices, collected_slices):
    """The games of ``play_games``, in arrays it allocated (so that no call counts references)."""
    seated = -1
    for g in range(total.shape[0]):
        game = first_game + g
        deal, rotation = seat_of_deal(game, total.shape[1], duplicate)
        # Copying the chance tables costs more than a short game: reseat on a new rotation.
        if rotation != seated:
            seated = rotation
            seat_strategies(rotation, codes, params, chances, seat_codes, seat_params,
                            seat_chances)
        deal_order(seed, deal, deal_stream, order)
        reset_stream(stream, seed, game, DECISION_STREAM)
        play_game(g, order, kind_count, slice_kind, slice_cream, majority_value, cakes,
                  portion_limit, ties_score, bonus_after_cake, cut_masks, seat_codes,
                  seat_params, seat_chances, stream, collected, collected_cream, eaten_cream,
                  eaten_count, unseen, cake_kind, cake_cream, portion_start, portion_len,
                  portion_taken, aside_kind, aside_cream, aside_left, still_open, rivals,
                  added, decided, arc_value, decline_value, starts, lengths, taken,
                  reuse_gains, known_gain, total, majority, cream, win_units, declines, passes,
                  discarded, eaten_slices, collected_slices)


@jit_borrowing
def seat_strategies(rotation, codes, params, chances, seat_codes, seat_params, seat_chances):
    """Seat ``(j + rotation) % P`` gets player ``j``'s codes, weights and chance table."""
    players = codes.shape[0]
    for seat in range(players):
        player = (seat - rotation) % players
        for c in range(codes.shape[1]):
            seat_codes[seat, c] = codes[player, c]
        for w in range(params.shape[1]):
            seat_params[seat, w] = params[player, w]
        for plane in range(chances.shape[1]):
            for still_open in range(chances.shape[2]):
                for lead in range(chances.shape[3]):
                    seat_chances[seat, plane, still_open, lead] = \
                        chances[player, plane, still_open, lead]


@jit_borrowing
def play_game(g, order, kind_count, slice_kind, slice_cream, majority_value, cakes,
              portion_limit, ties_score, bonus_after_cake, cut_masks, seat_codes, seat_params,
              seat_chances, stream, collected, collected_cream, eaten_cream, eaten_count,
              unseen, cake_kind, cake_cream, portion_start, portion_len, portion_taken,
              aside_kind, aside_cream, aside_left, still_open, rivals, added, decided,
              arc_value, decline_value, starts, lengths, taken, reuse_gains, known_gain, total,
              majority, cream, win_units, declines, passes, discarded, eaten_slices,
              collected_slices):
    """Play one dealt game (``order``) into output row ``g``."""
    players = total.shape[1]
    kinds = majority_value.shape[0]
    n = cake_kind.shape[0]
    aside = aside_kind.shape[0]
    collected[:] = 0
    collected_cream[:] = 0
    eaten_cream[:] = 0
    eaten_count[:] = 0
    for kind in range(kinds):
        unseen[kind] = kind_count[kind]
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
        # Everything not yet taken is still open; taking a portion closes its slices.
        for kind in range(kinds):
            still_open[kind] = unseen[kind]
        for position in range(n):
            still_open[cake_kind[position]] += 1
        # Cut.
        mask = choose_cut(seat_codes, seat_params, seat_chances, waiter, cake_kind,
                          cake_cream, collected, collected_cream, still_open, majority_value,
                          portion_limit, cut_masks, stream, rivals, added, decided, arc_value,
                          decline_value, starts, lengths, taken, reuse_gains, known_gain)
        n_portions = arcs_of_cut(mask, n, portion_start, portion_len)
        portion_taken[:] = False
        # Choose: left of the waiter first, the waiter last.
        for turn in range(1, players + 1):
            seat = (waiter + turn) % players
            action, index, eat_mask = choose_action(
                seat_codes, seat_params, seat_chances, seat, cake_kind, cake_cream,
                portion_start, portion_len, portion_taken, n_portions, collected,
                collected_cream, still_open, majority_value, stream, rivals, added, decided)
            if action == TAKE:
                portion_taken[index] = True
                position = portion_start[index]
                for j in range(portion_len[index]):
                    still_open[cake_kind[position]] -= 1
                    if eat_mask & (1 << j):
                        eaten_cream[seat] += cake_cream[position]
                        eaten_count[seat] += 1
                    else:
                        collected[seat, cake_kind[position]] += 1
                        collected_cream[seat, cake_kind[position]] += cake_cream[position]
                    position = along(position, 1, n)
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
            a, eat = choose_bonus(seat_codes, seat_params, seat_chances, waiter,
                                  aside_kind, aside_cream, aside_left, collected, unseen,
                                  majority_value, stream)
            aside_left[a] = False
            unseen[aside_kind[a]] -= 1
            if eat:
                eaten_cream[waiter] += aside_cream[a]
                eaten_count[waiter] += 1
            else:
                collected[waiter, aside_kind[a]] += 1
                collected_cream[waiter, aside_kind[a]] += aside_cream[a]
    score_game(g, collected, eaten_cream, majority_value, ties_score, total, majority,
               cream, win_units)
    for seat in range(players):
        eaten_slices[g] += eaten_count[seat]
        for kind in range(kinds):
            collected_slices[g] += collected[seat, kind]


@jit_borrowing
def score_game(g, collected, eaten_cream, majority_value, ties_score, total, majority, cream,
               win_units):
    """Majorities, cream, totals and the split win of finished game ``g`` (output row ``g``)."""
    majority_points(collected, majority_value, ties_score, majority[g])
    for seat in range(collected.shape[0]):
        cream[g, seat] = eaten_cream[seat]
        total[g, seat] = majority[g, seat] + cream[g, seat]
    split_wins(total[g], win_units[g])
