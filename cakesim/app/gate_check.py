"""How right is the regression gate? Its power against real rule changes, and false alarms.

``make gate-check`` plays, for each (experiment, rule change) it is given, the
experiment's primary tables (the gate's headline family, ``[ci] primary``) at their
``[ci]`` size at ``--seeds`` seeds, each once with the published rules and once with the
change (``--set KEY=VALUE``, as ``cakesim compare`` takes it), and checks each changed run
against its unchanged twin exactly as ``make regress`` would (paired by deal). It prints:

- **Power against a real change**: every primary win share whose true move (the mean
  paired difference over all seeds) is at least 1.5 pp, with the share of seeds at which
  the gate caught it. The target is 80 %.
- **False alarms**: each unchanged run checked against the one of the next seed, as if a
  designer had changed the ``[ci]`` seed and nothing else (unpaired: other deals); the
  share of checks that fail. With ``--full`` every table and section is played, so the
  rate covers every number of the experiment (slower); otherwise the primary family's.
  Holm at ``primary_level`` 0.04 and ``level`` 0.01 promises at most 5 %.

The defaults (two changes, 20 seeds) ran in 13 minutes on two shared cores.
"""

import argparse
import itertools
import sys
from dataclasses import replace

import numpy as np
from joblib import Parallel, delayed

from cakesim.app.api import analyse_sections
from cakesim.app.experiment import NO_CHANGES, RuleChanges, load_experiment
from cakesim.engine.arguments import setting
from cakesim.engine.runner import run_table
from cakesim.stats.baseline import Baseline, compare, make_baseline
from cakesim.stats.planner import GATE_MOVE

CHANGES = (("first_player_bias", "kinds.chocolate.majority_value=14"),
           ("first_player_bias", "kinds.plum.cream=[1, 1, 1, 1]"))
"""The default real changes: a majority value raised (the deals stay, so pairing helps),
and a fourth plum slice (every deal changes: nothing to pair, the planner's worst case)."""


def ci_baseline(name: str, seed: int, changes: RuleChanges = NO_CHANGES,
                full: bool = False) -> Baseline:
    """The experiment's ``[ci]``-sized run at ``seed`` as a baseline: its primary tables
    only, or with ``full`` every table and section (no sequential tests either way)."""
    experiment = load_experiment(name, seed=seed, ci=True, changes=changes)
    pairs = [(t, n) for t, n in zip(experiment.tables, experiment.table_games, strict=True)
             if full or t.label in experiment.ci.primary]
    runs = [run_table(table, games, experiment.seed, 1, experiment.chunk_size,
                      experiment.keep_rows, progress=False) for table, games in pairs]
    if not full:
        return make_baseline(replace(experiment, tables=[t for t, _ in pairs]), runs)
    return make_baseline(experiment, runs, analyse_sections(experiment, runs, 1))


def real_power(pairs: list[tuple[Baseline, Baseline]],
               move: float = GATE_MOVE) -> list[tuple[str, float, float, float]]:
    """Per primary number: (name, true move, its standard error, share of runs caught),
    for every number whose true move is at least ``move``, smallest move first."""
    moves: dict[str, list[float]] = {}
    caught: dict[str, int] = {}
    for base, new in pairs:
        result = compare(base, new, [])
        for row in result.moves.itertuples():
            if row.primary:
                moves.setdefault(row.number, []).append(row.difference)
                caught[row.number] = caught.get(row.number, 0) + bool(row.significant
                                                                       and row.material)
    found = []
    for name, differences in moves.items():
        d = np.asarray(differences + [0.0] * (len(pairs) - len(differences)))
        found.append((name, float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size)),
                      caught[name] / len(pairs)))
    return sorted([f for f in found if abs(f[1]) >= move], key=lambda f: abs(f[1]))


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


def check(name: str, changes: list[str], seeds: range, n_jobs: int, full: bool) -> None:
    """Print the gate's power against each of ``changes`` and its false alarms, for one
    experiment: its unchanged runs are played once and serve every change."""
    bases = Parallel(n_jobs=n_jobs)(delayed(ci_baseline)(name, s, NO_CHANGES, full)
                                    for s in seeds)
    for change in changes:
        rules = RuleChanges(settings=(setting(change),))
        changed = Parallel(n_jobs=n_jobs)(delayed(ci_baseline)(name, s, rules, full)
                                          for s in seeds)
        print(f"{name}, --set {change}: primary win shares that moved by {100 * GATE_MOVE:g} "
              f"pp or more, and how often the gate caught them over {len(seeds)} seeds",
              flush=True)
        for number, move, se, share in real_power(list(zip(bases, changed, strict=True))):
            print(f"  {number}: {100 * move:+.2f} pp (± {100 * se:.2f}), caught "
                  f"{100 * share:.0f} %")
    failed, checks, where = false_alarms(bases)
    which = "every number" if full else "the primary family"
    print(f"{name}: false alarms over {which}: {failed} of {checks} seed changes "
          f"({100 * failed / checks:.1f} %)", flush=True)
    for line in where:
        print(f"  alarm at {line}")


def main(argv: list[str] | None = None) -> int:
    """Print the power and false-alarm rate of the gate for each (experiment, change)."""
    parser = argparse.ArgumentParser(prog="python -m cakesim.app.gate_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", nargs=2, action="append", metavar=("EXPERIMENT", "KEY=VALUE"),
                        help="an experiment and a rule change (default: "
                             + "; ".join(" ".join(c) for c in CHANGES) + ")")
    parser.add_argument("--seeds", type=int, default=20, help="runs per check")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--full", action="store_true",
                        help="play every table and section, for false alarms over all numbers")
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    by_experiment: dict[str, list[str]] = {}
    for name, change in args.check or CHANGES:
        by_experiment.setdefault(name, []).append(change)
    for name, changes in by_experiment.items():
        check(name, changes, seeds, args.n_jobs, args.full)
    return 0


if __name__ == "__main__":
    sys.exit(main())
