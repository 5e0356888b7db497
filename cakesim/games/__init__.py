"""The games cakesim simulates, by the name the CLI and the experiments use."""

from importlib import import_module

from cakesim.errors import InputError

GAMES = {"piece-o-cake": "cakesim.games.piece_o_cake.game",
         "speedtorte": "cakesim.games.speedtorte.game",
         "part-du-chef": "cakesim.games.part_du_chef.game"}


def get_game(name: str):
    """The game called ``name`` (see ``GAMES``)."""
    if name not in GAMES:
        raise InputError("game", name, f"unknown game; known games: {', '.join(GAMES)}")
    return import_module(GAMES[name]).GAME
