"""Speedtorte as the shared machinery sees it: tables, chunks, card names, replays."""

from typing import ClassVar

import numpy as np

from cakesim.errors import InputError
from cakesim.games.base import Chunk, TableSpec
from cakesim.games.speedtorte import kernel
from cakesim.games.speedtorte.cards import base_rate_table
from cakesim.games.speedtorte.lookahead import lookahead_tables
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.reference import Game, RealTimeGame, outcome, play_any
from cakesim.games.speedtorte.replay import format_replay
from cakesim.games.speedtorte.rules import MODES, RuleSet, load_rules
from cakesim.games.speedtorte.strategies import (
    Baker,
    named_strategy,
    parse_strategy,
    strategy_arrays,
)

REAL_TIME_METRICS = ("finish_ms", "rejected")
VARIANTS = (*MODES, "special_orders", "eilauftrag")
"""A table's variant: how bakers talk, the special-orders module (with signals), or the
Eilauftrag (real time, with signals)."""


class Speedtorte:
    """Speedtorte, turn mode (RULES.md section 3)."""

    name = "speedtorte"
    title = "Speedtorte"
    cooperative = True
    win_units = 1
    seat_metrics = ()
    game_metrics = ("won", "score", "moves", "fulfilled", "stuck", "hands_empty",
                    "supply_left", "rushes_missed", "finish_ms", "rejected")
    """``finish_ms``: Eilauftrag clock at the end of the game, in milliseconds; ``rejected``:
    placements rejected because the plate had just changed (both Eilauftrag only)."""
    item_metrics = ("shown", "fulfilled", "wait", "at_loss")
    variants = VARIANTS
    table_options = ("level", "profile")
    option_defaults: ClassVar[dict[str, str]] = {"level": "Lehrling", "profile": "adult"}
    experiment_sections: ClassVar[dict[str, str]] = {
        "budgets": "cakesim.games.speedtorte.budget_report"}
    """Experiment sections this game analyses, and the module that does it."""
    rule_files: ClassVar[dict[str, str]] = {"rules": "path", "levels": "levels",
                                            "cards": "cards", "timing": "timing"}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(parse_strategy)
    named_strategy = staticmethod(named_strategy)

    def table(self, rules: RuleSet, players: int, strategies: list[Baker],
              variant: str = "signals", duplicate: bool = False, label: str = "",
              level: str = "Lehrling", profile: str = "adult") -> TableSpec:
        """A table of ``players`` bakers at ``level`` in ``variant``.

        ``profile`` names the bakers' timing profile, used by the Eilauftrag only.
        """
        special = variant == "special_orders"
        mode = "signals" if variant in ("special_orders", "eilauftrag") else variant
        table_rules = rules.for_table(players, level, mode, special,
                                      profile if variant == "eilauftrag" else None)
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        label = label or f"{table_rules.level.name} {players}P {variant} {names}"
        return TableSpec(self.name, label, players, variant, table_rules, tuple(strategies),
                         duplicate)

    def game_metrics_of(self, table: TableSpec) -> tuple[str, ...]:
        """The per-game metrics a table reports: the clock's only in the Eilauftrag."""
        if table.rules.timing is not None:
            return self.game_metrics
        return tuple(m for m in self.game_metrics if m not in REAL_TIME_METRICS)

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Every variant exists at every player count."""
        return variant in VARIANTS

    def option_choices(self, rules: RuleSet, option: str) -> tuple[str, ...]:
        """The allowed values of a table option (level names, timing profiles)."""
        if option == "profile":
            return tuple(rules.timing.profiles)
        return tuple(level.name for level in rules.levels)

    def item_names(self, table: TableSpec) -> list[str]:
        """The order cards' ids, in catalogue order (the per-item columns)."""
        return [card.id for card in table.rules.rules.catalogue.cards]

    def item_details(self, table: TableSpec) -> list[dict]:
        """Per order card: family, tier, English text and exact base rate at this table."""
        r = table.rules.rules
        rates = base_rate_table(r.catalogue, sacher=True, copies=r.copies, plates=r.plates)
        sacher = table.rules.special_orders and r.special_sachertorte
        column = rates["base_rate_with_sacher" if sacher else "base_rate"]
        return [{"family": card.family, "tier": card.tier, "text": card.text_en,
                 "base_rate": float(column[k])} for k, card in enumerate(r.catalogue.cards)]

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        a = table.rules.arrays
        met, one_away = lookahead_tables(a["program"], a["plates"], PIECE_TYPES)
        params = strategy_arrays(list(table.strategies))
        game = {m: np.zeros(games, np.int32 if m == "finish_ms" else np.int16)
                for m in self.game_metrics}
        ending = np.zeros(games, np.int8)
        cards = a["program"].shape[0]
        item = {m: np.zeros((games, cards), np.int16) for m in self.item_metrics}
        kernel.play_games(
            np.uint64(seed), first_game, table.players, a["box"], a["type_flavour"],
            a["type_candles"], a["sacher"], a["plates"], a["hand_size"], a["displayed"],
            a["program"], a["pool"], a["cards_to_fulfil"], a["card_points"], a["win_bonus"],
            a["record_hunt_piece"], a["rush_every"], a["rush_moves"], a["mode"], met,
            one_away, params, a["timing"], game["won"], ending, game["score"], game["moves"],
            game["fulfilled"], game["supply_left"], game["rushes_missed"], game["finish_ms"],
            game["rejected"], item["shown"], item["fulfilled"], item["wait"], item["at_loss"])
        game["stuck"] = (ending == kernel.STUCK).astype(np.int16)
        game["hands_empty"] = (ending == kernel.HANDS_EMPTY).astype(np.int16)
        game = {m: game[m] for m in self.game_metrics_of(table)}
        return Chunk(first_game, {}, game, item)

    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables, Konditor: team bakers at 1..5 players, random bakers at 3,
        and the Eilauftrag (real time) at 2..5."""
        turns = [(name, self.table(rules, players, [named_strategy(name)] * players,
                                   level="Konditor"))
                 for name, counts in (("team", (1, 2, 3, 4, 5)), ("random", (3,)))
                 for players in counts]
        real_time = [("team eilauftrag", self.table(rules, players,
                                                    [named_strategy("team")] * players,
                                                    "eilauftrag", level="Konditor"))
                     for players in (2, 3, 4, 5)]
        return turns + real_time

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> tuple:
        """Every per-game metric, from the reference engine."""
        return outcome(play_any(table.rules, list(table.strategies), seed, index))

    def kernel_outcome(self, chunk: Chunk, game: int) -> tuple:
        """Every per-game metric of game ``game`` of a kernel chunk."""
        return tuple(int(chunk.game[m][game]) if m in chunk.game else 0
                     for m in self.game_metrics)

    def replay(self, rules: RuleSet, seed: int, index: int, players: int | None = None,
               variant: str | None = None, strategy: str | None = None,
               level: str = "Lehrling") -> str:
        """The reference engine's move log of game ``index`` of ``seed``, as text."""
        players, variant = players or 2, variant or "signals"
        if variant not in VARIANTS:
            raise InputError("--variant", "variant", f"{variant!r} is not allowed; allowed "
                                                     f"values: {', '.join(VARIANTS)}")
        baker = named_strategy(strategy or "team")
        table = self.table(rules, players, [baker] * players, variant, level=level)
        engine = RealTimeGame if variant == "eilauftrag" else Game
        game = engine(table.rules, list(table.strategies), seed, index)
        result = game.play()
        header = (f"{self.title}: seed {seed}, game {index}, {table.rules.level.name}, "
                  f"{players} baker(s), {variant}, {baker.name} bakers ({baker.describe()})")
        return format_replay(table.rules, game, result, header)

    def seat_role(self, table: TableSpec, seat: int) -> str:
        """``baker 1``: a cooperative game's seats only take turns."""
        return f"baker {seat + 1}"


GAME = Speedtorte()
