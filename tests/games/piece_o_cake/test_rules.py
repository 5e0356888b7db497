"""The published rule set as data, and its validation."""

from dataclasses import replace

import pytest

from cakesim.engine.errors import InputError
from cakesim.games.piece_o_cake.rules import load_rules, parse_rules
from tests.games.piece_o_cake.conftest import GAME, table_of


def test_published_components():
    rules = load_rules()
    assert len(rules.slice_kind) == 57 and sum(rules.slice_cream) == 113
    # A kind's majority value equals its slice count (RULES.md s1).
    for kind, value in enumerate(rules.majority_value):
        assert rules.slice_kind.count(kind) == value
    assert rules.set_aside == 2
    assert rules.portion_limit(2) == 4 and rules.portion_limit(5) == 5
    assert rules.for_table(3, "compensation").bonus_after_cakes == (1, 2)
    assert rules.for_table(4, "compensation").bonus_after_cakes == (1,)


def _published() -> dict:
    import tomllib

    from cakesim.games.piece_o_cake.rules import DEFAULT_RULES
    return tomllib.loads(DEFAULT_RULES.read_text())


@pytest.mark.parametrize(("change", "key"), [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d.update(tie_rule="half"), "tie_rule"),
    (lambda d: d.update(cakes="five"), "cakes"),
    (lambda d: d["kinds"][0].update(cream=[-1]), "kinds[0].cream"),
    (lambda d: d["kinds"].pop(), "kinds"),
    (lambda d: d["compensation"].update({"4": [1, 2, 3]}), "compensation.4"),
    (lambda d: d["compensation"].update({"9": [1]}), "compensation.9"),
    (lambda d: d.update(rounds=0), "rounds"),
    (lambda d: d.update(rounds=11), "rounds"),
    (lambda d: d["joker"].update(eat_points=-2), "joker.eat_points"),
    (lambda d: d["joker"].update(included="yes"), "joker.included"),
    (lambda d: d["joker"].update(colour="gold"), "joker.colour"),
    (lambda d: d["joker"].update(placement="later"), "joker.placement"),
    (lambda d: d["joker"].update(placement=True), "joker.placement"),
    (lambda d: d["kinds"][0].update(majority_value=1000, cream=[100] * 200), "kinds"),
    (lambda d: d["seat_bonus"].update({"3": [1, 0]}), "seat_bonus.3"),
    (lambda d: d["seat_bonus"].update({"3": [1, 0, 0, 0]}), "seat_bonus.3"),
    (lambda d: d["seat_bonus"].update({"4": [51, 0, 0, 0]}), "seat_bonus.4"),
    (lambda d: d["seat_bonus"].update({"6": [0] * 6}), "seat_bonus.6"),
])
def test_bad_rule_sets_name_the_key(change, key):
    data = _published()
    change(data)
    with pytest.raises(InputError) as error:
        parse_rules(data, "my_rules.toml")
    assert error.value.key == key and "my_rules.toml" in str(error.value)


def test_a_bad_joker_placement_names_the_allowed_values():
    data = _published()
    data["joker"]["placement"] = "same-take"
    with pytest.raises(InputError, match="allowed values: 'earlier', 'same_take'"):
        parse_rules(data, "my_rules.toml")


def test_the_joker_goes_on_an_earlier_kind_unless_the_file_says_same_take():
    # RULES.md s1: "már korábban gyűjtött", a kind collected before this take (default).
    assert load_rules().joker_placement == "earlier"
    assert not load_rules().for_table(3, "joker").arrays["joker_same_take"]
    data = _published()
    data["joker"]["placement"] = "same_take"
    assert parse_rules(data, "mine.toml").for_table(3, "joker").arrays["joker_same_take"]


def test_no_compensation_for_five_players():
    with pytest.raises(InputError, match="no compensation variant for 5 players"):
        load_rules().for_table(5, "compensation")


def test_variants_switch_the_joker_compensation_and_rounds_on():
    rules = load_rules()
    assert rules.rounds == 1 and not rules.joker and rules.joker_points == 2
    table = rules.for_table(3, "joker-compensation-3-rounds")
    assert table.joker and table.rounds == 3 and table.bonus_after_cakes == (1, 2)
    assert table.box == 58 and table.arrays["slice_kind"][-1] == len(rules.kinds)
    assert table.arrays["majority_value"][-1] == 0 and table.arrays["slice_cream"][-1] == 2
    plain = rules.for_table(2, "2-rounds")
    assert not plain.joker and plain.rounds == 2 and plain.box == 57
    with pytest.raises(InputError, match="no compensation variant for 2 players"):
        rules.for_table(2, "joker-compensation")


def test_the_rule_file_may_put_the_joker_in_and_play_more_rounds():
    data = _published()
    data["joker"]["included"] = True
    data["joker"]["eat_points"] = 3
    data["rounds"] = 4
    table = parse_rules(data, "mine.toml").for_table(4, "base")
    assert table.joker and table.rounds == 4 and table.arrays["slice_cream"][-1] == 3



def test_the_seat_bonus_is_added_to_each_seats_total_and_can_turn_a_game():
    published = load_rules()
    plain, moved = (GAME.play_chunk(table_of(3, "base", ("greedy",), rules=rules), 9, 0, 300).seat
                    for rules in (published, replace(published, seat_bonus={3: (2, 0, -1)})))
    assert (moved["total"] - plain["total"] == [2, 0, -1]).all()
    # The same deals and moves: only the winners of close games change.
    assert (moved["majority"] == plain["majority"]).all()
    assert (moved["cream"] == plain["cream"]).all()
    assert (moved["win_units"] != plain["win_units"]).any()
