"""Speedtorte as the shared machinery sees it: tables, chunks, card names, replays."""

from pathlib import Path
from typing import ClassVar

import numpy as np

from cakesim.engine.contract import (
    Chunk,
    Game,
    ResultKind,
    SeatName,
    TableSpec,
)
from cakesim.engine.errors import InputError
from cakesim.games.speedtorte import kernel
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.reference import Game as TurnGame
from cakesim.games.speedtorte.reference import RealTimeGame, card_outcome, outcome, play_any
from cakesim.games.speedtorte.replay import format_replay
from cakesim.games.speedtorte.rules import MODES, RuleSet, load_rules
from cakesim.games.speedtorte.steps import HANDS_EMPTY, STUCK, Rules, deal
from cakesim.games.speedtorte.strategies import NAMED, Baker, named_strategy
from cakesim.games.speedtorte.tuning import DEFAULT_TARGETS
from cakesim.kits.bench import Benchmarked, BenchTarget
from cakesim.kits.replay import Replayable
from cakesim.reports.hooks import ReportColumn, ReportHooks, Section

REAL_TIME_METRICS = ("finish_ms", "rejected")
SPECIAL_ORDERS, EILAUFTRAG = "special_orders", "eilauftrag"
STRONG_TEAM = Baker("lookahead32", chooser="lookahead", weights=(("samples", 32.0),))
"""The strong team of both Speedtorte experiments (their skill trace's top tier), as
``make bench`` times it."""


def variant_name(mode: str, special: bool, real_time: bool) -> str:
    """The variant's name from its parts (signals unnamed in a combination)."""
    parts = [part for part in (mode, SPECIAL_ORDERS * special, EILAUFTRAG * real_time) if part]
    return "+".join(parts[1:] if len(parts) > 1 and mode == "signals" else parts)


VARIANTS = tuple(variant_name(mode, special, real_time) for real_time in (False, True)
                 for special in (False, True) for mode in MODES)
"""A table's variant: how bakers talk (signals, silence, open hands), with or without the
special-orders module, in turn mode or the Eilauftrag (real time), joined by "+":
``silence+special_orders+eilauftrag``. Signals are the default and not named in a
combination: ``special_orders`` plays with signals."""


def variant_parts(variant: str) -> tuple[str, bool, bool]:
    """``(mode, special orders, Eilauftrag)`` of a variant in ``VARIANTS``."""
    parts = variant.split("+")
    mode = next((part for part in parts if part in MODES), "signals")
    return mode, SPECIAL_ORDERS in parts, EILAUFTRAG in parts


class Speedtorte(Game, Replayable, Benchmarked, ReportHooks):
    """Speedtorte (RULES.md section 3): turns, special orders and the Eilauftrag."""

    name = "speedtorte"
    title = "Speedtorte"
    rule_version = "1"
    result_kind = ResultKind.TEAM
    game_metrics = ("won", "score", "moves", "fulfilled", "stuck", "hands_empty",
                    "supply_left", "rushes_missed", "finish_ms", "rejected")
    """``finish_ms``: Eilauftrag clock at the end of the game, in milliseconds; ``rejected``:
    placements rejected because the plate had just changed (both Eilauftrag only)."""
    item_metrics = ("shown", "fulfilled", "wait", "at_loss")
    """Per order card: times put on display, times fulfilled, placements it waited on
    display before being fulfilled, and whether it was on display when the game was lost."""
    item_ratios: ClassVar[dict[str, tuple[str, str]]] = {
        "fulfilled share once shown": ("fulfilled", "shown")}
    report_columns = (ReportColumn("score", "mean score"), ReportColumn("moves", "placements"),
                      ReportColumn("stuck", "lost: stuck", share=True),
                      ReportColumn("hands_empty", "lost: hands empty", share=True))
    option_targets: ClassVar[dict[str, float]] = DEFAULT_TARGETS
    variants = VARIANTS
    table_options = ("level", "profile")
    option_defaults: ClassVar[dict[str, str]] = {"level": "Lehrling", "profile": "adult"}
    default_players = 2
    default_strategy = "team"
    # The lookaheads' targets keep both Speedtorte experiments at their committed sizes
    # within 15 minutes on 2 cores. At 244 and 104 games/s (lookahead, Konditor, 3 bakers;
    # the strong team 71 and 29) order_card_difficulty took 7 min 14 s and
    # eilauftrag_time_budgets 14 min 11 s, nearly all of it in the lookahead tables: the
    # first may lose half its speed, the second 5 %. Their reference engine runs the same
    # compiled play-outs, so no ratio is asked of them.
    bench_targets = (BenchTarget("team", rate=100_000.0, ratio=50.0, players=3),
                     BenchTarget("team eilauftrag", rate=30_000.0, ratio=50.0),
                     BenchTarget("lookahead", rate=120.0, ratio=1.0, players=3),
                     BenchTarget("lookahead eilauftrag", rate=99.0, ratio=1.0, players=3),
                     BenchTarget(STRONG_TEAM.name, rate=35.0, ratio=1.0, players=3),
                     BenchTarget(f"{STRONG_TEAM.name} eilauftrag", rate=27.0, ratio=1.0,
                                 players=3))
    strategy_names = tuple(NAMED)
    rule_files: ClassVar[dict[str, str]] = {"rules": "path", "levels": "levels",
                                            "cards": "cards", "timing": "timing"}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(Baker.parse)

    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None) -> Baker:
        """A built-in baker (the same at every player count)."""
        return named_strategy(name)

    def table(self, rules: RuleSet, players: int, strategies: list[Baker],
              variant: str | None = None, duplicate: bool = False, label: str = "",
              level: str = "Lehrling", profile: str = "adult") -> TableSpec:
        """A table of ``players`` bakers at ``level`` in ``variant`` (default: signals).

        ``profile`` names the bakers' timing profile, used by the Eilauftrag only.
        """
        variant = variant or "signals"
        mode, special, real_time = variant_parts(variant)
        table_rules = rules.for_table(players, level, mode, special,
                                      profile if real_time else None)
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        label = label or f"{table_rules.level.name} {players}P {variant} {names}"
        options = (("level", table_rules.level.name),)
        if real_time:
            options += (("profile", profile),)
        return TableSpec(self, label, players, variant, table_rules, tuple(strategies),
                         duplicate, options)

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

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        a = table.rules.arrays
        game = {m: np.zeros(games, np.int32 if m == "finish_ms" else np.int16)
                for m in self.game_metrics}
        ending = np.zeros(games, np.int8)
        cards = a["program"].shape[0]
        item = {m: np.zeros((games, cards), np.int16) for m in self.item_metrics}
        results = kernel.Results(
            won=game["won"], ending=ending, score=game["score"], moves=game["moves"],
            fulfilled=game["fulfilled"], supply_left=game["supply_left"],
            rushes_missed=game["rushes_missed"], finish_ms=game["finish_ms"],
            rejected=game["rejected"], card_shown=item["shown"],
            card_fulfilled=item["fulfilled"], card_wait=item["wait"],
            card_at_loss=item["at_loss"])
        # A baker's code leads its parameter row: the one array the kernel reads of it.
        (params,) = Baker.arrays(table.strategies)
        bakers = kernel.Bakers(params, a["timing"])
        kernel.play_games(np.uint64(seed), first_game, Rules.of_table(a), bakers, results)
        game["stuck"] = (ending == STUCK).astype(np.int16)
        game["hands_empty"] = (ending == HANDS_EMPTY).astype(np.int16)
        game = {m: game[m] for m in self.game_metrics_of(table)}
        return Chunk(first_game, {}, game, item)

    def dealt(self, table: TableSpec, seed: int, deal_index: int) -> np.ndarray:
        """The shuffled pieces (piece types), then the shuffled order deck (card ids,
        numbered after the piece types)."""
        a = table.rules.arrays
        pieces, deck = deal(np.uint64(seed), deal_index, a["box"], a["pool"],
                            a["sachertorte"], table.rules.dealt_out)
        return np.concatenate([pieces, deck + PIECE_TYPES]).astype(np.int64)

    def deal_groups(self, table: TableSpec) -> list[np.ndarray]:
        """The pieces' places (plates and hands apart from the supply when the Sachertorte
        lies in the supply), and the deck's."""
        a = table.rules.arrays
        pieces = a["box"].shape[0] + (a["sachertorte"] >= 0)
        deck = [pieces + np.arange(a["pool"].shape[0])]
        if a["sachertorte"] < 0:
            return [np.arange(pieces), *deck]
        out = table.rules.dealt_out
        return [np.arange(out), np.arange(out, pieces), *deck]

    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables, Konditor: team bakers at 1..5 players, random, novice,
        lookahead and strong-team bakers at 3, and the Eilauftrag (real time) at 2..5
        (the lookaheads at 3)."""
        bakers = {**NAMED, STRONG_TEAM.name: STRONG_TEAM}
        turns = [(name, self.table(rules, players, [bakers[name]] * players,
                                   level="Konditor"))
                 for name, counts in (("team", (1, 2, 3, 4, 5)), ("random", (3,)),
                                      ("novice", (3,)), ("lookahead", (3,)),
                                      (STRONG_TEAM.name, (3,)))
                 for players in counts]
        real_time = [(f"{name} eilauftrag", self.table(rules, players,
                                                       [bakers[name]] * players,
                                                       "eilauftrag", level="Konditor"))
                     for name, counts in (("team", (2, 3, 4, 5)), ("lookahead", (3,)),
                                          (STRONG_TEAM.name, (3,)))
                     for players in counts]
        return turns + real_time

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> dict:
        """Every per-game and per-card metric the table reports, from the reference engine."""
        result = play_any(table.rules, list(table.strategies), seed, index)
        found = dict(zip(self.game_metrics, outcome(result), strict=True))
        return ({m: found[m] for m in self.game_metrics_of(table)}
                | card_outcome(result, len(self.item_names(table))))

    def replay(self, rules: RuleSet, seed: int, index: int, players: int | None = None,
               variant: str | None = None, strategy: str | None = None,
               level: str = "Lehrling", profile: str = "adult", **options: str) -> str:
        """The reference engine's move log of game ``index`` of ``seed``, as text."""
        players, variant = players or self.default_players, variant or "signals"
        if variant not in VARIANTS:
            raise InputError("--variant", "variant", f"{variant!r} is not allowed; allowed "
                                                     f"values: {', '.join(VARIANTS)}")
        baker = named_strategy(strategy or self.default_strategy)
        return self.replay_table(self.table(rules, players, [baker] * players, variant,
                                            level=level, profile=profile), seed, index)

    def replay_table(self, table: TableSpec, seed: int, index: int) -> str:
        """The move log of game ``index`` of ``seed`` at ``table``, bakers by seat."""
        engine = RealTimeGame if table.rules.timing is not None else TurnGame
        game = engine(table.rules, list(table.strategies), seed, index)
        result = game.play()
        bakers = table.strategies
        if len(set(bakers)) == 1:
            who = f"{bakers[0].name} bakers ({bakers[0].describe()})"
        else:
            who = "bakers " + ", ".join(f"{seat + 1}: {b.name}" for seat, b in enumerate(bakers))
        header = (f"{self.title}: seed {seed}, game {index}, {table.rules.level.name}, "
                  f"{table.players} baker(s), {table.variant}, {who}")
        return format_replay(table.rules, game, result, header)

    def seat_name(self, table: TableSpec, seat: int) -> SeatName:
        """``baker 1``: a team game's seats only take turns."""
        return SeatName(f"baker {seat + 1}")

    def add_commands(self, commands) -> None:
        """``cakesim speedtorte cards|check|daily|levels|budget``."""
        # The report and command modules are imported where they are used: a worker that
        # unpickles a table loads neither them nor the plotting library.
        from cakesim.games.speedtorte import cli

        cli.add_commands(commands, self)

    def experiment_sections(self) -> dict[str, Section]:
        """``[budgets]``: the Eilauftrag time budget per level for target win rates;
        ``[tiers]``: the answers across the bakers' skill tiers."""
        from cakesim.games.speedtorte import budget_report, tiers_report

        return {"budgets": budget_report, "tiers": tiers_report}

    def answers(self) -> dict:
        """``cards``: the levels' win rates, the hardest and easiest order cards and what
        the signal modes change."""
        from cakesim.games.speedtorte.report import cards_answer

        return {"cards": cards_answer}

    def summarise_items(self, runs: list) -> list[dict]:
        """Per order card: fulfilled share, placements to fulfil, share of losses."""
        from cakesim.games.speedtorte.report import card_summary

        return card_summary(runs)

    def items_markdown(self, summary: dict, out: Path) -> list[str]:
        """The report's section on order cards, hardest first."""
        from cakesim.games.speedtorte.report import cards_markdown

        return cards_markdown(summary, out)


GAME = Speedtorte()
