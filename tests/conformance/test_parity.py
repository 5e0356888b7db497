"""Kernel = reference engine, game for game, at every player count, variant and strategy.

A few games per setting. The default suite plays the settings that pair every player
count with every variant and with every strategy (``covering``); ``make parity`` plays
their whole product, and each game's own folder plays longer runs.
"""

import pytest

from cakesim.engine.contract import ResultKind
from tests.conformance.conftest import (
    EVERY_GAME,
    assert_parity,
    covering,
    every_setting,
    game_named,
)

EVERY = every_setting()
COVERING = set(covering(EVERY))
SETTINGS = [pytest.param(*s, id="-".join(map(str, s)),
                         marks=() if s in COVERING else pytest.mark.slow) for s in EVERY]


@pytest.mark.parametrize(("name", "players", "variant", "strategy"), SETTINGS)
def test_kernel_matches_reference(name, players, variant, strategy):
    game = game_named(name)
    table = game.table(game.load_rules(), players,
                       [game.named_strategy(strategy, players, variant)] * players,
                       variant)
    assert_parity(table, seed=41, first=300, games=4)


@pytest.mark.parametrize("name", list(EVERY_GAME))
def test_kernel_matches_reference_with_every_strategy_at_one_table(name):
    game = game_named(name)
    rules = game.load_rules()
    players = rules.max_players
    names = [game.strategy_names[s % len(game.strategy_names)] for s in range(players)]
    duplicate = game.result_kind is ResultKind.SEATS
    table = game.table(rules, players, [game.named_strategy(n, players) for n in names],
                       duplicate=duplicate)
    assert_parity(table, seed=8, first=0, games=2 * players)


def test_parity_sees_a_difference():
    game = game_named(next(iter(EVERY_GAME)))
    rules = game.load_rules()
    table = game.table(rules, rules.min_players,
                       [game.named_strategy(game.default_strategy)] * rules.min_players)
    chunk = game.play_chunk(table, 41, 300, 2)
    # Game 301 of the kernel against game 300 of the reference: the check must object.
    assert game.kernel_outcome(chunk, 1) != game.reference_outcome(table, 41, 300)
