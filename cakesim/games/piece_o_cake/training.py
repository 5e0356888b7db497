"""The fitted chooser's examples: what the lookahead chooser makes of every candidate move.

Games of a population of heuristic, lookahead and fitted players are played by the
kernel's steps (``kernel.set_up_game``, the rule steps and the lookahead, as in
``kernel.play_game``). At every decision of a chooser that chooses by ``lookahead`` or
by its network the lookahead serves each candidate move (``lookahead.choice_ahead``,
which keeps each move's value in the search's candidate list), and one example per
candidate is written: the position's and the move's inputs, exactly as the fitted
chooser computes them (``fitted.position_features``, ``move_features``), and the
lookahead's value of the move (the chooser's ``standing_lead`` once the cake is served).
The chooser's own move is then made (the lookahead's, or the network's), so the games
are the population's own: a fitted chooser's examples come from the positions it leads
to, as DAgger's do (Ross, Gordon & Bagnell 2011).
"""

import numpy as np

from cakesim.engine.jit import jit_borrowing
from cakesim.games.piece_o_cake.fitted import (
    chooser_code,
    make_fitted_move,
    move_features,
    move_width,
    position_features,
    position_width,
)
from cakesim.games.piece_o_cake.kernel import new_bundles, set_up_game
from cakesim.games.piece_o_cake.lookahead import look_ahead, lookahead_choice, waits_for_lookahead
from cakesim.games.piece_o_cake.steps import (
    PORTIONS,
    TURN,
    advance,
    choose,
    start_game,
    waiter_of,
)
from cakesim.games.piece_o_cake.strategies import FITTED, LOOKAHEAD
from cakesim.kits.bandit import DETAIL, INDEX, KIND


def lookahead_examples(seed: int, first_game: int, games: int, duplicate: bool, rules,
                       codes: np.ndarray, params: np.ndarray, policy: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Examples from games ``first_game .. + games`` of ``seed`` with these players (one
    of whom, at least, chooses by lookahead or by its network, ``policy``): ``(inputs,
    values, decisions)``, one row per candidate move; ``decisions`` numbers each
    decision, from 0 in this batch.

    The games are driven from Python, each step compiled (``set_up_game``, the rule steps,
    the lookahead, ``record_choice``): a driver compiled whole would link the lookahead and
    the game into one more library, minutes of compiling for a loop whose Python costs a
    few percent of the lookahead's time.
    """
    players = codes.shape[0]
    kinds = rules.majority_value.shape[0]
    n = rules.slices_per_cake
    # At most every chooser of every cake decides among a take per portion, a decline
    # per kind and the pass.
    most = games * rules.rounds * rules.cakes * players * (n + kinds + 1)
    width = position_width(players, kinds) + move_width(kinds)
    inputs = np.zeros((most, width), dtype=np.float32)
    values = np.zeros(most)
    decisions = np.zeros(most, dtype=np.int64)
    by_player, seats, state, scratch, space = new_bundles(rules, codes, params, policy, True)
    seated, row = -1, 0
    decision = 0
    for g in range(games):
        seated = set_up_game(np.uint64(seed), first_game + g, duplicate, rules, by_player,
                             seats, state, seated)
        start_game(rules, state)
        while not advance(rules, seats, state, scratch):
            if choosing_ahead(seats, state):
                row = record_choice(rules, seats, state, scratch, space, inputs, values,
                                    decisions, row, decision)
                decision += 1
            elif waits_for_lookahead(seats, state):
                look_ahead(rules, seats, state, scratch, space)
            else:
                raise ValueError("examples are recorded in games of heuristic and "
                                 "lookahead players, and a seat searches")
    return inputs[:row], values[:row], decisions[:row]


@jit_borrowing
def choosing_ahead(seats, state):
    """Whether the decision ``state.clock`` points at is a lookahead or fitted chooser's
    move."""
    return chooser_code(seats, state) in (LOOKAHEAD, FITTED)


@jit_borrowing
def record_choice(rules, seats, state, scratch, space, inputs, values, decisions, row,
                  decision):
    """Write one example per candidate of the choice at ``state.clock`` from row ``row``
    on (decision number ``decision``), each valued by the lookahead, and make the move: the
    lookahead's, or a fitted chooser's own (so that the games go where it leads them);
    returns the next row."""
    players = state.eaten_count.shape[0]
    turn = state.clock[TURN]
    seat = (waiter_of(state.clock, players) + turn) % players
    view = state.seen
    position_features(seat, turn, state.clock[PORTIONS], view, state.banked,
                      state.eaten_cream, rules.seat_bonus, scratch.position_inputs)
    action, index, eat_mask = lookahead_choice(rules, seats, state, scratch, space)
    bandit, move = space.bandit, scratch.move_inputs
    width = scratch.position_inputs.shape[0]
    c = 0
    while c < bandit.visits.shape[0] and bandit.visits[c] == 1:
        move_features(bandit.move[c, KIND], bandit.move[c, INDEX], bandit.move[c, DETAIL],
                      c == 0, seat, view, move)
        for i in range(width):
            inputs[row, i] = scratch.position_inputs[i]
        for i in range(move.shape[0]):
            inputs[row, width + i] = move[i]
        values[row] = bandit.reward[c]
        decisions[row] = decision
        row += 1
        c += 1
    if seats.codes[seat, 0] == FITTED:
        make_fitted_move(rules, seats, state, scratch)
    else:
        choose(seat, action, index, eat_mask, rules, state)
    return row
