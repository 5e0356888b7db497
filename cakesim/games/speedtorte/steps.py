"""The rule steps of Speedtorte on fixed-size arrays, shared by the kernel and the lookahead.

The same steps as ``reference.py``, under the same names: deal, lay out the plates, open
the order cards, place and draw, check the order cards, expire rush cards, signal; and
the Eilauftrag's timing model: start an attempt, land the next one. Every
game constant arrives in the ``Rules`` bundle, built from the rule set and the level; a
game's state travels in ``GameState`` (what the bakers see in its ``Board``). The
kernel (``kernel.py``) runs whole games with these steps; the lookahead baker
(``planner.py``) runs them on copies of the state to play placements out.

The bundles are named tuples: Numba reads their fields by name at no cost, and the step
functions, compiled without the reference-counting runtime (``jit_borrowing``), borrow
every array in them from their caller. A call, though, passes every field of every
bundle as machine words (seven per array): the steps of every placement, and the bakers'
decisions, are compiled into their callers (``jit_inline``) so that no bundle is copied.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import (
    DEAL_STREAM,
    below,
    new_stream,
    shuffle_in_place,
    uniform,
)
from cakesim.games.speedtorte.lookahead import is_met, lookahead_tables
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.strategies import (
    CAN_HELP,
    NO_SIGNAL,
    W_PATIENCE,
    W_WITHDRAW,
    board_with,
    choose_signal,
    fits,
    fits_top,
    signal_stands,
)

SILENCE, OPEN_HANDS = 1, 2
"""Mode codes, in ``rules.MODES`` order (0 is signals)."""
WON, STUCK, HANDS_EMPTY = 0, 1, 2
"""How a game ended."""
HEAD, TAIL, RESERVE, TO_FULFIL, DONE, MOVES, INCOMING, MISSED, POINTS, DRAWN = range(10)
"""Positions in ``count``: the card queue's ends, the next reserve card, cards to fulfil
and fulfilled, placements, cards come in, rush cards missed, points, pieces drawn."""
COUNTERS = 10


class Rules(NamedTuple):
    """The rules in force at one table, as the kernel reads them (``TableRules.arrays``).

    Piece types are numbered as in ``pieces.py`` (the Sachertorte is ``sacher``), order
    cards by their index in the catalogue.
    """

    # int8 (pieces in the box,): the piece type of every piece, in component-list order;
    # the Sachertorte is not among them (see ``sachertorte``).
    box: np.ndarray
    # int: the Sachertorte's piece type when it lies in the supply (special orders), -1
    # when the game has none.
    sachertorte: int
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
    # uint64 (cards, board codes / 32 + 1): per card, two bits per board
    # (``strategies.board_with``: plate 0 most significant) at word b >> 5, bits
    # 2 (b & 31) and up: the board meets the card (low), changing one top piece would
    # (high); ``lookahead.gap_bits`` reads them.
    card_gaps: np.ndarray
    # uint64 (cards, board codes / 16 + 1): per card, four bits per board at word b >> 4,
    # bits 4 (b & 15) and up: bit p set when changing plate p's top piece of board b
    # would meet the card (``lookahead.plate_bits``).
    card_plates: np.ndarray
    # uint64 (piece types,): bit k set when a piece of type k fits on a plate whose top
    # piece has this type (``strategies.fits``).
    fit_mask: np.ndarray

    @classmethod
    def of_table(cls, arrays: dict) -> "Rules":
        """The bundle of a table's arrays (``TableRules.arrays``), look-up tables added."""
        card_gaps, card_plates = lookahead_tables(arrays["program"], arrays["plates"],
                                                  PIECE_TYPES)
        flavour, candles, sacher = (arrays["type_flavour"], arrays["type_candles"],
                                    arrays["sacher"])
        fit_mask = np.array([sum(1 << kind for kind in range(PIECE_TYPES)
                                 if fits.py_func(kind, top, flavour, candles, sacher))
                             for top in range(PIECE_TYPES)], dtype=np.uint64)
        given = {name: arrays[name] for name in cls._fields if name in arrays}
        return cls(**given, card_gaps=card_gaps, card_plates=card_plates, fit_mask=fit_mask)


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


@jit
def deal(seed, game, box, pool, sachertorte, dealt_out):
    """Game ``game``'s shuffled pieces and shuffled deck: a pure function of (seed, game).

    The Sachertorte (``sachertorte`` >= 0) lies in the supply, never on a plate or in a
    hand ("ein einziges Stück im Blech", RULES.md 3): it goes to a uniformly random place
    among the supply's, after the first ``dealt_out`` pieces (plates and hands).
    """
    stream = new_stream(seed, game, DEAL_STREAM)
    pieces = box.copy()
    shuffle_in_place(stream, pieces)
    deck = pool.copy()
    shuffle_in_place(stream, deck)
    if sachertorte < 0:
        return pieces, deck
    at = dealt_out + below(stream, pieces.shape[0] - dealt_out + 1)
    with_sacher = np.empty(pieces.shape[0] + 1, pieces.dtype)
    with_sacher[:at] = pieces[:at]
    with_sacher[at] = sachertorte
    with_sacher[at + 1:] = pieces[at:]
    return with_sacher, deck


@jit_borrowing
def lognormal_noise(stream, sigma):
    """A lognormal factor with median 1 and log-spread ``sigma`` (Box-Muller)."""
    u = 1.0 - uniform(stream)
    v = uniform(stream)
    return np.exp(sigma * np.sqrt(-2.0 * np.log(u)) * np.cos(2.0 * np.pi * v))


@jit_inline
def tops_met(card, board, rules):
    """Whether ``card`` is met by the top pieces, coded as ``board``
    (``strategies.board_with``): one bit of the table of met cards, which the catalogue's
    op codes (``cards.card_met``) filled in once per rule set."""
    # Compiled into its callers: a call would copy the ``rules`` bundle.
    return is_met(rules.card_gaps, board, card)


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
def open_order_cards(state, rules):
    """The level's cards form the queue; 4 go on display, met ones under the deck once."""
    queue, count, display = state.queue, state.count, state.board.display
    count[:] = 0
    for c in range(rules.cards_to_fulfil):
        queue[c] = state.deck[c]
    count[TAIL] = rules.cards_to_fulfil
    count[RESERVE] = rules.cards_to_fulfil
    count[TO_FULFIL] = rules.cards_to_fulfil
    went_under = rules.cards_to_fulfil
    board = board_with(state.board.tops, -1, 0, rules.type_flavour.shape[0])
    display[:] = -1
    for slot in range(display.shape[0]):
        while count[HEAD] < count[TAIL]:
            card = queue[count[HEAD]]
            count[HEAD] += 1
            # A card met at setup goes under the deck once; met again, it stays.
            if count[HEAD] > went_under or not tops_met(card, board, rules):
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
def check_order_cards(state, rules):
    """Every displayed card met by the tops is fulfilled and refilled; refills may chain."""
    display, shown_at, rush_deadline = state.board.display, state.shown_at, state.rush_deadline
    queue, count, tops = state.queue, state.count, state.board.tops
    board = board_with(tops, -1, 0, rules.type_flavour.shape[0])
    changed = True
    while changed:
        changed = False
        for slot in range(display.shape[0]):
            card = display[slot]
            if card < 0 or not tops_met(card, board, rules):
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
    fit_mask = rules.fit_mask
    legal = 0
    for i in range(count):
        for p in range(tops.shape[0]):
            if fits_top(hand[i], tops[p], fit_mask):
                legal += 1
    return legal


@jit_inline
def after_placement(state, baker, rules, params):
    """Check the cards, expire rush cards, let the baker signal and the others withdraw
    signals no longer true; whether the game is won. ``params``: one row per baker."""
    # Compiled into both game loops and the lookahead's play-outs, with the steps it
    # takes: they run on every placement.
    board = state.board
    check_order_cards(state, rules)
    if state.count[DONE] >= state.count[TO_FULFIL]:
        return True
    expire_rush_cards(state)
    if rules.mode == SILENCE:
        board.signals[baker] = NO_SIGNAL
        return False
    board.signals[baker], board.signal_args[baker] = choose_signal(
        params[baker], baker, board, rules)
    withdraw_signals(state, baker, rules, params)
    return False


@jit_inline
def withdraw_signals(state, baker, rules, params):
    """After ``baker`` placed, every other baker takes back a signal no longer true."""
    # Compiled into ``after_placement``: a call would copy the state bundle.
    board = state.board
    for other in range(board.signals.shape[0]):
        if (other != baker and params[other, W_WITHDRAW] > 0
                and board.signals[other] != NO_SIGNAL
                and not signal_stands(other, board, rules)):
            board.signals[other] = NO_SIGNAL


# -- the Eilauftrag's clock (RULES.md 3, "Eilauftrag"; the timing model of timing.toml) --


@jit_borrowing
def others_busy(baker, state):
    """Whether another baker's piece is on its way or another baker can help with a card."""
    signals, lands_at = state.board.signals, state.lands_at
    for other in range(lands_at.shape[0]):
        if other != baker and (lands_at[other] != np.inf or signals[other] == CAN_HELP):
            return True
    return False


@jit_inline
def waits(baker, worth, most_patience, state, params):
    """Whether the baker waits: its best placement is worth less than its ``patience``
    (capped by ``most_patience``, 0 when someone must start now) and others are busy."""
    # Compiled into the kernel's and the lookahead's attempts: a call would copy the state.
    patience = min(params[baker, W_PATIENCE], most_patience)
    return patience > 0 and worth < patience and others_busy(baker, state)


@jit_inline
def start_attempt_at(baker, clock, slot, plate, options, state, timing):
    """The baker starts placing at ``clock``: the piece lands after the think time for
    ``options`` legal placements (lognormal noise) and the flight (``timing``, see
    ``timing.Profile.arrays``)."""
    # Compiled into the kernel's and the lookahead's attempts: a call would copy the state.
    sigma, flight = timing[timing.shape[0] - 2], timing[timing.shape[0] - 1]
    think = timing[options] * lognormal_noise(state.stream, sigma)
    state.started_at[baker] = clock
    state.lands_at[baker] = clock + think + flight
    state.target[baker, 0], state.target[baker, 1] = slot, plate


@jit_inline
def land_next(state, rules, params):
    """The first piece on its way lands: ``(baker, clock, placed, won)``, baker -1 when
    none is on its way. A plate changed since the baker started rejects it (``placed``
    false: "plate X has just changed", the attempt's time is lost)."""
    # Compiled into the kernel's clock loop and the lookahead's play-outs on the clock.
    lands_at = state.lands_at
    baker = np.argmin(lands_at)
    if lands_at[baker] == np.inf:
        return -1, 0.0, False, False
    clock = lands_at[baker]
    lands_at[baker] = np.inf
    slot, plate = state.target[baker, 0], state.target[baker, 1]
    if state.changed_at[plate] > state.started_at[baker]:
        return baker, clock, False, False
    place_and_draw(baker, slot, plate, state)
    state.changed_at[plate] = clock
    return baker, clock, True, after_placement(state, baker, rules, params)
