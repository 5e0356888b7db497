"""Piece o' Cake as the shared machinery sees it: tables, chunks, seat names, replays."""

from functools import cache
from typing import ClassVar

import numpy as np

from cakesim.circle import cut_table
from cakesim.games.base import Chunk, TableSpec
from cakesim.games.competitive import CompetitiveGame
from cakesim.games.piece_o_cake import kernel
from cakesim.games.piece_o_cake.reference import play_game
from cakesim.games.piece_o_cake.replay import format_replay
from cakesim.games.piece_o_cake.rules import RuleSet, load_rules
from cakesim.games.piece_o_cake.strategies import (
    named_strategy,
    parse_strategy,
    strategy_arrays,
)
from cakesim.tabletop import WIN_UNITS


@cache
def _cut_masks(slices: int, most: int) -> np.ndarray:
    return cut_table(slices, most)


class PieceOCake(CompetitiveGame):
    """Piece o' Cake (RULES.md section 1)."""

    name = "piece-o-cake"
    title = "Piece o' Cake"
    first_seat = "first waiter"
    round_name = ("cake", "cakes")
    round_verb = "serves"
    win_units = WIN_UNITS
    seat_metrics = ("total", "majority", "cream")
    game_metrics = ("declines", "passes", "discarded", "eaten_slices", "collected_slices")
    variants = ("base", "compensation")
    rule_files: ClassVar[dict[str, str]] = {"rules": "path"}
    """Files an experiment may name (``rules = "..."``), and their ``load_rules`` keyword."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {"tie_rule": ("full", "none")}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(parse_strategy)
    named_strategy = staticmethod(named_strategy)

    def game_metrics_of(self, table: TableSpec) -> tuple[str, ...]:
        """The per-game metrics a table reports: all of them."""
        return self.game_metrics

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Whether ``variant`` exists at a table of ``players``."""
        return variant == "base" or rules.has_compensation(players)

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        a = table.rules.arrays
        codes, params = strategy_arrays(list(table.strategies))
        shape = (games, table.players)
        seat = {m: np.zeros(shape, np.int16) for m in (*self.seat_metrics, "win_units")}
        game = {m: np.zeros(games, np.int16) for m in self.game_metrics}
        kernel.play_games(
            np.uint64(seed), first_game, table.duplicate, a["slice_kind"], a["slice_cream"],
            a["majority_value"], a["cakes"], a["slices_per_cake"], a["portion_limit"],
            a["ties_score"], a["bonus_after_cake"],
            _cut_masks(a["slices_per_cake"], a["portion_limit"]), codes, params,
            seat["total"], seat["majority"], seat["cream"], seat["win_units"],
            game["declines"], game["passes"], game["discarded"], game["eaten_slices"],
            game["collected_slices"])
        return Chunk(first_game, seat, game)

    def rounds(self, table: TableSpec) -> int:
        """Five cakes (the rule set's count)."""
        return table.rules.rules.cakes

    def game_result(self, table_rules, strategies, seed, index, duplicate):
        """The reference engine's result of one game."""
        return play_game(table_rules, strategies, seed, index, duplicate)

    def result_totals(self, result) -> tuple:
        """Every seat's total in a reference result."""
        return tuple(result.total)

    def format_replay(self, rules, result, header: str) -> str:
        """A reference result's move log as text."""
        return format_replay(rules, result, header)


GAME = PieceOCake()
