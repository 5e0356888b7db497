"""Invariants that hold in every game and every score sheet (hypothesis picks the cases)."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.games.part_du_chef.kernel import assign_peppers, new_sheet, table_rules
from cakesim.games.part_du_chef.reference import (
    Game,
    Slice,
    best_pepper_kinds,
    deal_game,
    score_sheet,
)
from cakesim.games.part_du_chef.strategies import PARAMETERS, Strategy
from cakesim.games.slicing.tabletop import WIN_UNITS
from tests.games.part_du_chef.conftest import (
    GAME,
    RULES,
    STRATEGY_NAMES,
    reference_result,
    table_of,
)

KINDS = len(RULES.kinds)
CHEAP = ("random", "greedy-balanced", "hoarder", "glutton", "greedy-deny")

tables = st.builds(
    lambda players, variant, name, seed, game: (table_of(players, variant, (name,)), seed,
                                                game),
    st.integers(2, 5), st.sampled_from(("base", "marianne")), st.sampled_from(CHEAP),
    st.integers(0, 2**32), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(tables)
def test_score_is_the_sum_of_its_parts(case):
    table, seed, first = case
    seat = GAME.play_chunk(table, seed, first, 20).seat
    parts = (seat["majority"] + seat["olives"] + seat["slices"] + seat["diversity"]
             - RULES.burnt_penalty * seat["burnt"])
    assert (seat["total"] == parts).all()
    assert (seat["win_units"].sum(axis=1) == WIN_UNITS).all()
    assert (seat["diversity"] % RULES.diversity_bonus == 0).all()
    # Every non-burnt slice earns exactly one receipt point, at whoever received it.
    assert (seat["slices"].sum(axis=1) == len(RULES.slice_category) - RULES.pizzas).all()
    assert (seat["burnt"].sum(axis=1) == RULES.pizzas).all()


@settings(max_examples=25, deadline=None)
@given(tables)
def test_slices_are_conserved_and_receipt_points_stay_with_the_receiver(case):
    table, seed, game = case
    result = reference_result(table, seed, game)
    box = [RULES.count_of(c) for c in range(KINDS + 2)]
    eaten = [0] * (KINDS + 2)
    received = [0] * table.players
    for move in result.log:
        if move.action == "take":
            for piece, was_eaten in move.slices:
                eaten[piece.category] += was_eaten
                received[move.seat] += piece.category != RULES.burnt
    kept = [sum(p.kept[c] for p in result.players) for c in range(KINDS + 2)]
    assert [k + e for k, e in zip(kept, eaten, strict=True)] == box
    assert eaten[RULES.pepper] == eaten[RULES.burnt] == 0
    # Steals and La Marianne move slices, never the points earned on receipt.
    assert [p.received for p in result.players] == received
    assert result.sheet.slices == received


piles = st.integers(2, 5).flatmap(lambda p: st.lists(
    st.lists(st.integers(0, 4), min_size=KINDS + 2, max_size=KINDS + 2), min_size=p,
    max_size=p))


@settings(max_examples=150, deadline=None)
@given(piles, st.integers(0, KINDS - 1), st.sampled_from(("kind-leader", "score-leader",
                                                         "random")))
def test_a_finisher_steals_exactly_one_slice_of_its_kind_from_an_opponent_who_had_one(
        kept, kind, thief):
    players = len(kept)
    strategy = GAME.named_strategy("random" if thief == "random" else "greedy")
    if thief == "score-leader":
        strategy = GAME.named_strategy("thief-leader")
    game = Game(RULES.for_table(players), deal_game(RULES.for_table(players), 1, 0),
                [strategy] * players, np.zeros(2, np.uint64))
    for player, row in zip(game.players, kept, strict=True):
        player.kept = list(row)
        player.received = 7
    game.receive_slice(0, 0, Slice(kind, 1, True), eat=False)
    after = [p.kept for p in game.players]
    had = [s for s in range(1, players) if kept[s][kind] > 0]
    assert after[0][kind] == kept[0][kind] + (2 if had else 1)
    changed = [s for s in range(1, players) if after[s] != kept[s]]
    if had:
        assert len(changed) == 1 and changed[0] in had
        assert after[changed[0]][kind] == kept[changed[0]][kind] - 1
    else:
        assert not changed
    assert [p.received for p in game.players] == [8] + [7] * (players - 1)


def _holder_value(mine, others, extra):
    counts = [m + extra.count(k) for k, m in enumerate(mine)]
    value = RULES.diversity_bonus * min(counts)
    for k, v in enumerate(RULES.majority_value):
        if counts[k] > 0 and all(counts[k] >= row[k] for row in others):
            value += v
    return value


@settings(max_examples=200, deadline=None)
@given(piles, st.integers(0, 3))
def test_pepper_assignment_maximises_the_holders_total(kept, peppers):
    mine = kept[0][:KINDS]
    others = [row[:KINDS] for row in kept[1:]]
    choice = best_pepper_kinds(RULES, mine, others, peppers)
    assert len(choice) == peppers
    values = {extra: _holder_value(mine, others, extra) for extra in
              itertools.combinations_with_replacement(range(KINDS), peppers)}
    best = max(values.values())
    assert values[choice] == best
    assert choice == min(extra for extra, value in values.items() if value == best)
    # The kernel's enumeration picks the same kinds.
    table = np.array([[*row[:KINDS], peppers if s == 0 else row[KINDS], row[KINDS + 1]]
                      for s, row in enumerate(kept)], np.int16)
    sheet = new_sheet(len(kept), KINDS, peppers)
    assign_peppers(0, table, table, table_rules(RULES.for_table(len(kept))), sheet)
    assert list(sheet.assigned[0]) == [choice.count(k) for k in range(KINDS)]


@settings(max_examples=200, deadline=None)
@given(piles)
def test_every_player_tied_for_most_scores_the_kind(kept):
    for row in kept:
        row[RULES.pepper] = 0
    players = len(kept)
    sheet = score_sheet(RULES, kept, [0] * players, [0] * players, [0] * players)
    for seat, row in enumerate(kept):
        expected = sum(value for k, value in enumerate(RULES.majority_value)
                       if row[k] > 0 and row[k] == max(r[k] for r in kept))
        assert sheet.majority[seat] == expected
        assert sheet.diversity[seat] == RULES.diversity_bonus * min(row[:KINDS])
    best = max(sheet.total)
    assert all((w > 0) == (t == best) for w, t in zip(sheet.win_units, sheet.total,
                                                      strict=True))


def test_strategy_arrays_have_one_row_per_player():
    codes, params = Strategy.arrays([GAME.named_strategy(n, 3) for n in STRATEGY_NAMES])
    assert codes.shape == (len(STRATEGY_NAMES), 4)
    assert params.shape == (len(STRATEGY_NAMES), len(PARAMETERS))
