"""Designer tools for the order cards: the catalogue as a table, and one card checked in words.

``cakesim speedtorte cards`` prints ``list_cards``; ``cakesim speedtorte check CARD_ID
--tops strawberry:3,apricot:4,pistachio:4,blueberry:7`` prints ``check_card``: whether the
card is met by those four top pieces and why, term by term.
"""

from collections import Counter

import numpy as np

from cakesim.engine.errors import InputError
from cakesim.games.speedtorte.cards import (
    ADJACENT,
    ALL_EVEN,
    ALL_ODD,
    APART,
    ASCENDING,
    CANDLE_SUM,
    COUNT_FLAVOUR,
    DISTINCT_FLAVOURS,
    EQ,
    GE,
    LE,
    RUN,
    SAME_CANDLES,
    Card,
    Catalogue,
    Term,
    base_rate_table,
    card_met,
    term_met,
)
from cakesim.games.speedtorte.pieces import FLAVOURS, NO_FLAVOUR, parse_piece, piece_name

CMP_WORDS = {EQ: "exactly", GE: "at least", LE: "at most"}
TOPS_EXAMPLE = "strawberry:3,apricot:4,pistachio:4,blueberry:7"


def list_cards(catalogue: Catalogue) -> str:
    """Every card: id, family, tier, base rate without / with Sachertorte, English text."""
    table = base_rate_table(catalogue, sacher=True)
    lines = [f"{'id':<5} {'family':<13} tier  base rate  with Sachertorte  text"]
    for row in table.itertuples():
        lines.append(f"{row.id:<5} {row.family:<13} {row.tier:>4}  {row.base_rate:>9.2%}  "
                     f"{row.base_rate_with_sacher:>16.2%}  {row.text_en}")
    return "\n".join(lines)


def check_card(catalogue: Catalogue, card_id: str, tops_text: str, plates: int = 4,
               copies: int = 2) -> str:
    """Whether card ``card_id`` is met by the tops "flavour:candles,...", and why in words."""
    index = catalogue.index(card_id)
    card = catalogue.cards[index]
    tops = parse_tops(tops_text, plates, copies)
    flavour = np.array([f for f, _ in tops], dtype=np.int8)
    candles = np.array([c for _, c in tops], dtype=np.int8)
    lines = [f"{card.id} ({card.family.replace('_', ' ')}, tier {card.tier}): {card.text_en}",
             f"{' ' * len(card.id)}  {card.text_de}",
             "tops: " + ", ".join(f"plate {p + 1} {piece_name(f, c)}"
                                  for p, (f, c) in enumerate(tops))]
    for part, term in _terms_by_part(catalogue, card):
        met = term_met(*term.row, flavour, candles)
        lines.append(f"- {part}{describe(term)}: {evidence(term, flavour, candles)} -> "
                     f"{'met' if met else 'not met'}")
    met = card_met(catalogue.program, index, flavour, candles)
    lines.append(f"{card.id} is {'met' if met else 'not met'}.")
    return "\n".join(lines)


def parse_tops(text: str, plates: int = 4, copies: int = 2) -> list[tuple[int, int]]:
    """(flavour, candles) per plate from "strawberry:3,apricot:4,..."; else an InputError.

    The tops are pieces of one box: at most ``copies`` of each flavoured piece, and the
    one Sachertorte (RULES.md section 3).
    """
    pieces = [parse_piece(piece, "--tops") for piece in text.split(",")]
    if len(pieces) != plates:
        raise InputError("--tops", text, f"{len(pieces)} pieces; allowed: one per plate, "
                                         f"{plates} in all, e.g. {TOPS_EXAMPLE}")
    for piece, count in Counter(pieces).items():
        most = 1 if piece[0] == NO_FLAVOUR else copies
        if count > most:
            raise InputError("--tops", text, f"{count} x {piece_name(*piece)}, but the box "
                                             f"holds {most}; allowed: at most {copies} of "
                                             "each flavoured piece and one Sachertorte")
    return pieces


def _terms_by_part(catalogue: Catalogue, card: Card) -> list[tuple[str, Term]]:
    """Each term with the id of the card it comes from ("F13: ") for a regular guest."""
    if not card.all_of:
        return [("", term) for term in card.terms]
    return [(f"{part}: ", term) for part in card.all_of
            for term in catalogue.cards[catalogue.index(part)].terms]


def describe(term: Term) -> str:
    """The term in words: "exactly 2 plates strawberry"."""
    flavour = FLAVOURS[term.flavour]
    amount = f"{CMP_WORDS.get(term.cmp, '')} {term.value}"
    return {
        COUNT_FLAVOUR: f"{amount} plates {flavour}",
        ADJACENT: f"{flavour} on two neighbouring plates",
        APART: f"{flavour} on at least two plates, no two of them neighbours",
        DISTINCT_FLAVOURS: f"{amount} different flavours",
        CANDLE_SUM: f"{amount} candles in all",
        ALL_EVEN: "an even number of candles on every plate",
        ALL_ODD: "an odd number of candles on every plate",
        ASCENDING: "more candles on every plate than on the one to its left",
        SAME_CANDLES: f"{amount} plates with the same number of candles",
        RUN: f"{term.value} neighbouring plates with consecutive candles, rising or falling",
    }[term.op]


def evidence(term: Term, flavour: np.ndarray, candles: np.ndarray) -> str:
    """What the top pieces show about the term: "3 plates are strawberry (plates 1, 2, 4)"."""
    if term.op in (COUNT_FLAVOUR, ADJACENT, APART):
        return _flavour_plates(flavour, term.flavour)
    if term.op == DISTINCT_FLAVOURS:
        shown = [FLAVOURS[f] for f in sorted(set(flavour.tolist()) - {NO_FLAVOUR})]
        sacher = "; the Sachertorte has no flavour" if NO_FLAVOUR in flavour else ""
        return f"{len(shown)} different flavours ({', '.join(shown) or 'none'}){sacher}"
    counts = candles.tolist()
    if term.op == CANDLE_SUM:
        return f"{' + '.join(map(str, counts))} = {sum(counts)}"
    if term.op in (ALL_EVEN, ALL_ODD):
        wrong = [p for p, c in enumerate(counts) if c % 2 != (term.op == ALL_ODD)]
        kind = "odd" if term.op == ALL_EVEN else "even"
        return (f"{kind} on {_plates(wrong)} ({', '.join(str(counts[p]) for p in wrong)})"
                if wrong else f"candles {_listed(counts)}")
    if term.op == ASCENDING:
        falls = [p for p in range(1, len(counts)) if counts[p] <= counts[p - 1]]
        return f"candles {_listed(counts)}" + "".join(
            f"; plate {p + 1} ({counts[p]}) has no more than plate {p} ({counts[p - 1]})"
            for p in falls)
    if term.op == SAME_CANDLES:
        count, most = Counter(counts).most_common(1)[0]
        shared = [p for p, c in enumerate(counts) if c == count]
        return (f"candles {_listed(counts)}; most plates with one count: {most} "
                f"({count} candle{'s' if count != 1 else ''} on {_plates(shared)})")
    first, last = _longest_run(counts)
    return (f"candles {_listed(counts)}; longest run: {last - first + 1} plates "
            f"(plates {first + 1}-{last + 1}: {'-'.join(map(str, counts[first:last + 1]))})")


def _flavour_plates(flavour: np.ndarray, f: int) -> str:
    """Which plates show flavour ``f``, and the neighbours among them."""
    plates = [p for p, shown in enumerate(flavour.tolist()) if shown == f]
    neighbours = [p for p in plates if p + 1 in plates]
    pairs = "; ".join(f"plates {p + 1} and {p + 2} are neighbours" for p in neighbours)
    if not plates:
        return f"no plate is {FLAVOURS[f]}"
    said = f"{len(plates)} plate{'s are' if len(plates) > 1 else ' is'} {FLAVOURS[f]}"
    return f"{said} ({_plates(plates)})" + (f"; {pairs}" if pairs else "")


def _longest_run(counts: list[int]) -> tuple[int, int]:
    """First and last plate of the longest stretch stepping by +1 or by -1 (first one wins)."""
    best = (0, 0)
    for step in (1, -1):
        first = 0
        for p in range(1, len(counts)):
            if counts[p] - counts[p - 1] != step:
                first = p
            if p - first > best[1] - best[0]:
                best = (first, p)
    return best


def _plates(plates: list[int]) -> str:
    """ "plate 2" or "plates 1, 2, 4" (0-based in, 1-based out)."""
    return f"plate{'s' if len(plates) > 1 else ''} {', '.join(str(p + 1) for p in plates)}"


def _listed(counts: list[int]) -> str:
    return ", ".join(map(str, counts))
