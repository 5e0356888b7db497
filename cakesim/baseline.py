"""Balance baselines: an experiment's headline numbers at CI size, and what moved since.

``make baseline`` stores, per experiment, every headline number with its interval, the
seed and game counts, a hash of the rule sets, strategies and configuration, and a digest
of the exact integer sums behind the numbers. ``make regress`` plays the same CI-sized
experiment again: an equal digest means the baseline was reproduced bit for bit;
otherwise every number that differs is tested (two-sample z test, Holm's correction over
all numbers of the experiment) and a significant move fails the check.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from cakesim.errors import InputError
from cakesim.experiment import Experiment, section_module
from cakesim.fingerprint import code_version, digest, table_digest
from cakesim.report import summarise
from cakesim.runner import TableRun
from cakesim.sprt import SprtResult
from cakesim.stats import holm, two_sample_p, z_value

BASELINE_DIR = Path("reports/baselines")


def _with_se(numbers: dict[str, dict]) -> dict[str, dict]:
    """Each estimate with the standard error its 95 % interval implies."""
    z = z_value()
    return {name: {**e, "se": (e["high"] - e["low"]) / (2 * z)} for name, e in numbers.items()}


def headline_numbers(summary: dict) -> dict[str, dict]:
    """Every number a report's tables state, by name: value, interval, standard error."""
    numbers = {}

    def put(name: str, estimate: dict) -> None:
        numbers[name] = estimate

    for t in summary["tables"]:
        if "win_rate" in t:
            put(f"{t['label']} | win rate", t["win_rate"])
        for s in t.get("seats", ()):
            put(f"{t['label']} | seat {s['seat'] + 1} win share", s["win_share"])
            put(f"{t['label']} | seat {s['seat'] + 1} mean score", s["mean_total"])
        for metric, estimate in t["per_game"].items():
            put(f"{t['label']} | {metric.replace('_', ' ')} per game", estimate)
    for c in summary["comparisons"]:
        if "win_rate_difference" in c:
            put(f"{c['table']} | win rate minus {c['base']}", c["win_rate_difference"])
        else:
            put(f"{c['table']} | first-seat win share minus {c['base']}",
                c["first_seat_win_share_difference"])
    for item in summary.get("items", ()):
        put(f"{item['item']} | fulfilled share once shown", item["fulfilled_share"])
    return _with_se(numbers)


def config_hash(experiment: Experiment) -> str:
    """A hash of what decides the numbers: every table's rules and strategies, seed, sizes."""
    return digest({"tables": [table_digest(t) for t in experiment.tables],
                   "games": experiment.table_games, "seed": experiment.seed})


def results_digest(runs: list[TableRun]) -> str:
    """A digest of the exact integer sums of every table: equal means bit for bit equal."""
    return digest([run.totals for run in runs])


def make_baseline(experiment: Experiment, runs: list[TableRun], sprt: list[SprtResult],
                  sections: dict | None = None) -> dict:
    """The baseline record of a CI-sized run (with its game-specific sections' numbers)."""
    numbers = headline_numbers(summarise(experiment, runs))
    for name, data in (sections or {}).items():
        numbers |= _with_se(section_module(experiment, name).numbers(data))
    return {
        "experiment": experiment.name, "code_version": code_version(),
        "seed": experiment.seed, "games_per_table": experiment.table_games,
        "config_hash": config_hash(experiment), "results_digest": results_digest(runs),
        "level": experiment.ci.level,
        "numbers": numbers,
        "sprt": [r.as_dict() for r in sprt],
    }


def baseline_path(name: str) -> Path:
    """``reports/baselines/<experiment>.json``."""
    return BASELINE_DIR / f"{name}.json"


def write_baseline(record: dict, path: Path) -> None:
    """Write a baseline as readable JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")


def read_baseline(path: Path) -> dict:
    """A stored baseline; missing or unreadable is an InputError."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(str(path), "", "no baseline; run `make baseline` and commit it") from None
    except json.JSONDecodeError as error:
        raise InputError(str(path), "", f"not valid JSON: {error}") from None


@dataclass
class Regression:
    """A CI-sized run set against its baseline."""

    experiment: str
    identical: bool
    config_changed: bool
    moves: pd.DataFrame
    """One row per number that differs: baseline, now, difference, adjusted p, significant."""
    sprt: list[SprtResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Whether CI must go red."""
        return bool(self.problems)


def compare(baseline: dict, now: dict, sprt: list[SprtResult]) -> Regression:
    """Set a fresh baseline record ``now`` against the stored ``baseline``."""
    identical = baseline["results_digest"] == now["results_digest"]
    config_changed = baseline["config_hash"] != now["config_hash"]
    problems = []
    if identical:
        moves = pd.DataFrame(columns=["number", "baseline", "now", "difference", "p",
                                      "significant"])
    else:
        moves = _moves(baseline["numbers"], now["numbers"], baseline["level"])
        if not config_changed and baseline["code_version"] == now["code_version"]:
            problems.append("same code, rules, strategies and seed, but the numbers differ: "
                            "the run is not reproducible")
        significant = int(moves["significant"].sum())
        if significant:
            problems.append(f"{significant} number(s) moved significantly (Holm-adjusted "
                            f"p <= {baseline['level']:g})")
    missing = sorted(set(baseline["numbers"]) ^ set(now["numbers"]))
    if missing:
        problems.append(f"numbers added or removed since the baseline: {', '.join(missing)}")
    for result in sprt:
        if result.decision != "claim accepted":
            problems.append(f"sequential test: {result.sentence()}")
    return Regression(baseline["experiment"], identical, config_changed, moves, sprt, problems)


def _moves(before: dict, after: dict, level: float) -> pd.DataFrame:
    names = [n for n in before if n in after]
    rows = [{"number": n, "baseline": before[n]["value"], "now": after[n]["value"],
             "difference": after[n]["value"] - before[n]["value"],
             "p": two_sample_p(after[n]["value"], after[n]["se"], before[n]["value"],
                               before[n]["se"])} for n in names]
    moves = pd.DataFrame(rows)
    moves["p"] = holm(moves["p"].to_numpy())
    moves["significant"] = moves["p"] <= level
    return moves.loc[moves["difference"] != 0].sort_values("p").reset_index(drop=True)


def format_regression(r: Regression) -> str:
    """The check's result as a person reads it."""
    lines = []
    if r.identical:
        lines.append(f"{r.experiment}: baseline reproduced bit for bit")
    else:
        lines.append(f"{r.experiment}: {len(r.moves)} number(s) differ from the baseline"
                     + (" (rule set, strategies or configuration changed)"
                        if r.config_changed else ""))
        if len(r.moves):
            lines.append(_table(r.moves))
    lines += [f"  sequential test: {s.sentence()}" for s in r.sprt]
    lines += [f"  FAIL: {p}" for p in r.problems]
    if not r.identical and not r.failed:
        lines.append("  no significant move; run `make baseline` to accept the new numbers")
    return "\n".join(lines)


def _table(moves: pd.DataFrame) -> str:
    width = max(len("number"), *(len(n) for n in moves["number"]))
    lines = [f"  {'number':<{width}}  {'baseline':>10}  {'now':>10}  {'difference':>10}  "
             f"{'p (Holm)':>8}  significant"]
    for m in moves.itertuples():
        lines.append(f"  {m.number:<{width}}  {m.baseline:>10.4f}  {m.now:>10.4f}  "
                     f"{m.difference:>+10.4f}  {m.p:>8.3g}  {'YES' if m.significant else 'no'}")
    return "\n".join(lines)
