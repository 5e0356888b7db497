"""Strategies as codes and named weights: the ``Tunable`` capability, and the shipped tuned
strategies read back.

A game whose strategies are frozen dataclasses with a ``name``, code fields, ``weights``
(the ``(name, value)`` pairs that differ from the defaults) and a ``params`` vector in
``parameters`` order adds ``Tunable``: the tuner, the best-response search and experiment
files (a strategy based on another with some weights changed) read and replace weights
by name through it, written once here.

A tuned strategy is one TOML file per game, player count and variant, beside the game's
module (``tuned_path``). ``cakesim.tuning.record`` writes them; reading one needs no tuner
(a worker or a replay that seats a ``tuned`` player loads no optimiser). The file's
``[strategy]`` table is read by the game's own ``parse_strategy``, exactly as an
experiment's ``[strategies.NAME]`` table; ``[tuning]`` records how the strategy was found,
its population among it.
"""

import dataclasses
import sys
from abc import ABC
from pathlib import Path
from typing import ClassVar

from cakesim.engine.contract import Game, Strategy
from cakesim.engine.errors import InputError
from cakesim.engine.project import shown_path
from cakesim.engine.tables import Table, read_toml

TUNED = "tuned"
"""The name of every game's tuned strategy."""


class Tunable(ABC):
    """A game whose strategies have named weights a tuner may search (mixed into ``Game``)."""

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

    def tuning_start(self, players: int, variant: str) -> tuple[Strategy, dict[str, tuple]]:
        """The strategy a tuning at ``players`` and ``variant`` starts from and the weights
        it searches: by default ``tuning_base`` and ``tuning_box``, in every variant."""
        return self.named_strategy(self.tuning_base, players), self.tuning_box

    def weights_of(self, strategy: Strategy) -> dict[str, float]:
        """Every weight of ``strategy`` by name, defaults filled in."""
        return {n: float(v) for n, v in zip(self.parameters, strategy.params, strict=True)}

    def with_weights(self, strategy: Strategy, name: str,
                     weights: dict[str, float]) -> Strategy:
        """``strategy`` renamed ``name``, with ``weights`` replacing some of its weights."""
        return dataclasses.replace(strategy, name=name, weights=tuple(
            (self.weights_of(strategy) | weights).items()))

    def strategy_table(self, strategy: Strategy) -> dict:
        """``strategy`` as the ``[strategies.NAME]`` table ``parse_strategy`` reads back:
        its codes (every field but the name and the weights) and every weight."""
        codes = {f.name: getattr(strategy, f.name) for f in dataclasses.fields(strategy)
                 if f.name not in ("name", "weights")}
        return codes | self.weights_of(strategy)


def weight_index(parameters: dict[str, tuple], name: str, first: int = 0) -> int:
    """Where weight ``name`` sits in a strategy's parameter vector, which lays out
    ``parameters`` in order from position ``first``: the kernels' index constants are
    made by it from the declared weights, never kept as a second list by hand."""
    return first + list(parameters).index(name)


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
                                            f"{players} players ({variant}); make one with "
                                            f"`cakesim tune {game.name} --players {players}`")
    data = Table(read_toml(path, "tuned strategy"), shown_path(path))
    data.only(["strategy", "tuning"])
    return data


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
