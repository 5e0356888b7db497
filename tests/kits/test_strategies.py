"""The strategy record made from a declared spec: parse, describe, vectors, arrays."""

import dataclasses
import pickle

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import resolved_strategy
from cakesim.engine.tables import Table
from cakesim.kits.strategies import Code, StrategySpec, WeightedStrategy

MOVES = {"random": 0, "greedy": 1, "search": 2}
SPEC = StrategySpec(
    codes={"mover": Code(MOVES, "greedy", "mover"),
           "bidder": Code({"random": 0, "low": 1, "high": 2, "search": 3}, "low", "bidder",
                          follows=("mover", {"random": "random", "search": "search"}))},
    parameters={"greed": (1.0, (0.0, 10.0), "weight of points"),
                "spite": (0.0, (-5.0, 5.0), "weight of the others' points"),
                "tries": (8.0, (1.0, 64.0), "search: tries per move")},
    uniform="plays at random", search_parameters=("tries",), whole=("tries",))
Player = SPEC.record("Player", __name__)
PACKED = dataclasses.replace(SPEC, codes_in_params=True)
Packed = PACKED.record("Packed", __name__)


def _parse(record, data: dict):
    return record.parse("p", Table(data, "exp.toml", "strategies.p"))


def _error(record, data: dict) -> str:
    with pytest.raises(InputError) as caught:
        _parse(record, data)
    return str(caught.value)


def test_the_record_has_the_games_own_fields_and_stays_a_frozen_picklable_dataclass():
    player = Player("p", bidder="high", weights=(("spite", 1.0),))
    assert isinstance(player, WeightedStrategy)
    assert [f.name for f in dataclasses.fields(player)] == ["name", "mover", "bidder", "weights"]
    assert Player("q").mover == "greedy" and Player("q").bidder == "low"
    with pytest.raises(dataclasses.FrozenInstanceError):
        player.name = "other"
    assert pickle.loads(pickle.dumps(player)) == player
    # A digest reads the game's own field names and every vector, defaults filled in.
    assert resolved_strategy(player) == {
        "name": "p", "mover": "greedy", "bidder": "high", "weights": [["spite", float.hex(1.0)]],
        "codes": [1, 2], "params": [1.0, 1.0, 8.0]}


def test_vectors_and_arrays_are_what_the_kernel_reads():
    players = [Player("a"), Player("b", "random", "high", (("tries", 2.0),))]
    assert players[1].codes.dtype == np.int8 and players[1].codes.tolist() == [0, 2]
    assert players[1].params.dtype == np.float64
    assert players[1].params.tolist() == [1.0, 0.0, 2.0]
    assert list(players[0].vectors()) == ["codes", "params"]
    codes, params = Player.arrays(players)
    assert codes.shape == (2, 2) and codes.dtype == np.int8
    assert params.shape == (2, 3) and params[1, SPEC.index("tries")] == 2.0
    assert players[1].all_weights() == {"greed": 1.0, "spite": 0.0, "tries": 2.0}


def test_codes_may_lead_the_parameter_row():
    packed = Packed("a", "search", weights=(("greed", 3.0),))
    assert list(packed.vectors()) == ["params"]
    assert packed.params.tolist() == [2.0, 1.0, 3.0, 0.0, 8.0]
    (rows,) = Packed.arrays([packed, Packed("b")])
    assert rows.shape == (2, 5) and rows[0, PACKED.index("greed")] == 3.0
    assert PACKED.index("greed") == SPEC.index("greed") + 2
    assert packed.all_weights() == {"greed": 3.0, "spite": 0.0, "tries": 8.0}


def test_parse_fills_defaults_and_follows_an_earlier_code():
    assert _parse(Player, {}) == Player("p")
    assert _parse(Player, {"mover": "random"}).bidder == "random"
    assert _parse(Player, {"mover": "search"}).bidder == "search"
    assert _parse(Player, {"mover": "random", "bidder": "high"}).bidder == "high"
    assert _parse(Player, {"spite": -2, "tries": 3}).weights == (("spite", -2.0), ("tries", 3.0))


def test_parse_errors_name_the_file_the_key_and_what_is_allowed():
    assert _error(Player, {"greedy": 1.0}) == (
        "exp.toml: strategies.p.greedy: unknown key; allowed keys: mover, bidder, greed, "
        "spite, tries")
    assert _error(Player, {"bidder": "medium"}) == (
        "exp.toml: strategies.p.bidder: 'medium' is not allowed; allowed values: 'random', "
        "'low', 'high', 'search'")
    assert _error(Player, {"spite": 6.0}) == (
        "exp.toml: strategies.p.spite: 6 is not allowed; allowed: -5 to 5")
    assert _error(Player, {"tries": 2.5}) == (
        "exp.toml: strategies.p.tries: 2.5 is not allowed; allowed: a whole number 1 to 64")
    assert "must be a string" in _error(Player, {"mover": 1})


def test_describe_words_codes_and_weights():
    assert Player("p").describe() == "greedy mover, low bidder (greed=1, spite=0)"
    assert Player("p", "search", "high").describe() == (
        "search mover, high bidder (greed=1, spite=0, tries=8)")
    assert Player("p", "random", "random").describe() == "plays at random"
    plain = dataclasses.replace(SPEC, uniform=None).record("Plain", __name__)
    assert plain("p", "random", "random").describe() == (
        "random mover, random bidder (greed=1, spite=0)")
    weights_only = StrategySpec(codes={}, parameters={"greed": (1.5, (0.0, 2.0), "")})
    assert weights_only.record("Bare", __name__)("p").describe() == "greed=1.5"


def test_a_default_may_follow_only_an_earlier_code():
    with pytest.raises(ValueError, match="earlier code"):
        StrategySpec(codes={"bidder": Code(MOVES, "greedy", "bidder", follows=("mover", {})),
                            "mover": Code(MOVES, "greedy", "mover")}, parameters={})
