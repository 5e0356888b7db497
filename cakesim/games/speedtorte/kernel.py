"""The Numba kernel of Speedtorte in turn mode ("der Reihe nach"): a batch of games.

The same steps as ``reference.py``, on fixed-size arrays: deal, lay out the plates, open
the order cards, then turns until every card is fulfilled or the counter stands still.
Every game constant arrives as an argument from the rule set and the level.
"""

import numpy as np

from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.strategies import NO_SIGNAL, choose_move, choose_signal
from cakesim.jit import jit
from cakesim.seeding import DEAL_STREAM, DECISION_STREAM, new_stream, shuffle_in_place

SILENCE, OPEN_HANDS = 1, 2
"""Mode codes, in ``rules.MODES`` order (0 is signals)."""
WON, STUCK, HANDS_EMPTY = 0, 1, 2
"""How a game ended."""


@jit
def deal(seed, game, box, pool):
    """Game ``game``'s shuffled pieces and shuffled deck: a pure function of (seed, game)."""
    stream = new_stream(seed, game, DEAL_STREAM)
    pieces = box.copy()
    shuffle_in_place(stream, pieces)
    deck = pool.copy()
    shuffle_in_place(stream, deck)
    return pieces, deck


@jit
def tops_met(program, card, tops, type_flavour, type_candles, flavour_buf, candle_buf):
    """Whether ``card`` is met by the top pieces (the catalogue's op codes decide)."""
    for p in range(tops.shape[0]):
        flavour_buf[p] = type_flavour[tops[p]]
        candle_buf[p] = type_candles[tops[p]]
    return card_met(program, card, flavour_buf, candle_buf)


@jit
def play_games(seed, first_game, players, box, type_flavour, type_candles, sacher, plates,
               hand_size, displayed, program, pool, cards_to_fulfil, card_points, win_bonus,
               record_hunt_piece, rush_every, rush_moves, mode, met_mask, one_away, params,
               won, ending, score, moves, fulfilled, supply_left, rushes_missed,
               card_shown, card_fulfilled, card_wait, card_at_loss):
    """Play ``won.shape[0]`` games from ``first_game``; results into the given arrays."""
    hands = np.full((players, hand_size), -1, np.int8)
    hand_counts = np.zeros(players, np.int64)
    tops = np.zeros(plates, np.int8)
    display = np.full(displayed, -1, np.int16)
    shown_at = np.zeros(displayed, np.int64)
    rush_deadline = np.zeros(displayed, np.int64)
    queue = np.zeros(2 * pool.shape[0] + displayed, np.int16)
    signals = np.zeros(players, np.int8)
    signal_args = np.zeros(players, np.int8)
    flavour_buf = np.zeros(plates, np.int8)
    candle_buf = np.zeros(plates, np.int8)
    for g in range(won.shape[0]):
        game = first_game + g
        pieces, deck = deal(seed, game, box, pool)
        stream = new_stream(seed, game, DECISION_STREAM)
        # Deal: plates first, then each hand, the rest is the supply (in order).
        for p in range(plates):
            tops[p] = pieces[p]
        drawn = plates
        for b in range(players):
            for i in range(hand_size):
                hands[b, i] = pieces[drawn]
                drawn += 1
            hand_counts[b] = hand_size
        # The level's cards form the queue; the rest of the pool waits for rush penalties.
        head, tail = 0, 0
        for c in range(cards_to_fulfil):
            queue[tail] = deck[c]
            tail += 1
        reserve = cards_to_fulfil
        to_fulfil = cards_to_fulfil
        display[:] = -1
        went_under = tail
        for slot in range(displayed):
            while head < tail:
                card = queue[head]
                head += 1
                # A card met at setup goes under the deck once; met again, it stays.
                if head > went_under or not tops_met(program, card, tops, type_flavour,
                                                     type_candles, flavour_buf, candle_buf):
                    display[slot] = card
                    break
                queue[tail] = card
                tail += 1
        for slot in range(displayed):
            if display[slot] >= 0:
                card_shown[g, display[slot]] += 1
            shown_at[slot] = 0
            rush_deadline[slot] = 0
        signals[:] = NO_SIGNAL
        done, n_moves, incoming, missed, points = 0, 0, 0, 0, 0
        baker, result = 0, HANDS_EMPTY
        while True:
            if hand_counts.sum() == 0:
                result = HANDS_EMPTY
                break
            while hand_counts[baker] == 0:
                baker = (baker + 1) % players
            following = _next_with_pieces(hand_counts, baker)
            slot_i, plate, _, _, _ = choose_move(
                params[baker], baker, hands, hand_counts, tops, display, card_points,
                met_mask, one_away, signals, signal_args, following, mode == OPEN_HANDS,
                type_flavour, type_candles, sacher, stream)
            if slot_i < 0:
                result = STUCK
                break
            # Place, then draw from the supply while it lasts.
            tops[plate] = hands[baker, slot_i]
            last = hand_counts[baker] - 1
            hands[baker, slot_i] = hands[baker, last]
            hands[baker, last] = -1
            hand_counts[baker] = last
            if drawn < pieces.shape[0]:
                hands[baker, last] = pieces[drawn]
                hand_counts[baker] += 1
                drawn += 1
            n_moves += 1
            # Check every displayed card against the tops; refills may chain.
            changed = True
            while changed:
                changed = False
                for slot in range(displayed):
                    card = display[slot]
                    if card >= 0 and tops_met(program, card, tops, type_flavour,
                                              type_candles, flavour_buf, candle_buf):
                        done += 1
                        points += card_points[card]
                        card_fulfilled[g, card] += 1
                        card_wait[g, card] += n_moves - shown_at[slot]
                        display[slot] = -1
                        rush_deadline[slot] = 0
                        if head < tail:
                            display[slot] = queue[head]
                            head += 1
                            card_shown[g, display[slot]] += 1
                            shown_at[slot] = n_moves
                            incoming += 1
                            if rush_every > 0 and incoming % rush_every == 0:
                                rush_deadline[slot] = n_moves + rush_moves
                        changed = True
            if done >= to_fulfil:
                result = WON
                break
            # A rush card not met in time stays as a normal card; one more goes under.
            for slot in range(displayed):
                if rush_deadline[slot] > 0 and n_moves >= rush_deadline[slot]:
                    rush_deadline[slot] = 0
                    missed += 1
                    if reserve < pool.shape[0]:
                        queue[tail] = deck[reserve]
                        tail += 1
                        reserve += 1
                        to_fulfil += 1
            if mode == SILENCE:
                signals[baker] = NO_SIGNAL
            else:
                signals[baker], signal_args[baker] = choose_signal(
                    params[baker], hands[baker], hand_counts[baker], tops, display, met_mask,
                    type_flavour, type_candles, sacher)
            baker = (baker + 1) % players
        left = pieces.shape[0] - drawn
        won[g] = result == WON
        ending[g] = result
        score[g] = points + (win_bonus + record_hunt_piece * left if result == WON else 0)
        moves[g] = n_moves
        fulfilled[g] = done
        supply_left[g] = left
        rushes_missed[g] = missed
        if result != WON:
            for slot in range(displayed):
                if display[slot] >= 0:
                    card_at_loss[g, display[slot]] += 1


@jit
def _next_with_pieces(hand_counts, baker):
    """The next baker after ``baker`` who holds pieces (``baker`` itself if none other)."""
    players = hand_counts.shape[0]
    for step in range(1, players + 1):
        other = (baker + step) % players
        if hand_counts[other] > 0:
            return other
    return -1
