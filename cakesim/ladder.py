"""A strategy ladder: round-robin results, a Bradley-Terry fit and Elo ratings.

The ``[ladder]`` section of an experiment reads every two-player table whose two
strategies are both on the ladder (``round_robin`` tables, on duplicate deals so each
strategy sits in each seat). A shared first place counts half a win to each. The
Bradley-Terry model says strategy i beats j with chance ``1 / (1 + exp(b_j - b_i))``; its
maximum-likelihood strengths ``b`` (mean zero) become Elo ratings
``1500 + 400 / ln(10) * b``, so that 400 points are ten-to-one odds. Intervals are 95 %,
from the inverse of the observed information; games of one deal are treated as
independent, which duplicate deals make slightly conservative. Half a win is added to
each side of every pairing before the fit (a Jeffreys-like correction), so that a
strategy that never loses still gets a finite rating.
"""

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from cakesim.stats import wilson, z_value
from cakesim.tables import Table

ELO_SCALE = 400 / math.log(10)
ELO_MEAN = 1500.0


@dataclass(frozen=True)
class LadderQuestion:
    """Which strategies the ladder ranks."""

    strategies: tuple[str, ...]

    def at_most(self, games: int) -> "LadderQuestion":
        """The ladder plays no games of its own: unchanged."""
        return self


def parse(table: Table) -> LadderQuestion:
    """The ``[ladder]`` section: ``strategies = [...]``, at least two."""
    table.only(["strategies"])
    names = table.get("strategies", list)
    if len(set(names)) < 2 or not all(isinstance(n, str) for n in names):
        raise table.error("strategies", "name at least two different strategies")
    return LadderQuestion(tuple(dict.fromkeys(names)))


def pairwise(runs, names: tuple[str, ...], win_units: int) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, games)``: ``wins[i, j]`` is i's wins (ties halved) in games against j."""
    index = {name: k for k, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    games = np.zeros((len(names), len(names)))
    for run in runs:
        strategies = [s.name for s in run.table.strategies]
        if run.table.players != 2 or len(set(strategies)) != 2 or not set(strategies) <= set(
                index):
            continue
        t = run.totals
        a, b = (index[s] for s in strategies)
        share = t.player_sum["win_units"] / win_units
        wins[a, b] += share[0]
        wins[b, a] += share[1]
        games[a, b] += t.games
        games[b, a] += t.games
    return wins, games


def bradley_terry(wins: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood strengths (mean zero) and their standard errors."""
    n = wins.shape[0]

    def minus_log_likelihood(free):
        b = np.append(free, -free.sum())
        diff = b[:, None] - b[None, :]
        return -(wins * -np.logaddexp(0.0, -diff)).sum()

    fit = optimize.minimize(minus_log_likelihood, np.zeros(n - 1), method="BFGS")
    b = np.append(fit.x, -fit.x.sum())
    p = 1.0 / (1.0 + np.exp(-(b[:, None] - b[None, :])))
    # Observed information of the full strength vector, then the mean-zero constraint.
    info = -(games * p * (1 - p))
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    centre = np.eye(n) - 1.0 / n
    covariance = centre @ np.linalg.pinv(info) @ centre
    return b, np.sqrt(np.clip(np.diag(covariance), 0.0, None))


def analyse(experiment, runs, question: LadderQuestion, n_jobs: int = -1) -> dict:
    """The win matrix, the Bradley-Terry fit and the Elo ratings with intervals."""
    from cakesim.games import get_game

    names = question.strategies
    wins, games = pairwise(runs, names, get_game(experiment.game).win_units)
    missing = [f"{names[i]} vs {names[j]}" for i in range(len(names))
               for j in range(i + 1, len(names)) if games[i, j] == 0]
    if missing:
        raise ValueError(f"the ladder lacks games for: {', '.join(missing)}; add a "
                         "round_robin table with these strategies")
    played = games > 0
    strength, se = bradley_terry(wins + 0.5 * played, games + played)
    z = z_value()
    ratings = [{"strategy": name, "value": ELO_MEAN + ELO_SCALE * strength[k],
                "low": ELO_MEAN + ELO_SCALE * (strength[k] - z * se[k]),
                "high": ELO_MEAN + ELO_SCALE * (strength[k] + z * se[k]),
                "n": int(games[k].sum())} for k, name in enumerate(names)]
    matrix = [[None if i == j else wilson(wins[i, j] / games[i, j], int(games[i, j])).as_dict()
               for j in range(len(names))] for i in range(len(names))]
    return {"strategies": list(names), "elo": sorted(ratings, key=lambda r: -r["value"]),
            "win_matrix": matrix}


def headline(data: dict) -> str:
    """The ladder in one line."""
    return "Elo: " + ", ".join(f"{r['strategy']} {r['value']:.0f} ± "
                               f"{(r['high'] - r['low']) / 2:.0f}" for r in data["elo"]) + "."


def numbers(data: dict) -> dict[str, dict]:
    """Every Elo rating with its interval, for baselines."""
    return {f"Elo | {r['strategy']}": {k: r[k] for k in ("value", "low", "high", "n")}
            for r in data["elo"]}


def markdown(data: dict, plot: str) -> list[str]:
    """The ladder as report text: ratings, then the win matrix."""
    names = data["strategies"]
    lines = ["## Strategy ladder", "", f"**{headline(data)}**", "", f"![ladder]({plot})", "",
             "Elo ratings from a Bradley-Terry fit of every head-to-head result (shared first "
             "places split); 400 points are ten-to-one odds; 95 % intervals.", "",
             "| rank | strategy | Elo [95 % CI] | games |", "|---|---|---|---|"]
    for rank, r in enumerate(data["elo"], 1):
        lines.append(f"| {rank} | {r['strategy']} | {r['value']:.0f} [{r['low']:.0f}, "
                     f"{r['high']:.0f}] | {r['n']:,} |")
    lines += ["", "Win matrix: the row strategy's win share against the column strategy "
              "[95 % Wilson interval].", "",
              "| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for i, name in enumerate(names):
        cells = ["—" if e is None else f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, "
                 f"{100 * e['high']:.1f}]" for e in data["win_matrix"][i]]
        lines.append(f"| **{name}** | " + " | ".join(cells) + " |")
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> str:
    """Elo ratings with their 95 % intervals, best at the top."""
    import matplotlib.pyplot as plt

    from cakesim.figures import save_figure

    elo = data["elo"][::-1]
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(elo) + 1.5))
    ax.errorbar([r["value"] for r in elo], range(len(elo)), capsize=3, fmt="o",
                xerr=[[r["value"] - r["low"] for r in elo], [r["high"] - r["value"] for r in elo]])
    ax.set_yticks(range(len(elo)), [r["strategy"] for r in elo])
    ax.axvline(ELO_MEAN, color="black", linestyle=":", linewidth=1)
    ax.set_xlabel("Elo rating")
    return save_figure(fig, summary, "Elo ratings", out / "ladder.png").name
