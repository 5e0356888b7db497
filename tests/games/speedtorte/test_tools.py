"""The designer tools on the command line: the catalogue, a card check, bad input."""

import pytest

from cakesim.cli import main
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
