"""Paired contrasts between two tables of one experiment: what a change of strategy is worth.

The ``[contrasts]`` section names pairs of tables that differ in one player's strategy
(e.g. keeping against eating a finisher). Both tables play the same seed, hence the same
deals, so the difference in that player's score and win share is taken deal by deal
(paired; on duplicate deals a deal's rotations are one sample), with a 95 % Student-t
interval. Use duplicate deals so the player sits in every seat.
"""

from dataclasses import dataclass

import numpy as np

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.reports.answer import Answer
from cakesim.reports.text import points, pp
from cakesim.stats.intervals import paired_difference


@dataclass(frozen=True)
class ContrastQuestion:
    """Pairs of table labels, and the player (1: the first strategy in ``seats``) compared."""

    pairs: tuple[tuple[str, str], ...]
    player: int

    def at_most(self, games: int) -> "ContrastQuestion":
        """Contrasts play no games of their own: unchanged."""
        return self


def parse(table: Table) -> ContrastQuestion:
    """``[contrasts]``: ``pairs = [["table A", "table B"], ...]`` and ``player = 1``."""
    table.only(["pairs", "player"])
    pairs = table.get("pairs", list)
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str)
                                                                  for p in pair)):
            raise table.error("pairs", f"{pair!r} is not a pair of table labels")
    return ContrastQuestion(tuple(tuple(p) for p in pairs), table.int_in("player", 1, 99, 1))


def _player_deals(run, player: int) -> tuple[np.ndarray, np.ndarray]:
    """The player's mean score and win units per game, deal by deal."""
    per_deal = run.totals.games_per_deal
    return tuple(run.by_deal.player[m][:, player] / per_deal for m in ("total", "win_units"))


def analyse(experiment, runs, question: ContrastQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """Per pair: the player's score and win-share difference (A minus B), paired by deal."""
    by_label = {run.table.label: run for run in runs}
    win_units = experiment.game.win_units
    found = []
    for a, b in question.pairs:
        for label in (a, b):
            if label not in by_label:
                raise InputError(str(experiment.path), "contrasts.pairs",
                                 f"no table {label!r}; tables: {', '.join(by_label)}")
            if question.player > by_label[label].table.players:
                raise InputError(str(experiment.path), "contrasts.player",
                                 f"{question.player} is not allowed; allowed: 1 to "
                                 f"{by_label[label].table.players} (the players of {label!r})")
        run_a, run_b = by_label[a], by_label[b]
        if (run_a.by_deal is None or run_b.by_deal is None
                or run_a.by_deal.deals != run_b.by_deal.deals):
            raise InputError(str(experiment.path), "contrasts.pairs",
                             f"{a!r} and {b!r} need every deal's sums (keep_rows at least the "
                             "games per table) and equal deal counts")
        total_a, units_a = _player_deals(run_a, question.player - 1)
        total_b, units_b = _player_deals(run_b, question.player - 1)
        found.append({"table": a, "against": b, "player": question.player,
                      "score": paired_difference(total_a, total_b).as_dict(),
                      "win_share": paired_difference(units_a / win_units,
                                                     units_b / win_units).as_dict()})
    return {"contrasts": found}


def headline(data: dict) -> str:
    """The contrasts in one line: score and win-share differences (the first three)."""
    shown = [f"{c['table']} minus {c['against']}: {c['score']['value']:+.1f} points, "
             f"{100 * c['win_share']['value']:+.1f} pp" for c in data["contrasts"][:3]]
    more = len(data["contrasts"]) - len(shown)
    return "; ".join(shown) + (f"; {more} more in the report." if more else ".")


def answer(data: dict, summary: dict) -> Answer:
    """Per pair of table kinds (the labels without their player count), the compared
    player's win-share difference at each player count, and whether each is clear."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for c in data["contrasts"]:
        groups.setdefault((_kind(c["table"]), _kind(c["against"])), []).append(c)
    sentences, rows = [], []
    for (kind, against), group in groups.items():
        unclear = [c for c in group if c["win_share"]["low"] <= 0 <= c["win_share"]["high"]]
        shifts = ", ".join(f"{pp(c['win_share'])} at {_count(c['table'])}" for c in group)
        sentences.append(f"Player {group[0]['player']}'s win share, {kind} rather than "
                         f"{against}: {shifts}"
                         + (f" ({len(unclear)} not clearly different from 0)." if unclear
                            else " (every one clearly different from 0)."))
        rows += [[c["table"], c["against"], points(c["win_share"]),
                  f"{c['score']['value']:+.2f} [{c['score']['low']:+.2f}, "
                  f"{c['score']['high']:+.2f}]"] for c in group]
    first = sentences[0].split(":")[0]
    line = f"{first}: " + "; ".join(s.split(": ", 1)[1].split(" (")[0] for s in sentences[:1])
    return Answer(" ".join(sentences), line,
                  ["table", "against", "win-share difference", "score difference"], rows)


def _kind(label: str) -> str:
    """A table label without its leading player count and base variant: ``keeps
    finishers`` from ``2P base keeps finishers``."""
    words = label.split()
    if words and words[0][:-1].isdigit() and words[0].endswith("P"):
        words = words[1:]
    if words and words[0] == "base":
        words = words[1:]
    return " ".join(words)


def _count(label: str) -> str:
    return label.split()[0]



def numbers(data: dict) -> dict[str, dict]:
    """Every contrast's differences, for baselines."""
    found = {}
    for c in data["contrasts"]:
        found[f"{c['table']} minus {c['against']} | score"] = c["score"]
        found[f"{c['table']} minus {c['against']} | win share"] = c["win_share"]
    return found


def markdown(data: dict, plot: str) -> list[str]:
    """The contrasts as a plot and a table."""
    lines = ["## Paired contrasts", "", f"![contrasts]({plot})", "",
             "The compared player's score and win share at the first table minus at the "
             "second, deal by deal on identical deals (95 % intervals).", "",
             "| table | against | player | score difference | win-share difference |",
             "|---|---|---|---|---|"]
    for c in data["contrasts"]:
        s, w = c["score"], c["win_share"]
        lines.append(f"| {c['table']} | {c['against']} | {c['player']} | "
                     f"{s['value']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}] | "
                     f"{points(w)} |")
    return [*lines, ""]


def plot(data: dict, runs, summary: dict, out) -> str:
    """Every contrast's win-share difference with its 95 % interval, one row each, a
    colour per kind of contrast."""
    from cakesim.reports.figures import Colours, legend_outside, new_figure, save_figure

    found = data["contrasts"]
    kinds = [f"{_kind(c['table'])} rather than {_kind(c['against'])}" for c in found]
    colours = Colours(dict.fromkeys(kinds))
    fig, ax = new_figure(figsize=(7.5, 1.6 + 0.32 * len(found)))
    for row, (c, kind) in enumerate(zip(found, kinds, strict=True)):
        w = c["win_share"]
        ax.errorbar(100 * w["value"], row, xerr=[[100 * (w["value"] - w["low"])],
                                                 [100 * (w["high"] - w["value"])]],
                    fmt="o", color=colours[kind], capsize=3, label=kind)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(found)), [_count(c["table"]) for c in found])
    ax.invert_yaxis()
    ax.set_xlabel(f"player {found[0]['player']}'s win-share difference (pp)")
    legend_outside(fig, [ax], ncols=1)
    return save_figure(fig, summary, "paired contrasts", out / "contrasts.png").name
