"""Look-up tables for the bakers' look-ahead: which cards each board meets, or nearly.

A board is the piece kind on each plate, coded with plate 0 most significant. The rules
always ask the catalogue's op codes (``cards.card_met``); the bakers, who weigh every
placement against every displayed card, read these tables instead: per card, whether a
board meets it, whether changing one top piece could, and which plate's top piece (so
that "can I help with this card?" tries the hand's pieces on that plate only; trying
every plate took 11 to 25 % of a placement's time with signals, Konditor 3P).

The tables are card-major: each card's bits over all 707,281 boards (four plates, 29
kinds) lie together, 177 KB for met and one-away, interleaved so that one look-up
answers both, and 354 KB for the plates, all four in one look-up. A game reads only the
regions of the few cards on display. Board-major rows (one word of every card's bits per
board: 5.6 MB for met cards, 22.6 MB for the plates) missed the cache on nearly every
look-up. Card-major, the team baker played 25 % more games a second (``make bench``,
Konditor 3P), 45 % with the lighter loops of ``strategies.py`` (docs/speedtorte.md,
"Look-ahead tables").
"""

from functools import cache

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.games.speedtorte.cards import met_table

GAP_WORD_BOARDS = 5
"""log2 of the boards per word of the gap table (32): two bits each, met (low) and one
piece away (high)."""
PLATE_WORD_BOARDS = 4
"""log2 of the boards per word of the plate table (16): four bits each, one per plate
(the rules have four plates; ``card_major`` refuses more)."""
GAP_BITS = 2
"""Bits a board holds in a gap word: met, one piece away (64 bits / 32 boards)."""
PLATE_BITS = 4
"""Bits a board holds in a plate word: one per plate (64 bits / 16 boards)."""
GAP_SLOT = (1 << GAP_WORD_BOARDS) - 1
"""A board's slot in its gap word: the board code's low bits (``board & GAP_SLOT``)."""
PLATE_SLOT = (1 << PLATE_WORD_BOARDS) - 1
"""A board's slot in its plate word: the board code's low bits (``board & PLATE_SLOT``)."""


@jit
def one_away_by_plate(met_mask, plates, piece_types):
    """Per board and plate, the cards (bits of ``met_table``'s words) that changing that
    plate's top piece would meet."""
    boards, words = met_mask.shape
    near = np.zeros((boards, plates, words), np.uint64)
    for board in range(boards):
        weight = 1
        for step in range(plates):
            here = (board // weight) % piece_types
            base = board - here * weight
            for kind in range(piece_types):
                if kind != here:
                    for w in range(words):
                        near[board, plates - 1 - step, w] |= met_mask[base + kind * weight, w]
            weight *= piece_types
    return near


@jit
def card_major(met_mask, by_plate, cards):
    """``(card_gaps, card_plates)`` from the board-major tables: per card, the gap bits
    of every board (``gap_bits``) and its plates' bits (``plate_bits``)."""
    boards, plates = by_plate.shape[0], by_plate.shape[1]
    if plates > PLATE_BITS:
        raise ValueError("the plate table holds four plates a board")
    gaps = np.zeros((cards, (boards >> GAP_WORD_BOARDS) + 1), np.uint64)
    near = np.zeros((cards, (boards >> PLATE_WORD_BOARDS) + 1), np.uint64)
    one = np.uint64(1)
    for board in range(boards):
        gap_shift = np.uint64(GAP_BITS * (board & GAP_SLOT))
        plate_shift = np.uint64(PLATE_BITS * (board & PLATE_SLOT))
        for card in range(cards):
            # ``met_table``'s words hold 64 cards each.
            word, bit = card >> 6, np.uint64(card & 63)
            met = (met_mask[board, word] >> bit) & one
            on_plates = np.uint64(0)
            for p in range(plates):
                on_plates |= ((by_plate[board, p, word] >> bit) & one) << np.uint64(p)
            away = np.uint64(on_plates != 0)
            gaps[card, board >> GAP_WORD_BOARDS] |= (met | (away << one)) << gap_shift
            near[card, board >> PLATE_WORD_BOARDS] |= on_plates << plate_shift
    return gaps, near


@cache
def _tables(program_bytes: bytes, shape: tuple, plates: int, piece_types: int):
    program = np.frombuffer(program_bytes, dtype=np.int16).reshape(shape)
    met = met_table(program, plates, piece_types)
    return card_major(met, one_away_by_plate(met, plates, piece_types), shape[0])


def lookahead_tables(program: np.ndarray, plates: int,
                     piece_types: int) -> tuple[np.ndarray, np.ndarray]:
    """``(card_gaps, card_plates)`` tables of a catalogue program, computed once per
    process (``gap_bits`` and ``plate_bits`` read them)."""
    program = np.ascontiguousarray(program, dtype=np.int16)
    return _tables(program.tobytes(), program.shape, plates, piece_types)


# --- the look-ups, compiled into the bakers -------------------------------------------

@jit_inline
def gap_bits(card_gaps, board, card):
    """Bit 0: ``board`` meets ``card``; bit 1: changing one top piece could meet it."""
    word = card_gaps[card, board >> GAP_WORD_BOARDS]
    return (word >> np.uint64(GAP_BITS * (board & GAP_SLOT))) & np.uint64((1 << GAP_BITS) - 1)


@jit_borrowing
def is_met(card_gaps, board, card):
    """Whether ``card`` is met on ``board``."""
    return gap_bits(card_gaps, board, card) & np.uint64(1) == 1


@jit_borrowing
def plates_missing(card_gaps, board, card):
    """0 if met, 1 if one top piece could change to meet it, else 2."""
    bits = gap_bits(card_gaps, board, card)
    if bits & np.uint64(1):
        return 0
    return 1 if bits & np.uint64(2) else 2


@jit_inline
def plate_bits(card_plates, board, card):
    """Bit p set when changing plate p's top piece of ``board`` could meet ``card``."""
    word = card_plates[card, board >> PLATE_WORD_BOARDS]
    return ((word >> np.uint64(PLATE_BITS * (board & PLATE_SLOT)))
            & np.uint64((1 << PLATE_BITS) - 1))
