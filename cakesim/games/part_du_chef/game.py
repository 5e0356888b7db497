"""La Part du Chef as the shared machinery sees it: tables, chunks, seat names, replays."""

from typing import ClassVar

import numpy as np

from cakesim.engine.contract import Chunk, TableSpec
from cakesim.games.part_du_chef import kernel
from cakesim.games.part_du_chef.reference import dealt_order, play_game
from cakesim.games.part_du_chef.replay import end_position, format_replay, score_file
from cakesim.games.part_du_chef.rules import (
    PEPPER_ASSIGNMENTS,
    RECEIPT_POINTS,
    VARIANTS,
    RuleSet,
    load_rules,
)
from cakesim.games.part_du_chef.strategies import (
    BUILTIN,
    KIND_LEADER,
    PARAMETERS,
    SCORE_LEADER,
    THIEF,
    Strategy,
)
from cakesim.games.slicing.game import LOOKAHEAD, SlicingGame
from cakesim.kits.bench import BenchTarget
from cakesim.kits.strategies import TUNED


class PartDuChef(SlicingGame):
    """La Part du Chef (RULES.md section 2)."""

    name = "part-du-chef"
    title = "La Part du Chef"
    rule_version = "1"
    first_seat = "first chef"
    round_name = ("pizza", "pizzas")
    round_verb = "cuts"
    win_units = kernel.WIN_UNITS
    seat_metrics = ("total", "majority", "olives", "slices", "diversity", "burnt")
    game_metrics = ("steals", "empty_steals", "finishers_eaten", "eaten_slices",
                    "marianne_used", "marianne_pizza")
    variants = VARIANTS
    bench_targets = (BenchTarget("tuned", rate=20_000.0, ratio=100.0, players=4),
                     BenchTarget("search", rate=40.0, ratio=0.9, players=4),
                     BenchTarget("search-deep", rate=12.0, ratio=0.9, players=4),
                     BenchTarget("search, depth 8", rate=35.0, ratio=0.9, players=4),
                     BenchTarget(LOOKAHEAD, rate=20_000.0, ratio=0.9, players=4))
    """Issue 30's: the headline (tuned) bot at 4 players at 20,000 games/s per core, and
    the search players the skill trace and the exploitability test play (measured on an
    idle core: about 49,000, 50, 17 and 47). The reference engine runs the search compiled
    too, so a search game costs both engines about the same: the ratio asks only that the
    kernel be no slower, less the timing noise of a few seconds' run. The lookahead's rate
    is the headline population's (docs/part_du_chef.md gives what it plays today)."""
    rule_files: ClassVar[dict[str, str]] = {"rules": "path"}
    """Files an experiment may name (``rules = "..."``), and their ``load_rules`` keyword."""
    rule_overrides: ClassVar[dict[str, tuple[str, ...]]] = {
        "receipt_point": RECEIPT_POINTS, "pepper_assignment": PEPPER_ASSIGNMENTS}

    load_rules = staticmethod(load_rules)
    parse_strategy = staticmethod(Strategy.parse)
    builtin = BUILTIN
    parameters = PARAMETERS
    tuning_box: ClassVar[dict[str, tuple[float, float]]] = {
        "majority_weight": (0.0, 6.0), "deny_weight": (0.0, 6.0),
        "diversity_weight": (0.0, 4.0), "uncertainty": (0.0, 2.0),
        "burnt_weight": (0.0, 4.0), "pepper_worth": (0.0, 8.0),
        "marianne_threshold": (0.0, 40.0), "spite": (0.0, 2.0),
        "finisher_bias": (-10.0, 10.0)}
    """Weights relative to ``eat_weight`` (kept at 1: only their ratios decide a move). A
    threshold above any gain La Marianne can bring holds it for the holder's last turn."""
    tuned_variants = ("base", "marianne")
    """La Marianne's weights (its threshold, ``spite``, ``pepper_worth``) decide nothing in
    the base game, so the variant has a tuning of its own."""
    score_file = staticmethod(score_file)
    position_of = staticmethod(end_position)
    strategy_names = (*BUILTIN, TUNED, LOOKAHEAD, *SlicingGame.search_budgets)

    def response_families(self, variant: str) -> list[dict[str, str]]:
        """Without La Marianne its code decides nothing: only the base's choice is kept."""
        families = super().response_families(variant)
        if variant == "marianne":
            return families
        kept = self.builtin[self.tuning_base].marianne
        return [f for f in families if f["marianne"] == kept]

    def game_metrics_of(self, table: TableSpec) -> tuple[str, ...]:
        """The per-game metrics a table reports: La Marianne's only when it is in play."""
        if table.rules.marianne:
            return self.game_metrics
        return tuple(m for m in self.game_metrics if not m.startswith("marianne"))

    def has_variant(self, rules: RuleSet, players: int, variant: str) -> bool:
        """Every variant exists at every player count."""
        return variant in VARIANTS

    def play_chunk(self, table: TableSpec, seed: int, first_game: int, games: int) -> Chunk:
        """Play games ``first_game .. first_game + games`` with the Numba kernel."""
        codes, params = Strategy.arrays(table.strategies)
        # The seat rows are the kernel's to fill: it seats the players for every game.
        strategies = kernel.Strategies(codes, params, np.empty_like(codes),
                                       np.empty_like(params))
        shape = (games, table.players)
        seat = {m: np.zeros(shape, np.int16) for m in (*self.seat_metrics, "win_units")}
        game = {m: np.zeros(games, np.int16) for m in self.game_metrics}
        columns = seat | game
        kernel.play_games(np.uint64(seed), first_game, table.duplicate,
                          kernel.table_rules(table.rules), strategies,
                          kernel.Results(*(columns[m] for m in kernel.Results._fields)),
                          self.searching(table))
        game["marianne_used"][:] = game["marianne_pizza"] > 0
        metrics = self.game_metrics_of(table)
        return Chunk(first_game, seat, {m: v for m, v in game.items() if m in metrics})

    def dealt(self, table: TableSpec, seed: int, deal: int) -> np.ndarray:
        """The slices of every pizza, one pizza after another."""
        return dealt_order(table.rules, seed, deal)

    def deal_groups(self, table: TableSpec) -> list[np.ndarray]:
        """Each pizza's places: pizza k always gets burnt slice k (RULES.md s2 "Deal")."""
        n = table.rules.rules.slices_per_pizza
        return [np.arange(p * n, (p + 1) * n) for p in range(table.rules.rules.pizzas)]

    def same_play(self, a, b, players: int) -> bool:
        """Equal codes and weights; at 2 players the kind-leader and score-leader thieves too.

        With one opponent both thieves rob that opponent whenever it keeps the kind, and
        neither draws a random number (``strategies.choose_victim``); the thief code is read
        nowhere else. Weights are compared with the defaults filled in.
        """
        def codes(strategy) -> np.ndarray:
            found = strategy.codes
            if players == 2 and found[THIEF] == SCORE_LEADER:
                found[THIEF] = KIND_LEADER
            return found

        return (np.array_equal(codes(a), codes(b))
                and np.array_equal(a.params, b.params))

    def rounds(self, table: TableSpec) -> int:
        """Five pizzas (the rule set's count)."""
        return table.rules.rules.pizzas

    def game_result(self, table_rules, strategies, seed, index, duplicate):
        """The reference engine's result of one game."""
        return play_game(table_rules, strategies, seed, index, duplicate)

    def result_metrics(self, table: TableSpec, result) -> dict:
        """Every metric of a reference result, counted from its score sheet and move log."""
        sheet = result.sheet
        actions = [m.action for m in result.log]
        seats = {"total": sheet.total, "majority": sheet.majority, "olives": sheet.olives,
                 "slices": sheet.slices, "diversity": sheet.diversity, "burnt": sheet.burnt,
                 "win_units": sheet.win_units}
        metrics = {m: tuple(int(x) for x in v) for m, v in seats.items()} | {
            "steals": actions.count("steal"), "empty_steals": actions.count("empty-steal"),
            "finishers_eaten": sum(eaten and piece.finisher for m in result.log
                                   if m.action == "take" for piece, eaten in m.slices),
            "eaten_slices": sum(len(p.eaten) for p in result.players)}
        if table.rules.marianne:
            marianne = [m.pizza + 1 for m in result.log if m.action == "marianne"]
            metrics["marianne_used"] = len(marianne)
            metrics["marianne_pizza"] = marianne[0] if marianne else 0
        return metrics

    def format_replay(self, rules, result, header: str) -> str:
        """A reference result's move log as text."""
        return format_replay(rules, result, header)


GAME = PartDuChef()
