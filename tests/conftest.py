"""Fixtures shared by the tests of the shared machinery."""

import pytest

TINY = """
[experiment]
name = "tiny"
title = "Tiny"
question = "Does the first waiter lose at 3 and 4 players?"
game = "piece-o-cake"
seed = 11
games = {games}
chunk_size = {chunk}

[ci]
games = {ci_games}
seed = 5
level = 0.01

[[ci.sprt]]
table = "4P base greedy-balanced"
seat = 1
delta = 0.05

[strategies.greedy-balanced]
chooser = "greedy"
cutter = "balanced"

# The skill ladder (search players at every seat) has its own tests: off here.
[skill]
enabled = false

[[tables]]
players = [3, 4]
variant = ["base", "compensation"]
seats = "greedy-balanced"

"""


@pytest.fixture
def tiny_experiment(tmp_path):
    """A small experiment file; ``tiny_experiment(games=..., chunk=...)`` writes it."""

    def write(games: int = 1200, chunk: int = 300, ci_games: int = 600, extra: str = ""):
        path = tmp_path / "experiments" / "tiny.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(TINY.format(games=games, chunk=chunk, ci_games=ci_games) + extra)
        return path

    return write
