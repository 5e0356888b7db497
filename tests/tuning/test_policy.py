"""The fit of a fast chooser: the flat network is scikit-learn's, on raw inputs, and it
ranks a decision's candidates better than the heuristic when the values follow its inputs."""

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.kits.policy import Examples
from cakesim.tuning.policy import (
    GAMES_PER_JOB,
    centred,
    collect,
    fit_policy,
    network_scores,
    trainable,
)


def synthetic(decisions=600, candidates=5, seed=0):
    """Decisions whose candidates' values are a nonlinear function of three inputs (on
    scales far apart, as counts and points are) plus noise; the first candidate is no
    better than the others."""
    rng = np.random.default_rng(seed)
    rows = decisions * candidates
    inputs = np.column_stack([rng.integers(0, 6, rows), rng.normal(50, 20, rows),
                              rng.normal(size=rows)]).astype(np.float32)
    values = (np.maximum(inputs[:, 0] - 2.0, 0.0) + 0.05 * inputs[:, 1]
              + 0.1 * rng.normal(size=rows))
    return Examples(inputs, values, np.repeat(np.arange(decisions), candidates))


def test_centred_values_sum_to_zero_in_each_decision():
    values = np.array([1.0, 3.0, 5.0, 10.0])
    decisions = np.array([0, 0, 0, 1])
    assert centred(values, decisions).tolist() == [-2.0, 0.0, 2.0, 0.0]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_flat_network_is_the_fitted_one_and_beats_the_heuristic():
    examples = synthetic()
    fit = fit_policy(examples, hidden=8, seed=3)
    assert fit.weights.shape == (3 * 8 + 2 * 8 + 1,)
    quality = fit.quality
    assert quality["r2_test"] > 0.8
    assert quality["network_regret"] < 0.5 * quality["heuristic_regret"]
    assert quality["network_best_share"] > quality["heuristic_best_share"]
    # The same seed, the same network, bit for bit.
    again = fit_policy(examples, hidden=8, seed=3)
    assert np.array_equal(again.weights, fit.weights)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_network_scores_fold_the_standardisation_in():
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    from cakesim.tuning.policy import folded
    # In float64 throughout (scikit-learn fits float32 inputs in float32).
    inputs = synthetic(decisions=100).inputs.astype(np.float64)
    values = synthetic(decisions=100).values
    scaler = StandardScaler().fit(inputs)
    model = MLPRegressor(hidden_layer_sizes=(4,), max_iter=50, random_state=0).fit(
        scaler.transform(inputs), values)
    expected = model.predict(scaler.transform(inputs))
    scores = network_scores(folded(model, scaler), inputs, 4)
    assert np.allclose(scores, expected, rtol=1e-9, atol=1e-9)


def test_a_game_without_a_fitted_chooser_is_refused():
    from cakesim.games import game_named
    with pytest.raises(InputError, match="no fitted chooser to train"):
        trainable(game_named("topp-die-torte"))


def test_an_interrupted_collection_plays_only_the_jobs_it_had_not_finished(tmp_path):
    import copy

    from cakesim.games import game_named
    played = []

    def examples(players, seed, first_game, games, learner=None):
        played.append(first_game)
        part = synthetic(decisions=games, candidates=2, seed=seed + first_game)
        return Examples(part.inputs, part.values, part.decisions)

    game = copy.copy(game_named("piece-o-cake"))
    game.training_examples = examples
    games = 2 * GAMES_PER_JOB + 7
    first = collect(game, 3, 11, games, 1, False, tmp_path)
    assert played == [0, GAMES_PER_JOB, 2 * GAMES_PER_JOB]
    files = sorted(tmp_path.rglob("*.npz"))
    assert len(files) == 3
    # One job's file never written, another's cut short: those two are played again.
    files[0].unlink()
    files[1].write_bytes(b"cut short")
    played.clear()
    again = collect(game, 3, 11, games, 2, False, tmp_path)
    assert len(played) == 2
    for a, b in zip((first.inputs, first.values, first.decisions),
                    (again.inputs, again.values, again.decisions), strict=True):
        assert np.array_equal(a, b)
    played.clear()
    collect(game, 3, 12, games, 1, False, tmp_path)
    assert len(played) == 3  # another seed: nothing of the first run's is reused
    played.clear()
    collect(game, 3, 11, games, 1, False, tmp_path, learner=np.ones(4))
    assert len(played) == 3  # a learner's games are others
    played.clear()
    collect(game, 3, 11, games, 1, False, None)
    assert len(played) == 3
