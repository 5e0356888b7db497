"""Digests are equal for equal inputs, differ for any change, and ignore file paths."""

from dataclasses import dataclass, field, replace

import numpy as np

from cakesim.engine.fingerprint import canonical, digest, table_digest
from cakesim.games import game_named


@dataclass(frozen=True)
class _Rules:
    cakes: int
    weight: float
    source: str = field(default="a.toml", metadata={"digest": False})


def test_equal_values_give_equal_digests_in_any_key_order():
    assert digest({"a": 1, "b": [2.0, 3]}) == digest({"b": [2.0, 3], "a": 1})


def test_floats_are_kept_exactly():
    assert digest(0.1 + 0.2) != digest(0.3)
    assert canonical(0.5) == (0.5).hex()


def test_arrays_keep_their_dtype_and_shape():
    assert digest(np.zeros(3, np.int16)) != digest(np.zeros(3, np.int32))
    assert digest(np.zeros((1, 3))) != digest(np.zeros((3, 1)))


def test_fields_marked_out_of_the_digest_do_not_count():
    rules = _Rules(5, 1.0)
    assert digest(rules) == digest(replace(rules, source="elsewhere/b.toml"))
    assert digest(rules) != digest(replace(rules, cakes=6))


def test_a_table_digest_names_its_game_by_name():
    game = game_named("piece-o-cake")
    rules = game.load_rules()
    table = game.table(rules, 3, [game.named_strategy("greedy")] * 3)
    assert table_digest(table) == table_digest(replace(table, label="another label"))
    assert table_digest(table) != table_digest(replace(table, duplicate=True))
