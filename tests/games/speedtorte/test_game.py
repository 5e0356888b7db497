"""The game's own constants agree with the experiments that share them."""

import numpy as np
import pytest

from cakesim.app.experiment import load_experiment
from cakesim.games.speedtorte.game import STRONG_TEAM


@pytest.mark.parametrize("name", ["order_card_difficulty", "eilauftrag_time_budgets"])
def test_the_bench_times_the_strong_team_the_experiments_play(name):
    """``make bench``'s strong team is each experiment's ``lookahead32``, weight for weight:
    its games/s target is chosen for the experiments' run time."""
    experiment = load_experiment(name, games=20)
    played = {strategy.name: strategy for table in experiment.tables
              for strategy in table.strategies}
    assert STRONG_TEAM.name in played
    np.testing.assert_array_equal(played[STRONG_TEAM.name].params, STRONG_TEAM.params)
