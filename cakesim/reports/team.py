"""Summaries and report parts of a team game (``ResultKind.TEAM``): win rates per table.

All players win or lose together, so a table's headline is its win rate (Wilson, or
Wilson at the effective sample size on duplicate deals); tables are grouped by the
game's table options (e.g. a level) and compared with the base variant deal by deal.
What a game reports per item (e.g. per order card) comes from its own hooks.
"""

from pathlib import Path

from cakesim.engine.runner import TableRun
from cakesim.reports.figures import (
    PALETTE,
    Colours,
    error_bars,
    legend_outside,
    new_figure,
    save_figure,
)
from cakesim.reports.hooks import ReportColumn
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


def plot_win_rate(summary: dict, path: Path, targets: dict[str, float]) -> Path:
    """Win rate with 95 % error bars along the first table option (e.g. the level), a line
    per rest of the label (other options, players, variant, strategies); the designer's
    target per option value (``targets``, e.g. per level) as a short black bar."""
    fig, ax = new_figure(figsize=(9, 5))
    series = {}
    for t in summary["tables"]:
        option = _primary(t)
        rest = t["label"].replace(option, "", 1).strip() if option else t["label"]
        series.setdefault(rest, []).append((option, t["win_rate"]))
    colours = Colours(series)
    styles = ["-", "--", ":", "-."]
    for k, (name, marks) in enumerate(series.items()):
        x = [p[0] for p in marks]
        y = [100 * p[1]["value"] for p in marks]
        ax.errorbar(x, y, yerr=error_bars([p[1] for p in marks]), capsize=3, marker="o",
                    markersize=3, label=name, color=colours[name],
                    linestyle=styles[k // len(PALETTE) % len(styles)])
    options = list(dict.fromkeys(_primary(t) for t in summary["tables"]))
    shown = [(k, targets[o]) for k, o in enumerate(options) if o in targets]
    for k, (position, rate) in enumerate(shown):
        ax.hlines(100 * rate, position - 0.35, position + 0.35, color="black", linewidth=2.5,
                  label="target win rate" if k == 0 else None, zorder=5)
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    legend_outside(fig, [ax])
    return save_figure(fig, summary, "win rate", path)
