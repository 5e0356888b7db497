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
from cakesim.games.topp_die_torte.strategies import AIM_ERROR
from cakesim.reports.answer import Answer
from cakesim.reports.text import percent, points
from cakesim.stats.intervals import Estimate, mean_of

TILE_BLOCK = 16
"""Deals that share one tile deal in a nested table (4 chip shuffles of 4 deals each)."""
CHIP_BLOCK = 4
"""Deals that share one shuffle of the chip piles in a nested table."""
SOURCES = ("skill", "seat", "tiles", "chips", "aim and die")
"""The sources a score's variance is split into, in the report's order."""
RESAMPLES = 400
NESTED = ("luck", "nested")
"""The table option that nests a table's deals."""


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
    """Whole tile blocks a nested table played."""
    return run.totals.deals // TILE_BLOCK


def _in_words(strategy) -> str:
    """What sets a strategy apart here: its aim error, and a random draft."""
    words = f"aim error {strategy.params[AIM_ERROR]:g}"
    return words + (", random draft" if strategy.draft == "random" else "")


def _cells(run) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores as ``(tile blocks, chip blocks, replicates, cells)`` with a cell per seat and
    rotation, and each cell's seat and player: whole tile blocks only."""
    rows = run.rows
    players, per_deal = run.table.players, run.table.games_per_deal
    deals = int(rows["deal"].max()) + 1
    blocks = deals // TILE_BLOCK
    used = rows[rows["deal"] < blocks * TILE_BLOCK]
    rotation = (used["game"].to_numpy() % per_deal)
    cell = rotation * players + used["seat"].to_numpy()
    scores = np.zeros((blocks * TILE_BLOCK, per_deal * players))
    scores[used["deal"].to_numpy(), cell] = used["total"].to_numpy()
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


def _decomposition(run, seed: int) -> dict:
    """A nested table's variance shares with bootstrap intervals over tile blocks."""
    scores, seat, player = _cells(run)
    shares = _shares(scores, seat, player)

    def statistic(index):
        return _shares(scores[index.astype(int)], seat, player)

    found = stats.bootstrap((np.arange(scores.shape[0]),), statistic, vectorized=False,
                            n_resamples=RESAMPLES, method="percentile",
                            random_state=np.random.default_rng(seed))
    low, high = found.confidence_interval
    strategies = {s.name: float(s.params[0]) for s in run.table.strategies}
    return {"table": run.table.label, "players": run.table.players,
            "tile_blocks": int(scores.shape[0]), "deals": int(scores.shape[0] * TILE_BLOCK),
            "aim_errors": strategies,
            "variance": float(np.var(scores)),
            "shares": {source: Estimate(float(v), float(a), float(b),
                                        int(scores.shape[0])).as_dict()
                       for source, v, a, b in zip(SOURCES, shares, low, high, strict=True)}}


def analyse(experiment, runs, question: LuckQuestion, n_jobs: int = -1) -> dict:
    """The lone players' win shares and every nested table's variance shares."""
    # The bootstrap resamples tile blocks: a table needs two at least (a small run).
    nested = [run for run in runs if NESTED in run.table.options and run.rows_complete
              and _blocks(run) >= 2]
    return {"lone": _lone_rows(runs, question, experiment.game.win_units),
            "nested": [_decomposition(run, experiment.seed) for run in nested]}


def _share_words(entry: dict) -> str:
    shares = entry["shares"]
    return ", ".join(f"{source} {100 * shares[source]['value']:.0f} %" for source in SOURCES)


def headline(data: dict) -> str:
    """The largest player count's variance shares, and the strongest lone player's share."""
    parts = []
    if data["nested"]:
        entry = max(data["nested"], key=lambda e: e["players"])
        parts.append(f"At {entry['players']}P the score's variance comes from "
                     f"{_share_words(entry)}")
    if data["lone"]:
        best = max(data["lone"], key=lambda r: r["gap"]["value"])
        parts.append(f"{best['lone']} alone among {best['field']} at {best['players']}P "
                     f"wins {percent(best['share'])} (fair {100 * best['fair']:.0f} %)")
    return "; ".join(parts) + "."


def answer(data: dict, summary: dict) -> Answer:
    """Skill's and drafting's worth in win share, then where the score's spread comes from,
    largest source first."""
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
        shares = entry["shares"]
        ordered = sorted(SOURCES, key=lambda source: -shares[source]["value"])
        sentences.append(f"Of the score's variance at {entry['players']}P (players of aim "
                         f"errors {', '.join(f'{v:g}' for v in entry['aim_errors'].values())}"
                         f"): " + ", ".join(f"{source} {percent(shares[source])}"
                                            for source in ordered) + ".")
    return Answer(" ".join(sentences), headline(data),
                  ["table", "players", "lone player's win share", "fair", "against fair"],
                  rows)


def numbers(data: dict) -> dict[str, dict]:
    """The lone players' shares and the variance shares, for baselines."""
    found = {f"{r['table']} | lone win share": r["share"] for r in data["lone"]}
    for entry in data["nested"]:
        for source in SOURCES:
            found[f"{entry['table']} | {source} share"] = entry["shares"][source]
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
        lines += [f"| {r['table']} | {r['lone']} | {r['field']} | {percent(r['share'])} | "
                  f"{100 * r['fair']:.0f} % | {points(r['gap'])} | {r['deals']:,} |"
                  for r in data["lone"]]
        lines.append("")
    if data["nested"]:
        lines += [f"Where a player's score varies from game to game: nested deals (tiles "
                  f"dealt once per {TILE_BLOCK} deals, chips shuffled once per "
                  f"{CHIP_BLOCK}, aim errors and die rolls new every deal), split by the "
                  "method of moments; *skill* is the spread of the players' mean scores "
                  "(their aim errors differ), *seat* that of the seats' (placement "
                  "order). 95 % bootstrap intervals over tile blocks.", "",
                  "| table | aim errors | " + " | ".join(SOURCES) + " | tile blocks |",
                  "|---|---|" + "---|" * len(SOURCES) + "---|"]
        for e in data["nested"]:
            aims = ", ".join(f"{n} {v:g}" for n, v in e["aim_errors"].items())
            lines.append(f"| {e['table']} | {aims} | "
                         + " | ".join(percent(e["shares"][s]) for s in SOURCES)
                         + f" | {e['tile_blocks']:,} |")
        lines.append("")
    return lines


def plot(data: dict, runs, summary: dict, out):
    """Stacked bars: each nested table's variance shares."""
    from cakesim.reports.figures import PALETTE, legend_outside, new_figure, save_figure

    if not data["nested"]:
        return None
    fig, ax = new_figure(figsize=(7, 3.6))
    labels = [f"{e['players']}P" for e in data["nested"]]
    bottom = np.zeros(len(labels))
    for index, source in enumerate(SOURCES):
        values = np.array([e["shares"][source]["value"] for e in data["nested"]])
        ax.bar(labels, 100 * values, bottom=100 * bottom, label=source,
               color=PALETTE[index % len(PALETTE)])
        bottom += values
    ax.set_ylabel("share of the score's variance (%)")
    ax.set_ylim(0, 100)
    legend_outside(fig, [ax])
    return save_figure(fig, summary, "where the score's variance comes from",
                       out / "luck.png", intervals=False).name
