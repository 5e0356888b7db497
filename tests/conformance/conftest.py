"""What every registered game must do, as the shared machinery relies on it.

The anchors are Pgx's ``api_test`` and OpenSpiel's ``test_consistent``: one suite, run
over every game of the registry, so that a new game is checked the moment it is listed.
Per-game test folders keep only what is specific to their game.
"""

import itertools
from importlib import import_module

import numpy as np
import pytest

from cakesim.engine.contract import Game, TableSpec
from cakesim.games import GAMES

EXAMPLE = {"high-card": "tests.conformance.high_card.game"}
"""The smallest complete game (docs/adding_a_game.md): it must pass the suite too."""
EVERY_GAME = {**GAMES, **EXAMPLE}


def game_named(name: str) -> Game:
    """A registered game, or the example."""
    return import_module(EVERY_GAME[name]).GAME


@pytest.fixture(params=list(EVERY_GAME))
def game(request, monkeypatch) -> Game:
    """Each registered game in turn, and the example (registered for the test's length)."""
    monkeypatch.setattr("cakesim.games.GAMES", EVERY_GAME)
    monkeypatch.setattr("cakesim.app.cli.GAMES", EVERY_GAME)
    return game_named(request.param)


def default_table(game: Game, players: int | None = None, duplicate: bool = False,
                  strategy: str | None = None) -> TableSpec:
    """The game's base variant with its default strategy at every seat."""
    rules = game.load_rules()
    players = players or game.default_players
    chosen = game.named_strategy(strategy or game.default_strategy, players)
    return game.table(rules, players, [chosen] * players, duplicate=duplicate)


def every_setting() -> list[tuple[str, int, str, str]]:
    """Every (game, players, variant, named strategy) the published rules allow."""
    found = []
    for name in EVERY_GAME:
        game = game_named(name)
        rules = game.load_rules()
        for players, variant, strategy in itertools.product(
                range(rules.min_players, rules.max_players + 1), game.variants,
                game.strategy_names):
            if game.has_variant(rules, players, variant):
                found.append((name, players, variant, strategy))
    return found


def covering(settings: list[tuple[str, int, str, str]]) -> list[tuple[str, int, str, str]]:
    """The settings that pair every player count with every variant (at the game's
    default strategy) and every player count with every strategy (in the base variant):
    each rule path and each strategy at every table size, without their whole product."""
    chosen = []
    for name, players, variant, strategy in settings:
        game = game_named(name)
        if strategy == game.default_strategy or variant == game.variants[0]:
            chosen.append((name, players, variant, strategy))
    return chosen


def assert_parity(table: TableSpec, seed: int, first: int, games: int) -> None:
    """The kernel and the reference engine agree on every metric of every game."""
    game = table.game
    chunk = game.play_chunk(table, seed, first, games)
    for g in range(games):
        kernel = game.kernel_outcome(chunk, g)
        reference = game.reference_outcome(table, seed, first + g)
        assert kernel == reference, (
            f"{game.name} {table.label}: game {first + g} of seed {seed} differs: "
            + "; ".join(f"{m}: kernel {kernel.get(m)}, reference {reference.get(m)}"
                        for m in sorted(set(kernel) | set(reference))
                        if kernel.get(m) != reference.get(m)))


def assert_pure(table: TableSpec, seed: int, games: int, chunk: int) -> None:
    """Games ``0 .. games`` are a pure function of (seed, game): the same when played twice,
    and when played in chunks of ``chunk``."""
    game = table.game
    whole = game.play_chunk(table, seed, 0, games)
    again = game.play_chunk(table, seed, 0, games)
    parts = [game.play_chunk(table, seed, first, chunk) for first in range(0, games, chunk)]
    for metrics, key in ((whole.seat, "seat"), (whole.game, "game")):
        for metric, values in metrics.items():
            assert np.array_equal(values, getattr(again, key)[metric]), metric
            assert np.array_equal(values, np.concatenate(
                [getattr(part, key)[metric] for part in parts])), metric
