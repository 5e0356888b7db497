"""Golden replays: whole games as a person reads them, diffed line by line.

A rule or strategy change that moves any decision shows here as a readable diff. After
checking that the change is intended, regenerate with ``CAKESIM_UPDATE_GOLDEN=1 make test``.
"""

import os
from pathlib import Path

import pytest

from cakesim.games.piece_o_cake.reference import play_game
from cakesim.games.piece_o_cake.replay import format_replay
from tests.games.piece_o_cake.conftest import GAME, RULES

GOLDEN = Path(__file__).with_name("golden")
CASES = [(2, "base", "greedy", 3), (3, "compensation", "greedy", 7),
         (4, "compensation", "greedy-balanced", 1), (5, "base", "random", 4),
         (4, "joker-compensation-2-rounds", "tuned", 5), (3, "joker-3-rounds", "random", 2)]


@pytest.mark.parametrize(("players", "variant", "strategy", "game"), CASES)
def test_replay_matches_golden_file(players, variant, strategy, game):
    result = play_game(RULES.for_table(players, variant),
                       [GAME.named_strategy(strategy, players)] * players, seed=1, game=game)
    text = format_replay(RULES, result, f"seed 1, game {game}, {players} players, {variant}, "
                                        f"{strategy}") + "\n"
    path = GOLDEN / f"{players}p_{variant}_{strategy}_game{game}.txt"
    if os.environ.get("CAKESIM_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing {path.name}: run with CAKESIM_UPDATE_GOLDEN=1"
    assert text.splitlines() == path.read_text().splitlines()
