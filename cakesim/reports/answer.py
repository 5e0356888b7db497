"""The answer to an experiment's question, which every report opens with.

An experiment declares what its answer is (``answer = "seat_bias"`` under
``[experiment]``): the seats' win shares against fair, a section's answer (the contrasts,
the ladder, Speedtorte's budgets) or one of the game's own (Speedtorte's card ranking).
Each kind gives an ``Answer``: one short paragraph in a designer's words and a small table
of exactly the numbers it speaks of. In a game with seats the worst seat is always named,
and control tables (random play) are set apart: they show what the rules alone do to
players who do not try, and are never the answer.
"""

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from cakesim.engine.contract import Game, ResultKind
from cakesim.reports.hooks import hooks_of
from cakesim.reports.text import percent, points, pp

SHARED = {ResultKind.SEATS: ("seat_bias",), ResultKind.TEAM: ("win_rate",)}
"""The answer kinds every game of a result kind has; the first is the default."""

WORDS = {"disadvantaged": "disadvantaged", "advantaged": "advantaged", "fair": "fair",
         "below": "below fair", "above": "above fair", "inconclusive": "inconclusive"}
"""A seat verdict's word as the answer's table shows it."""

CONTROLS = ("Control tables (random play) show what the rules alone do to players who do "
            "not try: a reference, never the answer.")


@dataclass
class Answer:
    """A paragraph and a small table: the report's opening and the index's line."""

    paragraph: str
    line: str
    """The answer in one line, for reports/index.md and the end of a run."""
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    names_worst: bool = False
    """True when the answer already names each setting's worst seat under the players it
    is about (a skill trace's strongest level): the report's overall worst seat, found
    among weaker players, would then mislead."""

    def as_dict(self) -> dict:
        """For summary.json (what the reader sees: the paragraph, line and table)."""
        found = asdict(self)
        del found["names_worst"]
        return found

    def markdown(self) -> list[str]:
        """The paragraph, then the table."""
        lines = [self.paragraph, ""]
        if self.rows:
            lines += ["| " + " | ".join(self.header) + " |",
                      "|" + "---|" * len(self.header)]
            lines += ["| " + " | ".join(row) + " |" for row in self.rows]
            lines.append("")
        return lines


def answer_kinds(game: Game, sections: dict) -> tuple[str, ...]:
    """Every answer an experiment of ``game`` with ``sections`` may open with; default first."""
    own = [name for name, module in sections.items() if hasattr(module, "answer")]
    return (*SHARED[game.result_kind], *own, *hooks_of(game).answers())


def answer(kind: str, game: Game, summary: dict, analyses: dict) -> Answer:
    """The answer of ``kind`` from a report's ``summary`` (its sections' data included)."""
    shared: dict[str, Callable[[dict], Answer]] = {"seat_bias": seat_bias,
                                                   "win_rate": win_rate}
    if kind in shared:
        found = shared[kind](summary)
    elif kind in analyses:
        found = analyses[kind].answer(summary["sections"][kind], summary)
    else:
        found = hooks_of(game).answers()[kind](summary)
    if game.result_kind is ResultKind.SEATS and kind != "seat_bias" and not found.names_worst:
        worst = worst_seat(summary)
        found.paragraph += f" {worst}"
        found.line = f"{found.line.rstrip('.')}. {worst}"
    for name, data in summary.get("sections", {}).items():
        # A supplement adds its headline after its lead: whether the answer holds for weak
        # and strong players alike (the skill ladder, Speedtorte's tiers), which readings
        # of the rules it depends on (the assumptions).
        module = analyses[name]
        if getattr(module, "SUPPLEMENT", False) and name != kind:
            lead = getattr(module, "SUPPLEMENT_LEAD", "Across player strengths:")
            found.paragraph += f" {lead} {module.headline(data)}"
        # A section may open the answers it names (``LEADS``) with its strongest players'
        # numbers (Speedtorte's tiers): the report's tables are about its default players.
        first = module.answer_lead(data) if kind in getattr(module, "LEADS", ()) else None
        if first is not None:
            found.paragraph = f"{first[0]} For comparison: {found.paragraph}"
            found.line = f"{first[1]} {found.line}"
    trace = summary.get("skill_trace")
    if trace and "sha256" not in trace:
        found.paragraph += f" Stronger players: {trace['words']}"
    elif trace:
        # The trace's last level comes first (called the strongest unless it lost to the
        # level below somewhere): the report's own tables are about its stock and tuned
        # bots, whose answer can move as players get stronger.
        found.paragraph = f"{trace['lead']} {trace['words']} " \
                          f"For comparison: {found.paragraph}"
        found.line = f"{trace['line']} {found.line}"
    if any(t["control"] for t in summary["tables"]):
        found.paragraph += f" {CONTROLS}"
    return found


# Seat bias ---------------------------------------------------------------------------

def _gap(seat: dict) -> dict:
    return seat["verdict"]["gap"]



def _side(seat: dict) -> str:
    """behind, ahead, fair or unclear: a seat's verdict in one word."""
    return {"disadvantaged": "behind", "below": "behind", "advantaged": "ahead",
            "above": "ahead", "fair": "fair", "inconclusive": "unclear"}[
        seat["verdict"]["word"]]


def _strategies(table: dict) -> str:
    return ", ".join(s["name"] for s in table["strategies"])


def _count(table: dict) -> str:
    return f"{table['players']}P"


def _first_seats(tables: list[dict]) -> str:
    """``behind at 2P (47.3 %, -2.7 pp) and 3P (...), ahead at 5P (...)``."""
    groups: dict[str, list[str]] = {}
    for t in tables:
        first = t["seats"][0]
        groups.setdefault(_side(first), []).append(
            f"{_count(t)} ({100 * first['win_share']['value']:.1f} %, {pp(_gap(first))})")
    words = {"behind": "behind", "ahead": "ahead", "fair": "fair within the margin",
             "unclear": "not yet clear"}
    return ", ".join(f"{words[side]} at {_and(parts)}" for side, parts in groups.items())


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" and {parts[-1]}"


BIASED = ("disadvantaged", "advantaged", "below", "above")
"""Verdicts of a seat clearly off its fair share (beyond the margin, or within it)."""


def _effect(base: dict, changed: dict, difference: dict, margin: float) -> str:
    """What a variant does to the first seat's gap, given the paired ``difference``: no
    clear change (its interval holds 0); to a fair seat: fixes it (it was biased), still
    fair, now fair (it was unclear); to a seat that was not biased: advantages or
    disadvantages it; to a biased seat: over-corrects, narrows or widens the gap."""
    before, after = _gap(base["seats"][0])["value"], _gap(changed["seats"][0])["value"]
    was = base["seats"][0]["verdict"]["word"]
    # Not biased before: the paired change says which way the variant pushes the seat.
    if difference["low"] <= 0 <= difference["high"]:
        return "no clear change"
    if changed["seats"][0]["verdict"]["word"] == "fair":
        return "fixes it" if was in BIASED else "still fair" if was == "fair" else "now fair"
    if was not in BIASED:
        return "advantages it" if difference["value"] > 0 else "disadvantages it"
    if before * after < 0 and abs(after) > margin:
        return "over-corrects"
    return "narrows the gap" if abs(after) < abs(before) else "widens the gap"


def _variant_sentences(summary: dict, tables: list[dict], role: str) -> list[str]:
    """Per variant: the first seat's paired change and what it does to the gap; a variant
    with no paired base table (its strategy differs, e.g. tuned for it) on its own."""
    by_label = {t["label"]: t for t in summary["tables"]}
    labels = {t["label"] for t in tables}
    variants: dict[str, list[str]] = {}
    paired = set()
    for c in summary["comparisons"]:
        if c["table"] not in labels:
            continue
        base, changed = by_label[c["base"]], by_label[c["table"]]
        paired.add(c["table"])
        d = c["first_seat_win_share_difference"]
        name = (c["variant"] if c.get("against", summary["base_variant"])
                == summary["base_variant"] else f"{c['variant']} (against {c['against']} alone)")
        variants.setdefault(name, []).append(
            f"at {_count(changed)} from {100 * base['seats'][0]['win_share']['value']:.1f} to "
            f"{100 * changed['seats'][0]['win_share']['value']:.1f} % ({pp(d)}: "
            f"{_effect(base, changed, d, summary['margin'])})")
    found = [f"The {variant} variant moves the {role} {_and(parts)}."
             for variant, parts in variants.items()]
    alone: dict[str, list[dict]] = {}
    for t in tables:
        if t["variant"] != summary["base_variant"] and t["label"] not in paired:
            alone.setdefault(t["variant"], []).append(t)
    found += [f"With the {variant} variant it is {_first_seats(group)}."
              for variant, group in alone.items()]
    return found


def worst_seat(summary: dict) -> str:
    """The worst seat of the report's tables (controls and section rows left out), named."""
    tables = [t for t in summary["tables"] if not t["control"]] or summary["tables"]
    # Worst against its own fair share: 9.6 % of a fair 20 % is worse than 36 % of 50 %.
    table, seat = min(((t, s) for t in tables for s in t["seats"]),
                      key=lambda pair: pair[1]["win_share"]["value"] * pair[0]["players"])
    share = seat["win_share"]["value"]
    name = seat["name"] if seat["name"].startswith("seat") else f"the {seat['name']}"
    return (f"Worst seat: {name} at {table['label']} wins "
            f"{100 * share:.1f} % against a fair {100 / table['players']:.1f} % "
            f"({points(_gap(seat))}; {100 * share * table['players']:.0f} % of its fair "
            "share).")


def seat_bias(summary: dict) -> Answer:
    """The first seat's gap to fair per player count, what each variant does to it, the
    other strategy mixes in brief, and the worst seat."""
    tables = [t for t in summary["tables"] if not t["control"]]
    head = [t for t in tables if t["headline"]]
    role = head[0]["seats"][0]["name"]
    base = summary["base_variant"]
    sentences = [f"With {_strategies(head[0])} players at every seat the {role} is "
                 f"{_first_seats([t for t in head if t['variant'] == base])} (win share, "
                 "gap to the fair 1/P)."]
    sentences += _variant_sentences(summary, head, role)
    others: dict[str, list[dict]] = {}
    for t in tables:
        if not t["headline"]:
            others.setdefault(_strategies(t), []).append(t)
    for mix, group in others.items():
        sentences.append(f"With {mix} players it is "
                         f"{_first_seats([t for t in group if t['variant'] == base])}.")
        sentences += _variant_sentences(summary, group, role)
    worst = worst_seat(summary)
    firsts = "; ".join(f"{_count(t)}{'' if t['variant'] == base else ' ' + t['variant']} "
                       f"{pp(_gap(t['seats'][0]))}" for t in head)
    line = (f"{role.capitalize()} against fair, {_strategies(head[0])}: {firsts}. {worst}")
    changes = {c["table"]: points(c["first_seat_win_share_difference"])
               for c in summary["comparisons"] if c.get("against", base) == base}
    rows = []
    for t in tables:
        first = t["seats"][0]
        worst_here = min(t["seats"], key=lambda s: _gap(s)["value"])
        rows.append([t["label"], percent(first["win_share"]), f"{100 / t['players']:.1f} %",
                     points(_gap(first)), WORDS[first["verdict"]["word"]],
                     changes.get(t["label"], "—"),
                     f"{worst_here['name']}: {points(_gap(worst_here))}"])
    return Answer(" ".join([*sentences, worst]), line,
                  ["table", f"{role}'s win share", "fair", "gap", "verdict",
                   f"change against {base} (paired by deal)", "worst seat's gap"], rows)


# Team games --------------------------------------------------------------------------

def _option(table: dict) -> str:
    return next(iter(table["options"].values()), table["label"])


def win_rate(summary: dict) -> Answer:
    """The first table's variant and bakers: win rate per table option (a level) and
    player count, and what every other variant changes (paired by deal)."""
    tables = summary["tables"]
    first = [t for t in tables if t["variant"] == tables[0]["variant"]
             and t["strategies"] == tables[0]["strategies"]]
    counts = sorted({t["players"] for t in first})
    options = list(dict.fromkeys(_option(t) for t in first))
    cell = {(_option(t), t["players"]): t["win_rate"] for t in first}
    rows = [[option, *[percent(cell[option, p]) if (option, p) in cell else "—"
                       for p in counts]] for option in options]
    hardest = min(first, key=lambda t: t["win_rate"]["value"])
    easiest = max(first, key=lambda t: t["win_rate"]["value"])
    sentences = [f"With {_strategies(tables[0])} bakers ({tables[0]['variant']}), the win "
                 f"rate runs from {100 * easiest['win_rate']['value']:.0f} % "
                 f"({easiest['label']}) down to {100 * hardest['win_rate']['value']:.0f} % "
                 f"({hardest['label']})."]
    sentences += _variant_changes(summary)
    line = " ".join(sentences[:2])
    corner = next(iter(first[0]["options"]), "table")
    return Answer(" ".join(sentences), line, [corner, *[f"{p}P" for p in counts]], rows)


def _variant_changes(summary: dict) -> list[str]:
    """Per variant and bakers: the range of its paired win-rate changes against the base
    variant, and how many are clearly non-zero."""
    bakers = {t["label"]: _strategies(t) for t in summary["tables"]}
    changes: dict[tuple[str, str], list[dict]] = {}
    for c in summary["comparisons"]:
        if c.get("against", summary["base_variant"]) == summary["base_variant"]:
            changes.setdefault((c["variant"], bakers.get(c["table"], "")), []).append(c)
    found = []
    for (variant, who), group in changes.items():
        values = [100 * c["win_rate_difference"]["value"] for c in group]
        clear = sum(1 for c in group if c["win_rate_difference"]["low"] > 0
                    or c["win_rate_difference"]["high"] < 0)
        found.append(f"{variant.replace('_', ' ').capitalize()} instead of "
                     f"{summary['base_variant']} "
                     f"({who} bakers) changes the win rate by {min(values):+.1f} to "
                     f"{max(values):+.1f} pp (paired by deal over {len(group)} tables; "
                     f"{clear} clearly non-zero).")
    return found
