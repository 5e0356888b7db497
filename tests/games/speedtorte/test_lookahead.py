"""The bakers' look-up tables agree with the met table they are built from."""

import numpy as np

from cakesim.games.speedtorte.lookahead import lookahead_tables
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.rules import load_rules


def test_one_away_on_a_plate_is_a_piece_there_that_meets_the_card():
    rules = load_rules()
    plates = rules.plates
    met, one_away, one_away_on = lookahead_tables(rules.catalogue.program, plates,
                                                  PIECE_TYPES)
    assert one_away_on.shape == (PIECE_TYPES ** plates, plates, met.shape[1])
    for board in np.random.default_rng(3).integers(0, met.shape[0], 300):
        tops = [(board // PIECE_TYPES ** (plates - 1 - p)) % PIECE_TYPES for p in range(plates)]
        joined = np.zeros(met.shape[1], np.uint64)
        for p in range(plates):
            weight = PIECE_TYPES ** (plates - 1 - p)
            expected = np.zeros(met.shape[1], np.uint64)
            for kind in range(PIECE_TYPES):
                if kind != tops[p]:
                    expected |= met[board + (kind - tops[p]) * weight]
            assert np.array_equal(one_away_on[board, p], expected)
            joined |= expected
        assert np.array_equal(one_away[board], joined)
