"""Golden replays of La Part du Chef (see ``tests.golden``), the search player's included."""

from pathlib import Path

import pytest

from cakesim.games.part_du_chef.reference import play_game
from tests.games.part_du_chef.conftest import GAME
from tests.golden import assert_matches_golden, replay_text

GOLDEN = Path(__file__).with_name("golden")
CASES = [(2, "base", "greedy", 3), (3, "marianne", "tuned", 7), (4, "base", "thief-leader", 1),
         (5, "base", "random", 4), (2, "marianne", "search", 2), (3, "base", "search", 5)]


@pytest.mark.parametrize(("players", "variant", "strategy", "game"), CASES)
def test_replay_matches_golden_file(players, variant, strategy, game):
    seats = [GAME.named_strategy(strategy, players, variant)] * players
    text = replay_text(GAME, play_game, players, variant, seats, strategy, game)
    assert_matches_golden(GOLDEN / f"{players}p_{variant}_{strategy}_game{game}.txt", text)
