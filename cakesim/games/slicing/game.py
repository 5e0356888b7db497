"""What the two slicing games' adapters share: tables, replays, benchmarks, seat names.

Piece o' Cake and La Part du Chef are played in rounds (cakes, pizzas) that the seats
take charge of in turn, starting from seat 0. A game subclasses ``SlicingGame`` (an
abstract class on top of the core contract, with the tuning, replay, score, bench and
report capabilities) and writes its own parts: the abstract methods below (``rounds``,
the reference engine's ``game_result``, its ``result_metrics``, ``format_replay`` and
``position_of``), and the class attributes ``builtin`` and ``parameters`` (its built-in
strategies and weights), ``tuning_box`` and the words for its seats (``first_seat``,
``round_verb`` and ``round_name``: the ``first waiter``, who ``serves`` each ``cake``).
"""

import dataclasses
from abc import abstractmethod
from typing import ClassVar

import numpy as np

from cakesim.engine.contract import Game, ResultKind, SeatName, TableSpec
from cakesim.engine.errors import InputError
from cakesim.kits.bench import Benchmarked
from cakesim.kits.replay import Replayable, Scorable
from cakesim.kits.strategies import TUNED, SearchPlayers, read_tuned
from cakesim.reports.hooks import ReportHooks

LOOKAHEAD = "lookahead"
"""The name of the lookahead choice of a cutter or chooser code, and of the built-in
strategy that makes both."""


class SlicingGame(Game, SearchPlayers, Replayable, Scorable, Benchmarked, ReportHooks):
    """Players score against each other in rounds led by each seat in turn."""

    result_kind = ResultKind.SEATS
    first_seat: ClassVar[str] = "first player"
    """The name of seat 0 in the game's words, e.g. ``first waiter``."""
    round_verb: ClassVar[str] = "leads"
    default_players = 4
    default_strategy = "greedy"
    bench_strategies: ClassVar[tuple[str, ...]] = ("greedy-balanced", "greedy", "random",
                                                   TUNED, "search")
    builtin: ClassVar[dict]
    """The built-in strategies that do not depend on the player count, by name."""
    tuning_base = "greedy-balanced"
    tuned_variants: ClassVar[tuple[str, ...]] = ()
    """The variants with tuned strategies of their own; the others play the base
    variant's (a variant whose decisions the base game already has, e.g. one more slice
    to choose)."""
    TREE_DEPTH: ClassVar[float] = 8.0
    """The depth of the tree searcher the benchmark times beside the flat ones."""
    search_codes: ClassVar[dict[str, str]] = {"chooser": "search", "cutter": "search"}
    lookahead_cutters: ClassVar[dict[str, str]] = {LOOKAHEAD: LOOKAHEAD}
    """The built-in lookahead players, each the tuned strategy choosing by lookahead, by
    name: the cutter code each cuts with (a game with a further lookahead cutter adds its
    player here)."""
    skill_ladder = ("random", "greedy", TUNED, *SearchPlayers.search_budgets)

    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None):
        """A built-in strategy, or ``tuned``: the shipped tuned strategy for ``players``
        (and ``variant``, if it is one of ``tuned_variants``; else the base variant's), a
        search player (``search_budgets``) or a lookahead player on it
        (``lookahead_cutters``)."""
        if name in self.lookahead_cutters:
            return dataclasses.replace(self.named_strategy(TUNED, players, variant),
                                       name=name, chooser=LOOKAHEAD,
                                       cutter=self.lookahead_cutters[name])
        if name in self.search_budgets:
            return self.search_player(name, self.named_strategy(TUNED, players, variant))
        if name == TUNED:
            if players is None:
                raise InputError("strategy", name, "the tuned strategy is tuned for each "
                                                   "player count: give the players")
            tuned_for = variant if variant in self.tuned_variants else self.variants[0]
            return read_tuned(self, players, tuned_for)
        if name not in self.builtin:
            raise InputError("strategy", name, f"unknown strategy; built in: "
                                               f"{', '.join(self.strategy_names)}")
        return self.builtin[name]

    def searched_moves(self, table: TableSpec) -> int:
        """Cuts and choices per game made by search players (strategies by seat)."""
        rounds, seats = self.rounds(table), table.strategies
        cuts = sum(seats[self.leader(table, r)].cutter == "search" for r in range(rounds))
        return cuts + rounds * sum(s.chooser == "search" for s in seats)

    @abstractmethod
    def rounds(self, table: TableSpec) -> int:
        """How many rounds (cakes, pizzas) a game has at ``table``."""

    def leader(self, table: TableSpec, index: int) -> int:
        """The seat in charge of round ``index`` (0-based): seat 0 first, then in turn."""
        return index % table.players

    @abstractmethod
    def game_result(self, table_rules, strategies, seed: int, index: int, duplicate: bool):
        """The reference engine's result of one game."""

    @abstractmethod
    def result_metrics(self, table: TableSpec, result) -> dict:
        """Every metric of a reference result, keyed as the kernel's chunk is."""

    @abstractmethod
    def format_replay(self, rules, result, header: str) -> str:
        """A reference result's move log as text."""

    @abstractmethod
    def position_of(self, rules, result) -> dict:
        """A reference result's end position, in the format ``score_file`` reads."""

    def end_position(self, table: TableSpec, seed: int, index: int) -> dict:
        """Game ``index``'s end position from the reference engine (for ``score_file``)."""
        return self.position_of(table.rules.rules, self.game_result(
            table.rules, list(table.strategies), seed, index, table.duplicate))

    def table(self, rules, players: int, strategies: list, variant: str | None = None,
              duplicate: bool = False, label: str = "", **options: str) -> TableSpec:
        """A table of ``players`` playing ``variant`` of ``rules``."""
        variant = variant or self.variants[0]
        table_rules = rules.for_table(players, variant)
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        label = label or f"{players}P {variant} {names}"
        return TableSpec(self, label, players, variant, table_rules, tuple(strategies),
                         duplicate)

    def bench_tables(self, rules) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables: each bench strategy at every seat, every player count;
        then every other search budget, the search with a tree (``TREE_DEPTH``) and the
        lookahead players, at 2 and 4 players."""
        tables = [(name, self.table(rules, players, [self.named_strategy(name, players)] * players))
                  for name in self.bench_strategies
                  for players in range(rules.min_players, rules.max_players + 1)]
        for players in (2, 4):
            deeper = [self.named_strategy(name, players) for name in self.search_budgets
                      if name not in self.bench_strategies]
            tree = f"search, depth {self.TREE_DEPTH:g}"
            deeper.append(self.with_weights(self.named_strategy("search", players), tree,
                                            {"depth": self.TREE_DEPTH}))
            deeper += [self.named_strategy(name, players) for name in self.lookahead_cutters]
            tables += [(s.name, self.table(rules, players, [s] * players)) for s in deeper]
        return tables

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> dict:
        """Every metric of one game, from the reference engine."""
        return self.result_metrics(table, self.game_result(
            table.rules, list(table.strategies), seed, index, table.duplicate))

    def score_trajectory(self, table: TableSpec, seed: int, index: int) -> np.ndarray:
        """Every seat's score after each cake or pizza, from the reference engine."""
        return np.array(self.game_result(table.rules, list(table.strategies), seed, index,
                                         table.duplicate).scores_by_round)

    def replay_table(self, table: TableSpec, seed: int, index: int) -> str:
        """The move log of game ``index`` of ``seed`` at ``table``, strategies by seat."""
        result = self.game_result(table.rules, list(table.strategies), seed, index,
                                  table.duplicate)
        return self.format_replay(table.rules.rules, result,
                                  self.replay_header(table, seed, index))

    def seat_name(self, table: TableSpec, seat: int) -> SeatName:
        """``first waiter`` who serves ``cakes 1, 5``, ``seat 2`` (``cake 2``), ..."""
        led = [str(r + 1) for r in range(self.rounds(table)) if self.leader(table, r) == seat]
        name = self.first_seat if seat == 0 else f"seat {seat + 1}"
        one, many = self.round_name
        if not led:
            return SeatName(name, f"{self.round_verb} no {one}")
        return SeatName(name, f"{many if len(led) > 1 else one} {', '.join(led)}")
