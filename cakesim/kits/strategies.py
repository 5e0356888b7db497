"""The shipped tuned strategies, read back: one TOML file per game, player count and variant.

``cakesim.tuning.record`` writes them; reading one needs no tuner (a worker or a replay
that seats a ``tuned`` player loads no optimiser). The file's ``[strategy]`` table is read
by the game's own ``parse_strategy``, exactly as an experiment's ``[strategies.NAME]``
table; ``[tuning]`` records how the strategy was found, its population among it.
"""

from cakesim.engine.contract import Game, Strategy
from cakesim.engine.errors import InputError
from cakesim.engine.project import shown_path
from cakesim.engine.tables import Table, read_toml

TUNED = "tuned"
"""The name of every game's tuned strategy."""


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
