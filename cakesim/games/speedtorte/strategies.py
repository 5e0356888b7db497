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
  that baker signalled "I'm getting tight";
- ``own_options`` x the share of its own remaining pieces that still fit,

and places the best (the first in hand order, then plate order, on a tie). After placing
it signals: "I can help with card k" if a hand piece would fulfil card k now (when
``signal_help``), else "please don't cover plate p" if one plate takes all its fitting
pieces, else "I'm getting tight" if at most ``tight_at`` pieces fit, else "all good".
The ``random`` chooser places uniformly at random among legal placements.
"""

from dataclasses import dataclass

import numpy as np

from cakesim.engine.contract import WEIGHT
from cakesim.engine.errors import InputError
from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.engine.seeding import below
from cakesim.engine.tables import Table

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
}
"""Every weight: its default, its allowed range and what it means."""
CHOOSERS = {"weighted": 0, "random": 1}
WEIGHTED, RANDOM = 0, 1

# Signals, as the seed lists them; a signal lasts until its giver next places.
NO_SIGNAL = 0
CAN_HELP = 1      # argument: display slot of the card
DONT_COVER = 2    # argument: plate
TIGHT = 3
ALL_GOOD = 4
SIGNAL_NAMES = ("no signal", "I can help with card {}", "please don't cover plate {}",
                "I'm getting tight", "all good")

# Why a baker placed where it did: the largest term of its score.
FULFILS, CLOSER, KEEPS_FREE, OPTIONS, ONLY_MOVE, AT_RANDOM = range(6)


@dataclass(frozen=True)
class Baker:
    """A named computer baker: a chooser and the weight vector."""

    name: str
    chooser: str = "weighted"
    weights: tuple[tuple[str, float], ...] = ()
    """Weights that differ from the defaults, as ``(name, value)`` pairs."""

    @property
    def params(self) -> np.ndarray:
        """``[chooser code, weights in PARAMETERS order]`` as the kernel reads them."""
        given = dict(self.weights)
        return np.array([CHOOSERS[self.chooser],
                         *(given.get(k, d) for k, (d, _, _) in PARAMETERS.items())])

    def vectors(self) -> dict[str, np.ndarray]:
        """What the kernel reads of this baker: its parameter vector."""
        return {"params": self.params}

    def describe(self) -> str:
        """One line: chooser and weights."""
        if self.chooser == "random":
            return "uniform random legal placement"
        weights = ", ".join(f"{k}={v:g}" for k, v in zip(PARAMETERS, self.params[1:],
                                                          strict=True))
        return f"weighted baker ({weights})"


NAMED = {
    "team": Baker("team"),
    "greedy": Baker("greedy", weights=(("closer", 0.0), ("respect", 0.0),
                                       ("next_options", 0.0), ("own_options", 0.0))),
    "random": Baker("random", chooser="random"),
}


def named_strategy(name: str) -> Baker:
    """A built-in baker: ``team``, ``greedy`` (fulfil only) or ``random``."""
    if name not in NAMED:
        raise InputError("--strategy", "strategy", f"{name!r} is not allowed; allowed "
                                                   f"values: {', '.join(NAMED)}")
    return NAMED[name]


def parse_strategy(name: str, table: Table) -> Baker:
    """A baker from an experiment's ``[strategies.NAME]`` table."""
    table.only(["chooser", *PARAMETERS])
    chooser = table.get("chooser", str, "weighted", CHOOSERS)
    weights = table.numbers({k: span for k, (_, span, _) in PARAMETERS.items()})
    return Baker(name, chooser, tuple(weights.items()))


def strategy_arrays(bakers: list[Baker]) -> np.ndarray:
    """One parameter row per baker."""
    return np.stack([b.params for b in bakers])


@jit_borrowing
def fits(piece, top, type_flavour, type_candles, sacher):
    """Same flavour or same candles; the Sachertorte fits everywhere and takes anything."""
    if piece == sacher or top == sacher:
        return True
    return (type_flavour[piece] == type_flavour[top]
            or type_candles[piece] == type_candles[top])


@jit_borrowing
def board_with(tops, plate, piece, piece_types):
    """The board code of the tops with ``piece`` on ``plate`` (plate 0 most significant)."""
    code = 0
    for p in range(tops.shape[0]):
        code = code * piece_types + (piece if p == plate else tops[p])
    return code


@jit_borrowing
def is_met(met_mask, board, card):
    """Whether ``card`` is met on ``board``, from the table of met cards."""
    return (met_mask[board, card >> 6] >> np.uint64(card & 63)) & np.uint64(1) == 1


@jit_borrowing
def plates_missing(met_mask, one_away, board, card):
    """0 if met, 1 if one top piece could change to meet it, else 2."""
    if is_met(met_mask, board, card):
        return 0
    if (one_away[board, card >> 6] >> np.uint64(card & 63)) & np.uint64(1) == 1:
        return 1
    return 2


@jit_inline
def fitting_count(hand, hand_count, skip, tops, plate, piece, rules):
    """How many of ``hand`` (but slot ``skip``) fit some plate once ``piece`` is on ``plate``."""
    # Compiled into ``choose_move``, which asks it for every legal placement: a call
    # would copy the ``rules`` bundle each time.
    type_flavour, type_candles, sacher = rules.type_flavour, rules.type_candles, rules.sacher
    count = 0
    for i in range(hand_count):
        if i == skip:
            continue
        for p in range(tops.shape[0]):
            top = piece if p == plate else tops[p]
            if fits(hand[i], top, type_flavour, type_candles, sacher):
                count += 1
                break
    return count


@jit_inline
def kinds_that_fit(tops, plate, piece, rules):
    """How many piece kinds but the Sachertorte fit some plate once ``piece`` is on ``plate``."""
    # Compiled into ``choose_move``, like ``fitting_count``.
    type_flavour, type_candles, sacher = rules.type_flavour, rules.type_candles, rules.sacher
    count = 0
    for kind in range(type_flavour.shape[0]):
        if kind == sacher:
            continue
        for p in range(tops.shape[0]):
            top = piece if p == plate else tops[p]
            if fits(kind, top, type_flavour, type_candles, sacher):
                count += 1
                break
    return count


@jit_inline
def choose_move(params, baker, board, rules, next_baker, open_hands, stream):
    """``(hand slot, plate, reason, card slot, detail)`` of baker ``baker``'s placement.

    ``reason`` is the largest term of the chosen placement's score: FULFILS card slot;
    CLOSER card slot, ``detail`` plates then missing; OPTIONS, ``detail`` options left to
    the next baker; KEEPS_FREE; ONLY_MOVE; AT_RANDOM. No legal placement: slot -1.
    """
    # ``board`` and ``rules`` are the kernel's ``Board`` and ``Rules`` bundles; their
    # fields are read once here, so that the loops below index plain local arrays.
    # Compiled into the kernel's turn loops (``jit_inline``): a call would pass both
    # bundles field by field, seven machine words per array, on every placement, which
    # cost more than a random baker's whole choice.
    hands, hand_counts, tops, display = board.hands, board.hand_counts, board.tops, board.display
    signals, signal_args = board.signals, board.signal_args
    card_points, met_mask, one_away = rules.card_points, rules.met_mask, rules.one_away
    type_flavour, type_candles, sacher = rules.type_flavour, rules.type_candles, rules.sacher
    hand, count = hands[baker], hand_counts[baker]
    plates, kinds = tops.shape[0], type_flavour.shape[0]
    legal = 0
    for i in range(count):
        for p in range(plates):
            if fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                legal += 1
    if legal == 0:
        return -1, -1, ONLY_MOVE, -1, 0
    if params[0] == RANDOM:
        pick = below(stream, legal)
        for i in range(count):
            for p in range(plates):
                if fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                    if pick == 0:
                        return i, p, AT_RANDOM, -1, 0
                    pick -= 1
    w_fulfil, w_closer, w_respect = params[1], params[2], params[3]
    w_next, w_tight, w_own = params[4], params[5], params[6]
    now = board_with(tops, -1, 0, kinds)
    best, best_move = -1e300, (-1, -1, ONLY_MOVE, -1, 0)
    for i in range(count):
        for p in range(plates):
            if not fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                continue
            after = board_with(tops, p, hand[i], kinds)
            fulfilled, first_met, nearer, first_nearer, gap_left = 0.0, -1, 0.0, -1, 2
            spoiled = 0.0
            for slot in range(display.shape[0]):
                card = display[slot]
                if card < 0:
                    continue
                before_gap = plates_missing(met_mask, one_away, now, card)
                after_gap = plates_missing(met_mask, one_away, after, card)
                if after_gap == 0:
                    fulfilled += card_points[card] / 10.0
                    if first_met < 0:
                        first_met = slot
                else:
                    nearer += before_gap - after_gap
                    if before_gap > after_gap and first_nearer < 0:
                        first_nearer, gap_left = slot, after_gap
                for other in range(signals.shape[0]):
                    if (other != baker and signals[other] == CAN_HELP
                            and signal_args[other] == slot and after_gap > before_gap):
                        spoiled += 1.0
            for other in range(signals.shape[0]):
                if other != baker and signals[other] == DONT_COVER and signal_args[other] == p:
                    spoiled += 1.0
            options, room = 0, 0.0
            if next_baker >= 0 and next_baker != baker:
                if open_hands:
                    options = fitting_count(hands[next_baker], hand_counts[next_baker], -1,
                                            tops, p, hand[i], rules)
                    room = options / max(hand_counts[next_baker], 1)
                else:
                    options = kinds_that_fit(tops, p, hand[i], rules)
                    room = options / (kinds - 1)
                if signals[next_baker] == TIGHT:
                    room *= 1.0 + w_tight
            own = fitting_count(hand, count, i, tops, p, hand[i], rules) / max(count - 1, 1)
            score = (w_fulfil * fulfilled + w_closer * nearer - w_respect * spoiled
                     + w_next * room + w_own * own)
            if score > best:
                best = score
                if legal == 1:
                    best_move = (i, p, ONLY_MOVE, -1, 0)
                elif fulfilled > 0 and w_fulfil > 0:
                    best_move = (i, p, FULFILS, first_met, 0)
                elif nearer > 0 and w_closer > 0:
                    best_move = (i, p, CLOSER, first_nearer, gap_left)
                elif spoiled == 0 and w_respect > 0 and _asked_to_keep(signals, baker):
                    best_move = (i, p, KEEPS_FREE, -1, 0)
                else:
                    best_move = (i, p, OPTIONS, -1, options)
    return best_move


@jit_borrowing
def _asked_to_keep(signals, baker):
    """Whether another baker has a plate or a card they asked the others to leave alone."""
    for other in range(signals.shape[0]):
        if other != baker and (signals[other] == DONT_COVER or signals[other] == CAN_HELP):
            return True
    return False


@jit_inline
def choose_signal(params, baker, board, rules):
    """``(signal, argument)`` a baker gives after placing, from its own hand only."""
    # The kernel's ``Board`` and ``Rules`` bundles; only the baker's own hand is read.
    # Compiled into the kernel, like ``choose_move``, so that no bundle is copied.
    hand, count = board.hands[baker], board.hand_counts[baker]
    tops, display = board.tops, board.display
    met_mask, type_flavour, type_candles = rules.met_mask, rules.type_flavour, rules.type_candles
    sacher = rules.sacher
    kinds = type_flavour.shape[0]
    plates = tops.shape[0]
    if params[8] > 0:
        for slot in range(display.shape[0]):
            if display[slot] < 0:
                continue
            for i in range(count):
                for p in range(plates):
                    if (fits(hand[i], tops[p], type_flavour, type_candles, sacher)
                            and is_met(met_mask, board_with(tops, p, hand[i], kinds),
                                       display[slot])):
                        return CAN_HELP, slot
    fitting, only_plate = 0, -1
    for i in range(count):
        plate_here = -1
        for p in range(plates):
            if fits(hand[i], tops[p], type_flavour, type_candles, sacher):
                plate_here = p if plate_here == -1 else -2
        if plate_here != -1:
            fitting += 1
            if only_plate == -1:
                only_plate = plate_here
            elif only_plate != plate_here:
                only_plate = -2
    if fitting > 0 and only_plate >= 0:
        return DONT_COVER, only_plate
    if count > 0 and fitting <= params[7]:
        return TIGHT, 0
    return ALL_GOOD, 0
