"""What every competitive game's adapter shares: tables, benchmarks, replays, seat names.

A game subclasses ``CompetitiveGame`` and names its own parts: the reference engine's
``play_game`` and ``format_replay``, its built-in strategies, and the words for its seats
(``first waiter``, who ``serves`` each ``cake``).
"""

from dataclasses import replace

from cakesim.games.base import Chunk, TableSpec


class CompetitiveGame:
    """Players score against each other; seat 0 starts. Subclasses set the attributes."""

    cooperative = False
    table_options = ()
    first_seat = "first player"
    """The name of seat 0 in the game's words, e.g. ``first waiter``."""
    round_name = ("round", "rounds")
    """What a seat takes charge of in turn, singular and plural (``cake``, ``cakes``)."""
    round_verb = "leads"
    default_players = 4
    default_strategy = "greedy"
    bench_strategies = ("greedy-balanced", "greedy", "random")

    def rounds(self, table: TableSpec) -> int:
        """How many rounds (cakes, pizzas) a game has at ``table``."""
        raise NotImplementedError

    def game_result(self, table_rules, strategies, seed: int, index: int, duplicate: bool):
        """The reference engine's result of one game."""
        raise NotImplementedError

    def result_totals(self, result) -> tuple:
        """Every seat's total in a reference result."""
        raise NotImplementedError

    def format_replay(self, rules, result, header: str) -> str:
        """A reference result's move log as text."""
        raise NotImplementedError

    def table(self, rules, players: int, strategies: list, variant: str = "base",
              duplicate: bool = False, label: str = "") -> TableSpec:
        """A table of ``players`` playing ``variant`` of ``rules``."""
        table_rules = rules.for_table(players, variant)
        names = "/".join(dict.fromkeys(s.name for s in strategies))
        label = label or f"{players}P {variant} {names}"
        return TableSpec(self.name, label, players, variant, table_rules, tuple(strategies),
                         duplicate)

    def same_play(self, a, b, players: int) -> bool:
        """Whether strategies ``a`` and ``b`` make the same moves at ``players`` players.

        Decided from the strategies alone, never from results: by default, when they are
        equal apart from the name. A game overrides this when different rules coincide at
        some player count.
        """
        return replace(a, name=b.name) == b

    def bench_tables(self, rules) -> list[tuple[str, TableSpec]]:
        """The benchmark's tables: each bench strategy at every seat, P = 2..5, base rules."""
        return [(name, self.table(rules, players, [self.named_strategy(name)] * players))
                for name in self.bench_strategies for players in (2, 3, 4, 5)]

    def reference_outcome(self, table: TableSpec, seed: int, index: int) -> tuple:
        """Every seat's total, from the reference engine."""
        return tuple(self.result_totals(self.game_result(
            table.rules, list(table.strategies), seed, index, table.duplicate)))

    def kernel_outcome(self, chunk: Chunk, game: int) -> tuple:
        """Every seat's total of game ``game`` of a kernel chunk."""
        return tuple(int(x) for x in chunk.seat["total"][game])

    def replay(self, rules, seed: int, index: int, players: int | None = None,
               variant: str | None = None, strategy: str | None = None) -> str:
        """The reference engine's move log of game ``index`` of ``seed``, as text."""
        players, variant = players or self.default_players, variant or "base"
        chosen = self.named_strategy(strategy or self.default_strategy)
        result = self.game_result(rules.for_table(players, variant), [chosen] * players, seed,
                                  index, False)
        header = (f"{self.title}: seed {seed}, game {index}, {players} players, {variant} "
                  f"rules, {chosen.name} at every seat ({chosen.describe()})")
        return self.format_replay(rules, result, header)

    def seat_role(self, table: TableSpec, seat: int) -> str:
        """``first waiter (cakes 1, 5)``, ``seat 2 (cake 2)``: who leads which rounds."""
        led = [str(r + 1) for r in range(self.rounds(table)) if r % table.players == seat]
        name = self.first_seat if seat == 0 else f"seat {seat + 1}"
        one, many = self.round_name
        if not led:
            return f"{name} ({self.round_verb} no {one})"
        return f"{name} ({many if len(led) > 1 else one} {', '.join(led)})"
