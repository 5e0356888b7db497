"""The ``[assumptions]`` section: what the answer rests on, and the answer under the other
reading of each assumption that was measured.

Each measured assumption re-plays every headline table under its other reading on the
same deals (``cakesim.analyses.assumptions``). The section sets each table's headline
number side by side (the first seat's win share; a lone player's share at a table of
several strategies; the win rate in a team game) with the change, paired by deal with a
95 % interval. The players are the same: a strategy tuned for the published reading is
not re-tuned for the other, so a change is what the reading does to these players. The
answer *depends* on an assumption when that change is at least the fairness margin and
its interval excludes zero.

Reading ``[assumptions]`` and placing its rows among the tables is
``cakesim.analyses.assumptions``; this module analyses the rows' runs and presents them.
"""

import numpy as np

from cakesim.analyses.assumptions import AssumptionsQuestion, parse
from cakesim.engine.contract import ResultKind
from cakesim.reports.summaries import difference, first_seat_share, player_summary
from cakesim.reports.text import percent, points
from cakesim.stats.intervals import Estimate, by_deal

__all__ = ["SUPPLEMENT", "SUPPLEMENT_LEAD", "AssumptionsQuestion", "analyse", "headline",
           "markdown", "numbers", "parse", "plot"]

SUPPLEMENT = True
"""The section adds to the experiment's answer which readings it rests on."""
SUPPLEMENT_LEAD = "Assumptions:"

KIND_WORDS = {"reading": "a reading of the rules", "invented": "invented by cakesim",
              "parameter": "a model parameter"}


def _number(run, seats: bool) -> tuple[Estimate, np.ndarray | None]:
    """A table's headline number and its per-deal values (``None`` unless kept): the win
    rate of a team game; else the first seat's win share, or player 1's when the table
    seats several strategies (a lone player's share is the answer there)."""
    t, game = run.totals, run.table.game
    if not seats:
        values = run.by_deal.game["won"] if run.by_deal is not None else None
        estimate = by_deal(float(t.game_sum["won"]), float(t.game_sq["won"]), t.deals,
                           t.games_per_deal)
    elif len({s.name for s in run.table.strategies}) == 1:
        estimate = first_seat_share(run)
        values = run.by_deal.seat["win_units"][:, 0] if run.by_deal is not None else None
    else:
        estimate = Estimate(**player_summary(run)[0]["win_share"])
        values = run.by_deal.player["win_units"][:, 0] if run.by_deal is not None else None
    if values is not None and seats:
        values = values / game.win_units
    return estimate, None if values is None else values / t.games_per_deal


def _what(run, seats: bool) -> str:
    """What ``_number`` measures at ``run``'s table, in words."""
    if not seats:
        return "win rate"
    if len({s.name for s in run.table.strategies}) == 1:
        return "first seat's win share"
    return f"{run.table.strategies[0].name}'s win share"


def analyse(experiment, runs, question: AssumptionsQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """Per assumption: its words and, when measured, per headline table the number under
    the published reading and the other, and the change paired by deal."""
    by_label = {run.table.label: run for run in runs}
    seats = experiment.game.result_kind is ResultKind.SEATS
    margin = experiment.margin
    found = []
    for assumption in question.assumptions:
        rows = []
        for headline, label in assumption.rows:
            base, other = by_label[headline], by_label[label]
            (published, before), (changed, after) = _number(base, seats), _number(other, seats)
            change = difference(changed, published, after, before)
            depends = (abs(change["value"]) >= margin
                       and not change["low"] <= 0 <= change["high"])
            rows.append({"table": headline, "other_table": label, "number": _what(base, seats),
                         "published": published.as_dict(), "other": changed.as_dict(),
                         "change": change, "depends": depends})
        found.append({"name": assumption.name, "says": assumption.says,
                      "kind": assumption.kind, "other": list(assumption.other), "rows": rows,
                      "depends": any(r["depends"] for r in rows)})
    return {"assumptions": found, "margin": margin}


def headline(data: dict) -> str:
    """Which measured assumptions the answer depends on, in one line."""
    measured = [a for a in data["assumptions"] if a["rows"]]
    depends = [a["name"] for a in measured if a["depends"]]
    margin = f"{100 * data['margin']:g} pp"
    if not measured:
        names = ", ".join(a["name"] for a in data["assumptions"])
        return f"none of the assumptions listed ({names}) was measured under another reading."
    if not depends:
        return (f"Under every other reading measured ({', '.join(a['name'] for a in measured)})"
                f" the headline numbers move by less than {margin}, or not clearly.")
    return (f"The answer depends on {', '.join(depends)}: under the other reading a headline "
            f"number moves by {margin} or more at some tables.")


def numbers(data: dict) -> dict[str, dict]:
    """Each row's change under the other reading, for baselines."""
    return {f"assumptions | {a['name']} | {r['table']} | change": {
        k: r["change"][k] for k in ("value", "low", "high", "n")}
        for a in data["assumptions"] for r in a["rows"]}


def markdown(data: dict, plot) -> list[str]:
    """The section: every assumption in words, then each measured one's table."""
    lines = ["## Assumptions the answer rests on", "", f"**{headline(data)}**", ""]
    for a in data["assumptions"]:
        other = (f" Other reading measured: `--set {' --set '.join(a['other'])}`."
                 if a["other"] else " Not measured under another reading.")
        lines.append(f"- **{a['name']}** ({KIND_WORDS[a['kind']]}): {a['says']}{other}")
    for a in data["assumptions"]:
        if not a["rows"]:
            continue
        lines += ["", f"### If {a['name']} reads otherwise", "",
                  f"Each headline table's number under the published reading and under "
                  f"`{' '.join(a['other'])}`, on the same deals and with the same players "
                  "(not re-tuned for the other reading); the change is paired by deal (95 % "
                  "intervals). The answer depends on it where the change is at least "
                  f"{100 * data['margin']:g} pp and its interval excludes 0.", "",
                  "| table | number | published | other reading | change | depends |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {r['table']} | {r['number']} | {percent(r['published'])} | "
                  f"{percent(r['other'])} | {points(r['change'])} | "
                  f"{'yes' if r['depends'] else 'no'} |" for r in a["rows"]]
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> None:
    """No figure: the tables say it."""
    return None
