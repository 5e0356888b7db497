"""Speedtorte's tools on the command line: any case, one spelling of --target, --json."""

import json

import pytest

from cakesim.app.cli import main
from tests.games.speedtorte.conftest import RULES


def test_card_ids_and_level_names_are_read_in_any_case(capsys):
    tops = "strawberry:3,strawberry:4,pistachio:4,sacher"
    assert main(["speedtorte", "check", "f01", "--tops", tops]) == 0
    assert "F01 is met" in capsys.readouterr().out
    assert main(["speedtorte", "daily", "2026-12-01", "--level", "MEISTER"]) == 0
    assert "Meister" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["check", "X99", "--tops", "sacher,sacher,sacher,sacher"],
     "cakesim: error: CARD: 'X99' is not a card id; allowed values: F01"),
    (["daily", "2026-12-01", "--level", "Bäcker"],
     "cakesim: error: --level: 'Bäcker' is not a level; levels: Lehrling"),
    (["budget", "--level", "Lehrling", "--players", "2", "--target", "0.5", "--profile", "kid"],
     "cakesim: error: --profile: 'kid' is not allowed; allowed values: adult, novice"),
    (["budget", "--players", "2", "--target", "0.5"], "cakesim: error: --level: missing"),
    (["budget", "--level", "Lehrling", "--players", "2", "--target", "Meister=0.5"],
     "--target: Meister=0.5: names another level than --level Lehrling"),
    (["budget", "--level", "Lehrling", "--players", "2", "--target", "0.5", "--target",
      "0.6"], "--target: 0.5,0.6: give one target win rate"),
    (["levels", "--target", "Bäcker=0.5"], "--target: 'Bäcker' is not a level"),
])
def test_values_from_the_command_line_are_named_by_their_flag(capsys, argv, message):
    assert main(["speedtorte", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "toml" not in err and "Traceback" not in err


@pytest.mark.parametrize("text", ["Meister=2", "=0.5", "high"])
def test_a_target_is_a_rate_between_0_and_1(capsys, text):
    with pytest.raises(SystemExit) as stop:
        main(["speedtorte", "levels", "--target", text])
    assert stop.value.code == 2 and "argument --target:" in capsys.readouterr().err


def test_cards_as_json(capsys):
    assert main(["speedtorte", "cards", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in cards] == [card.id for card in RULES.catalogue.cards]
    assert cards[0]["base_rate"] == pytest.approx(0.2133, abs=1e-4)


def test_levels_take_targets_by_level_or_for_all_and_print_json(capsys):
    assert main(["speedtorte", "levels", "--players", "2", "--games", "40", "--n-jobs", "1",
                 "--quiet", "--json", "--target", "0.5", "--target", "lehrling=0.99"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["level"] for r in rows] == [level.name for level in RULES.levels]
    assert [r["target"] for r in rows] == [0.99] + [0.5] * (len(rows) - 1)


def test_budget_takes_its_level_from_the_target_and_prints_json(capsys):
    assert main(["speedtorte", "budget", "--players", "3", "--target", "LEHRLING=0.5",
                 "--games", "300", "--n-jobs", "1", "--quiet", "--json"]) == 0
    numbers = json.loads(capsys.readouterr().out)
    assert numbers["level"] == "Lehrling" and numbers["seed_budget_seconds"] == 270
    budget = numbers["budget_seconds"]
    assert budget["target"] == 0.5 and budget["low"] <= budget["value"] <= budget["high"]
    assert numbers["win_rate_without_clock"] >= budget["win_rate"]["value"]
