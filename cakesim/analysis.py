"""From a table's exact sums to the numbers a report states, each with its interval."""

import math

import numpy as np

from cakesim.games import get_game
from cakesim.runner import TableRun
from cakesim.stats import Estimate, bias_verdict, mean_interval, paired_difference, wilson


def seat_summary(run: TableRun) -> list[dict]:
    """Per seat: win share (Wilson), mean of every metric, and the paired lead over the rest."""
    game = get_game(run.table.game)
    t = run.totals
    n, players = t.games, t.players
    seats = []
    for seat in range(players):
        share = t.seat_sum["win_units"][seat] / (game.win_units * n)
        entry = {
            "seat": seat,
            "role": game.seat_role(run.table, seat),
            "strategy": _seat_strategy(run, seat),
            "win_share": wilson(share, n).as_dict(),
        }
        for metric in game.seat_metrics:
            entry[f"mean_{metric}"] = mean_interval(
                float(t.seat_sum[metric][seat]), float(t.seat_sq[metric][seat]), n).as_dict()
        entry["lead_total"] = _lead(t, "total", seat, 1.0).as_dict()
        entry["lead_win_share"] = _lead(t, "win_units", seat, 1.0 / game.win_units).as_dict()
        seats.append(entry)
    return seats


def player_summary(run: TableRun) -> list[dict]:
    """Per player (strategy slot): win share and mean total, over every seat it sat in."""
    game = get_game(run.table.game)
    t = run.totals
    return [{
        "player": p,
        "strategy": run.table.strategies[p].name,
        "win_share": wilson(t.player_sum["win_units"][p] / (game.win_units * t.games),
                            t.games).as_dict(),
        "mean_total": mean_interval(float(t.player_sum["total"][p]),
                                    float(t.player_sq["total"][p]), t.games).as_dict(),
    } for p in range(t.players)]


def game_summary(run: TableRun) -> dict:
    """Mean of every per-game metric."""
    t = run.totals
    return {m: mean_interval(float(t.game_sum[m]), float(t.game_sq[m]), t.games).as_dict()
            for m in t.game_metrics}


def first_seat_verdict(run: TableRun) -> str:
    """The verdict sentence on seat 0 (the first waiter)."""
    game = get_game(run.table.game)
    t = run.totals
    share = wilson(t.seat_sum["win_units"][0] / (game.win_units * t.games), t.games)
    return bias_verdict(game.seat_role(run.table, 0).split(" (")[0].capitalize(), share,
                        1.0 / t.players)


def compare_first_seat(base: TableRun, other: TableRun) -> dict:
    """Seat 0's win share at ``other`` minus at ``base``: paired on identical deals if possible.

    Both tables use the same seed, hence the same deals, so when every game's row was
    kept the difference is taken game by game; otherwise it is unpaired from the sums.
    """
    game = get_game(base.table.game)
    if base.rows_complete and other.rows_complete and base.totals.games == other.totals.games:
        a = _first_seat_share(other)
        b = _first_seat_share(base)
        return {"method": "paired by deal", **paired_difference(a, b).as_dict()}
    estimates = []
    for run in (other, base):
        t = run.totals
        share = t.seat_sum["win_units"][0] / (game.win_units * t.games)
        estimates.append((share, share * (1 - share) / t.games))
    diff = estimates[0][0] - estimates[1][0]
    half = 1.96 * math.sqrt(estimates[0][1] + estimates[1][1])
    n = min(base.totals.games, other.totals.games)
    return {"method": "unpaired", **Estimate(diff, diff - half, diff + half, n).as_dict()}


def _first_seat_share(run: TableRun) -> np.ndarray:
    rows = run.rows
    return rows.loc[rows["seat"] == 0].sort_values("game")["win_share"].to_numpy(np.float64)


def _lead(totals, metric: str, seat: int, scale: float) -> Estimate:
    """Seat ``seat``'s metric minus the mean of the other seats, per deal, with interval."""
    players, deals = totals.players, totals.deals
    per_deal = totals.games // deals
    factor = scale / ((players - 1) * per_deal)
    estimate = mean_interval(float(totals.contrast_sum[metric][seat]),
                             float(totals.contrast_sq[metric][seat]), deals)
    return Estimate(estimate.value * factor, estimate.low * factor, estimate.high * factor,
                    deals)


def _seat_strategy(run: TableRun, seat: int) -> str:
    names = {s.name for s in run.table.strategies}
    if len(names) == 1:
        return names.pop()
    return "rotating" if run.table.duplicate else run.table.strategies[seat].name
