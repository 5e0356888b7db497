"""The ``[ladder]`` section: which strategies to rank, and at which player counts; the win
matrix of each count in a report, and ratings where one rating per strategy explains it
(the statistics are ``cakesim.stats.ladder``'s).

A ladder is ranked at every player count P at which each of its strategies sits at a
ladder table (one ladder strategy against a field of another: ``round_robin`` at two
players, ``against_field`` at any count), or at the counts ``players`` names. Each count is
a ladder of its own, with its own merged strategies, matrix, fit and ratings: a strategy's
strength at two players says little about it at five.

The matrix comes first, in the answer and in each count's section: it is the result. The
Bradley-Terry model with seat terms is fitted at every count and its fit tested; where
the test rejects it, the report says in one sentence that no single rating explains the
results there, names the cell it misses most, and shows no rating (no Elo, no seat
terms, no order of strength). Where it fits, the ratings and the seats' worth follow the
matrix.

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
    bradley_terry,
    cell_name,
    collect,
    deal_cell,
    player_counts,
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


def analyse(experiment, runs, question: LadderQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """Each player count's win matrix with deal-clustered intervals, the fit of one rating
    per strategy (with seat terms), and the ratings where it fits (``by_players``; the
    smallest count also at top level)."""
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
    for table, (i, j) in enumerate(results.pairs):
        wins, games = results.per_deal(table)
        matrix[i][j] = deal_cell(wins, games)
        if players == 2:
            matrix[j][i] = deal_cell(games - wins, games)
    found = bradley_terry(results)
    deals = int((results.games.sum(axis=1) > 0).sum(axis=1).max())
    wins, games = results.cells()
    table, seat, z = found.misfit
    lone, field = (names[n] for n in results.pairs[table])
    read = set(results.tables)
    data = {"players": players,
            "strategies": names,
            "merged": [{"strategy": name, "plays_as": first, "players": players}
                       for name, first in merged.items()],
            "tables": results.tables, "skipped_tables": results.skipped,
            "single_deal_tables": [run.table.label for run in runs
                                   if run.table.label in read and not run.table.duplicate],
            "deals": deals,
            "win_matrix": matrix,
            "fit": {"model": "Bradley-Terry with seat terms", "deviance": found.deviance,
                    "df": found.df, "p_value": found.p_value, "fits": found.fits,
                    "row": lone, "column": field, "seat": seat + 1,
                    "observed": float(wins[table, seat] / games[table, seat]),
                    "predicted": float(found.chance[table, seat]),
                    "games": int(games[table, seat]), "z": z},
            "elo": [], "seats": []}
    if not found.fits:
        # A rating the deviance refutes is not shown, not even in the data.
        return data
    spread = z_value() * ELO_SCALE * found.standard_errors()
    elo = ELO_MEAN + ELO_SCALE * found.strength
    played = np.bincount(results.pairs.ravel(), np.repeat(games.sum(axis=1), 2), k)
    # n counts the independent units, as everywhere: the deals the intervals cluster on.
    ratings = [{"strategy": name, "value": float(elo[n]), "low": float(elo[n] - spread[n]),
                "high": float(elo[n] + spread[n]), "n": deals, "games": int(played[n])}
               for n, name in enumerate(names)]
    worth = ELO_SCALE * found.seat
    share = np.exp(found.seat) / np.exp(found.seat).sum()
    # A seat's term is known only where lone strategies sat at every seat (duplicate deals).
    seats = [{"seat": s + 1, "value": float(worth[s]), "low": float(worth[s] - spread[k + s]),
              "high": float(worth[s] + spread[k + s]), "n": deals,
              "share_among_equals": float(share[s])} for s in range(players)]
    return data | {"elo": sorted(ratings, key=lambda r: -r["value"]),
                   "seats": seats if (games > 0).all() else []}


def ladders(data: dict) -> list[dict]:
    """The section's ladder of each player count, smallest first."""
    return list(data.get("by_players", {}).values()) or [data]


def _players(ladder: dict) -> int:
    return ladder.get("players", 2)


def _percent(e: dict) -> str:
    return f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def _share(e: dict | None) -> str:
    """A cell as ``73.3 ± 1.0`` (percent), ``—`` off the matrix."""
    return "—" if e is None else f"{100 * e['value']:.1f} ± {50 * (e['high'] - e['low']):.1f}"


def _rating(r: dict) -> str:
    return f"{r['value']:.0f} ± {(r['high'] - r['low']) / 2:.0f}"


def _counts(counts: list[int]) -> str:
    """``2``, ``2 and 3``, ``2, 3 and 4``."""
    words = [str(p) for p in counts]
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _best(ladder: dict) -> int | None:
    """The strategy whose every cell beats the fair share, if one does."""
    fair = 1 / _players(ladder)
    return next((i for i, row in enumerate(ladder["win_matrix"])
                 if all(e is None or e["low"] > fair for e in row)), None)


def _beats_all(players: int) -> str:
    return "every other head to head" if players == 2 else "the field of every other"


def _closest(ladder: dict, i: int) -> str:
    """The best strategy's smallest margin: ``closest: 52.1 % against greedy-deny``."""
    row = ladder["win_matrix"][i]
    j = min((j for j, e in enumerate(row) if e is not None), key=lambda j: row[j]["value"])
    against = "" if _players(ladder) == 2 else "the field of "
    return f"closest: {100 * row[j]['value']:.1f} % against {against}{ladder['strategies'][j]}"


def _p(value: float) -> str:
    """A p-value; below what a float holds (chi-square tails of thousands), a bound."""
    return f"p = {value:.2g}" if value > 0 else "p < 1e-300"


def misfit(ladder: dict) -> str:
    """The cell the model misses most, in words."""
    f = ladder["fit"]
    where = (f"{f['row']} in seat {f['seat']} against {f['column']}" if _players(ladder) == 2
             else f"{f['row']} alone in seat {f['seat']} against the field of {f['column']}")
    return (f"{where}, {100 * f['observed']:.1f} % of {f['games']:,} games observed, "
            f"{100 * f['predicted']:.1f} % predicted, z = {f['z']:+.1f}")


def no_rating(ladder: dict) -> str:
    """The sentence said where the model does not fit."""
    f = ladder["fit"]
    return (f"No single rating explains these results at {_players(ladder)} players "
            f"(deviance {f['deviance']:,.0f} on {f['df']} degrees of freedom, {_p(f['p_value'])}"
            f"; largest misfit: {misfit(ladder)})")


def _top(ladder: dict) -> str:
    """One ladder's top strategy in a clause, with its rating where one fits."""
    players, i = _players(ladder), _best(ladder)
    ratings = {r["strategy"]: r for r in ladder["elo"]}
    if i is not None:
        name = ladder["strategies"][i]
        rating = f"; Elo {_rating(ratings[name])}" if ratings else "; no single rating fits"
        return f"{name} beats {_beats_all(players)} ({_closest(ladder, i)}{rating})"
    if ratings:
        top = ladder["elo"][0]
        return (f"no strategy beats {_beats_all(players)}, {top['strategy']} rates highest "
                f"(Elo {_rating(top)})")
    return f"no strategy beats {_beats_all(players)} and no single rating fits"


def headline(data: dict) -> str:
    """The ladder in one line: each count's top strategy, and whether a rating fits."""
    found = ladders(data)
    if len(found) > 1:
        return ("Strategy ladder: " + "; ".join(f"at {_players(ladder)} players {_top(ladder)}"
                                                for ladder in found) + ".")
    players, text = _players(found[0]), _top(found[0])
    if players > 2:
        return f"At {players} players {text}."
    return f"{text[0].upper() if text.startswith('no ') else text[0]}{text[1:]}."


def answer(data: dict, summary: dict) -> Answer:
    """The win matrices first (the table), then per player count whether one rating per
    strategy explains them: the ratings where it does, the misfit where it does not."""
    found = ladders(data)
    sentences, tops = [], []
    for ladder in found:
        names, players, i = ladder["strategies"], _players(ladder), _best(ladder)
        fair = "" if players == 2 else f", fair share {100 / players:.1f} %"
        beats = (f"{names[i]} beats {_beats_all(players)} ({_closest(ladder, i)}{fair})"
                 if i is not None else f"no strategy beats {_beats_all(players)}")
        tops.append(f"at {players}P {beats}")
        if ladder["fit"]["fits"]:
            order = " > ".join(f"{r['strategy']} {_rating(r)}" for r in ladder["elo"])
            sentences.append(f"At {players}P {beats}; one rating with seat terms explains the "
                             f"results: Elo {order}.")
        else:
            sentences.append(f"At {players}P {beats}. {no_rating(ladder)}.")
    failed = [_players(ladder) for ladder in found if not ladder["fit"]["fits"]]
    if failed:
        sentences.append("No rating is shown where none fits: the matrix is the answer there."
                         if len(failed) < len(found) else
                         "No rating is shown: none fits at any player count, so the matrix is "
                         "the answer.")
    # The ladder's order: the count with the fewest merged strategies names them all.
    fullest = max((ladder["strategies"] for ladder in found), key=len)
    columns = list(dict.fromkeys([*fullest, *(name for ladder in found
                                              for name in ladder["strategies"])]))
    rated = len(failed) < len(found)
    rows = []
    for ladder in found:
        names, players = ladder["strategies"], _players(ladder)
        elo = {r["strategy"]: f"{r['value']:.0f} [{r['low']:.0f}, {r['high']:.0f}]"
               for r in ladder["elo"]}
        for i, name in enumerate(names):
            row = ladder["win_matrix"][i]
            cells = [_share(row[names.index(c)]) if c in names else "—" for c in columns]
            rows.append([f"{players}P", name, *cells,
                         *([elo.get(name, "no fit")] if rated else [])])
    sentences.append("The table: the row strategy's win share (%) against the column "
                     "strategy (alone against a field of it at 3 players and more, against "
                     "the fair share 1/P), ± half its 95 % interval.")
    where = ("any player count" if len(failed) == len(found) else
             f"{_counts(failed)} players")
    return Answer(" ".join(sentences), "Strategy ladder: " + "; ".join(tops) + (
        f"; no single rating fits at {where}." if failed else "."),
        ["players", "strategy", *columns, *(["Elo [95 % CI]"] if rated else [])], rows)


def numbers(data: dict) -> dict[str, dict]:
    """Every win-matrix cell (above the diagonal at two players) of each player count, and
    the Elo ratings and seat terms where the model fits, for baselines; names at P > 2
    players start ``"<P>P "``."""
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
        found |= {f"{prefix}Elo | seat {s['seat']}": {k: s[k] for k in keys}
                  for s in ladder["seats"]}
    return found


def fit_line(data: dict) -> str:
    """One ladder's goodness of fit in words: deviance, df, p-value, largest misfit, verdict."""
    f = data["fit"]
    if f["p_value"] is None:
        return ("**Fit:** as many parameters as cells: the model reproduces them exactly; "
                "nothing to test.")
    if not f["fits"]:
        return f"**{no_rating(data)}.** The matrix above is the result; no rating is shown."
    return (f"**Fit:** deviance {f['deviance']:,.1f} on {f['df']} degrees of freedom "
            f"({_p(f['p_value'])}); largest misfit: {misfit(data)}. The model fits: the "
            "ratings summarise the matrix.")


def markdown(data: dict, plot: str) -> list[str]:
    """The ladder as report text: for each player count the win matrix first, then whether
    one rating explains it, and the ratings where one does."""
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
    """One player count's matrix, then the fit, and the ratings where it fits."""
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
    against = "In seat t against j" if players == 2 else f"Alone at seat t against " \
                                                             f"{players - 1} copies of j"
    model = ("A Bradley-Terry model with seat terms: each strategy has a strength b, each "
             "seat a term a, and a game's winner is drawn among its seats with chances in "
             f"proportion to exp(b + a). {against}, i wins with "
             "log-odds b_i - b_j + c_t, where c_t is the seat's log-odds among players of "
             "equal strength. Fitted to the lone strategy's wins at each seat of each table; "
             "the deviance treats the games of a table and seat as independent (on duplicate "
             "deals they come from different deals) and is approximate.")
    lines += ["", f"### Ratings{where}", "", model, "", fit_line(data), ""]
    if not data["elo"]:
        return lines
    lines += ["Elo ratings: 1500 + 400 / ln(10) b, so 400 points are ten-to-one odds in a game "
              "of two. 95 % intervals with the deal as the cluster (the sandwich estimator): "
              "every table plays the same deals.", "",
              "| rank | strategy | Elo [95 % CI] | games |", "|---|---|---|---|"]
    for rank, r in enumerate(data["elo"], 1):
        lines.append(f"| {rank} | {r['strategy']} | {r['value']:.0f} [{r['low']:.0f}, "
                     f"{r['high']:.0f}] | {r['games']:,} |")
    if data["seats"]:
        lines += ["", "What each seat is worth, in Elo points against the average seat, and "
                  "its share of the wins when every player is of equal strength.", "",
                  "| seat | Elo points [95 % CI] | share among equals |", "|---|---|---|"]
        lines += [f"| {s['seat']} | {s['value']:+.0f} [{s['low']:+.0f}, {s['high']:+.0f}] | "
                  f"{100 * s['share_among_equals']:.1f} % |" for s in data["seats"]]
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> str:
    """Each player count's win matrix as a heat map (coloured about the fair share) beside
    its Elo ratings with their intervals where one rating fits, else the misfit's size:
    one row of panels per count."""
    from matplotlib.colors import TwoSlopeNorm

    from cakesim.reports.figures import new_figure, save_figure

    found = ladders(data)
    one = [_players(ladder) for ladder in found] == [2]
    # The rating panels only where some count has ratings: a misfit is said in their place.
    rated = any(ladder["fit"]["fits"] for ladder in found)
    shown = " and Elo ratings" if rated else ""
    what = (f"head-to-head win shares{shown}" if one else
            f"win shares{shown} at {_counts([_players(x) for x in found])} players")
    k = max(len(ladder["strategies"]) for ladder in found)
    # Wide enough for the figure's title (save_figure's) in one line: about 0.08 in a letter.
    title = (f"{summary['title'] or summary['experiment']}: {what}, 95 % intervals (seed "
             f"{summary['seed']})")
    width = (5 if rated else 2) + 1.1 * k
    wider = max(0.0, 0.08 * len(title) + 0.5 - width)
    # The Elo panels take any extra width: the heat maps keep their size.
    fig, axes = new_figure(len(found), 2 if rated else 1,
                           figsize=(width + wider, len(found) * (0.7 * k + 2.5)),
                           width_ratios=[k, 3 + (k + 3) * wider / width] if rated else None,
                           squeeze=False)
    for (left, *right), ladder in zip(axes, found, strict=True):
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
        if not one:
            left.set_title(f"{players} players: win shares", fontsize=9)
        if not rated:
            continue
        right = right[0]
        if not ladder["fit"]["fits"]:
            f = ladder["fit"]
            right.text(0.5, 0.5, f"No single rating fits\n(deviance {f['deviance']:,.0f}\non "
                                 f"{f['df']} degrees of freedom):\nread the matrix",
                       ha="center", va="center", fontsize=9, transform=right.transAxes)
            right.set_axis_off()
            continue
        elo = ladder["elo"][::-1]
        right.errorbar([r["value"] for r in elo], range(len(elo)), capsize=3, fmt="o",
                       xerr=[[r["value"] - r["low"] for r in elo],
                             [r["high"] - r["value"] for r in elo]])
        right.set_yticks(range(len(elo)), [r["strategy"] for r in elo])
        right.axvline(ELO_MEAN, color="black", linestyle=":", linewidth=1)
        right.set_xlabel("Elo rating" + ("" if one else f" at {players} players"))
    return save_figure(fig, summary, what, out / "ladder.png").name
