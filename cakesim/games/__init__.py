"""The registry: every game cakesim simulates, by the name the CLI and experiments use.

Adding a game is one line here (its name and the module that defines ``GAME``, an
instance of ``cakesim.engine.contract.Game``); nothing else outside the game's folder
changes. Modules are imported on first use, so naming a game costs nothing.
"""

from importlib import import_module

from cakesim.engine.contract import Game
from cakesim.engine.errors import InputError

GAMES = {"piece-o-cake": "cakesim.games.piece_o_cake.game",
         "speedtorte": "cakesim.games.speedtorte.game",
         "part-du-chef": "cakesim.games.part_du_chef.game",
         "topp-die-torte": "cakesim.games.topp_die_torte.game"}

GAME_COMMANDS = {"speedtorte": ("speedtorte", "Speedtorte designer tools")}
"""Commands a game adds to ``cakesim`` (with its ``add_commands``): command -> (game, line of
help), so that ``cakesim --help`` lists them without loading the game."""


def game_named(name: str) -> Game:
    """The game called ``name`` (see ``GAMES``)."""
    if name not in GAMES:
        raise InputError("game", name, f"unknown game; known games: {', '.join(GAMES)}")
    return import_module(GAMES[name]).GAME


def all_games() -> list[Game]:
    """Every registered game, in registry order."""
    return [game_named(name) for name in GAMES]
