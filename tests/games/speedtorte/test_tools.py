"""The designer tools on the command line: the catalogue, a card check, bad input."""

import pytest

from cakesim.app.cli import main
from tests.games.speedtorte.conftest import RULES


def test_cards_lists_every_card_with_its_base_rate(capsys):
    assert main(["speedtorte", "cards"]) == 0
    out = capsys.readouterr().out
    for card in RULES.catalogue.cards:
        assert card.id in out
    assert "21.33%" in out  # "exactly two plates strawberry", without the Sachertorte


def test_check_says_three_strawberries_are_not_exactly_two(capsys):
    tops = "strawberry:3,strawberry:4,pistachio:4,strawberry:7"
    assert main(["speedtorte", "check", "F01", "--tops", tops]) == 0
    assert "F01 is not met" in capsys.readouterr().out
    assert main(["speedtorte", "check", "F01", "--tops",
                 "strawberry:3,strawberry:4,pistachio:4,sacher"]) == 0
    assert "F01 is met" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["check", "F99", "--tops", "sacher,sacher,sacher,sacher"], "'F99' is not a card id"),
    (["check", "F01", "--tops", "lemon:3,apricot:1,apricot:2,apricot:3"], "lemon"),
    (["check", "F01", "--tops", "apricot:1"], "4"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(["speedtorte", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cakesim: error:") and message in err and "Traceback" not in err


def test_the_daily_puzzle_prints_the_deal_and_the_verdict(capsys):
    assert main(["speedtorte", "daily", "2026-12-01", "--level", "Lehrling"]) == 0
    out = capsys.readouterr().out
    assert "2026-12-01" in out and "Lehrling" in out and "Winnable" in out
    assert main(["speedtorte", "daily", "2026-12-01", "--level", "lehrling"]) == 0
    again = capsys.readouterr().out
    # The same puzzle, however the level is spelt (only the search's seconds differ).
    assert again.split(" s; ")[0].rsplit(" in ", 1)[0] == out.split(" s; ")[0].rsplit(" in ", 1)[0]


def test_a_bad_date_or_level_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["speedtorte", "daily", "2026-13-01"])
    assert stop.value.code == 2 and "is not a date like 2026-12-01" in capsys.readouterr().err
    assert main(["speedtorte", "daily", "2026-12-01", "--level", "Bäcker"]) == 2
    assert "'Bäcker' is not a level" in capsys.readouterr().err
