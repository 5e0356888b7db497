"""The fitted chooser: a small neural scorer of the chooser's moves, fitted to the lookahead.

The lookahead chooser (``lookahead.py``) serves the rest of the cake after each of its
candidate moves and keeps the move after which it stands furthest ahead: strong, and a
few hundred times slower than the greedy chooser. The fitted chooser scores the same
candidates (the greedy move first, then every other take with its greedy eat plan, every
decline and the pass: ``search.choice_candidates``) by a one-layer network of
``HIDDEN`` rectified units, fitted to the lookahead's values of those moves in games of
the strongest population (``training.py``; ``cakesim train``), and plays the best.
Expert iteration in its first step (Anthony, Tian & Barber 2017): the slow search's
decisions, distilled into a policy cheap enough for the kernel's inner loop.

Why a network and not a re-weighted greedy value: fitted on 3,000 games of two-ply
lookahead self-play, the lookahead's value of a move is predicted with R^2 0.80 (2
players) and 0.77 (4) by 16 units, 0.69 and 0.64 by a linear model over the same
inputs; picking by the greedy value regrets 3.20 points a decision at 2 players, by the
16 units 0.62 (issue 30's closing note of 2026-12-05).

Inputs (``position_features`` once a decision, ``move_features`` per candidate), every
count relative to the chooser ("seat ``t``" is ``t`` seats to its left, the chooser
seat 0):

- position, ``P * (2 * kinds + 1) + kinds + 2``: per seat ``t``, its collected slices
  by kind, their cream by kind, and its sure points (banked rounds, eaten cream and the
  rule set's seat bonus, 0 as published and in training) less the chooser's; then the
  unseen slices by kind, the chooser's turn in the cake and the portions still on the
  table;
- move, ``2 * kinds + 9``: the move's kind (take, decline, pass; one-hot), the slices it
  eats and collects by kind, their cream, the portion's length, a decline's pile and its
  cream, and whether it is the greedy move.

The policy is one flat float64 vector per seat (``Strategies.policy``): the first layer
``W`` (inputs x ``HIDDEN``, an input's row together), its bias, the output weights and
the output bias. The inputs' standardisation is folded into ``W`` and its bias when the
policy is written (``tuning.policy``), so the kernel reads raw counts.
"""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import types
from numba.extending import overload

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.games.piece_o_cake.steps import NOTHING, PENDING, PORTIONS, TURN, choose, waiter_of
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    FITTED,
    PASS,
    TAKE,
    fill_rivals,
    greedy_move,
    plan_portion,
)
from cakesim.games.slicing.circle import along
from cakesim.kits.policy import read_policy

HIDDEN = 16
"""Units of the hidden layer: a 4-player decision of about 7 candidates then costs about
3,000 multiply-adds, within the 50 us a game of a 20,000 games/s population allows."""

FITTED_CHOICE = "fitted"
"""The chooser code's name (``strategies.CHOOSERS``) and the built-in strategy's."""

MOVE_KINDS = 3
"""TAKE, DECLINE_EAT and PASS (``strategies``), one-hot in the move's inputs."""


@jit
def position_width(players: int, kinds: int) -> int:
    """How many inputs describe the position (the same for every candidate)."""
    return players * (2 * kinds + 1) + kinds + 2


@jit
def move_width(kinds: int) -> int:
    """How many inputs describe one candidate move."""
    return MOVE_KINDS + 2 * kinds + 6


@jit_inline
def position_features(seat, turn, n_portions, view, banked, eaten_cream, seat_bonus, out):
    """The position's inputs into ``out`` (see the module's list)."""
    players, kinds = view.collected.shape
    sure = banked[0, seat] + banked[1, seat] + eaten_cream[seat] + seat_bonus[seat]
    i = 0
    for t in range(players):
        other = (seat + t) % players
        for kind in range(kinds):
            out[i + kind] = view.collected[other, kind]
            out[i + kinds + kind] = view.collected_cream[other, kind]
        i += 2 * kinds
        out[i] = (banked[0, other] + banked[1, other] + eaten_cream[other] + seat_bonus[other]
                  - sure)
        i += 1
    for kind in range(kinds):
        out[i + kind] = view.unseen[kind]
    i += kinds
    out[i] = turn
    left = 0
    for p in range(n_portions):
        left += 0 if view.portion_taken[p] else 1
    out[i + 1] = left


@jit_inline
def move_features(action, index, eat_mask, greedy, seat, view, out):
    """Candidate ``(action, index, eat_mask)``'s inputs into ``out``; ``greedy`` says
    whether it is the greedy chooser's own move."""
    kinds = view.collected.shape[1]
    for i in range(out.shape[0]):
        out[i] = 0.0
    out[action] = 1.0
    cream = MOVE_KINDS + 2 * kinds
    if action == TAKE:
        position, n = view.portion_start[index], view.cake_kind.shape[0]
        for j in range(view.portion_len[index]):
            eaten = (eat_mask >> j) & 1
            kind = view.cake_kind[position]
            out[MOVE_KINDS + (0 if eaten else kinds) + kind] += 1.0
            out[cream + (0 if eaten else 1)] += view.cake_cream[position]
            position = along(position, 1, n)
        out[cream + 2] = view.portion_len[index]
    elif action == DECLINE_EAT:
        out[cream + 3] = view.collected[seat, index]
        out[cream + 4] = view.collected_cream[seat, index]
    out[cream + 5] = 1.0 if greedy else 0.0


@jit_inline
def first_layer(policy, row, inputs, hidden):
    """``hidden += W[row : row + len(inputs)]^T inputs`` (zero inputs skipped)."""
    for i in range(inputs.shape[0]):
        x = inputs[i]
        if x != 0.0:
            base = (row + i) * HIDDEN
            for j in range(HIDDEN):
                hidden[j] += x * policy[base + j]


@jit_inline
def move_score(policy, position_hidden, inputs, hidden):
    """The network's value of the move whose ``inputs`` follow the position's, given the
    position's part of the first layer (``position_hidden``, bias included)."""
    n_inputs = (policy.shape[0] - 2 * HIDDEN - 1) // HIDDEN
    for j in range(HIDDEN):
        hidden[j] = position_hidden[j]
    first_layer(policy, n_inputs - inputs.shape[0], inputs, hidden)
    out = n_inputs * HIDDEN + HIDDEN
    score = policy[out + HIDDEN]
    for j in range(HIDDEN):
        score += policy[out + j] * max(hidden[j], 0.0)
    return score


@jit_borrowing
def fitted_action(seats, seat, turn, n_portions, view, banked, eaten_cream, rules, scratch):
    """The fitted chooser's move ``(action, index, eat_mask)``: of the candidates of
    ``search.choice_candidates``, in its order, the first the policy scores highest."""
    policy = seats.policy[seat]
    n_inputs = (policy.shape[0] - 2 * HIDDEN - 1) // HIDDEN
    position = scratch.position_inputs
    position_features(seat, turn, n_portions, view, banked, eaten_cream, rules.seat_bonus,
                      position)
    base = scratch.position_hidden
    for j in range(HIDDEN):
        base[j] = policy[n_inputs * HIDDEN + j]
    first_layer(policy, 0, position, base)
    inputs, hidden = scratch.move_inputs, scratch.hidden
    action, index, eat_mask = greedy_move(seats, seat, view, n_portions, rules, scratch)
    move_features(action, index, eat_mask, True, seat, view, inputs)
    best = (action, index, eat_mask)
    best_score = move_score(policy, base, inputs, hidden)
    params, chances = seats.params[seat], seats.chances[seat]
    fill_rivals(view.collected, seat, scratch.rivals)
    for p in range(n_portions):
        if not view.portion_taken[p] and not (action == TAKE and index == p):
            _, plan = plan_portion(params, chances, seat, view.portion_start[p],
                                   view.portion_len[p], view, rules, scratch)
            move_features(TAKE, p, plan, False, seat, view, inputs)
            score = move_score(policy, base, inputs, hidden)
            if score > best_score:
                best, best_score = (TAKE, p, plan), score
    for kind in range(view.collected.shape[1]):
        if view.collected[seat, kind] > 0 and not (action == DECLINE_EAT and index == kind):
            move_features(DECLINE_EAT, kind, 0, False, seat, view, inputs)
            score = move_score(policy, base, inputs, hidden)
            if score > best_score:
                best, best_score = (DECLINE_EAT, kind, 0), score
    if action != PASS:
        move_features(PASS, -1, 0, False, seat, view, inputs)
        if move_score(policy, base, inputs, hidden) > best_score:
            best = (PASS, -1, 0)
    return best


@jit_borrowing
def chooser_code(seats, state):
    """The chooser code of the seat whose choice ``state.clock`` points at; -1 when the
    decision is no chooser's move (a cut, a set-aside slice, a joker decision)."""
    players = state.eaten_count.shape[0]
    turn = state.clock[TURN]
    if state.pending[PENDING] != NOTHING or turn == 0 or turn > players:
        return -1
    return seats.codes[(waiter_of(state.clock, players) + turn) % players, 0]


@jit_borrowing
def fitted_to_move(seats, state):
    """Whether the decision ``state.clock`` points at is a fitted chooser's move."""
    return chooser_code(seats, state) == FITTED


@jit_borrowing
def make_fitted_move(rules, seats, state, scratch):
    """Make the fitted chooser's move ``state.clock`` points at, in the real game."""
    players = state.eaten_count.shape[0]
    seat = (waiter_of(state.clock, players) + state.clock[TURN]) % players
    action, index, eat_mask = fitted_action(seats, seat, state.clock[TURN],
                                            state.clock[PORTIONS], state.seen, state.banked,
                                            state.eaten_cream, rules, scratch)
    choose(seat, action, index, eat_mask, rules, state)


NO_NETWORK = ("a seat chooses by its network, but its kernel was compiled without the "
              "search's working space")


def fitted_move(rules, seats, state, scratch, space):
    """``make_fitted_move``, in a kernel built with the search's working space ``space``.

    The kernel every heuristic table plays (``space`` is ``None``) compiles no network:
    compiled, this is chosen by the type of ``space`` (below), and the working space itself
    is never passed (handing each move's call its arrays, as ``lookahead.look_ahead``'s
    is, cost a fitted table at 4 players a seventh of its games: 28,100 against 32,600
    games/s on one core, 2026-12-06).
    """
    if space is None:
        raise ValueError(NO_NETWORK)
    make_fitted_move(rules, seats, state, scratch)


@overload(fitted_move, inline="always")
def _fitted_move_compiled(rules, seats, state, scratch, space):
    if isinstance(space, types.NoneType):
        def refuse(rules, seats, state, scratch, space):
            raise ValueError(NO_NETWORK)
        return refuse

    def move(rules, seats, state, scratch, space):
        make_fitted_move(rules, seats, state, scratch)
    return move


# ----------------------------------------------------------------------------------------
# The shipped policies.


POLICIES = Path(__file__).parent / "policies"
"""The shipped policies, one file per player count (``cakesim train``)."""


def policy_file(players: int) -> Path:
    """The shipped policy for ``players``."""
    return POLICIES / f"{players}p.toml"


def policy_shape(players: int, kinds: int) -> dict[str, int]:
    """The network a table of ``players`` and ``kinds`` reads, as a policy file records it."""
    return {"players": players, "kinds": kinds,
            "inputs": position_width(players, kinds) + move_width(kinds), "hidden": HIDDEN}


def fitted_policies(choosers: Sequence[str], kinds: int) -> np.ndarray:
    """``Strategies.policy`` for players choosing by ``choosers``: the shipped policy of
    their count where a chooser is ``fitted`` (exit 2 naming the file if it is missing or
    not of this table's shape), else an empty row."""
    players = len(choosers)
    if FITTED_CHOICE not in choosers:
        return np.zeros((players, 0))
    shape = policy_shape(players, kinds)
    policy = read_policy(policy_file(players), shape)
    return np.stack([policy if c == FITTED_CHOICE else np.zeros_like(policy)
                     for c in choosers])
