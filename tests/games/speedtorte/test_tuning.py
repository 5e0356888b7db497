"""The level recommender picks the card count whose win rate is nearest the target."""

import pytest

from cakesim.engine.errors import InputError
from cakesim.games.speedtorte.tuning import DEFAULT_TARGETS, parse_targets, recommend_levels
from tests.games.speedtorte.conftest import GAME, RULES


def test_the_recommended_count_is_the_nearest_of_all_counts_tried():
    easy = parse_targets("Lehrling=0.99,Hofzuckerbäcker=0.05", RULES)
    table = recommend_levels(GAME, RULES, 2, easy, games=150, seed=3, n_jobs=1)
    assert list(table["level"]) == [lv.name for lv in RULES.levels]
    lehrling = table.iloc[0]
    hof = table.iloc[-1]
    # Fewer cards are easier: a 99 % target wants few cards, a 5 % target many.
    assert lehrling.recommended_cards <= 4 and lehrling.win_rate >= 0.9
    assert hof.recommended_cards >= 12 and hof.win_rate <= 0.3


def test_targets_default_and_bad_values_are_named():
    assert parse_targets("", RULES) == DEFAULT_TARGETS
    assert parse_targets("meister=0.5", RULES)["Meister"] == 0.5
    with pytest.raises(InputError, match="Meister: '2' is not a win rate between 0 and 1"):
        parse_targets("Meister=2", RULES)
    with pytest.raises(InputError, match="'Bäcker' is not a level"):
        parse_targets("Bäcker=0.5", RULES)
