"""High card: the smallest complete game on the contract (see docs/adding_a_game.md)."""
