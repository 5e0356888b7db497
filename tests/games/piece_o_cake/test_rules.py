"""The published rule set as data, and its validation."""

import pytest

from cakesim.engine.errors import InputError
from cakesim.games.piece_o_cake.rules import load_rules, parse_rules


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
])
def test_bad_rule_sets_name_the_key(change, key):
    data = _published()
    change(data)
    with pytest.raises(InputError) as error:
        parse_rules(data, "my_rules.toml")
    assert error.value.key == key and "my_rules.toml" in str(error.value)


def test_no_compensation_for_five_players():
    with pytest.raises(InputError, match="no compensation variant for 5 players"):
        load_rules().for_table(5, "compensation")
