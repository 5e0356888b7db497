"""Tuned strategy files: written, read back as the game parses strategies, refused if absent."""

import pytest

from cakesim.engine.errors import InputError
from cakesim.games import game_named
from cakesim.kits.strategies import read_tuned, tuned_path, tuned_population
from cakesim.tuning.record import write_tuned
from cakesim.tuning.search import Budget, tune
from tests.tuning.conftest import GAME


def test_a_written_tuning_reads_back_as_the_same_strategy(arena, tmp_path, monkeypatch):
    outcome = tune(arena, Budget(evaluations=8, rounds=1, games=100, confirm=200), seed=2,
                   n_jobs=1, progress=False)
    path = tmp_path / "tuned" / "2p-base.toml"
    write_tuned(GAME, outcome, path, "cakesim tune piece-o-cake --players 2")
    monkeypatch.setattr("cakesim.kits.strategies.tuned_path", lambda game, players, variant: path)
    assert read_tuned(GAME, 2, "base") == outcome.strategy
    text = path.read_text()
    assert "[tuning]" in text and "alone_against_tuned" in text and "CMA-ES" in text


def test_a_missing_tuning_names_the_command_that_makes_it(tmp_path, monkeypatch):
    monkeypatch.setattr("cakesim.kits.strategies.tuned_path",
                        lambda game, players, variant: tmp_path / "none.toml")
    with pytest.raises(InputError, match="cakesim tune piece-o-cake --players 3"):
        read_tuned(GAME, 3, "base")


def test_the_tuned_strategy_needs_a_player_count():
    with pytest.raises(InputError, match="player count"):
        GAME.named_strategy("tuned")


def test_every_shipped_tuning_is_a_valid_strategy_with_its_record():
    rules = GAME.load_rules()
    for players in range(rules.min_players, rules.max_players + 1):
        tuned = GAME.named_strategy("tuned", players)
        assert tuned.name == "tuned" and GAME.weights_of(tuned)["deny_weight"] >= 0


def test_a_variant_without_its_own_tuning_plays_the_base_tuning():
    assert GAME.tuned_variants == ("base",)
    assert GAME.named_strategy("tuned", 3, "compensation") == GAME.named_strategy("tuned", 3)


def test_la_marianne_has_a_tuning_of_its_own():
    chef = game_named("part-du-chef")
    assert chef.tuned_variants == ("base", "marianne")
    for players in range(2, 6):
        base, marianne = (chef.named_strategy("tuned", players, v) for v in chef.tuned_variants)
        assert tuned_path(chef, players, "marianne").exists() and base != marianne


def test_the_population_of_a_tuning_can_start_a_best_response():
    population = tuned_population(GAME, 4, "base")
    assert "tuned: greedy-balanced" in population and len(population) >= 3
    assert all(s.name == name for name, s in population.items())
