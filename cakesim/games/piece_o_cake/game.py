"""Piece o' Cake as the shared machinery sees it: tables, chunks, seat names, replays."""

from functools import cache
from typing import ClassVar

import numpy as np

from cakesim.circle import cut_table
from cakesim.games.base import Chunk, TableSpec
from cakesim.games.piece_o_cake import kernel
from cakesim.games.piece_o_cake.reference import play_game
from cakesim.games.piece_o_cake.replay import format_replay
from cakesim.games.piece_o_cake.rules import RuleSet, load_rules
from cakesim.games.piece_o_cake.strategies import (
    Strategy,
    named_strategy,
    parse_strategy,
    strategy_arrays,
)


@cache
def _cut_masks(slices: int, most: int) -> np.ndarray:
    return cut_table(slices, most)


class PieceOCake:
    """Piece o' Cake (RULES.md section 1)."""

    name = "piece-o-cake"
    title = "Piece o' Cake"
    cooperative = False
    win_units = kernel.WIN_UNITS
    seat_metrics = ("total", "majority", "cream")
    game_metrics = ("declines", "passes", "discarded", "eaten_slices", "collected_slices")
    variants = ("base", "compensation")
    table_options = ()
    rule_files: ClassVar[dict[str, str]] = {"rules": "path"}
    """Files an experiment may name (``rules = "..."``), and their ``load_rules`` keyword."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {"tie_rule": ("full", "none")}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(parse_strategy)
    named_strategy = staticmethod(named_strategy)

    def table(self, rules: RuleSet, players: int, strategies: list[Strategy],
              variant: str = "base", duplicate: bool = False, label: str = "") -> TableSpec:
        """A table of ``players`` playing ``variant`` of ``rules``."""
        table_rules = rules.for_table(players, variant)
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        label = label or f"{players}P {variant} {names}"
        return TableSpec(self.name, label, players, variant, table_rules, tuple(strategies),
                         duplicate)

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

    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables: each built-in strategy at every seat, P = 2..5, base."""
        return [(name, self.table(rules, players, [named_strategy(name)] * players))
                for name in ("greedy-balanced", "greedy", "random") for players in (2, 3, 4, 5)]

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> tuple:
        """Every seat's total, from the reference engine."""
        result = play_game(table.rules, list(table.strategies), seed, index, table.duplicate)
        return tuple(result.total)

    def kernel_outcome(self, chunk: Chunk, game: int) -> tuple:
        """Every seat's total of game ``game`` of a kernel chunk."""
        return tuple(int(x) for x in chunk.seat["total"][game])

    def replay(self, rules: RuleSet, seed: int, index: int, players: int | None = None,
               variant: str | None = None, strategy: str | None = None) -> str:
        """The reference engine's move log of game ``index`` of ``seed``, as text."""
        players, variant = players or 4, variant or "base"
        chosen = named_strategy(strategy or "greedy")
        result = play_game(rules.for_table(players, variant), [chosen] * players, seed, index)
        header = (f"{self.title}: seed {seed}, game {index}, {players} players, {variant} "
                  f"rules, {chosen.name} at every seat ({chosen.describe()})")
        return format_replay(rules, result, header)

    def seat_role(self, table: TableSpec, seat: int) -> str:
        """``first waiter (cakes 1, 5)``, ``seat 2 (cake 2)``: who serves which cakes."""
        cakes = table.rules.rules.cakes
        served = [str(c + 1) for c in range(cakes) if c % table.players == seat]
        name = "first waiter" if seat == 0 else f"seat {seat + 1}"
        if not served:
            return f"{name} (serves no cake)"
        return f"{name} (cake{'s' if len(served) > 1 else ''} {', '.join(served)})"


GAME = PieceOCake()
