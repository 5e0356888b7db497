"""The Python API the CLI and notebooks share."""

import hashlib
import json
import os
import re
import shlex
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pandas as pd

from cakesim.analyses.planner import plan_tables
from cakesim.analyses.sprt import sequential_test
from cakesim.app.experiment import (
    NO_CHANGES,
    Experiment,
    RuleChanges,
    checked_name,
    experiment_paths,
    fewest_games,
    load_experiment,
)
from cakesim.engine.arguments import Setting, flag_errors, players_in_range
from cakesim.engine.cache import CACHE_ENV, ChunkCache, default_cache_dir
from cakesim.engine.contract import ResultKind, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import code_version, file_digests, files_in_force, table_digest
from cakesim.engine.project import (
    EXPERIMENTS,
    REPORTS,
    RUNS,
    experiments_dir,
    find_root,
    reports_dir,
    runs_dir,
    shown_path,
)
from cakesim.engine.runner import (
    DEFAULT_CHUNK,
    DEFAULT_KEEP_ROWS,
    Estimate,
    RunProgress,
    TableRun,
    backend,
    duration_text,
    estimate,
    run_table,
    run_tables,
    say_if_compiling,
)
from cakesim.games import game_named
from cakesim.kits.policy import is_policy_file, write_policy
from cakesim.kits.replay import replayable
from cakesim.kits.strategies import tuned_path, tuned_population
from cakesim.reports.balance import NUMBERS as BALANCE_NUMBERS
from cakesim.reports.balance import write_balance
from cakesim.reports.compare import differences, write_comparison
from cakesim.reports.exploitability import NAME as EXPLOITABILITY
from cakesim.reports.exploitability import is_exploitability, write_exploitability
from cakesim.reports.report import write_index, write_report
from cakesim.reports.summary_file import read_summary
from cakesim.stats.baseline import (
    Baseline,
    Regression,
    baseline_path,
    compare,
    make_baseline,
    read_baseline,
    write_baseline,
)
from cakesim.stats.planner import Question
from cakesim.stats.sprt import SprtClaim, SprtResult
from cakesim.tuning import balance, search
from cakesim.tuning.arena import Arena
from cakesim.tuning.exploit import best_response
from cakesim.tuning.policy import train as train_policy
from cakesim.tuning.policy import trainable
from cakesim.tuning.record import is_tuned_file, write_tuned


@dataclass
class ExperimentResult:
    """An experiment's runs and where its report went."""

    experiment: Experiment
    runs: list[TableRun]
    report: Path | None
    plan: pd.DataFrame | None = None

    @property
    def chunks_reused(self) -> int:
        """Chunks read back from the cache instead of played."""
        return sum(run.chunks_reused for run in self.runs)

    @property
    def chunks(self) -> int:
        """Chunks in all."""
        return sum(run.chunks for run in self.runs)

    @property
    def headline(self) -> str:
        """The report's answer in one line (from its ``summary.json``)."""
        return read_summary(self.report.parent)["headline"]


def simulate(game: str, players: int, strategies=None, games: int = 10_000,
             seed: int = 0, variant: str | None = None, duplicate: bool = False,
             rules: str | Path | None = None, n_jobs: int = -1,
             chunk_size: int = DEFAULT_CHUNK, keep_rows: int = DEFAULT_KEEP_ROWS,
             progress: bool = False) -> pd.DataFrame:
    """Play ``games`` games and return one row per game and seat.

    ``strategies`` is a built-in strategy name, a strategy object, or one per seat (default:
    the game's default strategy); seat 0
    starts. ``variant`` defaults to the game's base variant; ``rules`` is a rule-set file
    (default: the published rules).
    """
    g = game_named(game)
    strategies = strategies or g.default_strategy
    if not isinstance(strategies, list | tuple):
        strategies = [strategies] * players
    chosen = [g.named_strategy(s, players, variant) if isinstance(s, str) else s
              for s in strategies]
    table = g.table(g.load_rules(rules), players, chosen, variant, duplicate)
    return run_table(table, games, seed, n_jobs, chunk_size, keep_rows, progress).rows


def run_experiment(path: str | Path, games: int | None = None, seed: int | None = None,
                   n_jobs: int = -1, out: str | Path | None = None,
                   progress: bool = True, write: bool = True,
                   cache: bool | str | Path = True, backend_name: str = "loky",
                   scheduler: str | None = None, sample_size: bool = True,
                   skill_games: int | None = None,
                   changes: RuleChanges = NO_CHANGES) -> ExperimentResult:
    """Run every table of an experiment and (unless ``write`` is false) write its report.

    ``cache`` (true: ``$CAKESIM_CACHE`` or ``.cakesim-cache``; or a folder) keeps finished
    chunks, so an interrupted run restarted plays only what is missing. ``backend_name``
    ``dask`` with a ``scheduler`` address runs the chunks on a Dask cluster. With
    ``sample_size`` (and a ``[plan]`` section) the report gets the planner's pilot run.
    ``changes`` changes the rule set for this run (``--rules``, ``--set``).

    The report goes to ``out``; by default to ``reports/NAME`` when the experiment runs
    as its file says, else (``games``, ``seed``, ``skill_games``, ``changes`` or no
    ``sample_size``) to ``runs/NAME/<the overrides>``, never over the committed report.
    """
    experiment = load_experiment(str(path), games, seed, skill_games=skill_games,
                                 changes=changes)
    flags = _override_flags(games, skill_games, changes, sample_size)
    seed_flag = [f"--seed {seed}"] if seed is not None else []
    folder = _report_folder(experiment, out, seed_flag + flags) if write else None
    store = _cache(cache)
    plan = None
    pilot = write and sample_size and experiment.plan is not None
    own = [table for table, _ in _own(experiment)]
    if pilot:
        # A pilot too small for two duplicate deals cannot measure a variance: left out.
        short = [(t, needed) for t in own if (needed := fewest_games(
            replace(t, duplicate=True), experiment.plan.games)) is not None]
        if short:
            pilot = False
            experiment.skipped.append(
                f"the [plan] pilot ({experiment.plan.games:,} games per table): one duplicate "
                f"deal at {short[0][0].label!r}, and it needs two ({short[0][1]:,} games)")
    # The pilot plays every table of the experiment's own twice: independent and duplicate.
    total = (_games_of(zip(experiment.tables, experiment.table_games, strict=True))
             + (_games_of((t, experiment.plan.games) for t in own for _ in range(2))
                if pilot else 0))
    with backend(backend_name, scheduler), RunProgress(total, progress, store is not None) as run:
        rates = None
        if progress:
            found = _estimate(experiment, own if pilot else [], store, n_jobs)
            run.note(found.message)
            rates = found.rates
        runs = run_tables(list(zip(experiment.tables, experiment.table_games, strict=True)),
                          experiment.seed, n_jobs, experiment.chunk_size, experiment.keep_rows,
                          progress, store, rates)
        if pilot:
            question = Question(half_width=experiment.plan.half_width)
            plan = plan_tables(own, question, experiment.plan.games, experiment.seed, n_jobs,
                               progress, store)
        sections = {}
        if write and experiment.sections:
            # Sections may play games of their own, which the bar could not count ahead.
            run.phase("sections")
            sections = analyse_sections(experiment, runs, n_jobs, store)
    report = None
    if write:
        command = " ".join(["cakesim run", shlex.quote(shown_path(experiment.path)),
                            f"--seed {experiment.seed}", *flags])
        report = write_report(experiment, runs, folder, command, plan, sections, n_jobs,
                              store)
        for name, text in experiment.changed_files.items():
            # The rule files as played, to read, or to play again with --rules.
            (folder / name).write_text(text, encoding="utf-8")
    return ExperimentResult(experiment, runs, report, plan)


def _estimate(experiment, pilot: list[TableSpec], store: ChunkCache | None,
              n_jobs: int) -> Estimate:
    """Before the first game: how many games are left to play and about how long they take
    (its ``rates`` are the experiment's tables', in their order, for ``run_tables``)."""
    say_if_compiling(True)
    found = estimate(list(zip(experiment.tables, experiment.table_games, strict=True)),
                     experiment.seed, experiment.chunk_size, store, n_jobs)
    if pilot:
        # The pilot plays its tables at independent and at duplicate deals, in chunks of its
        # own size, cached as a table's; the chunks counted are the tables' (as "reused").
        games = experiment.plan.games
        extra = estimate([(replace(t, duplicate=d), games) for t in pilot for d in (False, True)],
                         experiment.seed, min(DEFAULT_CHUNK, games), store, n_jobs)
        found = replace(found, games=found.games + extra.games,
                        seconds=found.seconds + extra.seconds)
    return found


def _override_flags(games: int | None, skill_games: int | None, changes: RuleChanges,
                    sample_size: bool = True) -> list[str]:
    """The command-line flags that make a run differ from its experiment file's."""
    flags = [] if games is None else [f"--games {games}"]
    flags += [] if skill_games is None else [f"--skill-games {skill_games}"]
    flags += [] if sample_size else ["--no-plan"]
    if changes.rules is not None:
        flags.append(f"--rules {shlex.quote(shown_path(changes.rules))}")
    flags += [f"--rules {shlex.quote(f'{name}={shown_path(path)}')}"
              for name, path in changes.files]
    return flags + [f"--set {shlex.quote(s.text)}" for s in changes.settings]


def _run_folder(name: str, flags: list[str], prefix: str = "") -> Path:
    """``reports/NAME`` for an experiment as its file says; else ``runs/NAME/<flags>``."""
    if not flags and not prefix:
        return reports_dir() / name
    words = [prefix] if prefix else []
    words += ["-".join(part.lstrip("-") for part in flag.split(" ", 1)) for flag in flags]
    # Only characters every file system takes; a long description keeps a digest of it.
    slug = re.sub(r"[^A-Za-z0-9._=+-]+", "-", "_".join(words)).strip("-")
    if len(slug) > 80:
        slug = f"{slug[:70]}-{hashlib.sha256(slug.encode()).hexdigest()[:8]}"
    return runs_dir() / name / slug


def _report_folder(experiment: Experiment, out: str | Path | None, flags: list[str],
                   prefix: str = "") -> Path:
    """Where a report goes (``out``, else ``_run_folder``), checked by ``_output`` before
    any game is played: in ``reports/`` only ``reports/NAME``, for ``experiments/NAME.toml``
    run as it says."""
    folder = Path(out) if out is not None else _run_folder(experiment.name, flags, prefix)
    below = _in_reports(folder)
    own = below == (experiment.name,) and _own_file(experiment) and not flags and not prefix
    named = below[0] if below else experiment.name
    return _output(folder, "--out" if out is not None else "[experiment] name",
                   "a folder outside reports/ (or no --out: runs/)", own=own,
                   committed=f"is a committed report folder, which only "
                             f"experiments/{named}.toml run as it says writes")


def _own_file(experiment: Experiment) -> bool:
    """Whether the experiment was read from ``experiments/NAME.toml`` of its own name, the
    only file that writes the committed ``reports/NAME`` and its baseline."""
    own = experiments_dir() / f"{experiment.name}.toml"
    return experiment.path.resolve() == own.resolve()


PACKAGE = Path(__file__).resolve().parents[1]
"""The cakesim package: its files are shipped, and only ``tune --ship`` writes there."""


def _in_reports(path: Path) -> tuple[str, ...] | None:
    """``path``'s parts below the project's committed ``reports/`` (``None``: not in it)."""
    root = find_root()
    reports = (root / REPORTS).resolve() if root is not None else None
    resolved = path.resolve()
    if reports is None or not resolved.is_relative_to(reports):
        return None
    return resolved.relative_to(reports).parts


def _output(path: Path, flag: str, allowed: str, suffix: str | None = None,
            own: bool = False, committed: str = "lies in reports/, the committed reports",
            earlier: tuple[Callable[[Path], bool], str] | None = None) -> Path:
    """The one rule for what a command may write, applied before any game is played.

    ``path`` (a folder, or a file ending in ``suffix``) is refused, naming ``flag`` and
    what is ``allowed`` (exit 2): when it is of the other kind; when it lies in the cakesim
    package (shipped files) or the project's ``reports/`` (committed ones), unless it is
    ``own``, the one committed output the command was asked for (``experiments/NAME.toml``
    run as it says, ``tune --ship``, ``exploit --report reports/exploitability``); when it
    exists and ``earlier`` (a test and its description) says this command did not write
    it; and when it cannot be written.
    """
    shown = shown_path(path)
    if suffix is None and path.exists() and not path.is_dir():
        raise InputError(flag, shown, f"is a file; allowed: {allowed}")
    if suffix is not None and (path.is_dir() or not path.name.endswith(suffix)):
        kind = "a folder" if path.is_dir() else f"not a {suffix} file"
        raise InputError(flag, shown, f"is {kind}; allowed: {allowed}")
    if not own and path.resolve().is_relative_to(PACKAGE):
        raise InputError(flag, shown, f"lies inside the cakesim package; allowed: {allowed}")
    if not own and _in_reports(path) is not None:
        raise InputError(flag, shown, f"{committed}; allowed: {allowed}")
    if earlier is not None and path.exists() and not earlier[0](path):
        raise InputError(flag, shown, f"exists and is not {earlier[1]}; allowed: {allowed}")
    _writable(path if suffix is None else path.parent, flag, shown, allowed)
    if suffix is not None and path.exists() and not os.access(path, os.W_OK):
        raise InputError(flag, shown, f"cannot be written (read-only); allowed: {allowed}")
    return path


def _writable(folder: Path, flag: str, shown: str, allowed: str) -> None:
    """Make ``folder`` and write and remove a file in it now, not after every game."""
    # The nearest part of the path there is: a file there would stop the folder.
    there = next(p for p in (folder, *folder.parents) if p.exists())
    reason = f"{shown_path(there)} is a file" if not there.is_dir() else None
    try:
        if reason is None:
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        reason = error.strerror
    if reason is not None:
        raise InputError(flag, shown, f"cannot be written ({reason}); allowed: {allowed}")


def _games_of(tables) -> int:
    """Games the runner plays for ``(table, count)`` pairs: whole deals."""
    return sum(-(-count // t.games_per_deal) * t.games_per_deal for t, count in tables)


@dataclass
class Comparison:
    """``cakesim compare``: every headline number under the base and the changed rules."""

    answer: str
    rows: list[dict]
    report: Path


def compare_rules(path: str | Path, changes: RuleChanges, games: int | None = None,
                  seed: int | None = None, n_jobs: int = -1, out: str | Path | None = None,
                  progress: bool = True, cache: bool | str | Path = True,
                  backend_name: str = "loky", scheduler: str | None = None) -> Comparison:
    """Play an experiment's own tables under its rules and under ``changes`` on the same
    seed, and write how every headline number changes, paired by deal.

    The report goes to ``out`` (default ``runs/NAME/compare_<the flags>``). Sections
    (skill rows, ladders, budgets, ...) and the ``[plan]`` pilot are left out.
    """
    if not changes:
        raise InputError("compare", "", "give a change to compare: --set KEY=VALUE "
                                        "(repeatable) and/or --rules FILE")
    base = load_experiment(str(path), games, seed)
    changed = load_experiment(str(path), games, seed, changes=changes)
    flags = _override_flags(games, None, changes)
    seed_flag = [f"--seed {seed}"] if seed is not None else []
    out = _report_folder(base, out, seed_flag + flags, "compare")
    store = _cache(cache)
    pairs = {"base": _own(base), "changed": _own(changed)}
    total = _games_of(pair for own in pairs.values() for pair in own)
    with backend(backend_name, scheduler), RunProgress(total, progress, store is not None):
        # Both sides in one pool of workers, then split again.
        played = run_tables(pairs["base"] + pairs["changed"], base.seed, n_jobs,
                            base.chunk_size, base.keep_rows, progress, store)
        runs = {"base": played[:len(pairs["base"])], "changed": played[len(pairs["base"]):]}
    labels = {side: [t.label for t, _ in own] for side, own in pairs.items()}
    skipped = [f"[{name}] section: not analysed (run `cakesim run` with the same flags for "
               "the full report under the changed rules)" for name in base.sections]
    skipped += [f"{label}: a [{'/'.join(base.sections)}] table, left to its section"
                for label in base.section_tables]
    if base.plan is not None:
        skipped.append("[plan] sample-size pilot: not run")
    rows = differences(runs["base"], runs["changed"])
    report = write_comparison(out, rows, {
        "title": base.title or base.name, "experiment": base.name,
        "change": " ".join(changes.flags()), "seed": base.seed,
        "games_per_table": [count for _, count in pairs["base"]],
        "rules": shown_path(base.rules_source),
        "only_base": [x for x in labels["base"] if x not in labels["changed"]],
        "only_changed": [x for x in labels["changed"] if x not in labels["base"]],
        "skipped": skipped,
        "command": " ".join(["cakesim compare", shlex.quote(shown_path(base.path)),
                             f"--seed {base.seed}", *flags])})
    return Comparison(json.loads((out / "compare.json").read_text())["headline"], rows,
                      report)


@dataclass
class Balancing:
    """``cakesim balance``: the answer, the races behind it and where the report is."""

    answer: str
    races: list[balance.Race]
    """One race a part of the question (``balance.split``), in the section's order."""
    pick: balance.Candidate
    """The parts' picks joined: every change the answer makes."""
    verdict: str
    """The weakest of the races' verdicts (``balance.weakest``)."""
    report: Path


def balance_rules(path: str | Path, n_jobs: int = -1, out: str | Path | None = None,
                  progress: bool = True, cache: bool | str | Path = True,
                  backend_name: str = "loky", scheduler: str | None = None) -> Balancing:
    """Race the rule changes of an experiment's ``[balance]`` section on the same deals,
    confirm the nearest that meets the target against the published rules on fresh deals
    (and at the ``adapt`` tables), and write the report (default ``reports/NAME/balance``
    for ``experiments/NAME.toml``, else ``runs/NAME/balance``).

    Parameters that change different tables race apart (``balance.split``). Every round's
    chunks are kept in the ``cache``, so an interrupted search restarted
    plays only what it had not finished, and gives the same answer.
    """
    experiment = load_experiment(str(path))
    question = experiment.balance
    if question is None:
        raise InputError(str(experiment.path), "balance",
                         "missing; add a [balance] section with parameters = [{key = "
                         "\"KEY\", values = [...]}] (see docs/balance.md)")
    tables_under = _CandidateTables(experiment)
    touched = _touched(tables_under, question)
    for index, parameter in enumerate(question.parameters):
        if not touched[parameter.key]:
            raise InputError(str(experiment.path), f"balance.parameters[{index}].key",
                             f"{parameter.key!r} changes none of the tables "
                             f"{', '.join(question.tables)} at any of its values; allowed: a "
                             "key that changes one of them")
    parts = balance.split(question, touched)
    short = balance.check_budget(question, parts)
    if short:
        raise InputError(str(experiment.path), "balance.budget", short)
    fields = [balance.candidates(part) for part in parts]
    targets = [[tables_under(part.tables, c) for c in field_]
               for part, field_ in zip(parts, fields, strict=True)]
    folder = _balance_folder(experiment, out)
    store = _cache(cache)
    confirm_seed = search.derived_seed(experiment.seed, sum(len(f) for f in fields))
    # Every target seat is judged together, in every part (``balance.race``).
    family = sum(t.players for t in tables_under(question.tables, balance.Candidate((), 0)))

    def play(tables: list[list[TableSpec]], games: int, seed: int = experiment.seed) -> list:
        pairs = [(table, games) for group in tables for table in group]
        # Chunks of the first round's size: each round extends the last from the cache.
        runs = iter(run_tables(pairs, seed, n_jobs, question.first_games,
                               experiment.keep_rows, progress, store))
        return [[next(runs) for _ in group] for group in tables]

    with backend(backend_name, scheduler), RunProgress(question.budget + question.confirming,
                                                       progress, store is not None) as run:
        if progress:
            say_if_compiling(True)
            run.note(_balance_estimate(experiment, question, tables_under, fields, n_jobs))
        races = []
        for part, field_, group in zip(parts, fields, targets, strict=True):
            # A race stops when its answer is clear: its budget is the most it plays.
            run.phase(f"racing at {', '.join(part.tables)}", part.budget)

            def play_part(indices: list[int], games: int, group=group) -> dict:
                return dict(zip(indices, play([group[i] for i in indices], games), strict=True))
            races.append(balance.race(part, field_, play_part, family))
        pick = balance.joined([r.candidates[r.pick] for r in races], question)
        run.phase("confirming", question.confirming)
        # The published rules once when they are the pick.
        rules = [balance.Candidate((), 0.0), *([pick] if pick.changes else [])]
        confirmed = play([tables_under(question.tables, c) for c in rules],
                         question.confirm_games, confirm_seed)
        base, changed = confirmed[0], confirmed[-1]
        adapted = play([tables_under(question.adapt, c) for c in rules], question.adapt_games,
                       confirm_seed) if question.adapt and pick.changes else None
    verdict = balance.weakest([r.verdict for r in races])
    facts = {
        "title": experiment.title or experiment.name, "experiment": experiment.name,
        "seed": experiment.seed, "confirm_seed": confirm_seed, "margin": question.margin,
        "tables": list(question.tables), "race_games": sum(r.games for r in races),
        "confirm_games": question.confirm_games, "verdict": verdict,
        "parts": [_part_facts(part, race) for part, race in zip(parts, races, strict=True)],
        "pick": {"describe": pick.describe(),
                 "changes": [[key, balance.text(value)] for key, value in pick.changes]},
        "confirmation": {
            "published": asdict(balance.standing(base, question.margin)),
            "changed": asdict(balance.standing(changed, question.margin)),
            "differences": differences(base, changed) if pick.changes else []},
        "adapt_games": question.adapt_games,
        "adaptation": None if adapted is None else {
            "published": asdict(balance.standing(adapted[0], question.margin)),
            "changed": asdict(balance.standing(adapted[1], question.margin)),
            "differences": differences(*adapted)},
        "files": files_in_force(base),
        "command": f"cakesim balance {shlex.quote(shown_path(experiment.path))}",
        "compare_command": " ".join(
            ["cakesim compare", shlex.quote(shown_path(experiment.path)),
             *(f"--set {shlex.quote(f'{key}={balance.text(value)}')}"
               for key, value in pick.changes)]) if pick.changes else None}
    report = write_balance(folder, facts)
    return Balancing(json.loads((folder / BALANCE_NUMBERS).read_text())["headline"], races,
                     pick, verdict, report)


def _balance_estimate(experiment: Experiment, question: balance.BalanceQuestion,
                      tables_under: "_CandidateTables", fields: list[list], n_jobs: int) -> str:
    """The line printed before a search: its candidates, games and time at most."""
    # Timed at the published rules' tables: the candidates' speeds may differ.
    seconds, workers = 0.0, 1
    for labels, games in ((question.tables, question.budget + 2 * len(question.tables)
                           * question.confirm_games),
                          (question.adapt, 2 * len(question.adapt) * question.adapt_games)):
        if labels:
            timed = estimate([(t, question.first_games) for t in tables_under(
                labels, balance.Candidate((), 0))], experiment.seed, question.first_games,
                None, n_jobs)
            workers = timed.workers
            seconds += sum(timed.rates) / len(timed.rates) * games / workers
    cores = f"{workers} core{'s' if workers != 1 else ''}"
    tables = f"{len(question.tables)} table{'s' if len(question.tables) != 1 else ''}"
    return (f"{' + '.join(str(len(f)) for f in fields)} candidates at {tables}: at most "
            f"{question.budget:,} games racing and {question.confirming:,} confirming, at most "
            f"about {duration_text(seconds)} on {cores}")


def _balance_folder(experiment: Experiment, out: str | Path | None) -> Path:
    """``reports/NAME/balance`` for ``experiments/NAME.toml`` with no ``--out`` (its
    committed balance report); else ``--out``, or ``runs/NAME/balance``."""
    own = reports_dir() / experiment.name / "balance"
    if _own_file(experiment) and (out is None or _in_reports(Path(out)) == own.parts[-2:]):
        return _output(own, "[experiment] name", "a folder outside reports/ (or no --out: "
                                                 "runs/)", own=True)
    return _report_folder(experiment, out, [], "balance")


def _touched(tables_under: "_CandidateTables",
             question: balance.BalanceQuestion) -> dict[str, set[str]]:
    """Per parameter, the target tables whose rules one of its values changes."""
    published = {t.label: table_digest(t)
                 for t in tables_under(question.tables, balance.Candidate((), 0))}
    return {p.key: {t.label for value in p.values if value != p.published
                    for t in tables_under(question.tables, balance.Candidate(((p.key, value),), 0))
                    if table_digest(t) != published[t.label]}
            for p in question.parameters}


class _CandidateTables:
    """An experiment's tables under a candidate's rule changes, each candidate read once
    (the search asks for the same candidate's tables several times)."""

    def __init__(self, experiment: Experiment):
        self.experiment = experiment
        self.read: dict[tuple, list[TableSpec]] = {}

    def __call__(self, labels: Sequence[str], candidate: balance.Candidate) -> list[TableSpec]:
        """The tables ``labels`` under ``candidate``'s changes."""
        if candidate.changes not in self.read:
            settings = tuple(Setting(key, balance.plain(value), f"{key}={balance.text(value)}")
                             for key, value in candidate.changes)
            self.read[candidate.changes] = load_experiment(
                str(self.experiment.path), changes=RuleChanges(settings=settings)).tables
        return [t for t in self.read[candidate.changes] if t.label in labels]


def _part_facts(part: balance.BalanceQuestion, race: balance.Race) -> dict:
    """One part's parameters, tables, race and pick, for the report."""
    return {"tables": list(part.tables), "race_games": race.games, "verdict": race.verdict,
            "budget": part.budget,
            "parameters": [{"key": p.key, "published": balance.text(p.published),
                            "values": [balance.text(v) for v in p.values]}
                           for p in part.parameters],
            "candidates": [_candidate_facts(race, i) for i in range(len(race.candidates))
                           if any(i in r for r in race.rounds)],
            "pick": _candidate_facts(race, race.pick)}


def _candidate_facts(race: balance.Race, index: int) -> dict:
    """A candidate's changes, distance and every round it played, for the report."""
    candidate = race.candidates[index]
    return {"describe": candidate.describe(),
            "changes": [[key, balance.text(value)] for key, value in candidate.changes],
            "distance": list(candidate.distance),
            "rounds": [{"games": r[index].games, "worst_gap": r[index].worst_gap,
                        "status": r[index].status} for r in race.rounds if index in r],
            # Every seat's gap from fair after its last round: the report's plot.
            "seats": [{"table": s["table"], "seat": s["seat"], "gap": s["verdict"]["gap"]}
                      for s in race.last(index).seats]}


def analyse_sections(experiment: Experiment, runs: list[TableRun], n_jobs: int = -1,
                     cache: ChunkCache | None = None) -> dict[str, dict]:
    """Every section of the experiment (``[ladder]``, ``[budgets]``, ...), analysed; the
    games a section plays itself kept in ``cache``."""
    return {name: experiment.analyses[name].analyse(experiment, runs, config, n_jobs, cache)
            for name, config in experiment.sections.items()}


def plan(path: str | Path, half_width: float | None = None, effect: float | None = None,
         power: float = 0.8, pilot_games: int | None = None, seed: int | None = None,
         n_jobs: int = -1, progress: bool = False) -> pd.DataFrame:
    """Games needed per seat and table, independent and duplicate deals, from a pilot run.

    Give ``half_width`` (of a 95 % interval on a seat's win share) or ``effect`` (a win
    share difference to detect) with ``power``.
    """
    experiment = load_experiment(str(path), seed=seed)
    if (half_width is None) == (effect is None):
        raise ValueError("give exactly one of half_width and effect")
    if experiment.game.result_kind is not ResultKind.SEATS:
        # The planner sizes a seat's win share, which a team game does not have.
        raise InputError("cakesim plan", "experiment",
                         f"{experiment.name} plays {experiment.game.name}, which all players "
                         "win or lose together: there is no seat's win share to plan for; "
                         "allowed: an experiment of a game with seats")
    games = pilot_games or (experiment.plan.games if experiment.plan else 4000)
    question = Question(half_width=half_width, effect=effect, power=power)
    own = [table for table, _ in _own(experiment)]
    total = _games_of((t, games) for t in own for _ in range(2))
    with RunProgress(total, progress, cache=False):
        return plan_tables(own, question, games, experiment.seed, n_jobs, progress)


def _own(experiment: Experiment) -> list[tuple[TableSpec, int]]:
    """The experiment's own tables with their games: the sample-size plan and comparisons
    leave out the rows a section added (the skill ladder's), whose size the section sets."""
    return [(t, count) for t, count in zip(experiment.tables, experiment.table_games,
                                           strict=True)
            if t.label not in experiment.section_tables]


def sprt(path: str | Path, table: str, seat: int = 0, delta: float = 0.02,
         direction: str = "deficit", alpha: float = 0.05, beta: float = 0.05,
         max_games: int = 200_000, seed: int | None = None,
         epsilon: float = SprtClaim.epsilon, progress: bool = False) -> SprtResult:
    """Settle "seat ``seat`` (0: first) at ``table`` is at least ``delta`` off fair" by an SPRT.

    The claim is accepted with chance at most ``alpha`` when the share is ``delta`` off or
    less, and at least ``1 - beta`` when it is ``delta + epsilon`` off or more.
    """
    experiment = load_experiment(str(path), seed=seed)
    chosen = experiment.table_named(table)
    claim = SprtClaim(chosen.label, seat, direction, delta, alpha, beta, max_games, epsilon)
    return sequential_test(chosen, experiment.seed, claim, progress)


def ci_run(path: str | Path, n_jobs: int = -1, progress: bool = False,
           seed: int | None = None,
           sequential: bool = True) -> tuple[Baseline, list[SprtResult]]:
    """Play an experiment at its ``[ci]`` size (never from the cache): its baseline.

    ``seed`` replaces the ``[ci]`` seed; without ``sequential`` the SPRT claims are skipped.
    """
    experiment = load_experiment(str(path), seed=seed, ci=True)
    pairs = list(zip(experiment.tables, experiment.table_games, strict=True))
    with RunProgress(_games_of(pairs), progress, cache=False,
                     desc=f"{experiment.name}, all games"):
        runs = run_tables(pairs, experiment.seed, n_jobs, experiment.chunk_size,
                          experiment.keep_rows, progress)
    tests = [sequential_test(experiment.table_named(c.table), experiment.seed, c, progress)
             for c in experiment.ci.sprt] if sequential else []
    return make_baseline(experiment, runs, analyse_sections(experiment, runs, n_jobs)), tests


def baseline(path: str | Path, n_jobs: int = -1, progress: bool = False) -> Path:
    """Write ``reports/baselines/<experiment>.json`` from a CI-sized run."""
    out = baseline_file(path)
    record, _ = ci_run(path, n_jobs, progress)
    write_baseline(record, out)
    return out


def baseline_file(path: str | Path) -> Path:
    """Where ``baseline`` writes an experiment's record, checked before any game is played:
    ``reports/baselines/NAME.json``, which only ``experiments/NAME.toml`` writes."""
    experiment = load_experiment(str(path), ci=True)
    name = experiment.name
    return _output(baseline_path(name), "[experiment] name",
                   f"experiments/{name}.toml itself, or another [experiment] name",
                   suffix=".json", own=_own_file(experiment),
                   committed=f"is the committed baseline of experiments/{name}.toml, "
                             "which only that file writes")


def regress(path: str | Path, n_jobs: int = -1, progress: bool = False) -> Regression:
    """Re-run an experiment at CI size and set it against its committed baseline."""
    experiment = load_experiment(str(path), ci=True)
    stored = read_baseline(baseline_path(experiment.name))
    record, tests = ci_run(path, n_jobs, progress)
    return compare(stored, record, tests)


def replay_table(path: str | Path, table: str, index: int, seed: int | None = None,
                 changes: RuleChanges = NO_CHANGES) -> str:
    """The move log of game ``index`` of an experiment's table (by label), as the run
    plays it: the experiment's seed (or ``seed``), rules, variant, options and players."""
    experiment = load_experiment(str(path), seed=seed, changes=changes)
    chosen = experiment.table_named(table)
    count = experiment.table_games[experiment.tables.index(chosen)]
    played = _games_of([(chosen, count)])
    if index >= played:
        raise InputError("--index", str(index), f"{chosen.label!r} plays games 0 to "
                                                f"{played - 1}; allowed: 0 to {played - 1}")
    return (f"{experiment.name}, table {chosen.label!r}\n"
            + replayable(chosen.game).replay_table(chosen, experiment.seed, index))


def new_experiment(name: str, game: str) -> Path:
    """Write a commented minimal experiment file for ``game``: ``experiments/NAME.toml`` in
    the project (here, when outside one), or the path ``NAME`` if it ends in ``.toml``."""
    g = game_named(game)
    path = Path(name)
    toml = path.suffix == ".toml"
    # The experiment's name (a bare name, or the file's stem) becomes a folder and is
    # written into the file as a TOML string.
    checked_name(path.stem if toml else name, "cakesim new", "name")
    if not toml:
        path = (find_root() or Path.cwd()) / EXPERIMENTS / f"{name}.toml"
    if path.exists():
        raise InputError("experiment", name, f"{shown_path(path)} exists already; choose "
                                             "another name (nothing was overwritten)")
    _output(path, "cakesim new", "experiments/NAME.toml, or a .toml path outside reports/ "
                                 "and the package", suffix=".toml")
    path.write_text(_experiment_template(g, path.stem), encoding="utf-8")
    return path


def _experiment_template(game, name: str) -> str:
    """A minimal experiment for ``game``, every key explained in a designer's words."""
    strategy, rules = game.default_strategy, game.load_rules()
    question = ("Is the first seat disadvantaged, and by how much?"
                if game.result_kind is ResultKind.SEATS else "How often do the players win?")
    options = "".join(f"# {option}: one of {', '.join(game.option_choices(rules, option))}\n"
                      f'# {option} = "{game.option_defaults[option]}"\n'
                      for option in game.table_options if option in game.option_defaults)
    skill = ("\n# Re-play the table with weak and strong players at every seat (slow: the "
             "strongest search\n# at every move). Turn it on once the quick answer looks "
             "right.\n[skill]\nenabled = false\n" if game.skill_ladder else "")
    return f"""# {name}: what does this experiment ask? Say it in one line here and in `question`.
# Run:  cakesim run {name}                    (the report: reports/{name}/report.md)
# Try:  cakesim run {name} --games 2000       (a quick look, written under runs/)
#       cakesim compare {name} --set KEY=VALUE  (what a rule change does)

[experiment]
# The report's folder name and title, and the question its first line answers.
name = "{name}"
title = "{game.title}: {name.replace('_', ' ')}"
question = "{question}"
game = "{game.name}"
# The same seed plays the same games; another seed, new deals.
seed = 1
# Games per table: four times the games halve the width of every interval.
games = 10000
# To try changed rules, copy the game's rules.toml beside this file, edit it, and name it:
# rules = "my_rules.toml"

# The players, each under a name of your choice. `builtin` picks one of the game's:
{textwrap.fill(", ".join(game.strategy_names), 88, initial_indent="# ",
               subsequent_indent="# ")}.
[strategies.{strategy}]
builtin = "{strategy}"

# A table: how many players, which variant, who sits where (one strategy at every seat,
# or a list of one per seat). Lists of players or variants play every combination.
{textwrap.fill("Variants: " + ", ".join(game.variants) + ".", 88, initial_indent="# ",
               subsequent_indent="# ")}
[[tables]]
players = {game.default_players}
variant = "{game.variants[0]}"
seats = "{strategy}"
{options}{skill}"""


def all_experiments() -> list[Path]:
    """Every experiment file of the project; none is an InputError (nothing to check)."""
    found = experiment_paths()
    if not found:
        raise InputError(str(experiments_dir()), "", "no experiment files (*.toml) here")
    return found


def write_reports_index(root: str | Path | None = None) -> Path:
    """Regenerate the project's ``reports/index.md`` from every report's ``summary.json``."""
    return write_index(Path(root) if root is not None else reports_dir())


def _cache(cache: bool | str | Path) -> ChunkCache | None:
    root = _cache_root(cache)
    return ChunkCache(root) if root is not None else None



def tune(game: str, players: int | None = None, variant: str | None = None,
         budget: int = 3000, rounds: int = 6, games: int = 4000, confirm: int = 20_000,
         seed: int = 20261201, n_jobs: int = -1, progress: bool = False,
         cache: bool | str | Path = True, out: str | Path | None = None,
         ship: bool = False):
    """Tune ``game``'s strategy by self-play at ``players``; write it; ``(path, outcome)``.

    The file goes to ``out``, else to ``runs/tuned/GAME/Pp-VARIANT.toml``; ``ship`` writes
    the game's shipped file instead (``tuned_file``). An interrupted tuning restarted with
    the same arguments continues from its last checkpoint (in the cache folder) and ends
    with the same strategy.
    """
    arena = _arena(game, players, variant)
    path = _tuned_file(arena, out, ship)
    plan = search.Budget(evaluations=budget, rounds=rounds, games=games, confirm=confirm)
    outcome = search.tune(arena, plan, seed, n_jobs, progress, _cache_root(cache))
    command = (f"cakesim tune {game} --players {arena.players} --variant {arena.variant} "
               f"--budget {budget} --rounds {rounds} --games {games} --confirm {confirm} "
               f"--seed {seed}" + (" --ship" if ship else ""))
    write_tuned(arena.game, outcome, path, command)
    return path, outcome


def train(game: str, players: int, games: int = 2000, seed: int = 20261208,
          n_jobs: int = -1, progress: bool = False, out: str | Path | None = None,
          ship: bool = False, cache: bool | str | Path = True,
          rounds: int = 1) -> tuple[Path, dict]:
    """Fit ``game``'s chooser to its teacher at ``players`` (``tuning.policy``; ``rounds``
    rounds of expert iteration); write the policy with its provenance; ``(path,
    provenance)``.

    The file goes to ``out``, else to ``runs/policies/GAME/Pp.toml``; ``ship`` writes the
    shipped policy the built-in ``fitted`` strategy plays. The same arguments give the same
    file, bit for bit; an interrupted run started again with them (and the same ``cache``
    folder) plays only the games it had not finished.
    """
    trained = trainable(game_named(game))
    players = players_in_range(players, trained.load_rules())
    path = policy_file(trained, players, out, ship)
    command = (f"cakesim train {game} --players {players} --games {games} --seed {seed}"
               + (f" --rounds {rounds}" if rounds > 1 else "") + (" --ship" if ship else ""))
    fit, provenance = train_policy(trained, players, games, seed, n_jobs, progress, command,
                                   _cache_root(cache), rounds)
    write_policy(path, fit.weights, trained.policy_shape(players), provenance)
    return path, provenance


def policy_file(game, players: int, out: str | Path | None, ship: bool) -> Path:
    """Where ``train`` writes: ``out``, the shipped policy with ``ship``, else
    ``runs/policies/GAME/``; checked before any game is played."""
    return _written_file(game.shipped_policy(players), out, ship, "policies", game.name,
                         "train", (is_policy_file, "a fitted policy file"))


def tuned_file(game: str, players: int | None = None, variant: str | None = None,
               out: str | Path | None = None, ship: bool = False) -> Path:
    """Where ``tune`` writes, checked (and its players and variant) before any game is
    played: a shipped strategy file is written only with ``ship``."""
    return _tuned_file(_arena(game, players, variant), out, ship)


def _arena(game: str, players: int | None, variant: str | None) -> Arena:
    """The arena of a tuning: ``players`` and ``variant`` checked, or the game's defaults."""
    g = game_named(game)
    rules = g.load_rules()
    return Arena(g, rules, players_in_range(players, rules) or g.default_players,
                 variant or g.variants[0])


def _tuned_file(arena: Arena, out: str | Path | None, ship: bool) -> Path:
    """``out``, the shipped file with ``ship``, else ``runs/tuned/GAME/``: checked."""
    return _written_file(tuned_path(arena.game, arena.players, arena.variant), out, ship,
                         "tuned", arena.game.name, "tune",
                         (is_tuned_file, "a tuned strategy file"))


def _written_file(shipped: Path, out: str | Path | None, ship: bool, kind: str, game: str,
                  command: str, earlier: tuple[Callable[[Path], bool], str]) -> Path:
    """Where ``command`` writes a file it ships as ``shipped``: ``out``, ``shipped`` with
    ``ship``, else ``runs/KIND/GAME/``; checked (a file there already must be one the
    command wrote, ``earlier``)."""
    if ship and out is not None:
        raise InputError("--out", str(out), f"--ship writes the shipped "
                                            f"{shown_path(shipped)}; give --out or --ship")
    if ship:
        path, flag = shipped, "--ship"
    elif out is not None:
        path, flag = Path(out), "--out"
    else:
        # Beside the project's other runs (here, outside one): never the shipped file.
        runs = (find_root() or Path.cwd()) / RUNS
        path, flag = runs / kind / game / shipped.name, command
    return _output(path, flag, f"a .toml file outside reports/ and the package (no --out: "
                               f"runs/{kind}/; the game's shipped file: --ship)",
                   suffix=".toml", own=ship, earlier=None if ship else earlier)


def exploit(game: str, strategies: list[str], players: list[int], budget: int = 200,
            games: int = 4000, confirm: int = 20_000, seed: int = 20261201,
            n_jobs: int = -1, progress: bool = False, cache: bool | str | Path = True,
            report: str | Path | None = None):
    """Best responses to each named strategy at each player count: ``(results, report)``.

    With ``report`` (a folder: ``reports/exploitability``, or one outside ``reports/``)
    the results are kept in ``report/GAME.json`` and the folder's ``report.md`` is
    rewritten from every game's file there.
    """
    g = game_named(game)
    rules = g.load_rules()
    plan = search.Budget(evaluations=budget, rounds=1, games=games, confirm=confirm)
    # Every player count and strategy, and the report's folder, checked before a search.
    searches = []
    for count in players:
        arena = Arena(g, rules, players_in_range(count, rules), g.variants[0])
        with flag_errors("--strategy"):
            targets = [g.named_strategy(name, count) for name in strategies]
        # Every named strategy (the search players too), and the strong players the
        # tuning met, challenge the target; the tuner's searches start from the best.
        population = tuned_population(g, count, g.variants[0])
        starts = {n: g.named_strategy(n, count) for n in g.strategy_names} | population
        families = ({n: "search" for n in g.search_strategies}
                    | dict.fromkeys(population, "tuning population"))
        searches += [(arena, target, starts, families) for target in targets]
    folder = None
    if report is not None:
        folder = _output(Path(report), "--report", f"{REPORTS}/{EXPLOITABILITY}, or a folder "
                                                   f"outside {REPORTS}/",
                         own=_in_reports(Path(report)) == (EXPLOITABILITY,),
                         earlier=(is_exploitability, "an exploitability report"))
    command = (f"cakesim exploit {game} --strategy {' '.join(strategies)} --players "
               f"{' '.join(map(str, players))} --budget {budget} --games {games} "
               f"--confirm {confirm} --seed {seed}"
               + (f" --report {shown_path(folder)}" if folder is not None else ""))
    store = _cache_root(cache)
    results = [best_response(arena, target, starts, plan, seed, n_jobs, progress, store,
                             families)
               for arena, target, starts, families in searches]
    written = None
    if folder is not None:
        path = folder / f"{g.name}.json"
        kept = json.loads(path.read_text())["results"] if path.exists() else []
        new = [r.as_dict() | {"command": command, "cakesim": code_version()}
               for r in results]
        fresh = {(r["target"], r["players"]) for r in new}
        rows = [r for r in kept if (r["target"], r["players"]) not in fresh] + new
        rows.sort(key=lambda r: (g.strategy_names.index(r["target"]), r["players"]))
        path.write_text(json.dumps({
            "title": g.title,
            "rules_digest": next(iter(file_digests([rules]).values())), "results": rows},
            indent=1) + "\n")
        written = write_exploitability(folder)
    return results, written


def _cache_root(cache: bool | str | Path) -> Path | None:
    """The cache folder for chunks and checkpoints: ``True`` the default one, ``False``
    none; one that cannot be written is refused now, not after the first chunk."""
    if cache is False:
        return None
    root = default_cache_dir() if cache is True else Path(cache)
    flag = CACHE_ENV if cache is True and CACHE_ENV in os.environ else "cache"
    _writable(root, flag, shown_path(root), "a folder you may write, or --no-cache")
    return root
