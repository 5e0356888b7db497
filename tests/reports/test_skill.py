"""The ``[skill]`` section: its verdicts in words, and a small run end to end (rows,
numbers recomputed from the games, report, plot and baseline)."""


import hashlib

import numpy as np
import pandas as pd
import pytest

from cakesim.app.api import ci_run, run_experiment
from cakesim.engine.errors import InputError
from cakesim.games import game_named
from cakesim.reports import skill
from cakesim.reports.answer import WORDS
from cakesim.reports.summary_file import read_summary
from cakesim.reports.text import points, points_plus_minus


def _gap(value: float, half: float = 0.01) -> dict:
    return {"value": value, "low": value - half, "high": value + half, "n": 1000}


def _verdict(word: str, value: float) -> dict:
    return {"word": word, "gap": _gap(value)}


@pytest.mark.parametrize(("verdicts", "expected"), [
    ([("disadvantaged", -0.087), ("disadvantaged", -0.021), ("disadvantaged", -0.05)],
     "The first waiter is disadvantaged at 4P base for every strength tested (-2.1 to "
     "-8.7 pp)."),
    ([("above", 0.008), ("above", 0.006)],
     "The first waiter is above fair at 4P base for every strength tested (+0.6 to +0.8 pp)."),
    ([("fair", 0.004), ("fair", -0.003), ("fair", 0.0)],
     "The first waiter is fair at 4P base for every strength tested (+0.0 to +0.4 pp)."),
    ([("disadvantaged", -0.05)],
     "The first waiter is disadvantaged at 4P base for the one strength tested, random "
     "(-5.0 pp)."),
    ([("disadvantaged", -0.05), ("below", -0.03), ("fair", 0.004), ("fair", 0.002)],
     "At 4P base the first waiter's verdict depends on skill: disadvantaged for random, "
     "below fair for greedy, fair for tuned and search."),
    ([("advantaged", 0.05), ("inconclusive", -0.004), ("advantaged", 0.03)],
     "At 4P base the first waiter's verdict is not settled for every strength: advantaged "
     "for random and tuned, inconclusive for greedy."),
    ([("inconclusive", 0.004), ("inconclusive", -0.002)],
     "At 4P base the first waiter's verdict is inconclusive for every strength tested (-0.2 "
     "to +0.4 pp)."),
])
def test_the_verdict_across_strengths_in_words(verdicts, expected):
    names = ["random", "greedy", "tuned", "search"]
    found = [(name, _verdict(*v)) for name, v in zip(names, verdicts, strict=False)]
    assert skill.holds_sentence("first waiter", "4P base", found) == expected


def test_the_headline_names_where_the_verdict_depends_holds_or_is_not_settled():
    settings = [{"setting": name, "seat": "first waiter", "depends": depends, "holds": holds}
                for name, depends, holds in [("3P base", False, True), ("4P base", True, False),
                                             ("5P base", False, False)]]
    data = {"strengths": ["random", "tuned"], "settings": settings}
    assert skill.headline(data) == (
        "The first waiter's verdict depends on skill (random and tuned) at 4P base; it holds "
        "for every strength at 3P base; it is not settled for every strength at 5P base.")
    data["settings"] = settings[:1]
    assert skill.headline(data) == ("The first waiter's verdict holds for every strength "
                                    "(random and tuned) at 3P base.")


@pytest.mark.parametrize(("spread", "words"), [
    (_gap(0.03), "the stronger player gains more from the first seat"),
    (_gap(-0.03), "the stronger player gains less from the first seat"),
    (_gap(0.005), "no detectable difference"),
])
def test_whether_a_stronger_player_gains_more_in_words(spread, words):
    gains = [("random", _gap(0.0), _gap(0.05)), ("greedy", _gap(0.012, 0.02), _gap(0.2))]
    text = skill.mixed_sentence("tuned", gains, spread | {"method": "paired by deal"})
    assert text.startswith("Alone among tuned players: random wins 5.0 % [4.0, 6.0], its "
                           "first seat worth +0.0 pp [-1.0, +1.0]; greedy wins 20.0 % "
                           "[19.0, 21.0], its first seat worth +1.2 pp [-0.8, +3.2]. greedy "
                           "minus random: ")
    assert text.endswith(f"(paired by deal): {words}.")
    assert skill.mixed_sentence("tuned", gains[1:], None).endswith("worth +1.2 pp [-0.8, +3.2].")


def test_a_lone_player_that_never_wins_is_said_to_never_win():
    never = {"value": 0.0, "low": 0.0, "high": 0.001}
    text = skill.mixed_sentence("tuned", [("random", _gap(0.0, 0.0), never)], None)
    assert text == ("Alone among tuned players: random never wins, so no seat is worth "
                    "anything to it.")


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


def _played(tmp_path_factory, name: str, text: str):
    """The experiment ``text`` played and reported in a folder of its own."""
    folder = tmp_path_factory.mktemp(name)
    path = folder / f"{name}.toml"
    path.write_text(text)
    result = run_experiment(path, n_jobs=1, progress=False, cache=False, out=folder / "out")
    return result, read_summary(folder / "out")


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """The experiment played and reported once for the tests below."""
    return _played(tmp_path_factory, "skilled", EXPERIMENT)


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
            # Every seat's gap, and the worst seat: under strong play not always the first.
            by_seat = _shares(rows).groupby(rows["seat"]).mean() - 1 / s["players"]
            assert [g["value"] for g in row["seat_gaps"]] == pytest.approx(
                by_seat.to_list(), abs=1e-12)
            assert row["worst"]["seat"] == by_seat.idxmin() + 1
            assert row["worst"]["gap"] == row["seat_gaps"][by_seat.idxmin()]
            assert row["worst"]["share"]["value"] == pytest.approx(
                by_seat.min() + 1 / s["players"], abs=1e-12)
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
    # The words follow the verdicts.
    for s in data["settings"]:
        words = {r["verdict"]["word"] for r in s["rows"]}
        assert s["holds"] == (len(words) == 1 and words != {"inconclusive"})
        assert ("depends on skill" in s["words"]) == s["depends"] == (
            len(words - {"inconclusive"}) > 1)
        for r in s["rows"]:
            assert f"{WORDS[r['verdict']['word']]}" in s["words"]


def test_the_skill_section_and_the_tables_never_give_one_table_two_verdicts(ran):
    _, summary = ran
    first_seats = {t["label"]: t["seats"][0] for t in summary["tables"]}
    rows = [r for s in summary["sections"]["skill"]["settings"] for r in s["rows"]]
    shared = [r for r in rows if r["shared"]]
    assert shared and len(shared) < len(rows)
    for r in shared:
        seat = first_seats[r["table"]]
        assert r["verdict"]["word"] == seat["verdict"]["word"]
        assert r["verdict"] == seat["verdict"]
        # The skill table prints the interval the report's table prints.
        fair = seat["verdict"]["fair"]
        assert r["gap"]["low"] == pytest.approx(seat["win_share"]["low"] - fair, abs=1e-15)
        assert r["gap"]["high"] == pytest.approx(seat["win_share"]["high"] - fair, abs=1e-15)
    # A row of the section's own is judged as the report judges its seats.
    family = summary["verdict_family"]
    for r in rows:
        assert r["verdict"]["family"] == family and r["verdict"]["margin"] == summary["margin"]
        gap = r["verdict"]["gap"]
        assert gap["low"] <= r["gap"]["low"] and r["gap"]["high"] <= gap["high"]


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


TRACE = """
[experiment]
name = "traced"
title = "Traced"
game = "piece-o-cake"
answer = "skill"
seed = 5
games = 300
chunk_size = 300

[ci]
games = 150
seed = 6
level = 0.01

[skill]
strengths = ["random", "greedy-balanced", "tuned"]
trace = true
games = 150
ci_games = 90

[strategies.random]
chooser = "random"
cutter = "random"

[[tables]]
players = 3
variant = ["base", "compensation"]
seats = "random"
"""


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """A trace played and reported once for the tests below."""
    return _played(tmp_path_factory, "traced", TRACE)


def test_a_trace_seats_each_strength_among_the_one_below_and_pairs_its_changes(traced):
    result, summary = traced
    runs = {run.table.label: run for run in result.runs}
    data = summary["sections"]["skill"]
    assert data["trace"]
    for s in data["settings"]:
        # The lowest strength has no lone row: each other sits among the one below it.
        assert [(m["strength"], runs[m["table"]].table.strategies[1].name)
                for m in s["mixed"]] == [("greedy-balanced", "random"),
                                          ("tuned", "greedy-balanced")]
        uniform = {r["strength"]: runs[r["table"]].rows for r in s["rows"]}
        assert [(t["lower"], t["upper"]) for t in s["trace"]] == [
            ("random", "greedy-balanced"), ("greedy-balanced", "tuned")]
        for step, m in zip(s["trace"], s["mixed"], strict=True):
            for change in step["seats"]:
                seat = change["seat"] - 1
                by_deal = [_shares(rows)[rows["seat"] == seat].groupby(
                    rows["deal"][rows["seat"] == seat]).mean()
                    for rows in (uniform[step["upper"]], uniform[step["lower"]])]
                # On the deals both played: random's row is the 300-game headline table.
                deals = min(len(x) for x in by_deal)
                assert change["deals"] == deals == 150
                assert change["method"] == "paired by deal"
                assert change["value"] == pytest.approx(
                    (by_deal[0].to_numpy()[:deals] - by_deal[1].to_numpy()[:deals]).mean(),
                    abs=1e-12)
            assert step["largest"] in step["seats"]
            reach = max(max(abs(c["low"]), abs(c["high"])) for c in step["seats"])
            assert max(abs(step["largest"]["low"]), abs(step["largest"]["high"])) == reach
            assert step["moved"] == skill.moved(step["seats"])
            # The deals at which the widest seat's interval would be +-1 pp wide.
            half = max(c["high"] - c["low"] for c in step["seats"]) / 2
            assert step["deals_to_resolve"] == int(np.ceil(150 * (half / 0.01) ** 2))
            if step["moved"] == "unresolved" and step is s["trace"][-1]:
                assert f"about {step['deals_to_resolve']:,} deals a row" in s["trace_words"]
            lone = runs[m["table"]].rows
            share = _shares(lone)[lone["player"] == 0].mean()
            assert step["alone"]["value"] == pytest.approx(share, abs=1e-12)
            assert step["alone_gap"]["value"] == pytest.approx(share - 1 / 3, abs=1e-12)
        assert s["trace_words"].startswith(f"At {s['setting']}, from greedy-balanced to tuned")
    # The answer is the trace's verdict; the report shows its tables and plot.
    assert summary["answer"]["paragraph"].startswith(skill.trace_headline(data))
    worst = skill.strongest_worst(data)
    assert worst.startswith("The worst seat with tuned at every seat: 3P base ")
    # Its worst seats are the strongest level's: the overall worst, found among weaker
    # players, is not added (it would contradict them).
    assert summary["answer"]["paragraph"].endswith(worst)
    assert summary["answer"]["line"] == f"{skill.trace_headline(data)} {worst}"
    assert "Worst seat:" not in summary["answer"]["paragraph"]
    text = result.report.read_text()
    # Every seat's gap at the strongest level, the worst in bold.
    for s in data["settings"]:
        worst_row = s["rows"][-1]
        assert f"**{points_plus_minus(worst_row['worst']['gap'])}**" in text
    assert "### The trace" in text and "| greedy-balanced to tuned |" in text
    assert "| tuned among greedy-balanced |" in text
    assert (result.report.parent / "skill.png").stat().st_size > 10_000


def _change(low: float, high: float) -> dict:
    return {"value": (low + high) / 2, "low": low, "high": high}


@pytest.mark.parametrize(("moved", "words"), [
    (["settled", "settled"], "converged within ±1 pp"),
    (["settled", "unresolved"], "not resolved to ±1 pp"),
    (["moving", "unresolved"], "still moving")])
def test_the_one_line_verdict_of_a_trace(moved, words):
    settings = [{"trace": [{"moved": word}]} for word in moved]
    assert skill._settled({"settings": settings}) == words


@pytest.mark.parametrize(("seats", "word"), [
    ([_change(-0.008, 0.009), _change(-0.002, 0.004)], "settled"),
    ([_change(-0.008, 0.009), _change(0.012, 0.03)], "moving"),
    ([_change(-0.04, -0.011), _change(-0.002, 0.004)], "moving"),
    ([_change(-0.008, 0.011), _change(-0.002, 0.004)], "unresolved"),
])
def test_the_answer_has_stopped_moving_only_when_every_seat_is_within_a_point(seats, word):
    assert skill.moved(seats) == word


@pytest.mark.parametrize(("low", "high", "word"), [
    (0.265, 0.30, "stronger"), (0.245, 0.259, "converged"), (0.20, 0.24, "weaker"),
    (0.24, 0.27, "unresolved"),
])
def test_a_level_alone_among_the_one_below_is_stronger_converged_or_weaker(low, high, word):
    assert skill._stronger(_change(low, high), 0.25) == word


@pytest.mark.parametrize(("extra", "key"), [
    ('reference = "tuned"', "reference"), ("mixed = false", "mixed"),
])
def test_a_trace_refuses_a_reference_or_no_lone_rows(tmp_path, extra, key):
    path = tmp_path / "traced.toml"
    path.write_text(TRACE.replace("trace = true", f"trace = true\n{extra}"))
    with pytest.raises(InputError, match=rf"skill\.{key}.*trace = true") as error:
        run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path / "out")
    assert error.value.source == str(path)


QUOTING = """
[experiment]
name = "quoting"
title = "Quoting"
game = "piece-o-cake"
seed = 7
games = 120
skill_trace = "traced"

[ci]
games = 60
seed = 8

[skill]
enabled = false

[strategies.greedy]
builtin = "greedy"

[[tables]]
players = 3
seats = "greedy"
"""


def test_a_report_quotes_its_skill_trace_and_the_digest_of_the_trace_it_read(tmp_path):
    experiments = tmp_path / "experiments"
    experiments.mkdir()
    (experiments / "traced.toml").write_text(TRACE)
    quoting = experiments / "quoting.toml"
    quoting.write_text(QUOTING)
    run = {"n_jobs": 1, "progress": False, "cache": False}
    before = run_experiment(quoting, out=tmp_path / "runs" / "a", **run)
    said = read_summary(before.report.parent)
    assert said["skill_trace"]["words"] == (
        "the skill trace traced is not run yet (make experiment EXP=traced).")
    assert said["answer"]["paragraph"].endswith(
        "Stronger players: the skill trace traced is not run yet (make experiment EXP=traced).")
    traced = run_experiment(experiments / "traced.toml", out=tmp_path / "reports" / "traced",
                            **run)
    after = read_summary(run_experiment(quoting, out=tmp_path / "runs" / "b", **run)
                         .report.parent)
    trace = read_summary(traced.report.parent)["sections"]["skill"]
    quoted = after["skill_trace"]
    gaps = [f"{100 * s['rows'][-1]['gap']['value']:+.1f}" for s in trace["settings"]]
    worst = [s["rows"][-1]["worst"] for s in trace["settings"]]
    assert quoted["words"] == (
        "tuned at every seat (the skill trace traced, 150 games a row): the first waiter's "
        f"gap to fair is 3P base {gaps[0]} pp, 3P compensation {gaps[1]} pp; the worst seat "
        f"is 3P base {'the ' * (worst[0]['seat'] == 1)}{worst[0]['name']} "
        f"({points(worst[0]['gap'])}), 3P compensation "
        f"{'the ' * (worst[1]['seat'] == 1)}{worst[1]['name']} "
        f"({points(worst[1]['gap'])}). {skill.trace_headline(trace)} "
        f"{skill._beaten(trace)}")
    assert quoted["sha256"] == hashlib.sha256(
        (traced.report.parent / "summary.json").read_bytes()).hexdigest()
    assert quoted["line"] == (
        f"Strongest tried, tuned ({skill._settled(trace)}): first waiter 3P base {gaps[0]} pp, "
        f"3P compensation {gaps[1]} pp.")
    assert after["answer"]["line"].startswith(quoted["line"] + " First waiter against fair")
    # The trace's strongest level leads the answer; the report's own players follow.
    assert after["answer"]["paragraph"].startswith(
        f"Under the skill trace's strongest level, {quoted['words']} For comparison: ")


def test_a_skill_trace_must_name_an_experiment_beside_the_file(tmp_path):
    path = tmp_path / "quoting.toml"
    path.write_text(QUOTING.replace('"traced"', '"nowhere"'))
    (tmp_path / "traced.toml").write_text(TRACE)
    with pytest.raises(InputError, match=r"experiment\.skill_trace: no experiment 'nowhere' "
                                         r"beside quoting\.toml; allowed values: traced$"):
        run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path / "out")


def _step(lower: str, upper: str, gap: float | None) -> dict:
    return {"lower": lower, "upper": upper,
            "alone_gap": None if gap is None else {"value": gap}}


def test_the_quote_says_how_far_each_end_of_the_trace_beats_the_level_below():
    settings = [{"trace": [_step("tuned", "s100", 0.28), _step("s100", "s200", 0.01),
                           _step("s200", "s400", -0.015)]},
                {"trace": [_step("tuned", "s100", 0.49), _step("s100", "s200", None),
                           _step("s200", "s400", 0.028)]}]
    assert skill._beaten({"settings": settings}) == (
        "Alone among tuned players, s100's win share is 28.0 to 49.0 pp above fair (by "
        "setting); alone among s200 players, s400's win share is 1.5 pp below to 2.8 pp "
        "above fair (by setting).")
    # A trace of one step says it once.
    one = [{"trace": s["trace"][:1]} for s in settings]
    assert skill._beaten({"settings": one}) == (
        "Alone among tuned players, s100's win share is 28.0 to 49.0 pp above fair (by "
        "setting).")
    below = [{"trace": [_step("s200", "s400", gap)]} for gap in (-0.045, -0.005)]
    assert skill._beaten({"settings": below}) == (
        "Alone among s200 players, s400's win share is 0.5 to 4.5 pp below fair (by "
        "setting).")


def _last_step(setting: str, stronger: str) -> dict:
    return {"setting": setting, "trace": [{"lower": "tree800", "upper": "lookahead2",
                                           "moved": "moving", "stronger": stronger}]}


def test_a_last_level_that_loses_to_the_one_below_is_not_called_the_strongest():
    ordered = {"settings": [_last_step("2P base", "stronger"),
                            _last_step("4P base", "unresolved")]}
    assert skill.weaker_at(ordered) == []
    assert skill.trace_headline(ordered) == (
        "From tree800 to lookahead2, the strongest two levels, every seat's share is still "
        "moving by more than 1 pp at 2P base and 4P base.")
    assert skill.trace_lead(ordered) == "Under the skill trace's strongest level,"
    unordered = {"settings": [_last_step("2P base", "stronger"),
                              _last_step("4P base", "weaker"),
                              _last_step("5P base", "weaker")]}
    assert skill.weaker_at(unordered) == ["4P base", "5P base"]
    assert skill.trace_headline(unordered) == (
        "From tree800 to lookahead2, the last two levels, every seat's share is still moving "
        "by more than 1 pp at 2P base, 4P base and 5P base. Alone among tree800 players, "
        "lookahead2 wins less than its fair share at 4P base and 5P base: there it is not "
        "the stronger of the two, and the trace's levels are not ordered by strength.")
    assert skill.trace_lead(unordered) == (
        "Under the last level of the skill trace, which is not the strongest everywhere,")
