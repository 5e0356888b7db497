"""`cakesim score part-du-chef FILE.json` and `cakesim replay part-du-chef` on the command line."""

import json

import pytest

from cakesim.app.cli import main

EXAMPLE = {"players": [
    {"kept": {"margherita": 3, "reine": 1, "4fromages": 0, "vegetarienne": 2, "truffe": 1,
              "pepper": 1, "burnt": 1}, "eaten_olives": 7, "received": 9},
    {"kept": {"margherita": 1, "reine": 2, "4fromages": 2, "vegetarienne": 1, "truffe": 1},
     "eaten_olives": 3, "received": 8}]}


def _score(tmp_path, data, capsys):
    path = tmp_path / "end.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    status = main(["score", "part-du-chef", str(path)])
    return status, capsys.readouterr()


def test_scores_the_worked_example(tmp_path, capsys):
    status, out = _score(tmp_path, EXAMPLE, capsys)
    assert status == 0
    assert json.loads(out.out) == {"scores": [41, 39], "winners": [1]}


def test_a_tie_lists_every_winner(tmp_path, capsys):
    same = {"kept": {"truffe": 2}, "eaten_olives": 1, "received": 3}
    status, out = _score(tmp_path, {"players": [same, same, {"received": 1}]}, capsys)
    assert status == 0 and json.loads(out.out) == {"scores": [15, 15, 1], "winners": [1, 2]}


def _with(change):
    data = json.loads(json.dumps(EXAMPLE))
    change(data)
    return data


@pytest.mark.parametrize(("data", "message"), [
    (_with(lambda d: d["players"][0]["kept"].update(anchovy=1)), "unknown kind"),
    (_with(lambda d: d["players"][0]["kept"].update(reine=-1)), "out of range"),
    (_with(lambda d: d["players"][0].update(received=-2)), "out of range"),
    (_with(lambda d: d["players"][1]["kept"].update(margherita=14)),
     "17 kept margherita slices in all, but the game has 16"),
    (_with(lambda d: d["players"][1].update(received=55)), "64 received in all"),
    (_with(lambda d: d["players"][0].update(eaten="3")), "must be an integer"),
    (_with(lambda d: d["players"].pop()), "1 players"),
    (_with(lambda d: d.update(tie_rule="full")), "unknown key"),
    ('{"players": [', "not valid JSON"),
])
def test_bad_input_exits_2_with_a_clear_message(tmp_path, capsys, data, message):
    status, out = _score(tmp_path, data, capsys)
    assert status == 2 and message in out.err and "end.json" in out.err


def test_replay_prints_the_move_log(capsys):
    assert main(["replay", "part-du-chef", "--seed", "1", "--index", "2", "--players", "3",
                 "--variant", "marianne", "--strategy", "greedy-balanced"]) == 0
    text = capsys.readouterr().out
    assert text.count("\nPizza ") == 5 and "cuts 3 portions" in text
    assert "Scores (majority + olives + slices + diversity - burnt = total" in text
