"""``cakesim balance``'s report: the smallest rule change found, the race that found it,
and its confirmation on fresh deals against the published rules."""

from pathlib import Path

from cakesim.engine.project import strict_json
from cakesim.reports.figures import error_bars, legend_outside, new_figure, save_figure
from cakesim.reports.html import write_html
from cakesim.reports.text import points

REPORT = "report.md"
NUMBERS = "balance.json"
PLOT = "balance.png"
STATUS_COLOURS = {"out": "tab:gray", "open": "tab:orange", "in": "tab:green"}
"""A raced candidate's colour in the plot, by its status after its last round."""
VERDICTS = {"meets": "meets the target", "likely": "likely meets the target (not yet clear)",
            "none": "no candidate meets the target"}


def answer(facts: dict) -> str:
    """The report's first line: what to change, and what the fresh deals say of it."""
    pick, margin = facts["pick"], 100 * facts["margin"]
    confirmed = facts["confirmation"]["changed"]
    fair = sum(s["verdict"]["word"] == "fair" for s in confirmed["seats"])
    seats = len(confirmed["seats"])
    worst = 100 * confirmed["worst_gap"]
    tables = ", ".join(facts["tables"])
    fresh = (f"on {facts['confirm_games']:,} fresh deals a table, {fair} of {seats} seats are "
             f"shown fair within ±{margin:g} pp (the worst {worst:.1f} pp from fair)")
    if len(facts["parts"]) > 1:
        clauses = "; ".join(f"at {', '.join(p['tables'])}, {_part_verdict(p)}"
                            for p in facts["parts"])
        made = f"With every change made ({pick['describe']})" if pick["changes"] else (
            "With the published rules")
        return f"Each part of the search alone: {clauses}. {made}, {fresh}.{_adapted(facts)}"
    if facts["verdict"] == "none":
        return (f"No candidate in the space makes every seat fair within ±{margin:g} pp at "
                f"{tables}; the closest is {pick['describe']}: {fresh}.{_adapted(facts)}")
    if not pick["changes"]:
        meet = {"meets": "meet", "likely": "likely meet"}[facts["verdict"]]
        return f"The published rules already {meet} the target in the race at {tables}: {fresh}."
    count = len(pick["changes"])
    lead = "Change one thing" if count == 1 else f"Change {count} things"
    return (f"{lead}: {pick['describe']} ({VERDICTS[facts['verdict']]} at {tables}): "
            f"{fresh}.{_adapted(facts)}")


def _part_verdict(part: dict) -> str:
    """What one part's race found, in words."""
    pick, verdict = part["pick"]["describe"], part["verdict"]
    if not part["parameters"]:
        return {"meets": "which no parameter changes, the published rules meet the target",
                "likely": "which no parameter changes, the published rules likely meet the "
                          "target (not yet clear)",
                "none": "which no parameter changes, the published rules miss the "
                        "target"}[verdict]
    if verdict == "none":
        return f"no candidate meets the target (the closest: {pick})"
    if not part["pick"]["changes"]:
        return {"meets": "the published rules meet the target",
                "likely": "the published rules likely meet the target (not yet clear)"}[verdict]
    return f"{pick} {VERDICTS[verdict]}"


def _adapted(facts: dict) -> str:
    """The answer's sentence on the players who adapt, if they played."""
    numbers = facts.get("adaptation")
    if numbers is None:
        return ""
    seats = numbers["changed"]["seats"]
    fair = sum(s["verdict"]["word"] == "fair" for s in seats)
    before, after = (100 * numbers[k]["worst_gap"] for k in ("published", "changed"))
    tables = ", ".join(sorted({s["table"] for s in seats}))
    return (f" At {tables} ({facts['adapt_games']:,} deals a table), the worst seat is "
            f"{after:.1f} pp from fair under the change against {before:.1f} pp under the "
            f"published rules; {fair} of {len(seats)} seats shown fair within "
            f"±{100 * facts['margin']:g} pp.")


def write_balance(out: Path, facts: dict) -> Path:
    """Write ``report.md`` and ``balance.json`` into ``out``; the report's path.

    ``facts``: ``title``, ``experiment``, ``seed``, ``confirm_seed``, ``margin``,
    ``tables``, ``parts`` (each with its ``tables``, ``parameters``, ``candidates`` and
    their ``rounds``, ``pick``, ``verdict``, ``race_games`` and ``budget``), ``pick`` (the
    parts' picks joined), ``verdict``, ``race_games``, ``confirm_games``,
    ``confirmation`` (``published`` and
    ``changed`` standings, ``differences``), ``files`` (SHA-256 of the published rule
    files), ``command`` and ``compare_command`` (the pick against the published rules).
    """
    out.mkdir(parents=True, exist_ok=True)
    summary = facts | {"headline": answer(facts)}
    (out / NUMBERS).write_text(strict_json(summary))
    plot_balance(out / PLOT, summary)
    report = out / REPORT
    report.write_text(_markdown(summary))
    write_html(report)
    return report


def plot_balance(path: Path, s: dict) -> Path:
    """One row a part: every raced candidate's worst seat (its gap from fair, after its
    last round) against its distance to the published rules, or against the parameter's
    value when the part has one number to change (the response curve); and the part's
    seats on fresh deals under the published rules and under the pick."""
    parts = [p for p in s["parts"] if p["parameters"]] or s["parts"]
    fig, axes = new_figure(len(parts), 2, figsize=(10, 3.3 * len(parts) + 0.8), squeeze=False,
                           width_ratios=[3, 2])
    margin = 100 * s["margin"]
    for (race, confirm), part in zip(axes, parts, strict=True):
        numeric = (len(part["parameters"]) == 1
                   and all(_is_number(v) for v in part["parameters"][0]["values"]))
        for status, colour in STATUS_COLOURS.items():
            shown = [c for c in part["candidates"] if c["rounds"][-1]["status"] == status]
            if not shown:
                continue
            worst = [max(c["seats"], key=lambda x: abs(x["gap"]["value"]))["gap"] for c in shown]
            xs = [_position(c, part, numeric) for c in shown]
            race.errorbar(xs, [100 * g["value"] for g in worst], yerr=error_bars(worst),
                          fmt="o", ms=4, capsize=2, color=colour,
                          label=f"candidate {status} after its last round")
        race.set_xlabel(part["parameters"][0]["key"] if numeric else
                        "distance to the published rules (parameters' steps summed)")
        race.set_ylabel("worst seat: gap from fair (pp)")
        race.set_title(f"{', '.join(part['tables'])}: the race", fontsize=9)
        seats = [(x, y) for x, y in zip(s["confirmation"]["published"]["seats"],
                                        s["confirmation"]["changed"]["seats"], strict=True)
                 if x["table"] in part["tables"]]
        labels = [f"{x['table'].split(' ')[0]} s{x['seat'] + 1}" for x, _ in seats]
        for offset, (name, which) in ((-0.15, ("the published rules", 0)),
                                      (0.15, ("the pick", 1))):
            gaps = [pair[which]["verdict"]["gap"] for pair in seats]
            confirm.errorbar([i + offset for i in range(len(seats))],
                             [100 * g["value"] for g in gaps], yerr=error_bars(gaps), fmt="s",
                             ms=4, capsize=2, color="tab:red" if which == 0 else "tab:blue",
                             label=f"{name}, fresh deals")
        confirm.set_xticks(range(len(seats)), labels, fontsize=8,
                           rotation=45 if len(seats) > 6 else 0)
        confirm.set_ylabel("gap from fair (pp)")
        confirm.set_title("confirmation, every seat", fontsize=9)
        for ax in (race, confirm):
            ax.axhspan(-margin, margin, color="tab:green", alpha=0.12, lw=0)
            ax.axhline(0, color="black", lw=0.6)
    legend_outside(fig, [ax for row in axes for ax in row])
    return save_figure(fig, s, f"the race and its confirmation (band ±{margin:g} pp; intervals "
                               "corrected over the seats judged together)", path,
                       intervals=False)


def _position(candidate: dict, part: dict, numeric: bool) -> float:
    """Where a candidate stands on the race panel's horizontal axis."""
    if not numeric:
        return candidate["distance"][1]
    key = part["parameters"][0]["key"]
    changed = dict(candidate["changes"]).get(key, part["parameters"][0]["published"])
    return float(changed)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _markdown(s: dict) -> str:
    margin = f"±{100 * s['margin']:g} pp"
    lines = [f"# Balancing {s['title']}", "", f"**{s['headline']}**", "",
             f"Target: every seat at {', '.join(s['tables'])} within {margin} of a fair 1/P "
             "(two one-sided tests at 95 %, Bonferroni over every target seat). The "
             "parameters searched:", ""]
    lines += [f"- `{p['key']}`: published {p['published']}; tried {', '.join(p['values'])}"
              for part in s["parts"] for p in part["parameters"]]
    lines += ["", "## The race", "",
              "Candidates run nearest to the published rules first (fewer changes, then "
              "smaller ones). Every round plays each candidate left on the same deals of "
              f"seed {s['seed']}, twice the games of the round before; a candidate with a "
              "seat clearly outside the band is dropped, and once one is clearly inside, "
              f"every farther one is. {s['race_games']:,} games in all."]
    if len(s["parts"]) > 1:
        lines += ["", "Parameters that change different tables race apart, each part on "
                      "its share of the budget; the answer joins the parts' picks."]
    for part in s["parts"]:
        lines += _race(part, len(s["parts"]) > 1)
    lines += ["", f"![The race and its confirmation]({PLOT})", "",
              "Left, every candidate raced: its worst seat's gap from fair after its last "
              "round, with the interval the verdict used (simultaneous over the candidate's "
              "seats). Right, every seat on fresh deals under the published rules and under "
              "the pick. The green band is the target.",
              "", "## Confirmation on fresh deals", "", *_confirmation(s)]
    lines += ["", *_adaptation(s)]
    lines += ["## Not done yet", "",
              "- The tuned players' weights were not re-tuned for the changed rules: the "
              "answer holds for the experiment's own players"
              f"{' (and, above, for the adapt tables)' if s.get('adaptation') else ''}.",
              "",
              "## Reproduce", "", f"    {s['command']}", ""]
    if s["pick"]["changes"]:
        lines += ["The pick alone against the published rules, on the experiment's deals:", "",
                  f"    {s['compare_command']}", ""]
    lines += ["The published rule files (SHA-256); a candidate changes them by its settings:",
              ""]
    lines += [f"- `{name}`: `{sha}`" for name, sha in s["files"].items()]
    return "\n".join([*lines, ""])


def _race(part: dict, titled: bool) -> list[str]:
    """One part's race: every candidate's last round."""
    changes = ", ".join(f"`{p['key']}`" for p in part["parameters"]) or "nothing to change"
    lines = ["", f"### {', '.join(part['tables'])}: {changes}", ""] if titled else [""]
    count = len(part["candidates"])
    lines += [f"{count} candidate{'s' * (count != 1)}, {part['race_games']:,} games "
              f"(budget {part['budget']:,}): {_part_verdict(part)}.", "",
              "| candidate | changes | games a table | worst seat from fair | status |",
              "|---|---|---:|---:|---|"]
    for index, c in enumerate(part["candidates"]):
        last = c["rounds"][-1]
        lines.append(f"| {index + 1} | {c['describe']} | {last['games']:,} | "
                     f"{100 * last['worst_gap']:.1f} pp | {last['status']} |")
    return lines


def _confirmation(s: dict) -> list[str]:
    """The pick against the published rules on fresh deals (the published rules alone when
    they are the pick)."""
    confirmation, fresh = s["confirmation"], (f"{s['confirm_games']:,} fresh deals a table "
                                              f"(seed {s['confirm_seed']}, which the race "
                                              "never played)")
    if not s["pick"]["changes"]:
        lines = [f"The published rules on {fresh}.", "", "| table | seat | win share | verdict |",
                 "|---|---|---:|---|"]
        return lines + [f"| {x['table']} | {x['name']} | {100 * x['share']:.1f} % | "
                        f"{x['verdict']['phrase']} |"
                        for x in confirmation["published"]["seats"]]
    return [f"The pick ({s['pick']['describe']}) and the published rules on {fresh}, each "
            "change paired by deal.", "", *_paired(confirmation)]


def _paired(numbers: dict) -> list[str]:
    """Every seat under the published rules and under the pick, the change paired by deal,
    and the pick's verdict."""
    lines = ["| table | seat | published | changed | change | verdict (changed) |",
             "|---|---|---:|---:|---|---|"]
    for row, after in zip(numbers["differences"], numbers["changed"]["seats"], strict=True):
        lines.append(f"| {row['table']} | {row['number']} | {100 * row['base']:.1f} % | "
                     f"{100 * row['changed']:.1f} % | {points(row['difference'])} | "
                     f"{after['verdict']['phrase']} |")
    return lines


def _adaptation(s: dict) -> list[str]:
    """The pick against the published rules with players who adapt (``adapt``), if any."""
    numbers = s.get("adaptation")
    if numbers is None:
        return []
    tables = sorted({row["table"] for row in numbers["differences"]})
    return ["## Adaptation: players who read the changed rules", "",
            f"The same pick and the published rules at {', '.join(tables)} (the section's "
            f"`adapt` tables), {s['adapt_games']:,} fresh deals a table (the confirmation's "
            "seed). Their players read the rules in force when they decide (a search player "
            "values every play-out by them), so they adapt to the change where players "
            "with fixed weights cannot: does the fix survive them?", "",
            *_paired(numbers), ""]
