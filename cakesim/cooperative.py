"""Summaries and report sections of a cooperative game: win rates, scores, per-item stats.

All bakers win or lose together, so a table's headline is its win rate (Wilson interval);
per-item sums (for Speedtorte, per order card) say which items are hard: how often an
item shown is fulfilled, how many placements it takes, how often it is on display when a
game is lost.
"""

from pathlib import Path

import numpy as np

from cakesim.analysis import compare_game_metric, game_summary
from cakesim.figures import new_figure, save_figure
from cakesim.games import get_game
from cakesim.runner import TableRun
from cakesim.stats import ratio_by_deal, win_share
from cakesim.text import percent, plus_minus


def table_summary(run: TableRun) -> dict:
    """Win rate, per-game means and the table's options, for one cooperative table."""
    t = run.totals
    return {"win_rate": win_share(float(t.game_sum["won"]), float(t.game_sq["won"]), t.deals,
                                  t.games_per_deal, 1).as_dict(),
            "per_game": game_summary(run)}


def pooled_by_deal(runs: list[TableRun]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per deal, summed over every table: item sums ``(deals, K)`` and games lost.

    The tables of an experiment share their seed, hence their deals: an item's numbers
    pooled over tables are then sums of correlated parts, and only per-deal sums over all
    tables give honest intervals.
    """
    if any(run.by_deal is None for run in runs):
        raise ValueError("per-item numbers need every deal's sums: raise the experiment's "
                         "keep_rows to at least its games per table")
    deals = max(run.by_deal.deals for run in runs)
    items = {}
    lost = np.zeros(deals, np.int64)
    for run in runs:
        d = run.by_deal
        for metric, values in d.item.items():
            items.setdefault(metric, np.zeros((deals, values.shape[1]), np.int64))
            items[metric][:d.deals] += values
        lost[:d.deals] += run.totals.games_per_deal - d.game["won"]
    return items, lost


def item_summary(runs: list[TableRun]) -> list[dict]:
    """Per item over all ``runs``: shown, fulfilled share, placements to fulfil, loss share."""
    game = get_game(runs[0].table.game)
    names = game.item_names(runs[0].table)
    details = game.item_details(runs[0].table)
    items, lost = pooled_by_deal(runs)
    shown, done = items["shown"], items["fulfilled"]
    found = []
    for k, name in enumerate(names):
        if shown[:, k].sum() == 0:
            continue
        found.append({
            "item": name, **details[k], "shown": int(shown[:, k].sum()),
            "fulfilled_share": ratio_by_deal(done[:, k], shown[:, k], share=True).as_dict(),
            "placements_to_fulfil": ratio_by_deal(items["wait"][:, k], done[:, k]).as_dict(),
            "on_display_at_loss": ratio_by_deal(items["at_loss"][:, k], lost,
                                                share=True).as_dict()
            if lost.sum() else None,
        })
    return found


def compare_win_rate(base: TableRun, other: TableRun) -> dict:
    """``other``'s win rate minus ``base``'s, paired by deal when every deal was kept."""
    return compare_game_metric(base, other, "won")


def headline(summary: dict) -> str:
    """The answer in one line: per level (first label word), the range of win rates over
    the player counts, for the first table's variant and strategies."""
    tables = summary["tables"]
    first = [t for t in tables if t["variant"] == tables[0]["variant"]
             and t["strategies"] == tables[0]["strategies"]]
    groups = {}
    for t in first:
        groups.setdefault(t["label"].split(" ")[0], []).append(t)
    parts = []
    for option, group in groups.items():
        rates = [100 * t["win_rate"]["value"] for t in group]
        counts = sorted({t["players"] for t in group})
        span = f"{min(rates):.0f} %" if len(group) == 1 else (
            f"{min(rates):.0f}-{max(rates):.0f} %")
        bakers = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        parts.append(f"{option} {span} ({bakers} players)")
    return f"Win rate, {tables[0]['variant']}: {'; '.join(parts)}."


def markdown(summary: dict) -> list[str]:
    """The report's tables for a cooperative experiment."""
    lines = ["| table | games | win rate [95 % CI] | mean score | placements | "
             "lost: stuck | lost: hands empty |", "|---|---|---|---|---|---|---|"]
    for t in summary["tables"]:
        g = t["per_game"]
        lines.append(f"| {t['label']} | {t['games']:,} | {percent(t['win_rate'])} | "
                     f"{plus_minus(g['score'], 1)} | {plus_minus(g['moves'], 1)} | "
                     f"{100 * g['stuck']['value']:.1f} % | "
                     f"{100 * g['hands_empty']['value']:.1f} % |")
    lines.append("")
    for c in summary["comparisons"]:
        d = c["win_rate_difference"]
        lines.append(f"- **{c['table']} against {c['base']}**: win rate "
                     f"{100 * d['value']:+.1f} pp [{100 * d['low']:+.1f}, "
                     f"{100 * d['high']:+.1f}] ({d['method']}).")
    if summary["comparisons"]:
        lines.append("")
    if summary.get("items"):
        lines += ["## Order cards", "",
                  "Over all tables: how often a card put on display was fulfilled, the "
                  "placements it stayed on display until then, and the share of lost games "
                  "in which it was on display at the end. Base rate: the exact chance that "
                  "four top pieces drawn at random meet it. Hardest first.", "",
                  "| card | family | tier | base rate | shown | fulfilled [95 % CI] | "
                  "placements to fulfil | on display at a loss | text |",
                  "|---|---|---|---|---|---|---|---|---|"]
        ranked = sorted(summary["items"], key=lambda i: i["fulfilled_share"]["value"])
        for i in ranked:
            loss = i["on_display_at_loss"]
            at_loss = "—" if loss is None else f"{100 * loss['value']:.1f} %"
            lines.append(f"| {i['item']} | {i['family']} | {i['tier']} | "
                         f"{100 * i['base_rate']:.1f} % | {i['shown']:,} | "
                         f"{percent(i['fulfilled_share'])} | "
                         f"{plus_minus(i['placements_to_fulfil'], 1)} | {at_loss} | "
                         f"{i['text']} |")
        lines.append("")
    return lines


def plot_win_rate(summary: dict, path: Path) -> Path:
    """Win rate with 95 % error bars per table option (level), a line per variant and count."""
    fig, ax = new_figure(figsize=(8, 4))
    series = {}
    for t in summary["tables"]:
        option, rest = t["label"].split(" ", 1) if " " in t["label"] else ("", t["label"])
        series.setdefault(rest, []).append((option, t["win_rate"]))
    for name, points in series.items():
        x = [p[0] for p in points]
        y = [100 * p[1]["value"] for p in points]
        err = [[100 * max(p[1]["value"] - p[1]["low"], 0) for p in points],
               [100 * max(p[1]["high"] - p[1]["value"], 0) for p in points]]
        ax.errorbar(x, y, yerr=err, capsize=3, marker="o", label=name)
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    return save_figure(fig, summary, "win rate", path)

