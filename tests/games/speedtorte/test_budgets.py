"""Eilauftrag budgets: quantiles of finishing times, their intervals, the report section."""

import math

import numpy as np
import pandas as pd
import pytest

from cakesim.app.api import run_experiment
from cakesim.app.cli import main
from cakesim.games.speedtorte import budget_report
from cakesim.games.speedtorte.budgets import (
    BudgetQuestion,
    budget_estimate,
    budget_for,
    clock,
    finishing_seconds,
    paired_budget_difference,
    win_rate_at,
)
from cakesim.games.speedtorte.timing import PARAMETERS
from cakesim.reports.summary_file import read_summary

INF = math.inf


def test_the_budget_is_the_quantile_of_finishing_times_with_losses_never_finishing():
    seconds = np.array([30.0, 10.0, INF, 20.0, 40.0])
    assert budget_for(seconds, 0.2) == 10.0
    assert budget_for(seconds, 0.6) == 30.0
    assert budget_for(seconds, 0.8) == 40.0
    assert math.isnan(budget_for(seconds, 0.9))  # only 4 of 5 games are ever won
    assert win_rate_at(seconds, 30.0).value == 0.6
    assert win_rate_at(seconds, 29.9).value == 0.4


def test_lost_games_never_finish_and_the_clock_reads_minutes():
    rows = pd.DataFrame({"won": [1, 0, 1], "finish_ms": [61_500, 99_000, 5_000]})
    assert list(finishing_seconds(rows)) == [61.5, INF, 5.0]
    assert clock(61.5) == "1:02" and clock(195) == "3:15" and clock(math.nan) == "out of reach"


def test_the_bootstrap_interval_holds_the_budget_and_shrinks_with_more_games():
    rng = np.random.default_rng(1)
    small = budget_estimate(rng.exponential(60, 400), 0.5, 300, seed=2)
    large = budget_estimate(rng.exponential(60, 10_000), 0.5, 300, seed=2)
    assert small["low"] <= small["value"] <= small["high"]
    assert large["high"] - large["low"] < small["high"] - small["low"]
    assert abs(large["value"] - 60 * math.log(2)) < 3  # the exponential's median


def test_a_budget_difference_on_the_same_deals_is_paired():
    rng = np.random.default_rng(4)
    before = rng.exponential(60, 2000)
    after = np.where(rng.random(2000) < 0.1, INF, before + 5.0)  # 5 s slower, 10 % lost
    same = paired_budget_difference(before, before, 0.5, 200, seed=1)
    assert same["difference"] == same["low"] == same["high"] == 0.0
    slower = paired_budget_difference(after, before, 0.5, 200, seed=1)
    assert slower["low"] <= slower["difference"] <= slower["high"]
    assert slower["low"] > 5.0  # the losses push the median further than the 5 s
    assert math.isnan(paired_budget_difference(after, before, 0.95, 200, seed=1)["difference"])


def test_the_budget_section_of_a_small_experiment(tmp_path, tiny_budget_experiment):
    cache = tmp_path / "cache"
    result = run_experiment(tiny_budget_experiment, n_jobs=1, progress=False, cache=cache,
                            out=tmp_path / "report")
    text = result.report.read_text()
    # The sensitivity runs are kept: a second run plays nothing and writes the same report.
    stored = sorted(cache.rglob("*.npz"))
    assert len(stored) > result.chunks + 2 * len(PARAMETERS)
    again = run_experiment(tiny_budget_experiment, n_jobs=1, progress=False, cache=cache,
                           out=tmp_path / "again")
    assert sorted(cache.rglob("*.npz")) == stored and again.chunks_reused == again.chunks
    assert read_summary(again.report.parent)["sections"] == read_summary(
        result.report.parent)["sections"]
    assert "## Eilauftrag time budgets" in text and "finishing_times.png" in text
    assert "-20 %" in text and '"+15 s for two players" right?' in text
    assert (tmp_path / "report" / "finishing_times.png").exists()
    # The silent table: beside its signals twin, in the section and among the comparisons,
    # and neither in the answer's table nor given its own sensitivity runs.
    summary = read_summary(result.report.parent)
    section = summary["sections"]["budgets"]
    signals = next(t for t in section["tables"]
                   if t["label"] == "Lehrling 3P eilauftrag team")
    [talk] = section["talk"]
    assert talk["table"] == "Lehrling 3P silence+eilauftrag team"
    assert [b["target"] for b in talk["budgets"]] == [0.5, 0.8]
    assert talk["signals_won_without_clock"] == signals["win_rate_without_clock"]
    assert talk["budgets"][0]["signals_budget"] == signals["budgets"][0]
    assert "Against signals on the same deals (3 players, team bakers): silence" in text
    assert "### Signals, silence and open hands" in text
    assert {m["table"] for m in section["sensitivity"]} == {signals["label"]}
    # The clairvoyant is a diagnostic, not a table of people: no budget.
    assert all(t["bakers"] != "seer" for t in section["tables"])
    assert [c["against"] for c in summary["comparisons"]] == ["eilauftrag"]
    assert "Lehrling adult 3P silence+eilauftrag team |" not in text.split("## Answer")[1].split(
        "## Eilauftrag time budgets")[0]


def test_the_budget_command_and_its_errors(capsys):
    assert main(["speedtorte", "budget", "--level", "Lehrling", "--players", "3",
                 "--target", "0.5", "--games", "300", "--n-jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Budget for 50 % wins: 0:" in out and "The seed's budget 4:30 gives" in out
    assert main(["speedtorte", "budget", "--level", "Lehrling", "--players", "3", "--target",
                 "0.5", "--profile", "kid"]) == 2
    assert "profile: 'kid' is not allowed; allowed values: adult, novice" in (
        capsys.readouterr().err)


@pytest.fixture
def tiny_budget_experiment(tmp_path):
    path = tmp_path / "budgets.toml"
    path.write_text("""
[experiment]
name = "tiny_budgets"
game = "speedtorte"
seed = 3
games = 300

[ci]
games = 100
seed = 1

[budgets]
targets = [0.5, 0.8]
bootstrap = 200
sensitivity_players = [3]
sensitivity_games = 200

[strategies.team]
chooser = "weighted"

[strategies.seer]
chooser = "lookahead"
clairvoyant = 1

[[tables]]
level = "Lehrling"
players = [2, 3]
variant = "eilauftrag"
seats = "team"

[[tables]]
level = "Lehrling"
players = 3
variant = "silence+eilauftrag"
seats = "team"

[[tables]]
level = "Lehrling"
players = 3
variant = "eilauftrag"
seats = "seer"
games = 20
""")
    return path


def test_the_answer_opens_with_the_strongest_tiers_budgets():
    def table(level, bakers, values, variant="eilauftrag", players=3):
        strong = 0.9 if level == "Meister" else 0.8
        at_seed = strong if bakers == "lookahead32" else 0.5 + 0.1 * (players - 3)
        return {"level": level, "players": players, "variant": variant, "profile": "adult",
                "bakers": bakers, "seed_budget": 195 if level == "Meister" else 180,
                "win_rate_at_seed_budget": {"value": at_seed, "low": at_seed - 0.01,
                                            "high": at_seed + 0.01},
                "budgets": [{"target": target, "value": v, "low": v - 1, "high": v + 1}
                            for target, v in zip((0.5, 0.8), values, strict=True)]}

    def setting(level, variant="eilauftrag", players=3):
        return {"level": level, "players": players, "variant": variant, "profile": "adult",
                "trace": {"strongest": "lookahead32"}}

    # The strongest tier in silence too, where the trace is not played: not in the lead.
    data = {"tables": [table("Meister", "team", (120, math.nan)),
                       table("Hofzuckerbäcker", "team", (150, math.nan)),
                       table("Meister", "team", (100, 130), players=4),
                       table("Meister", "lookahead32", (86, 111)),
                       table("Hofzuckerbäcker", "lookahead32", (97, math.nan)),
                       table("Meister", "lookahead32", (70, 95), players=4),
                       table("Meister", "lookahead32", (60, 70), "silence+eilauftrag")]}
    tiers = {"sections": {"tiers": {"trace": {"lookahead": 8, "lookahead32": 32}, "base": "team",
                                    "settings": [setting("Meister"),
                                                 setting("Hofzuckerbäcker"),
                                                 setting("Meister", players=4),
                                                 {**setting("Meister", "silence+eilauftrag"),
                                                  "trace": None}]}}}
    sentence, line, header, rows = budget_report._strongest(data, tiers)
    assert sentence == ("With the strongest bakers played (lookahead32, adult, 3, 4 players), the "
                        "budgets at Meister, Hofzuckerbäcker run 1:10-1:37 for 50 % wins and "
                        "1:35-1:51 for 80 % wins (out of reach at Hofzuckerbäcker 3P). At the "
                        "seed's budgets it wins 80.0-90.0 %; team bakers win 50.0-60.0 % on the "
                        "same tables (every setting in the table below). For comparison: ")
    assert line == ("Strongest bakers (lookahead32): budgets 1:10-1:37 for 50 %; 1:35-1:51 "
                    "for 80 %. ")
    assert header == ["setting", "seed's budget", "wins there: lookahead32", "wins there: team",
                      "lookahead32 budget for 50 % wins", "team budget for 50 % wins",
                      "lookahead32 budget for 80 % wins", "team budget for 80 % wins"]
    assert [r[0] for r in rows] == ["Meister 3P adult", "Hofzuckerbäcker 3P adult",
                                    "Meister 4P adult"]
    assert rows[1] == ["Hofzuckerbäcker 3P adult", "3:00", "80.0 % [79.0, 81.0]",
                       "50.0 % [49.0, 51.0]", "1:37 [1:36, 1:38]", "2:30 [2:29, 2:31]",
                       "out of reach", "out of reach"]
    assert budget_report._strongest(data, {"sections": {}}) is None
    # Without the base tier's tables the strongest tier's columns stand alone.
    alone = {"tables": [t for t in data["tables"] if t["bakers"] != "team"]}
    sentence, _, header, rows = budget_report._strongest(alone, tiers)
    assert "team" not in sentence and len(header) == len(rows[0]) == 5


def test_two_players_against_three_is_judged_baker_by_baker():
    def table(players, bakers, seconds, variant="eilauftrag"):
        label = f"{players} {bakers} {variant}"
        seconds_of[label] = np.asarray(seconds, dtype=float)
        return {"label": label, "level": "Meister", "players": players, "variant": variant,
                "profile": "adult", "bakers": bakers,
                "budgets": [{"value": float(np.median(seconds_of[label]))}]}

    seconds_of = {}
    tables = [table(2, "team", np.arange(100, 200)), table(3, "team", np.arange(80, 180)),
              table(2, "lookahead32", np.arange(60, 160)),
              table(3, "lookahead32", np.arange(30, 130)),
              # Only at 3 players, or in another variant: nothing to pair.
              table(3, "novice", np.arange(90, 190)),
              table(2, "team", np.arange(10, 20), "silence+eilauftrag")]
    question = BudgetQuestion(targets=(0.5,), bootstrap=200)
    found = budget_report._two_players(tables, seconds_of, question, seed=1)
    assert [(d["bakers"], d["difference"]) for d in found] == [("team", 20.0),
                                                               ("lookahead32", 30.0)]
    assert all(d["low"] <= d["difference"] <= d["high"] for d in found)
    # The answer's clause: the seed's extra time judged for the strongest bakers.
    seeds = [{"players": 2, "level": "Meister", "seed_budget": 210},
             {"players": 3, "level": "Meister", "seed_budget": 195}]
    # A difference whose interval reaches out of reach is no measured need: left out.
    found.append({"bakers": "lookahead32", "difference": 50.0, "low": math.nan})
    assert budget_report._two_player_line({"two_players": found}, seeds, "lookahead32") == (
        " Two lookahead32 bakers need +30 s against three for the same win rate (the seed "
        "gives two players +15 s).")
    assert budget_report._two_player_line({"two_players": found}, seeds[1:], "lookahead32") == ""
    assert budget_report._two_players([], seconds_of, question, seed=1) == []


def test_talking_is_told_baker_by_baker():
    def talk(bakers, won):
        return {"bakers": bakers, "mode": "silence", "players": 3,
                "won_difference": {"value": won},
                "budgets": [{"difference": math.nan}]}

    line = budget_report.talk_line({"talk": [talk("team", -0.01), talk("team", 0.02),
                                             talk("lookahead32", -0.1)]})
    assert line == (
        "Against signals on the same deals (3 players, team bakers): silence changes the win "
        "rate without a clock by -1.0 to +2.0 pp, no budget reachable in both. Against "
        "signals on the same deals (3 players, lookahead32 bakers): silence changes the win "
        "rate without a clock by -10.0 pp, no budget reachable in both.")
