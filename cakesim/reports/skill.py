"""The ``[skill]`` section: does the experiment's answer hold for weak and strong players?

Each headline table (the tables of the first table's strategy mix, as in the report's
headline, or the tables ``tables`` names) is re-played with every strength of a ladder of
built-in strategies (weakest first; by default the game's ``skill_ladder``) at every
seat. The first seat's verdict at each strength (the report's own: the same words, margin
and simultaneous level as its seat verdicts, so a row the report's tables play reads as
its table does) says whether the seat's verdict holds across skill.

Mixed-strength tables seat one player of each strength alone among ``reference`` players,
on duplicate deals, so that it sits once in every seat of every deal. Its win share in
the game of a deal where it sits first, minus its mean share over the deal's P games, is
what the first seat is worth to it (its *first-seat gain*), deal by deal; the strongest
strength's gain minus the weakest's, paired by deal, answers "does a stronger player gain
more from the first seat?".

The rows are ordinary tables of the experiment: run, cached, resumed and gated like the
others. A row an experiment table already plays (the same strategies at the same
players, variant, options and deal mode) is read from that table, not played twice.

Reading ``[skill]`` and placing its rows among the tables is ``cakesim.analyses.skill``;
this module analyses the rows' runs and presents them.
"""

import hashlib
import itertools
from pathlib import Path

import numpy as np

from cakesim.analyses.skill import SkillQuestion, parse
from cakesim.engine.project import shown_path
from cakesim.reports.answer import WORDS, Answer
from cakesim.reports.summaries import (
    difference,
    player_summary,
    seat_share,
    seat_verdict,
    verdict_family,
)
from cakesim.reports.summary_file import SUMMARY, read_summary
from cakesim.reports.text import percent, points, points_plus_minus, pp
from cakesim.stats.intervals import Estimate, mean_of, paired_difference

__all__ = ["SUPPLEMENT", "SkillQuestion", "analyse", "answer", "headline", "markdown", "numbers",
           "parse", "plot"]

SUPPLEMENT = True
"""The section adds to the experiment's answer: the report keeps its own headline."""

def analyse(experiment, runs, question: SkillQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """Per setting: each strength's first-seat gap to the fair share, each mixed strength's
    first-seat gain, the strongest minus the weakest gain, and the verdicts in words."""
    by_label = {run.table.label: run for run in runs}
    win_units = experiment.game.win_units
    family = verdict_family(experiment, runs)
    found = []
    for setting in question.settings:
        headline = by_label[setting.headline].table
        seat = experiment.game.seat_name(headline, 0).name
        rows = [_uniform_row(strength, by_label[label], experiment.margin, family)
                for strength, label in setting.uniform]
        gains = {strength: _gains(by_label[label], slot, win_units)
                 for strength, label, slot in setting.mixed}
        mixed = [{"strength": strength, "table": label, "player": slot + 1,
                  "games": by_label[label].totals.games, "deals": by_label[label].totals.deals,
                  "gain": mean_of(gains[strength]).as_dict(),
                  # The lone player's own share: a first seat worth little to a player
                  # who wins every game (or none) says nothing of its strength.
                  "share": player_summary(by_label[label])[slot]["win_share"]}
                 for strength, label, slot in setting.mixed]
        for row in (*rows, *mixed):
            row["shared"] = row["table"] not in experiment.section_tables
        spread = None
        if len(mixed) > 1:
            strong, weak = gains[mixed[-1]["strength"]], gains[mixed[0]["strength"]]
            spread = difference(mean_of(strong), mean_of(weak), strong, weak)
        verdicts = [(r["strength"], r["verdict"]) for r in rows]
        status = _status([v["word"] for _, v in verdicts])
        steps = (_trace_steps(setting, by_label, mixed, win_units) if question.trace
                 else [])
        found.append({
            "setting": setting.name, "headline": setting.headline, "players": headline.players,
            "variant": headline.variant, "options": dict(headline.options), "seat": seat,
            "rows": rows, "mixed": mixed, "strongest_minus_weakest": spread,
            "holds": status == "holds", "depends": status == "depends",
            "words": holds_sentence(seat, setting.name, verdicts),
            "mixed_words": (mixed_sentence(question.reference, [
                (m["strength"], m["gain"], m["share"]) for m in mixed], spread)
                if mixed and not question.trace else ""),
            "trace": steps, "trace_words": trace_sentence(setting.name, steps) if steps else ""})
    return {"strengths": list(question.strengths), "reference": question.reference,
            "mixed": question.mixed, "trace": question.trace, "tolerance": TOLERANCE,
            "settings": found}


TOLERANCE = 0.01
"""How far (1 pp) an answer may move between the strongest two levels of a trace, or the
stronger win beyond its fair share alone among the weaker, for the trace to call it
converged (the paired change within ±1 pp)."""


def _trace_steps(setting, by_label: dict, mixed: list[dict], win_units: int) -> list[dict]:
    """Each step up the trace (a strength and the one below it): every seat's win share
    at the upper level minus at the lower, paired by deal, with the largest first; and
    the upper strength's share alone among the lower, against the fair share."""
    uniform = dict(setting.uniform)
    alone = {m["strength"]: m for m in mixed}
    strengths = [strength for strength, _ in setting.uniform]
    steps = []
    for lower, upper in itertools.pairwise(strengths):
        low_run, high_run = by_label[uniform[lower]], by_label[uniform[upper]]
        players = high_run.table.players
        # Deal d is the same deal at every level (one seed), so the levels are compared on
        # the deals both played: the headline table may have played many more.
        deals = min(low_run.by_deal.deals, high_run.by_deal.deals)
        seats = [{"seat": seat + 1, "deals": deals, "method": "paired by deal",
                  **paired_difference(*(run.by_deal.seat["win_units"][:deals, seat]
                                        / (win_units * run.totals.games_per_deal)
                                        for run in (high_run, low_run))).as_dict()}
                 for seat in range(players)]
        share = alone[upper]["share"] if upper in alone else None
        gap = _gap(Estimate(**share), 1 / players) if share else None
        steps.append({
            "lower": lower, "upper": upper, "seats": seats, "alone_gap": gap,
            "largest": max(seats, key=lambda d: max(abs(d["low"]), abs(d["high"]))),
            "moved": moved(seats), "alone": share, "fair": 1 / players,
            # A paired interval narrows as 1/sqrt(deals): the deals at which the widest
            # seat's would be +-TOLERANCE, were its change zero.
            "deals_to_resolve": int(np.ceil(max(
                d["deals"] * ((d["high"] - d["low"]) / 2 / TOLERANCE) ** 2 for d in seats))),
            "stronger": _stronger(share, 1 / players) if share else "unknown"})
    return steps


def moved(seats: list[dict]) -> str:
    """``settled``: every change (an interval dict) lies within ±TOLERANCE with 95 %
    confidence; ``moving``: some change lies beyond it; else ``unresolved`` at this size."""
    if all(d["low"] >= -TOLERANCE and d["high"] <= TOLERANCE for d in seats):
        return "settled"
    if any(d["low"] > TOLERANCE or d["high"] < -TOLERANCE for d in seats):
        return "moving"
    return "unresolved"


def _stronger(share: dict, fair: float) -> str:
    """The upper strength alone among the lower: ``weaker`` (below fair), ``stronger``
    (beyond fair + TOLERANCE), ``converged`` (within it) or ``unresolved``."""
    if share["high"] < fair:
        return "weaker"
    if share["low"] > fair + TOLERANCE:
        return "stronger"
    if share["high"] <= fair + TOLERANCE:
        return "converged"
    return "unresolved"


MOVED = {"settled": "has stopped moving (every seat's share changed by less than 1 pp)",
         "moving": "is still moving by more than 1 pp",
         "unresolved": "is not resolved to ±1 pp at this many games"}
STRONGER = {"stronger": "still stronger (beyond fair + 1 pp)",
            "converged": "no stronger (within fair + 1 pp)",
            "weaker": "weaker (below fair)",
            "unresolved": "not resolved to fair + 1 pp", "unknown": "not measured"}


def trace_sentence(where: str, steps: list[dict]) -> str:
    """The last step of a setting's trace in words: whether the answer moved and whether
    the stronger level still beats the one below."""
    last = steps[-1]
    largest, share = last["largest"], last["alone"]
    alone = (f"; alone among {last['lower']} players, {last['upper']} wins {percent(share)} "
             f"(fair {100 * last['fair']:.1f} %): {STRONGER[last['stronger']]}"
             if share else "")
    resolve = (f"; about {last['deals_to_resolve']:,} deals a row would resolve it"
               if last["moved"] == "unresolved" else "")
    return (f"At {where}, from {last['lower']} to {last['upper']} the answer "
            f"{MOVED[last['moved']]} (largest: seat {largest['seat']}, "
            f"{points(largest)}{resolve}){alone}.")


def trace_headline(data: dict) -> str:
    """The trace's verdict over every setting: where the answer settled, still moves or is
    not resolved between the strongest two levels."""
    settings = data["settings"]
    last = settings[0]["trace"][-1]
    groups = {word: [s["setting"] for s in settings if s["trace"][-1]["moved"] == word]
              for word in MOVED}
    words = {"settled": "converged (within ±1 pp)", "moving": "still moving by more than 1 pp",
             "unresolved": "not resolved to ±1 pp"}
    clauses = [f"{words[word]} at {_listed(where)}" for word, where in groups.items() if where]
    weaker = weaker_at(data)
    levels = "the last two levels" if weaker else "the strongest two levels"
    text = (f"From {last['lower']} to {last['upper']}, {levels}, every seat's share is "
            + "; ".join(clauses) + ".")
    if weaker:
        text += (f" Alone among {last['lower']} players, {last['upper']} wins less than its "
                 f"fair share at {_listed(weaker)}: there it is not the stronger of the two, "
                 f"and the trace's levels are not ordered by strength.")
    return text


def trace_lead(data: dict) -> str:
    """How a quoting report introduces the trace's last level: as the trace's strongest
    unless it lost to the level below somewhere (``weaker_at``); players outside the trace
    may still beat it (reports/exploitability), so the lead never claims more."""
    if weaker_at(data):
        return "Under the last level of the skill trace, which is not the strongest everywhere,"
    return "Under the skill trace's strongest level,"


def weaker_at(data: dict) -> list[str]:
    """The settings where the trace's last level, alone among the level below, wins less
    than its fair share (95 %): there the last level is not the strongest tried."""
    return [s["setting"] for s in data["settings"] if s["trace"][-1]["stronger"] == "weaker"]


def _uniform_row(strength: str, run, margin: float, family: int) -> dict:
    """One strength at every seat: the first seat's win share minus the fair 1/P (95 %),
    and its verdict as the report judges its seats (``family`` verdicts together); and
    the worst seat, which under strong play need not be the first."""
    fair = 1 / run.table.players
    shares = [seat_share(run, seat).interval() for seat in range(run.table.players)]
    worst = min(range(len(shares)), key=lambda seat: shares[seat].value)
    return {"strength": strength, "table": run.table.label, "games": run.totals.games,
            "deals": run.totals.deals, "duplicate": run.table.duplicate,
            "share": shares[0].as_dict(), "gap": _gap(shares[0], fair),
            "verdict": seat_verdict(run, 0, margin, family),
            "seat_gaps": [_gap(share, fair) for share in shares],
            "worst": {"seat": worst + 1,
                      "name": run.table.game.seat_name(run.table, worst).name,
                      "share": shares[worst].as_dict(), "gap": _gap(shares[worst], fair)}}


def _gap(share: Estimate, fair: float) -> dict:
    """A win share minus the fair share, with its interval."""
    return Estimate(share.value - fair, share.low - fair, share.high - fair,
                    share.n).as_dict()


def _gains(run, player: int, win_units: int) -> np.ndarray:
    """Per deal: ``player``'s win share in the game it sits first, minus its mean share
    over the deal's games (one per seat: the table plays duplicate deals)."""
    rows = run.rows
    first = rows[(rows["player"] == player) & (rows["seat"] == 0)]
    at_first = np.bincount(first["deal"].to_numpy(), first["win_units"].to_numpy(np.float64),
                           run.by_deal.deals)
    mean = run.by_deal.player["win_units"][:, player] / run.totals.games_per_deal
    return (at_first - mean) / win_units


def _status(words: list[str]) -> str:
    """``holds`` (one verdict for every strength), ``depends`` (two strengths settle on
    different verdicts) or ``unsettled`` (the others differ only by inconclusive ones)."""
    settled = set(words) - {"inconclusive"}
    if len(settled) > 1:
        return "depends"
    return "holds" if len(set(words)) == 1 and settled else "unsettled"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def holds_sentence(seat: str, where: str, verdicts: list[tuple[str, dict]]) -> str:
    """Whether the first seat's verdict holds across strengths, in the report's verdict
    words: ``The first waiter is disadvantaged at 4P base for every strength tested (-2.1
    to -8.7 pp).`` or ``At 4P base the first waiter's verdict depends on skill:
    disadvantaged for random, fair for tuned.`` (``verdicts``: each strength's verdict,
    weakest first)."""
    words: dict[str, list[str]] = {}
    for strength, v in verdicts:
        words.setdefault(v["word"], []).append(strength)
    status = _status(list(words))
    if len(words) > 1:
        parts = ", ".join(f"{WORDS[word]} for {_listed(names)}" for word, names in words.items())
        said = "depends on skill" if status == "depends" else "is not settled for every strength"
        return f"At {where} the {seat}'s verdict {said}: {parts}."
    values = sorted((100 * v["gap"]["value"] for _, v in verdicts), key=abs)
    span = (f"{values[0]:+.1f} pp" if len(values) == 1
            else f"{values[0]:+.1f} to {values[-1]:+.1f} pp")
    tested = ("every strength tested" if len(verdicts) > 1
              else f"the one strength tested, {verdicts[0][0]}")
    if status == "unsettled":
        return f"At {where} the {seat}'s verdict is inconclusive for {tested} ({span})."
    return f"The {seat} is {WORDS[next(iter(words))]} at {where} for {tested} ({span})."


def mixed_sentence(reference: str, gains: list[tuple[str, dict, dict]],
                   spread: dict | None) -> str:
    """One player alone among ``reference`` players, per strength (weakest first): its
    win share and what the first seat is worth to it, and whether the strongest gains
    more from the first seat than the weakest (``spread``: their difference)."""
    parts = [f"{strength} never wins, so no seat is worth anything to it"
             if share["value"] == 0 else
             f"{strength} wins {percent(share)}, its first seat worth {points(gain)}"
             for strength, gain, share in gains]
    text = f"Alone among {reference} players: " + "; ".join(parts) + "."
    if spread is None:
        return text
    strong, weak = gains[-1][0], gains[0][0]
    moved = ("the stronger player gains more from the first seat" if spread["low"] > 0 else
             "the stronger player gains less from the first seat" if spread["high"] < 0 else
             "no detectable difference")
    return f"{text} {strong} minus {weak}: {points(spread)} ({spread['method']}): {moved}."


def headline(data: dict) -> str:
    """Whether the first seat's verdict holds across strengths, over every setting."""
    settings = data["settings"]
    seat, strengths = settings[0]["seat"], _listed(data["strengths"])
    groups = [("depends on skill", [s["setting"] for s in settings if s["depends"]]),
              ("holds for every strength", [s["setting"] for s in settings if s["holds"]]),
              ("is not settled for every strength", [
                  s["setting"] for s in settings if not (s["depends"] or s["holds"])])]
    # The strengths are named once, in the first clause.
    clauses = [f"{said}{'' if k else f' ({strengths})'} at {_listed(where)}"
               for k, (said, where) in enumerate(g for g in groups if g[1])]
    return f"The {seat}'s verdict " + "; it ".join(clauses) + "."


def quoted_trace(folder: Path) -> dict:
    """What a report quotes of the skill trace whose report is in ``folder``: its verdict
    in words, and the SHA-256 of its summary (the quote is as current as that file)."""
    name = folder.name
    path = folder / SUMMARY
    if not path.exists():
        return {"experiment": name, "words": f"the skill trace {name} is not run yet "
                                             f"(make experiment EXP={name})."}
    trace = read_summary(folder)["sections"]["skill"]
    settings = trace["settings"]
    last = settings[0]["rows"][-1]
    gaps = ", ".join(f"{s['setting']} {pp(s['rows'][-1]['gap'])}" for s in settings)
    weaker = weaker_at(trace)
    return {"experiment": name, "summary": shown_path(path),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "lead": trace_lead(trace),
            "words": f"{last['strength']} at every seat (the skill trace {name}, "
                     f"{last['games']:,} games a row): the {settings[0]['seat']}'s gap "
                     f"to fair is {gaps}; the worst seat is {_worst_seats(trace)}. "
                     f"{trace_headline(trace)} {_beaten(trace)}",
            "line": f"{'Last level tried' if weaker else 'Strongest tried'}, "
                    f"{last['strength']} ({_settled(trace)}): "
                    f"{settings[0]['seat']} {gaps}."}


def _settled(data: dict) -> str:
    """The trace's last step over every setting in a few words, for one-line answers."""
    moved = {s["trace"][-1]["moved"] for s in data["settings"]}
    if moved == {"settled"}:
        return "converged within ±1 pp"
    return "still moving" if "moving" in moved else "not resolved to ±1 pp"


def _beaten(data: dict) -> str:
    """By how much the trace's first and last steps beat the level below, alone among it
    (its share minus fair over the settings): how far the weaker players are from what
    the stronger can take from them."""
    steps = data["settings"][0]["trace"]
    said = []
    for k in dict.fromkeys((0, len(steps) - 1)):
        gaps = [100 * s["trace"][k]["alone_gap"]["value"] for s in data["settings"]
                if s["trace"][k]["alone_gap"]]
        if gaps:
            said.append(f"alone among {steps[k]['lower']} players, {steps[k]['upper']}'s win "
                        f"share is {_around_fair(min(gaps), max(gaps))} (by setting)")
    text = "; ".join(said)
    return f"{text[:1].upper()}{text[1:]}." if said else ""


def _around_fair(low: float, high: float) -> str:
    """A range of gaps to fair (pp) in words: ``1.5 pp below to 2.8 pp above fair``."""
    if low >= 0:
        return f"{low:.1f} to {high:.1f} pp above fair"
    if high <= 0:
        return f"{-high:.1f} to {-low:.1f} pp below fair"
    return f"{-low:.1f} pp below to {high:.1f} pp above fair"


def strongest_worst(data: dict) -> str:
    """The worst seat of each setting with the strongest level at every seat, in words:
    under strong play it need not be the first seat."""
    strongest = data["settings"][0]["rows"][-1]["strength"]
    return f"The worst seat with {strongest} at every seat: {_worst_seats(data)}."


def _worst_seats(data: dict) -> str:
    """``2P base the first waiter (-7.3 pp [-10.2, -4.2]), 5P base seat 3 (...)``: each
    setting's worst seat at the strongest level, with its gap to fair and that seat's 95 %
    interval (the lowest of P shares reads low by chance too: the interval says how far)."""
    parts = []
    for s in data["settings"]:
        worst = s["rows"][-1]["worst"]
        name = worst["name"] if worst["name"].startswith("seat") else f"the {worst['name']}"
        parts.append(f"{s['setting']} {name} ({points(worst['gap'])})")
    return ", ".join(parts)


def numbers(data: dict) -> dict[str, dict]:
    """The mixed tables' first-seat gains and their spreads, for baselines (each strength's
    first-seat share is gated with its table already)."""
    found = {}
    for s in data["settings"]:
        for m in s["mixed"]:
            found[f"skill | {m['table']} | first-seat win share gain"] = m["gain"]
        spread = s["strongest_minus_weakest"]
        if spread is not None:
            found[f"skill | {s['setting']} | first-seat win share gain, "
                  f"{s['mixed'][-1]['strength']} minus {s['mixed'][0]['strength']}"] = {
                k: spread[k] for k in ("value", "low", "high", "n")}
    return found


def answer(data: dict, summary: dict) -> Answer:
    """Skill robustness as the answer: whether the first seat's verdict holds per setting,
    and the first seat's gap to fair per strength (``answer = "skill"``); of a trace,
    whether the answer stopped moving, and each step's largest change."""
    settings = data["settings"]
    if data.get("trace"):
        rows = [[f"{step['lower']} to {step['upper']}",
                 *[points_plus_minus(s["trace"][k]["largest"]) for s in settings]]
                for k, step in enumerate(settings[0]["trace"])]
        opening, worst = trace_headline(data), strongest_worst(data)
        return Answer(" ".join([opening, *(s["trace_words"] for s in settings), worst]),
                      f"{opening} {worst}",
                      ["largest change of a seat's share", *[s["setting"] for s in settings]],
                      rows, names_worst=True)
    rows = [[strength, *[points_plus_minus(s["rows"][k]["gap"]) for s in settings]]
            for k, strength in enumerate(data["strengths"])]
    return Answer(" ".join([headline(data), *(s["words"] for s in settings)]), headline(data),
                  ["strength", *[s["setting"] for s in settings]], rows)


def markdown(data: dict, plot: str) -> list[str]:
    """The section: the verdicts in words, the plot, and each number in a table."""
    settings = data["settings"]
    seat = settings[0]["seat"]
    lines = ["## Skill: does the answer hold for weak and strong players?", "",
             f"**{headline(data)}**", ""]
    lines += [f"- {s['words']}" + (f" {s['mixed_words']}" if s["mixed_words"] else "")
              for s in settings]
    lines += ["", f"![skill]({plot})", "",
              f"The {seat}'s win share minus the fair share 1/P, in percentage points, with "
              "one built-in strategy at every seat (strengths weakest first; 95 % intervals "
              "by deal, as the report's tables print them). The verdicts above are the "
              "report's own, read as its seat verdicts are: from the same interval widened "
              "to hold simultaneously for every seat of the report's tables, at its "
              "fairness margin. A row the report's tables play has its table's verdict.", "",
              _header(settings), _rule(settings)]
    for k, strength in enumerate(data["strengths"]):
        lines.append(f"| {strength} | " + " | ".join(
            points_plus_minus(s["rows"][k]["gap"]) for s in settings) + " |")
    if data.get("trace"):
        lines += _trace_markdown(data)
    elif any(s["mixed"] for s in settings):
        mixed = [m["strength"] for m in settings[0]["mixed"]]
        lines += ["", f"One player of each strength alone among {data['reference']} "
                  "players, on duplicate deals (it sits once in every seat of every deal): its "
                  "win share in the game where it sits first minus its mean share over the "
                  "deal's games, deal by deal, in percentage points (95 % intervals)."
                  + (f" {data['reference']} among {data['reference']} is the first table's "
                     f"{data['reference']} row: with one strength at every seat, what the "
                     "first seat is worth is its gap to the fair share."
                     if data["reference"] in data["strengths"] else ""), "",
                  _header(settings, f"alone among {data['reference']}"), _rule(settings)]
        for k, strength in enumerate(mixed):
            lines.append(f"| {strength} | " + " | ".join(
                points_plus_minus(s["mixed"][k]["gain"]) for s in settings) + " |")
        if len(mixed) > 1:
            lines.append(f"| {mixed[-1]} minus {mixed[0]} | " + " | ".join(
                points_plus_minus(s["strongest_minus_weakest"]) for s in settings) + " |")
    shared = sorted({f"`{r['table']}`" for s in settings for r in (*s["rows"], *s["mixed"])
                     if r["shared"]})
    if shared:
        lines += ["", "Rows the experiment already plays are read from its tables: "
                  + ", ".join(shared) + "."]
    return [*lines, ""]


def _trace_markdown(data: dict) -> list[str]:
    """The trace's tables: each step's largest change of a seat's share, and the stronger
    level's share alone among the level below."""
    settings = data["settings"]
    steps = settings[0]["trace"]
    lines = ["", "### The trace", "", f"**{trace_headline(data)}**", ""]
    lines += [f"- {s['trace_words']}" for s in settings]
    strongest = settings[0]["rows"][-1]["strength"]
    lines += ["", f"{strongest_worst(data)} Each seat's win share minus the fair 1/P with "
              f"{strongest} at every seat, the worst seat's in bold (percentage points, 95 % "
              "intervals by deal):", "", _header(settings, "seat"), _rule(settings)]
    for seat in range(max(s["players"] for s in settings)):
        lines.append(f"| {seat + 1} | " + " | ".join(_seat_cell(s["rows"][-1], seat)
                                                    for s in settings) + " |")
    lines += ["", "Each step up the trace: every seat's win share with the step's upper level "
              "at every seat minus with its lower, paired by deal on the deals both played "
              "(deal d is the same deal at every level); the seat whose 95 % interval "
              "reaches furthest from zero, in percentage points. The answer has stopped "
              "moving where that interval lies within ±1 pp.",
              "", _header(settings, "step"), _rule(settings)]
    lines += [f"| {step['lower']} to {step['upper']} | " + " | ".join(
        f"seat {s['trace'][k]['largest']['seat']}: {points_plus_minus(s['trace'][k]['largest'])}"
        for s in settings) + " |" for k, step in enumerate(steps)]
    lines += ["", "Each step's upper level alone among players of the level below, on "
              "duplicate deals (it sits once in every seat of every deal): its win share minus "
              "the fair 1/P, in percentage points (95 % intervals). To be the stronger it must "
              "win at least its fair share; where it wins no more than fair + 1 pp, strength "
              "has converged.", "",
              _header(settings, "step"), _rule(settings)]
    lines += [f"| {step['upper']} among {step['lower']} | " + " | ".join(
        points_plus_minus(s["trace"][k]["alone_gap"]) if s["trace"][k]["alone_gap"] else "-"
        for s in settings) + " |" for k, step in enumerate(steps)]
    return lines


def _seat_cell(row: dict, seat: int) -> str:
    """A seat's gap to fair in a uniform row, in bold for its worst seat; ``-`` past the
    row's player count."""
    if seat >= len(row["seat_gaps"]):
        return "-"
    cell = points_plus_minus(row["seat_gaps"][seat])
    return f"**{cell}**" if row["worst"]["seat"] == seat + 1 else cell


def _header(settings: list[dict], corner: str = "strength") -> str:
    return f"| {corner} | " + " | ".join(s["setting"] for s in settings) + " |"


def _rule(settings: list[dict]) -> str:
    return "|---|" + "---|" * len(settings)


def plot(data: dict, runs, summary: dict, out) -> str:
    """The first seat's gap per strength, a line per setting (left), and the mixed tables'
    first-seat gains per strength (right): one figure, skill.png."""
    from cakesim.reports.figures import new_figure, save_figure

    settings = data["settings"]
    # A trace's levels need not be ordered by strength (``weaker_at``); a ladder's are.
    order = "the trace's order" if data.get("trace") else "weakest first"
    panels = [("rows", "gap", data["strengths"], f"strength at every seat ({order})",
               f"{settings[0]['seat']}'s win share\nminus the fair 1/P (pp)",
               "one strength at every seat")]
    if data.get("trace"):
        uppers = [step["upper"] for step in settings[0]["trace"]]
        panels += [("trace", "largest", uppers, "the upper level of each step",
                    "largest change of a seat's\nshare from the level below (pp)",
                    "how far the answer moves (band: ±1 pp)"),
                   ("trace", "alone_gap", uppers, "the upper level of each step",
                    "its win share alone among the\nlevel below minus 1/P (pp)",
                    "each level alone among the one below")]
    elif any(s["mixed"] for s in settings):
        panels.append(("mixed", "gain", [m["strength"] for m in settings[0]["mixed"]],
                       "the lone player's strength (weakest first)",
                       "its win share when first minus\nits mean over all seats (pp)",
                       f"one player alone among {data['reference']}"))
    widest = max(len(p[2]) for p in panels)
    fig, axes = new_figure(1, len(panels), squeeze=False,
                           figsize=(2.6 + 2.9 * len(panels) + 0.35 * widest, 4.2))
    counts = sorted({s["players"] for s in settings})
    variants = list(dict.fromkeys(s["variant"] for s in settings))
    colours = {p: f"C{k}" for k, p in enumerate(counts)}
    for ax, (kind, number, strengths, xlabel, ylabel, title) in zip(axes[0], panels,
                                                                      strict=True):
        for k, s in enumerate(settings):
            # Side by side, so that the error bars of one strength do not hide each other.
            shift = 0.3 * (k - (len(settings) - 1) / 2) / max(len(settings), 1)
            # A step without a lone row (its stronger level equals the weaker) is left out.
            e = [row[number] or {"value": np.nan, "low": np.nan, "high": np.nan}
                 for row in s[kind]]
            y = np.array([100 * x["value"] for x in e])
            style = variants.index(s["variant"])
            low, high = (np.array([100 * x[end] for x in e]) for end in ("low", "high"))
            ax.errorbar(np.arange(len(e)) + shift, y, capsize=3,
                        yerr=[np.maximum(y - low, 0), np.maximum(high - y, 0)],
                        color=colours[s["players"]], marker="osD^v"[style % 5],
                        linestyle=["-", "--", ":", "-."][style % 4], label=s["setting"])
        ax.axhline(0, color="black", linewidth=1)
        if number == "largest":
            ax.axhspan(-100 * data["tolerance"], 100 * data["tolerance"], color="0.85")
        ax.set_xticks(range(len(strengths)), strengths, rotation=20)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))
    return save_figure(fig, summary, "the first seat by player strength", out / "skill.png").name
