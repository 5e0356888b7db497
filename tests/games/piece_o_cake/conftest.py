"""Shared helpers: play the same games with the kernel and with the reference engine."""

import numpy as np

from cakesim.engine.seeding import DECISION_STREAM, reset_stream
from cakesim.games import game_named
from cakesim.games.piece_o_cake import fitted, kernel, strategies
from cakesim.games.piece_o_cake.game import _cut_masks
from cakesim.games.piece_o_cake.reference import play_game

GAME = game_named("piece-o-cake")
RULES = GAME.load_rules()
STRATEGY_NAMES = GAME.strategy_names
"""Every named strategy, the tuned ones (read per player count) included."""


def table_of(players, variant="base", names=("greedy",), duplicate=False, rules=RULES):
    """A table with the named built-in strategies (one name, or one per seat)."""
    names = list(names) * players if len(names) == 1 else list(names)
    return GAME.table(rules, players, [GAME.named_strategy(n, players, variant) for n in names],
                      variant, duplicate)


def reference_result(table, seed, game):
    """The reference engine's result of one game (its metrics: ``GAME.result_metrics``)."""
    return play_game(table.rules, list(table.strategies), seed, game, table.duplicate)


def table_arrays(players, player, rules=RULES, variant="base"):
    """The kernel's rule data, strategies (``player`` at every seat) and work space."""
    table = GAME.table(rules, players, [player] * players, variant)
    arrays = table.rules.arrays
    rules = kernel.rule_data(arrays, _cut_masks(arrays["slices_per_cake"],
                                                arrays["portion_limit"]))
    codes, params = strategies.Strategy.arrays([player] * players)
    chances = np.zeros((players, *strategies.chance_table_shape(rules.kind_count.max())))
    for row in range(players):
        strategies.fill_chances(params[row], rules.ties_score, chances[row])
    policy = fitted.fitted_policies([player.chooser] * players, rules.kind_count.shape[0])
    return (rules, kernel.Strategies(codes, params, chances, policy),
            kernel.new_state(rules, players),
            kernel.new_scratch(rules, players),
            kernel.new_search_space(rules, params, chances, policy))


def deal_into(state, seed):
    """Deal game 0 of ``seed`` into ``state`` (no joker), its decision stream reset, as the
    kernel sets up a game (``kernel.set_up_game``)."""
    kernel.deal_order(np.uint64(seed), 0, 0, state.deal_stream, state.order)
    reset_stream(state.seen.stream, np.uint64(seed), 0, DECISION_STREAM)
