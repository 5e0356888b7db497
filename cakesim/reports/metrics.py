"""Table metrics designers compare games by (after Ludii's Balance and Drawishness):
how even the seats are, how often first place is shared, and by how much games are won.

Each comes from the table's per-game rows, with a 95 % interval by deal: on duplicate
deals the P rotations of a deal are one sample.
"""

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from cakesim.engine.runner import TableRun
from cakesim.reports.figures import Colours, legend_outside, new_figure, save_figure
from cakesim.reports.hooks import hooks_of
from cakesim.reports.text import percent, plus_minus
from cakesim.stats.intervals import Estimate, mean_of

BOOTSTRAP = 400
"""Resamples of whole deals for Balance's interval (a maximum has no simple formula)."""


def table_metrics(run: TableRun, seed: int) -> dict | None:
    """Balance, first-place tie rate and winning margin of one table, or ``None`` when it
    kept no per-game rows (``keep_rows`` 0) or seats one player."""
    rows, table = run.rows, run.table
    if not len(rows) or table.players < 2:
        return None
    players, units = table.players, table.game.win_units
    games = rows.sort_values(["game", "seat"])
    wins = games["win_units"].to_numpy(np.float64).reshape(-1, players) / units
    totals = games["total"].to_numpy(np.float64).reshape(-1, players)
    deal = games["deal"].to_numpy()[::players]
    ranked = np.sort(totals, axis=1)
    per_game = pd.DataFrame({"deal": deal, "tied": (wins.max(axis=1) < 1).astype(float),
                             "margin": ranked[:, -1] - ranked[:, -2]})
    by_deal = per_game.groupby("deal").mean()
    shares = pd.DataFrame(wins).groupby(deal).mean().to_numpy()
    return {"games": len(per_game), "complete": run.rows_complete,
            "balance": _balance(shares, seed).as_dict(),
            "first_place_ties": mean_of(by_deal["tied"].to_numpy()).as_dict(),
            "winning_margin": mean_of(by_deal["margin"].to_numpy()).as_dict()}


def _balance(shares: np.ndarray, seed: int) -> Estimate:
    """1 minus the largest gap between two seats' win shares, with a percentile bootstrap
    interval over deals (``shares``: one row per deal, one column per seat)."""

    def balance(sample: np.ndarray, axis: int = -1) -> np.ndarray:
        # Seats come first, deals last; resampling puts its batch axis between them.
        means = sample.mean(axis=axis)
        return 1 - (means.max(axis=0) - means.min(axis=0))

    seats_by_deal = shares.T
    value = float(balance(seats_by_deal))
    # In batches: all resamples at once would hold BOOTSTRAP copies of the table in memory.
    found = stats.bootstrap((seats_by_deal,), balance, n_resamples=BOOTSTRAP, batch=20,
                            axis=-1, method="percentile",
                            random_state=np.random.default_rng(seed))
    low, high = found.confidence_interval
    return Estimate(value, float(low), float(high), len(shares))


def markdown(tables: list[dict], plot: Path | None = None) -> list[str]:
    """The table metrics of every table that has them, what they mean, and the score by
    round's plot when there is one."""
    shown = [t for t in tables if t.get("metrics")]
    if not shown:
        return []
    lines = ["## Table metrics", "",
             "*Balance* is 1 minus the largest gap between two seats' win shares (1: every "
             "seat wins equally often; 0.9: two seats are 10 pp apart); interval: bootstrap "
             f"over deals ({BOOTSTRAP} resamples). *First-place ties*: the share of games whose "
             "first place is shared. *Winning margin*: the winner's score minus the "
             "runner-up's, in points (0 when first place is shared). *Lead changes*: how "
             "often the lead passes to another seat from one round (cake, pizza) to the next "
             "(a shared lead keeps the last leader), counted by the reference engine on the "
             f"first {TRAJECTORY_GAMES:,} games (at most a tenth of its games) of each "
             "headline table, the same games the kernel played. 95 % intervals by deal.",
             "", "| table | balance | first-place ties | winning margin (points) | "
             "lead changes | games |", "|---|---|---|---|---|---|"]
    for t in shown:
        m = t["metrics"]
        lead = t.get("trajectories")
        lines.append(f"| {t['label']}{' (control)' if t['control'] else ''} | "
                     f"{_plain(m['balance'], 3)} | {percent(m['first_place_ties'])} | "
                     f"{plus_minus(m['winning_margin'])} | "
                     f"{plus_minus(lead['lead_changes']) if lead else '—'} | {m['games']:,}"
                     f"{'' if m['complete'] else ' (the first kept)'} |")
    lines.append("")
    if plot is not None:
        lines += [f"![score by round]({plot.name})", ""]
    return lines


ONE_ROW = 8
"""The most score-by-round panels drawn side by side in one row."""
PANELS_PER_ROW = 6


def plot_score_by_round(summary: dict, path: Path, round_name: str) -> Path | None:
    """Every seat's mean score after each round, one panel per headline table, a colour
    per seat; ``None`` when no table has score trajectories."""
    shown = [t for t in summary["tables"] if t.get("trajectories")]
    if not shown:
        return None
    # One row while it stays readable; more panels wrap into rows of PANELS_PER_ROW.
    columns = len(shown) if len(shown) <= ONE_ROW else PANELS_PER_ROW
    rows = -(-len(shown) // columns)
    fig, axes = new_figure(rows, columns, figsize=(3.2 * columns + 1, 3.0 * rows + 0.6),
                           squeeze=False, sharey=True)
    colours = Colours()
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)
    for ax, t in zip(axes.flat, shown, strict=False):
        rounds = t["trajectories"]["score_by_round"]
        x = np.arange(1, len(rounds) + 1)
        for seat, name in enumerate(s["name"] for s in t["seats"]):
            e = [r[seat] for r in rounds]
            ax.errorbar(x, [v["value"] for v in e], yerr=[(v["high"] - v["low"]) / 2 for v in e],
                        marker="o", markersize=3, capsize=2, color=colours[name], label=name)
        ax.set_xticks(x)
        ax.set_xlabel(f"after {round_name}")
        ax.set_title(t["label"], fontsize=8)
    for row in axes:
        row[0].set_ylabel("mean score")
    legend_outside(fig, axes.flat[:len(shown)])
    return save_figure(fig, summary, f"score after each {round_name}", path)


def _plain(e: dict, digits: int) -> str:
    return f"{e['value']:.{digits}f} [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"


TRAJECTORY_GAMES = 1000
"""Games per headline table replayed by the reference engine for the score by round:
intervals of about ±0.3 points on a mean score, in about ten seconds of plain Python."""


def trajectories(run: TableRun, games: int = TRAJECTORY_GAMES) -> dict | None:
    """Lead changes and every seat's mean score after each round, over the table's first
    ``games`` games (whole deals, and at most a tenth of the table's) replayed by the
    reference engine, or ``None`` when the game has no rounds scored as it goes."""
    table = run.table
    per = table.games_per_deal
    # A tenth at most: a small run (a quick look, a test) is not slowed by plain Python.
    count = max(min(games, run.totals.games // 10) // per, 1) * per
    hooks = hooks_of(table.game)
    first = hooks.score_trajectory(table, run.seed, 0)
    if first is None:
        return None
    scores = np.stack([first, *(hooks.score_trajectory(table, run.seed, i)
                                for i in range(1, count))])
    deal = np.arange(count) // per
    changes = pd.Series([lead_changes(s) for s in scores]).groupby(deal).mean()
    by_round = [[mean_of(pd.Series(scores[:, r, seat]).groupby(deal).mean().to_numpy())
                 .as_dict() for seat in range(table.players)]
                for r in range(scores.shape[1])]
    return {"games": count, "lead_changes": mean_of(changes.to_numpy()).as_dict(),
            "score_by_round": by_round}


def lead_changes(scores: np.ndarray) -> int:
    """How often the lead passes to another seat over the rounds (``scores``: rounds by
    seats). The leader is the seat alone at the top; a shared top keeps the last leader,
    so a tie and its undoing are no change."""
    changes, leader = 0, None
    for row in scores:
        top = np.flatnonzero(row == row.max())
        if len(top) == 1:
            if leader is not None and top[0] != leader:
                changes += 1
            leader = top[0]
    return changes
