"""Worked examples from RULES.md section 2, computed by hand, on the reference engine."""

import numpy as np
import pytest

from cakesim.games.part_du_chef.reference import Game, Slice, deal_game, score_sheet
from cakesim.games.part_du_chef.rules import load_rules
from cakesim.games.part_du_chef.strategies import BUILTIN

RULES = load_rules()
M, R, F, V, T, PEPPER, BURNT = range(7)


def game_of(players, strategy="greedy", variant="base"):
    table = RULES.for_table(players, variant)
    return Game(table, deal_game(table, 1, 0), [BUILTIN[strategy]] * players,
                np.zeros(2, np.uint64))


def test_the_score_file_example():
    # Seat 1 keeps M3 R1 F0 V2 T1, a pepper and a burnt slice; seat 2 keeps M1 R2 F2 V1 T1.
    # Seat 1's pepper: on reine (ties seat 2's 2: +5) or on 4 Fromages (diversity 1 x 5 =
    # 5): 28 either way; reine comes first in the table, so reine. Majorities M 3, R 5
    # (tied), V 9, T 11 (tied) = 28, olives 7, receipt 9, diversity 0, burnt -3: 41.
    # Seat 2: R 5 (tied), F 7, T 11 (tied) = 23, diversity 5, olives 3, receipt 8: 39.
    kept = [[3, 1, 0, 2, 1, 1, 1], [1, 2, 2, 1, 1, 0, 0]]
    sheet = score_sheet(RULES, kept, [9, 8], [7, 3], [0, 0])
    assert sheet.peppers == [(R,), ()]
    assert sheet.majority == [28, 23] and sheet.diversity == [0, 5]
    assert sheet.total == [41, 39] and sheet.win_units == [840, 0]


def test_a_pepper_fills_the_scarcest_kind_when_that_pays_most():
    # M2 R2 F2 V2 T1 + pepper against T3: the pepper on truffe lifts diversity to 2 x 5
    # = 10 and keeps the majorities M R F V = 24: 34 (on margherita: 24 + 5 = 29).
    kept = [[2, 2, 2, 2, 1, 1, 1], [0, 0, 0, 0, 3, 0, 0]]
    sheet = score_sheet(RULES, kept, [10, 3], [4, 0], [0, 0])
    assert sheet.peppers[0] == (T,)
    assert sheet.majority == [24, 11] and sheet.diversity == [10, 0]
    assert sheet.total == [34 + 4 + 10 - 3, 14]


def test_diversity_needs_every_kind_and_ties_all_score():
    kept = [[2, 2, 2, 2, 2, 0, 0], [0, 0, 0, 0, 2, 0, 0], [3, 0, 0, 0, 0, 0, 0]]
    sheet = score_sheet(RULES, kept, [0] * 3, [0] * 3, [0] * 3)
    assert sheet.diversity == [10, 0, 0]
    # Truffe tied at 2: both score 11; margherita: seat 3 alone with 3.
    assert sheet.majority == [5 + 7 + 9 + 11, 11, 3]


def test_independent_peppers_are_assigned_against_counts_without_peppers():
    # Seat 1 keeps T1 and a pepper, seat 2 V1 and a pepper. Against seat 2's V1, seat 1's
    # pepper is worth most on vegetarienne (tie 9 + its truffe 11 = 20; on truffe only
    # 11); against seat 1's T1, seat 2's on truffe (11 + 9 = 20). Together: both tie both.
    kept = [[0, 0, 0, 0, 1, 1, 0], [0, 0, 0, 1, 0, 1, 0]]
    sheet = score_sheet(RULES, kept, [0, 0], [0, 0], [0, 0])
    assert sheet.peppers == [(V,), (T,)] and sheet.majority == [20, 20]
    # Sequentially, seat 2 sees seat 1's pepper on vegetarienne and still ties it: truffe.
    sequential = RULES.with_overrides(pepper_assignment="sequential")
    assert score_sheet(sequential, kept, [0, 0], [0, 0], [0, 0]).peppers == [(V,), (T,)]


def test_a_kept_finisher_robs_the_kind_leader_and_the_point_stays():
    game = game_of(3)
    game.players[1].kept[T] = 2
    game.players[2].kept[T] = 1
    game.players[1].received = 2
    game.receive_slice(0, 0, Slice(T, 1, True), eat=False)
    assert [p.kept[T] for p in game.players] == [2, 1, 1]
    assert [p.received for p in game.players] == [1, 2, 0]
    assert game.log[-1].action == "steal" and game.log[-1].victim == 1


def test_the_score_leader_thief_robs_the_overall_leader():
    game = game_of(3, "thief-leader")
    game.players[1].kept[T] = 2
    game.players[2].kept[T] = 1
    game.players[2].kept[R] = 5
    game.players[2].kept[V] = 3  # reine 5 + vegetarienne 9 beats seat 2's truffe 11
    game.receive_slice(0, 0, Slice(T, 1, True), eat=False)
    assert [p.kept[T] for p in game.players] == [2, 2, 0]


def test_an_eaten_finisher_scores_only_its_olives():
    game = game_of(2)
    game.players[1].kept[V] = 3
    game.receive_slice(0, 0, Slice(V, 1, True), eat=True)
    assert game.players[1].kept[V] == 3 and game.players[0].kept[V] == 0
    assert sum(s.olives for s in game.players[0].eaten) == 1
    assert game.log == []


def test_a_finisher_with_nobody_to_rob_is_just_a_kept_slice():
    game = game_of(2)
    game.receive_slice(0, 1, Slice(F, 2, True), eat=False)
    assert game.players[1].kept[F] == 1 and game.log[-1].action == "empty-steal"


def test_burnt_and_pepper_slices_cannot_be_eaten_and_burnt_earns_no_point():
    game = game_of(2)
    game.receive_slice(0, 0, Slice(BURNT), eat=False)
    game.receive_slice(0, 0, Slice(PEPPER), eat=False)
    assert game.players[0].received == 1
    for category in (BURNT, PEPPER):
        with pytest.raises(AssertionError):
            game.receive_slice(0, 0, Slice(category), eat=True)


def test_la_marianne_dumps_a_burnt_slice_once_then_leaves_the_game():
    game = game_of(2, variant="marianne")
    game.players[0].kept = [1, 0, 0, 0, 0, 0, 1]
    game.players[1].kept = [0, 1, 0, 0, 2, 0, 0]
    game.consider_marianne(4, 0)
    assert game.marianne is False and game.log[-1].action == "marianne"
    assert game.players[0].kept[BURNT] == 0 and game.players[1].kept[BURNT] == 1
    assert [sum(row) for row in zip(*(p.kept for p in game.players), strict=True)] == \
        [1, 1, 0, 0, 2, 0, 1]
    assert sum(game.players[0].kept) == 2


def test_every_pizza_has_exactly_one_burnt_slice_and_the_box_is_dealt():
    for deal in range(20):
        pizzas = deal_game(RULES.for_table(4), 3, deal)
        assert [sum(s.category == BURNT for s in p) for p in pizzas] == [1] * 5
        categories = sorted(s.category for p in pizzas for s in p)
        assert categories == sorted(RULES.slice_category)
        assert sum(s.finisher for p in pizzas for s in p) == 5
