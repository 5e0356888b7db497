"""Look-up tables for the bakers' look-ahead: which cards each board meets, or nearly.

A board is the piece kind on each plate, coded with plate 0 most significant. The rules
always ask the catalogue's op codes (``cards.card_met``); the bakers, who weigh every
placement against every displayed card, read these tables instead: one bit per card of
whether the board meets it, whether changing one top piece could, and which plate's top
piece (so that "can I help with this card?" tries the hand's pieces on that plate only;
trying every plate took 11 to 25 % of a placement's time with signals, Konditor 3P).
"""

from functools import cache

import numpy as np

from cakesim.engine.jit import jit
from cakesim.games.speedtorte.cards import met_table


@jit
def one_away_by_plate(met_mask, plates, piece_types):
    """Per board and plate, the cards that changing that plate's top piece would meet."""
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


@cache
def _tables(program_bytes: bytes, shape: tuple, plates: int, piece_types: int):
    program = np.frombuffer(program_bytes, dtype=np.int16).reshape(shape)
    met = met_table(program, plates, piece_types)
    by_plate = one_away_by_plate(met, plates, piece_types)
    # One top piece changed, on any plate: the per-plate rows joined (a contiguous copy,
    # so that a board's row stays one look-up).
    return met, np.bitwise_or.reduce(by_plate, axis=1), by_plate


def lookahead_tables(program: np.ndarray, plates: int,
                     piece_types: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(met, one_away, one_away_on)`` bitmask tables of a catalogue program, computed
    once per process."""
    program = np.ascontiguousarray(program, dtype=np.int16)
    return _tables(program.tobytes(), program.shape, plates, piece_types)
