"""High card on the game contract: every member the shared machinery may call."""

from pathlib import Path

import numpy as np

from cakesim.engine.contract import Chunk, Game, ResultKind, SeatName, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_json
from cakesim.kits.bench import Benchmarked
from cakesim.kits.replay import Replayable, Scorable
from tests.conformance.high_card import kernel
from tests.conformance.high_card.reference import THRESHOLD, Strategy, play_game, score
from tests.conformance.high_card.rules import RuleSet, load_rules

BUILTIN = {"keep": Strategy("keep"), "redraw": Strategy("redraw", weights=(("threshold", 6.0),))}


class HighCard(Game, Replayable, Scorable, Benchmarked):
    """High card: the highest card wins."""

    name = "high-card"
    title = "High card"
    rule_version = "1"
    result_kind = ResultKind.SEATS
    win_units = kernel.WIN_UNITS
    seat_metrics = ("total",)
    game_metrics = ("redraws",)
    variants = ("base",)
    default_players = 2
    default_strategy = "keep"
    strategy_names = tuple(BUILTIN)

    def load_rules(self, path: str | None = None) -> RuleSet:
        """The deck and player range, from ``path`` or the published file."""
        return load_rules(path)

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """One variant only."""
        return variant == "base"

    def table(self, rules: RuleSet, players: int, strategies: list, variant: str | None = None,
              duplicate: bool = False, label: str = "", **options: str) -> TableSpec:
        """``players`` players with one strategy each."""
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        return TableSpec(self, label or f"{players}P {names}", players, variant or "base",
                         rules, tuple(strategies), duplicate)

    def seat_name(self, table: TableSpec, seat: int) -> SeatName:
        """Seats only differ in who decides first."""
        return SeatName("first player" if seat == 0 else f"seat {seat + 1}")

    parse_strategy = staticmethod(Strategy.parse)

    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None) -> Strategy:
        """``keep`` or ``redraw``."""
        if name not in BUILTIN:
            raise InputError("strategy", name, f"unknown; built in: {', '.join(BUILTIN)}")
        return BUILTIN[name]

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game ..`` with the kernel."""
        shape = (games, table.players)
        seat = {"total": np.zeros(shape, np.int16), "win_units": np.zeros(shape, np.int16)}
        game = {"redraws": np.zeros(games, np.int16)}
        (params,) = Strategy.arrays(table.strategies)
        thresholds = params[:, THRESHOLD].astype(np.int64)
        kernel.play_games(np.uint64(seed), first_game, table.duplicate, table.rules.deck,
                          table.rules.first_bonus, thresholds, seat["total"],
                          seat["win_units"], game["redraws"])
        return Chunk(first_game, seat, game)

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> dict:
        """The reference engine's cards, win units and redraws."""
        result = play_game(table.rules, list(table.strategies), seed, index, table.duplicate)
        return {"total": tuple(result.total), "win_units": tuple(result.win_units),
                "redraws": result.redraws}

    def dealt(self, table: TableSpec, seed: int, deal: int) -> np.ndarray:
        """The shuffled deck."""
        return kernel.deal(np.uint64(seed), deal, table.rules.deck)

    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """Each built-in strategy at 2 players."""
        return [(n, self.table(rules, 2, [BUILTIN[n]] * 2)) for n in BUILTIN]

    def replay_table(self, table: TableSpec, seed: int, index: int) -> str:
        """The reference engine's log of one game."""
        result = play_game(table.rules, list(table.strategies), seed, index, table.duplicate)
        return "\n".join([self.replay_header(table, seed, index), *result.log])

    def end_position(self, table: TableSpec, seed: int, index: int) -> dict:
        """Every seat's kept card."""
        result = play_game(table.rules, list(table.strategies), seed, index, table.duplicate)
        return {"cards": result.total}

    def score_file(self, rules: RuleSet, path: str) -> dict:
        """Score ``{"cards": [...]}``."""
        top = Table(read_json(Path(path), "score"), str(path))
        top.only(["cards"])
        cards = top.int_list("cards", 1, max(rules.values))
        units = score(cards, rules.first_bonus)
        return {"scores": cards, "winners": [s for s, w in enumerate(units) if w]}


GAME = HighCard()
