"""Balance baselines: an experiment's numbers at CI size, and whether any moved since.

``make baseline`` stores, per experiment, only what the check reads: in
``<experiment>.json`` the seed and game counts, a hash of the rule sets, strategies (every
parameter, defaults included) and configuration, a digest of the exact integer sums behind
the numbers, the tables' labels and the sections' numbers with their intervals; in
``<experiment>.npz.xz`` (an ``.npz`` compressed with xz) every deal's sums of the numbers
it gates, in the smallest integer type that holds them. The gated numbers themselves
follow from those sums (``Baseline.numbers``) and are not stored twice.

``make regress`` plays the same CI-sized experiment again. An equal digest means the
baseline was reproduced bit for bit. Otherwise every number is tested:

- *paired by deal* when the run played the same deals (same seed and game counts): the
  difference of a number is a sum over deals of the difference of each deal's
  contribution (its influence on the ratio ``sum(numerator) / sum(denominator)``), so
  the luck of the deals cancels and a small real change stands out;
- *unpaired* otherwise (e.g. a new seed), with each number's variance from its deals.

A number pooled over tables that share their deals (an order card's fulfilled share) is
summed per deal over the tables before its variance is taken. Numbers of game-specific
sections (Elo ratings, budgets, contrasts) are tested unpaired from their intervals.

The numbers form two families, each with Holm's correction at its own level:

- the *primary* family: the win shares (or win rates) of the tables the answer speaks
  of (by default the headline tables: those of the first table's strategy mix; ``[ci]
  primary`` may name others), at ``primary_level`` (default 0.04);
- every other number, at ``level`` (default 0.01).

So a run whose numbers did not move fails with probability at most 5 % (Holm is valid
under any dependence), while a headline share is not drowned among hundreds of
secondary numbers: ``gate_power`` is the power to catch a 1.5 pp move of each primary
share at the ``[ci]`` size (``cakesim.stats.planner.gate_power``), and a test holds every
experiment's ``[ci]`` size to at least 80 %. A move fails the check only when it is also
*material*: at least ``materiality`` for a share (win share, win rate; default 0.5 pp),
or that fraction of the baseline value for any other number.
"""

from __future__ import annotations

import io
import json
import lzma
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import code_version, digest, table_digest
from cakesim.engine.project import baselines_dir, strict_json
from cakesim.engine.runner import TableRun, pooled_by_deal
from cakesim.stats.intervals import Estimate, holm, influence_se, ratio_influence, two_sample_p
from cakesim.stats.planner import GATE_MOVE, gate_power
from cakesim.stats.sprt import SprtResult

if TYPE_CHECKING:  # the experiment loader sits above the statistics
    from cakesim.app.experiment import Experiment

GATED_SEAT_METRICS = ("win_units", "total")
"""Seat metrics whose per-deal sums the baseline keeps (win share, mean score)."""


def is_share(name: str) -> bool:
    """Whether a number is a share (its materiality is absolute, in share units)."""
    return any(word in name for word in ("share", "win rate"))


def is_primary(name: str, primary: list[str]) -> bool:
    """Whether a number is a win share or win rate of one of the ``primary`` tables."""
    label, _, number = name.rpartition(" | ")
    return label in primary and (number == "win rate" or number.endswith(" win share"))


def deal_arrays(experiment: Experiment, runs: list[TableRun]) -> dict[str, np.ndarray]:
    """Every deal's sums behind the gated numbers, keyed ``table/kind/metric``."""
    game = experiment.game
    arrays = {}
    for index, run in enumerate(runs):
        if run.by_deal is None:
            raise InputError(str(experiment.path), "experiment.keep_rows",
                             "the regression check needs every deal's sums: keep_rows must "
                             f"be at least the [ci] games ({run.totals.games})")
        for metric in GATED_SEAT_METRICS:
            if metric in run.by_deal.seat:
                arrays[f"{index}/seat/{metric}"] = run.by_deal.seat[metric]
        for metric, values in run.by_deal.game.items():
            arrays[f"{index}/game/{metric}"] = values
    if game.item_ratios:
        items, _ = pooled_by_deal(runs)
        for metric in sorted({m for pair in game.item_ratios.values() for m in pair}):
            arrays[f"pooled/item/{metric}"] = items[metric]
    return arrays


def gated_ratios(tables: list[dict], items: list[str], win_units: int,
                 arrays: dict[str, np.ndarray], item_ratios: dict[str, list[str]]
                 ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every gated number as per-deal ``(numerator, denominator)``: value = sum / sum.

    ``item_ratios`` names the per-item numbers (name -> numerator and denominator metric,
    the game's ``item_ratios``), each pooled over tables.
    """
    found = {}
    for index, t in enumerate(tables):
        label, per_deal = t["label"], t["games_per_deal"]
        units = arrays.get(f"{index}/seat/win_units")
        if units is not None:
            for seat in range(units.shape[1]):
                found[f"{label} | seat {seat + 1} win share"] = (units[:, seat] / win_units,
                                                                  _games(units, per_deal))
                total = arrays[f"{index}/seat/total"][:, seat]
                found[f"{label} | seat {seat + 1} mean score"] = (total, _games(total, per_deal))
        for key, values in arrays.items():
            prefix = f"{index}/game/"
            if key.startswith(prefix):
                metric = key[len(prefix):]
                name = "win rate" if metric == "won" else f"{metric.replace('_', ' ')} per game"
                found[f"{label} | {name}"] = (values, _games(values, per_deal))
    for name, (top, bottom) in item_ratios.items():
        numerator, denominator = arrays[f"pooled/item/{top}"], arrays[f"pooled/item/{bottom}"]
        for k, item in enumerate(items):
            found[f"{item} | {name}"] = (numerator[:, k], denominator[:, k])
    return found


def _games(values: np.ndarray, per_deal: int) -> np.ndarray:
    """The games of each deal, as a ratio's denominator."""
    return np.full(values.shape[0], float(per_deal))


def config_hash(experiment: Experiment) -> str:
    """A hash of what decides the numbers: every table's rules and strategies, seed, sizes."""
    return digest({"tables": [table_digest(t) for t in experiment.tables],
                   "games": experiment.table_games, "seed": experiment.seed})


def results_digest(runs: list[TableRun]) -> str:
    """A digest of the exact integer sums of every table: equal means bit for bit equal."""
    return digest([run.totals for run in runs])


@dataclass
class Baseline:
    """A baseline record (JSON) and every deal's sums of its gated numbers."""

    record: dict
    arrays: dict[str, np.ndarray]

    def ratios(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The gated numbers as per-deal ratios."""
        r = self.record
        return gated_ratios(r["tables"], r["items"], r["win_units"], self.arrays,
                            r["item_ratios"])

    def primary_power(self, move: float = GATE_MOVE) -> dict[str, float]:
        """Each primary number's ``gate_power``: the chance that the gate catches it
        moving by ``move`` at this baseline's size."""
        r = self.record
        found = {n: e for n, e in self.numbers().items() if is_primary(n, r["primary"])}
        return {n: gate_power(e["se"], len(found), r["primary_level"], move)
                for n, e in found.items()}

    def numbers(self) -> dict[str, dict]:
        """Every gated number: its value, standard error and deals, from the deals' sums."""
        found = {}
        for name, (top, bottom) in self.ratios().items():
            value, influence = ratio_influence(top, bottom)
            found[name] = {"value": value, "se": influence_se(influence),
                           "deals": int(influence.size)}
        return found


def make_baseline(experiment: Experiment, runs: list[TableRun],
                  sections: dict | None = None) -> Baseline:
    """The baseline of a CI-sized run (with its game-specific sections' numbers).

    The sequential tests' results are not kept: the check plays their claims afresh.
    """
    game = experiment.game
    tables = [{"label": run.table.label, "games_per_deal": run.table.games_per_deal}
              for run in runs]
    record = {
        "experiment": experiment.name, "code_version": code_version(),
        "seed": experiment.seed, "games_per_table": experiment.table_games,
        "config_hash": config_hash(experiment), "results_digest": results_digest(runs),
        "level": experiment.ci.level, "materiality": experiment.ci.materiality,
        "primary": list(experiment.ci.primary), "primary_level": experiment.ci.primary_level,
        "win_units": game.win_units, "tables": tables,
        "items": list(game.item_names(runs[0].table)) if game.item_ratios else [],
        "item_ratios": {k: list(v) for k, v in game.item_ratios.items()},
        "section_numbers": {},
    }
    for name, data in (sections or {}).items():
        for number, e in experiment.analyses[name].numbers(data).items():
            record["section_numbers"][number] = {**e, "se": Estimate(**e).se}
    return Baseline(record, deal_arrays(experiment, runs))


def baseline_path(name: str) -> Path:
    """The project's ``reports/baselines/<experiment>.json``."""
    return baselines_dir() / f"{name}.json"


def deals_path(path: Path) -> Path:
    """Where the deals' sums of the baseline record ``path`` are: ``<experiment>.npz.xz``."""
    return path.with_suffix(".npz.xz")


def write_baseline(baseline: Baseline, path: Path) -> None:
    """Write the record as readable JSON and the deals' sums beside it, compressed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(strict_json(baseline.record))
    smallest = {k: v.astype(np.min_scalar_type(-int(np.abs(v).max()) - 1))
                if v.dtype.kind == "i" and v.size else v for k, v in baseline.arrays.items()}
    # An uncompressed .npz (its members dated 1980, so the bytes follow from the arrays)
    # compressed whole by xz: the sums of tables that share deals compress together, and
    # a member's headers cost a few bytes instead of a few hundred.
    buffer = io.BytesIO()
    np.savez(buffer, **smallest)
    deals_path(path).write_bytes(lzma.compress(buffer.getvalue()))
    path.with_suffix(".npz").unlink(missing_ok=True)


def read_baseline(path: Path) -> Baseline:
    """A stored baseline; missing or unreadable is an InputError naming the file."""
    record = _read(path, json.loads)
    arrays = _read(deals_path(path), _unpacked)
    if not isinstance(record, dict) or not {"tables", "item_ratios", "primary"} <= set(record):
        raise InputError(str(path), "tables", "a baseline of an older cakesim; run "
                                              "`make baseline` and commit it")
    return Baseline(record, arrays)


def _read(path: Path, parse):
    """``parse`` of the bytes of one of a baseline's files."""
    try:
        return parse(path.read_bytes())
    except FileNotFoundError:
        raise InputError(str(path), "", "no baseline; run `make baseline` and commit "
                                        "it") from None
    # Bad JSON or a bad .npz is a ValueError; a truncated or foreign xz, an LZMAError.
    except (OSError, ValueError, EOFError, lzma.LZMAError) as error:
        raise InputError(str(path), "", f"unreadable: {error}") from None


def _unpacked(packed: bytes) -> dict[str, np.ndarray]:
    """The deals' sums in ``<experiment>.npz.xz``'s bytes, as floats for the arithmetic."""
    with np.load(io.BytesIO(lzma.decompress(packed))) as stored:
        return {k: stored[k].astype(np.float64) for k in stored.files}


@dataclass
class Regression:
    """A CI-sized run set against its baseline."""

    experiment: str
    identical: bool
    config_changed: bool
    paired: bool
    """Whether the numbers were compared deal by deal (same seed and game counts)."""
    moves: pd.DataFrame
    """One row per number that differs: baseline, now, difference, adjusted p, failed."""
    sprt: list[SprtResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Whether CI must go red."""
        return bool(self.problems)


def compare(baseline: Baseline, now: Baseline, sprt: list[SprtResult]) -> Regression:
    """Set a fresh CI-sized run ``now`` against the stored ``baseline``."""
    before, after = baseline.record, now.record
    identical = before["results_digest"] == after["results_digest"]
    config_changed = before["config_hash"] != after["config_hash"]
    paired = (before["seed"] == after["seed"]
              and before["games_per_table"] == after["games_per_table"]
              and before["tables"] == after["tables"])
    problems = []
    if identical:
        moves = pd.DataFrame(columns=["number", "baseline", "now", "difference", "p",
                                      "primary", "significant", "material"])
    else:
        moves = _moves(baseline, now, paired)
        if not config_changed and before["code_version"] == after["code_version"]:
            problems.append("same code, rules, strategies and seed, but the numbers differ: "
                            "the run is not reproducible")
        failing = moves["significant"] & moves["material"]
        for primary, level, which in ((True, before["primary_level"], "headline"),
                                      (False, before["level"], "other")):
            count = int((failing & (moves["primary"] == primary)).sum())
            if count:
                problems.append(f"{count} {which} number(s) moved significantly "
                                f"(Holm-adjusted p <= {level:g}) and materially (see the table)")
    names = set(baseline.ratios()) | set(before["section_numbers"])
    names_now = set(now.ratios()) | set(after["section_numbers"])
    missing = sorted(names ^ names_now)
    if missing:
        problems.append(f"numbers added or removed since the baseline: {', '.join(missing)}")
    for result in sprt:
        if result.decision != "claim accepted":
            problems.append(f"sequential test: {result.sentence()}")
    return Regression(before["experiment"], identical, config_changed, paired, moves, sprt,
                      problems)


def _moves(baseline: Baseline, now: Baseline, paired: bool) -> pd.DataFrame:
    rows = []
    old, new = baseline.ratios(), now.ratios()
    for name in old.keys() & new.keys():
        v0, u0 = ratio_influence(*old[name])
        v1, u1 = ratio_influence(*new[name])
        if math.isnan(v0) or math.isnan(v1):
            continue  # an item never shown in one of the runs: nothing to compare
        se = (influence_se(u1 - u0) if paired and u0.size == u1.size
              else math.hypot(influence_se(u0), influence_se(u1)))
        rows.append(_row(name, v0, v1, se))
    before = baseline.record.get("section_numbers", {})
    after = now.record["section_numbers"]
    for name in before.keys() & after.keys():
        b, a = before[name], after[name]
        rows.append(_row(name, b["value"], a["value"], math.hypot(a["se"], b["se"])))
    moves = pd.DataFrame(rows, columns=["number", "baseline", "now", "difference", "p"])
    record = baseline.record
    moves["primary"] = [is_primary(n, record["primary"]) for n in moves["number"]]
    moves["significant"] = False
    for primary, level in ((True, record["primary_level"]), (False, record["level"])):
        # Holm within each family, at the family's own level.
        family = moves["primary"] == primary
        moves.loc[family, "p"] = holm(moves.loc[family, "p"].to_numpy())
        moves.loc[family, "significant"] = moves.loc[family, "p"] <= level
    materiality = record["materiality"]
    moves["material"] = [abs(d) >= (materiality if is_share(n) else materiality * abs(b))
                         for n, d, b in zip(moves["number"], moves["difference"],
                                            moves["baseline"], strict=True)]
    moves = moves.loc[moves["difference"] != 0]
    return moves.sort_values(["p", "number"]).reset_index(drop=True)


def _row(name: str, before: float, after: float, se: float) -> dict:
    difference = after - before
    p = 1.0 if difference == 0 else two_sample_p(after, se, before, 0.0)
    return {"number": name, "baseline": before, "now": after, "difference": difference,
            "p": p}


def format_regression(r: Regression) -> str:
    """The check's result as a person reads it."""
    lines = []
    if r.identical:
        lines.append(f"{r.experiment}: baseline reproduced bit for bit")
    else:
        how = "paired by deal" if r.paired else "unpaired (other deals)"
        lines.append(f"{r.experiment}: {len(r.moves)} number(s) differ from the baseline, "
                     f"tested {how}"
                     + (" (rule set, strategies or configuration changed)"
                        if r.config_changed else ""))
        if len(r.moves):
            lines.append(_table(r.moves))
    lines += [f"  sequential test: {s.sentence()}" for s in r.sprt]
    lines += [f"  FAIL: {p}" for p in r.problems]
    if not r.identical and not r.failed:
        lines.append("  no significant material move; run `make baseline` to accept the new "
                     "numbers")
    return "\n".join(lines)


def _table(moves: pd.DataFrame) -> str:
    width = max(len("number"), *(len(n) for n in moves["number"]))
    lines = [f"  {'number':<{width}}  {'family':<8}  {'baseline':>10}  {'now':>10}  "
             f"{'difference':>10}  {'p (Holm)':>8}  fails"]
    for m in moves.itertuples():
        fails = "YES" if m.significant and m.material else (
            "no (not material)" if m.significant else "no")
        family = "headline" if m.primary else "other"
        lines.append(f"  {m.number:<{width}}  {family:<8}  {m.baseline:>10.4f}  {m.now:>10.4f}  "
                     f"{m.difference:>+10.4f}  {m.p:>8.3g}  {fails}")
    return "\n".join(lines)
