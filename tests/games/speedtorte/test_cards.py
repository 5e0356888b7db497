"""The order-card language: every op on hand-made boards, the catalogue, exact base rates."""

import math
import tomllib
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.engine.errors import InputError
from cakesim.engine.jit import plain_python
from cakesim.games.speedtorte.card_tools import check_card, list_cards, parse_tops
from cakesim.games.speedtorte.cards import (
    DEFAULT_CATALOGUE,
    FAMILIES,
    FLAVOUR_OPS,
    OP_NAMES,
    base_rate_table,
    base_rates,
    boards_met,
    card_met,
    default_tier,
    load_catalogue,
    parse_catalogue,
)
from cakesim.games.speedtorte.pieces import (
    NO_FLAVOUR,
    PIECE_TYPES,
    SACHER,
    candles_of,
    flavour_of,
    parse_piece,
    piece_counts,
    piece_name,
    piece_type,
)

CATALOGUE = load_catalogue()
DOCS = Path(__file__).parents[3] / "docs" / "speedtorte_cards.md"


def shipped() -> dict:
    """The shipped catalogue as parsed TOML, to be spoiled by a test."""
    return tomllib.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))


def met(when: list[dict], tops: str) -> bool:
    """Whether a one-card catalogue with terms ``when`` is met by ``tops``."""
    flavour_terms = sum(OP_NAMES.index(term["op"]) in FLAVOUR_OPS for term in when)
    family = ("candles", "mixed", "flavours")[(flavour_terms > 0) + (flavour_terms == len(when))]
    card = {"id": "T01", "family": family, "tier": 1, "text_de": "x", "text_en": "x",
            "when": when}
    program = parse_catalogue({"cards": [card]}, "test.toml").program
    return bool(card_met(program, 0, *board(tops)))


def board(tops: str) -> tuple[np.ndarray, np.ndarray]:
    """Flavour and candle arrays of "strawberry:3,apricot:4,..."."""
    pieces = parse_tops(tops)
    return (np.array([f for f, _ in pieces], dtype=np.int8),
            np.array([c for _, c in pieces], dtype=np.int8))


def count(flavour: str, cmp: str, value: int) -> dict:
    return {"op": "count_flavour", "flavour": flavour, "cmp": cmp, "value": value}


def amount(op: str, cmp: str, value: int) -> dict:
    return {"op": op, "cmp": cmp, "value": value}


# --- pieces --------------------------------------------------------------------------

def test_piece_types_round_trip():
    assert PIECE_TYPES == 29 and SACHER == 28
    for t in range(PIECE_TYPES):
        assert piece_type(flavour_of(t), candles_of(t)) == t
    assert (flavour_of(SACHER), candles_of(SACHER)) == (NO_FLAVOUR, 0)
    assert piece_type(2, 5) == 2 * 7 + 4


@pytest.mark.parametrize(("text", "piece"), [
    ("strawberry:3", (0, 3)), ("Heidelbeere:7", (3, 7)), (" PISTAZIE:1", (2, 1)),
    ("sacher", (NO_FLAVOUR, 0)), ("Sachertorte", (NO_FLAVOUR, 0)),
])
def test_parse_piece(text, piece):
    assert parse_piece(text) == piece


@pytest.mark.parametrize("text", ["mango:3", "strawberry:0", "strawberry:8", "strawberry",
                                  "apricot:x"])
def test_bad_piece_names_the_text_and_the_allowed_values(text):
    with pytest.raises(InputError) as error:
        parse_piece(text)
    assert error.value.key == text and "blueberry" in str(error.value) and "sacher" in str(
        error.value)


def test_piece_names_and_box():
    assert piece_name(0, 3) == "strawberry 3" and piece_name(NO_FLAVOUR, 0) == "Sachertorte"
    assert piece_counts().sum() == 56 and piece_counts(sacher=True).sum() == 57
    assert piece_counts(flavours=3, candles=range(1, 6), copies=1).sum() == 15


# --- every op on hand-made boards ----------------------------------------------------

S3 = "strawberry:3"
CASES = [
    # count_flavour: exactly means exactly, three strawberries fail "exactly two".
    ([count("strawberry", "==", 2)], "strawberry:3,strawberry:4,apricot:4,blueberry:7", True),
    ([count("strawberry", "==", 2)], "strawberry:3,strawberry:4,apricot:4,strawberry:7", False),
    ([count("strawberry", ">=", 2)], "strawberry:3,strawberry:4,apricot:4,strawberry:7", True),
    ([count("strawberry", "<=", 1)], "strawberry:3,strawberry:4,apricot:4,blueberry:7", False),
    ([count("strawberry", "==", 0)], "sacher,apricot:4,apricot:4,blueberry:7", True),
    # adjacent: two neighbouring plates; more of the flavour elsewhere does not matter.
    ([{"op": "adjacent", "flavour": "apricot"}], "apricot:1,apricot:2,pistachio:3,apricot:4",
     True),
    ([{"op": "adjacent", "flavour": "apricot"}], "apricot:1,pistachio:2,apricot:3,pistachio:4",
     False),
    # apart: at least two plates of the flavour, no two of them neighbours.
    ([{"op": "apart", "flavour": "pistachio"}], "pistachio:1,apricot:2,apricot:3,pistachio:4",
     True),
    ([{"op": "apart", "flavour": "pistachio"}], "pistachio:1,apricot:2,pistachio:3,pistachio:4",
     False),
    ([{"op": "apart", "flavour": "pistachio"}], "pistachio:1,apricot:2,apricot:3,apricot:4",
     False),
    # distinct_flavours
    ([amount("distinct_flavours", "==", 4)], "strawberry:1,apricot:1,pistachio:1,blueberry:1",
     True),
    ([amount("distinct_flavours", "==", 2)], "strawberry:1,apricot:1,strawberry:2,apricot:2",
     True),
    ([amount("distinct_flavours", ">=", 3)], "strawberry:1,apricot:1,strawberry:2,apricot:2",
     False),
    ([amount("distinct_flavours", "<=", 2)], "strawberry:1,apricot:1,pistachio:2,apricot:2",
     False),
    # candle_sum
    ([amount("candle_sum", "==", 18)], "strawberry:3,apricot:4,pistachio:4,blueberry:7", True),
    ([amount("candle_sum", ">=", 19)], "strawberry:3,apricot:4,pistachio:4,blueberry:7", False),
    ([amount("candle_sum", "<=", 18)], "strawberry:3,apricot:4,pistachio:4,blueberry:7", True),
    # all_even, all_odd
    ([{"op": "all_even"}], "strawberry:2,apricot:4,pistachio:6,blueberry:2", True),
    ([{"op": "all_even"}], "strawberry:2,apricot:4,pistachio:6,blueberry:3", False),
    ([{"op": "all_odd"}], "strawberry:1,apricot:3,pistachio:5,blueberry:7", True),
    ([{"op": "all_odd"}], "strawberry:1,apricot:3,pistachio:5,blueberry:6", False),
    # ascending: strictly more candles on every plate than on the one to its left.
    ([{"op": "ascending"}], "strawberry:1,apricot:3,pistachio:5,blueberry:7", True),
    ([{"op": "ascending"}], "strawberry:3,apricot:4,pistachio:4,blueberry:7", False),
    ([{"op": "ascending"}], "strawberry:7,apricot:5,pistachio:3,blueberry:1", False),
    # same_candles: the most plates sharing one candle count.
    ([amount("same_candles", ">=", 2)], "strawberry:3,apricot:5,pistachio:6,blueberry:3", True),
    ([amount("same_candles", ">=", 3)], "strawberry:3,apricot:5,pistachio:5,blueberry:3", False),
    ([amount("same_candles", "<=", 1)], "strawberry:3,apricot:5,pistachio:6,blueberry:7", True),
    ([amount("same_candles", "==", 4)], "strawberry:2,apricot:2,pistachio:2,blueberry:2", True),
    # run: consecutive candles on neighbouring plates, rising or falling.
    ([{"op": "run", "length": 3}], "strawberry:7,apricot:3,pistachio:4,blueberry:5", True),
    ([{"op": "run", "length": 3}], "strawberry:5,apricot:4,pistachio:3,blueberry:7", True),
    ([{"op": "run", "length": 3}], "strawberry:3,apricot:4,pistachio:7,blueberry:5", False),
    ([{"op": "run", "length": 3}], "strawberry:3,apricot:4,pistachio:3,blueberry:4", False),
    ([{"op": "run", "length": 4}], "strawberry:2,apricot:3,pistachio:4,blueberry:5", True),
    # AND of terms
    ([count("blueberry", "==", 2), {"op": "adjacent", "flavour": "blueberry"}],
     "blueberry:1,blueberry:2,pistachio:3,apricot:4", True),
    ([count("blueberry", "==", 2), {"op": "adjacent", "flavour": "blueberry"}],
     "blueberry:1,pistachio:2,blueberry:3,apricot:4", False),
]


@pytest.mark.parametrize(("when", "tops", "expected"), CASES)
def test_op_on_hand_made_board(when, tops, expected):
    assert met(when, tops) is expected


SACHER_CASES = [
    # No flavour: never counted for a flavour, never a distinct flavour.
    ([count("strawberry", "==", 2)], "sacher,strawberry:1,strawberry:2,apricot:3", True),
    ([count("strawberry", "==", 3)], "sacher,strawberry:1,strawberry:2,apricot:3", False),
    ([amount("distinct_flavours", "==", 2)], "sacher,strawberry:1,strawberry:2,apricot:3", True),
    ([amount("distinct_flavours", "==", 4)], "sacher,strawberry:1,pistachio:2,apricot:3", False),
    ([{"op": "adjacent", "flavour": "strawberry"}], "strawberry:1,sacher,strawberry:2,apricot:3",
     False),
    ([{"op": "apart", "flavour": "strawberry"}], "strawberry:1,sacher,strawberry:2,apricot:3",
     True),
    # 0 candles: adds 0, is even, is no odd count, is less than 1, continues a run 0-1-2.
    ([amount("candle_sum", "==", 6)], "sacher,strawberry:1,strawberry:2,apricot:3", True),
    ([{"op": "all_even"}], "sacher,strawberry:2,strawberry:4,apricot:6", True),
    ([{"op": "all_odd"}], "sacher,strawberry:1,strawberry:3,apricot:5", False),
    ([{"op": "ascending"}], "sacher,strawberry:1,strawberry:2,apricot:3", True),
    ([{"op": "ascending"}], "strawberry:1,sacher,strawberry:2,apricot:3", False),
    ([{"op": "run", "length": 3}], "sacher,strawberry:1,strawberry:2,apricot:7", True),
    ([amount("same_candles", ">=", 2)], "sacher,strawberry:1,strawberry:2,apricot:3", False),
]


@pytest.mark.parametrize(("when", "tops", "expected"), SACHER_CASES)
def test_sachertorte_rules(when, tops, expected):
    assert met(when, tops) is expected


# --- compiled, plain Python and the table agree --------------------------------------

BOARDS = st.lists(st.integers(0, PIECE_TYPES - 1), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(BOARDS)
def test_compiled_and_python_agree_on_random_boards(types):
    flavour = np.array([flavour_of(t) for t in types], dtype=np.int8)
    candles = np.array([candles_of(t) for t in types], dtype=np.int8)
    program = CATALOGUE.program
    python = plain_python(card_met)
    for card in range(len(CATALOGUE.cards)):
        compiled = card_met(program, card, flavour, candles)
        assert card_met.py_func(program, card, flavour, candles) == compiled
        assert python(program, card, flavour, candles) == compiled
        assert card_met(program, card, flavour.astype(np.int64),
                        candles.astype(np.int64)) == compiled


def test_met_table_agrees_with_card_met():
    table = boards_met(CATALOGUE)
    assert table.shape == (PIECE_TYPES ** 4, 1) and table.dtype == np.uint64
    rng = np.random.default_rng(3)
    for code in rng.integers(0, PIECE_TYPES ** 4, 300):
        types = np.unravel_index(code, (PIECE_TYPES,) * 4)  # plate 0 most significant
        flavour = np.array([flavour_of(int(t)) for t in types], dtype=np.int8)
        candles = np.array([candles_of(int(t)) for t in types], dtype=np.int8)
        for card in range(len(CATALOGUE.cards)):
            bit = bool((int(table[code, card // 64]) >> (card % 64)) & 1)
            assert bit == card_met(CATALOGUE.program, card, flavour, candles)


# --- exact base rates ----------------------------------------------------------------

@cache
def rates(sacher: bool) -> dict[str, Fraction]:
    return base_rates(CATALOGUE, piece_counts(sacher=sacher))


def rate(card_id: str, sacher: bool) -> Fraction:
    return rates(sacher)[card_id]


def test_base_rates_by_hand():
    ordered = math.perm
    # 32 of the 56 pieces have odd candles (1, 3, 5, 7); the Sachertorte's 0 is even.
    assert rate("C08", False) == Fraction(ordered(32, 4), ordered(56, 4))
    assert rate("C08", True) == Fraction(ordered(32, 4), ordered(57, 4))
    assert rate("C07", False) == Fraction(ordered(24, 4), ordered(56, 4))
    assert rate("C07", True) == Fraction(ordered(25, 4), ordered(57, 4))
    # Two of the 14 strawberries and two of the 42 (43 with the Sachertorte) others.
    assert rate("F01", False) == Fraction(math.comb(14, 2) * math.comb(42, 2), math.comb(56, 4))
    assert rate("F01", True) == Fraction(math.comb(14, 2) * math.comb(43, 2), math.comb(57, 4))
    # Four different flavours: 14 choices per plate, any order of the flavours.
    assert rate("F13", False) == Fraction(math.factorial(4) * 14 ** 4, ordered(56, 4))


def test_base_rate_against_monte_carlo():
    counts = piece_counts(sacher=True)
    box = np.repeat(np.arange(PIECE_TYPES), counts)
    rng = np.random.default_rng(7)
    draws = box[np.argsort(rng.random((20_000, len(box))), axis=1)[:, :4]]
    codes = draws @ PIECE_TYPES ** np.arange(3, -1, -1)
    table = boards_met(CATALOGUE)
    for card_id in ("C13", "M01", "F10"):
        c = CATALOGUE.index(card_id)
        share = ((table[codes, c // 64] >> np.uint64(c % 64)) & np.uint64(1)).mean()
        exact = float(rate(card_id, sacher=True))
        assert abs(share - exact) < 4 * math.sqrt(exact * (1 - exact) / len(codes))


def test_base_rate_table_and_default_tiers():
    table = base_rate_table(CATALOGUE, sacher=True)
    assert list(table.columns) == ["id", "family", "tier", "base_rate", "base_rate_with_sacher",
                                   "text_en"]
    assert "base_rate_with_sacher" not in base_rate_table(CATALOGUE, sacher=False)
    # The shipped tiers are the base-rate defaults of docs/speedtorte_cards.md.
    assert list(table.tier) == [default_tier(r) for r in table.base_rate]


# --- the catalogue -------------------------------------------------------------------

def test_shipped_catalogue():
    families = [card.family for card in CATALOGUE.cards]
    assert len(CATALOGUE.cards) >= 40 and families.count("regular_guest") >= 6
    assert set(families) == set(FAMILIES)
    program = CATALOGUE.program
    assert program.shape == (len(CATALOGUE.cards), 4, 4) and program.dtype == np.int16
    guest = CATALOGUE.cards[CATALOGUE.index("R01")]
    parts = [CATALOGUE.cards[CATALOGUE.index(i)] for i in guest.all_of]
    assert guest.terms == parts[0].terms + parts[1].terms


def spoil(where: str, **change):
    """A change to card ``where`` of the shipped catalogue (None deletes the key)."""
    def apply(data: dict) -> None:
        card = next(c for c in data["cards"] if c["id"] == where)
        for key, value in change.items():
            if value is None:
                del card[key]
            else:
                card[key] = value
    return apply


def spoil_term(where: str, **change):
    """A change to the first term of card ``where``."""
    def apply(data: dict) -> None:
        card = next(c for c in data["cards"] if c["id"] == where)
        card["when"][0].update(change)
    return apply


def too_many_terms(data: dict) -> None:
    """R01 joins F16, given a third term, and C15: five terms."""
    spoil("F16", when=[*shipped_card("F16")["when"], count("apricot", "<=", 1)])(data)
    spoil("R01", all_of=["F16", "C15"])(data)


def shipped_card(card_id: str) -> dict:
    return next(c for c in shipped()["cards"] if c["id"] == card_id)


@pytest.mark.parametrize(("change", "key", "says"), [
    (spoil_term("C01", cmp="=>"), "(C01).when[0].cmp", "'=>' is not allowed; allowed values: "
                                                       "'==', '>=', '<='"),
    (spoil_term("F01", flavour="mango"), "(F01).when[0].flavour", "'mango' is not allowed"),
    (spoil_term("F01", colour="red"), "(F01).when[0].colour", "unknown key"),
    (spoil_term("F01", op="count"), "(F01).when[0].op", "'count' is not allowed"),
    (spoil_term("F01", value=5), "(F01).when[0].value", "5 is out of range; allowed: 0 to 4"),
    (spoil_term("C02", value=29), "(C02).when[0].value", "29 is out of range"),
    (spoil_term("C03", value=28), "(C03).when[0].value", "'<= 28' is always met"),
    (spoil_term("C13", length=5), "(C13).when[0].length", "5 is out of range; allowed: 2 to 4"),
    (spoil("F02", id="F01"), "(F01).id", "'F01' is used by an earlier card"),
    (spoil("F01", text_de=None), "(F01).text_de", "missing"),
    (spoil("F01", text_en="  "), "(F01).text_en", "must not be empty"),
    (spoil("F01", tier=4), "(F01).tier", "4 is out of range"),
    (spoil("F01", family="cakes"), "(F01).family", "'cakes' is not allowed"),
    (spoil("F01", all_of=["C01", "C02"]), "(F01).all_of", "unknown key"),
    (spoil("F01", family="candles"), "(F01).when", "a candles card needs candle terms only"),
    (spoil("M01", when=[count("apricot", "==", 1)]), "(M01).when", "both flavour and candle"),
    (spoil("F01", when=[]), "(F01).when", "0 terms; a card has 1 to 4"),
    (spoil("R01", all_of=["F13", "X99"]), "(R01).all_of", "'X99' is not a card id"),
    (spoil("R01", all_of=["F13", "R02"]), "(R01).all_of", "'R02' is a regular-guest card"),
    (spoil("R01", all_of=["F13"]), "(R01).all_of", "must name two different card ids"),
    (spoil("R01", all_of=["F13", ["C09"]]), "(R01).all_of", "must name two different card ids"),
    (too_many_terms, "(R01).all_of", "F16 and C15 have 5 terms in all; a card has at most 4"),
    (spoil("R01", when=[{"op": "ascending"}]), "(R01).when", "unknown key"),
])
def test_bad_catalogue_names_card_and_field(change, key, says):
    data = shipped()
    change(data)
    with pytest.raises(InputError) as error:
        parse_catalogue(data, "my_cards.toml")
    assert error.value.key.endswith(key), error.value.key
    assert str(error.value).startswith("my_cards.toml: cards[") and says in str(error.value)


def test_unknown_card_id_lists_the_ids():
    with pytest.raises(InputError, match="'Z01' is not a card id; allowed values: F01, F02"):
        CATALOGUE.index("Z01")


# --- the designer tools --------------------------------------------------------------

def test_check_explains_term_by_term():
    text = check_card(CATALOGUE, "F01", "strawberry:3,strawberry:4,apricot:4,strawberry:7")
    assert ("- exactly 2 plates strawberry: 3 plates are strawberry (plates 1, 2, 4); "
            "plates 1 and 2 are neighbours -> not met") in text
    assert text.endswith("F01 is not met.")
    text = check_card(CATALOGUE, "R01", "strawberry:3,apricot:4,pistachio:4,blueberry:7")
    assert "- F13: exactly 4 different flavours: 4 different flavours (strawberry, apricot, " \
           "pistachio, blueberry) -> met" in text
    assert "- C09: " in text and "plate 3 (4) has no more than plate 2 (4) -> not met" in text
    text = check_card(CATALOGUE, "C13", "sacher,Aprikose:1,pistachio:2,blueberry:7")
    assert "longest run: 3 plates (plates 1-3: 0-1-2) -> met" in text and text.endswith(
        "C13 is met.")


@pytest.mark.parametrize(("card_id", "tops", "says"), [
    ("Z01", "sacher,apricot:1,pistachio:2,blueberry:7", "'Z01' is not a card id"),
    ("F01", "sacher,apricot:1,pistachio:2", "3 pieces; allowed: one per plate, 4 in all"),
    ("F01", "sacher,apricot:9,pistachio:2,blueberry:7", "apricot:9: not a piece; allowed:"),
])
def test_check_rejects_bad_input(card_id, tops, says):
    with pytest.raises(InputError, match=says):
        check_card(CATALOGUE, card_id, tops)


def test_card_list_is_the_one_in_the_docs():
    listing = list_cards(CATALOGUE)
    assert listing.splitlines()[1].startswith("F01   flavours         1     21.33%")
    assert listing in DOCS.read_text(encoding="utf-8")
