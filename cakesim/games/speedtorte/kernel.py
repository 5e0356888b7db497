"""The Numba kernel of Speedtorte: batches of games, in turn mode or in real time.

The same steps as ``reference.py``, on fixed-size arrays: deal, lay out the plates, open
the order cards, then placements until every card is fulfilled or nobody can place.
Turn mode ("der Reihe nach") takes turns; the Eilauftrag lets every baker act on its own
clock. Every game constant arrives as an argument from the rule set, the level and the
timing profile. The running counters of a game live in one small array, ``count``.
"""

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import (
    DEAL_STREAM,
    DECISION_STREAM,
    new_stream,
    shuffle_in_place,
    uniform,
)
from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.strategies import NO_SIGNAL, choose_move, choose_signal, fits

SILENCE, OPEN_HANDS = 1, 2
"""Mode codes, in ``rules.MODES`` order (0 is signals)."""
WON, STUCK, HANDS_EMPTY = 0, 1, 2
"""How a game ended."""
HEAD, TAIL, RESERVE, TO_FULFIL, DONE, MOVES, INCOMING, MISSED, POINTS, DRAWN = range(10)
"""Positions in ``count``: the card queue's ends, the next reserve card, cards to fulfil
and fulfilled, placements, cards come in, rush cards missed, points, pieces drawn."""


@jit
def deal(seed, game, box, pool):
    """Game ``game``'s shuffled pieces and shuffled deck: a pure function of (seed, game)."""
    stream = new_stream(seed, game, DEAL_STREAM)
    pieces = box.copy()
    shuffle_in_place(stream, pieces)
    deck = pool.copy()
    shuffle_in_place(stream, deck)
    return pieces, deck


@jit_borrowing
def lognormal_noise(stream, sigma):
    """A lognormal factor with median 1 and log-spread ``sigma`` (Box-Muller)."""
    u = 1.0 - uniform(stream)
    v = uniform(stream)
    return np.exp(sigma * np.sqrt(-2.0 * np.log(u)) * np.cos(2.0 * np.pi * v))


@jit_borrowing
def tops_met(program, card, tops, type_flavour, type_candles, flavour_buf, candle_buf):
    """Whether ``card`` is met by the top pieces (the catalogue's op codes decide)."""
    for p in range(tops.shape[0]):
        flavour_buf[p] = type_flavour[tops[p]]
        candle_buf[p] = type_candles[tops[p]]
    return card_met(program, card, flavour_buf, candle_buf)


@jit_borrowing
def lay_out(pieces, tops, hands, hand_counts):
    """Plates first, then each hand, the rest is the supply; returns the pieces drawn."""
    drawn = 0
    for p in range(tops.shape[0]):
        tops[p] = pieces[drawn]
        drawn += 1
    for b in range(hands.shape[0]):
        for i in range(hands.shape[1]):
            hands[b, i] = pieces[drawn]
            drawn += 1
        hand_counts[b] = hands.shape[1]
    return drawn


@jit_borrowing
def open_order_cards(deck, cards_to_fulfil, queue, display, shown_at, rush_deadline, count,
                     tops, program, type_flavour, type_candles, flavour_buf, candle_buf,
                     card_shown):
    """The level's cards form the queue; 4 go on display, met ones under the deck once."""
    count[:] = 0
    for c in range(cards_to_fulfil):
        queue[c] = deck[c]
    count[TAIL] = cards_to_fulfil
    count[RESERVE] = cards_to_fulfil
    count[TO_FULFIL] = cards_to_fulfil
    went_under = cards_to_fulfil
    display[:] = -1
    for slot in range(display.shape[0]):
        while count[HEAD] < count[TAIL]:
            card = queue[count[HEAD]]
            count[HEAD] += 1
            # A card met at setup goes under the deck once; met again, it stays.
            if count[HEAD] > went_under or not tops_met(program, card, tops, type_flavour,
                                                        type_candles, flavour_buf, candle_buf):
                display[slot] = card
                break
            queue[count[TAIL]] = card
            count[TAIL] += 1
    for slot in range(display.shape[0]):
        if display[slot] >= 0:
            card_shown[display[slot]] += 1
        shown_at[slot] = 0
        rush_deadline[slot] = 0


@jit_borrowing
def place_and_draw(baker, slot, plate, hands, hand_counts, tops, pieces, count):
    """Put the hand piece on the plate, then draw one from the supply while it lasts."""
    tops[plate] = hands[baker, slot]
    last = hand_counts[baker] - 1
    hands[baker, slot] = hands[baker, last]
    hands[baker, last] = -1
    hand_counts[baker] = last
    if count[DRAWN] < pieces.shape[0]:
        hands[baker, last] = pieces[count[DRAWN]]
        hand_counts[baker] += 1
        count[DRAWN] += 1
    count[MOVES] += 1


@jit_borrowing
def check_order_cards(display, shown_at, rush_deadline, queue, count, tops, program,
                      card_points, rush_every, rush_moves, type_flavour, type_candles,
                      flavour_buf, candle_buf, card_shown, card_fulfilled, card_wait):
    """Every displayed card met by the tops is fulfilled and refilled; refills may chain."""
    changed = True
    while changed:
        changed = False
        for slot in range(display.shape[0]):
            card = display[slot]
            if card < 0 or not tops_met(program, card, tops, type_flavour, type_candles,
                                        flavour_buf, candle_buf):
                continue
            count[DONE] += 1
            count[POINTS] += card_points[card]
            card_fulfilled[card] += 1
            card_wait[card] += count[MOVES] - shown_at[slot]
            display[slot] = -1
            rush_deadline[slot] = 0
            if count[HEAD] < count[TAIL]:
                display[slot] = queue[count[HEAD]]
                count[HEAD] += 1
                card_shown[display[slot]] += 1
                shown_at[slot] = count[MOVES]
                count[INCOMING] += 1
                if rush_every > 0 and count[INCOMING] % rush_every == 0:
                    rush_deadline[slot] = count[MOVES] + rush_moves
            changed = True


@jit_borrowing
def expire_rush_cards(rush_deadline, queue, deck, count):
    """A rush card not met in time stays as a normal card; one more card goes under."""
    for slot in range(rush_deadline.shape[0]):
        if 0 < rush_deadline[slot] <= count[MOVES]:
            rush_deadline[slot] = 0
            count[MISSED] += 1
            if count[RESERVE] < deck.shape[0]:
                queue[count[TAIL]] = deck[count[RESERVE]]
                count[TAIL] += 1
                count[RESERVE] += 1
                count[TO_FULFIL] += 1


@jit_borrowing
def next_with_pieces(hand_counts, baker):
    """The next baker after ``baker`` who holds pieces (-1 if none other does)."""
    players = hand_counts.shape[0]
    for step in range(1, players + 1):
        other = (baker + step) % players
        if hand_counts[other] > 0:
            return other
    return -1


@jit_borrowing
def legal_count(hand, count, tops, type_flavour, type_candles, sacher):
    """The baker's legal placements: pieces times the plates each fits."""
    legal = 0
    for i in range(count):
        for p in range(tops.shape[0]):
            if fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                legal += 1
    return legal


@jit
def play_games(seed, first_game, players, box, type_flavour, type_candles, sacher, plates,
               hand_size, displayed, program, pool, cards_to_fulfil, card_points, win_bonus,
               record_hunt_piece, rush_every, rush_moves, mode, met_mask, one_away, params,
               timing, won, ending, score, moves, fulfilled, supply_left, rushes_missed,
               finish_ms, rejected, card_shown, card_fulfilled, card_wait, card_at_loss):
    """Play ``won.shape[0]`` games from ``first_game``; results into the given arrays.

    An empty ``timing`` plays turn mode; else the Eilauftrag with that profile's table
    (think time per option count, then sigma and flight, see ``timing.Profile.arrays``).
    """
    hands = np.full((players, hand_size), -1, np.int8)
    hand_counts = np.zeros(players, np.int64)
    tops = np.zeros(plates, np.int8)
    display = np.full(displayed, -1, np.int16)
    shown_at = np.zeros(displayed, np.int64)
    rush_deadline = np.zeros(displayed, np.int64)
    queue = np.zeros(2 * pool.shape[0] + displayed, np.int16)
    count = np.zeros(10, np.int64)
    signals = np.zeros(players, np.int8)
    signal_args = np.zeros(players, np.int8)
    flavour_buf = np.zeros(plates, np.int8)
    candle_buf = np.zeros(plates, np.int8)
    lands_at = np.zeros(players, np.float64)
    started_at = np.zeros(players, np.float64)
    target = np.zeros((players, 2), np.int64)
    changed_at = np.zeros(plates, np.float64)
    for g in range(won.shape[0]):
        game = first_game + g
        pieces, deck = deal(seed, game, box, pool)
        stream = new_stream(seed, game, DECISION_STREAM)
        drawn = lay_out(pieces, tops, hands, hand_counts)
        open_order_cards(deck, cards_to_fulfil, queue, display, shown_at, rush_deadline,
                         count, tops, program, type_flavour, type_candles, flavour_buf,
                         candle_buf, card_shown[g])
        count[DRAWN] = drawn
        signals[:] = NO_SIGNAL
        state = (hands, hand_counts, tops, display, shown_at, rush_deadline, queue, count,
                 signals, signal_args, flavour_buf, candle_buf)
        if timing.shape[0] == 0:
            result, clock, misses = _turns(state, pieces, deck, params, program, card_points,
                                           rush_every, rush_moves, mode, met_mask, one_away,
                                           type_flavour, type_candles, sacher, stream,
                                           card_shown[g], card_fulfilled[g], card_wait[g])
        else:
            result, clock, misses = _real_time(
                state, pieces, deck, params, program, card_points, rush_every, rush_moves,
                mode, met_mask, one_away, type_flavour, type_candles, sacher, stream, timing,
                lands_at, started_at, target, changed_at, card_shown[g], card_fulfilled[g],
                card_wait[g])
        left = pieces.shape[0] - count[DRAWN]
        won[g] = result == WON
        ending[g] = result
        score[g] = count[POINTS] + (win_bonus + record_hunt_piece * left if result == WON
                                    else 0)
        moves[g] = count[MOVES]
        fulfilled[g] = count[DONE]
        supply_left[g] = left
        rushes_missed[g] = count[MISSED]
        finish_ms[g] = int(np.round(clock * 1000.0))
        rejected[g] = misses
        if result != WON:
            for slot in range(displayed):
                if display[slot] >= 0:
                    card_at_loss[g, display[slot]] += 1


@jit_borrowing
def _after_placement(state, baker, deck, params, program, card_points, rush_every,
                     rush_moves, mode, met_mask, type_flavour, type_candles, sacher,
                     card_shown, card_fulfilled, card_wait):
    """Check the cards, expire rush cards, let the baker signal; whether the game is won."""
    (hands, hand_counts, tops, display, shown_at, rush_deadline, queue, count, signals,
     signal_args, flavour_buf, candle_buf) = state
    check_order_cards(display, shown_at, rush_deadline, queue, count, tops, program,
                      card_points, rush_every, rush_moves, type_flavour, type_candles,
                      flavour_buf, candle_buf, card_shown, card_fulfilled, card_wait)
    if count[DONE] >= count[TO_FULFIL]:
        return True
    expire_rush_cards(rush_deadline, queue, deck, count)
    if mode == SILENCE:
        signals[baker] = NO_SIGNAL
    else:
        signals[baker], signal_args[baker] = choose_signal(
            params[baker], hands[baker], hand_counts[baker], tops, display, met_mask,
            type_flavour, type_candles, sacher)
    return False


@jit_borrowing
def _turns(state, pieces, deck, params, program, card_points, rush_every, rush_moves, mode,
           met_mask, one_away, type_flavour, type_candles, sacher, stream, card_shown,
           card_fulfilled, card_wait):
    """Turn mode: bakers place in turn, skipping empty hands. ``(ending, 0.0, 0)``."""
    hands, hand_counts, tops, display = state[0], state[1], state[2], state[3]
    count, signals, signal_args = state[7], state[8], state[9]
    players = hand_counts.shape[0]
    baker = 0
    while True:
        if hand_counts.sum() == 0:
            return HANDS_EMPTY, 0.0, 0
        while hand_counts[baker] == 0:
            baker = (baker + 1) % players
        slot, plate, _, _, _ = choose_move(
            params[baker], baker, hands, hand_counts, tops, display, card_points, met_mask,
            one_away, signals, signal_args, next_with_pieces(hand_counts, baker),
            mode == OPEN_HANDS, type_flavour, type_candles, sacher, stream)
        if slot < 0:
            return STUCK, 0.0, 0
        place_and_draw(baker, slot, plate, hands, hand_counts, tops, pieces, count)
        if _after_placement(state, baker, deck, params, program, card_points, rush_every,
                            rush_moves, mode, met_mask, type_flavour, type_candles, sacher,
                            card_shown, card_fulfilled, card_wait):
            return WON, 0.0, 0
        baker = (baker + 1) % players


@jit_borrowing
def _real_time(state, pieces, deck, params, program, card_points, rush_every, rush_moves,
               mode, met_mask, one_away, type_flavour, type_candles, sacher, stream, timing,
               lands_at, started_at, target, changed_at, card_shown, card_fulfilled,
               card_wait):
    """The Eilauftrag: every baker with a fitting piece works on its own clock.

    ``(ending, seconds on the clock at the end, rejected placements)``.
    """
    hands, hand_counts, tops, count = state[0], state[1], state[2], state[7]
    players = hand_counts.shape[0]
    lands_at[:] = np.inf
    changed_at[:] = -1.0
    clock, misses = 0.0, 0
    for baker in range(players):
        _start_attempt(baker, clock, state, params, card_points, mode, met_mask, one_away,
                       type_flavour, type_candles, sacher, stream, timing, lands_at,
                       started_at, target)
    while True:
        baker = np.argmin(lands_at)
        if lands_at[baker] == np.inf:
            return (HANDS_EMPTY if hand_counts.sum() == 0 else STUCK), clock, misses
        clock = lands_at[baker]
        lands_at[baker] = np.inf
        slot, plate = target[baker, 0], target[baker, 1]
        if changed_at[plate] > started_at[baker]:
            misses += 1  # "plate X has just changed": the attempt's time is lost
        else:
            place_and_draw(baker, slot, plate, hands, hand_counts, tops, pieces, count)
            changed_at[plate] = clock
            if _after_placement(state, baker, deck, params, program, card_points, rush_every,
                                rush_moves, mode, met_mask, type_flavour, type_candles,
                                sacher, card_shown, card_fulfilled, card_wait):
                return WON, clock, misses
        # The board may have changed: every idle baker with a fitting piece starts now.
        for other in range(players):
            if lands_at[other] == np.inf:
                _start_attempt(other, clock, state, params, card_points, mode, met_mask,
                               one_away, type_flavour, type_candles, sacher, stream, timing,
                               lands_at, started_at, target)


@jit_borrowing
def _start_attempt(baker, clock, state, params, card_points, mode, met_mask, one_away,
                   type_flavour, type_candles, sacher, stream, timing, lands_at, started_at,
                   target):
    """The baker picks a placement on the board it sees now; it lands after its time."""
    hands, hand_counts, tops, display = state[0], state[1], state[2], state[3]
    signals, signal_args = state[8], state[9]
    if hand_counts[baker] == 0:
        return
    options = legal_count(hands[baker], hand_counts[baker], tops, type_flavour, type_candles,
                          sacher)
    if options == 0:
        return
    slot, plate, _, _, _ = choose_move(
        params[baker], baker, hands, hand_counts, tops, display, card_points, met_mask,
        one_away, signals, signal_args, next_with_pieces(hand_counts, baker),
        mode == OPEN_HANDS, type_flavour, type_candles, sacher, stream)
    sigma, flight = timing[timing.shape[0] - 2], timing[timing.shape[0] - 1]
    think = timing[options] * lognormal_noise(stream, sigma)
    started_at[baker] = clock
    lands_at[baker] = clock + think + flight
    target[baker, 0], target[baker, 1] = slot, plate
