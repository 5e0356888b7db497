"""The command line: good input answers, bad input gets one clear line and exit status 2."""

import json
import subprocess
import sys

import pytest

from cakesim.cli import main

GOOD = {"players": [{"collected": {"chocolate": 3, "plum": 1}, "eaten": {"strawberry": 2}},
                    {"collected": {"chocolate": 3}, "eaten": {"kiwi": 1}}]}


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_score_an_end_position(tmp_path, capsys):
    assert main(["score", "piece-o-cake", _write(tmp_path, "end.json", GOOD)]) == 0
    # Seat 1: chocolate tie 11 + plum 3 + 2 x 2 cream = 18; seat 2: 11 + 2 = 13.
    assert json.loads(capsys.readouterr().out) == {"scores": [18, 13], "winners": [0]}
    tied = dict(GOOD, tie_rule="none")
    assert main(["score", "piece-o-cake", _write(tmp_path, "tied.json", tied)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [7, 2]


@pytest.mark.parametrize(("content", "message"), [
    ({"players": [{"collected": {"lemon": 1}}, {}]}, "players[0].collected.lemon: unknown kind"),
    ({"players": [{"collected": {"plum": -1}}, {}]}, "out of range"),
    ({"players": [{"collected": {"plum": 2}}, {"eaten": {"plum": 2}}]}, "but the game has 3"),
    ({"players": [{}]}, "1 players; allowed: 2 to 5"),
    ({"players": [{}, {}], "tie_rule": "half"}, "allowed values: 'full', 'none'"),
    ("{not json", "not valid JSON"),
])
def test_score_rejects_bad_input(tmp_path, capsys, content, message):
    assert main(["score", "piece-o-cake", _write(tmp_path, "bad.json", content)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "bad.json" in err


EXPERIMENT = """
[experiment]
name = "tiny"
game = "piece-o-cake"
seed = 3
games = 200

[strategies.greedy]
chooser = "greedy"

[[tables]]
players = [3, 5]
variant = ["base", "compensation"]
seats = "greedy"

# The skill ladder (search players at every seat) has its own tests: off here.
[skill]
enabled = false
"""


@pytest.mark.parametrize(("old", "new", "message"), [
    ('games = 200', 'games = 200\ncolour = "red"', "experiment.colour: unknown key"),
    ('seed = 3', 'seed = "three"', "experiment.seed: must be an integer"),
    ('players = [3, 5]', 'players = [3, 7]', "tables[0].players: 7 is not allowed"),
    ('seats = "greedy"', 'seats = "clever"', "unknown strategy 'clever'"),
    ('chooser = "greedy"', 'chooser = "greedy"\neat_weight = -1', "allowed: 0 to 1000000"),
    ('variant = ["base", "compensation"]', 'variant = "joker"', "allowed values: base"),
    ('players = [3, 5]\nvariant = ["base", "compensation"]',
     'players = 5\nvariant = "compensation"',
     "tables: every table was skipped: 5 players: no compensation variant"),
    ('seed = 3', 'seed = 3\nmargin = 0.7', "experiment.margin: 0.7 is out of range"),
    ('[[tables]]', '[[tables]]\ncontrol = "yes"', "tables[0].control: must be true or false"),
])
def test_bad_experiments_exit_2_naming_file_and_key(tmp_path, capsys, old, new, message):
    path = _write(tmp_path, "tiny.toml", EXPERIMENT.replace(old, new))
    assert main(["run", path, "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "tiny.toml" in err and "Traceback" not in err


def test_run_writes_a_report_and_says_what_it_skipped(tmp_path):
    path = _write(tmp_path, "tiny.toml", EXPERIMENT)
    out = tmp_path / "out"
    assert main(["run", path, "--out", str(out), "--quiet", "--n-jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [t["label"] for t in summary["tables"]] == ["3P base greedy",
                                                       "3P compensation greedy",
                                                       "5P base greedy"]
    assert summary["seed"] == 3 and summary["tables"][0]["games"] == 200
    assert "5 players: no compensation variant" in (out / "report.md").read_text()
    assert (out / "seat_win_share.png").stat().st_size > 0
    assert (out / "results.parquet").exists()


def test_replay_prints_a_readable_game():
    out = subprocess.run([sys.executable, "-m", "cakesim", "replay", "piece-o-cake", "--seed",
                          "1", "--game", "7", "--players", "3", "--variant", "compensation"],
                         capture_output=True, text=True, check=True).stdout
    assert "Cake 5" in out and "cuts" in out and "keeps a set-aside slice" in out
    assert "first waiter" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["tune", "piece-o-cake", "--players", "9"], "--players: players: 9 is not allowed"),
    (["tune", "piece-o-cake", "--players", "2", "--variant", "joker"],
     "--variant: joker: not played at 2 players; allowed: base"),
    (["exploit", "part-du-chef", "--players", "2", "--strategy", "cheater"],
     "strategy: cheater: unknown strategy; built in: random"),
    (["tune", "piece-o-cake", "--players", "2", "3", "--out", "both.toml"],
     "--out: both.toml: one file holds one tuning"),
])
def test_tune_and_exploit_refuse_bad_input(argv, message, capsys):
    assert main([*argv, "--budget", "4", "--games", "20", "--confirm", "20",
                 "--no-cache", "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_tune_offers_only_games_it_can_tune(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tune", "speedtorte"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
