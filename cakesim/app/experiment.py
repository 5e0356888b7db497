"""Experiments as data: a TOML file read strictly into tables to simulate.

An experiment names a game, a seed, a game count per table, named strategies and a list
of tables. A table entry may give lists for ``players`` and ``variant``; it expands into
every combination, skipping variants the rule set does not define for a player count
(the report says which). Its strategies are ``seats`` (one strategy at every seat, or
one per seat), ``round_robin`` (every group of different strategies) or ``against_field``
(each strategy alone against a field of every other): the last two are the tables of a
strategy ladder. Sections add analyses (``[ladder]``, ``[contrasts]``, a game's own);
``[skill]`` adds tables too, the headline tables re-played at every strength of a skill
ladder (by default when the game has one). Unknown keys, wrong types and impossible rule
sets are errors naming the file and the key.

The command line may change the rule set for one run (``--rules FILE``, ``--set KEY=VALUE``:
see ``RuleChanges``); the changed rule set is read by the same strict readers as the file,
and its errors name the flag.
"""

import argparse
import dataclasses
import functools
import hashlib
import itertools
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from cakesim.analyses import assumptions as assumption_rows
from cakesim.analyses import skill as skill_rows
from cakesim.engine.arguments import Setting, resolved_path, setting, value_at, with_settings
from cakesim.engine.contract import Game, ResultKind, RuleSet, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.project import EXPERIMENTS, REPORTS, experiments_dir, find_root
from cakesim.engine.runner import DEFAULT_CHUNK, DEFAULT_KEEP_ROWS
from cakesim.engine.tables import Table, read_toml
from cakesim.games import GAMES, game_named
from cakesim.kits.strategies import tunable
from cakesim.reports import assumptions, contrasts, ladder, skill
from cakesim.reports.answer import answer_kinds
from cakesim.reports.hooks import Section, hooks_of
from cakesim.stats.intervals import MARGIN
from cakesim.stats.sprt import SprtClaim, parse_claim
from cakesim.tuning import balance
from cakesim.tuning.balance import BalanceQuestion

SHARED_SECTIONS: dict[str, Section] = {"ladder": ladder, "contrasts": contrasts,
                                       "skill": skill}
"""Analyses any experiment of a game with seats (``ResultKind.SEATS``) may ask for; the
skill ladder is asked for by default when the game has one (``Game.skill_ladder``)."""

EVERY_GAME_SECTIONS: dict[str, Section] = {"assumptions": assumptions}
"""Analyses any experiment may ask for: what its answer rests on."""


@dataclass(frozen=True)
class CiSize:
    """The experiment at the size CI re-runs: fewer games, a fixed seed."""

    games: int
    seed: int
    level: float
    """Family-wise significance level of the regression test over the secondary numbers
    (Holm): every number but the primary family's."""
    materiality: float = 0.005
    """The smallest move of a share (win share, win rate) that fails the gate; means
    fail from a move of this fraction of their baseline value."""
    sprt: tuple[SprtClaim, ...] = ()
    primary: tuple[str, ...] = ()
    """Labels of the tables whose win shares (win rates) are the gate's primary family:
    the numbers the answer speaks of (``[ci] primary``; by default the headline tables)."""
    primary_games: int | None = None
    """Games per primary table (``[ci] primary_games``; default ``games``): the size the
    planner (``cakesim.stats.planner.gate_games``) asks for, so that the gate catches a
    1.5 pp move of any primary share in at least 80 % of runs."""
    primary_level: float = 0.04
    """Family-wise level of the primary family (Holm); with ``level``, at most 5 % of runs
    whose numbers did not move fail the gate."""


@dataclass(frozen=True)
class PilotPlan:
    """A pilot run for the report's sample-size section."""

    games: int
    half_width: float


@dataclass(frozen=True)
class RuleChanges:
    """What a command line changes in an experiment's rule set, for one run.

    ``rules`` is a rule-set file played instead of the game's published ``rules.toml`` (or
    the file the experiment names); each setting is either one of the game's one-line rule
    overrides (``Game.rule_overrides``, e.g. ``tie_rule=none``) or a dotted key into a rule
    file (``kinds.chocolate.cream=2``; see ``cakesim.engine.arguments.with_settings``).
    """

    rules: str | None = None
    settings: tuple[Setting, ...] = ()
    files: tuple[tuple[str, str], ...] = ()
    """``--rules NAME=FILE``: another of the game's rule files (``Game.rule_files``) by name."""

    def __bool__(self) -> bool:
        return self.rules is not None or bool(self.settings) or bool(self.files)

    def flags(self) -> list[str]:
        """The command-line flags that make these changes."""
        return ([f"--rules {self.rules}"] if self.rules is not None else []) + [
            f"--rules {name}={path}" for name, path in self.files] + [
            s.flag for s in self.settings]


NO_CHANGES = RuleChanges()
"""The experiment's rule set as its file says."""


NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""An experiment's name: it becomes a folder (``reports/NAME``, ``runs/NAME``) and a TOML
string, so letters, digits, ``_``, ``.`` and ``-``, starting with a letter or a digit."""


def checked_name(name: str, source: str, key: str) -> str:
    """``name`` if it may name an experiment (``NAME``); an InputError naming ``key``."""
    if not NAME.fullmatch(name):
        raise InputError(source, key, f"{name!r} is not allowed; allowed: letters, digits, "
                                      "'_', '.' and '-', starting with a letter or a digit "
                                      "(it names the report's folder)")
    return name


MIN_DEALS = 2
"""The fewest deals a table plays: every interval by deal takes the deals' variance, which
one deal cannot show (it has deals - 1 degrees of freedom)."""


def fewest_games(table: TableSpec, games: int) -> int | None:
    """The fewest games ``table`` needs when ``games`` are fewer deals than ``MIN_DEALS``."""
    needed = MIN_DEALS * table.games_per_deal
    return needed if -(-games // table.games_per_deal) < MIN_DEALS else None


@dataclass(frozen=True)
class SampleSize:
    """How many games a run plays per table, decided in one place: ``--games`` (or the
    ``[ci]`` size) beats a ``[[tables]]`` entry's own ``games``, which beats the file's."""

    file: int
    """The experiment file's ``games`` (the override, when the file gives none)."""
    override: int | None = None
    """``--games`` or the ``[ci]`` games, if given."""
    flag: tuple[str, str] = ("--games", "")
    """What gave ``override`` (source and key), for an error that names it."""

    @property
    def run(self) -> int:
        """Games per table unless an entry says otherwise; no section plays more."""
        return self.override or self.file

    def of_entry(self, spec: Table) -> int:
        """The games of each table a ``[[tables]]`` entry expands into."""
        return self.override or spec.int_in("games", 1, 10**10, self.file)

    def pilot(self, games: int) -> int:
        """A ``[plan]`` pilot of ``games``: shrunk in proportion by an override below the
        file's size, and never more games per table than the run."""
        if self.override is None:
            return games
        return min(self.override, -(-games * min(self.override, self.file) // self.file))

    def check_deals(self, table: TableSpec, games: int, spec: Table, key: str) -> None:
        """Refuse ``games`` too few deals for ``table`` when ``key`` of ``spec`` gave them
        (the override's are checked at once, by ``check_override``)."""
        needed = fewest_games(table, games)
        if needed is None or games == self.override:
            return
        message = f"{games:,}: {_too_few(table, needed)}"
        if key not in spec.data:
            # The entry took the experiment's games.
            raise InputError(spec.source, "experiment.games", message)
        raise spec.error(key, message)

    def check_override(self, tables: list[TableSpec], games: list[int]) -> None:
        """Refuse an override too few deals for any table it sizes, naming the fewest games
        every such table needs."""
        short = [(t, needed) for t, count in zip(tables, games, strict=True)
                 if count == self.override and (needed := fewest_games(t, count)) is not None]
        if short:
            source, key = self.flag
            raise InputError(source, key or f"{self.override:,}",
                             _too_few(short[0][0], max(needed for _, needed in short)))


def _too_few(table: TableSpec, needed: int) -> str:
    per_deal = table.games_per_deal
    return (f"one deal ({per_deal} game{'s' * (per_deal > 1)}) at the table {table.label!r}, "
            f"and an interval by deal needs {MIN_DEALS} deals; allowed: at least {needed:,}")


@dataclass
class Experiment:
    """A validated experiment, ready to run."""

    path: Path
    name: str
    title: str
    question: str
    answer: str
    """What the report opens with: ``seat_bias``, a section's answer (``contrasts``,
    ``ladder``, ``budgets``, ...) or a game's own (``cards``); see ``answer_kinds``."""
    game: Game
    seed: int
    sample: SampleSize
    chunk_size: int
    keep_rows: int
    rules_source: str
    tables: list[TableSpec]
    table_games: list[int]
    """Games per table, in the order of ``tables`` (``sample.of_entry``)."""
    skipped: list[str] = field(default_factory=list)
    config: dict = field(default_factory=dict)
    ci: CiSize | None = None
    plan: PilotPlan | None = None
    sections: dict = field(default_factory=dict)
    """Analyses the file asks for (``[ladder]``, Speedtorte's ``[budgets]``), and the skill
    ladder unless turned off: name -> parsed question."""
    analyses: dict[str, Section] = field(default_factory=dict)
    """The module that analyses and reports each of ``sections``."""
    margin: float = MARGIN
    """Fairness margin of the verdicts: a seat within this of its fair share is fair."""
    controls: tuple[str, ...] = ()
    """Labels of control tables (e.g. random play): reported as controls."""
    section_tables: tuple[str, ...] = ()
    """Labels of the tables a section added (the ``[skill]`` rows): run, cached and gated
    like the others, but reported by their section, not as tables of the experiment."""
    changed_files: dict[str, str] = field(default_factory=dict)
    """The rule files a ``--set`` changed, as played: file name -> TOML text."""
    skill_trace: Path | None = None
    """The report folder of the skill trace the answer quotes (``[experiment]
    skill_trace``, an experiment beside this one), if any."""
    balance: BalanceQuestion | None = None
    """``[balance]``: the rule changes ``cakesim balance`` searches, if the file asks."""

    def table_named(self, label: str) -> TableSpec:
        """The table labelled ``label`` (in any case); an InputError naming ``--table``
        lists the labels there are."""
        for table in self.tables:
            if table.label.casefold() == label.casefold():
                return table
        raise InputError("--table", label, f"no table {label!r} in {self.name}; allowed: "
                                           f"{', '.join(t.label for t in self.tables)}")


def find_experiment(name_or_path: str) -> Path:
    """``first_player_bias`` -> the project's ``experiments/first_player_bias.toml``.

    A path (ending in ``.toml``, or a file that exists) stays itself. A name is looked up
    in the ``experiments/`` folder of the project the working directory lies in (at any
    depth); outside a project, or for an unknown name, an InputError says so.
    """
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file():
        return path
    if path.is_dir():
        raise InputError("experiment", name_or_path, "is a folder, not an experiment; allowed: "
                                                     "a name (experiments/NAME.toml) or the "
                                                     "path of a .toml file")
    project = find_root()
    if project is None:
        raise InputError("experiment", name_or_path,
                         f"not a file, and {Path.cwd()} is not inside a cakesim project (no "
                         f"{EXPERIMENTS}/ folder here or in any folder above) to look the "
                         "name up in; run from the project, or give the path of the file")
    path = project / EXPERIMENTS / f"{name_or_path}.toml"
    if not path.is_file():
        names = sorted(p.stem for p in path.parent.glob("*.toml"))
        raise InputError("experiment", name_or_path,
                         f"no such experiment in {path.parent}; allowed: "
                         f"{', '.join(names) or 'none yet (cakesim new NAME --game GAME)'}")
    return path


def section_modules(game: Game) -> dict[str, Section]:
    """Every experiment section a game's experiments may have, and the module behind it."""
    shared = SHARED_SECTIONS if game.result_kind is ResultKind.SEATS else {}
    return {**shared, **EVERY_GAME_SECTIONS, **hooks_of(game).experiment_sections()}


def experiment_paths() -> list[Path]:
    """Every experiment file of the project, by name."""
    return sorted(experiments_dir().glob("*.toml"))


def load_experiment(name_or_path: str, games: int | None = None,
                    seed: int | None = None, ci: bool = False,
                    skill_games: int | None = None,
                    changes: RuleChanges = NO_CHANGES) -> Experiment:
    """Read and validate an experiment; ``games``/``seed`` override the file's values.

    With ``ci``, the experiment is sized by its ``[ci]`` section (games and seed).
    ``skill_games`` caps the games of each skill row (a small run: search players at every
    seat cost hundreds of games' time each). A ``games`` below the file's shrinks the
    ``[plan]`` pilot in proportion. ``changes`` changes the rule set (``--rules``,
    ``--set``); the config then records them with the digest of every changed file.
    """
    path = find_experiment(name_or_path)
    config = read_toml(path, "experiment")
    top = Table(config, str(path))
    game = game_named(top.sub("experiment").get("game", str, choices=GAMES))
    analyses = section_modules(game)
    top.only(["experiment", "strategies", "tables", "ci", "plan", "balance", *analyses])
    ci_size = _ci_size(top) if "ci" in top.data else None
    if game.result_kind is not ResultKind.SEATS:
        # Both measure a seat's win share, which a team game does not have.
        asked = [name for name, given in (("plan", "plan" in top.data),
                                          ("ci.sprt", bool(ci_size and ci_size.sprt)))
                 if given]
        if asked:
            raise top.error(asked[0], f"asks about a seat's win share, but {game.name} is won "
                                      "or lost by all players together; remove it")
    sized_by_ci = ci and games is None
    flag = ("--games", "") if games is not None else (str(path), "ci.games")
    if ci:
        if ci_size is None:
            raise top.error("ci", "missing; every experiment needs a [ci] section with games "
                                  "and seed, for the regression test")
        games = games if games is not None else ci_size.games
        seed = seed if seed is not None else ci_size.seed
    head = top.sub("experiment")
    head.only(["name", "title", "question", "answer", "game", "seed", "games", "chunk_size",
               "keep_rows", "margin", "skill_trace", *game.rule_files, *game.rule_overrides])
    rules, changed_files = _rules(game, head, path, changes)
    if changes:
        # A copy: the report records the command line's changes beside the file's config.
        config = config | {"changed_rules": _changes_record(changes, changed_files)}
    seed = seed if seed is not None else head.int_in("seed", 0, 2**63 - 1)
    # The file must give games unless the run does (``...``: no default).
    sample = SampleSize(head.int_in("games", 1, 10**10, ... if games is None else games), games,
                        flag)
    strategies = _strategies(game, top)
    tables = _Tables()
    entries = top.get("tables", list)
    if not entries:
        raise top.error("tables", "list at least one [[tables]] entry")
    for index, entry in enumerate(entries):
        tables.expand(game, rules, strategies, Table(entry, str(path), f"tables[{index}]"),
                      sample)
    if not tables.tables:
        raise top.error("tables", "every table was skipped: "
                                  + "; ".join(dict.fromkeys(tables.skipped)))
    # A section's own runs (e.g. sensitivity) never play more games than a table does.
    sections = {name: module.parse(top.sub(name)).at_most(sample.run)
                for name, module in analyses.items() if name in top.data}
    for name, question in sections.items():
        # Optional (``Section.check``): refusing now spares the games a refusal after play
        # would throw away.
        check = getattr(analyses[name], "check", None)
        if check is not None:
            check(question, tables.tables, path)
    if "skill" in analyses and "skill" not in top.data and game.skill_ladder:
        # On by default: whether the answer holds for weak and strong players alike.
        sections["skill"] = skill.parse(top.sub("skill", {})).at_most(sample.run)
    if skill_games is not None and "skill" in sections:
        sections["skill"] = sections["skill"].at_most(skill_games)
    if ci_size is not None:
        ci_size = _primary(ci_size, tables.tables, tables.controls, top.sub("ci"))
        if sized_by_ci and ci_size.primary_games:
            # The gate's primary tables at the size its power needs; a --games run as asked.
            tables.games = [ci_size.primary_games if t.label in ci_size.primary else n
                            for t, n in zip(tables.tables, tables.games, strict=True)]
    keep_rows = head.int_in("keep_rows", 0, 10**9, DEFAULT_KEEP_ROWS)
    headlines = skill_rows.headline_tables([t for t in tables.tables
                                            if t.label not in tables.controls])
    added = _skill_rows(game, rules, tables, sections, ci, head, keep_rows, sample,
                        strategies)
    added += _assumption_rows(game, head, path, changes, tables, sections, headlines)
    sample.check_override(tables.tables, tables.games)
    labels = [t.label for t in tables.tables]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        # Reports, contrasts and the regression gate name tables by label.
        raise top.error("tables", f"two tables are labelled {twice[0]!r}; give one entry "
                                  "a label (label = \"...\")")
    kinds = answer_kinds(game, {name: analyses[name] for name in sections})
    margin = head.number_in("margin", 0.0, 0.5, MARGIN)
    balance_question = None
    if "balance" in top.data:
        section_labels = {t.label for t in added}
        own = [t.label for t in tables.tables if t.label not in section_labels]
        balance_question = balance.parse(top.sub("balance"),
                                         lambda key: published_value(game, rules, key), own,
                                         margin)
    experiment = Experiment(
        path=path, name=checked_name(head.get("name", str, path.stem), str(path),
                                     "experiment.name"),
        title=head.get("title", str, ""),
        question=head.get("question", str, ""),
        answer=head.get("answer", str, next(iter(kinds)), kinds), game=game, seed=seed,
        sample=sample,
        chunk_size=head.int_in("chunk_size", 1, 10**8, DEFAULT_CHUNK), keep_rows=keep_rows,
        rules_source=rules.source, tables=tables.tables, table_games=tables.games,
        skipped=tables.skipped, config=config, ci=ci_size,
        margin=margin, controls=tuple(tables.controls),
        plan=_pilot_plan(top, sample) if "plan" in top.data else None,
        sections=sections, analyses={name: analyses[name] for name in sections},
        section_tables=tuple(t.label for t in added), changed_files=changed_files,
        skill_trace=_skill_trace(head, path), balance=balance_question)
    for index, claim in enumerate(ci_size.sprt if ci_size else ()):
        where = Table({}, str(path), f"ci.sprt[{index}]")
        if claim.table not in {t.label for t in experiment.tables}:
            raise where.error("table", f"no table {claim.table!r}; tables: "
                                       f"{', '.join(t.label for t in experiment.tables)}")
        claim.check_table(experiment.table_named(claim.table), where.error)
    return experiment


def _skill_trace(head: Table, path: Path) -> Path | None:
    """The report folder of the experiment ``skill_trace`` names: one beside this file."""
    name = head.get("skill_trace", str, None)
    if name is None:
        return None
    beside = sorted(p.stem for p in path.parent.glob("*.toml") if p != path)
    if name not in beside:
        raise head.error("skill_trace", f"no experiment {name!r} beside {path.name}; "
                                        f"allowed values: {', '.join(beside)}")
    return path.parent.parent / REPORTS / name


def _skill_rows(game: Game, rules: RuleSet, tables: "_Tables", sections: dict, ci: bool,
                head: Table, keep_rows: int, sample: SampleSize,
                strategies: dict) -> list[TableSpec]:
    """Place the skill section's rows among ``tables``, sized for ``ci``; the new tables.

    A strength may name one of the experiment's ``strategies`` too; a built-in name means
    the built-in strategy (the game's skill ladder must mean the same in every experiment).
    The section is dropped from ``sections`` when it is disabled.
    """
    question = sections.pop("skill", None)
    if question is None or not question.enabled:
        return []
    own = {name: functools.partial(_at, game, strategy) for name, strategy in strategies.items()
           if name not in game.strategy_names}
    question, added = skill_rows.add_rows(question.sized(ci), game, rules, tables.tables, own)
    for table in added:
        sample.check_deals(table, question.games, question.spec, "ci_games" if ci else "games")
        tables.tables.append(table)
        tables.games.append(question.games)
    # Games are played in whole deals: a table's count rounds up to them.
    played = {t.label: -(-count // t.games_per_deal) * t.games_per_deal
              for t, count in zip(tables.tables, tables.games, strict=True)}
    for label in question.mixed_tables():
        if played[label] > keep_rows:
            # A mixed row's first-seat gain needs the game in which each deal seats its
            # player first: a per-game row, kept for the first keep_rows games only.
            raise head.error(
                "keep_rows", f"{keep_rows} is too few for the [skill] table {label!r}: its "
                             f"first-seat gain needs every game's row; allowed: at least "
                             f"{played[label]}, or [skill] mixed = false")
    # Last, so that the experiment's own sections come first in the report.
    sections["skill"] = question
    return added


def _assumption_rows(game: Game, head: Table, path: Path, changes: RuleChanges,
                     tables: "_Tables", sections: dict,
                     headlines: list[TableSpec]) -> list[TableSpec]:
    """Place the ``[assumptions]`` rows among ``tables``: each measured assumption's other
    reading (on top of the command line's changes) re-plays the headline tables, each
    with its headline's games and so on its deals. The new tables."""
    question = sections.pop("assumptions", None)
    if question is None:
        return []
    other_rules = {}
    for assumption in question.assumptions:
        if not assumption.other:
            continue
        entry = question.spec.sub(assumption.name)
        try:
            other = replace(changes, settings=changes.settings + tuple(
                setting(item) for item in assumption.other))
            other_rules[assumption.name], _ = _rules(game, head, path, other)
        except (InputError, argparse.ArgumentTypeError) as error:
            raise entry.error("other", str(getattr(error, "message", error))) from None
    question, added = assumption_rows.add_rows(question, game, other_rules, headlines)
    games = dict(zip((t.label for t in tables.tables), tables.games, strict=True))
    tables.games.extend(games[headline] for a in question.assumptions for headline, _ in a.rows)
    tables.tables.extend(added)
    sections["assumptions"] = question
    return added


def _rules(game: Game, head: Table, path: Path,
           changes: RuleChanges) -> tuple[RuleSet, dict[str, str]]:
    """The rule set an experiment names (files beside it), with its one-line overrides,
    changed by the command line; and the text of every file a ``--set`` changed."""
    files = {keyword: path.parent / head.get(name, str)
             for name, keyword in game.rule_files.items() if name in head.data}
    given = {name: head.get(name, str, None, allowed)
             for name, allowed in game.rule_overrides.items()}
    return changed_rules(game, files, changes, given)


def changed_rules(game: Game, files: dict, changes: RuleChanges,
                  given: dict[str, str | None] | None = None) -> tuple[RuleSet, dict[str, str]]:
    """The rule set from ``files`` (``load_rules`` keyword -> path), with the one-line
    overrides ``given``, changed by ``changes``; and the text of every file a ``--set``
    changed (file name -> TOML).

    The files are read and checked as they are first, so that their own errors name them;
    the changed files are then written out as TOML and read by the same readers, and
    their errors name the flags.
    """
    if changes.rules is not None:
        files = files | {game.rule_files["rules"]: Path(changes.rules)}
    for name, path in changes.files:
        if name not in game.rule_files:
            raise InputError(f"--rules {name}={path}", name, f"not a rule file of {game.name}; "
                             f"allowed: {', '.join(game.rule_files)}")
        files = files | {game.rule_files[name]: Path(path)}
    given = dict(given or {})
    in_files = []
    for item in changes.settings:
        if item.key in game.rule_overrides:
            given[item.key] = _override(game, item)
        else:
            in_files.append(item)
    rules = game.load_rules(**files)
    texts = {}
    if in_files:
        rules, texts = _with_settings(game, rules, files, in_files)
    return (rules.with_overrides(**given) if game.rule_overrides else rules), texts


def _override(game: Game, item: Setting) -> str:
    """A ``--set`` of one of the game's one-line rule overrides, checked."""
    allowed = game.rule_overrides[item.key]
    if item.value not in allowed:
        raise InputError(item.flag, item.key, f"{item.value!r} is not allowed; allowed "
                                              f"values: {', '.join(allowed)}")
    return item.value


def _with_settings(game: Game, rules: RuleSet, files: dict,
                   settings: list[Setting]) -> tuple[RuleSet, dict[str, str]]:
    """``rules`` with ``settings`` put into its files, read again by the game's readers."""
    sources = _settable_files(game, rules)
    data = {keyword: read_toml(source, "rule-set") for keyword, source in sources.items()}
    if "path" not in data:
        raise InputError(settings[0].flag, settings[0].key,
                         f"{game.name}'s rules are not read from a file --set can change")
    routed: dict[str, list[Setting]] = {}
    for item in settings:
        routed.setdefault(_file_for(data, item.key), []).append(item)
    texts, changed = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        for keyword, items in routed.items():
            name = Path(sources[keyword]).name
            texts[name] = tomli_w.dumps(with_settings(data[keyword], items))
            changed[keyword] = Path(folder) / name
            changed[keyword].write_text(texts[name], encoding="utf-8")
        try:
            played = game.load_rules(**files | changed)
        except InputError as error:
            raise InputError(" ".join(s.flag for s in settings), error.key,
                             error.message) from None
    # Messages and digests keep naming the files a person knows, not the temporary copies.
    return _renamed(played, {str(changed[k]): sources[k] for k in changed}), texts


def _renamed(value, names: dict[str, str]):
    """``value`` with every ``source`` or ``*_source`` field that names a file of ``names``
    naming its value instead, in nested rule-set objects too (Speedtorte's catalogue)."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes = {}
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        if f.name == "source" or f.name.endswith("_source"):
            if isinstance(item, str) and item in names:
                changes[f.name] = names[item]
        elif (renamed := _renamed(item, names)) is not item:
            changes[f.name] = renamed
    return replace(value, **changes) if changes else value


def published_value(game: Game, rules: RuleSet, key: str) -> Any:
    """The value of a rule key in ``rules`` as read: a one-line override's, or the entry at
    a dotted key of the rule file ``--set`` would change; a ``LookupError`` listing the
    keys allowed when that file has none."""
    if key in game.rule_overrides:
        return getattr(rules, key)
    data = {keyword: read_toml(source, "rule-set")
            for keyword, source in _settable_files(game, rules).items()}
    value = value_at(data[_file_for(data, key)], key) if data else None
    if value is None:
        # ``balance.parse`` names the file and the entry; these are the keys it may name.
        raise LookupError(", ".join([*game.rule_overrides, *(k for table in data.values()
                                                             for k in table)]))
    return value


def _file_for(data: dict[str, dict], key: str) -> str:
    """The rule file (``load_rules`` keyword) that has ``key``: the one with its first
    part at top level, else the one where it is ``FIELD.ENTRY`` short; a key no file has
    goes to the rules, whose reader then names the keys allowed."""
    first = key.split(".")[0]
    return next((k for k, table in data.items() if first in table), None) or next(
        (k for k, table in data.items() if resolved_path(table, key)[0] in table), "path")


def _settable_files(game: Game, rules: RuleSet) -> dict[str, str]:
    """Rule files a ``--set`` may change: ``load_rules`` keyword -> the file. The rule set
    records the rules file as ``source``, another as ``KEYWORD_source`` (Speedtorte's
    ``levels_source``, ``cards_source``, ``timing_source``)."""
    found = {}
    for keyword in game.rule_files.values():
        attribute = "source" if keyword == "path" else f"{keyword}_source"
        source = getattr(rules, attribute, None)
        if isinstance(source, str) and Path(source).is_file():
            found[keyword] = source
    return found


def _changes_record(changes: RuleChanges, texts: dict[str, str]) -> dict:
    """What the report's config says of the command line's rule changes: the flags, and
    the digest of the ``--rules`` file and of every file as a ``--set`` changed it."""
    def sha256(text: bytes) -> str:
        return hashlib.sha256(text).hexdigest()

    given = Path(changes.rules).read_bytes() if changes.rules is not None else None
    return {"rules": changes.rules, "rules_sha256": sha256(given) if given else None,
            "files": {name: path for name, path in changes.files},
            "files_sha256": {name: sha256(Path(path).read_bytes())
                             for name, path in changes.files},
            "set": [s.text for s in changes.settings],
            "changed_files_sha256": {name: sha256(text.encode()) for name, text in texts.items()}}


@dataclass(frozen=True)
class Builtin:
    """A ``[strategies.NAME]`` table that names a built-in strategy (``builtin = "..."``),
    perhaps with some of its codes or weights changed (``finisher_bias = 1000.0``).

    Resolved per table, since some built-ins depend on the player count (``tuned``).
    """

    name: str
    builtin: str
    spec: Table

    def at(self, game: Game, players: int, variant: str):
        """The built-in strategy at ``players`` and ``variant``, under the experiment's name."""
        try:
            strategy = game.named_strategy(self.builtin, players, variant)
        except InputError as error:
            raise self.spec.error("builtin", error.message) from None
        changed = {k: v for k, v in self.spec.data.items() if k != "builtin"}
        if not changed:
            return replace(strategy, name=self.name)
        # The built-in's own table with the changes, read by the game's strict parser.
        merged = Table(tunable(game).strategy_table(strategy) | changed, self.spec.source,
                       self.spec.where)
        return game.parse_strategy(self.name, merged)


def _strategies(game: Game, top: Table) -> dict:
    """Every ``[strategies.NAME]`` table: parsed by the game, or a ``Builtin``."""
    spec = top.sub("strategies")
    strategies = {}
    for name in spec.data:
        table = spec.sub(name)
        if "builtin" in table.data:
            strategies[name] = Builtin(name, table.get("builtin", str, ...,
                                                       game.strategy_names), table)
        else:
            strategies[name] = game.parse_strategy(name, table)
    if not strategies:
        raise top.error("strategies", "define at least one strategy")
    return strategies


def _at(game: Game, strategy, players: int, variant: str):
    """A strategy of the experiment as it plays at ``players`` players and ``variant``."""
    return strategy.at(game, players, variant) if isinstance(strategy, Builtin) else strategy


@dataclass
class _Tables:
    """The tables an experiment's ``[[tables]]`` entries expand into, as they are read."""

    tables: list[TableSpec] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    controls: list[str] = field(default_factory=list)

    def expand(self, game: Game, rules: RuleSet, strategies: dict, spec: Table,
               sample: SampleSize) -> None:
        """Add every combination of one entry's players, variants and options."""
        spec.only(["label", "players", "variant", "seats", "round_robin", "against_field",
                   "duplicate", "games", "control", *game.table_options])
        control = spec.get("control", bool, False)
        player_counts = _one_or_many(spec, "players", int)
        for count in player_counts:
            if not rules.min_players <= count <= rules.max_players:
                raise spec.error("players", f"{count} is not allowed; allowed: "
                                            f"{rules.min_players} to {rules.max_players}")
        variants = _one_or_many(spec, "variant", str, default=[game.variants[0]])
        for variant in variants:
            if variant not in game.variants:
                raise spec.error("variant", f"{variant!r} is not allowed; allowed values: "
                                            f"{', '.join(game.variants)}")
        given = [key for key in ("seats", "round_robin", "against_field") if key in spec.data]
        if not given:
            raise spec.error("seats", "give seats (one strategy or one per seat), round_robin "
                                      "(strategies to meet every other) or against_field "
                                      "(strategies to play alone against a field of every other)")
        if len(given) > 1:
            raise spec.error(given[-1], f"give only one of {', '.join(given)}")
        key = given[0]
        if key != "seats":
            spec.get(key, list)
        seats = _one_or_many(spec, key, str)
        if key != "seats" and len(set(seats)) < 2:
            raise spec.error(key, "name at least two different strategies")
        for seat in seats:
            if seat not in strategies:
                raise spec.error(key, f"unknown strategy {seat!r}; defined: "
                                      f"{', '.join(strategies)}")
        options, shown = _options(game, rules, spec)
        duplicate = spec.get("duplicate", bool, False)
        games = sample.of_entry(spec)
        for players, variant, *chosen in itertools.product(player_counts, variants,
                                                           *options.values()):
            if not game.has_variant(rules, players, variant):
                self.skipped.append(f"{players} players: no {variant} variant in the rule set")
                continue
            named = [v for v, show in zip(chosen, shown, strict=True) if show]
            prefix = " ".join([*named, f"{players}P {variant}"])
            for seating, suffix in _seatings(spec, key, seats, players):
                seated = [_at(game, strategies[name], players, variant) for name in seating]
                try:
                    table = game.table(rules, players, seated, variant, duplicate,
                                       f"{prefix} {suffix}",
                                       **dict(zip(options, chosen, strict=True)))
                except InputError as error:
                    # A table the game refuses (an option it cannot play): this entry's key.
                    raise spec.error(error.key, error.message) from None
                sample.check_deals(table, games, spec, "games")
                self.tables.append(table)
                self.games.append(games)
                if control:
                    self.controls.append(self.tables[-1].label)


def _options(game: Game, rules: RuleSet, spec: Table) -> tuple[dict[str, list], list[bool]]:
    """Each table option's values in an entry, and whether it was given (so labelled)."""
    values, shown = {}, []
    for option in game.table_options:
        # Options left out take the game's default and stay out of the label.
        shown.append(option in spec.data)
        default = game.option_defaults.get(option, ...)
        values[option] = _one_or_many(spec, option, str,
                                      default=[default] if default is not ... else ...)
        allowed = game.option_choices(rules, option)
        spelt = {value.casefold(): value for value in allowed}
        for value in values[option]:
            if value.casefold() not in spelt:
                raise spec.error(option, f"{value!r} is not allowed; allowed values: "
                                         f"{', '.join(allowed)}")
        # Any case names the same level: tables and labels use the rule set's spelling.
        values[option] = [spelt[value.casefold()] for value in values[option]]
    return values, shown


def _seatings(spec: Table, key: str, seats: list[str],
              players: int) -> list[tuple[list[str], str]]:
    """Every seating a table entry asks for (by its key ``key``), with its label suffix.

    ``seats``: one strategy everywhere or one per seat. ``round_robin``: every group of
    ``players`` different strategies meets once (play it on duplicate deals so each sits
    in every seat), labelled ``A vs B``. ``against_field``: every strategy A plays alone
    (as player 1) against ``players - 1`` copies of every other strategy B, labelled ``A vs
    field of B``: k (k - 1) tables of k strategies, for a strategy ladder at any player
    count (play it on duplicate deals so the lone strategy sits once in every seat). At two
    players the field of B is B alone and "A vs field of B" is "B vs field of A" too:
    ``against_field`` gives the ``round_robin`` tables there, with their labels, so one entry
    can list several player counts.
    """
    if key == "against_field" and players > 2:
        return [([lone] + [other] * (players - 1), f"{lone} vs field of {other}")
                for lone, other in itertools.permutations(dict.fromkeys(seats), 2)]
    if key != "seats":
        names = list(dict.fromkeys(seats))
        if players > len(names):
            raise spec.error(key, f"{players} players need at least {players} strategies")
        return [(list(group), " vs ".join(group))
                for group in itertools.combinations(names, players)]
    if len(seats) not in (1, players):
        raise spec.error("seats", f"give one strategy or one per seat ({players})")
    label = spec.get("label", str, "") or "/".join(dict.fromkeys(seats))
    return [(seats * players if len(seats) == 1 else seats, label)]


def _ci_size(top: Table) -> CiSize:
    ci = top.sub("ci")
    ci.only(["games", "seed", "level", "materiality", "sprt", "primary", "primary_games",
             "primary_level"])
    claims = [parse_claim(Table(entry, ci.source, f"ci.sprt[{index}]"))
              for index, entry in enumerate(ci.get("sprt", list, []))]
    primary = tuple(_one_or_many(ci, "primary", str)) if "primary" in ci.data else ()
    return CiSize(games=ci.int_in("games", 1, 10**8), seed=ci.int_in("seed", 0, 2**63 - 1),
                  level=ci.number_in("level", 0.0, 0.5, 0.01),
                  materiality=ci.number_in("materiality", 0.0, 1.0, 0.005), sprt=tuple(claims),
                  primary=primary, primary_games=(ci.int_in("primary_games", 1, 10**8)
                                 if "primary_games" in ci.data else None),
                  primary_level=ci.number_in("primary_level", 0.0, 0.5, 0.04))


def _primary(ci: CiSize, tables: list[TableSpec], controls: list[str], where: Table) -> CiSize:
    """``ci`` with its primary tables checked, or the headline tables when it names none."""
    labels = [t.label for t in tables]
    for label in ci.primary:
        if label not in labels:
            raise where.error("primary", f"no table {label!r}; tables: {', '.join(labels)}")
    if ci.primary:
        return ci
    shown = [t for t in tables if t.label not in controls]
    return replace(ci, primary=tuple(t.label for t in skill_rows.headline_tables(shown)))


def _pilot_plan(top: Table, sample: SampleSize) -> PilotPlan:
    """The ``[plan]`` pilot, sized by ``sample.pilot``."""
    plan = top.sub("plan")
    plan.only(["pilot_games", "half_width"])
    pilot = sample.pilot(plan.int_in("pilot_games", 10, 10**8, 4000))
    return PilotPlan(games=pilot, half_width=plan.number_in("half_width", 0.0, 0.5, 0.005))


def _one_or_many(spec: Table, name: str, kind: type, default=...) -> list:
    value = spec.data.get(name, default)
    if value is ...:
        raise spec.error(name, "missing")
    values = value if isinstance(value, list) else [value]
    if not values:
        raise spec.error(name, "must not be empty")
    for item in values:
        Table({name: item}, spec.source, spec.where).get(name, kind)
    return values
