"""Piece o' Cake as the shared machinery sees it: tables, chunks, seat names, replays."""

import dataclasses
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from cakesim.engine.contract import Chunk, TableSpec
from cakesim.games.piece_o_cake import kernel
from cakesim.games.piece_o_cake.fitted import (
    FITTED_CHOICE,
    fitted_policies,
    policy_file,
    policy_shape,
)
from cakesim.games.piece_o_cake.reference import dealt_order, play_game
from cakesim.games.piece_o_cake.replay import end_position, format_replay, score_file
from cakesim.games.piece_o_cake.rules import VARIANTS, RuleSet, load_rules, variant_parts
from cakesim.games.piece_o_cake.strategies import (
    BUILTIN,
    PARAMETERS,
    Strategy,
)
from cakesim.games.slicing.circle import cut_table
from cakesim.games.slicing.game import LOOKAHEAD, SlicingGame
from cakesim.games.slicing.tabletop import WIN_UNITS
from cakesim.kits.bench import BenchTarget
from cakesim.kits.policy import Examples, Trainable
from cakesim.kits.strategies import TUNED, read_tuned, tuned_path

LOOKAHEAD2 = "lookahead2"
"""The built-in strategy that chooses by lookahead and cuts by the two-ply lookahead."""

FITTED_SEARCH = "fitted-search"
"""The built-in strategy that chooses by its fitted network and cuts by the search
(``search``'s iterations), its play-outs chosen by that network at every seat."""


@cache
def _cut_masks(slices: int, most: int) -> np.ndarray:
    return cut_table(slices, most)


class PieceOCake(SlicingGame, Trainable):
    """Piece o' Cake (RULES.md section 1)."""

    name = "piece-o-cake"
    title = "Piece o' Cake"
    rule_version = "1"
    first_seat = "first waiter"
    round_name = ("cake", "cakes")
    round_verb = "serves"
    win_units = WIN_UNITS
    seat_metrics = ("total", "majority", "cream")
    game_metrics = ("declines", "passes", "discarded", "eaten_slices", "collected_slices",
                    "swaps", "joker_eaten", "joker_placed")
    joker_metrics = ("swaps", "joker_eaten", "joker_placed")
    """Per game: joker swaps, and rounds that ended with the joker eaten or on a pile."""
    variants = VARIANTS
    bench_targets = (BenchTarget("greedy-balanced", rate=200_000.0, ratio=300.0),
                     BenchTarget("tuned", rate=100_000.0, ratio=300.0, players=4),
                     BenchTarget("search", rate=100.0, ratio=1.0, players=4),
                     BenchTarget("search-deep", rate=50.0, ratio=1.0, players=4),
                     BenchTarget("search, depth 8", rate=100.0, ratio=1.0, players=4),
                     BenchTarget(LOOKAHEAD, rate=20_000.0, ratio=1.0, players=4),
                     BenchTarget(LOOKAHEAD2, rate=20_000.0, ratio=1.0, players=4),
                     BenchTarget(FITTED_CHOICE, rate=20_000.0, ratio=300.0, players=4),
                     BenchTarget(FITTED_SEARCH, rate=20_000.0, ratio=1.0, players=4))
    """Issue 2's targets (greedy-balanced at every seat, P = 2..5), issue 13's (the tuned
    bot at 4 players: a +-0.5 pp first_player_bias in about a minute on 2 cores), issue
    14's (the search player at every seat, 4 players: a 5,000-game skill row in under a
    minute on 2 cores) and issue 30's (``search-deep``, 300 iterations, and the search
    with a tree at 100, the skill trace's levels until 2026-12-06: the trace's cost grows
    with the iterations from there, so that the whole trace stays within an hour on 2
    cores). The reference engine runs the search compiled too (see ``reference.py``), so
    the search's ratio only asks that the kernel be no slower. The lookahead players' rate
    is issue 30's for a headline population (>= 20,000 games/s per core at 4 players);
    today the lookahead plays about 300 and the two-ply lookahead about 150
    (docs/piece_o_cake.md). The fitted chooser (the tuned bot choosing by its network) has
    the same rate to meet, and the tuned bot's ratio: its reference engine evaluates the
    network in plain Python. ``fitted-search``, the fitted chooser searching its cuts, is
    a candidate for that population too (about 100 games/s at 4 players, 2026-12-06), with
    the search's ratio; the skill trace's levels are it with a tree (about 5 % slower) at
    100 to 800 iterations."""
    rule_files: ClassVar[dict[str, str]] = {"rules": "path"}
    """Files an experiment may name (``rules = "..."``), and their ``load_rules`` keyword."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {"tie_rule": ("full", "none")}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(Strategy.parse)
    builtin = BUILTIN
    parameters = PARAMETERS
    tuning_box: ClassVar[dict[str, tuple[float, float]]] = {
        "collect_weight": (0.0, 8.0), "deny_weight": (0.0, 8.0), "uncertainty": (0.0, 2.0),
        "decline_threshold": (-4.0, 12.0)}
    """Weights relative to ``eat_weight`` (kept at 1: only their ratios decide a move)."""
    tuned_variants = ("base",)
    """The compensation variant adds one decision of a kind the base game has (which
    set-aside slice to keep, valued as any slice), and rounds add none: their tables play
    the base tuning. The joker's weights are tuned in the joker variant (``tuning_start``)
    and join the base tuning in every variant (``named_strategy``)."""
    joker_box: ClassVar[dict[str, tuple[float, float]]] = {
        "joker_eat_bias": (-6.0, 6.0), "swap_threshold": (-6.0, 6.0)}
    """The joker's weights a tuning in a joker variant searches (in points)."""
    score_file = staticmethod(score_file)
    position_of = staticmethod(end_position)
    lookahead_cutters: ClassVar[dict[str, str]] = {LOOKAHEAD: LOOKAHEAD, LOOKAHEAD2: LOOKAHEAD2}
    """The lookahead player, and the two-ply one: the same chooser cutting by ``lookahead2``."""
    strategy_names = (*BUILTIN, TUNED, FITTED_CHOICE, *lookahead_cutters,
                      *SlicingGame.search_budgets, FITTED_SEARCH)

    teacher = LOOKAHEAD2
    """The fitted chooser learns the lookahead chooser's values in two-ply lookahead
    self-play: the population no challenger of reports/exploitability beat by more than
    3 pp at 2 to 4 players."""

    def training_examples(self, players: int, seed: int, first_game: int, games: int,
                          learner: np.ndarray | None = None) -> Examples:
        """The lookahead chooser's value of every candidate move (``training.py``), in
        games of the base rules: ``teacher`` at every seat or, given a ``learner``, the
        learner's tables (``learner_tables``), game by game in turn."""
        from cakesim.games.piece_o_cake.training import lookahead_examples

        teacher = self._teacher_table(players)
        a = teacher.rules.arrays
        rules = kernel.rule_data(a, _cut_masks(a["slices_per_cake"], a["portion_limit"]))
        if learner is None:
            codes, params = Strategy.arrays(teacher.strategies)
            return Examples(*lookahead_examples(seed, first_game, games, False, rules, codes,
                                                params, np.zeros((players, 0))))
        tables = [(*Strategy.arrays(seats),
                   np.stack([learner if s.chooser == FITTED_CHOICE else np.zeros_like(learner)
                             for s in seats]))
                  for seats in self.learner_tables(players)]
        return Examples.joined([
            Examples(*lookahead_examples(seed, g, 1, False, rules, *tables[g % len(tables)]))
            for g in range(first_game, first_game + games)])

    def learner_tables(self, players: int) -> list[list[Strategy]]:
        """The tables of a later round of expert iteration: the learner (``fitted``) at
        every seat, and the learner and ``tuned`` in turn around the table, so that its
        examples come from the positions its own cuts and choices, and the tuned bot's,
        lead to (its first round saw only the teacher's)."""
        fitted, tuned = (self.named_strategy(n, players) for n in (FITTED_CHOICE, TUNED))
        return [[fitted] * players, [(fitted, tuned)[seat % 2] for seat in range(players)]]

    def policy_shape(self, players: int) -> dict[str, int]:
        """The fitted chooser's network at ``players`` in the base rules (``fitted.py``)."""
        return policy_shape(players, self._teacher_table(players).rules.kinds_in_play)

    def _teacher_table(self, players: int) -> TableSpec:
        """The base rules with ``teacher`` at every seat."""
        return self.table(self.load_rules(), players,
                          [self.named_strategy(self.teacher, players)] * players,
                          self.variants[0])

    def shipped_policy(self, players: int) -> Path:
        """``policies/Pp.toml`` beside this module."""
        return policy_file(players)

    def tuning_start(self, players: int, variant: str):
        """In a joker variant: the tuned strategy, its joker weights searched (so that one
        tuned player, the same at every table, plays both games); else the default."""
        if not variant_parts(variant).joker:
            return super().tuning_start(players, variant)
        return read_tuned(self, players, "base"), self.joker_box

    def named_strategy(self, name: str, players: int | None = None,
                       variant: str | None = None):
        """As every slicing game's; ``tuned`` also takes the joker weights tuned in the
        joker variant (``tuned/Pp-joker.toml``), where that tuning was shipped,
        ``fitted`` is the tuned bot choosing by its fitted network (``policies/``) and
        ``fitted-search`` is ``fitted`` searching its cuts with ``search``'s iterations."""
        if name == FITTED_CHOICE:
            # The tuned bot whose choices its fitted network makes (fitted.py).
            return dataclasses.replace(self.named_strategy(TUNED, players, variant),
                                       name=name, chooser=FITTED_CHOICE)
        if name == FITTED_SEARCH:
            fitted = self.named_strategy(FITTED_CHOICE, players, variant)
            searching = self.with_weights(fitted, name, {"iterations": float(
                self.search_budgets["search"])})
            return dataclasses.replace(searching, cutter=self.search_codes["cutter"])
        strategy = super().named_strategy(name, players, variant)
        if name != TUNED or not tuned_path(self, players, "joker").exists():
            return strategy
        joker = self.weights_of(read_tuned(self, players, "joker"))
        return self.with_weights(strategy, strategy.name, {w: joker[w] for w in self.joker_box})

    def game_metrics_of(self, table: TableSpec) -> tuple[str, ...]:
        """The per-game metrics a table reports: the joker's only where it is in the box."""
        return tuple(m for m in self.game_metrics
                     if table.rules.joker or m not in self.joker_metrics)

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Whether ``variant`` exists at a table of ``players``."""
        return not variant_parts(variant).compensation or rules.has_compensation(players)

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        a = table.rules.arrays
        codes, params = Strategy.arrays(table.strategies)
        policy = fitted_policies([s.chooser for s in table.strategies],
                                 a["majority_value"].shape[0])
        shape = (games, table.players)
        seat = {m: np.zeros(shape, np.int16) for m in (*self.seat_metrics, "win_units")}
        game = {m: np.zeros(games, np.int16) for m in self.game_metrics}
        rules = kernel.rule_data(a, _cut_masks(a["slices_per_cake"], a["portion_limit"]))
        # The output bundle's fields are named as the metrics.
        kernel.play_games(np.uint64(seed), first_game, table.duplicate, rules, codes, params,
                          policy, kernel.Results(**seat, **game), self.searching(table))
        return Chunk(first_game, seat, {m: game[m] for m in self.game_metrics_of(table)})

    def bench_tables(self, rules) -> list[tuple[str, TableSpec]]:
        """Every slicing game's, the fitted chooser at every seat, 2 and 4 players, and
        ``fitted-search`` at every seat, 4 players."""
        fitted = [(FITTED_CHOICE, 2), (FITTED_CHOICE, 4), (FITTED_SEARCH, 4)]
        return [*super().bench_tables(rules),
                *((name, self.table(rules, players, [self.named_strategy(name, players)]
                                    * players)) for name, players in fitted)]

    def dealt(self, table: TableSpec, seed: int, deal: int) -> np.ndarray:
        """The slices in stack order (cakes one after another, then the set-aside ones)."""
        return dealt_order(table.rules, seed, deal)

    def rounds(self, table: TableSpec) -> int:
        """Five cakes (the rule set's count) in every round."""
        return table.rules.rules.cakes * table.rules.rounds

    def leader(self, table: TableSpec, index: int) -> int:
        """The waiter of the game's cake ``index`` (0-based, over every round): the
        round's first waiter sits left of the last round's."""
        cakes = table.rules.rules.cakes
        return (index // cakes + index % cakes) % table.players

    def game_result(self, table_rules, strategies, seed, index, duplicate):
        """The reference engine's result of one game."""
        return play_game(table_rules, strategies, seed, index, duplicate)

    def result_metrics(self, table: TableSpec, result) -> dict:
        """Every metric of a reference result, counted from its scores and move log."""
        actions = [m.action for m in result.log]
        seats = {"total": result.total, "majority": result.majority, "cream": result.cream,
                 "win_units": result.win_units}
        per_game = {
            "declines": actions.count("decline"), "passes": actions.count("pass"),
            "discarded": sum(len(m.slices) for m in result.log if m.action == "discard"),
            "eaten_slices": result.eaten_slices, "collected_slices": result.collected_slices,
            "swaps": actions.count("swap"), "joker_eaten": result.joker_eaten,
            "joker_placed": result.joker_placed}
        return {m: tuple(int(x) for x in v) for m, v in seats.items()} | {
            m: per_game[m] for m in self.game_metrics_of(table)}

    def format_replay(self, rules, result, header: str) -> str:
        """A reference result's move log as text."""
        return format_replay(rules, result, header)


GAME = PieceOCake()
