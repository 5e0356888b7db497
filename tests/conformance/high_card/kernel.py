"""High card in Numba: the same steps as ``reference.py``, on arrays."""

import numpy as np

from cakesim.engine.jit import jit
from cakesim.engine.seeding import DEAL_STREAM, new_stream, shuffle_in_place
from cakesim.kits.seating import seat_of_deal, split_wins

WIN_UNITS = 12
"""Win units of one game: divisible by every number of tied winners, 1 to 4."""


@jit
def deal(seed, deal_index, deck):
    """The deck shuffled for deal ``deal_index``: a pure function of (seed, deal)."""
    order = np.arange(deck.shape[0])
    shuffle_in_place(new_stream(seed, deal_index, DEAL_STREAM), order)
    return order


@jit
def play_games(seed, first_game, duplicate, deck, first_bonus, thresholds, total, win_units,
               redraws):
    """Play ``total.shape[0]`` games; ``thresholds[j]`` is player ``j``'s strategy.

    Per seat: the card kept (``total``) and win units; per game: cards thrown away.
    """
    players = total.shape[1]
    compared = np.empty(players, np.int64)
    for g in range(total.shape[0]):
        game = first_game + g
        deal_index, rotation = seat_of_deal(game, players, duplicate)
        order = deal(seed, deal_index, deck)
        next_card = players
        for seat in range(players):
            card = deck[order[seat]]
            # decide: throw away a card below the player's threshold, take the next one.
            if card < thresholds[(seat - rotation) % players]:
                card = deck[order[next_card]]
                next_card += 1
                redraws[g] += 1
            total[g, seat] = card
        # score: the highest card (the first seat's with its bonus) wins; tied winners
        # split the win units.
        for seat in range(players):
            compared[seat] = total[g, seat]
        compared[0] += first_bonus
        split_wins(compared, WIN_UNITS, win_units[g])
