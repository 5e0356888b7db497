"""A small arena every tuning test shares: Piece o' Cake at 2 players, its fastest bots."""

import pytest

from cakesim.games import game_named
from cakesim.tuning.arena import Arena

GAME = game_named("piece-o-cake")


@pytest.fixture(scope="module")
def arena() -> Arena:
    """Piece o' Cake, published rules, 2 players, base rules."""
    return Arena(GAME, GAME.load_rules(), 2, "base")
