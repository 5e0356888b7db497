"""The published rule set as data, and its validation."""

import tomllib

import pytest

from cakesim.engine.errors import InputError
from cakesim.games.part_du_chef.rules import DEFAULT_RULES, load_rules, parse_rules


def test_published_components():
    rules = load_rules()
    assert len(rules.slice_category) == 65
    assert [rules.count_of(c) for c in range(7)] == [16, 14, 11, 9, 7, 3, 5]
    assert rules.majority_value == (3, 5, 7, 9, 11)
    olives = [sorted(o for c, o in zip(rules.slice_category, rules.slice_olives, strict=True)
                     if c == k) for k in range(5)]
    assert olives[0] == [2] * 8 + [3] * 8 and olives[2] == [1] * 6 + [2] * 5
    assert olives[1] == [2] * 14 and olives[3] == [1] * 9 and olives[4] == [1] * 7
    finishers = [c for c, f in zip(rules.slice_category, rules.slice_finisher, strict=True)
                 if f]
    assert finishers == [0, 1, 2, 3, 4]
    assert rules.burnt_penalty == 3 and rules.diversity_bonus == 5
    assert rules.receipt_point == "receiver" and rules.pepper_assignment == "independent"
    assert not rules.marianne
    assert not rules.for_table(3).marianne and rules.for_table(3, "marianne").marianne


def _published() -> dict:
    return tomllib.loads(DEFAULT_RULES.read_text())


@pytest.mark.parametrize(("change", "key"), [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d.update(receipt_point="thief"), "receipt_point"),
    (lambda d: d.update(pepper_assignment="best"), "pepper_assignment"),
    (lambda d: d.update(marianne="yes"), "marianne"),
    (lambda d: d["burnt"].update(count=4), "burnt.count"),
    (lambda d: d["pepper"].update(count=4), "kinds"),
    (lambda d: d["kinds"][0].update(olives=[-1]), "kinds[0].olives"),
    (lambda d: d["kinds"][1].update(finisher=14), "kinds[1].finisher"),
    (lambda d: d["kinds"][2].update(name="pepper"), "kinds[2].name"),
    (lambda d: d.update(slices_per_pizza=4), "slices_per_pizza"),
])
def test_bad_rule_sets_name_the_key(change, key):
    data = _published()
    change(data)
    with pytest.raises(InputError) as error:
        parse_rules(data, "my_rules.toml")
    assert error.value.key == key and "my_rules.toml" in str(error.value)


def test_overrides_and_unknown_variants():
    rules = load_rules()
    assert rules.with_overrides() is rules
    assert rules.with_overrides(receipt_point="holder").receipt_point == "holder"
    with pytest.raises(InputError, match="not allowed"):
        rules.for_table(3, "compensation")
    with pytest.raises(InputError, match="players"):
        rules.for_table(6)
