"""Experiments as data: a TOML file read strictly into tables to simulate.

An experiment names a game, a seed, a game count per table, named strategies and a list
of tables. A table entry may give lists for ``players`` and ``variant``; it expands into
every combination, skipping variants the rule set does not define for a player count
(the report says which). Unknown keys, wrong types and impossible rule sets are errors
naming the file and the key.
"""

import itertools
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from cakesim.errors import InputError
from cakesim.games import GAMES, get_game
from cakesim.games.base import TableSpec
from cakesim.project import experiments_dir, find_root
from cakesim.runner import DEFAULT_CHUNK, DEFAULT_KEEP_ROWS
from cakesim.sprt import SprtClaim, parse_claim
from cakesim.stats import MARGIN
from cakesim.tables import Table, read_toml

SHARED_SECTIONS = {"ladder": "cakesim.ladder", "contrasts": "cakesim.contrasts"}
"""Analyses any competitive experiment may ask for, by section name."""


@dataclass(frozen=True)
class CiSize:
    """The experiment at the size CI re-runs: fewer games, a fixed seed."""

    games: int
    seed: int
    level: float
    """Family-wise significance level of the regression test (Holm over all numbers)."""
    materiality: float = 0.005
    """The smallest move of a share (win share, win rate) that fails the gate; means
    fail from a move of this fraction of their baseline value."""
    sprt: tuple[SprtClaim, ...] = ()


@dataclass(frozen=True)
class PilotPlan:
    """A pilot run for the report's sample-size section."""

    games: int
    half_width: float


@dataclass
class Experiment:
    """A validated experiment, ready to run."""

    path: Path
    name: str
    title: str
    question: str
    game: str
    seed: int
    games: int
    chunk_size: int
    keep_rows: int
    rules_source: str
    tables: list[TableSpec]
    table_games: list[int]
    skipped: list[str] = field(default_factory=list)
    config: dict = field(default_factory=dict)
    ci: CiSize | None = None
    plan: PilotPlan | None = None
    sections: dict = field(default_factory=dict)
    """Game-specific analyses (e.g. Speedtorte's ``[budgets]``): name -> parsed config."""
    margin: float = MARGIN
    """Fairness margin of the verdicts: a seat within this of its fair share is fair."""
    controls: tuple[str, ...] = ()
    """Labels of control tables (e.g. random play): reported as controls."""

    def table_named(self, label: str) -> TableSpec:
        """The table labelled ``label``; an InputError lists the labels there are."""
        for table in self.tables:
            if table.label == label:
                return table
        raise InputError(str(self.path), "table", f"no table {label!r}; tables: "
                                                  f"{', '.join(t.label for t in self.tables)}")


def find_experiment(name_or_path: str) -> Path:
    """``first_player_bias`` -> the project's ``experiments/first_player_bias.toml``.

    A path (ending in ``.toml``, or one that exists) stays itself.
    """
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists() or find_root() is None:
        return path
    return experiments_dir() / f"{name_or_path}.toml"


def section_modules(game) -> dict[str, str]:
    """Every experiment section a game's experiments may have, and the module behind it."""
    shared = {} if game.cooperative else SHARED_SECTIONS
    return {**shared, **getattr(game, "experiment_sections", {})}


def section_module(experiment: "Experiment", name: str):
    """The module that analyses and reports section ``name`` of ``experiment``."""
    return import_module(section_modules(get_game(experiment.game))[name])


def experiment_paths() -> list[Path]:
    """Every experiment file of the project, by name."""
    return sorted(experiments_dir().glob("*.toml"))


def load_experiment(name_or_path: str, games: int | None = None,
                    seed: int | None = None, ci: bool = False) -> Experiment:
    """Read and validate an experiment; ``games``/``seed`` override the file's values.

    With ``ci``, the experiment is sized by its ``[ci]`` section (games and seed).
    """
    path = find_experiment(name_or_path)
    source = str(path)
    config = read_toml(path, "experiment")
    top = Table(config, source)
    game = get_game(top.sub("experiment").get("game", str, choices=GAMES))
    sections = section_modules(game)
    top.only(["experiment", "strategies", "tables", "ci", "plan", *sections])
    ci_size = _ci_size(top) if "ci" in top.data else None
    if ci:
        if ci_size is None:
            raise top.error("ci", "missing; every experiment needs a [ci] section with games "
                                  "and seed, for the regression test")
        games = games if games is not None else ci_size.games
        seed = seed if seed is not None else ci_size.seed
    head = top.sub("experiment")
    overrides = getattr(game, "rule_overrides", {})
    head.only(["name", "title", "question", "game", "seed", "games", "chunk_size",
               "keep_rows", "margin", *game.rule_files, *overrides])
    files = {keyword: path.parent / head.get(name, str)
             for name, keyword in game.rule_files.items() if name in head.data}
    rules = game.load_rules(**files)
    given = {name: head.get(name, str, None, allowed) for name, allowed in overrides.items()}
    rules = rules.with_overrides(**given) if overrides else rules
    seed = seed if seed is not None else head.int_in("seed", 0, 2**63 - 1)
    games_override = games
    games = games if games is not None else head.int_in("games", 1, 10**10)

    strategy_table = top.sub("strategies")
    strategies = {}
    for name in strategy_table.data:
        strategies[name] = game.parse_strategy(name, strategy_table.sub(name))
    if not strategies:
        raise top.error("strategies", "define at least one strategy")

    tables, table_games, skipped, controls = [], [], [], []
    entries = top.get("tables", list)
    if not entries:
        raise top.error("tables", "list at least one [[tables]] entry")
    for index, entry in enumerate(entries):
        spec = Table(entry, source, f"tables[{index}]")
        options = getattr(game, "table_options", ())
        spec.only(["label", "players", "variant", "seats", "round_robin", "duplicate", "games",
                   "control", *options])
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
        robin = spec.get("round_robin", list, None)
        if (robin is None) == ("seats" not in spec.data):
            raise spec.error("seats", "give seats (one strategy or one per seat) or "
                                      "round_robin (strategies to meet every other)")
        seats = _one_or_many(spec, "round_robin" if robin else "seats", str)
        if robin is not None and len(set(robin)) < 2:
            raise spec.error("round_robin", "name at least two different strategies")
        for seat in seats:
            if seat not in strategies:
                raise spec.error("seats", f"unknown strategy {seat!r}; defined: "
                                          f"{', '.join(strategies)}")
        option_values, shown = [], []
        defaults = getattr(game, "option_defaults", {})
        for option in options:
            # Options left out take the game's default and stay out of the label.
            shown.append(option in spec.data)
            values = _one_or_many(spec, option, str,
                                  default=[defaults[option]] if option in defaults else ...)
            allowed = game.option_choices(rules, option)
            for value in values:
                if value not in allowed:
                    raise spec.error(option, f"{value!r} is not allowed; allowed values: "
                                             f"{', '.join(allowed)}")
            option_values.append(values)
        duplicate = spec.get("duplicate", bool, False)
        count_here = games_override or spec.int_in("games", 1, 10**10, games)
        for players, variant, *chosen_options in itertools.product(player_counts, variants,
                                                                   *option_values):
            if not game.has_variant(rules, players, variant):
                skipped.append(f"{players} players: no {variant} variant in the rule set")
                continue
            named = [v for v, show in zip(chosen_options, shown, strict=True) if show]
            prefix = " ".join([*named, f"{players}P {variant}"])
            for seating, suffix in _seatings(spec, seats, robin, players):
                chosen = [strategies[name] for name in seating]
                tables.append(game.table(rules, players, chosen, variant, duplicate,
                                         f"{prefix} {suffix}",
                                         **dict(zip(options, chosen_options, strict=True))))
                table_games.append(count_here)
                if control:
                    controls.append(tables[-1].label)
    if not tables:
        raise top.error("tables", "every table was skipped: "
                                  + "; ".join(dict.fromkeys(skipped)))
    experiment = Experiment(
        path=path, name=head.get("name", str, path.stem), title=head.get("title", str, ""),
        question=head.get("question", str, ""), game=game.name, seed=seed, games=games,
        chunk_size=head.int_in("chunk_size", 1, 10**8, DEFAULT_CHUNK),
        keep_rows=head.int_in("keep_rows", 0, 10**9, DEFAULT_KEEP_ROWS),
        rules_source=rules.source, tables=tables, table_games=table_games, skipped=skipped,
        config=config, ci=ci_size, margin=head.number_in("margin", 0.0, 0.5, MARGIN),
        controls=tuple(controls), plan=_pilot_plan(top) if "plan" in top.data else None,
        sections={name: import_module(module).parse(top.sub(name))
                  for name, module in sections.items() if name in top.data})
    # A section's own runs (e.g. sensitivity) never play more games than a table does.
    experiment.sections = {name: config.at_most(games)
                           for name, config in experiment.sections.items()}
    for index, claim in enumerate(ci_size.sprt if ci_size else ()):
        labels = [t.label for t in tables]
        where = Table({}, source, f"ci.sprt[{index}]")
        if claim.table not in labels:
            raise where.error("table", f"no table {claim.table!r}; tables: {', '.join(labels)}")
        claim.check_table(experiment.table_named(claim.table), where.error)
    return experiment


def _seatings(spec: Table, seats: list[str], robin: list | None,
              players: int) -> list[tuple[list[str], str]]:
    """Every seating a table entry asks for, with its label suffix.

    ``seats``: one strategy everywhere or one per seat. ``round_robin``: every group of
    ``players`` different strategies meets once (play it on duplicate deals so each sits
    in every seat), labelled ``A vs B``.
    """
    if robin is not None:
        names = list(dict.fromkeys(robin))
        if players > len(names):
            raise spec.error("round_robin", f"{players} players need at least {players} "
                                            "strategies")
        return [(list(group), " vs ".join(group))
                for group in itertools.combinations(names, players)]
    if len(seats) not in (1, players):
        raise spec.error("seats", f"give one strategy or one per seat ({players})")
    label = spec.get("label", str, "") or "/".join(dict.fromkeys(seats))
    return [(seats * players if len(seats) == 1 else seats, label)]


def _ci_size(top: Table) -> CiSize:
    ci = top.sub("ci")
    ci.only(["games", "seed", "level", "materiality", "sprt"])
    claims = [parse_claim(Table(entry, ci.source, f"ci.sprt[{index}]"))
              for index, entry in enumerate(ci.get("sprt", list, []))]
    return CiSize(games=ci.int_in("games", 1, 10**8), seed=ci.int_in("seed", 0, 2**63 - 1),
                  level=ci.number_in("level", 0.0, 0.5, 0.01),
                  materiality=ci.number_in("materiality", 0.0, 1.0, 0.005), sprt=tuple(claims))


def _pilot_plan(top: Table) -> PilotPlan:
    plan = top.sub("plan")
    plan.only(["pilot_games", "half_width"])
    return PilotPlan(games=plan.int_in("pilot_games", 10, 10**8, 4000),
                     half_width=plan.number_in("half_width", 0.0, 0.5, 0.005))


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
