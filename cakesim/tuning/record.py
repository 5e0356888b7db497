"""Tuned strategies on disk: one TOML file per game, player count and variant.

The file's ``[strategy]`` table is read by the game's own ``parse_strategy``, exactly as
an experiment's ``[strategies.NAME]`` table, so a designer can copy it into an
experiment and change a weight. ``[tuning]`` records how the strategy was found and how
it fared against every member of the tuning population, so the file carries its own
evidence.
"""

from pathlib import Path

import cma
import tomli_w

from cakesim.engine.contract import Game, Strategy
from cakesim.engine.errors import InputError
from cakesim.engine.project import shown_path
from cakesim.engine.tables import Table, read_toml
from cakesim.engine.version import __version__
from cakesim.tuning.search import Outcome

TUNED = "tuned"
"""The name of every game's tuned strategy."""


def outcome_table(game: Game, outcome: Outcome, command: str) -> dict:
    """A finished tuning as the TOML file's tables."""
    members = []
    for member, against, alone, seats in zip(outcome.population, outcome.against,
                                             outcome.alone, outcome.seats, strict=True):
        members.append({
            "name": member.name,
            "weights": game.weights_of(member.strategy),
            "alone_against_tuned": _share(against),
            "alone_against_tuned_by_seat": [round(s.value, 4) for s in seats],
            "tuned_alone_against_it": _share(alone)})
    settings = outcome.settings
    return {
        "strategy": game.strategy_table(outcome.strategy),
        "tuning": {
            "command": command, "cakesim": __version__, "method":
                f"CMA-ES (cma {cma.__version__}), iterated best response: each round a "
                "champion that leaves every lone member of the population the least, then "
                "an exploiter of it; both join the population; duplicate deals, common "
                "random numbers",
            "seed": settings["seed"], "base": settings["base"], **settings["budget"],
            "box": {n: list(b) for n, b in settings["box"].items()},
            "population": members}}


def _share(estimate) -> dict:
    """A win share and its interval, rounded for the file."""
    return {"value": round(estimate.value, 4), "low": round(estimate.low, 4),
            "high": round(estimate.high, 4), "deals": estimate.n}


def write_tuned(game: Game, outcome: Outcome, path: Path, command: str) -> None:
    """Write a tuning's outcome to ``path`` (the game's ``tuned_path`` by default)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = ("# Written by cakesim tune: the tuned strategy ([strategy], read like an "
              "experiment's\n# [strategies.NAME] table) and how it was found ([tuning]).\n")
    path.write_text(header + tomli_w.dumps(outcome_table(game, outcome, command)))


def _tuned_file(game: Game, players: int, variant: str) -> Table:
    """The tuned strategy file for ``players`` and ``variant`` (exit 2 if none was shipped)."""
    path = game.tuned_path(players, variant)
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
    if not game.tuning_base or not game.tuned_path(players, variant).exists():
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
