"""From a table's exact sums to the numbers a report states, each with its interval.

Every interval is computed by deal (see ``cakesim.stats.intervals``): on duplicate deals a deal's
P rotations are one sample, not P.
"""

import numpy as np

from cakesim.engine.contract import ResultKind
from cakesim.engine.runner import TableRun
from cakesim.reports.text import points
from cakesim.stats.intervals import (
    Estimate,
    WinShare,
    by_deal,
    mean_interval,
    paired_difference,
    verdict,
)


def seat_summary(run: TableRun) -> list[dict]:
    """Per seat: win share, mean of every metric, and the paired lead over the rest."""
    game = run.table.game
    t = run.totals
    seats = []
    for seat in range(t.players):
        entry = {
            "seat": seat,
            "role": str(game.seat_name(run.table, seat)),
            "name": game.seat_name(run.table, seat).name,
            "strategy": _seat_strategy(run, seat),
            "win_share": seat_share(run, seat).interval().as_dict(),
        }
        for metric in game.seat_metrics:
            entry[f"mean_{metric}"] = by_deal(
                float(t.seat_sum[metric][seat]), float(t.seat_sq[metric][seat]), t.deals,
                t.games_per_deal).as_dict()
        if t.players > 1:
            # A lead is over the other seats; alone at the table there are none.
            entry["lead_total"] = _lead(t, "total", seat, 1.0).as_dict()
            entry["lead_win_share"] = _lead(t, "win_units", seat,
                                            1.0 / game.win_units).as_dict()
        seats.append(entry)
    return seats


def player_summary(run: TableRun) -> list[dict]:
    """Per player (strategy slot): win share and mean total, over every seat it sat in."""
    game = run.table.game
    t = run.totals
    return [{
        "player": p,
        "strategy": run.table.strategies[p].name,
        "win_share": _share(t, t.player_sum, t.player_sq, p,
                            game.win_units).interval().as_dict(),
        "mean_total": by_deal(float(t.player_sum["total"][p]), float(t.player_sq["total"][p]),
                              t.deals, t.games_per_deal).as_dict(),
    } for p in range(t.players)]


def game_summary(run: TableRun) -> dict:
    """Mean of every per-game metric."""
    t = run.totals
    return {m: by_deal(float(t.game_sum[m]), float(t.game_sq[m]), t.deals,
                       t.games_per_deal).as_dict() for m in t.game_metrics}


def verdict_family(experiment, runs) -> int:
    """How many seat verdicts a report makes together: every seat of every table of its
    own (a section's rows are left to their section); none in a team game."""
    if experiment.game.result_kind is not ResultKind.SEATS:
        return 0
    return sum(run.table.players for run in runs
               if run.table.label not in experiment.section_tables)


def seat_verdicts(run: TableRun, margin: float, family: int) -> list[dict]:
    """Every seat's verdict against a fair 1/P, simultaneous over ``family`` verdicts."""
    return [seat_verdict(run, seat, margin, family) for seat in range(run.totals.players)]


def seat_verdict(run: TableRun, seat: int, margin: float, family: int) -> dict:
    """One seat's verdict against a fair 1/P, read from the interval its table prints."""
    return verdict(seat_share(run, seat), 1.0 / run.totals.players, margin, family).as_dict()


def verdict_sentence(seats: list[dict], control: bool = False) -> str:
    """The first seat's verdict in words, and the worst seat's when it is another one."""
    first = seats[0]
    worst = min(seats, key=lambda s: s["win_share"]["value"])
    parts = [_seat_sentence(first)]
    if worst is not first:
        parts.append(f"worst seat: {_seat_sentence(worst, capital=False)}")
    return ("Control: " if control else "") + "; ".join(parts)


def _seat_sentence(seat: dict, capital: bool = True) -> str:
    v = seat["verdict"]
    role = seat["name"]
    share, gap = seat["win_share"], v["gap"]
    return (f"{role.capitalize() if capital else role} wins {100 * share['value']:.1f} % "
            f"against a fair {100 * v['fair']:.1f} % (gap {points(gap)}): {v['phrase']}")


def seat_share(run: TableRun, seat: int) -> WinShare:
    """A seat's win share at a table, from its sums (its interval by deal at any level)."""
    t = run.totals
    return _share(t, t.seat_sum, t.seat_sq, seat, run.table.game.win_units)


def first_seat_share(run: TableRun) -> Estimate:
    """Seat 0's win share at a table, with its 95 % interval by deal."""
    return seat_share(run, 0).interval()


def compare_first_seat(base: TableRun, other: TableRun) -> dict:
    """Seat 0's win share at ``other`` minus at ``base``, paired by deal.

    Both tables use the same seed, hence the same deals; when every deal's sums were
    kept the difference is taken deal by deal, otherwise it is unpaired from the sums.
    """
    win_units = base.table.game.win_units
    return _difference(base, other, first_seat_share,
                       lambda run: run.by_deal.seat["win_units"][:, 0] / win_units)


def compare_game_metric(base: TableRun, other: TableRun, metric: str) -> dict:
    """A per-game metric's mean at ``other`` minus at ``base``, paired by deal."""
    return _difference(base, other, lambda run: by_deal(
        float(run.totals.game_sum[metric]), float(run.totals.game_sq[metric]),
        run.totals.deals, run.totals.games_per_deal),
        lambda run: run.by_deal.game[metric])


def _difference(base: TableRun, other: TableRun, estimate, per_deal) -> dict:
    """``estimate(other) - estimate(base)``; paired on the per-deal values when both kept."""
    kept = base.by_deal is not None and other.by_deal is not None
    return difference(estimate(other), estimate(base),
                      per_deal(other) / other.totals.games_per_deal if kept else None,
                      per_deal(base) / base.totals.games_per_deal if kept else None)


def difference(after: Estimate, before: Estimate, after_deals: np.ndarray | None = None,
               before_deals: np.ndarray | None = None) -> dict:
    """``after - before``: paired on their per-deal values when both have the same deals,
    else unpaired (the half-widths added in quadrature); with the method in words."""
    if (after_deals is not None and before_deals is not None
            and after_deals.shape == before_deals.shape):
        return {"method": "paired by deal",
                **paired_difference(after_deals, before_deals).as_dict()}
    diff = after.value - before.value
    half = np.hypot(after.half_width, before.half_width)
    n = min(after.n, before.n)
    return {"method": "unpaired", **Estimate(diff, diff - half, diff + half, n).as_dict()}


def _share(totals, total: dict, square: dict, index: int, win_units: int) -> WinShare:
    return WinShare(float(total["win_units"][index]), float(square["win_units"][index]),
                    totals.deals, totals.games_per_deal, win_units)


def _lead(totals, metric: str, seat: int, scale: float) -> Estimate:
    """Seat ``seat``'s metric minus the mean of the other seats, per deal, with interval."""
    players, deals = totals.players, totals.deals
    factor = scale / ((players - 1) * totals.games_per_deal)
    estimate = mean_interval(float(totals.contrast_sum[metric][seat]),
                             float(totals.contrast_sq[metric][seat]), deals)
    return Estimate(estimate.value * factor, estimate.low * factor, estimate.high * factor,
                    deals)


def _seat_strategy(run: TableRun, seat: int) -> str:
    names = {s.name for s in run.table.strategies}
    if len(names) == 1:
        return names.pop()
    return "rotating" if run.table.duplicate else run.table.strategies[seat].name
