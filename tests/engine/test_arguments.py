"""Command-line argument types: strict, and their errors say what is allowed."""

import argparse

import pytest

from cakesim.engine.arguments import date, natural, players_in_range, positive, share, whole
from cakesim.engine.errors import InputError
from cakesim.games import game_named


@pytest.mark.parametrize(("convert", "text"), [(positive, "0"), (natural, "-1"),
                                                (share, "1.0"), (date, "2026-13-01"),
                                                (positive, "ten")])
def test_bad_values_are_refused(convert, text):
    with pytest.raises(argparse.ArgumentTypeError):
        convert(text)


def test_whole_numbers_name_their_range():
    with pytest.raises(argparse.ArgumentTypeError, match="allowed: 1 to 3"):
        whole("4", 1, 3)
    assert whole("2", 1, 3) == 2


def test_players_are_checked_against_the_rule_set():
    rules = game_named("piece-o-cake").load_rules()
    assert players_in_range(None, rules) is None
    assert players_in_range(rules.max_players, rules) == rules.max_players
    with pytest.raises(InputError, match="allowed: 2 to 5"):
        players_in_range(rules.max_players + 1, rules)
