"""Strategy ladders (win matrix, Bradley-Terry, Elo) and paired contrasts, on any game."""

import json
import math

import numpy as np
import pytest

from cakesim.api import run_experiment
from cakesim.games import game_named
from cakesim.reports.ladder import numbers
from cakesim.stats.intervals import mean_of, ratio_by_deal, wilson
from cakesim.stats.ladder import (
    ELO_SCALE,
    Results,
    bootstrap,
    bradley_terry,
    goodness_of_fit,
    merge_identical,
)


def _matrix(p: np.ndarray, games: float) -> np.ndarray:
    """Expected wins of every pairing at chances ``p``, ``games`` games a pairing."""
    wins = games * p
    np.fill_diagonal(wins, 0)
    return wins


def _bt_chances(strength: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(strength[:, None] - strength[None, :])))


def test_bradley_terry_recovers_known_strengths_one_ladder_or_many():
    truth = np.array([0.8, 0.0, -0.8])
    wins = _matrix(_bt_chances(truth), 20_000.0)
    assert np.allclose(bradley_terry(wins), truth, atol=1e-6)
    many = bradley_terry(np.stack([wins, wins[::-1, ::-1]]))
    assert many.shape == (2, 3)
    assert np.allclose(many[1], truth[::-1], atol=1e-6)


def test_the_interval_of_a_cell_counts_deals_not_games():
    rng = np.random.default_rng(3)
    # Both games of a deal go the same way: 400 deals carry the information of 400 games.
    won = rng.random(400) < 0.6
    wins, games = 2.0 * won, np.full(400, 2)
    share = ratio_by_deal(wins, games)
    assert share.value == pytest.approx(won.mean()) and share.n == 400
    # Equal games per deal: the t interval of the mean of the per-deal win shares.
    same = mean_of(wins / games)
    assert (share.low, share.high) == pytest.approx((same.low, same.high))
    independent = wilson(share.value, 800)
    assert share.half_width / independent.half_width == pytest.approx(math.sqrt(2), rel=0.05)


def _synthetic(deals: int = 300, seed: int = 1) -> Results:
    """Three strategies, three pairings, two games a deal, correlated through the deal."""
    rng = np.random.default_rng(seed)
    pairs = np.array([[0, 1], [0, 2], [1, 2]])
    difficulty = rng.normal(0, 0.5, deals)  # shared by every table: the same deals
    p = np.array([0.6, 0.75, 0.65])[:, None] + 0.1 * np.tanh(difficulty)
    first = rng.binomial(2, np.clip(p, 0, 1)).astype(np.float64)
    wins = np.stack([first, 2 - first], axis=1)
    return Results(["a", "b", "c"], pairs, wins, np.full((3, deals), 2), ["t"] * 3, [])


def test_the_bootstrap_is_reproducible_for_a_seed_and_tracks_the_spread():
    results = _synthetic()
    first = bootstrap(results, seed=5, replicates=200)
    assert first.shape == (200, 3)
    assert np.array_equal(first, bootstrap(results, seed=5, replicates=200))
    assert not np.array_equal(first, bootstrap(results, seed=6, replicates=200))
    assert np.allclose(first.sum(axis=1), 0, atol=1e-9)
    # Refitting fresh ladders gives a spread of the same size as the bootstrap's.
    fresh = np.stack([bradley_terry(_synthetic(seed=s).matrix() + 0.5) for s in range(100, 160)])
    ratio = first.std(axis=0) / fresh.std(axis=0)
    assert np.all((ratio > 0.6) & (ratio < 1.6))


def test_goodness_of_fit_flags_a_non_transitive_matrix_and_passes_a_bradley_terry_one():
    rng = np.random.default_rng(8)
    truth = np.array([1.0, 0.3, 0.0, -1.3])
    chances = _bt_chances(truth)
    wins = np.zeros((4, 4))
    for i, j in zip(*np.triu_indices(4, 1), strict=True):
        wins[i, j] = rng.binomial(3000, chances[i, j])
        wins[j, i] = 3000 - wins[i, j]
    fit = goodness_of_fit(wins, bradley_terry(wins))
    assert fit["df"] == 3 and fit["fits"] and fit["p_value"] > 0.05
    # Rock, paper, scissors: each beats the next 70 % of the time; the model says 50 %.
    cycle = np.array([[0, 0.7, 0.3], [0.3, 0, 0.7], [0.7, 0.3, 0]]) * 2000
    fit = goodness_of_fit(cycle, bradley_terry(cycle))
    assert fit["df"] == 1 and not fit["fits"] and fit["deviance"] > 100
    assert fit["predicted"] == pytest.approx(0.5) and abs(fit["observed"] - 0.5) == 0.2


def test_the_thief_rules_coincide_with_one_opponent_only():
    game = game_named("part-du-chef")
    greedy, leader, balanced = (game.named_strategy(n)
                                for n in ("greedy", "thief-leader", "greedy-balanced"))
    assert game.same_play(greedy, leader, 2) and game.same_play(leader, greedy, 2)
    assert not game.same_play(greedy, leader, 3)
    assert not game.same_play(greedy, balanced, 2)
    strategies = {s.name: s for s in (greedy, balanced, leader)}
    assert merge_identical(game, strategies) == {"greedy": "greedy", "thief-leader": "greedy",
                                                 "greedy-balanced": "greedy-balanced"}
    # A random thief draws a number even with one victim to choose: not the same play.
    random_thief = type(greedy)("random-thief", thief="random")
    assert not game.same_play(greedy, random_thief, 2)


EXPERIMENT = """
[experiment]
name = "ladder"
game = "piece-o-cake"
seed = 4
games = 240
chunk_size = 120
keep_rows = {keep_rows}

[ladder]
strategies = ["greedy-balanced", "random", "eater", "copy"]

[contrasts]
player = 1
pairs = [["3P base smart", "3P base clueless"]]

[strategies.greedy-balanced]
chooser = "greedy"
cutter = "balanced"

[strategies.copy]
chooser = "greedy"
cutter = "balanced"

[strategies.random]
chooser = "random"
cutter = "random"

[strategies.eater]
chooser = "greedy"
cutter = "balanced"
eat_weight = 3.0

[[tables]]
players = 2
round_robin = ["greedy-balanced", "random", "eater", "copy"]
duplicate = true

[[tables]]
label = "smart"
players = 3
seats = ["greedy-balanced", "random", "random"]
duplicate = true

[[tables]]
label = "clueless"
players = 3
seats = ["random", "random", "random"]
duplicate = true
"""


def test_a_round_robin_ladder_and_a_contrast_in_one_report(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text(EXPERIMENT.format(keep_rows=1_000_000))
    result = run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path / "out")
    labels = [t.label for t in result.experiment.tables]
    assert labels[:3] == ["2P base greedy-balanced vs random", "2P base greedy-balanced vs eater",
                          "2P base greedy-balanced vs copy"]
    text = result.report.read_text()
    assert "## Strategy ladder" in text and "## Paired contrasts" in text
    assert "copy plays as greedy-balanced at 2 players: merged." in text
    assert text.index("### Head to head") < text.index("### Elo ratings")
    assert "**Fit:** deviance" in text
    ladder = json.loads(result.report.parent.joinpath("summary.json").read_text())[
        "sections"]["ladder"]
    assert ladder["strategies"] == ["greedy-balanced", "random", "eater"]
    assert {s["table"] for s in ladder["skipped_tables"]} == {
        "2P base greedy-balanced vs copy", "2P base random vs copy", "2P base eater vs copy"}
    elo = {r["strategy"]: r for r in ladder["elo"]}
    assert elo["greedy-balanced"]["low"] > elo["random"]["high"]
    assert math.isclose(np.mean([r["value"] for r in elo.values()]), 1500, abs_tol=1e-6)
    assert ELO_SCALE > 173
    cell = ladder["win_matrix"][0][1]
    assert cell["n"] == 120 and 0.5 < cell["low"] <= cell["value"] <= cell["high"] <= 1
    assert ladder["deals"] == 120
    assert set(numbers(ladder)) == {
        "greedy-balanced vs random | win share", "greedy-balanced vs eater | win share",
        "random vs eater | win share", "Elo | greedy-balanced", "Elo | random", "Elo | eater"}


def test_the_ladder_asks_for_every_row(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text(EXPERIMENT.format(keep_rows=100))
    with pytest.raises(ValueError, match="raise keep_rows"):
        run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path / "out")
