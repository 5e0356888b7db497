"""Golden replays of Piece o' Cake (see ``tests.golden``), the search, lookahead and fitted
players' included (``fitted`` with the shipped policy: a new one shows as a diff here)."""

from pathlib import Path

import pytest

from cakesim.games.piece_o_cake.reference import play_game
from tests.games.piece_o_cake.conftest import GAME
from tests.golden import assert_matches_golden, replay_text

GOLDEN = Path(__file__).with_name("golden")
CASES = [(2, "base", "greedy", 3), (3, "compensation", "greedy", 7),
         (4, "compensation", "greedy-balanced", 1), (5, "base", "random", 4),
         (4, "joker-compensation-2-rounds", "tuned", 5), (3, "joker-3-rounds", "random", 2),
         (2, "base", "search", 3), (4, "base", "search-tree", 6),
         (3, "base", "lookahead", 2), (2, "base", "lookahead2", 1), (4, "base", "fitted", 3),
         (3, "base", "fitted-search", 4)]


def seats(strategy: str, players: int) -> list:
    """``search-tree``: the search with a tree of the searcher's later decisions (depth 8)
    on a small budget; any other name is the built-in strategy, at every seat."""
    if strategy == "search-tree":
        return [GAME.with_weights(GAME.named_strategy("search", players), "search-tree",
                                  {"iterations": 40.0, "depth": 8.0})] * players
    return [GAME.named_strategy(strategy, players)] * players


@pytest.mark.parametrize(("players", "variant", "strategy", "game"), CASES)
def test_replay_matches_golden_file(players, variant, strategy, game):
    text = replay_text(GAME, play_game, players, variant, seats(strategy, players), strategy,
                       game)
    assert_matches_golden(GOLDEN / f"{players}p_{variant}_{strategy}_game{game}.txt", text)
