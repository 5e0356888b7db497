"""The ``[skill]`` section's rows: which tables re-play the headline at each strength.

``[skill]`` is read here (``parse``) and its rows are placed among the experiment's
tables while it loads (``add_rows``): a row an experiment table already plays is read
from that table, any other becomes a table of its own. ``cakesim.reports.skill`` analyses
and presents the rows' runs.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from cakesim.engine.contract import Game, RuleSet, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table

GAMES = 4000
"""Games per skill row, unless ``[skill] games`` says otherwise."""
CI_GAMES = 1000
"""Games per skill row at the size CI re-runs, unless ``[skill] ci_games`` says otherwise."""
REFERENCE = "tuned"
"""The strategy a mixed table's other players play, unless ``[skill] reference`` says."""


@dataclass(frozen=True)
class Setting:
    """One headline table's players, variant and options, and the tables of its rows."""

    name: str
    """The setting in a few words, e.g. ``4P base``."""
    headline: str
    """The label of the headline table it re-plays."""
    uniform: tuple[tuple[str, str], ...] = ()
    """(strength, table label): the strength at every seat."""
    mixed: tuple[tuple[str, str, int], ...] = ()
    """(strength, table label, the strength's player): alone among reference players."""


@dataclass(frozen=True)
class SkillQuestion:
    """The strengths to re-play the headline tables with, at how many games, and where."""

    strengths: tuple[str, ...] = ()
    """Built-in or the experiment's strategy names, weakest first; empty: the game's
    ``skill_ladder``."""
    games: int = GAMES
    ci_games: int = CI_GAMES
    tables: tuple[str, ...] = ()
    """Labels of the headline tables to re-play; empty: the experiment's headline tables."""
    mixed: bool = True
    reference: str = REFERENCE
    trace: bool = False
    """A skill trace: each strength alone among the strength below it (not among
    ``reference``), and whether the answer still moves between the strongest two."""
    enabled: bool = True
    spec: Table | None = field(default=None, compare=False, repr=False)
    """The ``[skill]`` table read, for errors that name its keys."""
    settings: tuple[Setting, ...] = ()
    """Each headline's rows, once ``add_rows`` has placed them."""

    def at_most(self, games: int) -> "SkillQuestion":
        """The same question playing at most ``games`` games per row (a --games override)."""
        return replace(self, games=min(self.games, games), ci_games=min(self.ci_games, games))

    def sized(self, ci: bool) -> "SkillQuestion":
        """The question at the size CI re-runs (``ci_games`` per row), or as it is."""
        return replace(self, games=self.ci_games) if ci else self

    def mixed_tables(self) -> list[str]:
        """The labels of the tables that need every game's row (``keep_rows``): the mixed
        ones, and in a trace the uniform ones too (their changes are paired by deal)."""
        labels = [label for s in self.settings for _, label, _ in s.mixed]
        if self.trace:
            labels += [label for s in self.settings for _, label in s.uniform]
        return labels

    def below(self, strength: str) -> str:
        """The strength a mixed row seats ``strength`` among: in a trace the one below it,
        else ``reference``."""
        if not self.trace:
            return self.reference
        return self.strengths[self.strengths.index(strength) - 1]


def parse(table: Table) -> SkillQuestion:
    """``[skill]``: ``strengths``, ``games``, ``ci_games``, ``tables``, ``mixed``,
    ``reference``, ``trace`` and ``enabled``, all optional (no section: every default)."""
    table.only(["strengths", "games", "ci_games", "tables", "mixed", "reference", "trace",
                "enabled"])
    trace = table.get("trace", bool, False)
    if trace and "reference" in table.data:
        raise table.error("reference", "does not apply with trace = true: each strength plays "
                                       "alone among the strength below it")
    if trace and not table.get("mixed", bool, True):
        raise table.error("mixed", "must be true with trace = true: a trace seats each "
                                   "strength alone among the strength below it")
    return SkillQuestion(trace=trace,
        strengths=_names(table, "strengths"), games=table.int_in("games", 1, 10**10, GAMES),
        ci_games=table.int_in("ci_games", 1, 10**8, CI_GAMES), tables=_names(table, "tables"),
        mixed=table.get("mixed", bool, True), reference=table.get("reference", str, REFERENCE),
        enabled=table.get("enabled", bool, True), spec=table)


def _names(table: Table, key: str) -> tuple[str, ...]:
    """A list ``key`` of different strings; empty when the key is not given."""
    names = table.get(key, list, [])
    if key in table.data and not names:
        raise table.error(key, "must not be empty; leave the key out for the default")
    for name in names:
        if not isinstance(name, str):
            raise table.error(key, f"{name!r} is not allowed; allowed: strings")
        if names.count(name) > 1:
            raise table.error(key, f"names {name!r} twice")
    return tuple(names)


def add_rows(question: SkillQuestion, game: Game, rules: RuleSet, tables: list[TableSpec],
             own: Mapping[str, Callable[[int, str], object]] | None = None,
             ) -> tuple[SkillQuestion, list[TableSpec]]:
    """The question with its rows placed, and the tables to add to the experiment for them.

    ``tables`` are the experiment's own tables: a row one of them (or an earlier row)
    already plays is read from it. ``own`` are the experiment's ``[strategies]`` a strength
    may name besides the built-in ones (e.g. a search player at a larger budget): each
    gives the strategy as it plays at ``(players, variant)``.
    """
    spec, own = question.spec, own or {}
    allowed = [*game.strategy_names, *own]
    strengths = question.strengths or game.skill_ladder
    if not strengths:
        raise spec.error("strengths", f"missing: {game.name} has no skill ladder; name its "
                                      "built-in strategies or the experiment's, weakest first "
                                      f"(allowed values: {', '.join(allowed)})")
    if question.trace and len(strengths) < 2:
        raise spec.error("strengths", "a trace needs at least two strengths, weakest first "
                                      "(the headline players, then stronger ones)")
    named = [("strengths", s) for s in strengths]
    among = question.mixed and not question.trace
    for key, name in named + ([("reference", question.reference)] if among else []):
        if name not in allowed:
            raise spec.error(key, f"{name!r} is not allowed; allowed values: "
                                  f"{', '.join(allowed)}")
    # The ladder in use from here on (the game's own when none is named).
    question = replace(question, strengths=tuple(strengths))
    rows = _Rows(game, rules, spec, list(tables), own)
    settings = {}
    for headline in _headlines(question, tables):
        key = (headline.players, headline.variant, headline.options)
        # Two headline tables of one setting (e.g. two strategy mixes) share its rows.
        if key not in settings:
            settings[key] = rows.setting(headline, question)
    return replace(question, settings=tuple(settings.values())), rows.added


def _headlines(question: SkillQuestion, tables: list[TableSpec]) -> list[TableSpec]:
    """The tables ``question.tables`` names, or the experiment's headline tables."""
    if not question.tables:
        return headline_tables(tables)
    by_label = {t.label: t for t in tables}
    for label in question.tables:
        if label not in by_label:
            raise question.spec.error("tables", f"no table {label!r}; tables: "
                                                f"{', '.join(by_label)}")
    return [by_label[label] for label in question.tables]


@dataclass
class _Rows:
    """The tables that play the rows: the experiment's own where one plays a row already."""

    game: Game
    rules: RuleSet
    spec: Table
    pool: list[TableSpec]
    own: Mapping[str, Callable[[int, str], object]]
    """The experiment's strategies by name (``add_rows``)."""
    added: list[TableSpec] = field(default_factory=list)

    def setting(self, headline: TableSpec, question: SkillQuestion) -> Setting:
        """Every row of one headline table's setting."""
        players, strengths = headline.players, question.strengths
        name = " ".join([*(value for _, value in headline.options),
                         f"{players}P {headline.variant}"])
        played = {s: self.strategy(s, headline, "strengths") for s in strengths}
        uniform = tuple(
            (s, self.table(headline, [[played[s]] * players], headline.duplicate,
                           f"{name} · skill {s}")[0])
            for s in strengths)
        mixed = ()
        if question.mixed:
            lone = [s for s in strengths[question.trace:] if s != question.below(s)]
            others = {s: played[question.below(s)] if question.below(s) in played
                      else self.strategy(question.below(s), headline, "reference")
                      for s in lone}
            # The strength's player may sit in any slot of a table that already plays it.
            mixed = tuple(
                (s, *self.table(headline, [[others[s]] * slot + [played[s]]
                                           + [others[s]] * (players - 1 - slot)
                                           for slot in range(players)],
                                True, f"{name} · mixed {s} vs {question.below(s)}"))
                for s in lone)
        return Setting(name, headline.label, uniform, mixed)

    def strategy(self, name: str, headline: TableSpec, key: str):
        """The experiment's or the built-in strategy ``name`` (given as ``key``) as it plays
        at the headline."""
        try:
            if name in self.own:
                return self.own[name](headline.players, headline.variant)
            return self.game.named_strategy(name, headline.players, headline.variant)
        except InputError as error:
            raise self.spec.error(key, f"{name!r} at {headline.label!r}: "
                                       f"{error.message}") from None

    def table(self, headline: TableSpec, seatings: list[list], duplicate: bool,
              label: str) -> tuple[str, int]:
        """The label of the table playing one of ``seatings`` at the headline's setting, and
        which one; a new table ``label`` playing the first when none does yet."""
        for table in self.pool:
            if ((table.players, table.variant, table.options, table.duplicate)
                    != (headline.players, headline.variant, headline.options, duplicate)):
                continue
            for index, seating in enumerate(seatings):
                if all(self.game.same_play(a, b, table.players)
                       for a, b in zip(table.strategies, seating, strict=True)):
                    return table.label, index
        new = self.game.table(self.rules, headline.players, seatings[0], headline.variant,
                              duplicate, label, **dict(headline.options))
        self.pool.append(new)
        self.added.append(new)
        return label, 0


def strategy_mix(table: TableSpec) -> list[str]:
    """The names of a table's strategies, each once, in seat order."""
    return [s.name for s in dict.fromkeys(table.strategies)]


def headline_tables(tables: list[TableSpec]) -> list[TableSpec]:
    """The tables the headline answers for: those of the first table's strategy mix.

    By name: a strategy tuned per player count differs in weights between counts.
    """
    return [t for t in tables if strategy_mix(t) == strategy_mix(tables[0])]
