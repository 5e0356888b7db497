"""The bakers' card-major look-up tables agree with the met table of every board."""

import numpy as np

from cakesim.games.speedtorte.cards import boards_met
from cakesim.games.speedtorte.lookahead import (
    is_met,
    lookahead_tables,
    plate_bits,
    plates_missing,
)
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.rules import load_rules


def met_cards(met: np.ndarray, board: int, cards: int) -> set[int]:
    """The cards whose bit is set in ``board``'s row of a board-major met table."""
    return {c for c in range(cards) if (int(met[board, c >> 6]) >> (c & 63)) & 1}


def test_look_ups_agree_with_the_met_table_of_every_changed_plate():
    rules = load_rules()
    plates, cards = rules.plates, len(rules.catalogue.cards)
    met = boards_met(rules.catalogue, plates)
    card_gaps, card_plates = lookahead_tables(rules.catalogue.program, plates, PIECE_TYPES)
    assert card_gaps.shape[0] == card_plates.shape[0] == cards
    boards = np.random.default_rng(3).integers(0, met.shape[0], 300)
    # The last board code sits in the tables' last words: no code falls off the end.
    for board in [*map(int, boards), met.shape[0] - 1]:
        tops = [(board // PIECE_TYPES ** (plates - 1 - p)) % PIECE_TYPES for p in range(plates)]
        near = set()
        for p in range(plates):
            weight = PIECE_TYPES ** (plates - 1 - p)
            on_plate = set().union(*(met_cards(met, board + (kind - tops[p]) * weight, cards)
                                     for kind in range(PIECE_TYPES) if kind != tops[p]))
            assert on_plate == {c for c in range(cards)
                                if (plate_bits(card_plates, board, c) >> p) & 1}
            near |= on_plate
        now = met_cards(met, board, cards)
        assert now == {c for c in range(cards) if is_met(card_gaps, board, c)}
        expected = [0 if c in now else 1 if c in near else 2 for c in range(cards)]
        assert [plates_missing(card_gaps, board, c) for c in range(cards)] == expected
