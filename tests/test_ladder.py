"""Strategy ladders (Bradley-Terry, Elo) and paired contrasts, on any competitive game."""

import json
import math

import numpy as np

from cakesim.api import run_experiment
from cakesim.ladder import ELO_SCALE, bradley_terry


def test_bradley_terry_recovers_known_strengths():
    truth = np.array([0.8, 0.0, -0.8])
    games = np.full((3, 3), 20_000.0)
    np.fill_diagonal(games, 0)
    wins = games / (1 + np.exp(-(truth[:, None] - truth[None, :])))
    strength, se = bradley_terry(wins, games)
    assert np.allclose(strength, truth, atol=1e-3)
    # One game's information at p = 0.5 is 1/4: the se shrinks like 1/sqrt(games).
    assert 0 < se[1] < 0.02


EXPERIMENT = """
[experiment]
name = "ladder"
game = "piece-o-cake"
seed = 4
games = 240
chunk_size = 120

[ladder]
strategies = ["greedy-balanced", "random", "eater"]

[contrasts]
player = 1
pairs = [["3P base smart", "3P base clueless"]]

[strategies.greedy-balanced]
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
round_robin = ["greedy-balanced", "random", "eater"]
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
    path.write_text(EXPERIMENT)
    result = run_experiment(path, n_jobs=1, progress=False, cache=False, out=tmp_path / "out")
    labels = [t.label for t in result.experiment.tables]
    assert labels[:3] == ["2P base greedy-balanced vs random", "2P base greedy-balanced vs eater",
                          "2P base random vs eater"]
    text = result.report.read_text()
    assert "## Strategy ladder" in text and "## Paired contrasts" in text
    summary = json.loads(result.report.parent.joinpath("summary.json").read_text())
    elo = {r["strategy"]: r for r in summary["sections"]["ladder"]["elo"]}
    assert elo["greedy-balanced"]["low"] > elo["random"]["high"]
    assert math.isclose(np.mean([r["value"] for r in elo.values()]), 1500, abs_tol=1e-6)
    assert ELO_SCALE > 173
