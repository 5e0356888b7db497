"""Every game implements the contract: its attributes, tables, seats, strategies, chunks."""

import argparse

import numpy as np
import pytest

from cakesim.engine.contract import Game, ResultKind, SeatName
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.games import GAME_COMMANDS
from cakesim.kits.bench import Benchmarked
from cakesim.kits.strategies import Tunable, WeightedStrategy, tunable
from tests.conformance.conftest import EVERY_GAME, default_table, game_named


def test_the_registry_names_each_game_by_its_own_name():
    for name in EVERY_GAME:
        game = game_named(name)
        assert isinstance(game, Game) and game.name == name and game.title


def test_describes_itself(game):
    assert isinstance(game.result_kind, ResultKind)
    assert game.variants and game.strategy_names and game.win_units >= 1
    assert game.default_strategy in game.strategy_names
    assert set(game.option_defaults) <= set(game.table_options)
    rules = game.load_rules()
    for option, default in game.option_defaults.items():
        assert default in game.option_choices(rules, option)
    if game.result_kind is ResultKind.SEATS:
        assert game.seat_metrics[0] == "total"
    else:
        assert "won" in game.game_metrics and game.seat_metrics == ()
    for top, bottom in game.item_ratios.values():
        assert {top, bottom} <= set(game.item_metrics)


def test_rules_give_a_player_range_and_a_source(game):
    rules = game.load_rules()
    assert 1 <= rules.min_players <= game.default_players <= rules.max_players
    assert rules.source


def test_every_named_strategy_resolves_and_an_unknown_one_is_refused(game):
    rules = game.load_rules()
    for name in game.strategy_names:
        for players in range(rules.min_players, rules.max_players + 1):
            assert game.named_strategy(name, players).name == name
    with pytest.raises(InputError):
        game.named_strategy("no-such-strategy")


def test_a_tunable_game_tunes_weights_its_strategies_have(game):
    if not isinstance(game, Tunable):
        with pytest.raises(InputError, match="no weights to tune"):
            tunable(game)
        return
    base = game.named_strategy(game.tuning_base, game.default_players)
    weights = game.weights_of(base)
    assert set(game.tuning_box) <= set(weights)
    for low, high in game.tuning_box.values():
        assert low < high
    moved = {n: (low + high) / 2 for n, (low, high) in game.tuning_box.items()}
    renamed = game.with_weights(base, "moved", moved)
    assert renamed.name == "moved" and game.weights_of(renamed) == weights | moved
    table = Table(game.strategy_table(renamed), "test", "strategy")
    assert game.parse_strategy("moved", table) == renamed


def test_a_table_carries_its_game_and_every_seat_has_a_name(game):
    rules = game.load_rules()
    for players in range(rules.min_players, rules.max_players + 1):
        table = default_table(game, players)
        assert table.game is game and table.players == players
        names = [game.seat_name(table, seat) for seat in range(players)]
        assert all(isinstance(n, SeatName) and n.name for n in names)
        assert len({n.name for n in names}) == players


def test_a_chunk_has_the_shapes_and_metrics_the_runner_sums(game):
    table = default_table(game, duplicate=game.result_kind is ResultKind.SEATS)
    games = 3 * table.players
    chunk = game.play_chunk(table, seed=3, first_game=0, games=games)
    assert chunk.games == games and chunk.first_game == 0
    assert tuple(chunk.game) == game.game_metrics_of(table)
    for values in chunk.game.values():
        assert values.shape == (games,) and values.dtype.kind == "i"
    items = len(game.item_names(table))
    assert set(chunk.item) == (set(game.item_metrics) if items else set())
    for values in chunk.item.values():
        assert values.shape == (games, items)
    if game.result_kind is ResultKind.SEATS:
        assert set(chunk.seat) == {*game.seat_metrics, "win_units"}
        for values in chunk.seat.values():
            assert values.shape == (games, table.players)
        # A shared first place splits the game's win units; they never go missing.
        assert np.all(chunk.seat["win_units"].sum(axis=1) == game.win_units)
        best = chunk.seat["total"] == chunk.seat["total"].max(axis=1, keepdims=True)
        assert np.all((chunk.seat["win_units"] > 0) <= best)
    else:
        assert chunk.seat == {}
        assert set(np.unique(chunk.game["won"])) <= {0, 1}


def test_playing_is_a_pure_function_of_seed_and_game_index(game):
    table = default_table(game)
    whole = game.play_chunk(table, seed=9, first_game=0, games=8)
    part = game.play_chunk(table, seed=9, first_game=5, games=3)
    for kind in ("seat", "game", "item"):
        for metric, values in getattr(whole, kind).items():
            assert np.array_equal(values[5:], getattr(part, kind)[metric]), (kind, metric)
    other = game.play_chunk(table, seed=10, first_game=0, games=8)
    assert any(not np.array_equal(v, getattr(other, kind)[m])
               for kind in ("seat", "game") for m, v in getattr(whole, kind).items())


def test_every_speed_target_covers_a_benchmark_table(game):
    if not isinstance(game, Benchmarked):
        return
    tables = [(name, table.players) for name, table in game.bench_tables(game.load_rules())]
    for target in game.bench_targets:
        assert any(target.covers(name, players) for name, players in tables), target


def test_declares_a_rule_version_and_its_commands_are_registered(game):
    assert isinstance(game.rule_version, str) and game.rule_version
    # The registry lists a game's own commands, so that `cakesim --help` need not load it.
    registered = {command: text for command, (name, text) in GAME_COMMANDS.items()
                  if name == game.name}
    assert hasattr(game, "add_commands") == bool(registered)
    if registered:
        commands = argparse.ArgumentParser().add_subparsers()
        game.add_commands(commands)
        assert {a.dest: a.help for a in commands._choices_actions} == registered


def test_every_named_weight_reaches_the_kernel_at_its_index(game):
    # The kernels read a weight at the index its spec gives it (``StrategySpec.index``): a
    # strategy file that sets one weight must change that place of the parameter row the
    # kernel gets, and no other.
    base = game.parse_strategy("probe", Table({}, "test", "strategy"))
    if not isinstance(base, WeightedStrategy):
        return
    spec = base.spec
    if isinstance(game, Tunable):
        assert game.parameters == spec.parameters
    defaults = np.asarray(base.vectors()["params"], dtype=float)
    for name, (default, (low, high), _) in spec.parameters.items():
        step = 1.0 if name in spec.whole else 0.25
        value = default + step if default + step <= high else (default + low) / 2
        probe = game.parse_strategy("probe", Table({name: value}, "test", "strategy"))
        params = np.asarray(probe.vectors()["params"], dtype=float)
        expected = defaults.copy()
        expected[spec.index(name)] = value
        assert np.array_equal(params, expected), name
