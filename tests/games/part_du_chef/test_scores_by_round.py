"""The score after each pizza (``Result.scores_by_round``), on the reference engine."""

import itertools
from dataclasses import replace

import pytest

from cakesim.games.part_du_chef.reference import Game, deal_game, score_sheet
from cakesim.kits.seating import play_seated
from tests.games.part_du_chef.conftest import GAME, RULES, reference_result, table_of

# Every player count and variant, with a random player and a greedy one; a mixed table on
# duplicate deals; the receipt-point and pepper-assignment alternatives.
TABLES = {
    **{f"{p}P {v} {s}": (p, v, (s,), False, RULES)
       for p, v, s in itertools.product((2, 3, 4, 5), ("base", "marianne"),
                                        ("random", "greedy-balanced"))},
    "4P marianne mixed duplicate": (4, "marianne", ("random", "greedy-balanced", "hoarder",
                                                    "glutton"), True, RULES),
    "3P holder, sequential peppers": (3, "base", ("greedy-balanced",), False,
                                      RULES.with_overrides(receipt_point="holder",
                                                           pepper_assignment="sequential")),
}
SEED, FIRST, GAMES = 17, 500, 20
"""18 tables of 20 games: the plain-Python reference plays them in a few seconds."""


def table_named(name: str):
    """The table ``name`` of ``TABLES``."""
    players, variant, names, duplicate, rules = TABLES[name]
    return table_of(players, variant, names, duplicate, rules)


class Unrecorded(Game):
    """The reference engine as it was before it recorded the score after each pizza."""

    def record_scores(self) -> None:
        """Record nothing."""


def replayed_scores(table, result) -> list[tuple[int, ...]]:
    """Every seat's score after each pizza, rebuilt from the move log alone (s2 "Scoring")."""
    r = table.rules.rules
    players = table.players
    kept = [[0] * (len(r.kinds) + 2) for _ in range(players)]
    received, olives, eaten = [0] * players, [0] * players, [0] * players
    rows = []
    for pizza in range(r.pizzas):
        for move in (m for m in result.log if m.pizza == pizza):
            if move.action == "take":
                for piece, eat in move.slices:
                    received[move.seat] += piece.category != r.burnt
                    if eat:
                        olives[move.seat] += piece.olives
                        eaten[move.seat] += 1
                    else:
                        kept[move.seat][piece.category] += 1
            elif move.action == "steal":
                kept[move.victim][move.category] -= 1
                kept[move.seat][move.category] += 1
            elif move.action == "marianne":
                for give, partner, take in move.swaps:
                    kept[move.seat][give] -= 1
                    kept[partner][give] += 1
                    kept[partner][take] -= 1
                    kept[move.seat][take] += 1
        rows.append(tuple(score_sheet(r, kept, received, olives, eaten).total))
    return rows


@pytest.mark.parametrize("name", list(TABLES))
def test_one_row_per_pizza_ending_on_the_kernels_totals(name):
    table = table_named(name)
    chunk = GAME.play_chunk(table, SEED, FIRST, GAMES)
    for g in range(GAMES):
        result = reference_result(table, SEED, FIRST + g)
        rows = result.scores_by_round
        assert len(rows) == GAME.rounds(table) == RULES.pizzas
        assert all(len(row) == table.players for row in rows)
        # Only kept burnt slices cost points, and each pizza holds exactly one: after
        # pizza n no seat can be below -n x the penalty.
        assert all(score >= -RULES.burnt_penalty * (n + 1)
                   for n, row in enumerate(rows) for score in row)
        assert rows[-1] == tuple(result.sheet.total)
        assert rows[-1] == tuple(int(t) for t in chunk.seat["total"][g])
        # Every other metric still agrees with the kernel too (``reference_outcome``).
        assert GAME.result_metrics(table, result) == GAME.kernel_outcome(chunk, g)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_row_scores_the_piles_as_they_stood_after_that_pizza(name):
    table = table_named(name)
    for g in range(GAMES):
        result = reference_result(table, SEED, FIRST + g)
        assert list(result.scores_by_round) == replayed_scores(table, result)


@pytest.mark.parametrize("name", list(TABLES))
def test_recording_changes_no_move_draw_or_result(name):
    table = table_named(name)
    for g in range(GAMES // 2):
        recorded = reference_result(table, SEED, FIRST + g)
        unrecorded = play_seated(Unrecorded, deal_game, table.rules, list(table.strategies),
                                 SEED, FIRST + g, table.duplicate)
        # A draw taken while recording would change a later move, hence the log.
        assert unrecorded.scores_by_round == ()
        assert replace(recorded, scores_by_round=()) == unrecorded
        assert GAME.result_metrics(table, recorded) == GAME.result_metrics(table, unrecorded)
