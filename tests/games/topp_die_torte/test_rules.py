"""The published rule set as data, and the rule file's and tile list's validation.

Every bad input is an ``InputError`` (the CLI's exit 2) naming the file and the key.
"""

import json

import pytest

from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.games.topp_die_torte.replay import score_file
from cakesim.games.topp_die_torte.rules import load_rules, parse_rules, read_tiles
from tests.games.topp_die_torte.conftest import published_data, published_tiles


def test_the_published_rules_load():
    rules = load_rules()
    assert rules.cubes == 102 and rules.chips == 66
    assert len(rules.tile_ids) == 40 and rules.slots == 14
    assert rules.capacity == (3, 4, 5) and rules.metal == (0, 1, 2)
    assert [len(v) for v in rules.chip_values] == [22, 22, 22]
    assert [rules.face_name(f) for f in range(6)] == [
        "cube:1", "cube:2", "golden:1", "star:1", "star:2", "bronze:1"]
    assert rules.for_table(4).cubes == 102 and rules.for_table(4, "scarce").cubes == 34
    assert rules.tile_text(0) == "VVOOOPPP...G.B"


def _rules_error(change=None, change_tiles=None) -> InputError:
    data, rows = published_data(), published_tiles()
    if change:
        change(data)
    if change_tiles:
        change_tiles(rows)
    with pytest.raises(InputError) as error:
        parse_rules(data, "my_rules.toml", rows, "my_tiles.csv")
    return error.value


@pytest.mark.parametrize(("change", "key"), [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d["placement"].update(overlap=1), "placement.overlap"),
    (lambda d: d["die"].update(faces=["cubes:1", *d["die"]["faces"][1:]]), "die.faces[0]"),
    (lambda d: d["die"].update(faces=["cube:1", "star", *d["die"]["faces"][2:]]),
     "die.faces[1]"),
    (lambda d: d["die"]["faces"].pop(), "die.faces"),
    # A superscript two passes str.isdigit, and int() refuses it.
    (lambda d: d["die"].update(faces=["cube:\u00b2", *d["die"]["faces"][1:]]), "die.faces[0]"),
    (lambda d: d["jars"].update(metal=["bronze", "silver", "platinum"]), "jars.metal"),
    (lambda d: d["chips"]["gold"].update(counts=[7, 8]), "chips.gold.counts"),
    (lambda d: d["cubes"].update(supply=[18, 18, 18, 18]), "cubes.supply"),
    (lambda d: d.update(plate="BB.PP.GG.VV.O.O"), "plate"),
    (lambda d: d["placement"].update(order="random"), "placement.order"),
    (lambda d: d["jars"].update(misfit_cubes="never"), "jars.misfit_cubes"),
    (lambda d: d["cubes"].update(end_cubes="silver"), "cubes.end_cubes"),
    (lambda d: d["placement"].update(miss_beyond="wall"), "placement.miss_beyond"),
])
def test_bad_rule_files_name_the_key(change, key):
    error = _rules_error(change)
    assert error.key == key and "my_rules.toml" in str(error)


def test_the_seeds_readings_are_the_default_and_the_earlier_ones_a_switch_away():
    rules = load_rules()
    assert (rules.misfit_cubes, rules.end_cubes) == ("last", "any-colour")
    assert rules.for_table(2).arrays["misfits_last"]
    assert not rules.for_table(2).arrays["end_golden"]
    earlier = rules.with_overrides(misfit_cubes="first", end_cubes="golden")
    assert not earlier.for_table(2).arrays["misfits_last"]
    assert earlier.for_table(2).arrays["end_golden"]
    # Left out of a rule file, the keys take the seed's readings too.
    data = published_data()
    del data["jars"]["misfit_cubes"], data["cubes"]["end_cubes"]
    bare = parse_rules(data, "mine.toml", published_tiles(), "tiles.csv")
    assert (bare.misfit_cubes, bare.end_cubes) == ("last", "any-colour")


def test_a_miss_beyond_the_edge_lands_on_it_by_default_and_connects_nothing_a_switch_away():
    rules = load_rules()
    assert rules.miss_beyond == "edge" and rules.for_table(2).arrays["miss_edge"]
    assert not rules.with_overrides(miss_beyond="nothing").for_table(2).arrays["miss_edge"]
    data = published_data()
    del data["placement"]["miss_beyond"]
    bare = parse_rules(data, "mine.toml", published_tiles(), "tiles.csv")
    assert bare.miss_beyond == "edge"


def test_the_switch_is_a_command_line_override(capsys):
    # The same game under both readings: a replay whose layers miss beyond the edge says so
    # only under "nothing".
    texts = {}
    for reading in ("edge", "nothing"):
        status = main(["replay", "topp-die-torte", "--seed", "1", "--index", "0",
                       "--strategy", "random", "--set", f"miss_beyond={reading}"])
        texts[reading] = capsys.readouterr().out
        assert status == 0
    assert "beyond the outermost offset" in texts["nothing"]
    assert "beyond the outermost offset" not in texts["edge"]


@pytest.mark.parametrize(("key", "value"), [("misfit_cubes", "never"),
                                            ("end_cubes", "silver"),
                                            ("miss_beyond", "wall")])
def test_a_bad_switch_on_the_command_line_exits_2_naming_it(key, value, capsys):
    status = main(["replay", "topp-die-torte", "--seed", "1", "--index", "0", "--set",
                   f"{key}={value}"])
    err = capsys.readouterr().err
    assert status == 2 and key in err and "allowed values" in err and "Traceback" not in err


def _set(row: int, column: str, value: str):
    def change(rows):
        rows[row][column] = value
    return change


@pytest.mark.parametrize(("change", "key", "words"), [
    (_set(0, "slots", "BB.B.PP.GG.VVO"), "row 2.slots", "splits colour 'B'"),
    (_set(0, "slots", "BB..PP.GG.VV.."), "row 2.slots", "lacks colour(s) O"),
    (_set(1, "slots", "BB.PP.GG.VV.OOO"), "row 3.slots", "15 slots wide"),
    (_set(0, "slots", "BB.PP.GG.VV.XX"), "row 2.slots", "has 'X'"),
    (_set(0, "sugar", "B1 Q2"), "row 2.sugar", "'Q2' is not allowed"),
    (_set(0, "sugar", "B0"), "row 2.sugar", "'B0' is not allowed"),
    (_set(0, "sugar", "B1 B2"), "row 2.sugar", "listed twice"),
    (_set(0, "golden", "yes"), "row 2.golden", "'yes' is not allowed"),
    (_set(0, "golden", "\u00b2"), "row 2.golden", "'²' is not allowed"),
    (_set(0, "sugar", "B\u00b2"), "row 2.sugar", "'B²' is not allowed"),
    (_set(1, "id", "T01"), "row 3.id", "repeats"),
    (lambda rows: rows.__delitem__(slice(27, None)), "tiles", "27 tiles"),
])
def test_bad_tiles_name_the_row_and_column(change, key, words):
    error = _rules_error(change_tiles=change)
    assert error.key == key and error.source == "my_tiles.csv" and words in error.message


def test_a_tile_file_with_a_bad_header_names_its_columns(tmp_path):
    path = tmp_path / "tiles.csv"
    path.write_text("id,slots,sugar\nT01,BB.PP.GG.VV.OO,B1\n")
    with pytest.raises(InputError) as error:
        read_tiles(path)
    assert error.value.key == "columns" and str(path) in str(error.value)
    assert "id,slots,sugar,golden" in error.value.message


def test_a_short_row_and_a_missing_file_are_input_errors(tmp_path):
    path = tmp_path / "tiles.csv"
    path.write_text("id,slots,sugar,golden\nT01,BB.PP.GG.VV.OO\n")
    with pytest.raises(InputError, match="every row must have the 4 columns"):
        read_tiles(path)
    with pytest.raises(InputError, match="tiles"):
        read_tiles(tmp_path / "none.csv")


def test_another_tile_file_is_read_and_checked(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("id,slots,sugar,golden\n")
    with pytest.raises(InputError) as error:
        load_rules(tiles=path)
    assert error.value.key == "tiles" and error.value.source == str(path)
    assert "0 tiles" in error.value.message


def test_players_and_variants_outside_the_rules_are_refused():
    rules = load_rules()
    with pytest.raises(InputError, match="5 players is not allowed"):
        rules.for_table(5)
    with pytest.raises(InputError, match="'blank-7' is not allowed"):
        rules.for_table(3, "blank-7")


# Score files of real playtests ----------------------------------------------------------------
def _score(tmp_path, position) -> dict:
    path = tmp_path / "end.json"
    path.write_text(json.dumps(position))
    return score_file(load_rules(), path)


def _player(bronze=(), silver=(), gold=(), stars=0) -> dict:
    return {"chips": {"bronze": list(bronze), "silver": list(silver), "gold": list(gold)},
            "stars": stars}


def test_a_score_file_scores_chips_and_stars(tmp_path):
    scored = _score(tmp_path, {"players": [_player([1, 3], [4], [5], 2),
                                           _player([3, 3, 3], [2, 2]),
                                           {"chips": {"gold": [5, 5, 3]}}]})
    assert scored["scores"] == [15, 13, 13] and scored["winners"] == [0]
    assert scored["detail"][0] == {"chips": {"bronze": [1, 3], "silver": [4], "gold": [5]},
                                   "points": {"bronze": 4, "silver": 4, "gold": 5},
                                   "stars": 2, "total": 15}
    tied = _score(tmp_path, {"players": [_player([2]), _player([2]), _player([1])]})
    assert tied["winners"] == [0, 1]


@pytest.mark.parametrize(("players", "key", "words"), [
    ([_player([4]), _player()], "players[0].chips.bronze", "allowed values: 1, 2, 3"),
    ([_player(), _player(gold=["5"])], "players[1].chips.gold", "allowed values: 3, 4, 5"),
    ([_player(), _player(silver=[True])], "players[1].chips.silver", "allowed values"),
    ([{"chips": {"platinum": [1]}}, _player()], "players[0].chips.platinum", "unknown key"),
    ([{"coins": {}}, _player()], "players[0].coins", "unknown key"),
    ([_player(stars=-1), _player()], "players[0].stars", "out of range"),
    ([_player([3] * 4), _player([3] * 4)], "players", "8 bronze chips worth 3 in all"),
    ([_player()], "players", "1 players; allowed: 2 to 4"),
    ([_player()] * 5, "players", "5 players; allowed: 2 to 4"),
])
def test_a_bad_score_file_names_the_key(tmp_path, players, key, words):
    with pytest.raises(InputError) as error:
        _score(tmp_path, {"players": players})
    assert error.value.key == key and words in error.value.message
    assert "end.json" in error.value.source


def test_a_score_file_is_json_with_players(tmp_path):
    path = tmp_path / "end.json"
    path.write_text('{"players": [], "tie_rule": "full"}')
    with pytest.raises(InputError, match="tie_rule: unknown key"):
        score_file(load_rules(), path)
    path.write_text("{players}")
    with pytest.raises(InputError, match="not valid JSON"):
        score_file(load_rules(), path)
