"""Summaries and report parts of a team game (``ResultKind.TEAM``): win rates per table.

All players win or lose together, so a table's headline is its win rate (Wilson, or
Wilson at the effective sample size on duplicate deals); tables are grouped by the
game's table options (e.g. a level) and compared with the base variant deal by deal.
What a game reports per item (e.g. per order card) comes from its own hooks.
"""

from pathlib import Path

from cakesim.engine.contract import ReportColumn
from cakesim.engine.runner import TableRun
from cakesim.reports.figures import new_figure, save_figure
from cakesim.reports.summaries import game_summary
from cakesim.reports.text import percent, plus_minus, points
from cakesim.stats.intervals import win_share


def table_summary(run: TableRun) -> dict:
    """Win rate and per-game means of one team-game table."""
    t = run.totals
    return {"win_rate": win_share(float(t.game_sum["won"]), float(t.game_sq["won"]), t.deals,
                                  t.games_per_deal, 1).as_dict(),
            "per_game": game_summary(run)}


def _primary(table: dict) -> str:
    """A table's first option (the game's first table option, e.g. a level), or ""."""
    return next(iter(table["options"].values()), "")


def headline(summary: dict) -> str:
    """The answer in one line: per table option (e.g. level), the range of win rates over
    the player counts, for the first table's variant and strategies."""
    tables = summary["tables"]
    first = [t for t in tables if t["variant"] == tables[0]["variant"]
             and t["strategies"] == tables[0]["strategies"]]
    groups = {}
    for t in first:
        groups.setdefault(_primary(t) or t["label"], []).append(t)
    parts = []
    for option, group in groups.items():
        rates = [100 * t["win_rate"]["value"] for t in group]
        counts = sorted({t["players"] for t in group})
        span = f"{min(rates):.0f} %" if len(group) == 1 else (
            f"{min(rates):.0f}-{max(rates):.0f} %")
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        parts.append(f"{option} {span} ({players} players)")
    return f"Win rate, {tables[0]['variant']}: {'; '.join(parts)}."


def markdown(summary: dict, columns: tuple[ReportColumn, ...]) -> list[str]:
    """The table of win rates (with the game's per-game ``columns``) and comparisons."""
    lines = ["| table | games | win rate [95 % CI] | "
             + " | ".join(c.heading for c in columns) + " |",
             "|---|---|---|" + "---|" * len(columns)]
    for t in summary["tables"]:
        cells = [_cell(t["per_game"].get(c.metric), c) for c in columns]
        lines.append(f"| {t['label']} | {t['games']:,} | {percent(t['win_rate'])} | "
                     + " | ".join(cells) + " |")
    lines.append("")
    for c in summary["comparisons"]:
        d = c["win_rate_difference"]
        lines.append(f"- **{c['table']} against {c['base']}**: win rate "
                     f"{points(d)} ({d['method']}).")
    if summary["comparisons"]:
        lines.append("")
    return lines


def _cell(estimate: dict | None, column: ReportColumn) -> str:
    if estimate is None:
        return "—"
    return f"{100 * estimate['value']:.1f} %" if column.share else plus_minus(estimate, 1)


def plot_win_rate(summary: dict, path: Path) -> Path:
    """Win rate with 95 % error bars along the first table option (e.g. the level), a line
    per rest of the label (other options, players, variant, strategies)."""
    fig, ax = new_figure(figsize=(8, 4))
    series = {}
    for t in summary["tables"]:
        option = _primary(t)
        rest = t["label"].replace(option, "", 1).strip() if option else t["label"]
        series.setdefault(rest, []).append((option, t["win_rate"]))
    for name, marks in series.items():
        x = [p[0] for p in marks]
        y = [100 * p[1]["value"] for p in marks]
        err = [[100 * max(p[1]["value"] - p[1]["low"], 0) for p in marks],
               [100 * max(p[1]["high"] - p[1]["value"], 0) for p in marks]]
        ax.errorbar(x, y, yerr=err, capsize=3, marker="o", label=name)
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    return save_figure(fig, summary, "win rate", path)
