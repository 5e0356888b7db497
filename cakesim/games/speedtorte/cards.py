"""Speedtorte order cards: a small predicate language, its catalogue and exact base rates.

RULES.md section 3. An order card is a conjunction of at most ``MAX_TERMS`` terms about
the four top pieces; a term is a row (op, cmp, x, y) of small integers, so that the whole
catalogue is one int16 array, the ``program``, that a kernel evaluates with ``card_met``.
``docs/speedtorte_cards.md`` defines every op; the op docstrings below say the same.

Rules that hold for every op: only the top piece of each plate counts; the Sachertorte
has no flavour (no flavour card counts it, it is no distinct flavour) and 0 candles, an
ordinary count in every candle op (0 is even, 0-1-2 is a run, 0 is less than 1).
"""

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from cakesim.engine.errors import InputError
from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.tables import Table, read_toml
from cakesim.games.speedtorte.pieces import (
    CANDLE_CODES,
    FLAVOURS,
    NO_FLAVOUR,
    PIECE_TYPES,
    candles_of,
    flavour_code,
    flavour_of,
    piece_counts,
)

DEFAULT_CATALOGUE = Path(__file__).with_name("cards.toml")
FAMILIES = ("flavours", "candles", "mixed", "regular_guest")
MAX_TERMS = 4

# Op codes: column 0 of a term row.
NONE = 0
COUNT_FLAVOUR = 1
ADJACENT = 2
APART = 3
DISTINCT_FLAVOURS = 4
CANDLE_SUM = 5
ALL_EVEN = 6
ALL_ODD = 7
ASCENDING = 8
SAME_CANDLES = 9
RUN = 10
OP_NAMES = ("none", "count_flavour", "adjacent", "apart", "distinct_flavours", "candle_sum",
            "all_even", "all_odd", "ascending", "same_candles", "run")
FLAVOUR_OPS = (COUNT_FLAVOUR, ADJACENT, APART, DISTINCT_FLAVOURS)

# Comparison codes: column 1 of a term row (NO_CMP for ops that compare nothing).
NO_CMP = 0
EQ = 1
GE = 2
LE = 3
CMP_SYMBOLS = ("", "==", ">=", "<=")

OP_KEYS = {
    "count_flavour": ("flavour", "cmp", "value"),
    "adjacent": ("flavour",),
    "apart": ("flavour",),
    "distinct_flavours": ("cmp", "value"),
    "candle_sum": ("cmp", "value"),
    "all_even": (),
    "all_odd": (),
    "ascending": (),
    "same_candles": ("cmp", "value"),
    "run": ("length",),
}
"""The keys each op takes in ``cards.toml`` besides ``op``."""
CARD_KEYS = ("id", "family", "tier", "text_de", "text_en")
FAMILY_TERMS = {"flavours": "flavour terms only", "candles": "candle terms only",
                "mixed": "both flavour and candle terms"}
"""What the terms of a card of each family (but regular guests) must be."""


@dataclass(frozen=True)
class Term:
    """One condition on the top pieces: op and cmp codes, a flavour code and a number."""

    op: int
    cmp: int = NO_CMP
    flavour: int = 0
    value: int = 0

    @property
    def row(self) -> tuple[int, int, int, int]:
        """The term as a program row (op, cmp, x, y)."""
        return self.op, self.cmp, self.flavour, self.value


@dataclass(frozen=True)
class Card:
    """An order card: met when every one of its terms holds for the top pieces."""

    id: str
    family: str
    tier: int
    text_de: str
    text_en: str
    terms: tuple[Term, ...]
    all_of: tuple[str, ...] = ()
    """For a regular guest: the two cards whose terms it joins."""


@dataclass(frozen=True)
class Catalogue:
    """Every order card of the game, in file order, and their program for the kernels."""

    cards: tuple[Card, ...]
    source: str = field(metadata={"digest": False})
    """The file the cards were read from; where it lies changes no game (and, digested, it
    made every table's digest depend on the folder of the checkout)."""

    def index(self, card_id: str) -> int:
        """The position of card ``card_id``; an InputError lists the card ids."""
        for position, card in enumerate(self.cards):
            if card.id == card_id:
                return position
        raise InputError(self.source, "card", f"{card_id!r} is not a card id; allowed values: "
                                              f"{', '.join(card.id for card in self.cards)}")

    @cached_property
    def program(self) -> np.ndarray:
        """int16 (cards, MAX_TERMS, 4): each card's term rows, unused rows op NONE at the end."""
        program = np.zeros((len(self.cards), MAX_TERMS, 4), dtype=np.int16)
        for c, card in enumerate(self.cards):
            for t, term in enumerate(card.terms):
                program[c, t] = term.row
        return program


# --- the ops, compiled ---------------------------------------------------------------

@jit_borrowing
def compare(cmp: int, left: int, right: int) -> bool:
    """``left == right``, ``>=`` or ``<=`` as ``cmp`` says."""
    if cmp == EQ:
        return left == right
    if cmp == GE:
        return left >= right
    return left <= right


@jit_borrowing
def plates_of_flavour(flavour: np.ndarray, f: int) -> int:
    """count_flavour: the number of plates whose top piece has flavour ``f``."""
    count = 0
    for p in range(flavour.shape[0]):
        count += flavour[p] == f
    return count


@jit_borrowing
def neighbours_of_flavour(flavour: np.ndarray, f: int) -> bool:
    """adjacent: whether two neighbouring plates (p, p + 1) both have flavour ``f`` on top."""
    # Counted rather than returned early: Numba compiles no any(generator), and three
    # neighbour pairs gain nothing from an early exit.
    pairs = 0
    for p in range(flavour.shape[0] - 1):
        pairs += flavour[p] == f and flavour[p + 1] == f
    return pairs > 0


@jit_borrowing
def apart(flavour: np.ndarray, f: int) -> bool:
    """apart: at least two plates have flavour ``f`` and no two of them are neighbours."""
    return plates_of_flavour(flavour, f) >= 2 and not neighbours_of_flavour(flavour, f)


@jit_borrowing
def distinct_flavours(flavour: np.ndarray) -> int:
    """distinct_flavours: how many different flavours the top pieces show (Sachertorte: none)."""
    seen = 0
    for p in range(flavour.shape[0]):
        if flavour[p] != NO_FLAVOUR:
            seen |= 1 << flavour[p]
    count = 0
    while seen:
        count += seen & 1
        seen >>= 1
    return count


@jit_borrowing
def candle_sum(candles: np.ndarray) -> int:
    """candle_sum: the candles of the top pieces added up (the Sachertorte adds 0)."""
    total = 0
    for p in range(candles.shape[0]):
        total += candles[p]
    return total


@jit_borrowing
def all_of_parity(candles: np.ndarray, parity: int) -> bool:
    """all_even (parity 0) / all_odd (parity 1): every top piece's candles have that parity."""
    others = 0
    for p in range(candles.shape[0]):
        others += candles[p] % 2 != parity
    return others == 0


@jit_borrowing
def ascending(candles: np.ndarray) -> bool:
    """ascending: every plate's top piece has more candles than the one on its left."""
    falls = 0
    for p in range(1, candles.shape[0]):
        falls += candles[p] <= candles[p - 1]
    return falls == 0


@jit_borrowing
def most_same_candles(candles: np.ndarray) -> int:
    """same_candles: the most plates whose top pieces share one candle count."""
    most = 0
    for p in range(candles.shape[0]):
        same = 0
        for q in range(candles.shape[0]):
            same += candles[q] == candles[p]
        most = max(most, same)
    return most


@jit_borrowing
def longest_run(candles: np.ndarray) -> int:
    """run: the most neighbouring plates whose candles go up, or down, by exactly 1 each step."""
    longest = up = down = 1
    for p in range(1, candles.shape[0]):
        step = candles[p] - candles[p - 1]
        up = up + 1 if step == 1 else 1
        down = down + 1 if step == -1 else 1
        longest = max(longest, up, down)
    return longest


@jit_borrowing
def term_met(op: int, cmp: int, x: int, y: int, flavour: np.ndarray,
             candles: np.ndarray) -> bool:
    """Whether the term (op, cmp, x, y) holds for the top pieces' flavours and candles."""
    if op == COUNT_FLAVOUR:
        return compare(cmp, plates_of_flavour(flavour, x), y)
    if op == ADJACENT:
        return neighbours_of_flavour(flavour, x)
    if op == APART:
        return apart(flavour, x)
    if op == DISTINCT_FLAVOURS:
        return compare(cmp, distinct_flavours(flavour), y)
    if op == CANDLE_SUM:
        return compare(cmp, candle_sum(candles), y)
    if op == ALL_EVEN:
        return all_of_parity(candles, 0)
    if op == ALL_ODD:
        return all_of_parity(candles, 1)
    if op == ASCENDING:
        return ascending(candles)
    if op == SAME_CANDLES:
        return compare(cmp, most_same_candles(candles), y)
    if op == RUN:
        return longest_run(candles) >= y
    return True


@jit_borrowing
def card_met(program: np.ndarray, card: int, flavour: np.ndarray, candles: np.ndarray) -> bool:
    """Whether order card ``card`` is met by the top pieces (one flavour and count per plate)."""
    for t in range(program.shape[1]):
        op = program[card, t, 0]
        if op == NONE:
            break  # unused rows fill the end of a card's terms
        if not term_met(op, program[card, t, 1], program[card, t, 2], program[card, t, 3],
                        flavour, candles):
            return False
    return True


@jit
def met_table(program: np.ndarray, plates: int, piece_types: int) -> np.ndarray:
    """uint64 (piece_types**plates, words): bit c%64 of word c//64 set when board meets card c.

    Board code b = sum over plates p of t_p * piece_types**(plates-1-p): plate 0 most
    significant. ``piece_types`` 28 leaves the Sachertorte (the last type) out.
    """
    cards = program.shape[0]
    table = np.zeros((piece_types ** plates, (cards + 63) // 64), dtype=np.uint64)
    flavour = np.empty(plates, dtype=np.int8)
    candles = np.empty(plates, dtype=np.int8)
    for board in range(table.shape[0]):
        code = board
        for p in range(plates - 1, -1, -1):
            t = code % piece_types
            code //= piece_types
            flavour[p] = flavour_of(t)
            candles[p] = candles_of(t)
        for card in range(cards):
            if card_met(program, card, flavour, candles):
                table[board, card // 64] |= np.uint64(1) << np.uint64(card % 64)
    return table


# --- exact base rates ----------------------------------------------------------------

@lru_cache(maxsize=4)
def boards_met(catalogue: Catalogue, plates: int = 4) -> np.ndarray:
    """The catalogue's read-only ``met_table`` over every board of all 29 piece types, kept."""
    table = met_table(catalogue.program, plates, PIECE_TYPES)
    table.flags.writeable = False
    return table


def board_weights(counts: np.ndarray, plates: int) -> np.ndarray:
    """int64 per board code: the ordered draws from the box ``counts`` that deal that board.

    Drawing plate by plate, plate p's type t has ``counts[t]`` minus the t already drawn
    for plates before p left; the product over plates is the product of falling counts.
    """
    types = len(counts)
    digits = np.unravel_index(np.arange(types ** plates), (types,) * plates)
    weights = np.ones(types ** plates, dtype=np.int64)
    for p, digit in enumerate(digits):
        drawn_before = sum((digits[q] == digit for q in range(p)), np.zeros_like(digit))
        weights *= np.maximum(counts[digit] - drawn_before, 0)
    return weights


def base_rates(catalogue: Catalogue, pieces: np.ndarray, plates: int = 4) -> dict[str, Fraction]:
    """Exact chance per card id that ``plates`` tops drawn without replacement meet it.

    ``pieces`` counts the box's pieces per piece type (``pieces.piece_counts``).
    """
    counts = np.asarray(pieces, dtype=np.int64)
    if counts.shape != (PIECE_TYPES,):
        raise ValueError(f"pieces must count each of the {PIECE_TYPES} piece types")
    table = boards_met(catalogue, plates)
    weights = board_weights(counts, plates)
    total = math.perm(int(counts.sum()), plates)
    rates = {}
    for c, card in enumerate(catalogue.cards):
        met = ((table[:, c // 64] >> np.uint64(c % 64)) & np.uint64(1)) == 1
        rates[card.id] = Fraction(int(weights[met].sum()), total)
    return rates


def base_rate_table(catalogue: Catalogue, sacher: bool = True, *, flavours: int = len(FLAVOURS),
                    candles: range = range(1, 8), copies: int = 2,
                    plates: int = 4) -> pd.DataFrame:
    """id, family, tier, base_rate (and base_rate_with_sacher if ``sacher``), text_en."""
    columns = {"id": [card.id for card in catalogue.cards],
               "family": [card.family for card in catalogue.cards],
               "tier": [card.tier for card in catalogue.cards]}
    boxes = [("base_rate", False)] + ([("base_rate_with_sacher", True)] if sacher else [])
    for name, with_sacher in boxes:
        rates = base_rates(catalogue, piece_counts(flavours, candles, copies, with_sacher), plates)
        columns[name] = [float(rate) for rate in rates.values()]
    columns["text_en"] = [card.text_en for card in catalogue.cards]
    return pd.DataFrame(columns)


TIER_1_RATE = 0.12
"""A card met by at least this share of random boards is tier 1 (easy)."""
TIER_2_RATE = 0.03
"""... at least this share (below TIER_1_RATE) tier 2; rarer cards are tier 3 (hard)."""


def default_tier(base_rate: float) -> int:
    """The difficulty tier a card's base rate (without Sachertorte) suggests: 1 easy .. 3 hard."""
    if base_rate >= TIER_1_RATE:
        return 1
    return 2 if base_rate >= TIER_2_RATE else 3


# --- the catalogue file --------------------------------------------------------------

def load_catalogue(path: str | Path | None = None, *, plates: int = 4,
                   max_candles: int = CANDLE_CODES) -> Catalogue:
    """Read and validate an order-card catalogue (default: the package's ``cards.toml``)."""
    path = Path(path) if path is not None else DEFAULT_CATALOGUE
    return parse_catalogue(read_toml(path, "card catalogue"), str(path), plates, max_candles)


def parse_catalogue(data: dict, source: str, plates: int = 4,
                    max_candles: int = CANDLE_CODES) -> Catalogue:
    """Validate a parsed catalogue table; value ranges are checked for ``plates`` plates."""
    top = Table(data, source)
    top.only(["cards"])
    tables = _card_tables(top)
    plain = {}
    for card in tables:
        if card.get("family", str, choices=FAMILIES) != "regular_guest":
            plain[card.data["id"]] = _card(card, _terms(card, plates, max_candles))
    ids = [card.data["id"] for card in tables]
    cards = tuple(plain[card_id] if card_id in plain else _regular_guest(card, plain, ids)
                  for card_id, card in zip(ids, tables, strict=True))
    return Catalogue(cards, source)


def _card_tables(top: Table) -> list[Table]:
    entries = top.get("cards", list)
    if not entries:
        raise top.error("cards", "must list at least one [[cards]] entry")
    tables, seen = [], set()
    for index, entry in enumerate(entries):
        card_id = Table(entry, top.source, f"cards[{index}]").get("id", str)
        card = Table(entry, top.source, f"cards[{index}] ({card_id})")
        if card_id in seen:
            raise card.error("id", f"{card_id!r} is used by an earlier card; ids must be unique")
        seen.add(card_id)
        tables.append(card)
    return tables


def _card(card: Table, terms: tuple[Term, ...], all_of: tuple[str, ...] = ()) -> Card:
    family = card.get("family", str, choices=FAMILIES)
    card.only((*CARD_KEYS, "all_of" if family == "regular_guest" else "when"))
    texts = []
    for name in ("text_de", "text_en"):
        text = card.get(name, str)
        if not text.strip():
            raise card.error(name, "must not be empty: the exact text the card shows")
        texts.append(text)
    return Card(card.get("id", str), family, card.int_in("tier", 1, 3), *texts, terms, all_of)


def _terms(card: Table, plates: int, max_candles: int) -> tuple[Term, ...]:
    entries = card.get("when", list)
    if not 1 <= len(entries) <= MAX_TERMS:
        raise card.error("when", f"{len(entries)} terms; a card has 1 to {MAX_TERMS}")
    terms = tuple(_term(Table(entry, card.source, card.key(f"when[{j}]")), plates, max_candles)
                  for j, entry in enumerate(entries))
    flavour_terms = sum(term.op in FLAVOUR_OPS for term in terms)
    family = card.get("family", str)
    wanted = {"flavours": flavour_terms == len(terms), "candles": flavour_terms == 0,
              "mixed": 0 < flavour_terms < len(terms)}
    if not wanted[family]:
        flavour_ops = ", ".join(OP_NAMES[op] for op in FLAVOUR_OPS)
        raise card.error("when", f"a {family} card needs {FAMILY_TERMS[family]} (flavour ops: "
                                 f"{flavour_ops}; every other op is a candle op)")
    return terms


def _term(term: Table, plates: int, max_candles: int) -> Term:
    name = term.get("op", str, choices=OP_KEYS)
    keys = OP_KEYS[name]
    term.only(("op", *keys))
    op = OP_NAMES.index(name)
    flavour = _flavour(term) if "flavour" in keys else 0
    if "length" in keys:
        return Term(op, NO_CMP, flavour, term.int_in("length", 2, plates))
    if "cmp" not in keys:
        return Term(op, NO_CMP, flavour)
    cmp = CMP_SYMBOLS.index(term.get("cmp", str, choices=CMP_SYMBOLS[1:]))
    low, high = {COUNT_FLAVOUR: (0, plates), DISTINCT_FLAVOURS: (1, min(plates, len(FLAVOURS))),
                 CANDLE_SUM: (0, plates * max_candles), SAME_CANDLES: (1, plates)}[op]
    value = term.int_in("value", low, high)
    if (cmp, value) in ((GE, low), (LE, high)):
        raise term.error("value", f"'{CMP_SYMBOLS[cmp]} {value}' is always met: {name} is "
                                  f"{low} to {high} on {plates} plates")
    return Term(op, cmp, flavour, value)


def _flavour(term: Table) -> int:
    name = term.get("flavour", str)
    if flavour_code(name) < 0:
        raise term.error("flavour", f"{name!r} is not allowed; allowed values: "
                                    f"{', '.join(FLAVOURS)}")
    return flavour_code(name)


def _regular_guest(card: Table, plain: dict[str, Card], ids: list[str]) -> Card:
    all_of = card.get("all_of", list)
    if len(all_of) != 2 or not all(isinstance(part, str) for part in all_of) or (
            all_of[0] == all_of[1]):
        raise card.error("all_of", "must name two different card ids; a regular guest has "
                                   "two conditions")
    for part in all_of:
        if part not in plain:
            kind = "a regular-guest card" if part in ids else "not a card id"
            raise card.error("all_of", f"{part!r} is {kind}; allowed values: cards of the "
                                       f"other families: {', '.join(plain)}")
    terms = plain[all_of[0]].terms + plain[all_of[1]].terms
    if len(terms) > MAX_TERMS:
        raise card.error("all_of", f"{all_of[0]} and {all_of[1]} have {len(terms)} terms in "
                                   f"all; a card has at most {MAX_TERMS}")
    return _card(card, terms, tuple(all_of))
