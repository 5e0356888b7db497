"""Computer bakers: parameter vectors and the decisions they drive (RULES.md section 3).

A baker sees the four top pieces, the displayed order cards, its own hand and the other
bakers' signals (with open hands, every hand). For every legal placement it adds up

- ``fulfil`` x the points of the displayed cards the placement fulfils (per 10 points);
- ``closer`` x how many plates nearer the unmet displayed cards come (a card is 0, 1 or
  "2 or more" plates away: the fewest top pieces that must change for it to be met);
- ``respect`` x -1 for covering a plate another baker asked to keep, and for each card
  another baker can help with that the placement moves further away;
- ``next_options`` x the share of piece kinds the next baker could place afterwards (with
  open hands: the share of that baker's pieces that fit), boosted by ``tight_boost`` when
  that baker signalled "I'm getting tight" and cut by the share ``all_good`` when it
  signalled "all good";
- ``own_options`` x the share of its own remaining pieces that still fit;
- ``noise`` x a uniform draw in [0, 1) (0 for the team baker: a novice's slips),

and places the best (the first in hand order, then plate order, on a tie). The first two
terms are the placement's *worth*: what it does for the order cards. In the Eilauftrag,
where placing is a choice, a baker whose best placement is worth less than ``patience``
waits while another baker's piece is on its way or another baker signalled "I can help
with card k"; it reconsiders whenever the board changes (``kernel._start_attempts``).

After placing it signals: "I can help with card k" if a hand piece would fulfil card k
now (when ``signal_help``), else "please don't cover plate p" if one plate takes all its
fitting pieces, else "I'm getting tight" if at most ``tight_at`` pieces fit, else "all
good". After any placement, a baker (with ``withdraw``) takes back a "can help" or
"don't cover" signal that is no longer true ("withdraw"). The ``random`` chooser places
uniformly at random among legal placements; the ``lookahead`` chooser (``planner.py``)
compares the best few placements by playing them out in sampled worlds.
"""

import numpy as np

from cakesim.engine.contract import WEIGHT
from cakesim.engine.errors import InputError
from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.engine.seeding import below, uniform
from cakesim.games.speedtorte.lookahead import is_met, plate_bits, plates_missing
from cakesim.kits.strategies import Code, StrategySpec

PARAMETERS = {
    "fulfil": (10.0, WEIGHT, "weight of fulfilling displayed cards, per 10 points"),
    "closer": (2.0, WEIGHT, "weight per plate that an unmet displayed card comes closer"),
    "respect": (3.0, WEIGHT, "penalty for covering a plate another baker asked to keep, or "
                             "moving a card another baker can help with further away"),
    "next_options": (1.0, WEIGHT, "weight of the share of piece kinds the next baker could "
                                  "place"),
    "tight_boost": (2.0, WEIGHT, "extra factor on next_options when the next baker is tight"),
    "own_options": (0.5, WEIGHT, "weight of the share of the baker's own pieces that still "
                                 "fit"),
    "tight_at": (1.0, WEIGHT, "signal 'I'm getting tight' when at most this many pieces fit"),
    "signal_help": (1.0, (0.0, 1.0), "1: signal 'I can help with card k'; 0: never (any "
                                     "value above 0 signals)"),
    "patience": (0.5, WEIGHT, "Eilauftrag: wait while another baker places or can help, "
                              "unless the best placement is worth at least this much "
                              "(fulfil and closer terms; 0: never wait)"),
    "all_good": (1.0, (0.0, 1.0), "share of next_options dropped when the next baker "
                                  "signalled 'all good'"),
    "withdraw": (1.0, (0.0, 1.0), "1: take back a 'can help' or 'don't cover' signal that "
                                  "is no longer true; 0: never (any value above 0 does)"),
    "noise": (0.0, WEIGHT, "weight of a uniform random draw added to every placement's "
                           "score (a novice's slips)"),
    "samples": (8.0, (1.0, 64.0), "lookahead: worlds sampled per decision (whole number)"),
    "depth": (8.0, (1.0, 60.0), "lookahead: placements each play-out runs (whole number)"),
    "candidates": (4.0, (1.0, 16.0), "lookahead: best placements compared (whole number)"),
    "clairvoyant": (0.0, (0.0, 1.0), "lookahead, a diagnostic and not a fair baker: 1 plays "
                                     "out in the true deal (every hand, the supply's order, "
                                     "the cards to come) instead of sampled worlds; 0: never "
                                     "(any value above 0 does)"),
}
"""Every weight: its default, its allowed range and what it means."""
CHOOSERS = {"weighted": 0, "random": 1, "lookahead": 2}
WEIGHTED, RANDOM, LOOKAHEAD = 0, 1, 2
WHOLE = ("samples", "depth", "candidates")
"""Weights that count something: whole numbers only (read only by the lookahead)."""
SPEC = StrategySpec(codes={"chooser": Code(CHOOSERS, "weighted", "baker")},
                    parameters=PARAMETERS, uniform="uniform random legal placement",
                    search_choice="lookahead", search_parameters=WHOLE, whole=WHOLE,
                    codes_in_params=True)
"""A baker: its chooser, which leads its parameter row, and its weights."""

# Positions of the weights in a parameter row (after the chooser code at 0), made from
# the spec.
W_FULFIL = SPEC.index("fulfil")
W_CLOSER = SPEC.index("closer")
W_RESPECT = SPEC.index("respect")
W_NEXT = SPEC.index("next_options")
W_TIGHT = SPEC.index("tight_boost")
W_OWN = SPEC.index("own_options")
W_TIGHT_AT = SPEC.index("tight_at")
W_HELP = SPEC.index("signal_help")
W_PATIENCE = SPEC.index("patience")
W_ALL_GOOD = SPEC.index("all_good")
W_WITHDRAW = SPEC.index("withdraw")
W_NOISE = SPEC.index("noise")
W_SAMPLES = SPEC.index("samples")
W_DEPTH = SPEC.index("depth")
W_CANDIDATES = SPEC.index("candidates")
W_CLAIRVOYANT = SPEC.index("clairvoyant")


def told_the_deal(strategies) -> bool:
    """Whether any of ``strategies`` is a clairvoyant lookahead: a diagnostic that knows the
    deal, never a baker a table of people could be."""
    return any(s.params[0] == LOOKAHEAD and s.params[W_CLAIRVOYANT] > 0 for s in strategies)


# Signals, as the seed lists them; a signal lasts until its giver next places.
NO_SIGNAL = 0
CAN_HELP = 1      # argument: display slot of the card
DONT_COVER = 2    # argument: plate
TIGHT = 3
ALL_GOOD = 4
SIGNAL_NAMES = ("no signal", "I can help with card {}", "please don't cover plate {}",
                "I'm getting tight", "all good")
WITHDRAW_TEXT = "withdraws the signal"
"""Withdrawing leaves no signal (``NO_SIGNAL``); the replay names the act."""

# Why a baker placed where it did: the largest term of its score.
FULFILS, CLOSER, KEEPS_FREE, OPTIONS, ONLY_MOVE, AT_RANDOM = range(6)


Baker = SPEC.record("Baker", __name__)
"""A named computer baker: a chooser and the weights that differ from the defaults
(``Baker.parse`` reads one from an experiment's ``[strategies.NAME]`` table; its
``params`` is the kernel's row, ``[chooser code, weights in PARAMETERS order]``)."""


NAMED = {
    "team": Baker("team"),
    "greedy": Baker("greedy", weights=(("closer", 0.0), ("respect", 0.0),
                                       ("next_options", 0.0), ("own_options", 0.0))),
    "random": Baker("random", chooser="random"),
    "novice": Baker("novice", weights=(("noise", 4.0), ("patience", 0.0), ("withdraw", 0.0))),
    "lookahead": Baker("lookahead", chooser="lookahead"),
}
"""The built-in bakers. ``novice`` is the team baker with slips (``noise``) who never
waits and never withdraws a signal; ``lookahead`` plays out its best placements
(``planner.py``)."""


def named_strategy(name: str) -> Baker:
    """A built-in baker: ``team``, ``greedy`` (fulfil only), ``random``, ``novice`` or
    ``lookahead``."""
    if name not in NAMED:
        raise InputError("--strategy", "strategy", f"{name!r} is not allowed; allowed "
                                                   f"values: {', '.join(NAMED)}")
    return NAMED[name]


@jit_borrowing
def fits(piece, top, type_flavour, type_candles, sacher):
    """Same flavour or same candles; the Sachertorte fits everywhere and takes anything."""
    if piece == sacher or top == sacher:
        return True
    return (type_flavour[piece] == type_flavour[top]
            or type_candles[piece] == type_candles[top])


@jit_inline
def fits_top(piece, top, fit_mask):
    """``fits``, read from the bit set of the kinds that fit on each top (``Rules.fit_mask``)."""
    # One load and one test where ``fits`` compares flavours and candles through four
    # loads and three branches: the bakers ask it for every hand piece and plate.
    return (fit_mask[top] >> np.uint64(piece)) & np.uint64(1) == 1


@jit_borrowing
def board_with(tops, plate, piece, piece_types):
    """The board code of the tops with ``piece`` on ``plate`` (plate 0 most significant)."""
    code = 0
    for p in range(tops.shape[0]):
        code = code * piece_types + (piece if p == plate else tops[p])
    return code


@jit_inline
def reachable(tops, plate, piece, fit_mask):
    """Bit k set when piece kind k fits some plate once ``piece`` is on ``plate``."""
    # One OR per plate of the table of what fits on each top (``Rules.fit_mask``): the
    # same answer as asking ``fits`` for every kind and plate, thirty times quicker.
    union = np.uint64(0)
    for p in range(tops.shape[0]):
        union |= fit_mask[piece if p == plate else tops[p]]
    return union


@jit_inline
def fitting_count(hand, hand_count, skip, reach):
    """How many pieces of ``hand`` (but slot ``skip``) are kinds in the bit set ``reach``."""
    count = 0
    for i in range(hand_count):
        if i != skip and (reach >> np.uint64(hand[i])) & np.uint64(1):
            count += 1
    return count


@jit_inline
def popcount(bits):
    """The number of set bits of a uint64 (the classic SWAR sum)."""
    # Numba has no popcount intrinsic for uint64 in nopython mode.
    bits = bits - ((bits >> np.uint64(1)) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + ((bits >> np.uint64(2))
                                                    & np.uint64(0x3333333333333333))
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((bits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit_inline
def display_gaps(board, rules):
    """``plates_missing`` of every displayed card on the board as it is, two bits per
    display slot (slot s at bits 2s, 2s + 1; an empty slot 0)."""
    # Worked out once per decision: ``placement_value`` compares every candidate with it.
    display = board.display
    now = board_with(board.tops, -1, 0, rules.type_flavour.shape[0])
    gaps = 0
    for s in range(display.shape[0]):
        if display[s] >= 0:
            gaps |= plates_missing(rules.card_gaps, now, display[s]) << (2 * s)
    return gaps


@jit_inline
def placement_value(params, baker, slot, plate, gaps_now, board, rules, next_baker,
                    open_hands):
    """``(score, worth, first fulfilled, first nearer, plates then missing, spoiled, room
    options)`` of putting hand slot ``slot`` on ``plate``; ``gaps_now`` is
    ``display_gaps`` of the board as it is."""
    # Compiled into ``choose_move`` and the lookahead, which ask it for every legal
    # placement: a call would copy the ``board`` and ``rules`` bundles each time.
    hands, hand_counts, tops, display = board.hands, board.hand_counts, board.tops, board.display
    signals, signal_args = board.signals, board.signal_args
    card_points, card_gaps = rules.card_points, rules.card_gaps
    kinds = rules.type_flavour.shape[0]
    hand, count = hands[baker], hand_counts[baker]
    piece = hand[slot]
    after = board_with(tops, plate, piece, kinds)
    fulfilled, first_met, nearer, first_nearer, gap_left = 0.0, -1, 0.0, -1, 2
    spoiled = 0.0
    for s in range(display.shape[0]):
        card = display[s]
        if card < 0:
            continue
        before_gap = (gaps_now >> (2 * s)) & 3
        after_gap = plates_missing(card_gaps, after, card)
        if after_gap == 0:
            fulfilled += card_points[card] / 10.0
            if first_met < 0:
                first_met = s
        else:
            nearer += before_gap - after_gap
            if before_gap > after_gap and first_nearer < 0:
                first_nearer, gap_left = s, after_gap
        for other in range(signals.shape[0]):
            if (other != baker and signals[other] == CAN_HELP
                    and signal_args[other] == s and after_gap > before_gap):
                spoiled += 1.0
    for other in range(signals.shape[0]):
        if other != baker and signals[other] == DONT_COVER and signal_args[other] == plate:
            spoiled += 1.0
    reach = reachable(tops, plate, piece, rules.fit_mask)
    options, room = 0, 0.0
    if next_baker >= 0 and next_baker != baker:
        if open_hands:
            options = fitting_count(hands[next_baker], hand_counts[next_baker], -1, reach)
            room = options / max(hand_counts[next_baker], 1)
        else:
            # The piece kinds but the Sachertorte that fit some plate.
            options = popcount(reach & ~(np.uint64(1) << np.uint64(rules.sacher)))
            room = options / (kinds - 1)
        if signals[next_baker] == TIGHT:
            room *= 1.0 + params[W_TIGHT]
        elif signals[next_baker] == ALL_GOOD:
            room *= 1.0 - params[W_ALL_GOOD]
    own = fitting_count(hand, count, slot, reach) / max(count - 1, 1)
    worth = params[W_FULFIL] * fulfilled + params[W_CLOSER] * nearer
    score = worth - params[W_RESPECT] * spoiled + params[W_NEXT] * room + params[W_OWN] * own
    return score, worth, fulfilled, first_met, nearer, first_nearer, gap_left, spoiled, options


@jit_inline
def choose_move(params, baker, board, rules, next_baker, open_hands, stream):
    """``(hand slot, plate, reason, card slot, detail, worth)`` of baker ``baker``'s placement.

    ``reason`` is the largest term of the chosen placement's score: FULFILS card slot;
    CLOSER card slot, ``detail`` plates then missing; OPTIONS, ``detail`` options left to
    the next baker; KEEPS_FREE; ONLY_MOVE; AT_RANDOM. ``worth`` is its fulfil and closer
    terms (infinite for a random placement: a random baker never waits). No legal
    placement: slot -1.
    """
    # ``board`` and ``rules`` are the kernel's ``Board`` and ``Rules`` bundles; their
    # fields are read once here, so that the loops below index plain local arrays.
    # Compiled into the kernel's turn loops (``jit_inline``): a call would pass both
    # bundles field by field, seven machine words per array, on every placement, which
    # cost more than a random baker's whole choice.
    hands, hand_counts, tops, fit_mask = board.hands, board.hand_counts, board.tops, rules.fit_mask
    hand, count = hands[baker], hand_counts[baker]
    plates = tops.shape[0]
    legal = 0
    for i in range(count):
        for p in range(plates):
            if fits_top(hand[i], tops[p], fit_mask):
                legal += 1
    if legal == 0:
        return -1, -1, ONLY_MOVE, -1, 0, 0.0
    if params[0] == RANDOM:
        pick = below(stream, legal)
        for i in range(count):
            for p in range(plates):
                if fits_top(hand[i], tops[p], fit_mask):
                    if pick == 0:
                        return i, p, AT_RANDOM, -1, 0, np.inf
                    pick -= 1
    gaps_now = display_gaps(board, rules)
    best, best_move = -1e300, (-1, -1, ONLY_MOVE, -1, 0, 0.0)
    for i in range(count):
        for p in range(plates):
            if not fits_top(hand[i], tops[p], fit_mask):
                continue
            score, worth, fulfilled, first_met, nearer, first_nearer, gap_left, spoiled, \
                options = placement_value(params, baker, i, p, gaps_now, board, rules,
                                          next_baker, open_hands)
            # A novice's slips; the team baker (noise 0) draws nothing.
            if params[W_NOISE] > 0:
                score += params[W_NOISE] * uniform(stream)
            if score > best:
                best = score
                if legal == 1:
                    best_move = (i, p, ONLY_MOVE, -1, 0, worth)
                elif fulfilled > 0 and params[W_FULFIL] > 0:
                    best_move = (i, p, FULFILS, first_met, 0, worth)
                elif nearer > 0 and params[W_CLOSER] > 0:
                    best_move = (i, p, CLOSER, first_nearer, gap_left, worth)
                elif (spoiled == 0 and params[W_RESPECT] > 0
                      and _asked_to_keep(board.signals, baker)):
                    best_move = (i, p, KEEPS_FREE, -1, 0, worth)
                else:
                    best_move = (i, p, OPTIONS, -1, options, worth)
    return best_move


@jit_borrowing
def _asked_to_keep(signals, baker):
    """Whether another baker has a plate or a card they asked the others to leave alone."""
    for other in range(signals.shape[0]):
        if other != baker and (signals[other] == DONT_COVER or signals[other] == CAN_HELP):
            return True
    return False


@jit_inline
def _helps_with(hand, count, tops, card, rules):
    """Whether a piece of ``hand`` fits a plate and meets ``card`` there."""
    # Compiled into the signal decisions, which read the ``rules`` bundle: no copy.
    fit_mask, kinds = rules.fit_mask, rules.type_flavour.shape[0]
    # One piece can meet the card only if it is one plate away (a card met at setup may
    # stay on display until the first placement, and needs no help): one look-up spares
    # the hand's dozen.
    now = board_with(tops, -1, 0, kinds)
    if plates_missing(rules.card_gaps, now, card) != 1:
        return False
    # Only a plate whose top piece, changed, meets the card can take the helping piece.
    on_plates = plate_bits(rules.card_plates, now, card)
    for p in range(tops.shape[0]):
        if not (on_plates >> np.uint64(p)) & np.uint64(1):
            continue
        for i in range(count):
            if (fits_top(hand[i], tops[p], fit_mask)
                    and is_met(rules.card_gaps, board_with(tops, p, hand[i], kinds), card)):
                return True
    return False


@jit_inline
def _fitting_and_only_plate(hand, count, tops, rules):
    """``(pieces that fit some plate, the one plate they all need or -2 if several, -1 if
    none)``."""
    # Compiled into the signal decisions, like ``_helps_with``.
    fit_mask = rules.fit_mask
    fitting, only_plate = 0, -1
    for i in range(count):
        plate_here = -1
        for p in range(tops.shape[0]):
            if fits_top(hand[i], tops[p], fit_mask):
                plate_here = p if plate_here == -1 else -2
        if plate_here != -1:
            fitting += 1
            if only_plate == -1:
                only_plate = plate_here
            elif only_plate != plate_here:
                only_plate = -2
    return fitting, only_plate


@jit_inline
def choose_signal(params, baker, board, rules):
    """``(signal, argument)`` a baker gives after placing, from its own hand only."""
    # The kernel's ``Board`` and ``Rules`` bundles; only the baker's own hand is read.
    # Compiled into the kernel, like ``choose_move``, so that no bundle is copied.
    hand, count = board.hands[baker], board.hand_counts[baker]
    tops, display = board.tops, board.display
    if params[W_HELP] > 0:
        for slot in range(display.shape[0]):
            if display[slot] >= 0 and _helps_with(hand, count, tops, display[slot], rules):
                return CAN_HELP, slot
    fitting, only_plate = _fitting_and_only_plate(hand, count, tops, rules)
    if fitting > 0 and only_plate >= 0:
        return DONT_COVER, only_plate
    if count > 0 and fitting <= params[W_TIGHT_AT]:
        return TIGHT, 0
    return ALL_GOOD, 0


@jit_inline
def signal_stands(baker, board, rules):
    """Whether baker ``baker``'s signal still holds: "can help with card k" while a hand
    piece would still meet the card in slot k, "don't cover plate p" while its fitting
    pieces still all need plate p; every other signal stands until the baker places."""
    # Compiled into the kernel's placement step, like ``choose_signal``.
    hand, count = board.hands[baker], board.hand_counts[baker]
    signal, arg = board.signals[baker], board.signal_args[baker]
    if signal == CAN_HELP:
        card = board.display[arg]
        return card >= 0 and _helps_with(hand, count, board.tops, card, rules)
    if signal == DONT_COVER:
        fitting, only_plate = _fitting_and_only_plate(hand, count, board.tops, rules)
        return fitting > 0 and only_plate == arg
    return True
