"""Shared helpers: the kernel and the reference engine on the same games, hand-made rules."""

import tomllib

import numpy as np

from cakesim.games.topp_die_torte import kernel, search
from cakesim.games.topp_die_torte.reference import Deal, Game
from cakesim.games.topp_die_torte.rules import (
    DEFAULT_RULES,
    TILE_COLUMNS,
    RuleSet,
    TableRules,
    load_rules,
    parse_rules,
    read_tiles,
)
from cakesim.games.topp_die_torte.strategies import BUILTIN, Strategy, strategy_arrays

RULES = load_rules()
GREEDY, RANDOM = BUILTIN["greedy"], BUILTIN["random"]
TILES = DEFAULT_RULES.with_name("tiles.csv")


def weighted(name: str, draft: str = "greedy", jars: str = "greedy", aim: str = "best",
             **weights: float) -> Strategy:
    """A strategy with some weights off their defaults."""
    return Strategy(name, draft, jars, aim, tuple(weights.items()))


def kernel_results(table: TableRules, strategies: list[Strategy], seed: int, first: int,
                   games: int, duplicate: bool = False) -> kernel.Results:
    """Games ``first .. first + games`` of ``seed`` played by the Numba kernel."""
    players = table.players
    codes, params, aim = strategy_arrays(strategies, table.rules.max_offset)
    results = kernel.Results(*[np.zeros((games, players) if f in kernel.SEAT_RESULTS
                                        else games, np.int16)
                               for f in kernel.Results._fields])
    rules, seats = kernel.rule_data(table.arrays), kernel.Strategies(codes, params, aim)
    space = (search.new_search_space(rules, seats) if any(s.searches for s in strategies)
             else None)
    kernel.play_games(np.uint64(seed), first, duplicate, rules, seats, results, space)
    return results


def published_data() -> dict:
    """The published rule file, parsed (to change one key in a test)."""
    return tomllib.loads(DEFAULT_RULES.read_text())


def published_tiles() -> list[dict[str, str]]:
    """The published tile rows (to change one cell in a test)."""
    return read_tiles(TILES)


FILLER = "BB.PP.GG.VV.OO"
"""A tile shaped like the plate, without sugar: pads a hand-made tile list to 28 tiles."""


def tiny_rules(tiles: list[tuple[str, str, int]], **placement) -> RuleSet:
    """The published rules with the tile list ``tiles`` (``(slots, sugar, golden)``, ids
    ``X1``, ``X2``, ...; padded with sugarless plate-shaped tiles) and ``placement`` keys
    changed (``min_overlap``, ``golden_needs_connection``, ...)."""
    data = published_data()
    data["placement"].update(placement)
    rows = [dict(zip(TILE_COLUMNS, (f"X{i + 1}", slots, sugar, str(golden)), strict=True))
            for i, (slots, sugar, golden) in enumerate(tiles)]
    needed = data["rounds"] * data["players"]["max"]
    rows += [dict(zip(TILE_COLUMNS, (f"F{i + 1}", FILLER, "", "0"), strict=True))
             for i in range(needed - len(rows))]
    return parse_rules(data, "tiny.toml", rows, "tiny.csv")


def new_game(table: TableRules, strategies: list[Strategy] | None = None,
             piles: list[list[int]] | None = None, tiles: list[int] | None = None) -> Game:
    """A game set up by hand: tiles dealt in box order (or ``tiles``), chip piles in box
    order (or ``piles``), every aim spot on (draw 0.5), greedy players; ``start_game`` done."""
    r = table.rules
    players = table.players
    deal = Deal(tiles if tiles is not None else list(range(len(r.tile_ids))),
                piles if piles is not None else [list(v) for v in r.chip_values],
                [[0.5] * r.rounds for _ in range(players)])
    game = Game(table, deal, strategies or [GREEDY] * players, np.zeros(2, np.uint64),
                np.zeros(2, np.uint64))
    game.start_game()
    return game
