"""Strict readers: every error names the file, the key and what is allowed."""

import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_json, read_toml


def _error(call) -> str:
    with pytest.raises(InputError) as caught:
        call()
    return str(caught.value)


def test_unknown_keys_name_the_allowed_ones():
    table = Table({"seed": 1, "sede": 2}, "exp.toml", "experiment")
    message = _error(lambda: table.only(["seed", "games"]))
    assert "exp.toml" in message and "experiment.sede" in message and "seed, games" in message


def test_types_ranges_and_choices_are_checked():
    table = Table({"games": "many", "level": 0.7, "rule": "half", "n": 11, "x": float("nan")},
                  "f.toml")
    assert _error(lambda: table.get("games", int)) == (
        "f.toml: games: must be an integer, not 'many'")
    assert "out of range" in _error(lambda: table.int_in("n", 0, 10))
    assert "'full'" in _error(lambda: table.get("rule", str, choices=["full", "none"]))
    assert "finite" in _error(lambda: table.get("x", float))
    assert table.number_in("level", 0.0, 1.0) == 0.7
    assert "missing" in _error(lambda: table.get("absent", int))
    assert table.get("absent", int, 5) == 5


def test_integer_lists_are_checked_item_by_item():
    table = Table({"values": [1, 2, 300], "empty": []}, "r.toml")
    assert "300" in _error(lambda: table.int_list("values", 1, 100))
    assert "at least 1" in _error(lambda: table.int_list("empty", 1, 100))
    assert table.int_list("values", 1, 300) == [1, 2, 300]


def test_sub_tables_carry_their_dotted_place():
    table = Table({"players": {"min": "two"}}, "r.toml")
    assert "players.min" in _error(lambda: table.sub("players").int_in("min", 1, 5))


def test_files_that_are_missing_or_malformed_are_input_errors(tmp_path):
    assert "missing.toml" in _error(lambda: read_toml(tmp_path / "missing.toml", "rules"))
    bad = tmp_path / "bad.toml"
    bad.write_text("a = [\n")
    assert "bad.toml" in _error(lambda: read_toml(bad, "rules"))
    twice = tmp_path / "twice.json"
    twice.write_text('{"a": 1, "a": 2}')
    assert "twice.json" in _error(lambda: read_json(twice, "score"))
