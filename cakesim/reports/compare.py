"""What a rule change does: ``cakesim compare``'s report.

The base rules and the changed rules are played on the same seed, so game ``i`` of a table
is dealt alike under both (as far as the change leaves the deal alone), and every headline
number's change is taken deal by deal: the luck of the deals cancels. With seats
(``ResultKind.SEATS``) the headline numbers are every seat's win share at every table; in a
team game, every table's win rate. Each difference has its own 95 % interval.
"""

from pathlib import Path

import numpy as np

from cakesim.engine.contract import ResultKind
from cakesim.engine.project import strict_json
from cakesim.engine.runner import TableRun
from cakesim.reports.summaries import compare_game_metric, difference, seat_summary
from cakesim.reports.text import points
from cakesim.stats.intervals import Estimate

REPORT = "report.md"
NUMBERS = "compare.json"


def differences(base: list[TableRun], changed: list[TableRun]) -> list[dict]:
    """Every headline number of the tables both runs played (matched by label): its value
    under the base and the changed rules, and the change with its 95 % interval."""
    changed_by_label = {run.table.label: run for run in changed}
    rows = []
    for before in base:
        after = changed_by_label.get(before.table.label)
        if after is None:
            continue
        if before.table.game.result_kind is ResultKind.TEAM:
            rows.append(_row(before, "win rate", _win_rate(before), _win_rate(after),
                             compare_game_metric(before, after, "won")))
            continue
        for seat, (old, new) in enumerate(zip(seat_summary(before), seat_summary(after),
                                              strict=True)):
            change = difference(Estimate(**new["win_share"]), Estimate(**old["win_share"]),
                                _seat_shares(after, seat), _seat_shares(before, seat))
            rows.append(_row(before, f"{old['name']}'s win share", old["win_share"]["value"],
                             new["win_share"]["value"], change))
    return rows


def _row(run: TableRun, number: str, base: float, changed: float, change: dict) -> dict:
    # Significant: the 95 % interval of the change leaves out no change at all.
    return {"table": run.table.label, "number": number, "base": base, "changed": changed,
            "difference": change, "significant": not change["low"] <= 0.0 <= change["high"]}


def _win_rate(run: TableRun) -> float:
    return run.totals.game_sum["won"] / run.totals.games


def _seat_shares(run: TableRun, seat: int) -> np.ndarray | None:
    """Seat ``seat``'s win share in each deal (the mean over its rotations on duplicate
    deals), for a difference paired by deal; ``None`` unless every deal's sums were kept."""
    if run.by_deal is None:
        return None
    units = run.by_deal.seat["win_units"][:, seat]
    return units / run.table.game.win_units / run.totals.games_per_deal


def answer(rows: list[dict], change: str) -> str:
    """The opening sentence: the largest change, and whether it (and others) are significant."""
    if not rows:
        return f"{change}: no table was played under both rule sets; nothing to compare."
    largest = max(rows, key=lambda r: abs(r["difference"]["value"]))
    significant = sum(r["significant"] for r in rows)
    said = (f"{change}: the largest change is {largest['number']} at {largest['table']}, "
            f"{100 * largest['base']:.1f} % -> {100 * largest['changed']:.1f} % "
            f"({points(largest['difference'])})")
    if not significant:
        return said + "; no change is significant at 95 %."
    return (said + f"; {significant} of {len(rows)} changes are significant at 95 %"
            + ("" if largest["significant"] else ", not this one") + ".")


def write_comparison(out: Path, rows: list[dict], facts: dict) -> Path:
    """Write ``report.md`` and ``compare.json`` into ``out``; the report's path.

    ``facts`` says what was compared: ``title``, ``experiment``, ``change`` (the flags),
    ``seed``, ``games_per_table``, ``rules``, ``only_base`` and ``only_changed`` (labels of
    tables played under one rule set only), ``skipped`` (sections left out) and
    ``command``.
    """
    out.mkdir(parents=True, exist_ok=True)
    summary = facts | {"headline": answer(rows, facts["change"]), "differences": rows}
    (out / NUMBERS).write_text(strict_json(summary))
    report = out / REPORT
    report.write_text(_markdown(summary))
    return report


def _markdown(summary: dict) -> str:
    rows = summary["differences"]
    lines = [f"# What if {summary['change']}? {summary['title']}", "",
             f"**{summary['headline']}**", "",
             f"Both rule sets were played on seed {summary['seed']} with "
             f"{', '.join(f'{g:,}' for g in sorted(set(summary['games_per_table'])))} games "
             f"per table: base rules `{summary['rules']}`, changed by `{summary['change']}`. "
             "Game i of a table is dealt alike under both, so each change is taken deal by "
             "deal (paired), unless every deal's sums were not kept (unpaired). Intervals are "
             "95 % each.", "",
             "| table | number | base | changed | change [95 % CI] | significant |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['table']} | {r['number']} | {100 * r['base']:.1f} % | "
              f"{100 * r['changed']:.1f} % | {points(r['difference'])} "
              f"({r['difference']['method']}) | {'yes' if r['significant'] else 'no'} |"
              for r in rows]
    significant = [r for r in rows if r["significant"]]
    lines += ["", "## Significant changes", ""]
    lines += ([f"- {r['number']} at {r['table']}: {points(r['difference'])}"
               for r in significant] or ["None: every interval includes no change."])
    lines += ["", f"Each interval holds with 95 % on its own: among {len(rows)} changes that "
              f"are all zero in truth, about {len(rows) / 20:.1f} would look significant by "
              "chance.", "", "## Not compared", ""]
    lines += [f"- {label}: played under the base rules only" for label in summary["only_base"]]
    lines += [f"- {label}: played under the changed rules only"
              for label in summary["only_changed"]]
    lines += [f"- {skipped}" for skipped in summary["skipped"]]
    lines += ["", "## Reproduce", "", f"    {summary['command']}", ""]
    return "\n".join(lines)
