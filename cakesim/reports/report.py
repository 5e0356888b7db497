"""Writing an experiment's report: report.md, summary.json and its side file, results.parquet
and plots."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from cakesim.analyses.skill import headline_tables
from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import Game, ResultKind
from cakesim.engine.fingerprint import files_in_force, resolved_strategy
from cakesim.engine.project import shown_path
from cakesim.engine.version import __version__
from cakesim.reports import metrics, team
from cakesim.reports.answer import Answer, answer
from cakesim.reports.figures import (
    Colours,
    error_bars,
    legend_outside,
    new_figure,
    save_figure,
)
from cakesim.reports.hooks import hooks_of
from cakesim.reports.html import write_html, write_index_html
from cakesim.reports.metrics import plot_score_by_round, table_metrics, trajectories
from cakesim.reports.skill import quoted_trace
from cakesim.reports.summaries import (
    compare_first_seat,
    compare_game_metric,
    game_summary,
    player_summary,
    seat_summary,
    seat_verdicts,
    verdict_family,
    verdict_sentence,
)
from cakesim.reports.summary_file import keep_date, read_summary, write_summary
from cakesim.reports.text import percent, plus_minus, points


def summarise(experiment, runs, n_jobs: int = -1, cache: ChunkCache | None = None) -> dict:
    """Every number the report shows, with intervals, seed, config, file digests and counts.

    Seat verdicts are simultaneous over every seat of every table of the report
    (Bonferroni), at the experiment's fairness margin. Tables a section added (the skill
    rows) are left to their section: they are neither listed nor judged here. The score by
    round's replays are read back from ``cache`` where an earlier run filed them.
    """
    game = experiment.game
    seats_kind = game.result_kind is ResultKind.SEATS
    own = [run for run in runs if run.table.label not in experiment.section_tables]
    family = verdict_family(experiment, runs)
    headline_labels = {t.label for t in headline_tables([run.table for run in own])}
    tables = []
    for run in own:
        t = run.table
        entry = {
            "label": t.label, "players": t.players, "variant": t.variant,
            "options": dict(t.options),
            "duplicate": t.duplicate, "games": run.totals.games, "deals": run.totals.deals,
            "deal_block": t.deal_block,
            "control": t.label in experiment.controls, "headline": t.label in headline_labels,
            "strategies": [{"name": s.name, "description": s.describe(),
                            "resolved": resolved_strategy(s)}
                           for s in dict.fromkeys(t.strategies)],
        }
        if not seats_kind:
            entry |= team.table_summary(run)
        else:
            seats = seat_summary(run)
            for seat, judged in zip(seats, seat_verdicts(run, experiment.margin, family),
                                    strict=True):
                seat["verdict"] = judged
            entry |= {"seats": seats, "per_game": game_summary(run),
                      "verdict": verdict_sentence(seats, entry["control"]),
                      "metrics": table_metrics(run, experiment.seed)}
            if entry["headline"]:
                entry["trajectories"] = trajectories(run, n_jobs=n_jobs, cache=cache)
        if seats_kind and len({s.name for s in t.strategies}) > 1:
            entry["players_by_strategy"] = player_summary(run)
        tables.append(entry)
    extra = {"items": hooks_of(game).summarise_items(own)} if game.item_metrics else {}
    return {
        "result_kind": game.result_kind.value, "base_variant": game.variants[0],
        "experiment": experiment.name, "title": experiment.title,
        "question": experiment.question, "game": game.name,
        "seed": experiment.seed, "games_per_table": experiment.table_games,
        "cakesim_version": __version__, "rules": shown_path(experiment.rules_source),
        "files": files_in_force(runs),
        "written": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "config": experiment.config, "skipped": experiment.skipped,
        "margin": experiment.margin, "verdict_family": family,
        "tables": tables, "comparisons": _comparisons(game, own), **extra,
    }


def _comparisons(game: Game, runs) -> list[dict]:
    """Every variant against the base variant's table with the same everything else, and
    a combined variant (its name joins others with ``-`` or ``+``, e.g.
    ``joker-compensation``, ``silence+eilauftrag``) also against each part the experiment
    plays, so that the part's own effect shows.

    The base variant is the game's first; tables compare when their players, strategies,
    deal mode and the table options both have (e.g. a level) agree.
    """
    base_variant = game.variants[0]
    found = []
    for run in runs:
        t = run.table
        if t.variant == base_variant:
            continue
        parts = [v for v in game.variants if v != t.variant
                 and v in re.split("[-+]", t.variant)]
        for against in (base_variant, *parts):
            base = next((r for r in runs if _comparable(r.table, t, against)), None)
            if base is None:
                continue
            entry = {"players": t.players, "variant": t.variant, "against": against,
                     "base": base.table.label, "table": t.label}
            if game.result_kind is ResultKind.TEAM:
                entry["win_rate_difference"] = compare_game_metric(base, run, "won")
            else:
                entry["first_seat_win_share_difference"] = compare_first_seat(base, run)
            found.append(entry)
    return found


def _comparable(b, t, variant: str) -> bool:
    """Whether table ``b`` plays ``variant`` with everything else as table ``t`` does."""
    return (b.variant == variant and b.players == t.players and b.strategies == t.strategies
            and b.duplicate == t.duplicate and _same_apart_from_variant(b, t))


def _same_apart_from_variant(a, b) -> bool:
    ours, theirs = dict(a.options), dict(b.options)
    return all(theirs[k] == v for k, v in ours.items() if k in theirs)


def write_report(experiment, runs, out: Path, command: str,
                 plan: pd.DataFrame | None = None, sections: dict | None = None,
                 n_jobs: int = -1, cache: ChunkCache | None = None) -> Path:
    """Write the whole report folder; return the path of report.md.

    ``plan`` is the sample-size planner's pilot result, reported when given; ``sections``
    the game-specific analyses (name -> data), each rendered by its game's module;
    ``n_jobs`` processes replay games for it (the score by round), and ``cache`` keeps
    the replays for the next run.
    """
    out.mkdir(parents=True, exist_ok=True)
    summary = summarise(experiment, runs, n_jobs, cache)
    summary["command"] = command
    seats_kind = experiment.game.result_kind is ResultKind.SEATS
    if plan is not None:
        summary["sample_size"] = {"pilot_games": experiment.plan.games,
                                  "seed": experiment.seed,
                                  "half_width": experiment.plan.half_width,
                                  "seats": plan.to_dict(orient="records")}
    frames = [run.rows for run in runs if len(run.rows)]
    if frames:
        rows = pd.concat(frames, ignore_index=True)
        for column in ("table", "strategy"):
            if column in rows:
                rows[column] = rows[column].astype("category")
        rows.to_parquet(out / "results.parquet", index=False)
    if seats_kind:
        plot = plot_seat_win_share(summary, out / "seat_win_share.png")
        rounds = plot_score_by_round(summary, out / "score_by_round.png",
                                     experiment.game.round_name[0])
    else:
        plot = team.plot_win_rate(summary, out / "win_rate.png",
                                  hooks_of(experiment.game).option_targets)
    extra = []
    for name, data in (sections or {}).items():
        module = experiment.analyses[name]
        summary.setdefault("sections", {})[name] = data
        extra += module.markdown(data, module.plot(data, runs, summary, out))
    if experiment.skill_trace is not None:
        summary["skill_trace"] = quoted_trace(experiment.skill_trace)
    found = answer(experiment.answer, experiment.game, summary, experiment.analyses)
    summary["answer"] = found.as_dict()
    summary["headline"] = found.line
    keep_date(out, summary)
    write_summary(out, summary)
    report = out / "report.md"
    items = hooks_of(experiment.game).items_markdown(summary, out)
    report.write_text(_markdown(experiment.game, summary, plot.name, found, extra + items,
                                rounds if seats_kind else None))
    write_html(report)
    return report


def plot_seat_win_share(summary: dict, path: Path) -> Path:
    """Seat win share with 95 % error bars, one panel per player count, a bar group per
    table (one colour per table kind in every panel); a heat map of each seat's gap to
    fair when a panel has more tables than bars can show."""
    counts = sorted({t["players"] for t in summary["tables"]})
    kinds = [_kind(t) for t in summary["tables"]]
    if max(sum(t["players"] == p for t in summary["tables"]) for p in counts) > MOST_BARS:
        return _plot_seat_gaps(summary, counts, path)
    colours = Colours(dict.fromkeys(kinds))
    fig, axes = new_figure(1, len(counts), figsize=(4.2 * len(counts), 4.2), squeeze=False)
    for ax, players in zip(axes[0], counts, strict=True):
        tables = [t for t in summary["tables"] if t["players"] == players]
        width = 0.8 / len(tables)
        for i, t in enumerate(tables):
            shares = [s["win_share"] for s in t["seats"]]
            x = [seat + (i - (len(tables) - 1) / 2) * width for seat in range(players)]
            y = [100 * s["value"] for s in shares]
            ax.bar(x, y, width, yerr=error_bars(shares), capsize=2, color=colours[_kind(t)],
                   alpha=0.9, label=_kind(t), hatch="//" if t["control"] else None)
        ax.axhline(100 / players, color="black", linestyle="--", linewidth=1,
                   label="fair share")
        names = [s["name"].replace(" ", "\n", 1) for s in tables[0]["seats"]]
        ax.set_xticks(range(players), names)
        ax.set_title(f"{players} players")
        ax.set_ylabel("win share (%)")
    legend_outside(fig, axes[0])
    return save_figure(fig, summary, "seat win share", path)


MOST_BARS = 6
"""More tables than this in a panel and the seat plot becomes a heat map."""


def _kind(table: dict) -> str:
    """A table's label without its player count: the same kind in every panel."""
    return table["label"].replace(f"{table['players']}P ", "", 1) + (
        " (control)" if table["control"] else "")


def _plot_seat_gaps(summary: dict, counts: list[int], path: Path) -> Path:
    """Each seat's win share minus fair, in pp: a row per table, a column per seat, one
    panel per player count."""
    from matplotlib.colors import TwoSlopeNorm

    groups = [[t for t in summary["tables"] if t["players"] == p] for p in counts]
    tallest = max(len(g) for g in groups)
    fig, axes = new_figure(1, len(counts), figsize=(2.2 + 1.3 * max(counts) * len(counts),
                                                    1.2 + 0.28 * tallest), squeeze=False)
    gaps = [[[100 * (s["win_share"]["value"] - 1 / t["players"]) for s in t["seats"]]
             for t in g] for g in groups]
    reach = max(abs(v) for g in gaps for row in g for v in row) or 1.0
    norm = TwoSlopeNorm(0.0, -reach, reach)
    for ax, g, values in zip(axes[0], groups, gaps, strict=True):
        image = ax.imshow(values, cmap="RdBu", norm=norm, aspect="auto")
        ax.set_yticks(range(len(g)), [_kind(t) for t in g], fontsize=7)
        ax.set_xticks(range(g[0]["players"]), [s["name"].replace(" ", "\n", 1)
                                                for s in g[0]["seats"]], fontsize=7)
        for row, line in enumerate(values):
            for column, v in enumerate(line):
                ax.text(column, row, f"{v:+.1f}", ha="center", va="center", fontsize=6)
        ax.set_title(f"{g[0]['players']} players")
    fig.colorbar(image, ax=axes[0].tolist(), label="win share minus fair (pp)", shrink=0.8)
    return save_figure(fig, summary, "seat win share minus fair", path, intervals=False)


def _markdown(game: Game, summary: dict, plot: str, found: Answer,
              sections: list[str], rounds: Path | None) -> str:
    lines = [f"# {summary['title'] or summary['experiment']}", ""]
    if summary["question"]:
        lines += [f"**Question.** {summary['question']}", ""]
    lines += ["## Answer", "", *found.markdown(), *sections,
              *metrics.markdown(summary["tables"], rounds), "## Every table", ""]
    if game.result_kind is ResultKind.TEAM:
        columns = hooks_of(game).report_columns
        lines += [f"![win rate]({plot})", "", *team.markdown(summary, columns)]
    else:
        lines += _competitive(summary, plot)
    if summary["skipped"]:
        lines += ["## Not run", ""] + [f"- {s}" for s in dict.fromkeys(summary["skipped"])]
        lines.append("")
    if "sample_size" in summary:
        lines += _sample_size(summary["sample_size"])
    lines += ["## Reproduce", "",
              f"Seed {summary['seed']}, games per table {sorted(set(summary['games_per_table']))},"
              f" rules `{Path(summary['rules']).name}`, cakesim {summary['cakesim_version']}, "
              f"written {summary['written']}. The full configuration is in `summary.json`; "
              "per-game rows are in `results.parquet` (not committed).", "",
              f"    {summary['command']}", ""]
    return "\n".join(lines)


def _competitive(summary: dict, plot: str) -> list[str]:
    lines = [f"- **{t['label']}**: {t['verdict']}." for t in summary["tables"]]
    role = summary["tables"][0]["seats"][0]["name"]
    for c in summary["comparisons"]:
        d = c["first_seat_win_share_difference"]
        moved = "no detectable change" if d["low"] <= 0 <= d["high"] else (
            "raises it" if d["low"] > 0 else "lowers it")
        lines.append(f"- **{c['table']} against {c['base']}**: the {role}'s win share "
                     f"changes by {points(d)} "
                     f"({d['method']}): {moved}.")
    margin = 100 * summary["margin"]
    lines += ["", f"How the verdicts are reached: a seat's gap is its win share minus the "
              f"fair share 1/P, with the table's own interval widened to hold simultaneously "
              f"for all {summary['verdict_family']} seats of this report (Bonferroni, 95 % "
              f"family-wise): it holds the 95 % interval the table prints, so a seat whose "
              f"printed interval holds its fair share is never judged off it. A seat is "
              f"*disadvantaged (advantaged) by more than {margin:g} pp* when the whole "
              f"interval lies beyond that margin; *fair within "
              f"±{margin:g} pp* when the whole interval lies inside it (two one-sided "
              "tests); *below (above) fair* when it excludes fair but a gap smaller than the "
              "margin is not ruled out; otherwise *inconclusive*, with the games the "
              "planner estimates it needs. Control tables (marked so in the experiment, such "
              "as random play) show the seat effects the rules alone give players who do not "
              "try; they are not the answer for players who do.", "",
              "Win shares split a shared first place evenly. Intervals in the tables are 95 % "
              "and computed by deal (on duplicate deals the P rotations of a deal are one "
              "sample). Win shares: Wilson where every outcome is a whole win or loss on "
              "independent deals, else Wilson at the effective sample size of the per-deal "
              "variance, and never narrower than Wilson on the deals when every deal gave "
              "the same result; means: Student t on the per-deal means. \"Lead\" is a "
              "seat's score minus the mean of the other seats at the same table on the same "
              "deal.", ""]
    lines += [f"![seat win share]({plot})", ""]
    for t in summary["tables"]:
        lines += [f"## {t['label']}", "",
                  f"{t['games']:,} games ({_deals(t)}"
                  f"{', every deal played once per seat rotation' if t['duplicate'] else ''}). "
                  + "; ".join(f"`{s['name']}`: {s['description']}" for s in t["strategies"]),
                  ""]
        # The game's own score parts, in the order it lists them, after the total.
        parts = [k for k in t["seats"][0] if k.startswith("mean_") and k != "mean_total"]
        lines += ["| seat | strategy | win share [95 % CI] | mean score | "
                  + "".join(f"{k[5:].replace('_', ' ')} | " for k in parts)
                  + "lead over other seats |", "|---|---|---|---|" + "---|" * len(parts) + "---|"]
        for s in t["seats"]:
            lines.append(f"| {s['role']} | {s['strategy']} | {percent(s['win_share'])} | "
                         f"{plus_minus(s['mean_total'])} | "
                         + "".join(f"{plus_minus(s[k])} | " for k in parts)
                         + f"{plus_minus(s['lead_total'])} |")
        if "players_by_strategy" in t:
            lines += ["", "| player | strategy | win share [95 % CI] | mean score |",
                      "|---|---|---|---|"]
            # Players are numbered from 1, as seats are and as [contrasts] player counts.
            lines += [f"| {p['player'] + 1} | {p['strategy']} | {percent(p['win_share'])} | "
                      f"{plus_minus(p['mean_total'])} |" for p in t["players_by_strategy"]]
        per_game = ", ".join(f"{k.replace('_', ' ')} {plus_minus(v)}"
                             for k, v in t["per_game"].items())
        lines += ["", f"Per game: {per_game}.", "", f"**Verdict:** {t['verdict']}.", ""]
    return lines


def _sample_size(plan: dict) -> list[str]:
    seats = pd.DataFrame(plan["seats"])
    half = 100 * plan["half_width"]
    lines = ["## Sample size and duplicate deals", "",
             f"A pilot of {plan['pilot_games']:,} games per table (seed {plan['seed']}), once "
             "with independent deals and once with duplicate deals (every deal played once "
             "per seat rotation), measures the variance per game of each seat's win-share "
             f"estimate. Games needed for a 95 % interval of ±{half:g} pp on every seat's win "
             "share, and the variance-reduction factor of duplicate deals (above 1: duplicate "
             "deals need that many times fewer games):", "",
             "| table | factor, first seat | factor, range over seats | games needed, "
             "independent | games needed, duplicate |", "|---|---|---|---|---|"]
    for label, group in seats.groupby("table", sort=False):
        factor = group["duplicate_factor"]
        lines.append(f"| {label} | {factor.iloc[0]:.2f} | {factor.min():.2f} to "
                     f"{factor.max():.2f} | {group['games_independent'].max():,} | "
                     f"{group['games_duplicate'].max():,} |")
    lines += ["", "A factor near 1/P means the P rotations of a deal are nearly the same game: "
              "when every seat plays the same deterministic strategy, rotating the players "
              "round the table changes nothing, so duplicate deals only repeat each game P "
              "times. Duplicate deals pay off when the seats' strategies differ (they cancel "
              "the luck of the deal between players); for seat bias with one strategy at "
              "every seat, play independent deals.", "",
              "Recompute with `cakesim plan EXPERIMENT --half-width H` (or `--effect D "
              "--power 0.8`).", ""]
    return lines


def write_index(root: Path) -> Path:
    """``reports/index.md``: every experiment's headline answer and a link to its report;
    every report's ``report.html`` and the index's page built anew beside them."""
    lines = ["# cakesim reports", "",
             "Every experiment's answer in one line. Regenerate with `make reports`; rerun "
             "one with `make experiment EXP=name`.", "",
             "| experiment | answer | seed, games per table |", "|---|---|---|"]
    for path in sorted(root.glob("*/summary.json")):
        # The whole summary, side file included: a missing or broken one is named here.
        summary = read_summary(path)
        answer = summary["headline"]
        games = sorted(set(summary["games_per_table"]))
        lines.append(f"| [{summary['title'] or summary['experiment']}]"
                     f"({path.parent.name}/report.md) | {answer} | {summary['seed']}, "
                     f"{', '.join(f'{g:,}' for g in games)} |")
    index = root / "index.md"
    index.write_text("\n".join(lines) + "\n")
    # The pages are built from the markdown and its plots, never committed: git keeps one
    # copy of every plot, and `make reports` gives every report its page again.
    for page in sorted(root.glob("*/report.md")):
        write_html(page)
    write_index_html(root)
    return index


def _deals(table: dict) -> str:
    """``8,000 deals``, or ``8,000 deals in 500 blocks of 16`` when deals share a block's
    luck (the blocks are then the independent units behind every interval)."""
    block = table.get("deal_block", 1)
    if block == 1:
        return f"{table['deals']:,} deals"
    return (f"{table['deals'] * block:,} deals in {table['deals']:,} blocks of {block} that "
            "share their luck, the blocks the units of every interval")
