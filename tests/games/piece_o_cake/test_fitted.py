"""The fitted chooser: the same games in both engines, the move its network ranks first among
the lookahead's candidates, the greedy move when the network says so, and examples that
hold the lookahead's values of exactly those candidates."""

from dataclasses import replace

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.games.piece_o_cake import fitted, kernel, lookahead, steps
from cakesim.games.piece_o_cake.game import _cut_masks
from cakesim.games.piece_o_cake.search import (
    choice_candidates,
    copy_game,
    descend,
    rollout_chooser,
    seat_rollout,
)
from cakesim.games.piece_o_cake.strategies import GREEDY, Strategy
from cakesim.games.piece_o_cake.training import lookahead_examples
from cakesim.kits.bandit import DETAIL, INDEX, KIND
from cakesim.kits.policy import policy_length, write_policy
from cakesim.kits.search import decide
from cakesim.tuning.policy import network_scores
from tests.conformance.conftest import assert_parity
from tests.games.piece_o_cake.conftest import GAME, RULES, deal_into, table_arrays

KINDS = 8
"""Kinds of the shipped rule set (no joker)."""


@pytest.fixture
def policies(tmp_path, monkeypatch):
    """Shipped policies in a temporary folder: ``policies(players, weights)`` writes one."""
    monkeypatch.setattr(fitted, "POLICIES", tmp_path)

    def ship(players, weights, kinds=KINDS):
        shape = fitted.policy_shape(players, kinds)
        write_policy(fitted.policy_file(players), weights, shape, {"made": "by a test"})
        return weights
    return ship


def random_policy(players, seed, kinds=KINDS):
    """A policy of random weights: every input moves the scores."""
    size = policy_length(fitted.policy_shape(players, kinds))
    return np.random.default_rng(seed).normal(scale=0.3, size=size)


def greedy_policy(players, kinds=KINDS):
    """A network whose only nonzero path runs from the greedy flag to the score."""
    shape = fitted.policy_shape(players, kinds)
    weights = np.zeros(policy_length(shape))
    greedy_input = shape["inputs"] - 1
    weights[greedy_input * fitted.HIDDEN] = 1.0
    weights[shape["inputs"] * fitted.HIDDEN + fitted.HIDDEN] = 1.0
    return weights


def fitted_player(players):
    return GAME.named_strategy("fitted", players)


def test_the_named_fitted_is_the_tuned_bot_choosing_by_its_network():
    named, tuned = GAME.named_strategy("fitted", 4), GAME.named_strategy("tuned", 4)
    assert (named.chooser, named.cutter) == ("fitted", tuned.cutter)
    assert named.weights == tuned.weights
    assert "fitted" in GAME.strategy_names


def test_the_named_fitted_search_is_fitted_searching_its_cuts_as_search_does():
    named, fitted = GAME.named_strategy("fitted-search", 4), GAME.named_strategy("fitted", 4)
    search = GAME.named_strategy("search", 4)
    assert (named.chooser, named.cutter) == ("fitted", "search")
    assert named.all_weights() == fitted.all_weights() | {
        "iterations": search.all_weights()["iterations"]}
    assert named.needs_search_space and "fitted-search" in GAME.strategy_names


def test_only_the_kernel_with_the_working_space_plays_a_fitted_chooser(policies, monkeypatch):
    # So that the kernel every heuristic table plays compiles no network.
    policies(3, random_policy(3, seed=2))
    tuned = GAME.named_strategy("tuned", 3)
    table = GAME.table(RULES, 3, [tuned, fitted_player(3), tuned], "base")
    assert GAME.searching(table) is True
    monkeypatch.setattr(type(GAME), "searching", staticmethod(lambda table: None))
    with pytest.raises(ValueError, match="chooses by its network, but its kernel"):
        GAME.play_chunk(table, 1, 0, 1)


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "compensation"),
                                                  (3, "2-rounds"), (5, "base")])
def test_kernel_matches_reference_with_fitted_choosers(policies, players, variant):
    policies(players, random_policy(players, seed=players))
    others = [GAME.named_strategy("tuned", players), fitted_player(players),
              GAME.named_strategy("random"), GAME.named_strategy("greedy", players)]
    table = GAME.table(RULES, players, [fitted_player(players), *others][:players], variant,
                       duplicate=True)
    assert_parity(table, seed=5, first=0, games=2 * players)


def test_a_network_that_follows_the_greedy_flag_plays_the_tuned_bot(policies):
    policies(4, greedy_policy(4))
    fitted_table = GAME.table(RULES, 4, [fitted_player(4)] * 4, "base")
    tuned_table = GAME.table(RULES, 4, [GAME.named_strategy("tuned", 4)] * 4, "base")
    a, b = (GAME.play_chunk(t, 3, 0, 200) for t in (fitted_table, tuned_table))
    assert all(np.array_equal(a.seat[m], b.seat[m]) for m in a.seat)
    # A random network does not: the chooser reads its network.
    policies(4, random_policy(4, seed=1))
    c = GAME.play_chunk(fitted_table, 3, 0, 200)
    assert not np.array_equal(c.seat["total"], b.seat["total"])


@pytest.mark.parametrize("players", [2, 4])
def test_the_fitted_move_is_the_best_scored_of_the_lookahead_candidates(policies, players):
    # At the first chooser's turn of several deals: the lookahead's candidate list, each
    # candidate's inputs put together by hand and scored by the network in NumPy; the
    # fitted chooser's move is the first best of them.
    weights = policies(players, random_policy(players, seed=7 + players))
    rules, seats, state, scratch, space = table_arrays(players, fitted_player(players))
    seats = seats._replace(policy=np.tile(weights, (players, 1)))
    not_greedy = 0
    for deal in range(30):
        kernel.deal_order(np.uint64(deal), 0, 0, state.deal_stream, state.order)
        steps.start_game(rules, state)
        # The waiter (seat 0) cuts; the first chooser, seat 1, is next.
        steps.cut_cake(lookahead.lead_cut(rules, seats, state, scratch), state)
        view, portions = state.seen, state.clock[steps.PORTIONS]
        seat_rollout(seats, 1, space.rollout, GREEDY)
        count = choice_candidates(rules, space.rollout, 1, state, scratch, space.bandit)
        moves = [tuple(int(x) for x in space.bandit.move[c, [KIND, INDEX, DETAIL]])
                 for c in range(count)]
        position = np.zeros(fitted.position_width(players, KINDS))
        fitted.position_features(1, 1, portions, view, state.banked, state.eaten_cream,
                                 rules.seat_bonus, position)
        rows = []
        for c, move in enumerate(moves):
            inputs = np.zeros(fitted.move_width(KINDS))
            fitted.move_features(*move, c == 0, 1, view, inputs)
            rows.append(np.concatenate([position, inputs]))
        scores = network_scores(weights, np.array(rows), fitted.HIDDEN)
        chosen = tuple(int(x) for x in fitted.fitted_action(
            seats, 1, 1, portions, view, state.banked, state.eaten_cream, rules, scratch))
        assert chosen == moves[int(np.argmax(scores))]
        not_greedy += chosen != moves[0]
    assert not_greedy > 0


def fitted_two_ply(players):
    """The fitted player cutting by the two-ply lookahead."""
    return replace(fitted_player(players), name="fitted-l2", cutter="lookahead2")


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "joker-compensation")])
def test_kernel_matches_reference_with_a_fitted_chooser_cutting_two_plies_ahead(
        policies, players, variant):
    kinds = KINDS + ("joker" in variant)
    policies(players, random_policy(players, seed=11, kinds=kinds), kinds=kinds)
    others = [GAME.named_strategy("lookahead2", players), GAME.named_strategy("tuned", players),
              fitted_player(players)]
    table = GAME.table(RULES, players, [fitted_two_ply(players), *others][:players], variant,
                       duplicate=True)
    assert_parity(table, seed=9, first=0, games=players)


def fitted_searching_cuts(players, iterations=24, depth=1):
    """``fitted-search`` (the fitted player cutting by the search, its play-outs by its
    network) on a small budget, with a tree ``depth`` decisions deep."""
    return GAME.with_weights(GAME.named_strategy("fitted-search", players), "fitted-search",
                             {"iterations": float(iterations), "depth": float(depth)})


@pytest.mark.parametrize(("players", "variant", "depth"), [
    (2, "base", 1), (4, "joker-compensation", 1), (3, "compensation-2-rounds", 8)])
def test_kernel_matches_reference_with_a_fitted_chooser_searching_its_cuts(
        policies, players, variant, depth):
    kinds = KINDS + ("joker" in variant)
    policies(players, random_policy(players, seed=13, kinds=kinds), kinds=kinds)
    others = [GAME.named_strategy("search", players), fitted_player(players),
              GAME.named_strategy("tuned", players)]
    searcher = fitted_searching_cuts(players, depth=depth)
    table = GAME.table(RULES, players, [searcher, *others][:players], variant,
                       duplicate=True)
    assert_parity(table, seed=10, first=0, games=players)


def test_a_searcher_with_a_fitted_chooser_plays_out_by_its_network(policies):
    # One searched cut, the first of a game: its play-outs are the only place the network
    # is read. A network that follows the greedy flag plays out as the greedy chooser
    # does, so the search's statistics are the tuned bot's, searching its cuts with
    # greedy play-outs; another network plays other play-outs.
    tuned_search = GAME.with_weights(
        replace(GAME.named_strategy("tuned", 2), cutter="search"), "t", {"iterations": 24.0})
    searched = {}
    for name, player, weights in (("greedy network", fitted_searching_cuts(2), greedy_policy(2)),
                                  ("other network", fitted_searching_cuts(2),
                                   random_policy(2, seed=4)),
                                  ("greedy play-outs", tuned_search, None)):
        if weights is not None:
            policies(2, weights)
        rules, seats, state, scratch, space = table_arrays(2, player)
        deal_into(state, 6)
        steps.start_game(rules, state)
        decide(rules, seats, state, scratch, space)
        searched[name] = (space.bandit.visits.copy(), space.bandit.reward.copy())
    assert searched["greedy network"][0].sum() == 24
    for a, b in zip(searched["greedy network"], searched["greedy play-outs"], strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(searched["other network"][1], searched["greedy network"][1])


@pytest.mark.parametrize(("searcher", "stops_at"), [("fitted-search", "its next cut"),
                                                    ("search", "its own choice")])
def test_a_searchers_tree_goes_down_to_the_next_decision_it_searches(policies, searcher,
                                                                     stops_at):
    # With a tree (depth > 1), the world is played on to the searcher's next decision. A
    # fitted searcher searches only its cuts: its choices on the way are its network's,
    # so it next stops at its cut of cake 4 (3 players); a searching chooser stops at its
    # own choice in cake 1, where the waiter chooses last.
    policies(3, random_policy(3, seed=5))
    player = GAME.with_weights(GAME.named_strategy(searcher, 3), searcher, {"depth": 8.0})
    rules, seats, state, scratch, space = table_arrays(3, player)
    kernel.deal_order(np.uint64(1), 0, 0, state.deal_stream, state.order)
    steps.start_game(rules, state)
    seat_rollout(seats, 0, space.rollout, rollout_chooser(seats, 0))
    steps.cut_cake(rules.cut_masks[5], state)
    copy_game(state, space.world)
    assert not descend(rules, 0, space.world, scratch, space)
    clock = space.world.clock
    where = (clock[steps.CAKE], clock[steps.TURN])
    assert where == {"its next cut": (3, 0), "its own choice": (0, 3)}[stops_at]
    # The rollout seat plays its policy again afterwards.
    assert space.rollout.codes[0, 0] == rollout_chooser(seats, 0)


def test_position_inputs_are_relative_to_the_chooser(policies):
    policies(3, random_policy(3, seed=0))
    rules, _, state, _, _ = table_arrays(3, fitted_player(3))
    kernel.deal_order(np.uint64(2), 0, 0, state.deal_stream, state.order)
    steps.start_game(rules, state)
    state.seen.collected[2, 5] = 3
    state.banked[0, 2] = 7
    state.eaten_cream[1] = 2
    out = np.zeros(fitted.position_width(3, KINDS))
    bonus = np.array([1, 0, 0], dtype=np.int16)  # the first waiter's seat bonus
    fitted.position_features(2, 1, 0, state.seen, state.banked, state.eaten_cream, bonus, out)
    per_seat = 2 * KINDS + 1
    assert out[5] == 3  # the chooser's own pile comes first
    assert out[2 * KINDS] == 0.0  # its sure points less its own
    assert out[per_seat + 2 * KINDS] == 1 - 7  # seat 0, one to its left, has 6 fewer
    assert out[2 * per_seat + 2 * KINDS] == 2 - 7  # seat 1
    assert out[3 * per_seat:3 * per_seat + KINDS].sum() == state.seen.unseen.sum()


def test_examples_are_one_row_per_candidate_of_every_lookahead_choice():
    # Two-ply lookahead self-play at 2 players, 3 games: 5 cakes, each chosen from by both
    # seats. Each decision's first candidate is the greedy move, the only one flagged;
    # the same games give the same examples.
    table = GAME.table(RULES, 2, [GAME.named_strategy("lookahead2", 2)] * 2, "base")
    a = table.rules.arrays
    codes, params = Strategy.arrays(table.strategies)
    rules = kernel.rule_data(a, _cut_masks(a["slices_per_cake"], a["portion_limit"]))
    no_policy = np.zeros((2, 0))
    inputs, values, decisions = lookahead_examples(4, 0, 3, False, rules, codes, params,
                                                   no_policy)
    assert inputs.shape[1] == fitted.policy_shape(2, KINDS)["inputs"]
    starts = np.flatnonzero(np.r_[True, decisions[1:] != decisions[:-1]])
    assert len(starts) == decisions.max() + 1 == 3 * 5 * 2
    assert np.array_equal(np.flatnonzero(inputs[:, -1]), starts)
    assert np.isfinite(values).all() and len(values) > len(starts)
    again = lookahead_examples(4, 0, 3, False, rules, codes, params, no_policy)
    assert np.array_equal(again[1], values) and np.array_equal(again[0], inputs)


def test_a_learner_round_values_the_learners_choices_where_its_moves_lead():
    # Game 0 seats the learner twice (two choices a cake), game 1 the learner and the
    # tuned bot (one); every choice is valued, the greedy move first.
    examples = GAME.training_examples(2, 4, 0, 2, greedy_policy(2))
    starts = np.flatnonzero(np.r_[True, np.diff(examples.decisions) != 0])
    assert len(starts) == examples.decisions.max() + 1 == 5 * 2 + 5
    assert np.array_equal(np.flatnonzero(examples.inputs[:, -1]), starts)
    # The learner's own moves are played: another network meets the same first position
    # and then other ones.
    other = GAME.training_examples(2, 4, 0, 2, random_policy(2, seed=3))
    width = fitted.position_width(2, KINDS)
    assert np.array_equal(other.inputs[0, :width], examples.inputs[0, :width])
    assert not np.array_equal(other.inputs[-1, :width], examples.inputs[-1, :width])


def test_a_missing_or_misshapen_policy_names_the_file(policies):
    table = GAME.table(RULES, 3, [fitted_player(3)] * 3, "base")
    with pytest.raises(InputError, match=r"3p\.toml.*no fitted policy here"):
        GAME.play_chunk(table, 1, 0, 1)
    policies(3, random_policy(3, seed=0, kinds=KINDS + 1), kinds=KINDS + 1)
    with pytest.raises(InputError, match=r"3p\.toml: policy\.kinds: is 9, but this table "
                                         r"needs 8"):
        GAME.play_chunk(table, 1, 0, 1)


def test_a_fitted_chooser_among_others_reads_only_its_own_row(policies):
    # Only the fitted player's row holds the policy: another seat's empty row is never read.
    policies(2, random_policy(2, seed=3))
    mixed = [fitted_player(2), replace(GAME.named_strategy("tuned", 2), name="t")]
    policy = fitted.fitted_policies([s.chooser for s in mixed], KINDS)
    assert policy.shape == (2, policy_length(fitted.policy_shape(2, KINDS)))
    assert policy[0].any() and not policy[1].any()
    assert fitted.fitted_policies(["greedy", "greedy"], KINDS).shape == (2, 0)
