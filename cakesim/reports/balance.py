"""``cakesim balance``'s report: the smallest rule change found, the race that found it,
and its confirmation on fresh deals against the published rules."""

from pathlib import Path

from cakesim.engine.project import strict_json
from cakesim.reports.text import points

REPORT = "report.md"
NUMBERS = "balance.json"
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
    if facts["verdict"] == "none":
        return (f"No candidate in the space makes every seat fair within ±{margin:g} pp at "
                f"{tables}; the closest is {pick['describe']}: {fresh}.")
    if not pick["changes"]:
        return f"The published rules already meet the target at {tables}: {fresh}."
    count = len(pick["changes"])
    lead = "Change one thing" if count == 1 else f"Change {count} things"
    return f"{lead}: {pick['describe']} ({VERDICTS[facts['verdict']]} at {tables}): {fresh}."


def write_balance(out: Path, facts: dict) -> Path:
    """Write ``report.md`` and ``balance.json`` into ``out``; the report's path.

    ``facts``: ``title``, ``experiment``, ``seed``, ``confirm_seed``, ``margin``,
    ``tables``, ``parameters``, ``candidates`` (each with its ``rounds``), ``pick``,
    ``verdict``, ``race_games``, ``confirm_games``, ``confirmation`` (``published`` and
    ``changed`` standings, ``differences``), ``files`` (SHA-256 of the published rule
    files), ``command`` and ``compare_command`` (the pick against the published rules).
    """
    out.mkdir(parents=True, exist_ok=True)
    summary = facts | {"headline": answer(facts)}
    (out / NUMBERS).write_text(strict_json(summary))
    report = out / REPORT
    report.write_text(_markdown(summary))
    return report


def _markdown(s: dict) -> str:
    margin = f"±{100 * s['margin']:g} pp"
    lines = [f"# Balancing {s['title']}", "", f"**{s['headline']}**", "",
             f"Target: every seat at {', '.join(s['tables'])} within {margin} of a fair 1/P "
             "(two one-sided tests at 95 %, Bonferroni over a candidate's seats). The "
             "parameters searched:", ""]
    lines += [f"- `{p['key']}`: published {p['published']}; tried {', '.join(p['values'])}"
              for p in s["parameters"]]
    lines += ["", "## The race", "",
              f"{len(s['candidates'])} candidates, nearest to the published rules first "
              "(fewer changes, then smaller ones). Every round plays each candidate left on "
              f"the same deals of seed {s['seed']}, twice the games of the round before; a "
              "candidate with a seat clearly outside the band is dropped, and once one is "
              "clearly inside, every farther one is. "
              f"{s['race_games']:,} games in all.", "",
              "| candidate | changes | games a table | worst seat from fair | status |",
              "|---|---|---:|---:|---|"]
    for index, c in enumerate(s["candidates"]):
        last = c["rounds"][-1]
        lines.append(f"| {index + 1} | {c['describe']} | {last['games']:,} | "
                     f"{100 * last['worst_gap']:.1f} pp | {last['status']} |")
    lines += ["", "## Confirmation on fresh deals", "", *_confirmation(s)]
    lines += ["", "## Not done yet", "",
              "- The players were not re-tuned for the changed rules: the answer holds for "
              "the experiment's own players.", "",
              "## Reproduce", "", f"    {s['command']}", ""]
    if s["pick"]["changes"]:
        lines += ["The pick alone against the published rules, on the experiment's deals:", "",
                  f"    {s['compare_command']}", ""]
    lines += ["The published rule files (SHA-256); a candidate changes them by its settings:",
              ""]
    lines += [f"- `{name}`: `{sha}`" for name, sha in s["files"].items()]
    return "\n".join([*lines, ""])


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
    lines = [f"The pick ({s['pick']['describe']}) and the published rules on {fresh}, each "
             "change paired by deal.", "",
             "| table | seat | published | changed | change | verdict (changed) |",
             "|---|---|---:|---:|---|---|"]
    for row, after in zip(confirmation["differences"], confirmation["changed"]["seats"],
                          strict=True):
        lines.append(f"| {row['table']} | {row['number']} | {100 * row['base']:.1f} % | "
                     f"{100 * row['changed']:.1f} % | {points(row['difference'])} | "
                     f"{after['verdict']['phrase']} |")
    return lines
