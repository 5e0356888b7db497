"""The ``[budgets]`` section of an Eilauftrag experiment: analysis, report text and plot.

For every Eilauftrag table: the finishing times of games won without a clock, the win
rate at the seed's budget, the budget for each target win rate with a bootstrap
interval; for the sensitivity tables, how far those budgets move when each timing
parameter changes by ±20 %; whether "+15 s for two players" matches the measured
difference between two and three players; and, for tables played in silence or with open
hands, how far their budgets lie from the same deals played with signals.
"""

import math
from pathlib import Path

import numpy as np

from cakesim.engine.cache import ChunkCache
from cakesim.games.speedtorte.budgets import (
    BudgetQuestion,
    bootstrap_budgets,
    budget_estimate,
    clock,
    finishing_seconds,
    interval,
    paired_budget_difference,
    parse_question,
    sensitivity,
    win_rate_at,
)
from cakesim.games.speedtorte.game import variant_name, variant_parts
from cakesim.games.speedtorte.strategies import told_the_deal
from cakesim.reports.answer import Answer
from cakesim.reports.figures import legend_outside, new_figure, save_figure
from cakesim.reports.text import percent, points
from cakesim.stats.intervals import paired_difference, wilson

parse = parse_question


def analyse(experiment, runs, question: BudgetQuestion, n_jobs: int = -1,
            cache: ChunkCache | None = None) -> dict:
    """Every number of the section, from the experiment's runs (rows must be complete) and
    the sensitivity runs (their chunks kept in ``cache``)."""
    tables, seconds_of = [], {}
    for index, run in enumerate(runs):
        t = run.table
        # A clairvoyant baker (told the deal) is a diagnostic for the tiers section: no
        # table of people can play it, so it gets no budget.
        if t.rules.timing is None or told_the_deal(t.strategies):
            continue
        if not run.rows_complete:
            raise ValueError(f"{t.label}: the budget analysis needs every game's row; raise "
                             "keep_rows above the game count")
        timing = t.rules.rules.timing
        seconds = finishing_seconds(run.rows)
        seconds_of[t.label] = seconds
        won = seconds[np.isfinite(seconds)]
        seed_budget = timing.seed_budget(t.rules.level.name, t.players)
        tables.append({
            "label": t.label, "level": t.rules.level.name, "players": t.players,
            "variant": t.variant, "profile": t.rules.timing.name, "games": int(seconds.size),
            "bakers": _bakers(t),
            "win_rate_without_clock": wilson(float(np.isfinite(seconds).mean()),
                                             seconds.size).as_dict(),
            "median_finish": float(np.median(won)) if won.size else math.nan,
            "finish_90": float(np.percentile(won, 90)) if won.size else math.nan,
            "seed_budget": seed_budget,
            "win_rate_at_seed_budget": win_rate_at(seconds, seed_budget).as_dict(),
            "time_points_at_seed_budget": _time_points(seconds, seed_budget,
                                                       timing.points_every),
            "budgets": [budget_estimate(seconds, target, question.bootstrap,
                                        experiment.seed + index)
                        for target in question.targets],
        })
    # The sensitivity runs are many: they are played for the first table's bakers and
    # variant only.
    main = {t["label"] for t in _base(tables)}
    moves = []
    for run in runs:
        if run.table.label in main and run.table.players in question.sensitivity_players:
            moves += sensitivity(run.table, question, experiment.seed, n_jobs, cache)
    return {"targets": list(question.targets), "bootstrap": question.bootstrap,
            "sensitivity_games": question.sensitivity_games, "tables": tables,
            "sensitivity": moves,
            "two_players": _two_players(tables, seconds_of, question, experiment.seed),
            "talk": _talk(tables, seconds_of, question, experiment.seed)}


def _bakers(table) -> str:
    """The table's bakers by name: ``team``, or ``team/novice`` for a mixed table."""
    return "/".join(dict.fromkeys(s.name for s in table.strategies))


def _time_points(seconds: np.ndarray, budget: float, every: float) -> float:
    """Mean points for time left (1 per full ``every`` s) over the games won within budget."""
    won = seconds[seconds <= budget]
    return float(np.floor((budget - won) / every).mean()) if won.size else math.nan


def _two_players(tables, seconds_of, question, seed) -> list[dict]:
    """Per bakers, level and target: the 2-player budget minus the 3-player one, with
    interval (the main variant's tables, so that strong and average bakers are judged
    side by side)."""
    found = []
    variant = tables[0]["variant"] if tables else None
    for two in (t for t in tables if t["players"] == 2 and t["variant"] == variant):
        three = next((t for t in tables if t["players"] == 3
                      and all(t[k] == two[k] for k in ("level", "variant", "profile",
                                                       "bakers"))), None)
        if three is None:
            continue
        for k, target in enumerate(question.targets):
            a = bootstrap_budgets(seconds_of[two["label"]], target, question.bootstrap, seed + k)
            b = bootstrap_budgets(seconds_of[three["label"]], target, question.bootstrap,
                                  seed + 100 + k)
            low, high = interval(a - b)
            found.append({"bakers": two["bakers"], "level": two["level"],
                          "profile": two["profile"], "target": target,
                          "difference": two["budgets"][k]["value"] - three["budgets"][k]["value"],
                          "low": low, "high": high})
    return found


def _talk(tables, seconds_of, question, seed) -> list[dict]:
    """Per table played in silence or with open hands: its win rate without a clock and
    its budget for each target minus those of the same deals played with signals (same
    level, players, profile, bakers and games), paired by deal."""
    found = []
    for t in tables:
        mode = variant_parts(t["variant"])[0]
        signals = next((s for s in tables if s["variant"] == _with_signals(t["variant"])
                        and all(s[k] == t[k] for k in ("level", "players", "profile",
                                                       "bakers", "games"))), None)
        if mode == "signals" or signals is None:
            continue
        ours, theirs = seconds_of[t["label"]], seconds_of[signals["label"]]
        found.append({
            "table": t["label"], "level": t["level"], "players": t["players"], "mode": mode,
            "bakers": t["bakers"], "won_without_clock": t["win_rate_without_clock"],
            "signals_won_without_clock": signals["win_rate_without_clock"],
            "won_difference": paired_difference(np.isfinite(ours), np.isfinite(theirs)).as_dict(),
            "budgets": [{"budget": t["budgets"][k], "signals_budget": signals["budgets"][k],
                         **paired_budget_difference(ours, theirs, target, question.bootstrap,
                                                    seed + k)}
                        for k, target in enumerate(question.targets)]})
    return found


def talk_line(data: dict) -> str:
    """How far silence and open hands move the wins and budgets, a sentence per baker (one
    range over two bakers would hide which of them moved)."""
    sentences = []
    for bakers in dict.fromkeys(d["bakers"] for d in data.get("talk", [])):
        talk = [d for d in data["talk"] if d["bakers"] == bakers]
        parts = []
        for mode in dict.fromkeys(d["mode"] for d in talk):
            rows = [d for d in talk if d["mode"] == mode]
            won = [100 * d["won_difference"]["value"] for d in rows]
            moved = [b["difference"] for d in rows for b in d["budgets"]
                     if not math.isnan(b["difference"])]
            budgets = (f", budgets {_from_to(f'{min(moved):+.1f}', f'{max(moved):+.1f}', ' to ')}"
                       " s where both are reachable" if moved
                       else ", no budget reachable in both")
            parts.append(f"{mode.replace('_', ' ')} changes the win rate without a clock by "
                         f"{_from_to(f'{min(won):+.1f}', f'{max(won):+.1f}', ' to ')} pp"
                         f"{budgets}")
        players = ", ".join(str(p) for p in sorted({d["players"] for d in talk}))
        sentences.append(f"Against signals on the same deals ({players} players, {bakers} "
                         "bakers): " + "; ".join(parts) + ".")
    return " ".join(sentences)


def _with_signals(variant: str) -> str:
    """The variant's name with the bakers talking by signals (its other parts kept)."""
    _, special, eilauftrag = variant_parts(variant)
    return variant_name("signals", special, eilauftrag)


def _base(tables: list[dict]) -> list[dict]:
    """The tables of the first table's bakers and variant (the experiment's main ones)."""
    return [t for t in tables if t.get("bakers") == tables[0].get("bakers")
            and t.get("variant") == tables[0].get("variant")]


def headline(data: dict) -> str:
    """The answer in one line, for the first table's bakers: does the seed's budget bind,
    and what would hit the targets."""
    tables = _base(data["tables"])
    binding = [t for t in tables
               if t["win_rate_without_clock"]["value"] - t["win_rate_at_seed_budget"]["value"]
               > 0.01]
    slowest = max(tables, key=lambda t: t["finish_90"])
    top = data["targets"][-1]
    span = _span([b for t in tables for b in t["budgets"] if b["target"] == top],
                 "out of reach everywhere")
    bakers = f" ({tables[0]['bakers']} bakers)" if "bakers" in tables[0] else ""
    return (f"The seed's budgets bind at {len(binding)} of {len(tables)} tables{bakers}: "
            f"90 % of won games end by {clock(slowest['finish_90'])} even for "
            f"{slowest['label'].rsplit(' ', 2)[0]}; budgets for {100 * top:g} % wins are "
            f"{span} where reachable.")


def answer(data: dict, summary: dict) -> Answer:
    """The headline in words, and a table: with a skill trace, the strongest tier's budgets
    and wins at the seed's budgets beside the base tier's on the same tables; without one,
    per table of the main bakers the budget each target needs beside the seed's."""
    line = headline(data)
    talk = f" {talk_line(data)}" if data.get("talk") else ""
    strongest = _strongest(data, summary)
    text = (line + " A budget out of reach means even a game without a clock is won less "
            "often than the target." + talk)
    if strongest is not None:
        sentence, short, header, rows = strongest
        return Answer(sentence + text, short + line, header, rows)
    rows = [[t["label"], percent(t["win_rate_without_clock"]), clock(t["seed_budget"]),
             percent(t["win_rate_at_seed_budget"]), *[_budget(b) for b in t["budgets"]]]
            for t in _base(data["tables"])]
    return Answer(text, line,
                  ["table", "won without clock", "seed's budget", "wins at seed's budget",
                   *[f"budget for {100 * t:g} % wins" for t in data["targets"]]], rows)


def _strongest(data: dict, summary: dict) -> tuple[str, str, list[str], list[list[str]]] | None:
    """The budgets of the skill trace's strongest tier (``tiers`` section), which the
    answer opens with: a sentence, the start of the index's line, and the table of every
    setting the trace plays, the tier's budgets and wins at the seed's budgets beside the
    base tier's on the same deals (the seed's budgets judged for strong and average
    bakers side by side). None without a trace or its tables."""
    tiers = summary.get("sections", {}).get("tiers", {})
    trace = tiers.get("trace") or {}
    top = list(trace)[-1] if trace else None
    # The settings the trace plays: the tier's tables elsewhere (in silence, say) answer
    # another question.
    traced = {_setting(s) for s in tiers.get("settings", []) if s.get("trace")}
    tables = [t for t in data["tables"] if t["bakers"] == top and _setting(t) in traced]
    if not tables:
        return None
    base = tiers.get("base")
    same = {_setting(t): t for t in data["tables"] if t["bakers"] == base}
    targets = [100 * b["target"] for b in tables[0]["budgets"]]
    spans = [_span([t["budgets"][i] for t in tables]) for i in range(len(targets))]
    levels = ", ".join(dict.fromkeys(t["level"] for t in tables))
    budgets = " and ".join(f"{span} for {target:g} % wins" + _unreachable(tables, i)
                           for i, (target, span) in enumerate(zip(targets, spans, strict=True)))
    paired = [same[_setting(t)] for t in tables if _setting(t) in same]
    base_wins = (f"; {base} bakers win {_rate_span(paired)} on the same tables"
                 if len(paired) == len(tables) else "")
    sentence = (f"With the strongest bakers played ({top}, {_where(tables)}), the budgets at "
                f"{levels} run {budgets}. At the seed's budgets it wins "
                f"{_rate_span(tables)}{base_wins} (every setting in the table below)."
                f"{_two_player_line(data, tables, top)} For comparison: ")
    short = "Strongest bakers ({}): budgets {}. ".format(
        top, "; ".join(f"{span} for {target:g} %"
                       for target, span in zip(targets, spans, strict=True)))
    header = ["setting", "seed's budget", f"wins there: {top}", *(
        [f"wins there: {base}"] if paired else []), *[
        f"{bakers} budget for {target:g} % wins" for target in targets
        for bakers in ([top, base] if paired else [top])]]
    rows = []
    for t in tables:
        other = same.get(_setting(t))
        row = [f"{t['level']} {t['players']}P {t['profile']}", clock(t["seed_budget"]),
               percent(t["win_rate_at_seed_budget"])]
        if paired:
            row.append(percent(other["win_rate_at_seed_budget"]) if other else "not played")
        for i in range(len(targets)):
            row.append(_budget(t["budgets"][i]))
            if paired:
                row.append(_budget(other["budgets"][i]) if other else "not played")
        rows.append(row)
    return sentence, short, header, rows


def _two_player_line(data: dict, tables: list[dict], top: str) -> str:
    """`` Two lookahead32 bakers need +18 to +32 s against three for the same win rate (the
    seed gives two players +15 s).``: the seed's extra time judged for the strongest
    bakers, over the differences whose interval is reachable ("" without any)."""
    moves = [d["difference"] for d in data.get("two_players", [])
             if d["bakers"] == top and not math.isnan(d["low"])]
    extra = {t["seed_budget"] - u["seed_budget"] for t in tables for u in tables
             if t["players"] == 2 and u["players"] == 3 and t["level"] == u["level"]}
    if not moves or len(extra) != 1:
        return ""
    span = _from_to(f"{min(moves):+.0f}", f"{max(moves):+.0f}", " to ")
    return (f" Two {top} bakers need {span} s against three for the same win rate (the "
            f"seed gives two players {extra.pop():+.0f} s).")


def _where(tables: list[dict]) -> str:
    """``adult, 2, 3 players``: the player counts of each timing profile the tables play."""
    profiles = dict.fromkeys(t["profile"] for t in tables)
    return "; ".join(f"{profile}, " + ", ".join(str(p) for p in sorted(
        {t["players"] for t in tables if t["profile"] == profile})) + " players"
        for profile in profiles)


def _unreachable(tables: list[dict], i: int) -> str:
    """`` (out of reach at Hofzuckerbäcker 2P)`` for the tables target ``i`` is out of
    reach at, unless it is everywhere or nowhere."""
    out = [f"{t['level']} {t['players']}P" for t in tables
           if math.isnan(t["budgets"][i]["value"])]
    return f" (out of reach at {', '.join(out)})" if 0 < len(out) < len(tables) else ""


def _rate_span(tables: list[dict]) -> str:
    """``88.0-99.5 %``: the lowest and highest win rate at the seed's budgets."""
    rates = [t["win_rate_at_seed_budget"]["value"] for t in tables]
    return _from_to(f"{100 * min(rates):.1f}", f"{100 * max(rates):.1f}") + " %"


def _setting(entry: dict) -> tuple:
    """A table's or a tier setting's level, players, variant and timing profile."""
    return entry["level"], entry["players"], entry["variant"], entry["profile"]


def _span(budgets: list[dict], none: str = "out of reach") -> str:
    """``0:58-1:37`` over the reachable budgets, or ``none``."""
    reach = [b["value"] for b in budgets if not math.isnan(b["value"])]
    if not reach:
        return none
    return _from_to(clock(min(reach)), clock(max(reach)))


def _from_to(low: str, high: str, between: str = "-") -> str:
    """``low-high`` as shown, or ``low`` alone when both read the same."""
    return low if low == high else f"{low}{between}{high}"


def numbers(data: dict) -> dict[str, dict]:
    """The section's headline numbers for baselines: budgets and win rates with intervals."""
    found = {}
    for t in data["tables"]:
        found[f"{t['label']} | win rate at the seed's budget"] = t["win_rate_at_seed_budget"]
        for b in t["budgets"]:
            if not math.isnan(b["value"]) and not math.isnan(b["low"]):
                found[f"{t['label']} | budget for {100 * b['target']:g} % wins (s)"] = {
                    "value": b["value"], "low": b["low"], "high": b["high"],
                    "n": t["games"]}
    return found


def markdown(data: dict, plot: str) -> list[str]:
    """The section as report text."""
    targets = data["targets"]
    lines = ["## Eilauftrag time budgets", "", f"**{headline(data)}**", "",
             "Games are played without a clock; a game won after T seconds is won under every "
             "budget of at least T. Budget intervals: bootstrap over games "
             f"({data['bootstrap']:,} replicates, 95 % percentile); win-rate intervals: "
             "Wilson 95 %. Time points: on a win, 1 point per full 10 s left on the seed's "
             "budget, averaged over the games won in time.", "", f"![finishing times]({plot})", "",
             "| table | won without clock | median win | 90 % of wins by | seed's budget | "
             "wins at seed's budget | time points on a win | "
             + " | ".join(f"budget for {100 * t:g} % wins" for t in targets) + " |",
             "|---|---|---|---|---|---|---|" + "---|" * len(targets)]
    talked = {d["table"] for d in data.get("talk", [])}
    for t in (t for t in data["tables"] if t["label"] not in talked):
        budgets = " | ".join(_budget(b) for b in t["budgets"])
        lines.append(f"| {t['label']} | {percent(t['win_rate_without_clock'])} | "
                     f"{clock(t['median_finish'])} | {clock(t['finish_90'])} | "
                     f"{clock(t['seed_budget'])} | {percent(t['win_rate_at_seed_budget'])} | "
                     f"{t['time_points_at_seed_budget']:.1f} | {budgets} |")
    lines.append("")
    lines += ["\"Out of reach\": fewer games than the target are won even without a clock, so "
              "no budget gives that win rate; the level's cards, not its time, must change.",
              ""]
    reachable = [m for m in data["sensitivity"] if not math.isnan(m["base_budget"])]
    if reachable:
        lines += ["### How far the budgets move when a timing parameter changes by ±20 %", "",
                  f"{data['sensitivity_games']:,} games per setting, same deals; the change of "
                  "the budget for each target in seconds (targets out of reach left out).", "",
                  "| table | target | parameter | -20 % | +20 % |", "|---|---|---|---|---|"]
        for up in (m for m in reachable if m["factor"] > 1):
            down = next(m for m in reachable if m["factor"] < 1 and m["table"] == up["table"]
                        and m["target"] == up["target"] and m["parameter"] == up["parameter"])
            lines.append(f"| {up['table']} | {100 * up['target']:g} % | {up['parameter']} | "
                         f"{_shift(down)} | {_shift(up)} |")
        lines.append("")
    if data["two_players"]:
        lines += ["### Is \"+15 s for two players\" right?", "",
                  "The budget two players need minus the budget three players need, for the "
                  "same bakers, level and target (95 % bootstrap interval):", "",
                  "| bakers | level and timing | target | 2 players minus 3 players | verdict |",
                  "|---|---|---|---|---|"]
        for d in data["two_players"]:
            lines.append(f"| {d['bakers']} | {d['level']} {d['profile']} | "
                         f"{100 * d['target']:g} % | {_seconds(d)} | {_verdict(d)} |")
        lines.append("")
    return lines + _talk_markdown(data)


def _talk_markdown(data: dict) -> list[str]:
    """The tables played in silence or with open hands beside the same deals with signals."""
    if not data.get("talk"):
        return []
    targets = data["targets"]
    lines = ["### Signals, silence and open hands", "", f"**{talk_line(data)}**", "",
             "Each table below is played on the same deals as its table with signals; a "
             "change is the table's number minus the number with signals, paired by deal "
             "(win rate: normal interval over deals; budget: 95 % bootstrap interval over "
             "the shared deals, positive when talking less costs time).", "",
             "| table | won without clock | with signals | change | "
             + " | ".join(f"budget for {100 * t:g} % wins | change" for t in targets) + " |",
             "|---|---|---|---|" + "---|---|" * len(targets)]
    for d in data["talk"]:
        cells = " | ".join(f"{_budget(b['budget'])} | {_seconds(b)}" for b in d["budgets"])
        lines.append(f"| {d['table']} | {percent(d['won_without_clock'])} | "
                     f"{percent(d['signals_won_without_clock'])} | "
                     f"{points(d['won_difference'])} | {cells} |")
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out: Path) -> str:
    """Finishing-time CDF per level, a line per player count, seed's and 80 % budgets;
    the first table's bakers only (the skill tiers have their own figure)."""
    shown = _base(data["tables"])
    bakers = shown[0].get("bakers")
    levels = list(dict.fromkeys(t["level"] for t in shown))
    fig, axes = new_figure(1, len(levels), figsize=(4 * len(levels), 3.6), squeeze=False,
                             sharey=True)
    by_label = {run.table.label: run for run in runs}
    several = len({t["profile"] for t in shown}) > 1
    for ax, level in zip(axes[0], levels, strict=True):
        for t in (t for t in shown if t["level"] == level):
            seconds = np.sort(finishing_seconds(by_label[t["label"]].rows))
            shares = np.arange(1, seconds.size + 1) / seconds.size
            line = ax.step(seconds[np.isfinite(seconds)], shares[np.isfinite(seconds)],
                           where="post", label=f"{t['players']} players"
                           + (f", {t['profile']}" if several else ""))[0]
            ax.axvline(t["seed_budget"], color=line.get_color(), linestyle=":", linewidth=1)
            last = t["budgets"][-1]["value"]
            if not math.isnan(last):
                ax.axvline(last, color=line.get_color(), linestyle="--", linewidth=1)
        ax.set_title(level)
        ax.set_xlabel("seconds to the win")
        ax.set_xlim(left=0)
        for k, target in enumerate(data["targets"]):
            ax.axhline(target, color="grey", linewidth=0.8,
                       label="target win rates" if k == 0 else None)
    axes[0][0].set_ylabel("share of games won by then")
    legend_outside(fig, [axes[0][0]], title=f"dotted: seed's budget; dashed: budget for "
                                               f"{100 * data['targets'][-1]:g} % wins",
                   title_fontsize=7)
    return save_figure(fig, summary, f"Eilauftrag finishing times, {bakers} bakers",
                       out / "finishing_times.png", intervals=False).name


def _budget(b: dict) -> str:
    if math.isnan(b["value"]):
        return "out of reach"
    if math.isnan(b["low"]):
        return f"{clock(b['value'])} [interval reaches out of reach]"
    return f"{clock(b['value'])} [{clock(b['low'])}, {clock(b['high'])}]"


def _shift(move: dict) -> str:
    if math.isnan(move["budget"]) or math.isnan(move["base_budget"]):
        return "out of reach"
    return f"{move['budget'] - move['base_budget']:+.1f} s"


def _seconds(d: dict) -> str:
    if math.isnan(d["difference"]):
        return "out of reach"
    if math.isnan(d["low"]):
        return f"{d['difference']:+.1f} s [interval reaches out of reach]"
    return f"{d['difference']:+.1f} s [{d['low']:+.1f}, {d['high']:+.1f}]"


def _verdict(d: dict) -> str:
    if math.isnan(d["low"]):
        return "—"
    if d["low"] <= 15 <= d["high"]:
        return "+15 s fits"
    return "two players need more than +15 s" if d["low"] > 15 else "+15 s is too much"
