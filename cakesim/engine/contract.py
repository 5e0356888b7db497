"""The core game contract: what every layer may ask of any game, and what a game gives back.

A game subclasses ``Game`` and is registered in ``cakesim.games``; the runner, the
statistics and the reports know games only through this class, the ``TableSpec`` a game
builds and the ``Chunk`` of results its kernel fills. The core is identity, rules and
variants, tables and seats, strategies, playing a chunk, the reference outcome and the
deal. Everything else is a capability a game may add, owned by the layer that uses it:
``kits.strategies.Tunable`` (named weights, for the tuner and experiment files),
``kits.replay.Replayable`` (replays and score files), ``kits.bench.Benchmarked`` (speed
targets), ``reports.hooks.ReportHooks`` (sections, answers, report parts) and a game's own
commands (``cakesim.games.GAME_COMMANDS``). ``docs/adding_a_game.md`` walks through the
smallest complete game.
"""

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

import numpy as np

from cakesim.engine.tables import Table

WEIGHT_MAX = 1e6
"""No strategy weight may be larger in size: far beyond any sensible weight, and far from
where the valuations' sums and products would overflow to infinity."""
WEIGHT = (0.0, WEIGHT_MAX)
"""The range of a strategy weight that is 0 or more."""
SIGNED_WEIGHT = (-WEIGHT_MAX, WEIGHT_MAX)
"""The range of a strategy weight that may be negative."""
SCORE_MAX = int(np.iinfo(np.int16).max)
"""The largest score the kernels' per-game result arrays (``np.int16``) hold."""


def check_score_fits(table: Table, key: str, terms: str, largest: int) -> None:
    """Refuse a rule set whose largest possible score exceeds ``SCORE_MAX``.

    ``largest`` bounds every score at every player count; ``terms`` says in words how it
    is made up, so that the error shows a designer which values to lower.
    """
    if largest > SCORE_MAX:
        raise table.error(key, f"the largest possible score, {terms} = {largest}, is more "
                               f"than the {SCORE_MAX} a simulated score holds; allowed: "
                               f"values whose largest score is at most {SCORE_MAX}")


class ResultKind(enum.Enum):
    """What a game's result is, and so how the shared machinery reports it."""

    SEATS = "seats"
    """Players score against each other: every seat has ``win_units`` (a shared first
    place splits them) and a ``total`` score; reports compare seats with a fair 1/P."""
    TEAM = "team"
    """All players win or lose together: every game has a ``won`` metric (0 or 1); reports
    give a win rate per table and compare tables."""


@dataclass(frozen=True)
class SeatName:
    """A seat in the game's own words: ``first waiter`` who ``serves cakes 1, 5``."""

    name: str
    """The seat's name alone, e.g. ``first waiter``, ``seat 2``, ``baker 1``."""
    detail: str = ""
    """What the seat does in this game, e.g. ``cakes 1, 5``; may be empty."""

    def __str__(self) -> str:
        return f"{self.name} ({self.detail})" if self.detail else self.name


@dataclass(frozen=True)
class TableSpec:
    """One table to simulate: the game, the rules in force and a strategy per player."""

    game: "Game"
    """The game played; it travels with the table, so nothing looks it up by name."""
    label: str
    players: int
    variant: str
    rules: Any
    """The game's rule set at this table (e.g. Piece o' Cake's ``TableRules``)."""
    strategies: tuple
    """One strategy per player; player ``j`` sits at seat ``j`` unless deals rotate."""
    duplicate: bool = False
    """Play every deal once per seat rotation, so seats are compared on identical deals."""
    options: tuple[tuple[str, str], ...] = ()
    """The game's table options in force, e.g. ``(("level", "Meister"),)``: for grouping
    tables in reports. They are already part of ``rules``, which decides the games."""
    deal_block: int = 1
    """Consecutive deals that share some of their chance (e.g. one tile deal for several
    shuffles of the rest): they are one independent unit, so every interval, verdict and
    paired difference counts them as one deal. 1: every deal stands alone."""

    @property
    def games_per_deal(self) -> int:
        """Games in each independent deal: P with duplicate deals, else 1, times the
        ``deal_block``."""
        return (self.players if self.duplicate else 1) * self.deal_block

    def player_of_seat(self, seat: np.ndarray, rotation: np.ndarray) -> np.ndarray:
        """The player (strategy slot) at ``seat`` in a game of ``rotation``."""
        return (seat - rotation) % self.players


@dataclass
class Chunk:
    """The results of games ``first_game .. first_game + n``: per seat, game and item."""

    first_game: int
    seat: dict[str, np.ndarray]
    """Per-seat metrics, arrays of shape ``(n, P)``: with ``ResultKind.SEATS`` always
    ``win_units`` and ``total``; a team game has none."""
    game: dict[str, np.ndarray]
    """Per-game metrics, arrays of shape ``(n,)``; a team game's ``won`` among them."""
    item: dict[str, np.ndarray] = field(default_factory=dict)
    """Per-item metrics (e.g. per order card), arrays of shape ``(n, K)``."""

    @property
    def games(self) -> int:
        """Number of games in the chunk."""
        return next(iter((*self.game.values(), *self.seat.values()))).shape[0]


class RuleSet(Protocol):
    """What the shared machinery reads of any game's rule set."""

    source: str
    """The file the rules were read from (its digest goes into every report)."""
    min_players: int
    max_players: int

    def with_overrides(self, **overrides: str) -> "RuleSet":
        """The same rules with some named values replaced (see ``Game.rule_overrides``)."""


class Strategy(Protocol):
    """What the shared machinery reads of any game's strategy (a frozen dataclass)."""

    name: str
    """The name experiment files and reports use."""

    def describe(self) -> str:
        """The strategy in words, for reports and replays."""

    def vectors(self) -> dict[str, np.ndarray]:
        """Everything the kernel reads of it (codes, parameters), defaults filled in: part
        of every configuration digest, so a changed default is a changed configuration."""


class Game(ABC):
    """What every layer may ask of any game; each game subclasses it once.

    Class attributes describe the game; abstract methods must be written; the others have
    defaults that suit most games. Shared code calls nothing else on a game but the
    capabilities it adds (see the module's docstring), and a game is passed around as
    this object (on every ``TableSpec``), never looked up by name outside the registry
    (``cakesim.games``).
    """

    name: ClassVar[str]
    """The name the CLI and experiment files use, e.g. ``piece-o-cake``."""
    title: ClassVar[str]
    """The game's name in words, e.g. ``Piece o' Cake`` (in replays and messages)."""
    rule_version: ClassVar[str]
    """The version of the rules as the game's code plays them: raise it when play changes
    in a way its code digest cannot show (finished chunks are keyed by it, with a digest
    of the game's folder and the engine; ``fingerprint.game_code_version``)."""
    result_kind: ClassVar[ResultKind]
    win_units: ClassVar[int] = 1
    """Win units a game hands out to its winners (split evenly on a shared first place)."""
    seat_metrics: ClassVar[tuple[str, ...]] = ()
    """Per-seat metrics of a chunk, ``total`` first for ``ResultKind.SEATS``."""
    game_metrics: ClassVar[tuple[str, ...]] = ()
    """Per-game metrics a chunk may hold (a table reports ``game_metrics_of(table)``)."""
    item_metrics: ClassVar[tuple[str, ...]] = ()
    """Per-item metrics of a chunk (e.g. per order card), summed per deal."""
    item_ratios: ClassVar[dict[str, tuple[str, str]]] = {}
    """Per-item numbers the regression gate watches, pooled over tables: name ->
    (numerator metric, denominator metric)."""
    variants: ClassVar[tuple[str, ...]]
    """The game's variants; the first is the base that the others are compared with."""
    rule_files: ClassVar[dict[str, str]] = {"rules": "path"}
    """Files an experiment may name (``rules = "..."``) and their ``load_rules`` keyword."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Rule values an experiment may change in one line, with their allowed values."""
    table_options: ClassVar[tuple[str, ...]] = ()
    """Options a table takes beyond players and variant (e.g. Speedtorte's ``level``)."""
    option_defaults: ClassVar[dict[str, str]] = {}
    """The value of every table option when an experiment gives none."""
    default_players: ClassVar[int]
    """The player count a replay uses when none is given."""
    default_strategy: ClassVar[str]
    """The built-in strategy a replay seats at every place when none is named."""
    round_name: ClassVar[tuple[str, str]] = ("round", "rounds")
    """What one round of play is called in seat names, reports and replays, singular and
    plural (Piece o' Cake: ``("cake", "cakes")``)."""

    # Rules -----------------------------------------------------------------------------
    @abstractmethod
    def load_rules(self, path: str | None = None, **files: str | None) -> RuleSet:
        """The rule set from ``path`` (default: the published rules), validated strictly."""

    @abstractmethod
    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Whether ``variant`` exists at a table of ``players``."""

    def option_choices(self, rules: RuleSet, option: str) -> tuple[str, ...]:
        """The allowed values of a table option (by default, only its default)."""
        return (self.option_defaults[option],) if option in self.option_defaults else ()

    # Tables and seats ------------------------------------------------------------------
    @abstractmethod
    def table(self, rules: RuleSet, players: int, strategies: list, variant: str | None = None,
              duplicate: bool = False, label: str = "", **options: str) -> TableSpec:
        """A table of ``players`` playing ``variant`` of ``rules`` (base when ``None``)."""

    @abstractmethod
    def seat_name(self, table: TableSpec, seat: int) -> SeatName:
        """Seat ``seat``'s name in the game's words."""

    def game_metrics_of(self, table: TableSpec) -> tuple[str, ...]:
        """The per-game metrics ``table`` reports (some exist only in some variants)."""
        return self.game_metrics

    def item_names(self, table: TableSpec) -> list[str]:
        """The names of the per-item columns (e.g. order-card ids); none by default."""
        return []

    # Strategies ------------------------------------------------------------------------
    strategy_names: ClassVar[tuple[str, ...]]
    """The built-in strategies' names (``named_strategy`` knows each)."""
    skill_ladder: ClassVar[tuple[str, ...]] = ()
    """Built-in strategy names from weakest to strongest: the strengths an experiment's
    ``[skill]`` section re-plays its headline tables with, by default (and then without
    being asked). Empty: the game has no skill ladder (e.g. a cooperative game)."""

    @abstractmethod
    def parse_strategy(self, name: str, spec: Table) -> Strategy:
        """The strategy ``name`` from an experiment file's ``[strategies.NAME]`` table."""

    @abstractmethod
    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None) -> Strategy:
        """A built-in strategy by name (exit 2 with the known names otherwise).

        Some strategies depend on the player count and the variant (a game's ``tuned``
        strategy is tuned for each count, and perhaps for some variants):
        they need ``players`` and refuse ``None`` with exit 2; ``variant`` defaults to the
        base variant.
        """

    def same_play(self, a: Strategy, b: Strategy, players: int) -> bool:
        """Whether strategies ``a`` and ``b`` make the same moves at ``players`` players.

        Decided from the strategies alone, never from results: by default, when they are
        equal apart from the name.
        """
        return replace(a, name=b.name) == b

    # Playing ---------------------------------------------------------------------------
    @abstractmethod
    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` of ``seed`` with the kernel."""

    @abstractmethod
    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> dict:
        """Every metric of one game, from the reference engine.

        The keys are the kernel's ``Chunk`` keys at ``table``: a per-seat metric is a tuple
        with one value per seat, a per-game metric one number, a per-item metric a tuple
        with one value per item. Parity is
        ``reference_outcome == kernel_outcome`` for every game.
        """

    def kernel_outcome(self, chunk: Chunk, game: int) -> dict:
        """The same metrics of game ``game`` of a kernel chunk."""
        return ({m: tuple(int(x) for x in v[game]) for m, v in chunk.seat.items()}
                | {m: int(v[game]) for m, v in chunk.game.items()}
                | {m: tuple(int(x) for x in v[game]) for m, v in chunk.item.items()})

    # The deal --------------------------------------------------------------------------
    @abstractmethod
    def dealt(self, table: TableSpec, seed: int, deal: int) -> np.ndarray:
        """Deal ``deal`` of ``seed`` as the kernel deals it: the component at each place.

        Components are numbered as the game likes (equal numbers for identical pieces);
        every deal holds the same multiset of them.
        """

    def deal_groups(self, table: TableSpec) -> list[np.ndarray]:
        """Groups of places that a fair shuffle treats alike: at every place of a group,
        every component is equally likely (by default, one group of every place)."""
        size = self.dealt(table, 0, 0).shape[0]
        return [np.arange(size)]
