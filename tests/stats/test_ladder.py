"""Strategy ladders (win matrix, Bradley-Terry with seat terms, Elo) and paired contrasts,
on any game."""

import itertools
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
    FIT_LEVEL,
    Results,
    bradley_terry,
    merge_identical,
    seat_odds,
    win_chance,
)


def _pairs(strategies: int, players: int) -> np.ndarray:
    """Every table of a ladder: pairings at two players, ordered cells at more."""
    cells = (itertools.combinations(range(strategies), 2) if players == 2
             else itertools.permutations(range(strategies), 2))
    return np.array(list(cells), dtype=np.intp)


def _ladder(chance: np.ndarray, players: int, deals: int, rng,
            luck: float = 0.0) -> Results:
    """A ladder on duplicate deals whose lone strategy at table and seat ``[t, s]`` wins
    with ``chance[t, s]``; ``luck`` (a log-odds spread) makes a deal good or bad for every
    lone strategy at once, as shared cards do."""
    strategies = round((1 + math.sqrt(1 + (8 if players == 2 else 4) * len(chance))) / 2)
    odds = np.log(chance / (1 - chance))[:, :, None] + rng.normal(0, luck, deals) if luck \
        else np.log(chance / (1 - chance))[:, :, None] + np.zeros(deals)
    wins = (rng.random(odds.shape) < 1 / (1 + np.exp(-odds))).astype(np.float64)
    return Results([f"s{i}" for i in range(strategies)], _pairs(strategies, players), wins,
                   np.ones_like(wins), [f"t{n}" for n in range(len(chance))], [], players)


TRUTH = np.array([0.8, 0.2, -0.3, -0.7])
SEATS = {2: np.array([0.15, -0.15]), 3: np.array([0.3, 0.0, -0.3]),
         4: np.array([-0.2, 0.3, 0.1, -0.2])}


def test_the_model_is_luce_with_seat_terms():
    strength, seat = np.array([0.5, -0.5]), np.array([0.4, -0.1, -0.3])
    chance = win_chance(strength, seat, np.array([[0, 1]]))[0]
    # i alone at seat t: exp(b_i + a_t) against exp(b_j + a_s) at each other seat s.
    for t in range(3):
        weights = np.exp(strength[1] + seat)
        weights[t] = np.exp(strength[0] + seat[t])
        assert chance[t] == pytest.approx(weights[t] / weights.sum(), rel=1e-12)
    # Among equals the seats share the wins; without seat terms each has the fair share.
    assert 1 / (1 + np.exp(-seat_odds(seat))) == pytest.approx(np.exp(seat) / np.exp(seat).sum())
    assert seat_odds(np.zeros(4)) == pytest.approx(np.full(4, -math.log(3)))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=2, max_size=5), st.integers(2, 5),
       st.floats(-0.5, 0.5))
def test_the_fit_inverts_the_model_at_any_player_count(strengths, players, tilt):
    truth = np.array(strengths) - np.mean(strengths)
    seat = tilt * np.linspace(-1, 1, players)
    pairs = _pairs(len(truth), players)
    games = np.full((len(pairs), players, 1), 1e6)
    # Expected wins, no noise: the fit finds the truth and nothing to misfit.
    wins = games * win_chance(truth, seat, pairs)[:, :, None]
    found = bradley_terry(Results(list(map(str, truth)), pairs, wins, games, [], [], players))
    assert found.strength == pytest.approx(truth, abs=1e-4)
    assert found.seat == pytest.approx(seat, abs=1e-4)
    assert found.deviance == pytest.approx(0, abs=1e-3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bradley_terry_ladder_with_seats_is_fitted_back_and_fits(players):
    rng = np.random.default_rng(10 + players)
    pairs = _pairs(4, players)
    results = _ladder(win_chance(TRUTH, SEATS[players], pairs), players, 3000, rng)
    found = bradley_terry(results)
    # Cells (tables x seats) less the free strengths and seat terms.
    assert found.df == len(pairs) * players - 3 - (players - 1)
    assert found.fits and found.p_value >= FIT_LEVEL
    error = np.concatenate([found.strength - TRUTH, found.seat - SEATS[players]])
    assert np.all(np.abs(error) < 4 * found.standard_errors())
    assert np.all(np.abs(error) < 0.1)
    assert 1500 + ELO_SCALE * found.strength[0] > 1500 + ELO_SCALE * found.strength[1]


def test_the_test_rejects_a_true_model_about_as_often_as_its_level_says():
    rng = np.random.default_rng(11)
    pairs = _pairs(4, 3)
    chance = win_chance(TRUTH, SEATS[3], pairs)
    rejected = sum(not bradley_terry(_ladder(chance, 3, 400, rng)).fits for _ in range(40))
    # 2 expected in 40 at 5 %; 7 or more has a chance of 0.3 % if the test is right.
    assert rejected <= 6


@pytest.mark.parametrize("players", [2, 3])
def test_rock_paper_scissors_is_flagged_as_not_fitting(players):
    rng = np.random.default_rng(5)
    pairs = _pairs(3, players)
    # Each beats the next: 70 % head to head, and alone twice its fair share against a
    # field of the one it beats, half of it against the field of the one that beats it.
    beats = {(0, 1), (1, 2), (2, 0)}
    fair = 1 / players
    share = np.array([(0.7 if players == 2 else 2 * fair) if (i, j) in beats else
                      (0.3 if players == 2 else fair / 2) for i, j in pairs])
    results = _ladder(np.repeat(share[:, None], players, axis=1), players, 2000, rng)
    found = bradley_terry(results)
    assert not found.fits and found.deviance > 100
    table, seat, z = found.misfit
    wins, games = results.cells()
    assert abs(z) > 5 and abs(wins[table, seat] / games[table, seat]
                              - found.chance[table, seat]) > 0.1


def test_the_intervals_count_deals_not_games():
    # Shared cards make a deal good or bad for every lone strategy at once: the strengths
    # vary from ladder to ladder as the deal-clustered errors say (games as independent
    # trials would say less).
    rng = np.random.default_rng(6)
    pairs = _pairs(4, 3)
    chance = win_chance(TRUTH, SEATS[3], pairs)
    fits = [bradley_terry(_ladder(chance, 3, 300, rng, luck=1.5)) for _ in range(40)]
    spread = np.std([f.strength for f in fits], axis=0, ddof=1)
    said = np.mean([f.standard_errors()[:4] for f in fits], axis=0)
    assert np.all((said / spread > 0.7) & (said / spread < 1.4))


def test_a_table_that_always_goes_one_way_keeps_a_wide_interval():
    # s0 wins every game: no deal differs from another, so the clustered spread is nil;
    # the games say only that s0 is far stronger, not how far.
    rng = np.random.default_rng(9)
    wins = np.stack([np.ones((2, 500)), np.ones((2, 500)),
                     (rng.random((2, 500)) < 0.5).astype(np.float64)])
    results = Results(["s0", "s1", "s2"], _pairs(3, 2), wins, np.ones_like(wins),
                      ["t0", "t1", "t2"], [], 2)
    found = bradley_terry(results)
    assert found.covariance[0, 0] < 0.01 * found.independent[0, 0]
    assert found.standard_errors()[0] > 0.5 > found.standard_errors()[1]


def test_seat_terms_are_left_out_where_the_lone_strategy_keeps_one_seat():
    # Not on duplicate deals: the lone strategy always sits first, so only the first seat's
    # odds are known; the other seats' terms are not counted as parameters.
    rng = np.random.default_rng(7)
    pairs = _pairs(3, 3)
    chance = win_chance(TRUTH[:3] - TRUTH[:3].mean(), np.zeros(3), pairs)
    results = _ladder(chance, 3, 2000, rng)
    results.wins[:, 1:] = results.games[:, 1:] = 0
    found = bradley_terry(results)
    assert found.df == len(pairs) - 2 - 1 and found.fits


def test_a_cell_reads_its_deals_and_its_seats_together():
    rng = np.random.default_rng(8)
    results = _ladder(np.full((6, 3), 0.4), 3, 50, rng)
    results.games[2, :, 40:] = results.wins[2, :, 40:] = 0  # a table of fewer games
    wins, games = results.per_deal(2)
    assert games.shape == (40,) and np.all(games == 3)
    assert wins.sum() == results.cells()[0][2].sum()


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
    assert text.index("### Head to head") < text.index("### Ratings")
    # Six cells (three pairings at two seats) less two strengths and a seat term.
    assert "**Fit:** deviance" in text and "on 3 degrees of freedom" in text
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
        "random vs eater | win share", "Elo | greedy-balanced", "Elo | random", "Elo | eater",
        "Elo | seat 1", "Elo | seat 2"}


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
    assert "3P Elo | random" in found and "3P Elo | seat 3" in found
    assert len(found) == (3 + 3 + 2) + (6 + 3 + 3)
    text = result.report.read_text()
    assert "### Head to head at 2 players" in text
    assert "### One against a field at 3 players" in text
    headline = text.split("## Strategy ladder", 1)[1].split("**")[1]
    assert headline.startswith("Strategy ladder: at 2 players ") and "; at 3 players " in headline
    assert (tmp_path / "ladder.png").exists()
