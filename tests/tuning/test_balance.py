"""The balancing assistant: candidates by distance, the race, and a planted imbalance found."""

import json
from dataclasses import replace

import pytest

from cakesim.app.api import balance_rules
from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.reports.balance import answer
from cakesim.tuning import balance
from tests.conformance.conftest import EVERY_GAME
from tests.conformance.high_card.rules import DEFAULT_RULES

PLANTED = """
[experiment]
name = "planted"
title = "High card with a planted first-seat bonus"
game = "high-card"
seed = 3
games = 1000
rules = "planted.toml"

[skill]
enabled = false

[strategies.keep]
builtin = "keep"

[[tables]]
players = [2, 3]
seats = "keep"

[balance]
margin = 0.02
first_games = 1000
budget = {budget}
confirm_games = 16000

[[balance.parameters]]
key = "first_bonus"
{values}
"""


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """An experiment on the example game whose rules give the first seat 2 points: only
    ``first_bonus = 0`` is fair, because every seat keeps its card."""
    monkeypatch.setattr("cakesim.games.GAMES", EVERY_GAME)
    monkeypatch.setattr("cakesim.app.experiment.GAMES", EVERY_GAME)
    def write(values: str = "low = 0\nhigh = 3", budget: int = 200_000, bonus: int = 2):
        rules = DEFAULT_RULES.read_text().replace("first_bonus = 0", f"first_bonus = {bonus}")
        (tmp_path / "planted.toml").write_text(rules)
        path = tmp_path / "experiment.toml"
        path.write_text(PLANTED.format(values=values, budget=budget))
        return path

    return write


def _question(values: list, published=2, extra: dict | None = None):
    table = Table({"parameters": [{"key": "first_bonus", "values": values}], **(extra or {})},
                  "exp.toml", "balance")
    return balance.parse(table, lambda key: published, ["2P keep", "3P keep"])


def test_candidates_run_from_the_published_rules_outwards():
    field = balance.candidates(_question([0, 1, 3, 4]))
    assert [c.describe() for c in field] == ["the published rules", "first_bonus=1",
                                             "first_bonus=3", "first_bonus=0", "first_bonus=4"]
    # Steps are shares of the span of the values, published included (0 to 4).
    assert [c.distance for c in field] == [(0, 0.0), (1, 0.25), (1, 0.25), (1, 0.5), (1, 0.5)]


def test_a_list_of_numbers_is_as_far_as_its_entries_moved():
    table = Table({"parameters": [{"key": "bonus", "values": [[0, 2, 0], [1, 0, 0],
                                                              [0, 1, 1], [2, 2, 0]]}]},
                  "exp.toml", "balance")
    question = balance.parse(table, lambda key: (0, 0, 0), ["3P keep"])
    field = balance.candidates(question)
    assert [c.describe() for c in field] == ["the published rules", "bonus=[1, 0, 0]",
                                             "bonus=[0, 2, 0]", "bonus=[0, 1, 1]",
                                             "bonus=[2, 2, 0]"]
    assert [c.size for c in field] == [0.0, 0.25, 0.5, 0.5, 1.0]


def test_fewer_changes_come_before_smaller_ones():
    table = Table({"parameters": [{"key": "a", "values": [0, 10]},
                                  {"key": "b", "values": ["x", "y"]}]}, "exp.toml", "balance")
    question = balance.parse(table, {"a": 5, "b": "x"}.get, ["2P keep"])
    # A value that is not a number counts as a whole span; two half spans still come
    # after it, because they change two things.
    assert [c.describe() for c in balance.candidates(question)] == [
        "the published rules", "a=0", "a=10", 'b="y"', 'a=0, b="y"', 'a=10, b="y"']


@pytest.mark.parametrize(("section", "message"), [
    ({"parameters": []}, "balance.parameters: list at least one parameter"),
    ({"parameters": [{"key": "first_bonus"}]}, "balance.parameters[0].low: missing"),
    ({"parameters": [{"key": "first_bonus", "low": 3, "high": 1}]},
     "balance.parameters[0].high: low 3, high 1, step 1; allowed: low <= high and a "
     "positive step"),
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "tables": ["5P keep"]},
     "balance.tables: '5P keep' is not allowed; allowed values: labels of the experiment's "
     "tables: 2P keep, 3P keep"),
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "target": "curve"},
     "balance.target: 'curve' is not allowed; allowed values: 'seats'"),
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "adapt": ["9P keep"]},
     "balance.adapt: '9P keep' is not allowed; allowed values: labels of the experiment's "
     "tables: 2P keep, 3P keep"),
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "adapt": ["3P keep"],
      "tables": ["3P keep"]},
     "balance.tables: '3P keep' is not allowed; allowed values: labels of the experiment's "
     "tables (the adapt tables do not race): 2P keep"),
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "tables": ["2P keep", "2P keep"]},
     "balance.tables: '2P keep' is listed twice; list each table once"),
    ({"parameters": [{"key": "nope", "values": [1]}]},
     "balance.parameters[0].key: 'nope' is not allowed; allowed: first_bonus"),
])
def test_bad_balance_sections_name_the_key_and_what_is_allowed(section, message):
    def published(key):
        if key != "first_bonus":
            raise LookupError("first_bonus")
        return 2

    with pytest.raises(InputError) as refused:
        balance.parse(Table(section, "exp.toml", "balance"), published, ["2P keep", "3P keep"])
    assert str(refused.value).startswith("exp.toml: ")
    assert message in str(refused.value)


def test_the_planted_imbalance_is_found_and_confirmed(planted, tmp_path):
    result = balance_rules(planted(), n_jobs=1, out=tmp_path / "report", progress=False,
                           cache=tmp_path / "cache")
    [race] = result.races
    assert race.candidates[race.pick].changes == result.pick.changes == (("first_bonus", 0),)
    assert race.verdict == result.verdict == "meets"
    assert result.answer.startswith("Change one thing: first_bonus=0 (meets the target at "
                                    "2P base keep, 3P base keep)")
    # Every other bonus was dropped: its first seat wins clearly too often.
    assert [race.last(i).status for i in range(len(race.candidates))
            if i != race.pick] == ["out"] * 3
    summary = json.loads((tmp_path / "report" / "balance.json").read_text())
    published = summary["confirmation"]["published"]["seats"]
    assert [s["verdict"]["word"] for s in published][:1] == ["advantaged"]
    assert all(s["verdict"]["word"] == "fair"
               for s in summary["confirmation"]["changed"]["seats"])
    assert "planted.toml" in " ".join(summary["files"])
    report = (tmp_path / "report" / "report.md").read_text()
    assert report.startswith("# Balancing High card with a planted first-seat bonus")
    assert (tmp_path / "report" / "report.html").exists()


def test_the_pick_is_played_by_the_adapting_players_too(planted, tmp_path):
    path = planted()
    text = path.read_text().replace("[balance]\n", "[strategies.redraw]\nbuiltin = \"redraw\"\n\n"
                                    "[[tables]]\nplayers = 2\nseats = \"redraw\"\n\n[balance]\n"
                                    "adapt = [\"2P base redraw\"]\nadapt_games = 3000\n")
    path.write_text(text)
    result = balance_rules(path, n_jobs=1, out=tmp_path / "report", progress=False,
                           cache=tmp_path / "cache")
    summary = json.loads((tmp_path / "report" / "balance.json").read_text())
    # The race reads the other tables only; the adapting table plays the pick and the
    # published rules, 3,000 deals each.
    assert summary["tables"] == ["2P base keep", "3P base keep"]
    adapted = summary["adaptation"]
    assert [row["table"] for row in adapted["differences"]] == ["2P base redraw"] * 2
    assert adapted["changed"]["games"] == 3000
    # Two points to the first seat helps a redrawing first player too: the pick takes it away.
    assert adapted["differences"][0]["difference"]["high"] < 0
    assert " At 2P base redraw (3,000 deals a table), the worst seat is " in result.answer
    assert "## Adaptation: players who read the changed rules" in (
        tmp_path / "report" / "report.md").read_text()


def test_a_search_rerun_from_its_cache_gives_the_same_report(planted, tmp_path):
    path = planted()
    balance_rules(path, n_jobs=1, out=tmp_path / "a", progress=False, cache=tmp_path / "cache")
    balance_rules(path, n_jobs=1, out=tmp_path / "b", progress=False, cache=tmp_path / "cache")
    balance_rules(path, n_jobs=1, out=tmp_path / "c", progress=False, cache=False)
    first = (tmp_path / "a" / "balance.json").read_text()
    assert (tmp_path / "b" / "balance.json").read_text() == first
    assert (tmp_path / "c" / "balance.json").read_text() == first


def test_no_candidate_meeting_the_target_is_an_answer(planted, tmp_path):
    result = balance_rules(planted("values = [1, 3]"), n_jobs=1, out=tmp_path / "report",
                           progress=False, cache=tmp_path / "cache")
    assert result.verdict == "none"
    assert result.answer.startswith("No candidate in the space makes every seat fair within "
                                    "±2 pp at 2P base keep, 3P base keep; the closest is")


def test_fair_published_rules_are_the_answer(planted, tmp_path):
    result = balance_rules(planted(bonus=0), n_jobs=1, out=tmp_path / "report", progress=False,
                           cache=tmp_path / "cache")
    assert result.races[0].pick == 0 and result.verdict == "meets"
    assert result.pick.changes == ()
    assert result.answer.startswith("The published rules already meet the target in the race "
                                    "at 2P base keep, 3P base keep: on 16,000 fresh deals a "
                                    "table, 5 of 5 seats are shown fair")
    report = (tmp_path / "report" / "report.md").read_text()
    assert "| 2P base keep | first player | " in report


def test_parameters_that_change_different_tables_are_raced_apart():
    table = Table({"parameters": [{"key": "a", "values": [1, 2]}, {"key": "b", "values": [1]},
                                  {"key": "c", "values": [1, 2, 3]}], "budget": 90_000},
                  "exp.toml", "balance")
    labels = ["2P", "3P", "4P", "5P"]
    question = balance.parse(table, lambda key: 0, labels)
    # a changes the 3P table, b the 4P one, c the 3P one again; nothing changes 2P or 5P.
    parts = balance.split(question, {"a": {"3P"}, "b": {"4P"}, "c": {"3P"}})
    assert [([p.key for p in part.parameters], part.tables) for part in parts] == [
        (["a", "c"], ("3P",)), (["b"], ("4P",)), ([], ("2P", "5P"))]
    # 12 + 2 + 1 candidates instead of 3 x 2 x 4 = 24, each part's budget in proportion
    # to its first round (12 x 1, 2 x 1 and 1 x 2 tables, 2,000 games each).
    assert [len(balance.candidates(part)) for part in parts] == [12, 2, 1]
    assert [part.budget for part in parts] == [67_500, 11_250, 11_250]
    assert balance.check_budget(question, parts) is None
    assert balance.check_budget(replace(question, budget=1000), parts) == (
        "1,000 games is not allowed; allowed: at least the first round's 32,000 (every "
        "candidate at every table, first_games each)")
    picks = [balance.Candidate((("c", 2),), 0.5), balance.Candidate((("b", 1),), 1.0),
             balance.Candidate((), 0.0)]
    assert balance.joined(picks, question).describe() == "b=1, c=2"
    assert balance.weakest(["meets", "likely", "meets"]) == "likely"
    assert balance.weakest(["meets", "none", "likely"]) == "none"


def test_a_budget_too_small_for_the_first_round_exits_2(planted, tmp_path, capsys):
    path = planted(budget=100)
    assert main(["balance", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cakesim: error: {path}: balance.budget: 100 games is not allowed; allowed: at least "
        "the first round's 8,000 (every candidate at every table, first_games each)")


def test_bad_input_exits_2_with_one_line(planted, tmp_path, capsys):
    path = planted("values = [0]\nstep = 1")
    assert main(["balance", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert f"{path}: balance.parameters[0].step: " in err
    assert not (tmp_path / "r").exists()


def test_an_experiment_without_a_balance_section_is_refused(planted, tmp_path, capsys):
    path = planted()
    path.write_text(path.read_text().split("[balance]")[0])
    assert main(["balance", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cakesim: error: {path}: balance: missing; add a [balance] section with parameters = "
        '[{key = "KEY", values = [...]}] (see docs/balance.md)')


SEAT_BONUS = """
[experiment]
name = "bonus"
game = "piece-o-cake"
seed = 5
games = 400

[skill]
enabled = false

[strategies.random]
chooser = "random"
cutter = "random"

[[tables]]
players = [3, 4]
seats = "random"

[balance]
margin = 0.05
first_games = 200
budget = 20000
confirm_games = 400

[[balance.parameters]]
key = "seat_bonus.3"
values = [[1, 0, 0], [0, 0, 9]]

[[balance.parameters]]
key = "seat_bonus.4"
values = [[0, 0, 0, 1], [9, 0, 0, 0]]
"""


def test_a_seat_bonus_at_each_player_count_races_apart(tmp_path):
    path = tmp_path / "bonus.toml"
    path.write_text(SEAT_BONUS)
    result = balance_rules(path, n_jobs=1, out=tmp_path / "report", progress=False,
                           cache=tmp_path / "cache")
    # Piece o' Cake's 3P bonus changes only its 3P table: two races of three candidates.
    assert [[c.describe() for c in race.candidates] for race in result.races] == [
        ["the published rules", "seat_bonus.3=[1, 0, 0]", "seat_bonus.3=[0, 0, 9]"],
        ["the published rules", "seat_bonus.4=[0, 0, 0, 1]", "seat_bonus.4=[9, 0, 0, 0]"]]
    # Nine points to one seat of random players is far from fair in either race.
    assert all(race.last(2).status == "out" for race in result.races)
    assert all(c[0] != "seat_bonus.4" or c[1] != (9, 0, 0, 0) for c in result.pick.changes)
    summary = json.loads((tmp_path / "report" / "balance.json").read_text())
    assert [part["tables"] for part in summary["parts"]] == [["3P base random"],
                                                            ["4P base random"]]
    assert (tmp_path / "report" / "balance.png").stat().st_size > 0
    assert "![The race and its confirmation](balance.png)" in (
        tmp_path / "report" / "report.md").read_text()


def test_a_parameter_that_changes_no_target_table_is_refused(tmp_path, capsys):
    path = tmp_path / "bonus.toml"
    path.write_text(SEAT_BONUS.replace('key = "seat_bonus.4"', 'key = "seat_bonus.5"').replace(
        "[[0, 0, 0, 1], [9, 0, 0, 0]]", "[[0, 0, 0, 0, 1]]"))
    assert main(["balance", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cakesim: error: {path}: balance.parameters[1].key: 'seat_bonus.5' changes none of the "
        "tables 3P base random, 4P base random at any of its values; allowed: a key that "
        "changes one of them")


def test_the_answer_of_a_split_search_says_what_each_part_found():
    seat = {"verdict": {"word": "fair"}}
    facts = {"margin": 0.01, "confirm_games": 1000, "tables": ["3P", "4P", "5P"],
             "pick": {"describe": "b=[1, 0, 0]", "changes": [["b", "[1, 0, 0]"]]},
             "confirmation": {"changed": {"seats": [seat] * 3, "worst_gap": 0.004}},
             "parts": [{"tables": ["3P"], "parameters": [{"key": "b"}], "verdict": "meets",
                        "pick": {"describe": "b=[1, 0, 0]", "changes": [["b", "[1, 0, 0]"]]}},
                       {"tables": ["4P"], "parameters": [{"key": "c"}], "verdict": "none",
                        "pick": {"describe": "the published rules", "changes": []}},
                       {"tables": ["5P"], "parameters": [], "verdict": "likely",
                        "pick": {"describe": "the published rules", "changes": []}},
                       {"tables": ["6P"], "parameters": [{"key": "d"}], "verdict": "meets",
                        "pick": {"describe": "the published rules", "changes": []}}]}
    assert answer(facts) == (
        "Each part of the search alone: at 3P, b=[1, 0, 0] meets the target; at 4P, no "
        "candidate meets the target (the closest: the published rules); at 5P, which no "
        "parameter changes, the published rules likely meet the target (not yet clear); at 6P, "
        "the published rules meet the target. With every change made (b=[1, 0, 0]), on 1,000 "
        "fresh deals a table, 3 of 3 seats are shown fair within ±1 pp (the worst 0.4 pp from "
        "fair).")
