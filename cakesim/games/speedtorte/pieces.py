"""Speedtorte pieces as small integers: a flavour code, a candle count, a piece-type code.

RULES.md section 3. A piece is (flavour, candles): flavour 0..3 in ``FLAVOURS`` order,
candles 1..7; the Sachertorte is (``NO_FLAVOUR``, 0). A piece type packs both into one
code, ``flavour * CANDLE_CODES + candles - 1`` for 0..27 and ``SACHER`` = 28, so that a
board of four top pieces is four small integers and a box is a count per type. These are
the *encoding*; how many flavours, candle counts and copies are in play is the rule set's.
"""

import numpy as np

from cakesim.engine.errors import InputError
from cakesim.engine.jit import jit

FLAVOURS = ("strawberry", "apricot", "pistachio", "blueberry")
FLAVOURS_DE = ("Erdbeere", "Aprikose", "Pistazie", "Heidelbeere")
NO_FLAVOUR = len(FLAVOURS)
"""The Sachertorte's flavour code: no flavour, counted by no flavour card."""
CANDLE_CODES = 7
"""Candle counts a flavoured piece type can encode: 1 to 7."""
SACHER = len(FLAVOURS) * CANDLE_CODES
PIECE_TYPES = SACHER + 1
SACHER_NAMES = ("sacher", "sachertorte")


@jit
def piece_type(flavour: int, candles: int) -> int:
    """The piece-type code of a piece with ``flavour`` and ``candles``."""
    if flavour == NO_FLAVOUR:
        return SACHER
    return flavour * CANDLE_CODES + candles - 1


@jit
def flavour_of(t: int) -> int:
    """The flavour code of piece type ``t`` (``NO_FLAVOUR`` for the Sachertorte)."""
    if t == SACHER:
        return NO_FLAVOUR
    return t // CANDLE_CODES


@jit
def candles_of(t: int) -> int:
    """The candle count of piece type ``t`` (0 for the Sachertorte)."""
    if t == SACHER:
        return 0
    return t % CANDLE_CODES + 1


def flavour_code(name: str) -> int:
    """The code of flavour ``name`` (English or German, any case); -1 if there is none."""
    folded = name.strip().casefold()
    for code, (english, german) in enumerate(zip(FLAVOURS, FLAVOURS_DE, strict=True)):
        if folded in (english, german.casefold()):
            return code
    return -1


def parse_piece(text: str, source: str = "piece") -> tuple[int, int]:
    """(flavour, candles) of "strawberry:3", "Erdbeere:3" or "sacher"; else an InputError."""
    allowed = (f"FLAVOUR:CANDLES with FLAVOUR one of {', '.join(FLAVOURS)} (or "
               f"{', '.join(FLAVOURS_DE)}) and CANDLES 1 to {CANDLE_CODES}, or 'sacher'")
    if text.strip().casefold() in SACHER_NAMES:
        return NO_FLAVOUR, 0
    name, _, count = text.partition(":")
    flavour = flavour_code(name)
    # Candle counts are matched as text: int() fails on digits such as "³" or 5000 of them.
    candles = {str(c): c for c in range(1, CANDLE_CODES + 1)}.get(count.strip())
    if flavour < 0 or candles is None:
        raise InputError(source, text, f"not a piece; allowed: {allowed}")
    return flavour, candles


def piece_name(flavour: int, candles: int) -> str:
    """A piece in words: "strawberry 3" or "Sachertorte"."""
    return "Sachertorte" if flavour == NO_FLAVOUR else f"{FLAVOURS[flavour]} {candles}"


def piece_counts(flavours: int = len(FLAVOURS), candles: range = range(1, 8), copies: int = 2,
                 sacher: bool = False) -> np.ndarray:
    """How many pieces of each type are in the box (default: the published 56 pieces)."""
    if not 1 <= flavours <= len(FLAVOURS) or not set(candles) <= set(range(1, CANDLE_CODES + 1)):
        raise ValueError(f"the encoding holds {len(FLAVOURS)} flavours and candles 1 to "
                         f"{CANDLE_CODES}; got {flavours} flavours and candles {candles}")
    counts = np.zeros(PIECE_TYPES, dtype=np.int64)
    for flavour in range(flavours):
        for count in candles:
            counts[piece_type(flavour, count)] = copies
    counts[SACHER] = int(sacher)
    return counts
