"""Eilauftrag budgets: quantiles of finishing times, their intervals, the report section."""

import math

import numpy as np
import pandas as pd
import pytest

from cakesim.app.api import run_experiment
from cakesim.app.cli import main
from cakesim.games.speedtorte.budgets import (
    budget_estimate,
    budget_for,
    clock,
    finishing_seconds,
    win_rate_at,
)

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


def test_the_budget_section_of_a_small_experiment(tmp_path, tiny_budget_experiment):
    result = run_experiment(tiny_budget_experiment, n_jobs=1, progress=False, cache=False,
                            out=tmp_path / "report")
    text = result.report.read_text()
    assert "## Eilauftrag time budgets" in text and "finishing_times.png" in text
    assert "-20 %" in text and '"+15 s for two players" right?' in text
    assert (tmp_path / "report" / "finishing_times.png").exists()


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

[[tables]]
level = "Lehrling"
players = [2, 3]
variant = "eilauftrag"
seats = "team"
""")
    return path
