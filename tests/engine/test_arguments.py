"""Command-line argument types: strict, and their errors say what is allowed."""

import argparse

import pytest

from cakesim.engine.arguments import (
    Setting,
    choice,
    date,
    flag_errors,
    natural,
    one_of,
    players_in_range,
    positive,
    resolved_path,
    setting,
    share,
    value_at,
    whole,
    with_settings,
)
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


@pytest.mark.parametrize(("text", "key", "value"), [
    ("tie_rule=none", "tie_rule", "none"), ("points.card=15", "points.card", 15),
    ("x.y=0.5", "x.y", 0.5), ("flag=true", "flag", True), ("cream.kiwi=[1, 2]", "cream.kiwi",
                                                             [1, 2]),
    ("name=two words", "name", "two words"), ('name="quoted"', "name", "quoted"),
])
def test_a_setting_reads_its_value_as_toml_and_a_bare_word_as_text(text, key, value):
    assert setting(text) == Setting(key, value, text)


@pytest.mark.parametrize("text", ["tie_rule", "=2", "a..b=1", ".a=1"])
def test_a_setting_needs_a_key_and_a_value(text):
    with pytest.raises(argparse.ArgumentTypeError, match="is not KEY=VALUE"):
        setting(text)


RULES = {"cakes": 5, "players": {"min": 2, "max": 5},
         "kinds": [{"name": "plum", "cream": [1, 1, 1]}, {"name": "kiwi", "cream": [2, 2]}]}


def test_settings_go_into_tables_and_named_entries_and_spread_over_lists():
    changed = with_settings(RULES, [setting("players.max=4"), setting("kinds.Plum.cream=3"),
                                    setting("cream.kiwi=[0, 5]"), setting("new.key=1")])
    assert changed["players"] == {"min": 2, "max": 4}
    assert changed["kinds"] == [{"name": "plum", "cream": [3, 3, 3]},
                                {"name": "kiwi", "cream": [0, 5]}]
    assert changed["new"] == {"key": 1}
    assert RULES["kinds"][0]["cream"] == [1, 1, 1]
    assert resolved_path(RULES, "cream.kiwi") == ["kinds", "kiwi", "cream"]


@pytest.mark.parametrize(("text", "message"), [
    ("kinds.lemon.cream=1", "--set kinds.lemon.cream=1: kinds: no entry 'lemon'; allowed: "
                            "plum, kiwi"),
    ("cakes.x=1", "--set cakes.x=1: cakes: is a value (5), not a table; set it as cakes=VALUE"),
    ("kinds.plum=1", "--set kinds.plum=1: kinds: 'plum' names an entry; set one of its keys: "
                     "cream, name"),
])
def test_a_setting_that_leads_nowhere_names_the_flag(text, message):
    with pytest.raises(InputError) as error:
        with_settings(RULES, [setting(text)])
    assert str(error.value) == message


def test_choices_are_read_in_any_case_and_errors_name_the_flag():
    assert one_of("MEISTER", ["Lehrling", "Meister"], "--level") == "Meister"
    with pytest.raises(InputError, match="--level: X: 'X' is not allowed; allowed values: A"):
        one_of("X", ["A"], "--level")
    assert choice(["signals", "silence"])("Silence") == "silence"
    with pytest.raises(argparse.ArgumentTypeError,
                       match="invalid choice: 'loud'; allowed values: signals"):
        choice(["signals"])("loud")
    with pytest.raises(InputError, match=r"^--cards: card: no$"), flag_errors("--cards"):
        raise InputError("/deep/inside/cards.toml", "card", "no")


def test_value_at_finds_what_with_settings_would_set():
    data = {"points": {"card": 10}, "kinds": [{"name": "Chocolate", "cream": [3, 3]}]}
    assert value_at(data, "points.card") == 10
    assert value_at(data, "kinds.chocolate.cream") == [3, 3]
    assert value_at(data, "cream.chocolate") == [3, 3]
    assert value_at(data, "kinds.lemon.cream") is None
    assert value_at(data, "points.card.more") is None
    assert value_at(data, "nope") is None
