"""The command line: good input answers, bad input gets one clear line and exit status 2."""

import argparse
import hashlib
import json
import math
import re
import subprocess
import sys
import tomllib

import pandas as pd
import pytest

from cakesim.app.cli import _parser, main
from cakesim.app.experiment import load_experiment
from cakesim.engine import runner
from cakesim.engine.numba_cache import CACHE_ENV
from cakesim.engine.version import __version__
from cakesim.games import GAMES
from cakesim.reports.summary_file import read_summary

GOOD = {"players": [{"collected": {"chocolate": 3, "plum": 1}, "eaten": {"strawberry": 2}},
                    {"collected": {"chocolate": 3}, "eaten": {"kiwi": 1}}]}


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_score_an_end_position(tmp_path, capsys):
    assert main(["score", "piece-o-cake", _write(tmp_path, "end.json", GOOD)]) == 0
    # Seat 1: chocolate tie 11 + plum 3 + 2 x 2 cream = 18; seat 2: 11 + 2 = 13. Seats are
    # numbered from 1 for people, as in replays.
    assert json.loads(capsys.readouterr().out) == {"scores": [18, 13], "winners": [1]}
    tied = dict(GOOD, tie_rule="none")
    assert main(["score", "piece-o-cake", _write(tmp_path, "tied.json", tied)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [7, 2]


@pytest.mark.parametrize(("content", "message"), [
    ({"players": [{"collected": {"lemon": 1}}, {}]}, "players[0].collected.lemon: unknown kind"),
    ({"players": [{"collected": {"plum": -1}}, {}]}, "out of range"),
    ({"players": [{"collected": {"plum": 2}}, {"eaten": {"plum": 2}}]}, "but the game has 3"),
    ({"players": [{}]}, "1 players; allowed: 2 to 5"),
    ({"players": [{}, {}], "tie_rule": "half"}, "allowed values: 'full', 'none'"),
    ({"players": [{"joker": "kiwi"}, {}]}, "players[0].joker: stands on kiwi, but this player"),
    ({"players": [{"joker": "eaten"}, {"joker": "plum", "collected": {"plum": 1}}]},
     "players[1].joker: the game has one joker"),
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
    ('variant = ["base", "compensation"]', 'variant = "marianne"', "allowed values: base"),
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
    summary = read_summary(out)
    assert [t["label"] for t in summary["tables"]] == ["3P base greedy",
                                                       "3P compensation greedy",
                                                       "5P base greedy"]
    assert summary["seed"] == 3 and summary["tables"][0]["games"] == 200
    assert "5 players: no compensation variant" in (out / "report.md").read_text()
    assert (out / "seat_win_share.png").stat().st_size > 0
    assert (out / "results.parquet").exists()


def test_replay_prints_a_readable_game():
    out = subprocess.run([sys.executable, "-m", "cakesim", "replay", "piece-o-cake", "--seed",
                          "1", "--index", "7", "--players", "3", "--variant", "compensation"],
                         capture_output=True, text=True, check=True).stdout
    assert "Cake 5" in out and "cuts" in out and "keeps a set-aside slice" in out
    assert "first waiter" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["tune", "piece-o-cake", "--players", "9"], "--players: players: 9 is not allowed"),
    (["tune", "piece-o-cake", "--players", "2", "--variant", "compensation"],
     "--variant: compensation: not played at 2 players; allowed: base, joker, 2-rounds"),
    (["exploit", "part-du-chef", "--players", "2", "--strategy", "cheater"],
     "strategy: cheater: unknown strategy; built in: random"),
    (["exploit", "piece-o-cake", "--players", "9", "--strategy", "tuned"],
     "--players: players: 9 is not allowed"),
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
    assert "invalid choice: 'speedtorte'; allowed values: piece-o-cake" in capsys.readouterr().err


# --- Every command explains itself -------------------------------------------------------

def _commands(parser):
    """Every (sub)command parser below ``parser``, with its name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield name, command
                yield from _commands(command)


def _full_commands():
    """Every command and its tools as parsed once chosen (only then is its whole parser
    built: the others are a line of help)."""
    top = _parser()
    yield "cakesim", top
    for name in next(a for a in top._actions
                     if isinstance(a, argparse._SubParsersAction)).choices:
        chosen = dict(_commands(_parser(name)))[name]
        yield name, chosen
        yield from _commands(chosen)


def test_every_command_has_examples_and_every_option_a_help_text():
    for name, command in _full_commands():
        has_tools = any(isinstance(a, argparse._SubParsersAction) for a in command._actions)
        assert command.epilog and command.epilog.startswith("examples:"), name
        for action in command._actions:
            if not isinstance(action, argparse._SubParsersAction) or not has_tools:
                assert action.help, f"{name} {action.option_strings or action.dest}"


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"cakesim {__version__}"


# --- What if: --set and --rules ------------------------------------------------------------

@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder with the tiny experiment, as the working directory."""
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "tiny.toml").write_text(EXPERIMENT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_set_changes_a_rule_for_one_run_and_the_report_records_it(project, capsys):
    assert main(["run", "tiny", "--games", "100", "--set", "cream.chocolate=2", "--set",
                 "tie_rule=none", "--quiet", "--n-jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    # The answer, the time taken and where the report went: never over reports/tiny.
    folder = project / "runs" / "tiny" / "games-100_set-cream.chocolate=2_set-tie_rule=none"
    assert out[-1] == f"wrote {(folder / 'report.md').relative_to(project)}"
    assert out[-2].startswith("took ")
    summary = read_summary(folder)
    assert out[-3] == summary["headline"]
    assert not (project / "reports").exists()
    changed = summary["config"]["changed_rules"]
    assert changed["set"] == ["cream.chocolate=2", "tie_rule=none"]
    played = (folder / "rules.toml").read_text()
    assert changed["changed_files_sha256"] == {
        "rules.toml": hashlib.sha256(played.encode()).hexdigest()}
    assert tomllib.loads(played)["kinds"][7] == {"name": "chocolate", "majority_value": 11,
                                                 "cream": [2] * 11}
    assert summary["command"] == ("cakesim run experiments/tiny.toml --seed 3 --games 100 "
                                  "--set cream.chocolate=2 --set tie_rule=none")
    # The same rules from the file written, by --rules: the same games.
    assert main(["run", "tiny", "--games", "100", "--rules", str(folder / "rules.toml"),
                 "--set", "tie_rule=none", "--quiet", "--n-jobs", "1",
                 "--out", str(project / "again")]) == 0
    again = read_summary(project / "again")
    assert again["tables"] == summary["tables"]
    assert again["config"]["changed_rules"]["rules"] == str(folder / "rules.toml")


@pytest.mark.parametrize(("flag", "message"), [
    ("cream.chocolate=x", "--set cream.chocolate=x: kinds[7].cream: 'x' is not allowed; "
                          "allowed: a list of whole numbers 0 to 100"),
    ("colour=red", "--set colour=red: colour: unknown key; allowed keys: name, players, cakes"),
    ("kinds.lemon.cream=2", "--set kinds.lemon.cream=2: kinds: no entry 'lemon'; allowed: "
                            "plum, apricot"),
    ("tie_rule=half", "--set tie_rule=half: tie_rule: 'half' is not allowed; allowed values: "
                      "full, none"),
    ("cakes.big=2", "--set cakes.big=2: cakes: is a value (5), not a table"),
])
def test_a_bad_set_names_the_flag_and_what_is_allowed(project, capsys, flag, message):
    assert main(["run", "tiny", "--set", flag, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "tiny.toml" not in err


def test_a_set_without_a_value_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["run", "tiny", "--set", "players"])
    assert stop.value.code == 2
    assert "argument --set: 'players' is not KEY=VALUE" in capsys.readouterr().err


def test_names_resolve_from_any_folder_of_the_project_and_not_outside(project, tmp_path_factory,
                                                                       monkeypatch, capsys):
    deep = project / "reports" / "tiny"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert load_experiment("tiny").path == project / "experiments" / "tiny.toml"
    assert main(["run", "huge", "--quiet"]) == 2
    assert "experiment: huge: no such experiment in" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    assert main(["run", "tiny", "--quiet"]) == 2
    assert "is not inside a cakesim project" in capsys.readouterr().err


def test_new_writes_an_experiment_that_runs_and_never_overwrites(project, capsys):
    for game in GAMES:
        assert main(["new", f"try_{game}", "--game", game.upper()]) == 0
        path = project / "experiments" / f"try_{game}.toml"
        assert f"wrote experiments/try_{game}.toml" in capsys.readouterr().out
        experiment = load_experiment(f"try_{game}", games=20)
        assert experiment.game.name == game and "#" in path.read_text()
    assert main(["run", "try_piece-o-cake", "--games", "20", "--quiet", "--n-jobs", "1"]) == 0
    assert (project / "runs" / "try_piece-o-cake" / "games-20" / "report.md").exists()
    assert main(["new", "tiny", "--game", "piece-o-cake"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert (project / "experiments" / "tiny.toml").read_text() == EXPERIMENT


@pytest.mark.parametrize("name", ["", "../../x", 'a"b', "two\nlines", "back\\slash"])
def test_new_refuses_a_name_that_is_no_folder_name(project, name, capsys):
    before = sorted(project.rglob("*"))
    assert main(["new", name, "--game", "piece-o-cake"]) == 2
    assert "cakesim new: name:" in capsys.readouterr().err
    assert sorted(project.rglob("*")) == before


@pytest.mark.parametrize("name", ["../../x", ""])
def test_an_experiment_name_that_leaves_its_folder_is_refused(project, name, capsys):
    path = project / "experiments" / "tiny.toml"
    path.write_text(path.read_text().replace('name = "tiny"', f"name = {name!r}"))
    assert main(["run", "tiny", "--games", "20", "--quiet"]) == 2
    assert "experiment.name:" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["run", "tiny", "--out", "notes.md"], "--out: notes.md: is a file"),
    (["run", "tiny", "--out", "reports/other"], "--out: reports/other: is a committed report"),
    (["run", "tiny", "--games", "20", "--out", "reports/tiny"], "is a committed report"),
    (["compare", "tiny", "--set", "tie_rule=none", "--out", "reports/tiny"],
     "is a committed report"),
    (["run", "elsewhere/tiny.toml"], "[experiment] name: reports/tiny: is a committed report"),
])
def test_a_report_never_goes_over_a_file_or_another_committed_report(project, argv, message,
                                                                     capsys):
    (project / "notes.md").write_text("mine")
    (project / "elsewhere").mkdir()
    (project / "elsewhere" / "tiny.toml").write_text(EXPERIMENT)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    assert main([*argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err
    # Refused before a game is played: nothing written, nothing cached.
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


SHIPPED = "# the shipped tuning\n"

# A search as small as a test can afford; without --no-cache, a search that ran would
# leave its checkpoints in the project.
SMALL = ["--budget", "4", "--games", "20", "--confirm", "20", "--n-jobs", "1", "--quiet"]


@pytest.fixture
def package(project, monkeypatch):
    """A stand-in for the cakesim package with shipped tuned files, so that a test that
    fails can never write over the real ones."""
    folder = project / "package"
    (folder / "tuned").mkdir(parents=True)
    for name in ("2p-base.toml", "2p-joker.toml"):
        (folder / "tuned" / name).write_text(SHIPPED)
    monkeypatch.setattr("cakesim.app.api.PACKAGE", folder)
    monkeypatch.setattr("cakesim.app.api.tuned_path", lambda game, players, variant:
                        folder / "tuned" / f"{players}p-{variant}.toml")
    return folder


CI = """
[ci]
games = 20
seed = 5
"""


TUNE = ["tune", "piece-o-cake", "--players", "2", "--rounds", "1", *SMALL]
EXPLOIT = ["exploit", "piece-o-cake", "--players", "2", "--strategy", "random", *SMALL]


@pytest.mark.parametrize(("argv", "message"), [
    (["baseline", "elsewhere/tiny.toml", "--quiet"],
     "[experiment] name: reports/baselines/tiny.json: is the committed baseline of "
     "experiments/tiny.toml, which only that file writes; allowed: experiments/tiny.toml"),
    # Every experiment is checked before the first one plays.
    (["baseline", "tiny", "elsewhere/tiny.toml", "--quiet"], "is the committed baseline"),
    ([*TUNE, "--variant", "joker", "--out", "package/tuned/2p-joker.toml"],
     "--out: package/tuned/2p-joker.toml: lies inside the cakesim package; allowed: a .toml "
     "file outside reports/ and the package (no --out: runs/tuned/; the game's shipped file: "
     "--ship)"),
    ([*TUNE, "--out", "notes.md"], "--out: notes.md: is not a .toml file; allowed:"),
    ([*TUNE, "--out", "experiments"], "--out: experiments: is a folder; allowed:"),
    ([*TUNE, "--out", "reports/tiny.toml"], "--out: reports/tiny.toml: lies in reports/"),
    ([*TUNE, "--out", "notes.md/tuned.toml"],
     "--out: notes.md/tuned.toml: cannot be written (notes.md is a file); allowed:"),
    ([*TUNE, "--out", "experiments/tiny.toml"],
     "--out: experiments/tiny.toml: exists and is not a tuned strategy file; allowed:"),
    ([*TUNE, "--players", "2", "9"], "--players: players: 9 is not allowed; allowed: 2 to 5"),
    ([*EXPLOIT, "--report", "reports/tiny"],
     "--report: reports/tiny: lies in reports/, the committed reports; allowed: "
     "reports/exploitability, or a folder outside reports/"),
    ([*EXPLOIT, "--report", "reports/baselines"], "--report: reports/baselines: lies in"),
    ([*EXPLOIT, "--report", "notes.md"], "--report: notes.md: is a file; allowed:"),
    ([*EXPLOIT, "--report", "package/exploitability"],
     "--report: package/exploitability: lies inside the cakesim package"),
    ([*EXPLOIT, "--report", "experiments"],
     "--report: experiments: exists and is not an exploitability report; allowed:"),
    ([*EXPLOIT, "--players", "2", "9", "--report", "out"],
     "--players: players: 9 is not allowed; allowed: 2 to 5"),
    (["new", "notes.md/mine.toml", "--game", "piece-o-cake"],
     "cakesim new: notes.md/mine.toml: cannot be written (notes.md is a file); allowed: "
     "experiments/NAME.toml, or a .toml path outside reports/ and the package"),
    (["new", "package/mine.toml", "--game", "piece-o-cake"],
     "cakesim new: package/mine.toml: lies inside the cakesim package"),
])
def test_nothing_shipped_or_committed_is_written_and_every_output_is_checked_first(
        project, package, argv, message, capsys):
    (project / "notes.md").write_text("mine")
    (project / "elsewhere").mkdir()
    (project / "elsewhere" / "tiny.toml").write_text(EXPERIMENT + CI)
    (project / "experiments" / "tiny.toml").write_text(EXPERIMENT + CI)
    (project / "reports" / "baselines").mkdir(parents=True)
    (project / "reports" / "tiny").mkdir()
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
    # Refused before a game is played: nothing written, no search's checkpoint kept.
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


def test_a_cache_that_cannot_be_written_is_refused_before_a_game(project, monkeypatch, capsys):
    (project / "notes.md").write_text("mine")
    monkeypatch.setenv("CAKESIM_CACHE", "notes.md")
    assert main(["run", "tiny", "--games", "20", "--quiet"]) == 2
    assert ("CAKESIM_CACHE: notes.md: cannot be written (notes.md is a file); allowed: a "
            "folder you may write, or --no-cache") in capsys.readouterr().err
    assert not (project / "runs" / "tiny" / "games-20" / "report.md").exists()


def test_tune_writes_under_runs_and_the_shipped_file_only_with_ship(package, project, capsys):
    shipped = package / "tuned" / "2p-base.toml"
    assert main([*TUNE, "--no-cache"]) == 0
    assert "wrote runs/tuned/piece-o-cake/2p-base.toml" in capsys.readouterr().out
    mine = project / "runs" / "tuned" / "piece-o-cake" / "2p-base.toml"
    assert "[tuning]" in mine.read_text() and shipped.read_text() == SHIPPED
    # A file tune wrote may be written again; the shipped one only when asked for.
    assert main([*TUNE, "--no-cache", "--out", str(mine)]) == 0
    assert main([*TUNE, "--no-cache", "--ship"]) == 0
    assert "wrote package/tuned/2p-base.toml" in capsys.readouterr().out
    assert "--seed 20261201 --ship" in tomllib.loads(shipped.read_text())["tuning"]["command"]


TRAIN = ["train", "piece-o-cake", "--players", "2", "--games", "20", "--quiet",
         "--n-jobs", "1"]


def test_train_writes_the_same_policy_again_and_ships_only_when_asked(package, project,
                                                                     monkeypatch, capsys):
    monkeypatch.setattr("cakesim.games.piece_o_cake.fitted.POLICIES", package / "policies")
    assert main(TRAIN) == 0
    out = capsys.readouterr().out
    assert "200 decisions of lookahead2" in out
    assert "wrote runs/policies/piece-o-cake/2p.toml" in out
    mine = project / "runs" / "policies" / "piece-o-cake" / "2p.toml"
    written = tomllib.loads(mine.read_text())
    assert written["policy"] == {"players": 2, "kinds": 8, "inputs": 69, "hidden": 16}
    made = written["provenance"]
    assert made["command"] == "cakesim train piece-o-cake --players 2 --games 20 --seed 20261208"
    assert made["decisions"] == 200 and len(made["examples_sha256"]) == 64
    # The same command, the same file, bit for bit (its games read back from the cache,
    # or played afresh); the shipped one only with --ship.
    assert len(list((project / ".cakesim-cache" / "examples").rglob("*.npz"))) == 1
    first = mine.read_bytes()
    assert main([*TRAIN, "--out", str(mine)]) == 0
    assert mine.read_bytes() == first
    assert main([*TRAIN, "--out", str(mine), "--no-cache"]) == 0
    assert mine.read_bytes() == first
    # A second round: the network plays, its choices valued, and it is fitted again.
    later = project / "later.toml"
    assert main([*TRAIN, "--rounds", "2", "--out", str(later)]) == 0
    assert "held-out regret after each round: " in capsys.readouterr().out
    made = tomllib.loads(later.read_text())["provenance"]
    assert made["rounds"] == 2 and made["command"].endswith("--seed 20261208 --rounds 2")
    assert len(made["by_round"]["network_regret"]) == 2 and made["decisions"] > 200
    assert not (package / "policies").exists()
    assert main([*TRAIN, "--ship"]) == 0
    assert "wrote package/policies/2p.toml" in capsys.readouterr().out
    assert (package / "policies" / "2p.toml").read_text().replace(" --ship", "", 1) == \
        mine.read_text()


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "9"], "--players: players: 9 is not allowed"),
    (["--players", "2", "--out", "policy.json"], "--out: policy.json: is not a .toml file"),
    (["--players", "2", "--out", "reports/p.toml"], "--out: reports/p.toml: lies in reports/"),
])
def test_train_refuses_bad_input_before_playing(project, argv, message, capsys):
    (project / "reports").mkdir()
    assert main(["train", "piece-o-cake", "--games", "20", "--quiet", *argv]) == 2
    assert message in capsys.readouterr().err


def test_train_offers_only_games_with_a_fitted_chooser(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "topp-die-torte", "--players", "2"])
    assert exit_.value.code == 2
    assert "invalid choice: 'topp-die-torte'; allowed values: piece-o-cake" in \
        capsys.readouterr().err


def test_exploit_adds_to_its_own_report_folder(project, capsys):
    folder = project / "reports" / "exploitability"
    for strategy in ("random", "greedy"):
        argv = [*EXPLOIT, "--no-cache", "--report", "reports/exploitability"]
        argv[argv.index("random")] = strategy
        assert main(argv) == 0
    assert "wrote reports/exploitability/report.md" in capsys.readouterr().out
    rows = json.loads((folder / "piece-o-cake.json").read_text())["results"]
    assert {row["target"] for row in rows} == {"random", "greedy"}


def test_compare_pairs_every_seat_by_deal(project, capsys):
    assert main(["compare", "tiny", "--set", "tie_rule=none", "--games", "200", "--quiet",
                 "--n-jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    folder = project / "runs" / "tiny" / "compare_games-200_set-tie_rule=none"
    assert out[-1] == f"wrote {(folder / 'report.md').relative_to(project)}"
    numbers = json.loads((folder / "compare.json").read_text())
    assert out[0] == numbers["headline"] and out[0].startswith("--set tie_rule=none: ")
    # Every seat of every table: 3 + 3 + 5 seats.
    rows = numbers["differences"]
    assert len(rows) == 11 and {r["difference"]["method"] for r in rows} == {"paired by deal"}
    first = rows[0]
    assert first["number"] == "first waiter's win share" and first["table"] == "3P base greedy"
    d = first["difference"]
    assert d["low"] <= first["changed"] - first["base"] <= d["high"]
    assert math.isclose(d["value"], first["changed"] - first["base"], abs_tol=1e-9)
    text = (folder / "report.md").read_text()
    assert "## Significant changes" in text and "## Not compared" in text


def test_compare_needs_a_change(project, capsys):
    assert main(["compare", "tiny", "--quiet"]) == 2
    assert "give a change to compare: --set KEY=VALUE" in capsys.readouterr().err


def test_compare_a_team_game_changing_its_levels_file(tmp_path, capsys):
    path = _write(tmp_path, "team.toml", TEAM)
    assert main(["compare", path, "--set", "levels.meister.cards=4", "--quiet", "--n-jobs",
                 "1", "--out", str(tmp_path / "out")]) == 0
    rows = json.loads((tmp_path / "out" / "compare.json").read_text())["differences"]
    assert [r["number"] for r in rows] == ["win rate"]
    # Four order cards to fulfil instead of ten: the bakers win more often.
    assert rows[0]["changed"] > rows[0]["base"] and rows[0]["significant"]


TEAM = """
[experiment]
game = "speedtorte"
seed = 1
games = 300

[strategies.team]

[[tables]]
players = 2
seats = "team"
level = "MEISTER"
"""


# --- Runs: pilot size, interruption, compiling ---------------------------------------------

def test_no_plan_and_a_pilot_that_shrinks_with_the_games(project, capsys):
    with_plan = EXPERIMENT + "\n[plan]\npilot_games = 100\n"
    (project / "experiments" / "tiny.toml").write_text(with_plan)
    assert load_experiment("tiny").plan.games == 100
    assert load_experiment("tiny", games=50).plan.games == 25
    assert load_experiment("tiny", games=10).plan.games == 5
    assert main(["run", "tiny", "--no-plan", "--quiet", "--n-jobs", "1",
                 "--out", str(project / "out")]) == 0
    assert "sample_size" not in read_summary(project / "out")


def test_ctrl_c_keeps_finished_chunks_and_says_how_to_resume(project, capsys, monkeypatch):
    played = []

    def interrupted(table, seed, start, stop):
        if played:
            raise KeyboardInterrupt
        played.append(start)
        return table.game.play_chunk(table, seed, start, stop - start)

    monkeypatch.setattr(runner, "_play", interrupted)
    argv = ["run", "tiny", "--games", "200", "--quiet", "--n-jobs", "1"]
    (project / "experiments" / "tiny.toml").write_text(
        EXPERIMENT.replace("games = 200", "games = 200\nchunk_size = 50"))
    assert main(argv) == 130
    assert capsys.readouterr().err.strip() == ("interrupted: 1 finished chunk kept; rerun "
                                               "the same command to resume")
    monkeypatch.undo()
    monkeypatch.chdir(project)
    assert main(argv) == 0
    assert "reused 1 of 12 chunks from the cache" in capsys.readouterr().err


def test_a_run_says_before_its_first_game_how_long_it_will_take(project, capsys):
    argv = ["run", "tiny", "--games", "200", "--n-jobs", "1"]
    assert main(argv) == 0
    lines = capsys.readouterr().err.splitlines()
    said = [line for line in lines if "to play" in line]
    assert len(said) == 1 and re.fullmatch(r"[\d,]+ games to play: about [\d.]+ s on 1 core "
                                           r"\(timed on a few games of each table\)", said[0])
    assert main(argv) == 0
    assert ("every one of the 3 chunks is in the cache: nothing to play"
            in capsys.readouterr().err)


def test_a_sample_size_pilot_is_cached_as_a_table_is(project, capsys):
    (project / "experiments" / "tiny.toml").write_text(EXPERIMENT + "\n[plan]\npilot_games = 100\n")
    argv = ["run", "tiny", "--games", "200", "--n-jobs", "1"]
    assert main(argv) == 0
    first = read_summary(project / "runs" / "tiny" / "games-200")["sample_size"]
    assert re.search(r"[\d,]+ games to play: about", capsys.readouterr().err)
    assert main(argv) == 0
    assert ("every one of the 3 chunks is in the cache: nothing to play"
            in capsys.readouterr().err)
    assert read_summary(project / "runs" / "tiny" / "games-200")["sample_size"] == first


def test_the_compile_message_comes_once_and_only_before_a_first_compile(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "numba"))
    monkeypatch.setattr(runner, "_told_compiling", False)
    assert not runner.kernels_compiled()
    monkeypatch.setattr(runner, "_compiled_at_start", False)
    runner.say_if_compiling(False)
    runner.say_if_compiling(True)
    runner.say_if_compiling(True)
    assert capsys.readouterr().err == ("compiling the kernels (first run only, about a "
                                       "minute)\n")
    # Helpers compiled when a game is imported do not count; a game's kernel does.
    (tmp_path / "numba" / "slicing_1").mkdir(parents=True)
    (tmp_path / "numba" / "slicing_1" / "bandit.add-80.py311.nbi").write_text("")
    assert not runner.kernels_compiled()
    (tmp_path / "numba" / "piece_o_cake_2").mkdir()
    (tmp_path / "numba" / "piece_o_cake_2" / "kernel.play_games-40.py311.nbi").write_text("")
    assert runner.kernels_compiled()


# --- Replays --------------------------------------------------------------------------------

MIXED = """
[experiment]
name = "mixed"
game = "piece-o-cake"
seed = 5
games = 60

[strategies.eager]
builtin = "greedy"
eat_weight = 3.0

[strategies.random]
chooser = "random"
cutter = "random"

[skill]
enabled = false

[[tables]]
label = "mixed"
players = 3
seats = ["eager", "random", "greedy-like"]
duplicate = true

[strategies.greedy-like]
chooser = "greedy"
cutter = "balanced"
"""


def test_replay_of_an_experiment_table_is_the_game_the_run_played(tmp_path, capsys):
    path = _write(tmp_path, "mixed.toml", MIXED)
    assert main(["run", path, "--quiet", "--n-jobs", "1", "--out", str(tmp_path / "out")]) == 0
    rows = pd.read_parquet(tmp_path / "out" / "results.parquet")
    capsys.readouterr()
    for index in (0, 7, 59):
        assert main(["replay", "--experiment", path, "--table", "3p BASE mixed", "--index",
                     str(index)]) == 0
        text = capsys.readouterr().out
        # Game 7 of duplicate deals at 3 players is rotation 1: the players move one seat on.
        assert text.startswith("mixed, table '3P base mixed'\nPiece o' Cake: seed 5, game "
                               f"{index}, 3 players, base rules, seat 1: ")
        totals = [int(t) for t in re.findall(r"seat \d.*?= (\d+), win share", text)]
        game = rows[rows["game"] == index].sort_values("seat")
        assert totals == game["total"].tolist()
        seated = dict(re.findall(r"seat (\d): ([\w-]+)", text.splitlines()[1]))
        assert [seated[str(s + 1)] for s in range(3)] == game["strategy"].astype(str).tolist()


@pytest.mark.parametrize(("argv", "message"), [
    (["--experiment", "{path}", "--table", "3P base mixed", "--index", "60"],
     "--index: 60: '3P base mixed' plays games 0 to 59"),
    (["--experiment", "{path}", "--table", "4P", "--index", "0"],
     "--table: 4P: no table '4P' in mixed; allowed: 3P base mixed"),
    (["--experiment", "{path}", "--table", "3P base mixed", "--index", "0", "--strategy",
      "random"],
     "--strategy: random: the experiment and its table set it"),
    (["piece-o-cake", "--index", "0"], "--seed: missing"),
    (["piece-o-cake", "--seed", "1", "--index", "0", "--players", "2", "--variant",
      "compensation"], "--variant: compensation: not played at 2 players; allowed: base"),
    (["piece-o-cake", "--seed", "1", "--index", "0", "--strategy", "clever"],
     "--strategy: clever: unknown strategy"),
    (["speedtorte", "--seed", "1", "--index", "0", "--option", "level=Bäcker"],
     "--option: Bäcker: 'Bäcker' is not allowed; allowed values: Lehrling"),
])
def test_bad_replays_name_the_flag(tmp_path, capsys, argv, message):
    path = _write(tmp_path, "mixed.toml", MIXED)
    assert main(["replay", *[a.replace("{path}", path) for a in argv]]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_replay_takes_levels_and_variants_in_any_case(capsys):
    assert main(["replay", "Speedtorte", "--seed", "4", "--index", "2", "--option",
                 "LEVEL=meister", "--variant", "Silence"]) == 0
    assert "Speedtorte: seed 4, game 2, Meister, 2 baker(s), silence" in capsys.readouterr().out


def test_plan_prints_readable_headings_and_json(tiny_experiment, capsys):
    path = str(tiny_experiment(games=200))
    assert main(["plan", path, "--half-width", "0.05", "--pilot", "60", "--n-jobs", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "games needed, independent" in out and "variance_independent" not in out
    assert main(["plan", path, "--half-width", "0.05", "--pilot", "60", "--n-jobs", "1",
                 "--quiet", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 3 + 3 + 4 + 4 and rows[0]["seat"] == 1
