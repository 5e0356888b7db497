"""Fixtures shared by the tests of the shared machinery, and the compile before a parallel run."""

import subprocess
import sys

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


WARM_UP = """
from cakesim.games import game_named
game = game_named({name!r})
rules = game.load_rules()
players = game.default_players
for name in game.strategy_names:
    table = game.table(rules, players, [game.named_strategy(name, players)] * players)
    game.play_chunk(table, 1, 0, 1)
"""


def pytest_sessionstart(session):
    """With several test processes (``-n``), compile every game's kernel once beforehand.

    Numba keeps compiled kernels on disk; without this, the processes would each compile
    the same kernel at the same moment (minutes of a short run). Here each game is
    compiled by a process of its own, side by side, and the test processes load them.
    A game plays one game with each of its built-in strategies, so that every build of
    its kernel is compiled (the slicing games compile their search only for a table
    where someone searches: a build of its own).
    """
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from cakesim.games import GAMES

    started = [subprocess.Popen([sys.executable, "-c", WARM_UP.format(name=name)])
               for name in GAMES]
    for process in started:
        process.wait()
