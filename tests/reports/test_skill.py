"""The ``[skill]`` section: its verdicts in words, and a small run end to end (rows,
numbers recomputed from the games, report, plot and baseline)."""


import numpy as np
import pandas as pd
import pytest

from cakesim.app.api import ci_run, run_experiment
from cakesim.games import game_named
from cakesim.reports import skill
from cakesim.reports.summary_file import read_summary


def _gap(value: float, half: float = 0.01) -> dict:
    return {"value": value, "low": value - half, "high": value + half, "n": 1000}


@pytest.mark.parametrize(("gaps", "expected"), [
    ([-0.087, -0.021, -0.05], "The first waiter is disadvantaged at 4P base for every "
                              "strength tested (-2.1 to -8.7 pp)."),
    ([0.03, 0.02], "The first waiter is advantaged at 4P base for every strength tested "
                   "(+2.0 to +3.0 pp)."),
    ([0.004, -0.003, 0.0], "The first waiter is fair at 4P base for every strength tested "
                           "(+0.0 to +0.4 pp)."),
    ([-0.05], "The first waiter is disadvantaged at 4P base for the one strength tested, "
              "random (-5.0 pp)."),
    ([-0.05, -0.03, 0.004, 0.002], "At 4P base the first waiter's verdict depends on skill: "
                                   "disadvantaged for random and greedy, fair for tuned and "
                                   "search."),
    ([0.05, -0.004, -0.03], "At 4P base the first waiter's verdict depends on skill: "
                            "advantaged for random, fair for greedy, disadvantaged for tuned."),
])
def test_the_verdict_across_strengths_in_words(gaps, expected):
    names = ["random", "greedy", "tuned", "search"]
    assert skill.holds_sentence("first waiter", "4P base",
                                list(zip(names, map(_gap, gaps), strict=False))) == expected


@pytest.mark.parametrize(("spread", "words"), [
    (_gap(0.03), "the stronger player gains more from the first seat"),
    (_gap(-0.03), "the stronger player gains less from the first seat"),
    (_gap(0.005), "no detectable difference"),
])
def test_whether_a_stronger_player_gains_more_in_words(spread, words):
    gains = [("random", _gap(0.0)), ("greedy", _gap(0.012, 0.02))]
    text = skill.mixed_sentence("tuned", gains, spread | {"method": "paired by deal"})
    assert text.startswith("Alone among tuned players, the first seat is worth +0.0 pp "
                           "[-1.0, +1.0] to random; +1.2 pp [-0.8, +3.2] to greedy. greedy "
                           "minus random: ")
    assert text.endswith(f"(paired by deal): {words}.")
    assert skill.mixed_sentence("tuned", gains[1:], None).endswith("to greedy.")


EXPERIMENT = """
[experiment]
name = "skilled"
title = "Skilled"
game = "piece-o-cake"
seed = 3
games = 600
chunk_size = 300

[ci]
games = 300
seed = 4
level = 0.01

[skill]
strengths = ["random", "greedy-balanced", "tuned"]
games = 450
ci_games = 240

[strategies.tuned]
builtin = "tuned"

[strategies.random]
chooser = "random"
cutter = "random"

[[tables]]
players = [3, 4]
variant = ["base", "compensation"]
seats = "tuned"

[[tables]]
label = "random control"
control = true
players = 4
seats = "random"
"""


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """The experiment played and reported once for the tests below."""
    folder = tmp_path_factory.mktemp("skill")
    path = folder / "skilled.toml"
    path.write_text(EXPERIMENT)
    result = run_experiment(path, n_jobs=1, progress=False, cache=False, out=folder / "out")
    return result, read_summary(folder / "out")


def _shares(rows: pd.DataFrame) -> pd.Series:
    # Win units, not the rows' float32 win shares: the numbers are compared to 1e-12.
    return rows["win_units"] / game_named("piece-o-cake").win_units


def _first_seat_gap(rows: pd.DataFrame, players: int) -> float:
    return _shares(rows)[rows["seat"] == 0].mean() - 1 / players


def _gains(rows: pd.DataFrame, player: int) -> pd.Series:
    """Per deal: the player's win share where it sits first minus its mean over the deal."""
    mine = rows[rows["player"] == player].assign(share=_shares)
    first = mine[mine["seat"] == 0].set_index("deal")["share"]
    return first - mine.groupby("deal")["share"].mean()


def test_the_skill_rows_are_played_and_their_numbers_are_the_games(ran):
    result, summary = ran
    experiment = result.experiment
    runs = {run.table.label: run for run in result.runs}
    data = summary["sections"]["skill"]
    assert data["strengths"] == ["random", "greedy-balanced", "tuned"]
    assert [s["setting"] for s in data["settings"]] == ["3P base", "3P compensation",
                                                       "4P base", "4P compensation"]
    # Rows of their own at 450 games (whole deals of 4 on duplicate deals: 452); random at
    # 4P base and tuned are the experiment's.
    assert {runs[label].totals.games for label in experiment.section_tables} == {450, 452}
    assert "3P base · skill random" in experiment.section_tables
    four = next(s for s in data["settings"] if s["setting"] == "4P base")
    assert [r["table"] for r in four["rows"]] == ["4P base random control",
                                                  "4P base · skill greedy-balanced",
                                                  "4P base tuned"]
    assert [r["shared"] for r in four["rows"]] == [True, False, True]
    for s in data["settings"]:
        for row in s["rows"]:
            rows = runs[row["table"]].rows
            assert row["gap"]["value"] == pytest.approx(_first_seat_gap(rows, s["players"]),
                                                        abs=1e-12)
            assert row["gap"]["low"] < row["gap"]["value"] < row["gap"]["high"]
        for m in s["mixed"]:
            run = runs[m["table"]]
            assert run.table.duplicate and m["player"] == 1
            assert [x.name for x in run.table.strategies] == [m["strength"]] + ["tuned"] * (
                s["players"] - 1)
            gains = _gains(run.rows, 0)
            assert len(gains) == m["deals"] == run.totals.games // s["players"]
            assert m["gain"]["value"] == pytest.approx(gains.mean(), abs=1e-12)
        weak, strong = (_gains(runs[m["table"]].rows, 0) for m in s["mixed"])
        spread = s["strongest_minus_weakest"]
        assert spread["method"] == "paired by deal"
        assert spread["value"] == pytest.approx((strong - weak).mean(), abs=1e-12)
    # The words follow the numbers.
    for s in data["settings"]:
        kinds = {"disadvantaged" if r["gap"]["high"] < 0 else "advantaged"
                 if r["gap"]["low"] > 0 else "fair" for r in s["rows"]}
        assert s["holds"] == (len(kinds) == 1)
        assert ("depends on skill" in s["words"]) == (len(kinds) > 1)


def test_the_report_keeps_its_answer_and_adds_the_skill_section(ran):
    result, summary = ran
    experiment = result.experiment
    # The experiment's own tables, verdicts and headline are as without the section.
    assert [t["label"] for t in summary["tables"]] == [
        t.label for t in experiment.tables if t.label not in experiment.section_tables]
    assert summary["verdict_family"] == 3 + 3 + 4 + 4 + 4
    assert summary["headline"].startswith("First waiter against fair, tuned: 3P")
    assert f"Across player strengths: {skill.headline(summary['sections']['skill'])}" in (
        summary["answer"]["paragraph"])
    text = result.report.read_text()
    answer, section, rest = (text.index("## Answer"), text.index("## Skill"),
                             text.index("## Every table"))
    assert answer < section < rest
    data = summary["sections"]["skill"]
    assert f"**{skill.headline(data)}**" in text and "![skill](skill.png)" in text
    assert all(s["words"] in text for s in data["settings"])
    assert "| strength | 3P base | 3P compensation | 4P base | 4P compensation |" in text
    assert "| greedy-balanced minus random |" in text
    assert (result.report.parent / "skill.png").stat().st_size > 10_000
    # Every skill row's games are in the results, like every table's.
    rows = pd.read_parquet(result.report.parent / "results.parquet")
    assert set(experiment.section_tables) <= set(rows["table"].astype(str))


def test_the_baseline_gates_the_skill_rows(tmp_path):
    path = tmp_path / "skilled.toml"
    path.write_text(EXPERIMENT)
    record, _ = ci_run(path, n_jobs=1, sequential=False)
    tables = [t["label"] for t in record.record["tables"]]
    assert "4P base · mixed greedy-balanced vs tuned" in tables
    numbers = record.record["section_numbers"]
    gain = numbers["skill | 4P base · mixed greedy-balanced vs tuned | first-seat win share gain"]
    assert gain["n"] == 240 // 4 and np.isfinite(gain["se"])
    assert "skill | 3P base | first-seat win share gain, greedy-balanced minus random" in numbers
    assert {games for label, games in zip(tables, record.record["games_per_table"],
                                          strict=True) if "·" in label} == {240}
