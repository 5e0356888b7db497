"""Speedtorte's part of a report: how hard each order card is.

Per order card, over every table of an experiment: how often a card put on display is
fulfilled, how many placements it stays on display until then, and how often it is on
display when a game is lost. The tables share their deals, so every number is a ratio of
per-deal sums pooled over tables (``cakesim.engine.runner.pooled_by_deal``), with a
delta-method interval by deal.
"""

from pathlib import Path

from cakesim.engine.runner import TableRun, pooled_by_deal
from cakesim.games.speedtorte.cards import base_rate_table
from cakesim.reports.answer import Answer, win_rate
from cakesim.reports.figures import Colours, legend_outside, new_figure, save_figure
from cakesim.reports.text import percent, plus_minus
from cakesim.stats.intervals import ratio_by_deal


def card_details(table) -> list[dict]:
    """Per order card: family, tier, English text and exact base rate at this table."""
    r = table.rules.rules
    rates = base_rate_table(r.catalogue, sacher=True, copies=r.copies, plates=r.plates)
    sacher = table.rules.special_orders and r.special_sachertorte
    column = rates["base_rate_with_sacher" if sacher else "base_rate"]
    return [{"family": card.family, "tier": card.tier, "text": card.text_en,
             "base_rate": float(column[k])} for k, card in enumerate(r.catalogue.cards)]


def card_summary(runs: list[TableRun]) -> list[dict]:
    """Per card shown: fulfilled share, placements to fulfil, share of losses on display."""
    table = runs[0].table
    names = table.game.item_names(table)
    details = card_details(table)
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


def cards_answer(summary: dict) -> Answer:
    """How hard each level is (the win rates), which cards are hardest and easiest, and
    what the other signal modes change."""
    found = win_rate(summary)
    ranked = sorted(summary["items"], key=lambda i: i["fulfilled_share"]["value"])
    hardest = ", ".join(f"{i['item']} ({100 * i['fulfilled_share']['value']:.0f} % "
                        f"fulfilled: {i['text']})" for i in ranked[:3])
    easiest = ", ".join(f"{i['item']} ({100 * i['fulfilled_share']['value']:.0f} %)"
                        for i in ranked[-2:])
    found.paragraph += (f" The hardest order cards, over every table: {hardest}; the easiest "
                        f"{easiest}.")
    return found


def plot_cards(summary: dict, path: Path) -> Path:
    """Every card's fulfilled share with its 95 % interval, hardest first, a colour per
    card family."""
    ranked = sorted(summary["items"], key=lambda i: i["fulfilled_share"]["value"])
    colours = Colours(dict.fromkeys(i["family"] for i in ranked))
    fig, ax = new_figure(figsize=(7.5, 1.8 + 0.16 * len(ranked)))
    for row, i in enumerate(ranked):
        e = i["fulfilled_share"]
        ax.errorbar(100 * e["value"], row, xerr=[[100 * (e["value"] - e["low"])],
                                                 [100 * (e["high"] - e["value"])]],
                    fmt="o", markersize=3, color=colours[i["family"]], label=i["family"])
    ax.set_yticks(range(len(ranked)), [i["item"] for i in ranked], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("share of the times a card was on display that it was fulfilled (%)")
    legend_outside(fig, [ax])
    return save_figure(fig, summary, "order cards, hardest first", path)


def cards_markdown(summary: dict, out: Path) -> list[str]:
    """The report's section on order cards, hardest first, with its chart."""
    if not summary.get("items"):
        return []
    lines = ["## Order cards", "", f"![order cards]({plot_cards(summary, out / 'cards.png').name})",
             "",
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
