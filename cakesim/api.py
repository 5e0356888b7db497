"""The Python API the CLI and notebooks share."""

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from cakesim.engine.arguments import players_in_range
from cakesim.engine.cache import ChunkCache, default_cache_dir
from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import code_version, file_digests
from cakesim.engine.project import experiments_dir, reports_dir, shown_path
from cakesim.engine.runner import DEFAULT_CHUNK, DEFAULT_KEEP_ROWS, TableRun, backend, run_table
from cakesim.experiment import Experiment, experiment_paths, load_experiment
from cakesim.games import game_named
from cakesim.reports.exploitability import write_exploitability
from cakesim.reports.report import write_index, write_report
from cakesim.stats.baseline import (
    Baseline,
    Regression,
    baseline_path,
    compare,
    make_baseline,
    read_baseline,
    write_baseline,
)
from cakesim.stats.planner import Question, plan_tables
from cakesim.stats.sprt import SprtClaim, SprtResult, sequential_test
from cakesim.tuning import search
from cakesim.tuning.arena import Arena
from cakesim.tuning.exploit import best_response
from cakesim.tuning.record import tuned_population, write_tuned


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
                   skill_games: int | None = None) -> ExperimentResult:
    """Run every table of an experiment and (unless ``write`` is false) write its report.

    ``cache`` (true: ``$CAKESIM_CACHE`` or ``.cakesim-cache``; or a folder) keeps finished
    chunks, so an interrupted run restarted plays only what is missing. ``backend_name``
    ``dask`` with a ``scheduler`` address runs the chunks on a Dask cluster. With
    ``sample_size`` (and a ``[plan]`` section) the report gets the planner's pilot run.
    """
    experiment = load_experiment(str(path), games, seed, skill_games=skill_games)
    store = _cache(cache)
    plan = None
    with backend(backend_name, scheduler):
        runs = [run_table(table, count, experiment.seed, n_jobs, experiment.chunk_size,
                          experiment.keep_rows, progress, store)
                for table, count in zip(experiment.tables, experiment.table_games,
                                        strict=True)]
        if write and sample_size and experiment.plan is not None:
            question = Question(half_width=experiment.plan.half_width)
            plan = plan_tables(_own_tables(experiment), question, experiment.plan.games,
                               experiment.seed, n_jobs, progress)
        sections = analyse_sections(experiment, runs, n_jobs) if write else {}
    report = None
    if write:
        out = Path(out) if out is not None else reports_dir() / experiment.name
        command = (f"cakesim run {shlex.quote(shown_path(experiment.path))} "
                   f"--seed {experiment.seed}")
        if games is not None:
            command += f" --games {games}"
        if skill_games is not None:
            command += f" --skill-games {skill_games}"
        report = write_report(experiment, runs, out, command, plan, sections)
    return ExperimentResult(experiment, runs, report, plan)


def analyse_sections(experiment: Experiment, runs: list[TableRun],
                     n_jobs: int = -1) -> dict[str, dict]:
    """Every section of the experiment (``[ladder]``, ``[budgets]``, ...), analysed."""
    return {name: experiment.analyses[name].analyse(experiment, runs, config, n_jobs)
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
    games = pilot_games or (experiment.plan.games if experiment.plan else 4000)
    question = Question(half_width=half_width, effect=effect, power=power)
    return plan_tables(_own_tables(experiment), question, games, experiment.seed, n_jobs,
                       progress)


def _own_tables(experiment) -> list:
    """The experiment's own tables: the sample-size plan leaves out the rows a section
    added (the skill ladder's), whose size the section sets."""
    return [t for t in experiment.tables if t.label not in experiment.section_tables]


def sprt(path: str | Path, table: str, seat: int = 0, delta: float = 0.02,
         direction: str = "deficit", alpha: float = 0.05, beta: float = 0.05,
         max_games: int = 200_000, seed: int | None = None,
         epsilon: float = SprtClaim.epsilon) -> SprtResult:
    """Settle "seat ``seat`` (0: first) at ``table`` is at least ``delta`` off fair" by an SPRT.

    The claim is accepted with chance at most ``alpha`` when the share is ``delta`` off or
    less, and at least ``1 - beta`` when it is ``delta + epsilon`` off or more.
    """
    experiment = load_experiment(str(path), seed=seed)
    claim = SprtClaim(table, seat, direction, delta, alpha, beta, max_games, epsilon)
    return sequential_test(experiment.table_named(table), experiment.seed, claim)


def ci_run(path: str | Path, n_jobs: int = -1, progress: bool = False,
           seed: int | None = None,
           sequential: bool = True) -> tuple[Baseline, list[SprtResult]]:
    """Play an experiment at its ``[ci]`` size (never from the cache): its baseline.

    ``seed`` replaces the ``[ci]`` seed; without ``sequential`` the SPRT claims are skipped.
    """
    experiment = load_experiment(str(path), seed=seed, ci=True)
    runs = [run_table(table, count, experiment.seed, n_jobs, experiment.chunk_size,
                      experiment.keep_rows, progress)
            for table, count in zip(experiment.tables, experiment.table_games, strict=True)]
    tests = [sequential_test(experiment.table_named(c.table), experiment.seed, c)
             for c in experiment.ci.sprt] if sequential else []
    return make_baseline(experiment, runs, tests, analyse_sections(experiment, runs, n_jobs)), tests


def baseline(path: str | Path, n_jobs: int = -1, progress: bool = False) -> Path:
    """Write ``reports/baselines/<experiment>.json`` from a CI-sized run."""
    record, _ = ci_run(path, n_jobs, progress)
    out = baseline_path(record.record["experiment"])
    write_baseline(record, out)
    return out


def regress(path: str | Path, n_jobs: int = -1, progress: bool = False) -> Regression:
    """Re-run an experiment at CI size and set it against its committed baseline."""
    experiment = load_experiment(str(path), ci=True)
    stored = read_baseline(baseline_path(experiment.name))
    record, tests = ci_run(path, n_jobs, progress)
    return compare(stored, record, tests)


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
         cache: bool | str | Path = True, out: str | Path | None = None):
    """Tune ``game``'s strategy by self-play at ``players``; write it; ``(path, outcome)``.

    An interrupted tuning restarted with the same arguments continues from its last
    checkpoint (in the cache folder) and ends with the same strategy.
    """
    g = game_named(game)
    rules = g.load_rules()
    players = players_in_range(players, rules) or g.default_players
    variant = variant or g.variants[0]
    arena = Arena(g, rules, players, variant)
    plan = search.Budget(evaluations=budget, rounds=rounds, games=games, confirm=confirm)
    outcome = search.tune(arena, plan, seed, n_jobs, progress, _cache_root(cache))
    path = Path(out) if out is not None else g.tuned_path(players, variant)
    command = (f"cakesim tune {game} --players {players} --variant {variant} --budget "
               f"{budget} --rounds {rounds} --games {games} --confirm {confirm} "
               f"--seed {seed}")
    write_tuned(g, outcome, path, command)
    return path, outcome


def exploit(game: str, strategies: list[str], players: list[int], budget: int = 200,
            games: int = 4000, confirm: int = 20_000, seed: int = 20261201,
            n_jobs: int = -1, progress: bool = False, cache: bool | str | Path = True,
            report: str | Path | None = None):
    """Best responses to each named strategy at each player count: ``(results, report)``.

    With ``report`` (a folder) the results are kept in ``report/GAME.json`` and the
    folder's ``report.md`` is rewritten from every game's file there.
    """
    g = game_named(game)
    rules = g.load_rules()
    plan = search.Budget(evaluations=budget, rounds=1, games=games, confirm=confirm)
    folder = Path(report) if report is not None else None
    command = (f"cakesim exploit {game} --strategy {' '.join(strategies)} --players "
               f"{' '.join(map(str, players))} --budget {budget} --games {games} "
               f"--confirm {confirm} --seed {seed}"
               + (f" --report {shown_path(folder)}" if folder is not None else ""))
    results = []
    for count in players:
        arena = Arena(g, rules, players_in_range(count, rules), g.variants[0])
        targets = [g.named_strategy(name, count) for name in strategies]
        # Every named strategy, and the strong players the tuning met, start the search.
        starts = ({n: g.named_strategy(n, count) for n in g.strategy_names
                   if n not in g.search_strategies}
                  | tuned_population(g, count, g.variants[0]))
        for target in targets:
            results.append(best_response(arena, target, starts, plan, seed, n_jobs,
                                         progress, _cache_root(cache)))
    written = None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
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
    """The cache folder for checkpoints: ``True`` the default one, ``False`` none."""
    if cache is False:
        return None
    return default_cache_dir() if cache is True else Path(cache)
