"""Topp die Torte! as the shared machinery sees it: tables, chunks, seat names, replays."""

import dataclasses
from typing import ClassVar

import numpy as np

from cakesim.engine.contract import Chunk, Game, ResultKind, SeatName, TableSpec
from cakesim.engine.errors import InputError
from cakesim.games.topp_die_torte import kernel, search
from cakesim.games.topp_die_torte.reference import Result, deal_groups, dealt_order, play_game
from cakesim.games.topp_die_torte.replay import end_position, format_replay, score_file
from cakesim.games.topp_die_torte.rules import (
    CHIP_BLOCK,
    END_CUBES,
    EXCHANGE_RULES,
    MISFIT_CUBES,
    MISS_BEYOND,
    NESTED,
    ORDERS,
    TILE_BLOCK,
    VARIANTS,
    RuleSet,
    TableRules,
    load_rules,
)
from cakesim.games.topp_die_torte.strategies import BUILTIN, PARAMETERS, Strategy, strategy_arrays
from cakesim.kits.bench import Benchmarked, BenchTarget
from cakesim.kits.replay import Replayable, Scorable
from cakesim.kits.strategies import TUNED, SearchPlayers, read_tuned
from cakesim.reports.hooks import ReportHooks


class ToppDieTorte(Game, SearchPlayers, Replayable, Scorable, Benchmarked, ReportHooks):
    """Topp die Torte! (RULES.md section 4)."""

    name = "topp-die-torte"
    title = "Topp die Torte!"
    rule_version = "1"
    result_kind = ResultKind.SEATS
    win_units = kernel.WIN_UNITS
    seat_metrics = tuple(m for m in kernel.SEAT_RESULTS if m != "win_units")
    game_metrics = kernel.GAME_RESULTS
    variants = VARIANTS
    rule_files: ClassVar[dict[str, str]] = {"rules": "path", "tiles": "tiles"}
    """Files an experiment may name: the rule set, and a tile list replacing the one it names."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {
        "order": ORDERS, "exchange_rule": EXCHANGE_RULES, "misfit_cubes": MISFIT_CUBES,
        "end_cubes": END_CUBES, "miss_beyond": MISS_BEYOND}
    round_name = ("layer", "layers")
    default_players = 4
    default_strategy = "greedy"
    strategy_names = (*BUILTIN, TUNED, *SearchPlayers.search_budgets)
    search_codes: ClassVar[dict[str, str]] = {"draft": "search"}
    skill_ladder = ("random", "greedy", TUNED)
    parameters = PARAMETERS
    tuning_base = "greedy"
    tuning_box: ClassVar[dict[str, tuple[float, float]]] = {
        "hedge": (0.0, 1.0), "exchange_weight": (0.0, 2.0), "golden_weight": (0.0, 4.0),
        "deny_weight": (0.0, 2.0), "top_weight": (-4.0, 4.0), "fill_weight": (-4.0, 4.0),
        "size_weight": (-4.0, 4.0)}
    """Weights relative to ``fit_weight`` (kept at 1: only ratios decide a tile or a jar).
    ``aim_error`` is the player's skill, not a choice, so the tuner leaves it alone."""
    bench_targets = (BenchTarget("greedy", rate=50_000.0, ratio=100.0, players=4),
                     BenchTarget("search", rate=10.0, ratio=0.9, players=4))
    table_options = ("luck",)
    option_defaults: ClassVar[dict[str, str]] = {"luck": "free"}
    """``luck = "nested"`` deals a table's tiles once per block of deals and its chips once
    per smaller block, for the ``[luck]`` section's split of the score's variance."""

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(Strategy.parse)

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Every variant exists at every player count."""
        return variant in VARIANTS

    def option_choices(self, rules: RuleSet, option: str) -> tuple[str, ...]:
        """``luck``: ``free`` (every deal its own) or ``nested`` (``luck_report``)."""
        return ("free", "nested")

    def table(self, rules: RuleSet, players: int, strategies: list, variant: str | None = None,
              duplicate: bool = False, label: str = "", luck: str = "free") -> TableSpec:
        """A table of ``players`` playing ``variant`` of ``rules``; ``luck = "nested"``
        shares tile deals and chip shuffles among blocks of deals (``luck_report``)."""
        variant = variant or self.variants[0]
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        table_rules = rules.for_table(players, variant)
        options: tuple[tuple[str, str], ...] = ()
        block = 1
        if luck == "nested":
            if not duplicate:
                # A deal's games rotate the seats only on duplicate deals; per-player shares
                # of a nested table read each deal's games as rotations.
                raise InputError("table", "luck", "'nested' is not allowed without duplicate "
                                                  "deals; allowed: luck = \"nested\" with "
                                                  "duplicate = true, or luck = \"free\"")
            table_rules = dataclasses.replace(table_rules, tile_repeat=TILE_BLOCK,
                                              chip_repeat=CHIP_BLOCK)
            # A tile block's deals share their tiles: one independent unit for intervals.
            options, block = (NESTED,), TILE_BLOCK
        return TableSpec(self, label or f"{players}P {variant} {names}", players, variant,
                         table_rules, tuple(strategies), duplicate, options, block)

    def experiment_sections(self) -> dict:
        """``[luck]``: how much skill and drafting matter against luck (``luck_report``);
        ``[values]``: what each die face, the die and the exchange jar are worth."""
        # Imported here, not above: a worker that unpickles a table loads no report code.
        from cakesim.games.topp_die_torte import luck_report, values_report

        return {"luck": luck_report, "values": values_report}

    def seat_name(self, table: TableSpec, seat: int) -> SeatName:
        """``first placer`` (who last ate cake), ``seat 2`` (places second), ..."""
        if table.rules.rotate:
            return SeatName("first placer" if seat == 0 else f"seat {seat + 1}",
                            f"places first in layers {self._led(table, seat)}")
        if seat == 0:
            return SeatName("first placer", "last ate cake: places first every round")
        return SeatName(f"seat {seat + 1}", f"places {_ordinal(seat + 1)}")

    @staticmethod
    def _led(table: TableSpec, seat: int) -> str:
        """The layers ``seat`` places first in when the first placer rotates."""
        return ", ".join(str(r + 1) for r in range(table.rules.rules.rounds)
                         if r % table.players == seat)

    # Strategies ------------------------------------------------------------------------
    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None) -> Strategy:
        """``random``, ``greedy``, ``tuned`` (the shipped tuned strategy for ``players``) or a
        search player on it (``search_budgets``)."""
        if name in self.search_budgets:
            return self.search_player(name, self.named_strategy(TUNED, players, variant))
        if name == TUNED:
            if players is None:
                raise InputError("strategy", name, "the tuned strategy is tuned for each "
                                                   "player count: give the players")
            return read_tuned(self, players, self.variants[0])
        if name not in BUILTIN:
            raise InputError("strategy", name, f"unknown strategy; built in: "
                                               f"{', '.join(self.strategy_names)}")
        return BUILTIN[name]

    def same_play(self, a: Strategy, b: Strategy, players: int) -> bool:
        """Equal codes and weights, defaults filled in."""
        return (np.array_equal(a.codes, b.codes) and np.array_equal(a.params, b.params))

    # Playing ---------------------------------------------------------------------------
    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        rules: TableRules = table.rules
        codes, params, aim = strategy_arrays(list(table.strategies), rules.rules.max_offset)
        shape = (games, table.players)
        seat = {m: np.zeros(shape, np.int16) for m in kernel.SEAT_RESULTS}
        game = {m: np.zeros(games, np.int16) for m in kernel.GAME_RESULTS}
        columns = seat | game
        rule_data, seats = kernel.rule_data(rules.arrays), kernel.Strategies(codes, params, aim)
        space = search.new_search_space(rule_data, seats) if self.searching(table) else None
        kernel.play_games(np.uint64(seed), first_game, table.duplicate, rule_data, seats,
                          kernel.Results(*(columns[m] for m in kernel.Results._fields)), space)
        return Chunk(first_game, seat, game)

    def _result(self, table: TableSpec, seed: int, index: int) -> Result:
        """The reference engine's game ``index`` at ``table``."""
        return play_game(table.rules, list(table.strategies), seed, index, table.duplicate)

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> dict:
        """Every metric of one game, from the reference engine."""
        result = self._result(table, seed, index)
        return ({m: tuple(int(x) for x in getattr(result, m)) for m in kernel.SEAT_RESULTS}
                | {m: int(getattr(result, m)) for m in kernel.GAME_RESULTS})

    def score_trajectory(self, table: TableSpec, seed: int, index: int) -> np.ndarray:
        """Every seat's points after each layer, the last layer's row after the end's golden
        cubes too (so that it is the final score: the end phase finishes the last layer)."""
        rows = self._result(table, seed, index).scores_by_round
        return np.array([*rows[:-2], rows[-1]])

    def bench_tables(self, rules: RuleSet) -> list[tuple[str, TableSpec]]:
        """Each built-in strategy and the tuned one at every seat, every player count; the
        search players at 2 and 4 players."""
        counts = range(rules.min_players, rules.max_players + 1)
        return [(name, self.table(rules, players, [self.named_strategy(name, players)] * players))
                for name in self.strategy_names
                for players in (counts if name not in self.search_budgets else (2, 4))]

    def searched_moves(self, table: TableSpec) -> int:
        """Picks per game made by search players: one a round each but the last, whose
        hand holds one tile."""
        return (table.rules.rules.rounds - 1) * sum(s.searches for s in table.strategies)

    # The deal --------------------------------------------------------------------------
    def dealt(self, table: TableSpec, seed: int, deal: int) -> np.ndarray:
        """The tiles in dealt order, then each metal's chips in drawing order."""
        return dealt_order(table.rules, seed, deal)

    def deal_groups(self, table: TableSpec) -> list[np.ndarray]:
        """The tile places, and each metal's pile: a fair shuffle treats each alike."""
        return deal_groups(table.rules)

    # Replays and score files -----------------------------------------------------------
    def replay_table(self, table: TableSpec, seed: int, index: int) -> str:
        """The move log of game ``index`` of ``seed`` at ``table``, strategies by seat."""
        return format_replay(table.rules.rules, self._result(table, seed, index),
                             self.replay_header(table, seed, index))

    def score_file(self, rules: RuleSet, path: str) -> dict:
        """Score a playtest's end position: every player's chips by metal, and stars."""
        return score_file(rules, path)

    def end_position(self, table: TableSpec, seed: int, index: int) -> dict:
        """Game ``index``'s end position, in the format ``score_file`` reads."""
        return end_position(table.rules.rules, self._result(table, seed, index))


def _ordinal(n: int) -> str:
    """``2nd``, ``3rd``, ``4th``."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"


GAME = ToppDieTorte()
