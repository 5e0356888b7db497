"""Strategy ladders (win matrix, Bradley-Terry, Elo) and paired contrasts, on any game."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.app.api import run_experiment
from cakesim.games import game_named
from cakesim.reports.ladder import numbers
from cakesim.reports.summary_file import read_summary
from cakesim.stats.intervals import mean_of, ratio_by_deal, wilson
from cakesim.stats.ladder import (
    ELO_SCALE,
    Results,
    bootstrap,
    bradley_terry,
    fit,
    fit_strengths,
    goodness_of_fit,
    merge_identical,
    played,
    win_chance,
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


def _field_tables(p: np.ndarray, games: float) -> tuple[np.ndarray, np.ndarray]:
    """Expected lone wins and field wins of every cell at chances ``p``."""
    wins, field = games * p, games * (1 - p)
    np.fill_diagonal(wins, 0)
    np.fill_diagonal(field, 0)
    return wins, field


@pytest.mark.parametrize("players", [3, 4])
def test_the_luce_fit_recovers_known_strengths_alone_against_a_field(players):
    truth = np.array([0.9, 0.3, -0.2, -1.0])
    chances = win_chance(truth, players)
    # i alone against P - 1 copies of j: exp(b_i) / (exp(b_i) + (P - 1) exp(b_j)).
    e = np.exp(truth)
    assert chances[0, 3] == pytest.approx(e[0] / (e[0] + (players - 1) * e[3]))
    assert win_chance(np.zeros(4), players)[0, 1] == pytest.approx(1 / players)
    wins, field = _field_tables(chances, 50_000.0)
    assert np.allclose(bradley_terry(wins, field, players), truth, atol=1e-6)
    fit_ = goodness_of_fit(wins, bradley_terry(wins, field, players), field, players)
    assert fit_["df"] == 12 - 3 and fit_["deviance"] == pytest.approx(0, abs=1e-6)
    # Sampled wins at large counts: close to the truth, and the model fits.
    rng = np.random.default_rng(players)
    sampled = rng.binomial(40_000, chances).astype(np.float64)
    np.fill_diagonal(sampled, 0)
    rest = np.where(np.eye(4, dtype=bool), 0, 40_000 - sampled)
    strength = bradley_terry(sampled, rest, players)
    assert np.allclose(strength, truth, atol=0.03)
    assert goodness_of_fit(sampled, strength, rest, players)["fits"]
    # Replicates fitted together give each one's own strengths.
    many = bradley_terry(np.stack([wins, sampled]), np.stack([field, rest]), players)
    assert np.allclose(many, [truth, strength], atol=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=2, max_size=5), st.integers(2, 5))
def test_the_fit_inverts_the_model_at_any_player_count(strengths, players):
    truth = np.array(strengths) - np.mean(strengths)
    wins, field = _field_tables(win_chance(truth, players), 10_000.0)
    assert np.allclose(bradley_terry(wins, field, players), truth, atol=1e-5)


def test_at_two_players_the_model_and_the_fit_are_the_classic_ones():
    rng = np.random.default_rng(4)
    wins = rng.integers(1, 400, (5, 5)).astype(np.float64)
    np.fill_diagonal(wins, 0)
    strength = bradley_terry(wins)
    assert np.array_equal(win_chance(strength, 2), _bt_chances(strength))
    # The same fit with every cell read as a table of its own against a "field" of one:
    # each table counted twice, the same strengths, twice the deviance.
    assert np.allclose(bradley_terry(wins, wins.T, players=2), strength, atol=1e-9)
    pairs = goodness_of_fit(wins, strength)
    cells = goodness_of_fit(wins, strength, wins.T, players=2)
    assert cells["deviance"] == pytest.approx(2 * pairs["deviance"], rel=1e-9)
    # A two-player ladder's results fill both cells from one table, as before.
    results = _synthetic()
    assert results.field() is None
    assert np.array_equal(fit(results), fit_strengths(results.matrix(),
                                                      played(results.matrix())))
    with pytest.raises(ValueError, match="give the field's wins"):
        bradley_terry(wins, players=3)


def test_a_two_player_fit_gives_the_strengths_it_gave_before_the_field_model():
    # Fitted by the two-player-only code this ladder replaced (to the last bit here).
    wins = np.array([[0, 70, 66.5, 99], [30, 0, 49.5, 98], [33.5, 50.5, 0, 97.5],
                     [1, 2, 2.5, 0]])
    before = [1.452352794725571, 0.6721059835134129, 0.7252892964687045, -2.849748074707689]
    strength = fit_strengths(wins, played(wins))
    assert strength == pytest.approx(before, rel=1e-12, abs=1e-12)
    assert goodness_of_fit(wins, strength)["deviance"] == pytest.approx(0.5770857081122136,
                                                                       rel=1e-12)


def _synthetic_field(players: int = 3, deals: int = 400, seed: int = 2) -> Results:
    """Three strategies, all six cells, P games a deal."""
    rng = np.random.default_rng(seed)
    truth = np.array([0.5, 0.0, -0.5])
    pairs = np.array([(i, j) for i in range(3) for j in range(3) if i != j])
    lone = rng.binomial(players, win_chance(truth, players)[pairs[:, 0], pairs[:, 1]][:, None],
                        (6, deals)).astype(np.float64)
    wins = np.stack([lone, players - lone], axis=1)
    return Results(["a", "b", "c"], pairs, wins, np.full((6, deals), players), ["t"] * 6, [],
                   players)


def test_a_field_ladder_keeps_its_cells_apart_and_bootstraps_by_deal():
    results = _synthetic_field()
    wins, field = results.matrix(), results.field()
    assert np.array_equal(wins + field, np.where(np.eye(3, dtype=bool), 0, 3 * 400))
    assert wins[0, 1] == results.wins[0, 0].sum() and field[0, 1] == results.wins[0, 1].sum()
    assert wins[1, 0] == results.wins[2, 0].sum()  # another table than (0, 1)'s
    strength = fit(results)
    assert strength[0] > strength[1] > strength[2]
    replicates = bootstrap(results, seed=3, replicates=100)
    assert replicates.shape == (100, 3) and np.allclose(replicates.sum(axis=1), 0)
    assert np.array_equal(replicates, bootstrap(results, seed=3, replicates=100))
    assert np.all(np.abs(replicates.mean(axis=0) - strength) < 3 * replicates.std(axis=0))


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

[skill]
enabled = false
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
    ladder = read_summary(result.report.parent)["sections"]["ladder"]
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


FIELD_EXPERIMENT = """
[experiment]
name = "field_ladder"
game = "piece-o-cake"
seed = 9
games = 300
chunk_size = 300

[ladder]
strategies = ["greedy-balanced", "greedy-deny", "random"]

[strategies.greedy-balanced]
builtin = "greedy-balanced"

[strategies.greedy-deny]
builtin = "greedy-deny"

[strategies.random]
builtin = "random"

[[tables]]
players = [2, 3]
against_field = ["greedy-balanced", "greedy-deny", "random"]
duplicate = true

[skill]
enabled = false
"""


def test_a_ladder_at_two_and_three_players_against_a_field(tmp_path):
    path = tmp_path / "field_ladder.toml"
    path.write_text(FIELD_EXPERIMENT)
    result = run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path)
    labels = [t.label for t in result.experiment.tables]
    assert labels[:3] == ["2P base greedy-balanced vs greedy-deny",
                          "2P base greedy-balanced vs random", "2P base greedy-deny vs random"]
    assert labels[3:5] == ["3P base greedy-balanced vs field of greedy-deny",
                           "3P base greedy-balanced vs field of random"]
    assert len(labels) == 3 + 6
    section = read_summary(tmp_path)["sections"]["ladder"]
    assert list(section["by_players"]) == ["2", "3"] and section["players"] == 2
    three = section["by_players"]["3"]
    names = three["strategies"]
    assert names == ["greedy-balanced", "greedy-deny", "random"] and three["deals"] == 100
    # Alone against two random players, greedy-balanced wins far more than a third.
    cell = three["win_matrix"][0][2]
    assert cell["n"] == 100 and cell["low"] > 0.8
    assert three["win_matrix"][2][0]["high"] < 0.1
    elo = {r["strategy"]: r for r in three["elo"]}
    assert elo["greedy-balanced"]["low"] > elo["random"]["high"]
    found = numbers(section)
    assert "greedy-balanced vs random | win share" in found
    assert "3P greedy-balanced vs field of random | win share" in found
    assert "3P Elo | random" in found and len(found) == (3 + 3) + (6 + 3)
    text = result.report.read_text()
    assert "### Head to head at 2 players" in text
    assert "### One against a field at 3 players" in text
    headline = text.split("## Strategy ladder", 1)[1].split("**")[1]
    assert headline.startswith("Strategy ladder: at 2 players ") and "; at 3 players " in headline
    assert (tmp_path / "ladder.png").exists()
