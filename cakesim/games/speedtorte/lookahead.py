"""Look-up tables for the bakers' look-ahead: which cards each board meets, or nearly.

A board is the piece kind on each plate, coded with plate 0 most significant. The rules
always ask the catalogue's op codes (``cards.card_met``); the bakers, who weigh every
placement against every displayed card, read these tables instead: one bit per card of
whether the board meets it, and whether changing one top piece could.
"""

from functools import cache

import numpy as np

from cakesim.engine.jit import jit
from cakesim.games.speedtorte.cards import met_table


@jit
def one_away_table(met_mask, plates, piece_types):
    """Per board, the cards that one changed top piece would meet (bitmask rows)."""
    boards, words = met_mask.shape
    near = np.zeros((boards, words), np.uint64)
    for board in range(boards):
        weight = 1
        for _ in range(plates):
            here = (board // weight) % piece_types
            base = board - here * weight
            for kind in range(piece_types):
                if kind != here:
                    other = base + kind * weight
                    for w in range(words):
                        near[board, w] |= met_mask[other, w]
            weight *= piece_types
    return near


@cache
def _tables(program_bytes: bytes, shape: tuple, plates: int, piece_types: int):
    program = np.frombuffer(program_bytes, dtype=np.int16).reshape(shape)
    met = met_table(program, plates, piece_types)
    return met, one_away_table(met, plates, piece_types)


def lookahead_tables(program: np.ndarray, plates: int,
                     piece_types: int) -> tuple[np.ndarray, np.ndarray]:
    """``(met, one_away)`` bitmask tables of a catalogue program, computed once per process."""
    program = np.ascontiguousarray(program, dtype=np.int16)
    return _tables(program.tobytes(), program.shape, plates, piece_types)
