"""How right is the regression gate? False alarms over seed changes, and power by deal.

``make gate-check`` measures, per experiment at its ``[ci]`` size:

- **False alarms**: the experiment is run at seeds ``s, s+1, ..., s+N``; each run is
  checked against the one before, as if a designer had changed the ``[ci]`` seed and
  nothing else (unpaired: other deals). The share of checks that fail is the gate's
  false-alarm rate (target: at most 5 %; Holm at ``level`` 0.01 promises about 1 %).
- **Power**: a run is checked against a copy of itself in which one seat's win share
  was moved by ``delta``: in that many deals the seat's win goes to the next seat.
  Real changes (a new strategy weight) also change other games both ways; that noise is
  mimicked by replacing a fraction ``churn`` of the deals by deals of another seed.
  The share of seeds at which the gate fails on the moved number is its power.
- **Power against a real change** (``--change 'strategies.greedy: uncertainty = 0.6'``):
  each seed is run with the experiment as it is and with one line added to one of its
  tables; every win share whose true move (over all seeds, paired) is at least 0.5 pp
  is listed with the share of seeds at which the gate caught it.
"""

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from cakesim.app.api import ci_run
from cakesim.app.experiment import experiment_paths, load_experiment
from cakesim.stats.baseline import Baseline, compare


def edited(name: str, change: str, folder: Path) -> str:
    """A copy of experiment ``name`` with ``change`` (``section: key = value``) applied."""
    section, line = (part.strip() for part in change.split(":", 1))
    source = Path(load_experiment(name).path)
    text = source.read_text().replace(f"[{section}]\n", f"[{section}]\n{line}\n", 1)
    if line not in text:
        raise SystemExit(f"--change: no [{section}] in {source}")
    path = folder / source.name
    path.write_text(text)
    return str(path)


def real_power(name: str, change: str, seeds: range, n_jobs: int) -> list[tuple]:
    """Per win share that truly moved: (number, true move, share of seeds caught)."""
    with tempfile.TemporaryDirectory() as folder:
        other = edited(name, change, Path(folder))
        pairs = Parallel(n_jobs=n_jobs)(delayed(lambda s: (ci_baseline(name, s),
                                                           ci_baseline(other, s)))(s)
                                        for s in seeds)
    moves, caught = {}, {}
    for base, new in pairs:
        result = compare(base, new, [])
        for row in result.moves.itertuples():
            moves.setdefault(row.number, []).append(row.difference)
            caught[row.number] = caught.get(row.number, 0) + bool(row.significant
                                                                   and row.material)
    found = [(n, float(np.sum(d)) / len(pairs), caught[n] / len(pairs))
             for n, d in moves.items() if "win share" in n]
    return sorted([f for f in found if abs(f[1]) >= 0.005], key=lambda f: abs(f[1]))


def ci_baseline(name: str, seed: int) -> Baseline:
    """The experiment's ``[ci]``-sized run at ``seed``, as a baseline (no SPRT)."""
    return ci_run(name, n_jobs=1, seed=seed, sequential=False)[0]


def false_alarms(baselines: list[Baseline]) -> tuple[int, int, list[str]]:
    """Failed checks among consecutive pairs of runs that differ only in their seed.

    Also returns the numbers that failed, seed by seed, to show where alarms come from.
    """
    failed, where = 0, []
    for a, b in itertools.pairwise(baselines):
        result = compare(a, b, [])
        if result.failed:
            failed += 1
            moves = result.moves
            where += [f"seed {b.record['seed']}: {n}" for n in
                      moves.loc[moves["significant"] & moves["material"], "number"]]
    return failed, len(baselines) - 1, where


def moved(base: Baseline, other: Baseline, table: int, seat: int, delta: float,
          churn: float, rng: np.random.Generator) -> Baseline:
    """``base`` with ``churn`` of its deals from ``other`` and seat ``seat`` moved by delta."""
    arrays = {k: v.copy() for k, v in base.arrays.items()}
    deals = max(v.shape[0] for v in arrays.values())
    swap = rng.random(deals) < churn
    for key, values in arrays.items():
        mask = swap[:values.shape[0]]
        values[mask] = other.arrays[key][mask]
    units = arrays[f"{table}/seat/win_units"]
    per_deal = base.record["tables"][table]["games_per_deal"]
    win = base.record["win_units"]
    flips = round(abs(delta) * units.shape[0] * per_deal)
    giver, taker = (seat, (seat + 1) % units.shape[1])
    if delta > 0:
        giver, taker = taker, giver
    candidates = np.flatnonzero(units[:, giver] >= win)
    chosen = rng.choice(candidates, size=min(flips, candidates.size), replace=False)
    units[chosen, giver] -= win
    units[chosen, taker] += win
    record = dict(base.record, results_digest="moved", config_hash="moved")
    return Baseline(record, arrays)


def power(runs: list[tuple[Baseline, Baseline]], table: int, seat: int, delta: float,
          churn: float, seed: int = 0) -> float:
    """Share of runs at which the gate fails on the moved seat's win share."""
    rng = np.random.default_rng(seed)
    label = runs[0][0].record["tables"][table]["label"]
    name = f"{label} | seat {seat + 1} win share"
    hits = 0
    for base, other in runs:
        result = compare(base, moved(base, other, table, seat, delta, churn, rng), [])
        row = result.moves.loc[result.moves["number"] == name]
        hits += bool(len(row) and row["significant"].iloc[0] and row["material"].iloc[0])
    return hits / len(runs)


def main(argv: list[str] | None = None) -> int:
    """Print the false-alarm rate and power of every experiment's gate."""
    parser = argparse.ArgumentParser(prog="python -m cakesim.app.gate_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiments", nargs="*")
    parser.add_argument("--seeds", type=int, default=101, help="runs per experiment")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--power-seeds", type=int, default=40)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--change", help="a real change, 'section: key = value', for power")
    args = parser.parse_args(argv)
    names = args.experiments or [p.stem for p in experiment_paths()]
    if args.change:
        for name in names:
            seeds = range(args.first_seed, args.first_seed + args.power_seeds)
            print(f"{name}, {args.change}: win shares that moved, and how often the gate "
                  f"caught them over {len(seeds)} seeds")
            for number, move, share in real_power(name, args.change, seeds, args.n_jobs):
                print(f"  {number}: {100 * move:+.2f} pp, caught {100 * share:.0f} %")
        return 0
    for name in names:
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        baselines = Parallel(n_jobs=args.n_jobs)(delayed(ci_baseline)(name, s) for s in seeds)
        failed, checks, where = false_alarms(baselines)
        print(f"{name}: false alarms {failed} of {checks} seed changes "
              f"({100 * failed / checks:.1f} %)", flush=True)
        for line in where:
            print(f"  alarm at {line}")
        pairs = list(itertools.pairwise(baselines))[:args.power_seeds]
        if "0/seat/win_units" not in baselines[0].arrays:
            continue
        for churn in (0.0, 0.3, 1.0):
            detected = {delta: power(pairs, 0, 0, -delta, churn)
                        for delta in (0.005, 0.01, 0.015, 0.02, 0.03, 0.05)}
            shown = ", ".join(f"{100 * d:g} pp: {100 * p:.0f} %" for d, p in detected.items())
            print(f"  power on table 0 seat 1, {100 * churn:.0f} % of deals changed: {shown}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
