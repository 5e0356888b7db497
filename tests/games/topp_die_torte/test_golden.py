"""Golden replays of Topp die Torte! (see ``tests.golden``)."""

from pathlib import Path

import pytest

from cakesim.games.topp_die_torte.reference import play_game
from cakesim.games.topp_die_torte.replay import format_replay
from tests.games.topp_die_torte.conftest import GREEDY, RANDOM, RULES, weighted
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).with_name("golden")
TABLES = {
    "greedy": lambda players: [GREEDY] * players,
    "random": lambda players: [RANDOM] * players,
    "mixed": lambda players: [GREEDY, RANDOM, weighted("careful", hedge=0.7, deny_weight=1.5),
                              weighted("shaky", aim_error=2.5, size_weight=3.0)][:players],
}
CASES = [(2, "base", "greedy", 3), (3, "scarce", "random", 7), (4, "base", "greedy", 1),
         (4, "no-exchange", "mixed", 2)]


@pytest.mark.parametrize(("players", "variant", "strategy", "game"), CASES)
def test_replay_matches_golden_file(players, variant, strategy, game):
    result = play_game(RULES.for_table(players, variant), TABLES[strategy](players), seed=1,
                       game=game)
    text = format_replay(RULES, result, f"seed 1, game {game}, {players} players, {variant}, "
                                        f"{strategy}") + "\n"
    assert_matches_golden(GOLDEN / f"{players}p_{variant}_{strategy}_game{game}.txt", text)
