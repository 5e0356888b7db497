"""Strategies as codes and named weights: one record made from each game's declared spec,
the ``Tunable`` capability, and the shipped tuned strategies read back.

A game declares what its strategies are made of once, as data: a ``StrategySpec`` with its
codes (each a ``Code``: the choices' names in files and the small integers the kernel
reads, a default, a word for ``describe``) and its weights (``name -> (default, range,
meaning)``). ``StrategySpec.record`` makes the game's strategy record from it, a frozen
dataclass on ``WeightedStrategy`` with a ``name``, one field per code and ``weights``
(the ``(name, value)`` pairs that differ from the defaults); parsing a
``[strategies.NAME]`` table, describing, the kernel's vectors and arrays are written
once there, and ``StrategySpec.index`` gives the kernel's index constants.

A game whose strategies are such records adds ``Tunable``: the tuner, the best-response
search and experiment files (a strategy based on another with some weights changed) read
and replace weights by name through it, written once here.

A tuned strategy is one TOML file per game, player count and variant, beside the game's
module (``tuned_path``). ``cakesim.tuning.record`` writes them; reading one needs no tuner
(a worker or a replay that seats a ``tuned`` player loads no optimiser). The file's
``[strategy]`` table is read by the game's own ``parse_strategy``, exactly as an
experiment's ``[strategies.NAME]`` table; ``[tuning]`` records how the strategy was found,
its population among it.
"""

import dataclasses
import functools
import itertools
import sys
from abc import ABC
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar, Self

import numpy as np

from cakesim.engine.contract import Game, Strategy, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.project import shown_path
from cakesim.engine.tables import Table, read_toml

TUNED = "tuned"
"""The name of every game's tuned strategy."""


RANDOM_CHOICE = "random"
"""The choice a ``StrategySpec.uniform`` strategy makes at every code."""


@dataclasses.dataclass(frozen=True)
class Code:
    """One code of a strategy: a choice by name in files, a small integer in the kernel."""

    choices: Mapping[str, int]
    """Every choice's name and the code the kernel reads for it, in the order an error
    message lists them."""
    default: str
    """The choice of a strategy that names none."""
    label: str
    """What ``describe`` calls the code after its choice: ``greedy chooser``."""
    follows: tuple[str, Mapping[str, str]] | None = None
    """``(an earlier code, {its choice: this code's default})``: a file that picks that
    choice there and says nothing here gets the mapped default (a random chooser cuts at
    random too); other choices keep ``default``."""

    def default_after(self, chosen: Mapping[str, str]) -> str:
        """This code's default once the earlier codes are ``chosen``."""
        if self.follows is None:
            return self.default
        leader, defaults = self.follows
        return defaults.get(chosen[leader], self.default)


@dataclasses.dataclass(frozen=True)
class StrategySpec:
    """What a game's strategies are made of, declared once as data: codes and weights."""

    codes: Mapping[str, Code]
    """Every code by its field name, in the order of the kernel's code vector."""
    parameters: Mapping[str, tuple]
    """Every weight: ``name -> (default, (low, high), meaning)``, in the order of the
    kernel's parameter vector."""
    uniform: str | None = None
    """The whole description of a strategy whose every code is ``random``, when the game
    words it so (``uniform random legal play``); ``None`` describes it as any other."""
    search_choice: str = "search"
    """The choice, at any code, that reads ``search_parameters``."""
    search_parameters: tuple[str, ...] = ()
    """Weights only a ``search_choice`` reads: ``describe`` shows them only then."""
    untuned_choices: tuple[str, ...] = ()
    """Choices too slow for a tuner, which plays thousands of games per candidate (e.g. a
    cutter that serves every legal cut): like the search, challengers of their own."""
    working_space_choices: tuple[str, ...] = ()
    """Choices that play copies of the table in the search's working space, as the search
    does (e.g. a lookahead cutter): a kernel with such a player is built with that space."""
    whole: tuple[str, ...] = ()
    """Weights that count something: a file must give whole numbers."""
    codes_in_params: bool = False
    """Whether the codes lead the parameter row (``[codes, weights]``, one float vector)
    instead of travelling as a vector of their own."""

    def __post_init__(self):
        # A default that follows a later code could never be worked out: refuse the spec.
        order = list(self.codes)
        for position, (name, code) in enumerate(self.codes.items()):
            if code.follows is not None and code.follows[0] not in order[:position]:
                raise ValueError(f"code {name!r} follows {code.follows[0]!r}, which is not "
                                 f"an earlier code")

    def in_words(self, chosen: Mapping[str, str]) -> str:
        """Code choices as ``describe`` words them: ``greedy chooser, balanced cutter``."""
        return ", ".join(f"{choice} {self.codes[field].label}"
                         for field, choice in chosen.items())

    def index(self, name: str) -> int:
        """Where weight ``name`` sits in the kernel's parameter row: the kernels' index
        constants are made by it from the declared weights, never kept by hand."""
        return self.first_weight + list(self.parameters).index(name)

    @property
    def first_weight(self) -> int:
        """Where the weights start in the parameter row: after the codes if they lead it."""
        return len(self.codes) if self.codes_in_params else 0

    @property
    def vector_names(self) -> tuple[str, ...]:
        """The vectors a strategy hands the kernel, in ``arrays`` order."""
        return ("codes", "params") if self.codes and not self.codes_in_params else ("params",)

    def record(self, class_name: str, module: str) -> type["WeightedStrategy"]:
        """The game's strategy record: a frozen dataclass on ``WeightedStrategy`` with the
        fields ``name``, one per code (default: the code's default) and ``weights``.

        The fields are the game's own names, so a strategy's digest and its entry in a
        report (``fingerprint.resolved_strategy``) read as the game's words. ``module``
        is the game's module, where the record is kept: tables holding strategies are
        pickled to worker processes, which find the class there by its name.
        """
        fields = [("name", str),
                  *((name, str, dataclasses.field(default=code.default))
                    for name, code in self.codes.items()),
                  ("weights", tuple[tuple[str, float], ...], dataclasses.field(default=()))]
        doc = (f"A named strategy: a choice for each code ({', '.join(self.codes)}) and "
               f"the weights that differ from the defaults, as ``(name, value)`` pairs.")
        return dataclasses.make_dataclass(
            class_name, fields, bases=(WeightedStrategy,), frozen=True,
            namespace={"spec": self, "__module__": module, "__doc__": doc})


class WeightedStrategy:
    """What every game's strategy record does, from its ``spec`` (``StrategySpec.record``
    makes the records; this class holds no fields of its own)."""

    spec: ClassVar[StrategySpec]
    name: str
    weights: tuple[tuple[str, float], ...]

    @classmethod
    def parse(cls, name: str, table: Table) -> Self:
        """A strategy from an experiment's ``[strategies.NAME]`` table, read strictly: an
        unknown key, a choice or a weight that is not allowed is an error naming the file,
        the key and what is allowed."""
        spec = cls.spec
        table.only([*spec.codes, *spec.parameters])
        chosen: dict[str, str] = {}
        for field, code in spec.codes.items():
            chosen[field] = table.get(field, str, code.default_after(chosen), code.choices)
        weights = table.numbers({k: span for k, (_, span, _) in spec.parameters.items()})
        for key in spec.whole:
            if key in weights and not weights[key].is_integer():
                low, high = spec.parameters[key][1]
                raise table.error(key, f"{weights[key]!r} is not allowed; allowed: a whole "
                                       f"number {low:g} to {high:g}")
        return cls(name, **chosen, weights=tuple(weights.items()))

    @classmethod
    def arrays(cls, strategies: Sequence[Self]) -> tuple[np.ndarray, ...]:
        """Every vector of ``vectors`` stacked, one row per player, for the kernel."""
        return tuple(np.stack([s.vectors()[name] for s in strategies])
                     for name in cls.spec.vector_names)

    def choices(self) -> dict[str, str]:
        """Every code's choice, by field name."""
        return {field: getattr(self, field) for field in self.spec.codes}

    def _code_values(self) -> list[int]:
        """Every code as the kernel reads it."""
        return [code.choices[getattr(self, field)] for field, code in self.spec.codes.items()]

    @property
    def codes(self) -> np.ndarray:
        """The code vector as the kernel reads it (``int8``, in the spec's order)."""
        return np.array(self._code_values(), dtype=np.int8)

    @property
    def params(self) -> np.ndarray:
        """The parameter row as the kernel reads it: every weight, defaults filled in, in
        the spec's order (after the codes when they lead it)."""
        given = dict(self.weights)
        weights = [given.get(k, d) for k, (d, _, _) in self.spec.parameters.items()]
        # Always float64, whatever numbers were given: every kernel is compiled for it.
        codes = self._code_values() if self.spec.codes_in_params else []
        return np.array([*codes, *weights], dtype=np.float64)

    def all_weights(self) -> dict[str, float]:
        """Every weight by name, defaults filled in."""
        row = self.params[self.spec.first_weight:]
        return {n: float(v) for n, v in zip(self.spec.parameters, row, strict=True)}

    def vectors(self) -> dict[str, np.ndarray]:
        """What the kernel reads of this strategy: its codes and its parameter row."""
        found = {"codes": self.codes, "params": self.params}
        return {name: found[name] for name in self.spec.vector_names}

    @property
    def searches(self) -> bool:
        """Whether one of its codes plays the search player (``spec.search_choice``)."""
        return self.spec.search_choice in self.choices().values()

    @property
    def needs_search_space(self) -> bool:
        """Whether it plays in the search's working space: it searches, or one of its codes
        is a ``spec.working_space_choices`` choice."""
        return self.searches or any(c in self.spec.working_space_choices
                                    for c in self.choices().values())

    def describe(self) -> str:
        """One line: every code's choice and the weights (a search's only when it
        searches), or the game's words for uniform random play."""
        spec, chosen = self.spec, self.choices()
        if spec.uniform is not None and all(c == RANDOM_CHOICE for c in chosen.values()):
            return spec.uniform
        searching = self.searches
        weights = ", ".join(f"{k}={v:g}" for k, v in self.all_weights().items()
                            if searching or k not in spec.search_parameters)
        codes = spec.in_words(chosen)
        return f"{codes} ({weights})" if codes else weights


class Tunable(ABC):
    """A game whose strategies (``WeightedStrategy`` records) have named weights a tuner
    may search (mixed into ``Game``)."""

    parameters: ClassVar[dict[str, tuple]]
    """Every weight of the game's strategies: ``name -> (default, range, meaning)``, in the
    order of a strategy's ``params`` vector."""
    tuning_base: ClassVar[str]
    """The built-in strategy whose codes a tuner keeps and whose weights it starts from."""
    tuning_box: ClassVar[dict[str, tuple[float, float]]]
    """The weights a tuner searches, each within ``(low, high)``; the others keep the
    base strategy's values."""
    search_strategies: ClassVar[tuple[str, ...]] = ()
    """Built-in strategies that search at every move: strong but slow, so the tuner and the
    best-response search never start from them."""

    def response_families(self, variant: str) -> list[dict[str, str]]:
        """The code choices a best response is searched in (``tuning.exploit``), one
        search each: every combination of every code's choices that neither plays at
        random, searches nor is too slow to tune (``StrategySpec.untuned_choices``: those
        players are challengers of their own)."""
        spec = self.named_strategy(self.tuning_base).spec
        options = {field: [c for c in code.choices
                           if c not in (RANDOM_CHOICE, spec.search_choice,
                                        *spec.untuned_choices)]
                   for field, code in spec.codes.items()}
        return [dict(zip(options, combination, strict=True))
                for combination in itertools.product(*options.values())]

    def tuning_start(self, players: int, variant: str) -> tuple[Strategy, dict[str, tuple]]:
        """The strategy a tuning at ``players`` and ``variant`` starts from and the weights
        it searches: by default ``tuning_base`` and ``tuning_box``, in every variant."""
        return self.named_strategy(self.tuning_base, players), self.tuning_box

    def weights_of(self, strategy: WeightedStrategy) -> dict[str, float]:
        """Every weight of ``strategy`` by name, defaults filled in."""
        return strategy.all_weights()

    def with_weights(self, strategy: WeightedStrategy, name: str,
                     weights: dict[str, float]) -> WeightedStrategy:
        """``strategy`` renamed ``name``, with ``weights`` replacing some of its weights."""
        return dataclasses.replace(strategy, name=name, weights=tuple(
            (self.weights_of(strategy) | weights).items()))

    def strategy_table(self, strategy: WeightedStrategy) -> dict:
        """``strategy`` as the ``[strategies.NAME]`` table ``parse_strategy`` reads back:
        its codes and every weight."""
        return strategy.choices() | self.weights_of(strategy)


class SearchPlayers(Tunable):
    """A ``Tunable`` game with search players (its ``search.py``, on the shared driver
    ``kits.search``): built-in strategies that search every move at a budget of their
    own, each on the tuned strategy of its player count, which then plays its rollouts."""

    search_budgets: ClassVar[dict[str, int]] = {"search": 100, "search-deep": 300}
    """The built-in search players and their iterations per move."""
    search_strategies = tuple(search_budgets)
    search_codes: ClassVar[dict[str, str]]
    """The strategy fields that make a strategy search (each set to ``search``)."""

    def search_player(self, name: str, base: WeightedStrategy) -> WeightedStrategy:
        """The search player ``name`` (of ``search_budgets``) on the strategy ``base``."""
        searching = self.with_weights(base, name,
                                      {"iterations": float(self.search_budgets[name])})
        return dataclasses.replace(searching, **self.search_codes)

    @staticmethod
    def searching(table: TableSpec) -> bool | None:
        """The kernel's ``search`` argument: true if a player searches or plays in the
        search's working space, else ``None`` (its kernel is then compiled without the
        search: ``kits.search.decide``)."""
        return True if any(s.needs_search_space for s in table.strategies) else None


def tunable(game: Game) -> Tunable:
    """``game`` as a ``Tunable`` game; exit 2 if its strategies have no weights to tune."""
    if not isinstance(game, Tunable):
        raise InputError("tune", game.name, "this game's strategies have no weights to tune")
    return game


def tuned_path(game: Game, players: int, variant: str) -> Path:
    """Where ``game``'s tuned strategy for ``players`` and ``variant`` is kept: a TOML file
    in a ``tuned`` folder beside the game's module."""
    folder = Path(sys.modules[type(game).__module__].__file__).parent
    return folder / "tuned" / f"{players}p-{variant}.toml"


def _tuned_file(game: Game, players: int, variant: str) -> Table:
    """The tuned strategy file for ``players`` and ``variant`` (exit 2 if none was shipped)."""
    path = tuned_path(game, players, variant)
    if not path.exists():
        raise InputError("strategy", TUNED, f"{game.name} has no tuned strategy for "
                                            f"{players} players ({variant}); make one "
                                            f"with `cakesim tune {game.name} --players "
                                            f"{players} --ship`")
    stat = path.stat()
    data = Table(_parsed(str(path), stat.st_mtime_ns, stat.st_size), shown_path(path))
    data.only(["strategy", "tuning"])
    return data


@functools.lru_cache(maxsize=64)
def _parsed(path: str, mtime_ns: int, size: int) -> dict:
    """A tuned file's TOML, parsed once while it is unchanged: ``cakesim balance`` reads
    the experiment again for every candidate rule set, and a tuned file's population makes
    it slow to parse. Its readers never change the data."""
    return read_toml(path, "tuned strategy")


def read_tuned(game: Game, players: int, variant: str) -> Strategy:
    """The tuned strategy for ``players`` and ``variant`` (exit 2 if none was shipped)."""
    return game.parse_strategy(TUNED, _tuned_file(game, players, variant).sub("strategy"))


def tuned_population(game: Game, players: int, variant: str) -> dict[str, Strategy]:
    """The members of the shipped tuning's population (exploiters, champions), by name
    (``tuned: exploiter 2``); none when the game has no tuned strategy there."""
    if not isinstance(game, Tunable) or not tuned_path(game, players, variant).exists():
        return {}
    data = _tuned_file(game, players, variant)
    base = game.strategy_table(game.parse_strategy(TUNED, data.sub("strategy")))
    tuning = data.sub("tuning")
    found = {}
    for index, entry in enumerate(tuning.get("population", list)):
        member = Table(entry, tuning.source, f"tuning.population[{index}]")
        name = f"{TUNED}: {member.get('name', str)}"
        # Read as strictly as the tuned strategy itself: the file may have been edited.
        weights = Table(base | member.sub("weights").data, member.source, member.key("weights"))
        found[name] = game.parse_strategy(name, weights)
    return found
