"""The balancing assistant: candidates by distance, the race, and a planted imbalance found."""

import json

import pytest

from cakesim.app.api import balance_rules
from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
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
    ({"parameters": [{"key": "first_bonus", "values": [1]}], "budget": 100},
     "balance.budget: 100 games is not allowed; allowed: at least the first round's 8,000"),
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
    race = result.race
    assert race.candidates[race.pick].changes == (("first_bonus", 0),)
    assert race.verdict == "meets"
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
    assert result.race.verdict == "none"
    assert result.answer.startswith("No candidate in the space makes every seat fair within "
                                    "±2 pp at 2P base keep, 3P base keep; the closest is")


def test_fair_published_rules_are_the_answer(planted, tmp_path):
    result = balance_rules(planted(bonus=0), n_jobs=1, out=tmp_path / "report", progress=False,
                           cache=tmp_path / "cache")
    assert result.race.pick == 0 and result.race.verdict == "meets"
    assert result.answer.startswith("The published rules already meet the target at 2P base "
                                    "keep, 3P base keep: on 16,000 fresh deals a table, 5 of 5 "
                                    "seats are shown fair")
    report = (tmp_path / "report" / "report.md").read_text()
    assert "| 2P base keep | first player | " in report


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
