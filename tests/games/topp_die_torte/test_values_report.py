"""The ``[values]`` section pairs each variant with the base table on the same deals."""

from types import SimpleNamespace

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.games.topp_die_torte import values_report
from cakesim.games.topp_die_torte.game import GAME

RULES = GAME.load_rules()
STRATEGY = GAME.named_strategy("greedy")


def run_of(variant: str, totals: np.ndarray, first_units: np.ndarray):
    """A run of 2 players on duplicate deals whose deal sums are ``totals`` (per deal, by
    seat) and whose first placer won ``first_units`` per deal."""
    table = GAME.table(RULES, 2, [STRATEGY, STRATEGY], variant, duplicate=True)
    units = np.stack([first_units, 2 * GAME.win_units - first_units], axis=1)
    return SimpleNamespace(table=table, by_deal=SimpleNamespace(
        deals=totals.shape[0], seat={"total": totals, "win_units": units}))


def test_a_part_is_worth_the_points_per_player_it_adds_deal_by_deal():
    rng = np.random.default_rng(1)
    base = rng.integers(10, 30, size=(50, 2))
    # Without face 3 every deal scores 3 points less for the two games of each seat:
    # per player and game, 3 / (2 games) = 1.5 less for one seat, so 0.75 on average.
    blank = base - np.array([3, 0])
    units = rng.integers(0, 2 * GAME.win_units + 1, size=50)
    data = values_report.analyse(SimpleNamespace(section_tables=()), [run_of("base", base, units),
                                                     run_of("blank-3", blank, units)],
                                 values_report.ValuesQuestion("base"))
    (entry,) = data["values"]
    assert entry["part"] == f"die face 3 ({RULES.face_name(2)})"
    assert entry["worth"]["value"] == pytest.approx(0.75)
    assert entry["worth"]["low"] == pytest.approx(0.75)  # the same on every deal
    assert entry["first_share"]["value"] == pytest.approx(0.0)
    assert "Die face 3" in values_report.answer(data, {}).paragraph


def test_a_variant_without_its_base_table_is_left_out():
    base = np.ones((10, 2), np.int64)
    units = np.full(10, GAME.win_units)
    data = values_report.analyse(SimpleNamespace(section_tables=()),
                                 [run_of("no-die", base, units)],
                                 values_report.ValuesQuestion("base"))
    assert data["values"] == []
    assert "No variant" in values_report.headline(data)


def test_a_base_that_is_no_variant_names_the_key_and_the_variants():
    with pytest.raises(InputError) as error:
        values_report.parse(Table({"base": "turbo"}, "exp.toml", "values"))
    assert error.value.key == "values.base" and "'no-die'" in error.value.message
