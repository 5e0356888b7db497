"""The ``[ladder]`` section: which strategies to rank, and at which player counts; the win
matrix and Elo ratings of each count in a report (the statistics are
``cakesim.stats.ladder``'s).

A ladder is ranked at every player count P at which each of its strategies sits at a
ladder table (one ladder strategy against a field of another: ``round_robin`` at two
players, ``against_field`` at any count), or at the counts ``players`` names. Each count is
a ladder of its own, with its own merged strategies, matrix, ratings and fit: a strategy's
strength at two players says little about it at five.

The section's data are the ladders by count (``by_players``, keyed by the count as a
string); its top-level keys repeat the smallest count's ladder, so a ladder at one count
reads as it always has.
"""

import itertools
from dataclasses import dataclass

import numpy as np

from cakesim.engine.tables import Table
from cakesim.reports.answer import Answer
from cakesim.stats.intervals import z_value
from cakesim.stats.ladder import (
    ELO_MEAN,
    ELO_SCALE,
    REPLICATES,
    bootstrap,
    cell_name,
    collect,
    deal_cell,
    fit,
    goodness_of_fit,
    player_counts,
    win_chance,
)


@dataclass(frozen=True)
class LadderQuestion:
    """Which strategies the ladder ranks, and at which player counts."""

    strategies: tuple[str, ...]
    players: tuple[int, ...] = ()
    """The player counts to rank at; empty: every count with a ladder table for each."""

    def at_most(self, games: int) -> "LadderQuestion":
        """The ladder plays no games of its own: unchanged."""
        return self


def parse(table: Table) -> LadderQuestion:
    """The ``[ladder]`` section: ``strategies = [...]``, at least two; ``players``, a count
    or a list of counts (optional)."""
    table.only(["strategies", "players"])
    names = table.get("strategies", list)
    if len(set(names)) < 2 or not all(isinstance(n, str) for n in names):
        raise table.error("strategies", "name at least two different strategies")
    counts = []
    if "players" in table.data:
        counts = (table.int_list("players", 2, 100) if isinstance(table.data["players"], list)
                  else [table.int_in("players", 2, 100)])
        if len(set(counts)) < len(counts):
            raise table.error("players", "names a player count twice")
    return LadderQuestion(tuple(dict.fromkeys(names)), tuple(sorted(counts)))


def analyse(experiment, runs, question: LadderQuestion, n_jobs: int = -1) -> dict:
    """Each player count's win matrix with deal-clustered intervals, and its Elo ratings
    with their fit and bootstrap (``by_players``; the smallest count also at top level)."""
    names = question.strategies
    # The skill rows seat built-in strategies under their own names: not the ladder's.
    runs = [run for run in runs if run.table.label not in experiment.section_tables]
    present = player_counts(runs, names)
    counts = list(question.players) or [p for p, found in present.items()
                                        if len(found) == len(names)]
    if not counts:
        # No count is complete: the fullest one says which tables are missing.
        counts = [max(present, key=lambda p: (len(present[p]), -p))] if present else [2]
    ladders = {str(p): _ladder(experiment, runs, names, p) for p in counts}
    unranked = [] if question.players else [
        {"players": p, "strategies": found} for p, found in present.items() if p not in counts]
    return {**ladders[str(counts[0])], "by_players": ladders, "unranked": unranked}


def _ladder(experiment, runs, names: tuple[str, ...], players: int) -> dict:
    """One player count's ladder."""
    results, merged = collect(runs, names, experiment.game, players)
    names, k = results.names, len(results.names)
    matrix = [[None] * k for _ in range(k)]
    for (i, j), wins, games in zip(results.pairs, results.wins, results.games, strict=True):
        dealt = games > 0
        matrix[i][j] = deal_cell(wins[0, dealt], games[dealt])
        if players == 2:
            matrix[j][i] = deal_cell(wins[1, dealt], games[dealt])
    strength = fit(results)
    replicates = bootstrap(results, experiment.seed)
    spread = z_value() * ELO_SCALE * replicates.std(axis=0, ddof=1)
    per_table = results.games.sum(axis=1)
    games = np.bincount(results.pairs.ravel(), np.repeat(per_table, 2), k)
    elo = ELO_MEAN + ELO_SCALE * strength
    deals = int((results.games > 0).sum(axis=1).max())
    # n counts the independent units, as everywhere: the deals the bootstrap resamples.
    ratings = [{"strategy": name, "value": float(elo[n]), "low": float(elo[n] - spread[n]),
                "high": float(elo[n] + spread[n]), "n": deals, "games": int(games[n])}
               for n, name in enumerate(names)]
    found = goodness_of_fit(results.matrix(), strength, results.field(), players)
    predicted = win_chance(strength, players)
    read = set(results.tables)
    return {"players": players,
            "strategies": names,
            "merged": [{"strategy": name, "plays_as": first, "players": players}
                       for name, first in merged.items()],
            "tables": results.tables, "skipped_tables": results.skipped,
            "single_deal_tables": [run.table.label for run in runs
                                   if run.table.label in read and not run.table.duplicate],
            "deals": deals,
            "win_matrix": matrix,
            "predicted": [[None if i == j else float(predicted[i, j]) for j in range(k)]
                          for i in range(k)],
            "fit": found | {"row": names[found["row"]], "column": names[found["column"]]},
            "bootstrap": {"replicates": REPLICATES, "seed": experiment.seed},
            "elo": sorted(ratings, key=lambda r: -r["value"])}


def ladders(data: dict) -> list[dict]:
    """The section's ladder of each player count, smallest first."""
    return list(data.get("by_players", {}).values()) or [data]


def _players(ladder: dict) -> int:
    return ladder.get("players", 2)


def _percent(e: dict) -> str:
    return f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def _ratings(data: dict) -> str:
    return ", ".join(f"{r['strategy']} {r['value']:.0f} ± {(r['high'] - r['low']) / 2:.0f}"
                     for r in data["elo"])


def _counts(found: list[dict]) -> str:
    """``2``, ``2 and 3``, ``2, 3 and 4``."""
    counts = [str(_players(ladder)) for ladder in found]
    return " and ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)


def _best(ladder: dict) -> int | None:
    """The strategy whose every cell beats the fair share, if one does."""
    fair = 1 / _players(ladder)
    return next((i for i, row in enumerate(ladder["win_matrix"])
                 if all(e is None or e["low"] > fair for e in row)), None)


def _beats_all(players: int) -> str:
    return "every other head to head" if players == 2 else "the field of every other"


def _headline(data: dict) -> str:
    """One ladder in one line: a strategy that beats every other, or the ratings."""
    names, matrix, players = data["strategies"], data["win_matrix"], _players(data)
    fits = data["fit"]["fits"]
    note = "" if fits else " (the Bradley-Terry model does not fit: read the win matrix)"
    i = _best(data)
    if players == 2:
        if i is None:
            return f"No strategy beats every other head to head; Elo: {_ratings(data)}{note}."
        margins = ", ".join(f"{100 * e['value']:.1f} % against {names[j]}"
                            for j, e in enumerate(matrix[i]) if e is not None)
        ratings = f"; Elo: {_ratings(data)}" if fits else note
        return f"{names[i]} beats every other strategy head to head: {margins}{ratings}."
    fair = f"fair share {100 / players:.1f} %"
    if i is None:
        return (f"At {players} players no strategy beats the field of every other ({fair}); "
                f"Elo: {_ratings(data)}{note}.")
    margins = ", ".join(f"{100 * e['value']:.1f} % against the field of {names[j]}"
                        for j, e in enumerate(matrix[i]) if e is not None)
    ratings = f"; Elo: {_ratings(data)}" if fits else note
    return (f"At {players} players {names[i]} beats the field of every other strategy "
            f"({fair}): {margins}{ratings}.")


def _top(data: dict) -> str:
    """One ladder's top strategy in a clause."""
    players, i = _players(data), _best(data)
    top = data["elo"][0]
    rating = (f"Elo {top['value']:.0f} ± {(top['high'] - top['low']) / 2:.0f}"
              + ("" if data["fit"]["fits"] else "; the model does not fit"))
    if i is not None:
        return f"{data['strategies'][i]} beats {_beats_all(players)} ({rating})"
    return (f"no strategy beats {_beats_all(players)}, {top['strategy']} rates highest "
            f"({rating})")


def headline(data: dict) -> str:
    """The ladder in one line; at several player counts, each count's top strategy."""
    found = ladders(data)
    if len(found) == 1:
        return _headline(found[0])
    return ("Strategy ladder: " + "; ".join(f"at {_players(ladder)} players {_top(ladder)}"
                                            for ladder in found) + ".")


def answer(data: dict, summary: dict) -> Answer:
    """Per player count: the order of strength, and how much skill is worth: the strongest
    strategy's share against the next and against the weakest."""
    sentences, rows, tops = [], [], []
    for ladder in ladders(data):
        names, matrix, players = ladder["strategies"], ladder["win_matrix"], _players(ladder)
        order = [r["strategy"] for r in ladder["elo"]]
        top, nxt, last = (names.index(order[k]) for k in (0, 1, -1))
        against = ("head to head" if players == 2
                   else f"alone against a field of it (fair {100 / players:.1f} %)")
        tops.append(f"{order[0]} at {players}P ({100 * matrix[top][nxt]['value']:.1f} % "
                    f"against {order[1]}, fair {100 / players:.0f} %)")
        sentences.append(
            f"At {players}P the order is {' > '.join(order)}; {order[0]} wins "
            f"{100 * matrix[top][nxt]['value']:.1f} % against {order[1]} and "
            f"{100 * matrix[top][last]['value']:.1f} % against {order[-1]} {against}.")
        rows += [[f"{players}P", str(rank), r["strategy"],
                  f"{r['value']:.0f} [{r['low']:.0f}, {r['high']:.0f}]",
                  "—" if rank == 1 else _percent(matrix[top][names.index(r["strategy"])])]
                 for rank, r in enumerate(ladder["elo"], start=1)]
    fits = all(ladder["fit"]["fits"] for ladder in ladders(data))
    sentences.append("Elo ratings summarise the win matrices" + (
        "." if fits else " only roughly: the Bradley-Terry model does not fit everywhere, "
                         "so read the matrices below."))
    return Answer(" ".join(sentences), "Strongest: " + "; ".join(tops) + ".",
                  ["players", "rank", "strategy", "Elo [95 % CI]",
                   "strongest's share against it"], rows)


def numbers(data: dict) -> dict[str, dict]:
    """Every win-matrix cell (above the diagonal at two players) and every Elo rating of
    each player count, for baselines; names at P > 2 players start ``"<P>P "``."""
    keys, found = ("value", "low", "high", "n"), {}
    for ladder in ladders(data):
        names, players = ladder["strategies"], _players(ladder)
        prefix = "" if players == 2 else f"{players}P "
        cells = (itertools.combinations(range(len(names)), 2) if players == 2
                 else itertools.permutations(range(len(names)), 2))
        found |= {f"{prefix}{cell_name(names[i], names[j], players)} | win share":
                  {k: ladder["win_matrix"][i][j][k] for k in keys} for i, j in cells}
        found |= {f"{prefix}Elo | {r['strategy']}": {k: r[k] for k in keys}
                  for r in ladder["elo"]}
    return found


def fit_line(data: dict) -> str:
    """One ladder's goodness of fit in words: deviance, df, p-value, largest gap, verdict."""
    fit_ = data["fit"]
    players = _players(data)
    if fit_["p_value"] is None:
        return ("**Fit:** two strategies: the model reproduces their one pairing exactly; "
                "nothing to test." if players == 2 else
                "**Fit:** as many strengths as tables: the model reproduces them exactly; "
                "nothing to test.")
    names = data["strategies"]
    cell = data["win_matrix"][names.index(fit_["row"])][names.index(fit_["column"])]
    verdict = ("The model fits: the ratings summarise the matrix." if fit_["fits"] else
               "The model does not fit: the ratings summarise; read the matrix.")
    return (f"**Fit:** deviance {fit_['deviance']:.1f} on {fit_['df']} degrees of freedom "
            f"(p = {fit_['p_value']:.2g}); largest gap "
            f"{cell_name(fit_['row'], fit_['column'], players)}: {_percent(cell)} observed, "
            f"{100 * fit_['predicted']:.1f} % predicted. {verdict}")


def markdown(data: dict, plot: str) -> list[str]:
    """The ladder as report text: for each player count the win matrix first, then the
    Elo ratings and their fit."""
    found = ladders(data)
    lines = ["## Strategy ladder", "", f"**{headline(data)}**", "", f"![ladder]({plot})", ""]
    for m in (m for ladder in found for m in ladder["merged"]):
        lines += [f"{m['strategy']} plays as {m['plays_as']} at {m['players']} players: "
                  "merged.", ""]
    skipped = [s for ladder in found for s in ladder["skipped_tables"]]
    if skipped:
        lines += ["Tables left out: " + "; ".join(f"{s['table']} ({s['reason']})"
                                                for s in skipped) + ".", ""]
    single = [label for ladder in found for label in ladder.get("single_deal_tables", [])]
    if single:
        lines += ["Not on duplicate deals (the lone strategy keeps its seats, so the seats' "
                  "advantages are part of its win share): " + ", ".join(single) + ".", ""]
    for u in data.get("unranked", []):
        few = u["strategies"]
        lines += [f"At {u['players']} players only "
                  f"{' and '.join([', '.join(few[:-1]), few[-1]] if len(few) > 1 else few)} sit "
                  "at ladder tables (one strategy against a field of another): no ladder "
                  "there; name the count in `players` to ask for one.", ""]
    one = [_players(ladder) for ladder in found] == [2]
    for ladder in found:
        lines += _count_markdown(ladder, "" if one else f" at {_players(ladder)} players")
    return lines


def _count_markdown(data: dict, where: str) -> list[str]:
    """One player count's matrix, ratings and fit."""
    names, players = data["strategies"], _players(data)
    if players == 2:
        lines = [f"### Head to head{where}", "",
                 "The row strategy's share of the games against the column strategy (a shared "
                 "first place split). 95 % intervals by deal: the games of one deal share its "
                 f"chance draws, so each of the {data['deals']:,} deals counts once (Wilson's "
                 "interval at the effective sample size of the per-deal win shares).", "",
                 "| | " + " | ".join(names) + " |"]
    else:
        lines = [f"### One against a field{where}", "",
                 "The row strategy's share of the games it plays alone against "
                 f"{players - 1} copies of the column strategy (a shared first place split), "
                 f"against a fair share of {100 / players:.1f} % (1/{players}): above it the "
                 "row strategy does better in that place than one more copy of the column "
                 f"strategy would. 95 % intervals by deal: the {players} games of a deal (the "
                 "lone strategy once in every seat) share its chance draws, so each of the "
                 f"{data['deals']:,} deals counts once (Wilson's interval at the effective "
                 "sample size of the per-deal win shares).", "",
                 "| alone ↓ / field of → | " + " | ".join(names) + " |"]
    lines.append("|---|" + "---|" * len(names))
    for i, name in enumerate(names):
        cells = ["—" if e is None else _percent(e) for e in data["win_matrix"][i]]
        lines.append(f"| **{name}** | " + " | ".join(cells) + " |")
    boot = data["bootstrap"]
    if players == 2:
        model = "A Bradley-Terry fit of the matrix: 400 points are ten-to-one odds."
    else:
        apart = 10 / (10 + players - 1)
        model = (f"A Bradley-Terry fit of the matrix in Luce's form: alone against "
                 f"{players - 1} copies of j, i wins with chance exp(b_i) / (exp(b_i) + "
                 f"{players - 1} exp(b_j)). 400 points are ten-to-one odds in a game of two: "
                 f"alone against the field of a strategy 400 points weaker, a strategy wins "
                 f"{100 * apart:.1f} %; equal ratings give the fair share.")
    lines += ["", f"### Elo ratings{where}", "",
              f"{model} 95 % intervals from {boot['replicates']} bootstrap resamples of whole "
              f"deals, each drawn once for all tables (seed {boot['seed']}). The deviance "
              "treats games as independent and is approximate.", "", fit_line(data), "",
              "| rank | strategy | Elo [95 % CI] | games |", "|---|---|---|---|"]
    for rank, r in enumerate(data["elo"], 1):
        lines.append(f"| {rank} | {r['strategy']} | {r['value']:.0f} [{r['low']:.0f}, "
                     f"{r['high']:.0f}] | {r['games']:,} |")
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> str:
    """Each player count's win matrix as a heat map (coloured about the fair share) beside
    its Elo ratings with their intervals: one row of panels per count."""
    from matplotlib.colors import TwoSlopeNorm

    from cakesim.reports.figures import new_figure, save_figure

    found = ladders(data)
    one = [_players(ladder) for ladder in found] == [2]
    what = ("head-to-head win shares and Elo ratings" if one else
            f"win shares and Elo ratings at {_counts(found)} players")
    k = max(len(ladder["strategies"]) for ladder in found)
    # Wide enough for the figure's title (save_figure's) in one line: about 0.08 in a letter.
    title = (f"{summary['title'] or summary['experiment']}: {what}, 95 % intervals (seed "
             f"{summary['seed']})")
    width = 5 + 1.1 * k
    wider = max(0.0, 0.08 * len(title) + 0.5 - width)
    # The Elo panels take any extra width: the heat maps keep their size.
    fig, axes = new_figure(len(found), 2, figsize=(width + wider, len(found) * (0.7 * k + 2.5)),
                           width_ratios=[k, 3 + (k + 3) * wider / width], squeeze=False)
    for (left, right), ladder in zip(axes, found, strict=True):
        names, players = ladder["strategies"], _players(ladder)
        share = np.array([[np.nan if e is None else e["value"] for e in row]
                          for row in ladder["win_matrix"]])
        norm = TwoSlopeNorm(100 / players, 0, 100)
        image = left.imshow(100 * share, cmap="RdBu", norm=norm)
        for (i, j), e in np.ndenumerate(np.array(ladder["win_matrix"], dtype=object)):
            if e is not None:
                left.text(j, i, f"{100 * e['value']:.1f}\n±{50 * (e['high'] - e['low']):.1f}",
                          ha="center", va="center", fontsize=8,
                          color="white" if abs(norm(100 * e["value"]) - 0.5) > 0.3
                          else "black")
        left.set_xticks(range(len(names)), names, rotation=30, ha="right")
        left.set_yticks(range(len(names)), names)
        left.set_xlabel("against" if players == 2 else f"against a field of {players - 1}")
        if players > 2:
            left.set_ylabel("alone")
        bar = fig.colorbar(image, ax=left, shrink=0.8, label="row's win share (%)" + (
            "" if players == 2 else f", fair {100 / players:.0f} %"))
        if players > 2:
            bar.set_ticks(sorted({0, round(100 / players), 50, 75, 100}))
        elo = ladder["elo"][::-1]
        right.errorbar([r["value"] for r in elo], range(len(elo)), capsize=3, fmt="o",
                       xerr=[[r["value"] - r["low"] for r in elo],
                             [r["high"] - r["value"] for r in elo]])
        right.set_yticks(range(len(elo)), [r["strategy"] for r in elo])
        right.axvline(ELO_MEAN, color="black", linestyle=":", linewidth=1)
        right.set_xlabel("Elo rating" + ("" if one else f" at {players} players")
                         + ("" if ladder["fit"]["fits"] else " (model does not fit)"))
        if not one:
            left.set_title(f"{players} players: win shares", fontsize=9)
    return save_figure(fig, summary, what, out / "ladder.png").name
