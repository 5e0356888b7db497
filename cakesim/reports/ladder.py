"""The ``[ladder]`` section: which strategies to rank, and the win matrix and Elo ratings
in a report (the statistics are ``cakesim.stats.ladder``'s)."""

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from cakesim.engine.tables import Table
from cakesim.stats.intervals import z_value
from cakesim.stats.ladder import (
    ELO_MEAN,
    ELO_SCALE,
    REPLICATES,
    bootstrap,
    collect,
    deal_cell,
    fit_strengths,
    goodness_of_fit,
    played,
)


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


def analyse(experiment, runs, question: LadderQuestion, n_jobs: int = -1) -> dict:
    """The win matrix with deal-clustered intervals; Elo ratings, their fit and bootstrap."""
    results, merged = collect(runs, question.strategies, experiment.game)
    names, k = results.names, len(results.names)
    matrix = [[None] * k for _ in range(k)]
    for (i, j), wins, games in zip(results.pairs, results.wins, results.games, strict=True):
        dealt = games > 0
        matrix[i][j] = deal_cell(wins[0, dealt], games[dealt])
        matrix[j][i] = deal_cell(wins[1, dealt], games[dealt])
    wins = results.matrix()
    strength = fit_strengths(wins, played(wins))
    replicates = bootstrap(results, experiment.seed)
    spread = z_value() * ELO_SCALE * replicates.std(axis=0, ddof=1)
    per_pairing = results.games.sum(axis=1)
    games = np.bincount(results.pairs.ravel(), np.repeat(per_pairing, 2), k)
    elo = ELO_MEAN + ELO_SCALE * strength
    deals = int((results.games > 0).sum(axis=1).max())
    # n counts the independent units, as everywhere: the deals the bootstrap resamples.
    ratings = [{"strategy": name, "value": float(elo[n]), "low": float(elo[n] - spread[n]),
                "high": float(elo[n] + spread[n]), "n": deals, "games": int(games[n])}
               for n, name in enumerate(names)]
    fit = goodness_of_fit(wins, strength)
    predicted = expit(strength[:, None] - strength[None, :])
    return {"strategies": names,
            "merged": [{"strategy": name, "plays_as": first, "players": 2}
                       for name, first in merged.items()],
            "tables": results.tables, "skipped_tables": results.skipped,
            "deals": deals,
            "win_matrix": matrix,
            "predicted": [[None if i == j else float(predicted[i, j]) for j in range(k)]
                          for i in range(k)],
            "fit": fit | {"row": names[fit["row"]], "column": names[fit["column"]]},
            "bootstrap": {"replicates": REPLICATES, "seed": experiment.seed},
            "elo": sorted(ratings, key=lambda r: -r["value"])}


def _percent(e: dict) -> str:
    return f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def _ratings(data: dict) -> str:
    return ", ".join(f"{r['strategy']} {r['value']:.0f} ± {(r['high'] - r['low']) / 2:.0f}"
                     for r in data["elo"])


def headline(data: dict) -> str:
    """The ladder in one line: a strategy that beats every other, or the ratings."""
    names, matrix = data["strategies"], data["win_matrix"]
    best = [i for i, row in enumerate(matrix)
            if all(e is None or e["low"] > 0.5 for e in row)]
    fits = data["fit"]["fits"]
    note = "" if fits else " (the Bradley-Terry model does not fit: read the win matrix)"
    if not best:
        return f"No strategy beats every other head to head; Elo: {_ratings(data)}{note}."
    i = best[0]
    margins = ", ".join(f"{100 * e['value']:.1f} % against {names[j]}"
                        for j, e in enumerate(matrix[i]) if e is not None)
    ratings = f"; Elo: {_ratings(data)}" if fits else note
    return f"{names[i]} beats every other strategy head to head: {margins}{ratings}."


def numbers(data: dict) -> dict[str, dict]:
    """Every win-matrix cell above the diagonal and every Elo rating, for baselines."""
    names, keys = data["strategies"], ("value", "low", "high", "n")
    found = {f"{names[i]} vs {names[j]} | win share": {k: row[j][k] for k in keys}
             for i, row in enumerate(data["win_matrix"]) for j in range(i + 1, len(names))}
    return found | {f"Elo | {r['strategy']}": {k: r[k] for k in keys} for r in data["elo"]}


def fit_line(data: dict) -> str:
    """The goodness of fit in words: deviance, df, p-value, largest gap, verdict."""
    fit = data["fit"]
    if fit["p_value"] is None:
        return ("**Fit:** two strategies: the model reproduces their one pairing exactly; "
                "nothing to test.")
    names = data["strategies"]
    cell = data["win_matrix"][names.index(fit["row"])][names.index(fit["column"])]
    verdict = ("The model fits: the ratings summarise the matrix." if fit["fits"] else
               "The model does not fit: the ratings summarise; read the matrix.")
    return (f"**Fit:** deviance {fit['deviance']:.1f} on {fit['df']} degrees of freedom "
            f"(p = {fit['p_value']:.2g}); largest gap {fit['row']} vs {fit['column']}: "
            f"{_percent(cell)} observed, {100 * fit['predicted']:.1f} % predicted. {verdict}")


def markdown(data: dict, plot: str) -> list[str]:
    """The ladder as report text: the win matrix first, then the Elo ratings and their fit."""
    names = data["strategies"]
    lines = ["## Strategy ladder", "", f"**{headline(data)}**", "", f"![ladder]({plot})", ""]
    for m in data["merged"]:
        lines += [f"{m['strategy']} plays as {m['plays_as']} at {m['players']} players: "
                  "merged.", ""]
    if data["skipped_tables"]:
        lines += ["Tables left out: " + "; ".join(f"{s['table']} ({s['reason']})"
                                                for s in data["skipped_tables"]) + ".", ""]
    lines += ["### Head to head", "",
              "The row strategy's share of the games against the column strategy (a shared "
              "first place split). 95 % intervals by deal: the games of one deal share its "
              f"chance draws, so each of the {data['deals']:,} deals counts once (Wilson's "
              "interval at the effective sample size of the per-deal win shares).", "",
              "| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for i, name in enumerate(names):
        cells = ["—" if e is None else _percent(e) for e in data["win_matrix"][i]]
        lines.append(f"| **{name}** | " + " | ".join(cells) + " |")
    boot = data["bootstrap"]
    lines += ["", "### Elo ratings", "",
              "A Bradley-Terry fit of the matrix: 400 points are ten-to-one odds. 95 % "
              f"intervals from {boot['replicates']} bootstrap resamples of whole deals, each "
              f"drawn once for all tables (seed {boot['seed']}). The deviance treats games as "
              "independent and is approximate.", "", fit_line(data), "",
              "| rank | strategy | Elo [95 % CI] | games |", "|---|---|---|---|"]
    for rank, r in enumerate(data["elo"], 1):
        lines.append(f"| {rank} | {r['strategy']} | {r['value']:.0f} [{r['low']:.0f}, "
                     f"{r['high']:.0f}] | {r['games']:,} |")
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> str:
    """The win matrix as a heat map beside the Elo ratings with their intervals."""
    from cakesim.reports.figures import new_figure, save_figure

    names, k = data["strategies"], len(data["strategies"])
    share = np.array([[np.nan if e is None else e["value"] for e in row]
                      for row in data["win_matrix"]])
    fig, (left, right) = new_figure(1, 2, figsize=(5 + 1.1 * k, 0.7 * k + 2.5),
                                      width_ratios=[k, 3])
    image = left.imshow(100 * share, cmap="RdBu", vmin=0, vmax=100)
    for (i, j), e in np.ndenumerate(np.array(data["win_matrix"], dtype=object)):
        if e is not None:
            left.text(j, i, f"{100 * e['value']:.1f}\n±{50 * (e['high'] - e['low']):.1f}",
                      ha="center", va="center", fontsize=8,
                      color="white" if abs(e["value"] - 0.5) > 0.3 else "black")
    left.set_xticks(range(k), names, rotation=30, ha="right")
    left.set_yticks(range(k), names)
    left.set_xlabel("against")
    fig.colorbar(image, ax=left, label="row's win share (%)", shrink=0.8)
    elo = data["elo"][::-1]
    right.errorbar([r["value"] for r in elo], range(len(elo)), capsize=3, fmt="o",
                   xerr=[[r["value"] - r["low"] for r in elo],
                         [r["high"] - r["value"] for r in elo]])
    right.set_yticks(range(len(elo)), [r["strategy"] for r in elo])
    right.axvline(ELO_MEAN, color="black", linestyle=":", linewidth=1)
    right.set_xlabel("Elo rating" + ("" if data["fit"]["fits"] else " (model does not fit)"))
    return save_figure(fig, summary, "head-to-head win shares and Elo ratings",
                       out / "ladder.png").name
