"""The ``[luck]`` section: how much do skill and drafting matter against luck?

Two answers, from the experiment's own tables:

*Alone against a field.* A table that seats one player of a strategy ``lone`` names
among ``P - 1`` players of one other strategy, on duplicate deals (so the lone player
sits once in every seat of every deal), gives the lone player's win share with a 95 %
interval over deals, against the fair ``1/P``.

*Where the score's spread comes from.* A table played with the option ``luck =
"nested"`` deals its tiles once per block of ``TILE_BLOCK`` consecutive deals, shuffles
the chip piles once per ``CHIP_BLOCK`` deals inside it, and draws every aim's error and
every die roll afresh for each deal (``kernel.py``: the four chance streams). For every
seat and rotation (so every seat and player), a player's scores over the deals form a
balanced two-level nested design, and the method of moments (the classical nested
analysis of variance) splits their variance into the tile deal's share, the chip
draws' share and the rest (aim errors and die rolls). The players' mean scores differ by
their strategy (their aim error: *skill*), and the seats' by the placement order; these
fixed effects' variances join the sum. Each source's share of the total is reported with
a 95 % percentile bootstrap over tile blocks (the independent units). A component the
moments estimate below 0 is reported as 0.
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

from cakesim.engine.tables import Table
from cakesim.games.topp_die_torte.rules import CHIP_BLOCK, NESTED, TILE_BLOCK
from cakesim.games.topp_die_torte.strategies import AIM_ERROR
from cakesim.reports.answer import Answer
from cakesim.reports.text import percent, points
from cakesim.stats.intervals import Estimate, mean_of

SOURCES = ("skill", "seat", "tiles", "chips", "aim and die")
"""The sources a score's variance is split into, in the report's order."""
RESAMPLES = 400


@dataclass(frozen=True)
class LuckQuestion:
    """The strategies whose lone player's win share is reported."""

    lone: tuple[str, ...]

    def at_most(self, games: int) -> "LuckQuestion":
        """The section plays no games of its own: unchanged."""
        return self


def parse(table: Table) -> LuckQuestion:
    """``[luck]``: ``lone`` (strategy names whose lone player's share is reported)."""
    table.only(["lone"])
    names = table.get("lone", list, [])
    for name in names:
        if not isinstance(name, str):
            raise table.error("lone", f"{name!r} is not allowed; allowed: strategy names")
    return LuckQuestion(tuple(names))


def _lone_rows(runs, question: LuckQuestion, win_units: int) -> list[dict]:
    """Each table with one ``lone`` player among a field of another strategy."""
    found = []
    for run in runs:
        names = [s.name for s in run.table.strategies]
        lone, field = names[0], set(names[1:])
        # A nested table shares its tiles among blocks of deals: its deals are not
        # independent, so its win shares would get intervals too narrow.
        if (lone not in question.lone or len(field) != 1 or lone in field
                or NESTED in run.table.options):
            continue
        if run.by_deal is None:
            continue
        per_deal = run.table.games_per_deal * win_units
        share = mean_of(run.by_deal.player["win_units"][:, 0] / per_deal)
        fair = 1 / run.table.players
        strategies = run.table.strategies
        found.append({"table": run.table.label, "players": run.table.players,
                      "lone": lone, "field": field.pop(), "share": share.as_dict(),
                      "lone_is": _in_words(strategies[0]), "field_is": _in_words(strategies[1]),
                      "fair": fair, "gap": Estimate(share.value - fair, share.low - fair,
                                                    share.high - fair, share.n).as_dict(),
                      "deals": run.by_deal.deals})
    return found


def _blocks(run) -> int:
    """Whole tile blocks a nested table played (its runner deals: ``deal_block``)."""
    return run.totals.deals


def _in_words(strategy) -> str:
    """What sets a strategy apart here: its aim error, and a random draft."""
    words = f"aim error {strategy.params[AIM_ERROR]:g}"
    return words + (", random draft" if strategy.draft == "random" else "")


def _cells(run, measure: str = "score") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``measure`` as ``(tile blocks, chip blocks, replicates, cells)`` with a cell per
    seat and rotation, and each cell's seat and player: whole tile blocks only.

    ``score``: the points; ``lead``: the points minus the mean of the others at the table,
    what decides who wins (a deal that brings everyone more cubes moves no lead).
    """
    rows = run.rows
    players = run.table.players
    # The kernel's deal and rotation (a runner deal is a whole tile block).
    per_deal = players if run.table.duplicate else 1
    game = rows["game"].to_numpy()
    deal, rotation = game // per_deal, game % per_deal
    value = rows["total"].to_numpy(np.float64)
    if measure == "lead":
        table_sum = rows.groupby("game")["total"].transform("sum").to_numpy(np.float64)
        value = value - (table_sum - value) / (players - 1)
    blocks = (int(deal.max()) + 1) // TILE_BLOCK
    used = deal < blocks * TILE_BLOCK
    cell = rotation * players + rows["seat"].to_numpy()
    scores = np.zeros((blocks * TILE_BLOCK, per_deal * players))
    scores[deal[used], cell[used]] = value[used]
    cells = np.arange(per_deal * players)
    seat = cells % players
    player = (seat - cells // players) % players
    shape = (blocks, TILE_BLOCK // CHIP_BLOCK, CHIP_BLOCK, per_deal * players)
    return scores.reshape(shape), seat, player


def _components(scores: np.ndarray, seat: np.ndarray, player: np.ndarray) -> np.ndarray:
    """Each source's variance (``SOURCES`` order) from nested scores (``_cells``)."""
    blocks, chips, reps, _ = scores.shape
    chip_mean = scores.mean(axis=2, keepdims=True)
    tile_mean = chip_mean.mean(axis=1, keepdims=True)
    cell_mean = tile_mean.mean(axis=0, keepdims=True)
    within = ((scores - chip_mean) ** 2).sum(axis=(0, 1, 2)) / (blocks * chips * (reps - 1))
    between_chips = (reps * ((chip_mean - tile_mean) ** 2).sum(axis=(0, 1, 2))
                     / (blocks * (chips - 1)))
    between_tiles = (chips * reps * ((tile_mean - cell_mean) ** 2).sum(axis=(0, 1, 2))
                     / (blocks - 1))
    rest = within.mean()
    chip_part = max(0.0, float(((between_chips - within) / reps).mean()))
    tile_part = max(0.0, float(((between_tiles - between_chips) / (chips * reps)).mean()))
    means = cell_mean.reshape(-1)
    by_player = np.array([means[player == p].mean() for p in np.unique(player)])
    by_seat = np.array([means[seat == s].mean() for s in np.unique(seat)])
    return np.array([by_player.var(), by_seat.var(), tile_part, chip_part, rest])


def _shares(scores, seat, player) -> np.ndarray:
    """Each source's share of the variance."""
    parts = _components(scores, seat, player)
    return parts / parts.sum()


def _split(run, seed: int, measure: str) -> dict:
    """One measure's variance shares, with bootstrap intervals over tile blocks."""
    scores, seat, player = _cells(run, measure)

    def statistic(index):
        return _shares(scores[index.astype(int)], seat, player)

    found = stats.bootstrap((np.arange(scores.shape[0]),), statistic, vectorized=False,
                            n_resamples=RESAMPLES, method="percentile",
                            random_state=np.random.default_rng(seed))
    low, high = found.confidence_interval
    return {source: Estimate(float(v), float(a), float(b), int(scores.shape[0])).as_dict()
            for source, v, a, b in zip(SOURCES, _shares(scores, seat, player), low, high,
                                       strict=True)}


def _decomposition(run, seed: int) -> dict:
    """A nested table's variance shares of the score and of the lead over the others."""
    blocks = _blocks(run)
    return {"table": run.table.label, "players": run.table.players,
            "tile_blocks": blocks, "deals": blocks * TILE_BLOCK,
            "aim_errors": {s.name: float(s.params[AIM_ERROR]) for s in run.table.strategies},
            "shares": _split(run, seed, "score"), "lead_shares": _split(run, seed, "lead")}


def analyse(experiment, runs, question: LuckQuestion, n_jobs: int = -1,
            cache=None) -> dict:
    """The lone players' win shares and every nested table's variance shares."""
    # The bootstrap resamples tile blocks: a table needs two at least (a small run).
    nested = [run for run in runs if NESTED in run.table.options and run.rows_complete
              and _blocks(run) >= 2]
    return {"lone": _lone_rows(runs, question, experiment.game.win_units),
            "nested": [_decomposition(run, experiment.seed) for run in nested]}


MEASURES = {"lead_shares": "the lead over the others (points minus their mean), what "
                            "decides who wins",
            "shares": "the points"}
"""The measures whose variance is split: the report leads with the first."""


def _share_words(shares: dict) -> str:
    ordered = sorted(SOURCES, key=lambda source: -shares[source]["value"])
    return ", ".join(f"{source} {100 * shares[source]['value']:.0f} %" for source in ordered)


def headline(data: dict) -> str:
    """The strongest lone player's share, and the largest player count's split of the lead."""
    parts = []
    if data["lone"]:
        best = max(data["lone"], key=lambda r: r["gap"]["value"])
        parts.append(f"{best['lone']} ({best['lone_is']}) alone among {best['field']} "
                     f"({best['field_is']}) at {best['players']}P wins "
                     f"{percent(best['share'])} (fair {100 * best['fair']:.0f} %)")
    if data["nested"]:
        entry = max(data["nested"], key=lambda e: e["players"])
        parts.append(f"at {entry['players']}P the lead over the others varies by "
                     f"{_share_words(entry['lead_shares'])}")
    return "; ".join(parts) + "."


def answer(data: dict, summary: dict) -> Answer:
    """Skill's and drafting's worth in win share, then where the spread of the lead and of
    the points comes from, largest source first."""
    sentences, rows = [], []
    for row in data["lone"]:
        rows.append([row["table"], f"{row['players']}P", percent(row["share"]),
                     f"{100 * row['fair']:.0f} %", points(row["gap"])])
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in data["lone"]:
        groups.setdefault((row["lone"], row["field"]), []).append(row)
    for (lone, field), group in groups.items():
        sentences.append(
            f"One {lone} player ({group[0]['lone_is']}) among {field} players "
            f"({group[0]['field_is']}) wins " + ", ".join(
                f"{100 * r['share']['value']:.1f} % at {r['players']}P "
                f"({points(r['gap'])} against the fair share)" for r in group) + ".")
    for entry in data["nested"]:
        aims = ", ".join(f"{v:g}" for v in entry["aim_errors"].values())
        sentences.append(f"At {entry['players']}P (aim errors {aims}), of the variance of "
                         + "; of ".join(f"{words}: " + ", ".join(
                             f"{source} {percent(entry[key][source])}" for source in sorted(
                                 SOURCES, key=lambda source: -entry[key][source]["value"]))
                             for key, words in MEASURES.items()) + ".")
    if data["nested"]:
        sentences.append("Skill's share is that of these players' aim errors: a table of "
                         "closer (wider) skills gives it less (more).")
    return Answer(" ".join(sentences), headline(data),
                  ["table", "players", "lone player's win share", "fair", "against fair"],
                  rows)


def numbers(data: dict) -> dict[str, dict]:
    """The lone players' shares and the variance shares, for baselines."""
    found = {f"{r['table']} | lone win share": r["share"] for r in data["lone"]}
    for entry in data["nested"]:
        for key in MEASURES:
            for source in SOURCES:
                found[f"{entry['table']} | {source} {key}"] = entry[key][source]
    return found


def markdown(data: dict, plot: str) -> list[str]:
    """The section: the lone players' table, then the variance shares per nested table."""
    lines = ["## Skill and drafting against luck", ""]
    if plot:
        lines += [f"![variance shares]({plot})", ""]
    if data["lone"]:
        lines += ["One player of a strategy alone among players of another, on duplicate "
                  "deals (the lone player sits once in every seat of every deal); 95 % "
                  "intervals over deals.", "",
                  "| table | lone | field | win share | fair | against fair | deals |",
                  "|---|---|---|---|---|---|---|"]
        lines += [f"| {r['table']} | {r['lone']} ({r['lone_is']}) | {r['field']} "
                  f"({r['field_is']}) | {percent(r['share'])} | {100 * r['fair']:.0f} % | "
                  f"{points(r['gap'])} | {r['deals']:,} |" for r in data["lone"]]
        lines.append("")
    if data["nested"]:
        lines += [f"Where a player's result varies from game to game: nested deals (tiles "
                  f"dealt once per {TILE_BLOCK} deals, chips shuffled once per "
                  f"{CHIP_BLOCK}, aim errors and die rolls new every deal), split by the "
                  "method of moments; *skill* is the spread of the players' means (their "
                  "aim errors differ), *seat* that of the seats' (placement order). The "
                  "shares are of the sum of these parts (what the nesting cannot separate, "
                  "such as a player's luck with one deal, counts in *aim and die*). 95 % "
                  "bootstrap intervals over tile blocks.", ""]
        for key, words in MEASURES.items():
            lines += [f"Of {words}:", "",
                      "| table | aim errors | " + " | ".join(SOURCES) + " | tile blocks |",
                      "|---|---|" + "---|" * len(SOURCES) + "---|"]
            for e in data["nested"]:
                aims = ", ".join(f"{n} {v:g}" for n, v in e["aim_errors"].items())
                lines.append(f"| {e['table']} | {aims} | "
                             + " | ".join(percent(e[key][s]) for s in SOURCES)
                             + f" | {e['tile_blocks']:,} |")
            lines.append("")
    return lines


def plot(data: dict, runs, summary: dict, out):
    """Stacked bars, a panel per measure: each nested table's variance shares."""
    from cakesim.reports.figures import PALETTE, legend_outside, new_figure, save_figure

    if not data["nested"]:
        return None
    fig, axes = new_figure(1, len(MEASURES), figsize=(10, 3.8), squeeze=False, sharey=True)
    labels = [f"{e['players']}P" for e in data["nested"]]
    for ax, (key, words) in zip(axes[0], MEASURES.items(), strict=True):
        bottom = np.zeros(len(labels))
        for index, source in enumerate(SOURCES):
            values = np.array([e[key][source]["value"] for e in data["nested"]])
            ax.bar(labels, 100 * values, bottom=100 * bottom, label=source,
                   color=PALETTE[index % len(PALETTE)])
            bottom += values
        ax.set_title(words.split(",")[0], fontsize=9)
        ax.set_ylim(0, 100)
    axes[0][0].set_ylabel("share of the variance (%)")
    legend_outside(fig, list(axes[0]))
    return save_figure(fig, summary, "where the spread comes from", out / "luck.png",
                       intervals=False).name
