"""The Numba kernel of Speedtorte: batches of games, in turn mode or in real time.

The same steps as ``reference.py``, on fixed-size arrays: deal, lay out the plates, open
the order cards, then placements until every card is fulfilled or nobody can place.
Turn mode ("der Reihe nach") takes turns; the Eilauftrag lets every baker act on its own
clock. Every game constant arrives in the ``Rules`` bundle, built from the rule set and
the level; the bakers' weights and timing profile in ``Bakers``. A game's state travels
in ``GameState`` (what the bakers see in its ``Board``), its outcome goes into
``Results``. The running counters of a game live in one small array, ``GameState.count``.

The bundles are named tuples: Numba reads their fields by name at no cost, and the step
functions, compiled without the reference-counting runtime (``jit_borrowing``), borrow
every array in them from ``play_games``. A call, though, passes every field of every
bundle as machine words (seven per array): the steps of every placement, and the bakers'
decisions, are compiled into their callers (``jit_inline``) so that no bundle is copied.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import (
    DEAL_STREAM,
    DECISION_STREAM,
    new_stream,
    shuffle_in_place,
    uniform,
)
from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.lookahead import lookahead_tables
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.strategies import NO_SIGNAL, choose_move, choose_signal, fits

SILENCE, OPEN_HANDS = 1, 2
"""Mode codes, in ``rules.MODES`` order (0 is signals)."""
WON, STUCK, HANDS_EMPTY = 0, 1, 2
"""How a game ended."""
HEAD, TAIL, RESERVE, TO_FULFIL, DONE, MOVES, INCOMING, MISSED, POINTS, DRAWN = range(10)
"""Positions in ``count``: the card queue's ends, the next reserve card, cards to fulfil
and fulfilled, placements, cards come in, rush cards missed, points, pieces drawn."""


class Rules(NamedTuple):
    """The rules in force at one table, as the kernel reads them (``TableRules.arrays``).

    Piece types are numbered as in ``pieces.py`` (the Sachertorte is ``sacher``), order
    cards by their index in the catalogue.
    """

    # int8 (pieces in the box,): the piece type of every piece, in component-list order.
    box: np.ndarray
    # int8 (piece types,): the flavour code of each piece type.
    type_flavour: np.ndarray
    # int8 (piece types,): the number of candles of each piece type.
    type_candles: np.ndarray
    # int: the Sachertorte's piece type; it fits on every plate and takes every piece.
    sacher: int
    # int: plates on the table; a plate's top piece is all that counts.
    plates: int
    # int: pieces in a full hand.
    hand_size: int
    # int: display slots for order cards.
    displayed: int
    # int16 (cards, terms, 4): each card's terms as op code and three arguments, unused
    # terms op ``cards.NONE`` at the end (``cards.card_met`` reads them).
    program: np.ndarray
    # int16 (cards of the level,): catalogue indices of the cards the deck is shuffled from.
    pool: np.ndarray
    # int: order cards to fulfil to win; each missed rush card adds one while the deck
    # has a reserve card left.
    cards_to_fulfil: int
    # int16 (cards,): the points of each catalogue card.
    card_points: np.ndarray
    # int: points for a won game.
    win_bonus: int
    # int: points per supply piece left on a won solo game (0 at two bakers or more).
    record_hunt_piece: int
    # int: every ``rush_every``-th card to come onto the display is a rush card; 0: none.
    rush_every: int
    # int: placements a rush card has before it expires.
    rush_moves: int
    # int: how the bakers talk, an index into ``rules.MODES`` (0 signals, SILENCE,
    # OPEN_HANDS).
    mode: int
    # uint64 (board codes, (cards + 63) // 64): bit c % 64 of word c // 64 set when the
    # board (``strategies.board_with``: plate 0 most significant) meets card c.
    met_mask: np.ndarray
    # uint64, same shape: the cards that changing one top piece of the board would meet.
    one_away: np.ndarray

    @classmethod
    def of_table(cls, arrays: dict) -> "Rules":
        """The bundle of a table's arrays (``TableRules.arrays``), look-ahead tables added."""
        met, one_away = lookahead_tables(arrays["program"], arrays["plates"], PIECE_TYPES)
        given = {name: arrays[name] for name in cls._fields if name in arrays}
        return cls(**given, met_mask=met, one_away=one_away)


class Bakers(NamedTuple):
    """The computer bakers at a table: how each decides, and how fast they all act."""

    # float64 (players, 1 + len(strategies.PARAMETERS)): one row per seat, the chooser
    # code (``strategies.CHOOSERS``) then the weights in ``PARAMETERS`` order.
    params: np.ndarray
    # float64 (options + 3,): seconds to think with 0, 1, ... legal placements, then the
    # lognormal log-spread sigma, then the flight time (``timing.Profile.arrays``); empty
    # (0,) in turn mode.
    timing: np.ndarray


class Board(NamedTuple):
    """What the bakers see: hands, top pieces, displayed cards and signals."""

    # int8 (players, hand_size): each baker's piece types, slots 0 .. hand_counts[b] - 1
    # held, -1 past them.
    hands: np.ndarray
    # int64 (players,): the pieces each baker holds.
    hand_counts: np.ndarray
    # int8 (plates,): the piece type on top of each plate.
    tops: np.ndarray
    # int16 (displayed,): the card in each display slot, -1 for an empty slot.
    display: np.ndarray
    # int8 (players,): each baker's last signal (``strategies.NO_SIGNAL`` .. ``ALL_GOOD``).
    signals: np.ndarray
    # int8 (players,): its argument: the display slot (CAN_HELP), the plate (DONT_COVER),
    # else 0.
    signal_args: np.ndarray


class GameState(NamedTuple):
    """One game under way: the board, the deal, the card queue, counters and clocks.

    The arrays but the deal, the stream and the card rows are allocated once per batch
    and reused by every game: its setup (or the real-time loop) resets what it reads.
    """

    # What the bakers see.
    board: Board
    # int8 (pieces in the box,): this game's shuffled pieces; the first count[DRAWN] are
    # out of the supply.
    pieces: np.ndarray
    # int16 (cards of the level,): this game's shuffled deck; the first cards_to_fulfil
    # form the queue, the rest is the reserve for missed rush cards, from count[RESERVE].
    deck: np.ndarray
    # int16 (2 * cards of the level + displayed,): cards waiting for the display, at
    # queue[count[HEAD]:count[TAIL]]; cards met at setup and reserve cards join its tail.
    queue: np.ndarray
    # int64 (displayed,): count[MOVES] when each slot's card went on display.
    shown_at: np.ndarray
    # int64 (displayed,): count[MOVES] at which each slot's rush card expires, 0: none.
    rush_deadline: np.ndarray
    # int64 (10,): the running counters, at positions HEAD .. DRAWN.
    count: np.ndarray
    # uint64 (2,): the stream of random decisions (``seeding.new_stream``).
    stream: np.ndarray
    # float64 (players,): Eilauftrag: second on the clock when each baker's piece under
    # way lands, inf for an idle baker.
    lands_at: np.ndarray
    # float64 (players,): Eilauftrag: second each baker chose its placement under way.
    started_at: np.ndarray
    # int64 (players, 2): Eilauftrag: that placement's (hand slot, plate).
    target: np.ndarray
    # float64 (plates,): Eilauftrag: second a piece last landed on each plate, -1 never.
    changed_at: np.ndarray
    # int16 (cards,): this game's row of ``Results.card_shown``.
    card_shown: np.ndarray
    # int16 (cards,): this game's row of ``Results.card_fulfilled``.
    card_fulfilled: np.ndarray
    # int16 (cards,): this game's row of ``Results.card_wait``.
    card_wait: np.ndarray


class Scratch(NamedTuple):
    """Work space of the rule checks, reused by every check of every game."""

    # int8 (plates,): the flavour of each top piece, as ``cards.card_met`` reads them.
    flavour: np.ndarray
    # int8 (plates,): the candles of each top piece.
    candles: np.ndarray


class Results(NamedTuple):
    """What ``play_games`` reports: row g is game ``first_game + g`` of the batch."""

    # int16 (games,): 1 if the game was won, else 0.
    won: np.ndarray
    # int8 (games,): how the game ended: WON, STUCK or HANDS_EMPTY.
    ending: np.ndarray
    # int16 (games,): card points, plus the win bonus and record-hunt points on a win.
    score: np.ndarray
    # int16 (games,): placements made.
    moves: np.ndarray
    # int16 (games,): order cards fulfilled.
    fulfilled: np.ndarray
    # int16 (games,): pieces left in the supply.
    supply_left: np.ndarray
    # int16 (games,): rush cards that expired.
    rushes_missed: np.ndarray
    # int32 (games,): Eilauftrag: milliseconds on the clock at the end (0 in turn mode).
    finish_ms: np.ndarray
    # int16 (games,): Eilauftrag: placements rejected because the plate had just changed.
    rejected: np.ndarray
    # int16 (games, cards): times each card was put on display.
    card_shown: np.ndarray
    # int16 (games, cards): times each card was fulfilled.
    card_fulfilled: np.ndarray
    # int16 (games, cards): placements each card waited on display before it was fulfilled.
    card_wait: np.ndarray
    # int16 (games, cards): 1 if the card was on display when the game was lost.
    card_at_loss: np.ndarray


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


@jit_inline
def tops_met(card, tops, rules, scratch):
    """Whether ``card`` is met by the top pieces (the catalogue's op codes decide)."""
    # Compiled into its callers: a call would copy both bundles, field by field, for
    # every displayed card after every placement.
    flavour_buf, candle_buf = scratch.flavour, scratch.candles
    for p in range(tops.shape[0]):
        flavour_buf[p] = rules.type_flavour[tops[p]]
        candle_buf[p] = rules.type_candles[tops[p]]
    return card_met(rules.program, card, flavour_buf, candle_buf)


@jit_borrowing
def lay_out(state):
    """Plates first, then each hand, the rest is the supply; returns the pieces drawn."""
    pieces, tops = state.pieces, state.board.tops
    hands, hand_counts = state.board.hands, state.board.hand_counts
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
def open_order_cards(state, rules, scratch):
    """The level's cards form the queue; 4 go on display, met ones under the deck once."""
    queue, count, display = state.queue, state.count, state.board.display
    count[:] = 0
    for c in range(rules.cards_to_fulfil):
        queue[c] = state.deck[c]
    count[TAIL] = rules.cards_to_fulfil
    count[RESERVE] = rules.cards_to_fulfil
    count[TO_FULFIL] = rules.cards_to_fulfil
    went_under = rules.cards_to_fulfil
    display[:] = -1
    for slot in range(display.shape[0]):
        while count[HEAD] < count[TAIL]:
            card = queue[count[HEAD]]
            count[HEAD] += 1
            # A card met at setup goes under the deck once; met again, it stays.
            if count[HEAD] > went_under or not tops_met(card, state.board.tops, rules,
                                                        scratch):
                display[slot] = card
                break
            queue[count[TAIL]] = card
            count[TAIL] += 1
    for slot in range(display.shape[0]):
        if display[slot] >= 0:
            state.card_shown[display[slot]] += 1
        state.shown_at[slot] = 0
        state.rush_deadline[slot] = 0


@jit_inline
def place_and_draw(baker, slot, plate, state):
    """Put the hand piece on the plate, then draw one from the supply while it lasts."""
    # Compiled into its callers, like the other steps of every placement: a call would
    # copy the whole state bundle.
    hands, hand_counts = state.board.hands, state.board.hand_counts
    pieces, count = state.pieces, state.count
    state.board.tops[plate] = hands[baker, slot]
    last = hand_counts[baker] - 1
    hands[baker, slot] = hands[baker, last]
    hands[baker, last] = -1
    hand_counts[baker] = last
    if count[DRAWN] < pieces.shape[0]:
        hands[baker, last] = pieces[count[DRAWN]]
        hand_counts[baker] += 1
        count[DRAWN] += 1
    count[MOVES] += 1


@jit_inline
def check_order_cards(state, rules, scratch):
    """Every displayed card met by the tops is fulfilled and refilled; refills may chain."""
    display, shown_at, rush_deadline = state.board.display, state.shown_at, state.rush_deadline
    queue, count, tops = state.queue, state.count, state.board.tops
    changed = True
    while changed:
        changed = False
        for slot in range(display.shape[0]):
            card = display[slot]
            if card < 0 or not tops_met(card, tops, rules, scratch):
                continue
            count[DONE] += 1
            count[POINTS] += rules.card_points[card]
            state.card_fulfilled[card] += 1
            state.card_wait[card] += count[MOVES] - shown_at[slot]
            display[slot] = -1
            rush_deadline[slot] = 0
            if count[HEAD] < count[TAIL]:
                display[slot] = queue[count[HEAD]]
                count[HEAD] += 1
                state.card_shown[display[slot]] += 1
                shown_at[slot] = count[MOVES]
                count[INCOMING] += 1
                if rules.rush_every > 0 and count[INCOMING] % rules.rush_every == 0:
                    rush_deadline[slot] = count[MOVES] + rules.rush_moves
            changed = True


@jit_inline
def expire_rush_cards(state):
    """A rush card not met in time stays as a normal card; one more card goes under."""
    rush_deadline, queue, deck, count = state.rush_deadline, state.queue, state.deck, state.count
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


@jit_inline
def legal_count(hand, count, tops, rules):
    """The baker's legal placements: pieces times the plates each fits."""
    # Compiled into its caller: a call would copy the whole ``rules`` bundle.
    type_flavour, type_candles, sacher = rules.type_flavour, rules.type_candles, rules.sacher
    legal = 0
    for i in range(count):
        for p in range(tops.shape[0]):
            if fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                legal += 1
    return legal


@jit
def play_games(seed, first_game, rules, bakers, results):
    """Play ``results.won.shape[0]`` games from ``first_game``; results into ``results``.

    One baker per row of ``bakers.params``. An empty ``bakers.timing`` plays turn mode;
    else the Eilauftrag with that profile's table (think time per option count, then
    sigma and flight, see ``timing.Profile.arrays``).
    """
    players = bakers.params.shape[0]
    board = Board(np.full((players, rules.hand_size), -1, np.int8),
                  np.zeros(players, np.int64), np.zeros(rules.plates, np.int8),
                  np.full(rules.displayed, -1, np.int16), np.zeros(players, np.int8),
                  np.zeros(players, np.int8))
    scratch = Scratch(np.zeros(rules.plates, np.int8), np.zeros(rules.plates, np.int8))
    queue = np.zeros(2 * rules.pool.shape[0] + rules.displayed, np.int16)
    shown_at = np.zeros(rules.displayed, np.int64)
    rush_deadline = np.zeros(rules.displayed, np.int64)
    count = np.zeros(10, np.int64)
    lands_at = np.zeros(players, np.float64)
    started_at = np.zeros(players, np.float64)
    target = np.zeros((players, 2), np.int64)
    changed_at = np.zeros(rules.plates, np.float64)
    for g in range(results.won.shape[0]):
        game = first_game + g
        pieces, deck = deal(seed, game, rules.box, rules.pool)
        state = GameState(board, pieces, deck, queue, shown_at, rush_deadline, count,
                          new_stream(seed, game, DECISION_STREAM), lands_at, started_at,
                          target, changed_at, results.card_shown[g],
                          results.card_fulfilled[g], results.card_wait[g])
        drawn = lay_out(state)
        open_order_cards(state, rules, scratch)
        count[DRAWN] = drawn
        board.signals[:] = NO_SIGNAL
        if bakers.timing.shape[0] == 0:
            result, clock, misses = _turns(state, rules, bakers, scratch)
        else:
            result, clock, misses = _real_time(state, rules, bakers, scratch)
        left = pieces.shape[0] - count[DRAWN]
        results.won[g] = result == WON
        results.ending[g] = result
        results.score[g] = count[POINTS] + (
            rules.win_bonus + rules.record_hunt_piece * left if result == WON else 0)
        results.moves[g] = count[MOVES]
        results.fulfilled[g] = count[DONE]
        results.supply_left[g] = left
        results.rushes_missed[g] = count[MISSED]
        results.finish_ms[g] = int(np.round(clock * 1000.0))
        results.rejected[g] = misses
        if result != WON:
            for slot in range(rules.displayed):
                if board.display[slot] >= 0:
                    results.card_at_loss[g, board.display[slot]] += 1


@jit_inline
def _after_placement(state, baker, rules, bakers, scratch):
    """Check the cards, expire rush cards, let the baker signal; whether the game is won."""
    # Compiled into both game loops, with the steps it takes: they run on every placement.
    board = state.board
    check_order_cards(state, rules, scratch)
    if state.count[DONE] >= state.count[TO_FULFIL]:
        return True
    expire_rush_cards(state)
    if rules.mode == SILENCE:
        board.signals[baker] = NO_SIGNAL
    else:
        board.signals[baker], board.signal_args[baker] = choose_signal(
            bakers.params[baker], baker, board, rules)
    return False


@jit_borrowing
def _turns(state, rules, bakers, scratch):
    """Turn mode: bakers place in turn, skipping empty hands. ``(ending, 0.0, 0)``."""
    board = state.board
    hand_counts = board.hand_counts
    players = hand_counts.shape[0]
    baker = 0
    while True:
        if hand_counts.sum() == 0:
            return HANDS_EMPTY, 0.0, 0
        while hand_counts[baker] == 0:
            baker = (baker + 1) % players
        slot, plate, _, _, _ = choose_move(
            bakers.params[baker], baker, board, rules, next_with_pieces(hand_counts, baker),
            rules.mode == OPEN_HANDS, state.stream)
        if slot < 0:
            return STUCK, 0.0, 0
        place_and_draw(baker, slot, plate, state)
        if _after_placement(state, baker, rules, bakers, scratch):
            return WON, 0.0, 0
        baker = (baker + 1) % players


@jit_borrowing
def _real_time(state, rules, bakers, scratch):
    """The Eilauftrag: every baker with a fitting piece works on its own clock.

    ``(ending, seconds on the clock at the end, rejected placements)``.
    """
    hand_counts = state.board.hand_counts
    lands_at, started_at = state.lands_at, state.started_at
    target, changed_at = state.target, state.changed_at
    players = hand_counts.shape[0]
    lands_at[:] = np.inf
    changed_at[:] = -1.0
    clock, misses = 0.0, 0
    for baker in range(players):
        _start_attempt(baker, clock, state, rules, bakers)
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
            place_and_draw(baker, slot, plate, state)
            changed_at[plate] = clock
            if _after_placement(state, baker, rules, bakers, scratch):
                return WON, clock, misses
        # The board may have changed: every idle baker with a fitting piece starts now.
        for other in range(players):
            if lands_at[other] == np.inf:
                _start_attempt(other, clock, state, rules, bakers)


@jit_borrowing
def _start_attempt(baker, clock, state, rules, bakers):
    """The baker picks a placement on the board it sees now; it lands after its time."""
    board, timing = state.board, bakers.timing
    hand_counts = board.hand_counts
    if hand_counts[baker] == 0:
        return
    options = legal_count(board.hands[baker], hand_counts[baker], board.tops, rules)
    if options == 0:
        return
    slot, plate, _, _, _ = choose_move(
        bakers.params[baker], baker, board, rules, next_with_pieces(hand_counts, baker),
        rules.mode == OPEN_HANDS, state.stream)
    sigma, flight = timing[timing.shape[0] - 2], timing[timing.shape[0] - 1]
    think = timing[options] * lognormal_noise(state.stream, sigma)
    state.started_at[baker] = clock
    state.lands_at[baker] = clock + think + flight
    state.target[baker, 0], state.target[baker, 1] = slot, plate
