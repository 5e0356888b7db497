"""The score after each cake (``Result.scores_by_round``), on the reference engine."""

import itertools
from dataclasses import replace

import pytest

from cakesim.games.piece_o_cake.reference import Game, deal_game, score_sheet
from cakesim.kits.seating import play_seated
from tests.games.piece_o_cake.conftest import GAME, RULES, reference_result, table_of

# Every player count and variant, with a random player (passes, declines, odd cuts) and a
# greedy one; a mixed table on duplicate deals; tied majorities scoring nothing.
TABLES = {
    **{f"{p}P {v} {s}": (p, v, (s,), False, RULES)
       for p, v, s in itertools.product((2, 3, 4, 5), ("base", "compensation"),
                                        ("random", "greedy-balanced"))
       if v == "base" or RULES.has_compensation(p)},
    "4P mixed duplicate": (4, "base", ("random", "greedy-balanced", "greedy-deny", "tuned"),
                           True, RULES),
    "3P compensation ties score nothing": (3, "compensation", ("greedy-balanced",), False,
                                           RULES.with_overrides(tie_rule="none")),
}
SEED, FIRST, GAMES = 17, 500, 30
"""14 tables of 30 games: the plain-Python reference plays them in a few seconds."""


def table_named(name: str):
    """The table ``name`` of ``TABLES``."""
    players, variant, names, duplicate, rules = TABLES[name]
    return table_of(players, variant, names, duplicate, rules)


class Unrecorded(Game):
    """The reference engine as it was before it recorded the score after each cake."""

    def record_scores(self) -> None:
        """Record nothing."""


def replayed_scores(table, result) -> list[tuple[int, ...]]:
    """Every seat's score after each cake, rebuilt from the move log alone (s1 "Scoring")."""
    players, kinds = table.players, len(RULES.kinds)
    collected = [[0] * kinds for _ in range(players)]
    cream = [0] * players
    rows = []
    for cake in range(RULES.cakes):
        for move in (m for m in result.log if m.cake == cake):
            if move.action in ("take", "bonus"):
                for piece, eaten in move.slices:
                    if eaten:
                        cream[move.seat] += piece.cream
                    else:
                        collected[move.seat][piece.kind] += 1
            elif move.action == "decline":
                # The whole pile of one kind leaves the contest and scores its cream.
                collected[move.seat][move.kind] = 0
                cream[move.seat] += sum(piece.cream for piece, _ in move.slices)
        _, total, _ = score_sheet(collected, cream, table.rules.rules.majority_value,
                                  table.rules.arrays["ties_score"])
        rows.append(tuple(total))
    return rows


@pytest.mark.parametrize("name", list(TABLES))
def test_one_row_per_cake_ending_on_the_kernels_totals(name):
    table = table_named(name)
    chunk = GAME.play_chunk(table, SEED, FIRST, GAMES)
    for g in range(GAMES):
        result = reference_result(table, SEED, FIRST + g)
        rows = result.scores_by_round
        assert len(rows) == GAME.rounds(table) == RULES.cakes
        assert all(len(row) == table.players for row in rows)
        # Majorities and cream only ever add points: no score is below 0.
        assert all(score >= 0 for row in rows for score in row)
        assert rows[-1] == tuple(result.total)
        assert rows[-1] == tuple(int(t) for t in chunk.seat["total"][g])
        # Every other metric still agrees with the kernel too (``reference_outcome``).
        assert GAME.result_metrics(table, result) == GAME.kernel_outcome(chunk, g)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_row_scores_the_piles_as_they_stood_after_that_cake(name):
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
