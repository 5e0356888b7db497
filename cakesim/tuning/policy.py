"""Fitting a fast chooser to a slow one: the supervised half of expert iteration.

A game that can be trained (``Trainable``) plays games of its teacher (a strategy that
looks ahead) and records, at each decision, every candidate move's inputs and the
teacher's value of it (``Examples``). A network of one hidden layer of rectified units
(scikit-learn's ``MLPRegressor``, Adam, early stopping on a held-out tenth) is fitted to
predict each value less the mean value of its decision: only the order of a decision's
candidates matters to a chooser. The inputs' standardisation is folded into the first
layer, so that the game's kernel evaluates the network on raw inputs.

The fit is judged on the last fifth of the decisions, never seen in training: the
variance of the values it explains (R^2), and the *regret* of choosing by it, the
teacher's value of its best candidate less that of the candidate the network ranks
first, averaged over decisions, beside the same for the game's first candidate (its
heuristic move).

Later rounds are DAgger's (Ross, Gordon & Bagnell 2011): the fitted network plays (the
game's learner tables, ``Trainable.training_examples``), the teacher values every
candidate of its choices, and the network is fitted again to every round's examples, so
that it learns the positions its own moves lead to, which the teacher never reaches.

The games are collected in jobs, and every finished job's examples are filed in the cache
folder under a digest of everything that decides them (the code, the game, the players,
the teacher, the learner's weights, the seed and the job's games): a run interrupted and
started again plays only the jobs it had not finished, and ends with the same examples,
bit for bit.
"""

import hashlib
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sklearn
from joblib import Parallel, delayed
from sklearn.metrics import r2_score
from sklearn.neural_network import MLPRegressor
from sklearn.preprocessing import StandardScaler
from tqdm import tqdm

from cakesim.engine.cache import write_atomically
from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import digest, game_code_version, source_version
from cakesim.kits.policy import Examples, Trainable
from cakesim.tuning.search import derived_seed

GAMES_PER_JOB = 50
"""Games per job of the example collection: one job is a few seconds of two-ply search."""

TEST_SHARE = 0.2
"""The share of decisions (the last ones) held out to judge the fit."""


@dataclass(frozen=True)
class Fit:
    """A fitted network, flat as the kernel reads it, and its held-out quality."""

    weights: np.ndarray
    quality: dict[str, float]


def trainable(game) -> Trainable:
    """``game`` as a ``Trainable`` game; exit 2 if it has no fitted chooser."""
    if not isinstance(game, Trainable):
        raise InputError("train", game.name, "this game has no fitted chooser to train")
    return game


def collect(game: Trainable, players: int, seed: int, games: int, n_jobs: int,
            progress: bool, cache: Path | None = None,
            learner: np.ndarray | None = None) -> Examples:
    """The examples of ``games`` games of ``seed`` (the teacher's, or ``learner``'s), in
    jobs of ``GAMES_PER_JOB`` spread over ``n_jobs`` threads (the kernels release the
    GIL); the split changes nothing. With a ``cache`` folder, finished jobs are read back
    and every new one is filed there."""
    spans = [(first, min(GAMES_PER_JOB, games - first))
             for first in range(0, games, GAMES_PER_JOB)]
    files = [None if cache is None
             else examples_path(cache, game, players, seed, *span, learner)
             for span in spans]
    parts = [None if f is None else read_examples(f) for f in files]
    who = game.teacher if learner is None else f"learner ({game.teacher}-valued)"
    bar = tqdm(total=games, desc=f"{players}P {who} games", unit="game",
               file=sys.stderr, disable=not progress,
               initial=sum(size for (_, size), part in zip(spans, parts, strict=True)
                           if part is not None))
    todo = [j for j, part in enumerate(parts) if part is None]
    with Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator") as parallel:
        for j, part in zip(todo, parallel(
                delayed(game.training_examples)(players, seed, *spans[j], learner)
                for j in todo),
                strict=True):
            if files[j] is not None:
                write_examples(files[j], part)
            parts[j] = part
            bar.update(spans[j][1])
    bar.close()
    return Examples.joined(parts)


def examples_path(root: Path, game: Trainable, players: int, seed: int, first: int,
                  size: int, learner: np.ndarray | None = None) -> Path:
    """Where a job's examples are filed: a digest of everything that decides them (the
    recorder is imported only when examples are collected, so every source counts)."""
    learnt = None if learner is None else hashlib.sha256(learner.tobytes()).hexdigest()
    key = digest({"code": game_code_version(game), "source": source_version(),
                  "game": game.name, "players": players, "teacher": game.teacher,
                  "learner": learnt, "seed": seed, "first": first, "size": size})
    return root / "examples" / key[:2] / f"{key}.npz"


def read_examples(path: Path) -> Examples | None:
    """The filed examples, or ``None`` if the job never finished (or its file is damaged)."""
    try:
        with np.load(path) as stored:
            return Examples(stored["inputs"], stored["values"], stored["decisions"])
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        return None


def write_examples(path: Path, examples: Examples) -> None:
    """File a finished job's examples."""
    write_atomically(path, lambda file: np.savez(
        file, inputs=examples.inputs, values=examples.values, decisions=examples.decisions))


def train(game: Trainable, players: int, games: int, seed: int, n_jobs: int, progress: bool,
          command: str, cache: Path | None = None, rounds: int = 1) -> tuple[Fit, dict]:
    """``rounds`` rounds of ``games`` games each (finished jobs kept in ``cache``): the
    teacher's, then the last fitted network's, the network fitted to every round's
    examples after each; ``(fit, provenance)``: what a policy file records of how it was
    made (``command`` re-makes it)."""
    shape = game.policy_shape(players)
    examples = collect(game, players, seed, games, n_jobs, progress, cache)
    fit = fit_policy(examples, shape["hidden"], seed)
    by_round = [fit.quality]
    for r in range(1, rounds):
        # New deals each round: a pure function of the seed and the round.
        examples = Examples.joined([examples, collect(
            game, players, derived_seed(seed, r), games, n_jobs, progress, cache,
            fit.weights)])
        fit = fit_policy(examples, shape["hidden"], seed)
        by_round.append(fit.quality)
    data = hashlib.sha256()
    for array in (examples.inputs, examples.values, examples.decisions):
        data.update(np.ascontiguousarray(array).tobytes())
    provenance = {"command": command, "teacher": game.teacher, "games": games, "seed": seed,
                  "rounds": rounds,
                  "decisions": int(examples.decisions.max()) + 1,
                  "examples": len(examples.values), "examples_sha256": data.hexdigest(),
                  "source_version": source_version(),
                  "scikit_learn": sklearn.__version__,
                  "test_share": TEST_SHARE, **fit.quality}
    if rounds > 1:
        # Each round's fit judged on its own held-out decisions (the last fifth of every
        # round's examples so far: the latest round's, mostly).
        provenance["by_round"] = {"network_regret": [q["network_regret"] for q in by_round],
                                  "heuristic_regret": [q["heuristic_regret"]
                                                       for q in by_round]}
    return fit, provenance


def centred(values: np.ndarray, decisions: np.ndarray) -> np.ndarray:
    """Each value less the mean value of its decision."""
    counts = np.bincount(decisions)
    means = np.bincount(decisions, weights=values) / np.maximum(counts, 1)
    return values - means[decisions]


def fit_policy(examples: Examples, hidden: int, seed: int) -> Fit:
    """Fit a network of ``hidden`` units to ``examples`` (seeded by ``seed``)."""
    decisions = examples.decisions
    test = decisions >= round((1 - TEST_SHARE) * (decisions.max() + 1))
    train = ~test
    target = centred(examples.values, decisions)
    scaler = StandardScaler().fit(examples.inputs[train])
    model = MLPRegressor(hidden_layer_sizes=(hidden,), early_stopping=True,
                         random_state=seed, max_iter=200)
    model.fit(scaler.transform(examples.inputs[train]), target[train])
    weights = folded(model, scaler)
    scores = network_scores(weights, examples.inputs, hidden)
    heuristic = np.zeros(len(decisions))
    heuristic[_starts(decisions)] = 1.0
    quality = {"r2_test": float(r2_score(target[test], scores[test])),
               **_choice_quality("network", scores[test], examples.values[test],
                                 decisions[test]),
               **_choice_quality("heuristic", heuristic[test], examples.values[test],
                                 decisions[test])}
    return Fit(weights, quality)


def folded(model: MLPRegressor, scaler: StandardScaler) -> np.ndarray:
    """The network as one flat vector on raw inputs: ``W`` (inputs x hidden, an input's
    row together), its bias, the output weights, the output bias."""
    first, out = model.coefs_
    first_bias, out_bias = model.intercepts_
    w = first / scaler.scale_[:, None]
    b = first_bias - (scaler.mean_ / scaler.scale_) @ first
    return np.concatenate([w.ravel(), b, out[:, 0], out_bias])


def network_scores(weights: np.ndarray, inputs: np.ndarray, hidden: int) -> np.ndarray:
    """The flat network's value of every row of ``inputs``."""
    n_inputs = inputs.shape[1]
    w = weights[:n_inputs * hidden].reshape(n_inputs, hidden)
    b = weights[n_inputs * hidden:n_inputs * hidden + hidden]
    out = weights[n_inputs * hidden + hidden:n_inputs * hidden + 2 * hidden]
    return np.maximum(inputs.astype(np.float64) @ w + b, 0.0) @ out + weights[-1]


def _starts(decisions: np.ndarray) -> np.ndarray:
    """The first row of each decision."""
    return np.flatnonzero(np.r_[True, decisions[1:] != decisions[:-1]])


def _choice_quality(name: str, scores: np.ndarray, values: np.ndarray,
                    decisions: np.ndarray) -> dict[str, float]:
    """Mean regret of choosing by ``scores`` (first of equals), and how often the pick is
    a best candidate."""
    starts = _starts(decisions)
    ends = np.r_[starts[1:], len(decisions)]
    regret = [values[a:b].max() - values[a + np.argmax(scores[a:b])]
              for a, b in zip(starts, ends, strict=True)]
    return {f"{name}_regret": float(np.mean(regret)),
            f"{name}_best_share": float(np.mean(np.asarray(regret) <= 0.0))}
