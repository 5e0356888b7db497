"""Experiment files: what the loader refuses before any game is played (exit 2)."""

import pytest

from cakesim.cli import main
from cakesim.engine.errors import InputError
from cakesim.experiment import load_experiment

TEAM = """
[experiment]
game = "speedtorte"
seed = 1
games = 100

[strategies.team]

[[tables]]
players = 2
seats = "team"
"""


def test_two_tables_with_one_label_are_refused(tiny_experiment):
    path = tiny_experiment(extra='\n[[tables]]\nplayers = 3\nseats = "greedy-balanced"\n')
    with pytest.raises(InputError, match="two tables are labelled '3P base greedy-balanced'"):
        load_experiment(str(path))


def test_a_team_game_cannot_ask_for_a_seats_win_share(tmp_path, capsys):
    path = tmp_path / "team.toml"
    path.write_text(TEAM + "\n[plan]\npilot_games = 100\n")
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "team.toml" in err and "plan" in err and "all players together" in err


def test_a_team_game_without_seat_questions_loads(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(TEAM)
    experiment = load_experiment(str(path))
    assert [t.label for t in experiment.tables] == ["2P signals team"]
    assert experiment.tables[0].options == (("level", "Lehrling"),)
