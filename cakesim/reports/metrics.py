"""Table metrics designers compare games by (after Ludii's Balance and Drawishness):
how even the seats are, how often first place is shared, and by how much games are won.

Each comes from the table's per-game rows, with a 95 % interval by deal: on duplicate
deals the P rotations of a deal are one sample.

Balance is 1 minus the largest gap R between two seats' win shares. The observed gap
reads too large (noise only widens a maximum: at a fair 4-player table of 2,000 games
the plain 1 - R reads 2.3 pp low) and a fair table's Balance, 1, lies on the edge of the
possible values, where a percentile bootstrap never covers it. So, from the seats' mean
shares and their covariance over deals, and normal draws from that covariance:

- *fair or not*: the largest gap, in standard errors of its pair, against the law of
  that maximum when every seat is equal (a simultaneous test of all pairs). When it is
  within its 95 % point the interval reaches Balance 1;
- *interval*: the law of max over pairs of (|drawn gap| - R) / se, drawn around the
  observed shares with seats less than ``TIED`` standard errors apart made equal (a
  near-tie among the top seats widens the maximum as an exact tie would); with c its 95 %
  point of the absolute value, R lies in [max(|gap| - c se), max(|gap| + c se)] over
  the pairs (the lower end 0 when the table passed as fair);
- *estimate*: R less the widening of the maximum by the same draws, kept in the interval.

Measured with ``cakesim.reports.balance_check`` (synthetic tables, first place shared in
5 % of games, 1,000 runs a cell, coverage known to about +-0.7 pp), 95 % interval
coverage at 500 and 2,000 deals, independent deals / duplicate deals / duplicate deals
whose luck favours some seats: fair 2, 4 and 5 players 93.0-95.9 % (the old percentile
bootstrap: 0 %); seats 0.31/0.23/0.24/0.22 95.4-96.9 %; 0.55/0.45 93.2-95.8 %;
0.24/0.20/0.20/0.19/0.17 93.8-97.1 %; two seats tied at the top, 0.30/0.30/0.20/0.20,
90.7-94.1 % (the hardest case: the draws around the observed shares miss part of the tie).
Bias of the estimate: fair tables -0.2 to -1.5 pp (the plain value -1.8 to -4.5 pp);
unfair ones within +-0.7 pp at 2,000 deals, up to +2.6 pp at 500 independent deals of
five near seats (the shrinking to ties over-corrects there).
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import stats

from cakesim.engine.cache import ChunkCache, write_atomically
from cakesim.engine.runner import TableRun
from cakesim.reports.figures import Colours, legend_outside, new_figure, save_figure
from cakesim.reports.hooks import hooks_of
from cakesim.reports.text import percent, plus_minus
from cakesim.stats.intervals import LEVEL, Estimate, mean_of

DRAWS = 2000
"""Normal draws of the seats' mean win shares behind Balance's bias and interval."""
TIED = 1.5
"""Seats whose win shares are closer than this many standard errors count as tied when
Balance's bias and interval are worked out."""


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
            "balance": balance(shares, seed).as_dict(),
            "first_place_ties": mean_of(by_deal["tied"].to_numpy()).as_dict(),
            "winning_margin": mean_of(by_deal["margin"].to_numpy()).as_dict()}


def balance(shares: np.ndarray, seed: int, level: float = LEVEL) -> Estimate:
    """Balance with its bias removed and its interval (``shares``: one row per deal, one
    column per seat), or ``nan`` with fewer than two deals."""
    deals, seats = shares.shape
    if deals < 2:
        return Estimate(math.nan, math.nan, math.nan, deals)
    means = shares.mean(axis=0)
    covariance = np.cov(shares, rowvar=False) / deals
    first, second = np.triu_indices(seats, 1)
    gaps = np.abs(means[first] - means[second])
    se = _gap_se(covariance, first, second)
    # A pair whose difference never varies has no noise: its draws are 0 as well.
    unit = np.where(se > 0, se, 1.0)
    noise = stats.multivariate_normal(np.zeros(seats), covariance, allow_singular=True).rvs(
        DRAWS, random_state=np.random.default_rng(seed))
    # Is the table fair? Its largest studentised gap against that gap's law at equal seats.
    fair_law = (np.abs(noise[:, first] - noise[:, second]) / unit).max(axis=1)
    observed = np.where(se > 0, gaps / unit, np.where(gaps > 0, np.inf, 0.0))
    fair = observed.max() <= np.quantile(fair_law, level)
    # The largest gap's error where the seats are as observed, near-ties made ties.
    centre = _tied(means, covariance)
    drawn = centre + noise
    spread = np.ptp(centre)
    excess = ((np.abs(drawn[:, first] - drawn[:, second]) - spread) / unit).max(axis=1)
    critical = np.quantile(np.abs(excess), level)
    low = 0.0 if fair else max(0.0, float(np.max(gaps - critical * se)))
    high = min(1.0, float(np.max(gaps + critical * se)))
    gap = np.clip(np.ptp(means) - (np.ptp(drawn, axis=1).mean() - spread), low, high)
    return Estimate(1 - float(gap), 1 - high, 1 - low, deals)


def _gap_se(covariance: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Standard errors of the differences between seats ``first`` and seats ``second``."""
    return np.sqrt(np.maximum(covariance[first, first] + covariance[second, second]
                              - 2 * covariance[first, second], 0.0))


def _tied(means: np.ndarray, covariance: np.ndarray) -> np.ndarray:
    """The seats' win shares with each run of seats less than TIED standard errors from
    the next replaced by the run's mean."""
    order = np.argsort(means)
    apart = np.diff(means[order]) > TIED * _gap_se(covariance, order[:-1], order[1:])
    run = np.empty(len(means), dtype=int)
    run[order] = np.concatenate([[0], np.cumsum(apart)])
    return (np.bincount(run, means) / np.bincount(run))[run]


def markdown(tables: list[dict], plot: Path | None = None) -> list[str]:
    """The table metrics of every table that has them, what they mean, and the score by
    round's plot when there is one."""
    shown = [t for t in tables if t.get("metrics")]
    if not shown:
        return []
    lines = ["## Table metrics", "",
             "*Balance* is 1 minus the largest gap between two seats' win shares (1: every "
             "seat wins equally often; 0.9: two seats are 10 pp apart), less the amount by "
             "which chance alone widens the observed gap; its interval reaches 1 when the "
             "gaps are within chance of a fair table. *First-place ties*: the share of games whose "
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
    # Balance has no value below two deals (``nan``, ``None`` once read back from JSON).
    if e["value"] is None or math.isnan(e["value"]):
        return "— (too few deals)"
    return f"{e['value']:.{digits}f} [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"


TRAJECTORY_GAMES = 1000
"""Games per headline table replayed by the reference engine for the score by round:
intervals of about ±0.3 points on a mean score, in about ten seconds of plain Python."""
TRAJECTORY_CHUNK = 250
"""Replays per parallel task: enough to outweigh sending the table to a worker."""


def trajectories(run: TableRun, games: int = TRAJECTORY_GAMES, n_jobs: int = -1,
                 cache: ChunkCache | None = None) -> dict | None:
    """Lead changes and every seat's mean score after each round, over the table's first
    ``games`` games (whole deals, and at most a tenth of the table's) replayed by the
    reference engine, or ``None`` when the game has no rounds scored as it goes. With a
    ``cache``, replays filed by an earlier run are read back instead of played again."""
    table = run.table
    per = table.games_per_deal
    # A tenth at most: a small run (a quick look, a test) is not slowed by plain Python.
    count = max(min(games, run.totals.games // 10) // per, 1) * per
    hooks = hooks_of(table.game)
    first = hooks.score_trajectory(table, run.seed, 0)
    if first is None:
        return None
    # Plain Python is slow (a report's replays took half its writing time on one core):
    # the replays, each a pure function of (table, seed, game), run on the run's cores.
    parts = [(a, min(a + TRAJECTORY_CHUNK, count)) for a in range(1, count, TRAJECTORY_CHUNK)]
    stored = {part: _stored_replays(cache, table, run.seed, *part) for part in parts}
    missing = [part for part in parts if stored[part] is None]
    replayed = (Parallel(n_jobs=n_jobs)(delayed(_replays)(table, run.seed, a, b)
                                        for a, b in missing)
                if len(missing) > 1 else [_replays(table, run.seed, a, b) for a, b in missing])
    for part, played in zip(missing, replayed, strict=True):
        stored[part] = played
        if cache is not None:
            _store_replays(cache, table, run.seed, *part, played)
    scores = np.concatenate([first[None], *(stored[part] for part in parts)])
    deal = np.arange(count) // per
    changes = pd.Series([lead_changes(s) for s in scores]).groupby(deal).mean()
    by_round = [[mean_of(pd.Series(scores[:, r, seat]).groupby(deal).mean().to_numpy())
                 .as_dict() for seat in range(table.players)]
                for r in range(scores.shape[1])]
    return {"games": count, "lead_changes": mean_of(changes.to_numpy()).as_dict(),
            "score_by_round": by_round}


def _replays(table, seed: int, start: int, stop: int) -> np.ndarray:
    """The scores by round of games ``start .. stop`` (games by rounds by seats)."""
    hooks = hooks_of(table.game)
    return np.stack([hooks.score_trajectory(table, seed, i) for i in range(start, stop)])


def _replays_path(cache: ChunkCache, table, seed: int, start: int, stop: int) -> Path:
    """Where the replays of games ``start .. stop`` are filed: beside the chunk of the same
    games, under its key (game code, table, seed, games), so they go stale together."""
    return cache.path(table, seed, start, stop).with_suffix(".replays.npy")


def _stored_replays(cache: ChunkCache | None, table, seed: int, start: int,
                    stop: int) -> np.ndarray | None:
    """The filed replays of games ``start .. stop``, or ``None`` (no cache, not filed, or
    unreadable: then they are simply played again)."""
    if cache is None:
        return None
    try:
        scores = np.load(_replays_path(cache, table, seed, start, stop))
    except (OSError, ValueError, EOFError):
        return None
    return scores if len(scores) == stop - start else None


def _store_replays(cache: ChunkCache, table, seed: int, start: int, stop: int,
                   scores: np.ndarray) -> None:
    """File the replays of games ``start .. stop``, as a chunk is filed."""
    write_atomically(_replays_path(cache, table, seed, start, stop),
                     lambda file: np.save(file, scores))


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
