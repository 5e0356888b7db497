"""Tuned strategies on disk: one TOML file per game, player count and variant.

This module writes them (``cakesim.kits.strategies`` reads them, without the tuner). The
file's ``[strategy]`` table is read by the game's own ``parse_strategy``, exactly as
an experiment's ``[strategies.NAME]`` table, so a designer can copy it into an
experiment and change a weight. ``[tuning]`` records how the strategy was found and how
it fared against every member of the tuning population, so the file carries its own
evidence.
"""

from pathlib import Path

import cma
import tomli_w

from cakesim.engine.project import begins_with
from cakesim.engine.version import __version__
from cakesim.kits.strategies import Tunable
from cakesim.tuning.search import Outcome


def outcome_table(game: Tunable, outcome: Outcome, command: str) -> dict:
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


HEADER = ("# Written by cakesim tune: the tuned strategy ([strategy], read like an "
          "experiment's\n# [strategies.NAME] table) and how it was found ([tuning]).\n")
"""The first lines of every tuned strategy file."""


def write_tuned(game: Tunable, outcome: Outcome, path: Path, command: str) -> None:
    """Write a tuning's outcome to ``path`` (the caller has checked it may be written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + tomli_w.dumps(outcome_table(game, outcome, command)))


def is_tuned_file(path: Path) -> bool:
    """Whether ``path`` begins as ``write_tuned`` begins a file, so tune may write it again."""
    return begins_with(path, HEADER)
