"""The ``[values]`` section: what each die face, the die and the exchange jar are worth.

A rule part's worth is what the players score with it minus what they score without it
(RULES.md section 4; the variants ``blank-N``, ``no-die`` and ``no-exchange``), on the same
deals: the tables of one player count and strategies play one seed, so deal ``d`` of the
base table and of a variant's table share their tiles, chips and draws until play
differs. The difference in the mean points per player is taken deal by deal (paired),
with a 95 % Student-t interval over deals; also the change in the first placer's win
share, to show whether the part moves the seats' balance.
"""

from dataclasses import dataclass

import numpy as np

from cakesim.engine.tables import Table
from cakesim.games.topp_die_torte.rules import VARIANTS
from cakesim.reports.answer import Answer
from cakesim.reports.text import points
from cakesim.stats.intervals import Estimate, holm, paired_difference, two_sample_p


@dataclass(frozen=True)
class ValuesQuestion:
    """The base variant the others are measured against."""

    base: str

    def at_most(self, games: int) -> "ValuesQuestion":
        """The section plays no games of its own: unchanged."""
        return self


def parse(table: Table) -> ValuesQuestion:
    """``[values]``: ``base`` (default ``base``), one of the game's variants."""
    table.only(["base"])
    return ValuesQuestion(table.get("base", str, "base", VARIANTS))


def _part(table) -> str:
    """What a variant takes away, in words (``die face 3 (golden:1)``)."""
    variant = table.variant
    if variant.startswith("blank-"):
        face = int(variant.removeprefix("blank-")) - 1
        return f"die face {face + 1} ({table.rules.rules.face_name(face)})"
    return {"no-die": "the die", "no-exchange": "the exchange jar"}.get(variant, variant)


def _per_deal(run) -> tuple[np.ndarray, np.ndarray]:
    """Per deal: the mean points per player and game, and the first placer's win share."""
    table = run.table
    games = table.games_per_deal
    points_per_player = run.by_deal.seat["total"].sum(axis=1) / (games * table.players)
    first = run.by_deal.seat["win_units"][:, 0] / (games * table.game.win_units)
    return points_per_player, first


def analyse(experiment, runs, question: ValuesQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """Per player count and variant: points per player and the first placer's share,
    base minus variant, paired by deal."""
    groups: dict[tuple, dict[str, object]] = {}
    for run in runs:
        # The tables another section added (the skill rows) answer its question, not this.
        if run.by_deal is None or run.table.label in experiment.section_tables:
            continue
        key = (run.table.players, tuple(s.name for s in run.table.strategies),
               run.table.duplicate, run.table.options)
        groups.setdefault(key, {})[run.table.variant] = run
    found = []
    for (players, names, _, _), by_variant in groups.items():
        base = by_variant.get(question.base)
        if base is None:
            continue
        base_points, base_first = _per_deal(base)
        for variant, run in by_variant.items():
            if variant == question.base:
                continue
            n = min(run.by_deal.deals, base.by_deal.deals)
            other_points, other_first = _per_deal(run)
            found.append({
                "players": players, "strategies": "/".join(dict.fromkeys(names)),
                "variant": variant, "part": _part(run.table), "table": run.table.label,
                "base_table": base.table.label, "deals": n,
                "base_points": float(base_points[:n].mean()),
                "worth": paired_difference(base_points[:n], other_points[:n]).as_dict(),
                "first_share": paired_difference(base_first[:n], other_first[:n]).as_dict()})
    return {"base": question.base, "values": found}


def _worth(entry: dict) -> str:
    w = entry["worth"]
    return f"{w['value']:+.2f} [{w['low']:+.2f}, {w['high']:+.2f}]"


def headline(data: dict) -> str:
    """The first table's players' worths at the largest player count, largest first."""
    if not data["values"]:
        return "No variant table shares its deals with a base table."
    players = max(v["players"] for v in data["values"])
    first = data["values"][0]["strategies"]
    shown = sorted((v for v in data["values"]
                    if v["players"] == players and v["strategies"] == first),
                   key=lambda v: -v["worth"]["value"])
    return (f"Points per player per game at {players}P ({first}), with minus without: "
            + "; ".join(f"{v['part']} {_worth(v)}" for v in shown) + ".")


def answer(data: dict, summary: dict) -> Answer:
    """Each part's worth in points per player, per player count, for the first table's
    players; whether it moves the first placer's share; and the worths other players find."""
    sentences, rows = [], []
    groups: dict[str, list[dict]] = {}
    for v in data["values"]:
        groups.setdefault(v["strategies"], []).append(v)
        rows.append([f"{v['players']}P", v["strategies"], v["part"], _worth(v),
                     f"{v['base_points']:.2f}", points(v["first_share"])])
    for rank, (strategies, entries) in enumerate(groups.items()):
        by_part: dict[str, list[dict]] = {}
        for e in entries:
            by_part.setdefault(e["part"], []).append(e)
        ordered = sorted(by_part.items(), key=lambda item: -max(
            e["worth"]["value"] for e in item[1]))
        if rank > 0:
            largest = max(e["players"] for e in entries)
            sentences.append(f"With {strategies} players at {largest}P: " + "; ".join(
                f"{part} {_worth(next(e for e in found if e['players'] == largest))}"
                for part, found in ordered if any(e["players"] == largest for e in found))
                + " points.")
            continue
        # Many shifts are tested at once: one is called clear only after Holm's correction
        # over every entry of the group.
        shifts = [Estimate(**e["first_share"]) for e in entries]
        adjusted = holm(np.array([two_sample_p(x.value, x.se, 0.0, 0.0) for x in shifts]))
        moves = {id(e) for e, p in zip(entries, adjusted, strict=True) if p < 0.05}
        sentences.append(f"With {strategies} players:")
        for part, found in ordered:
            clear = [e for e in found if not e["worth"]["low"] <= 0 <= e["worth"]["high"]]
            sentences.append(
                f"{part[0].upper()}{part[1:]} is worth "
                + ", ".join(f"{e['worth']['value']:+.2f} points at {e['players']}P"
                            for e in found)
                + (" per player and game." if clear
                   else " (no worth clearly different from 0)."))
        moved = [e for e in entries if id(e) in moves]
        sentences.append(
            ("These parts clearly move the first placer's win share: " + "; ".join(
                f"{e['part']} at {e['players']}P ({points(e['first_share'])})" for e in moved)
             if moved else "No part clearly moves the first placer's win share")
            + f" (Holm-corrected over the {len(entries)} shifts).")
    return Answer(" ".join(sentences), headline(data),
                  ["players", "strategies", "rule part", "points per player, with minus without",
                   "points per player with it", "first placer's share, with minus without"],
                  rows)


def numbers(data: dict) -> dict[str, dict]:
    """Every part's worth and first-placer shift, for baselines."""
    found = {}
    for v in data["values"]:
        found[f"{v['table']} | worth"] = v["worth"]
        found[f"{v['table']} | first placer shift"] = v["first_share"]
    return found


def markdown(data: dict, plot: str) -> list[str]:
    """The worths as a plot and a table."""
    lines = ["## What each rule part is worth", ""]
    if plot:
        lines += [f"![values]({plot})", ""]
    lines += ["Points per player and game with the rule part minus without it (the variant "
              "that removes it), deal by deal on the same deals; and the first placer's "
              "win share, with minus without. 95 % intervals over deals.", "",
              "| players | strategies | rule part | worth (points) | points with it | "
              "first placer's share shift | deals |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {v['players']}P | {v['strategies']} | {v['part']} | {_worth(v)} | "
              f"{v['base_points']:.2f} | {points(v['first_share'])} | {v['deals']:,} |"
              for v in data["values"]]
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out):
    """Horizontal bars with intervals: each part's worth, one colour per player count, one
    panel per strategy mix."""
    from cakesim.reports.figures import Colours, legend_outside, new_figure, save_figure

    if not data["values"]:
        return None
    parts = list(dict.fromkeys(v["part"] for v in data["values"]))
    mixes = list(dict.fromkeys(v["strategies"] for v in data["values"]))
    counts = sorted({v["players"] for v in data["values"]})
    colours = Colours([f"{p}P" for p in counts])
    fig, axes = new_figure(1, len(mixes), squeeze=False, sharey=True,
                           figsize=(4.2 * len(mixes) + 2, 0.3 * len(parts) * len(counts) + 1.6))
    height = 0.8 / len(counts)
    for ax, mix in zip(axes[0], mixes, strict=True):
        for k, players in enumerate(counts):
            for v in data["values"]:
                if v["players"] != players or v["strategies"] != mix:
                    continue
                w = v["worth"]
                ax.barh(parts.index(v["part"]) + k * height, w["value"], height,
                        color=colours[f"{players}P"], label=f"{players}P",
                        xerr=[[w["value"] - w["low"]], [w["high"] - w["value"]]])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(f"{mix} players", fontsize=9)
        ax.set_xlabel("points per player and game,\nwith minus without")
    axes[0][0].set_yticks([i + 0.4 - height / 2 for i in range(len(parts))], parts)
    axes[0][0].invert_yaxis()
    legend_outside(fig, list(axes[0]))
    return save_figure(fig, summary, "what each rule part is worth", out / "values.png").name
