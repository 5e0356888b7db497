"""The Numba kernel of Speedtorte: batches of games, in turn mode or in real time.

The rule steps are ``steps.py``'s, under ``reference.py``'s names: deal, lay out the
plates, open the order cards, then placements until every card is fulfilled or nobody
can place. Turn mode ("der Reihe nach") takes turns; the Eilauftrag lets every baker act
on its own clock, and wait when its best placement is not worth it. Every game constant
arrives in the ``Rules`` bundle, the bakers' weights and timing profile in ``Bakers``; a
game's state travels in ``GameState``, its outcome goes into ``Results``. The bakers
decide with ``planner.decide``: the weighted and random choosers of ``strategies.py``,
or the lookahead, which plays placements out with the same steps on a copy of the state.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import DECISION_STREAM, new_stream
from cakesim.games.speedtorte.planner import decide, new_plan
from cakesim.games.speedtorte.steps import (
    COUNTERS,
    DONE,
    DRAWN,
    HANDS_EMPTY,
    MISSED,
    MOVES,
    POINTS,
    STUCK,
    WON,
    Board,
    GameState,
    after_placement,
    deal,
    land_next,
    lay_out,
    legal_count,
    open_order_cards,
    place_and_draw,
    start_attempt_at,
    waits,
)
from cakesim.games.speedtorte.strategies import NO_SIGNAL


class Bakers(NamedTuple):
    """The computer bakers at a table: how each decides, and how fast they all act."""

    # float64 (players, 1 + len(strategies.PARAMETERS)): one row per seat, the chooser
    # code (``strategies.CHOOSERS``) then the weights in ``PARAMETERS`` order.
    params: np.ndarray
    # float64 (options + 3,): seconds to think with 0, 1, ... legal placements, then the
    # lognormal log-spread sigma, then the flight time (``timing.Profile.arrays``); empty
    # (0,) in turn mode.
    timing: np.ndarray


class Results(NamedTuple):
    """What ``play_games`` reports: row g is game ``first_game + g`` of the batch."""

    # int16 (games,): 1 if the game was won, else 0.
    won: np.ndarray
    # int8 (games,): how the game ended: WON, STUCK or HANDS_EMPTY.
    ending: np.ndarray
    # int16 (games,): card points, plus the win bonus and record-hunt points on a win.
    score: np.ndarray
    # int16 (games,): placements made.
    moves: np.ndarray
    # int16 (games,): order cards fulfilled.
    fulfilled: np.ndarray
    # int16 (games,): pieces left in the supply.
    supply_left: np.ndarray
    # int16 (games,): rush cards that expired.
    rushes_missed: np.ndarray
    # int32 (games,): Eilauftrag: milliseconds on the clock at the end (0 in turn mode).
    finish_ms: np.ndarray
    # int16 (games,): Eilauftrag: placements rejected because the plate had just changed.
    rejected: np.ndarray
    # int16 (games, cards): times each card was put on display.
    card_shown: np.ndarray
    # int16 (games, cards): times each card was fulfilled.
    card_fulfilled: np.ndarray
    # int16 (games, cards): placements each card waited on display before it was fulfilled.
    card_wait: np.ndarray
    # int16 (games, cards): 1 if the card was on display when the game was lost.
    card_at_loss: np.ndarray


@jit
def play_games(seed, first_game, rules, bakers, results):
    """Play ``results.won.shape[0]`` games from ``first_game``; results into ``results``.

    One baker per row of ``bakers.params``. An empty ``bakers.timing`` plays turn mode;
    else the Eilauftrag with that profile's table (think time per option count, then
    sigma and flight, see ``timing.Profile.arrays``).
    """
    players = bakers.params.shape[0]
    board = Board(np.full((players, rules.hand_size), -1, np.int8),
                  np.zeros(players, np.int64), np.zeros(rules.plates, np.int8),
                  np.full(rules.displayed, -1, np.int16), np.zeros(players, np.int8),
                  np.zeros(players, np.int8))
    queue = np.zeros(2 * rules.pool.shape[0] + rules.displayed, np.int16)
    shown_at = np.zeros(rules.displayed, np.int64)
    rush_deadline = np.zeros(rules.displayed, np.int64)
    count = np.zeros(COUNTERS, np.int64)
    lands_at = np.zeros(players, np.float64)
    started_at = np.zeros(players, np.float64)
    target = np.zeros((players, 2), np.int64)
    changed_at = np.zeros(rules.plates, np.float64)
    plan = new_plan(players, rules.hand_size, rules.plates, rules.displayed,
                    rules.box.shape[0] + (rules.sachertorte >= 0), rules.pool.shape[0],
                    rules.card_points.shape[0])
    dealt_out = rules.plates + players * rules.hand_size
    for g in range(results.won.shape[0]):
        game = first_game + g
        pieces, deck = deal(seed, game, rules.box, rules.pool, rules.sachertorte, dealt_out)
        state = GameState(board, pieces, deck, queue, shown_at, rush_deadline, count,
                          new_stream(seed, game, DECISION_STREAM), lands_at, started_at,
                          target, changed_at, results.card_shown[g],
                          results.card_fulfilled[g], results.card_wait[g])
        drawn = lay_out(state)
        open_order_cards(state, rules)
        count[DRAWN] = drawn
        board.signals[:] = NO_SIGNAL
        if bakers.timing.shape[0] == 0:
            result, clock, misses = _turns(state, rules, bakers, plan)
        else:
            result, clock, misses = _real_time(state, rules, bakers, plan)
        left = pieces.shape[0] - count[DRAWN]
        results.won[g] = result == WON
        results.ending[g] = result
        results.score[g] = count[POINTS] + (
            rules.win_bonus + rules.record_hunt_piece * left if result == WON else 0)
        results.moves[g] = count[MOVES]
        results.fulfilled[g] = count[DONE]
        results.supply_left[g] = left
        results.rushes_missed[g] = count[MISSED]
        results.finish_ms[g] = int(np.round(clock * 1000.0))
        results.rejected[g] = misses
        if result != WON:
            for slot in range(rules.displayed):
                if board.display[slot] >= 0:
                    results.card_at_loss[g, board.display[slot]] += 1


@jit_borrowing
def _turns(state, rules, bakers, plan):
    """Turn mode: bakers place in turn, skipping empty hands. ``(ending, 0.0, 0)``."""
    hand_counts = state.board.hand_counts
    players = hand_counts.shape[0]
    baker = 0
    while True:
        if hand_counts.sum() == 0:
            return HANDS_EMPTY, 0.0, 0
        while hand_counts[baker] == 0:
            baker = (baker + 1) % players
        slot, plate, _, _, _, _ = decide(baker, state, rules, bakers.params, plan,
                                         bakers.timing, 0.0)
        if slot < 0:
            return STUCK, 0.0, 0
        place_and_draw(baker, slot, plate, state)
        if after_placement(state, baker, rules, bakers.params):
            return WON, 0.0, 0
        baker = (baker + 1) % players


@jit_borrowing
def _real_time(state, rules, bakers, plan):
    """The Eilauftrag: every baker with a fitting piece works on its own clock.

    ``(ending, seconds on the clock at the end, rejected placements)``.
    """
    state.lands_at[:] = np.inf
    state.changed_at[:] = -1.0
    clock, misses = 0.0, 0
    _start_attempts(clock, state, rules, bakers, plan)
    while True:
        baker, clock_then, placed, won = land_next(state, rules, bakers.params)
        if baker < 0:
            ending = HANDS_EMPTY if state.board.hand_counts.sum() == 0 else STUCK
            return ending, clock, misses
        clock = clock_then
        if won:
            return WON, clock, misses
        if not placed:
            misses += 1
        _start_attempts(clock, state, rules, bakers, plan)


@jit_borrowing
def _start_attempts(clock, state, rules, bakers, plan):
    """Every idle baker decides, in seat order, whether to start a placement now.

    A baker waits while its best placement is worth less than its ``patience`` and
    another baker's piece is on its way or another baker can help with a card. If then
    nobody is placing, the first idle baker in seat order who can place starts anyway
    (someone must, or the game would stand still) and the others decide again.
    """
    lands_at = state.lands_at
    players = lands_at.shape[0]
    for baker in range(players):
        if lands_at[baker] == np.inf:
            _start_attempt(baker, clock, state, rules, bakers, plan, np.inf)
    for baker in range(players):
        if lands_at[baker] != np.inf:
            return
    for baker in range(players):
        if _start_attempt(baker, clock, state, rules, bakers, plan, 0.0):
            for other in range(players):
                if lands_at[other] == np.inf:
                    _start_attempt(other, clock, state, rules, bakers, plan, np.inf)
            return


@jit_borrowing
def _start_attempt(baker, clock, state, rules, bakers, plan, most_patience):
    """The baker picks a placement on the board it sees now and starts it, unless it
    holds no fitting piece or waits; whether it started.

    ``most_patience`` caps the baker's patience: 0 when someone must start now.
    """
    # A cap (a float) rather than a flag: Numba types a constant True or False as a
    # literal, and its on-disk cache never finds functions compiled for literals.
    board = state.board
    if board.hand_counts[baker] == 0:
        return False
    options = legal_count(board.hands[baker], board.hand_counts[baker], board.tops, rules)
    if options == 0:
        return False
    # The lookahead's play-outs on the clock start its placement now (no other step
    # reads a waiting baker's start).
    state.started_at[baker] = clock
    slot, plate, _, _, _, worth = decide(baker, state, rules, bakers.params, plan,
                                         bakers.timing, most_patience)
    if waits(baker, worth, most_patience, state, bakers.params):
        return False
    start_attempt_at(baker, clock, slot, plate, options, state, bakers.timing)
    return True
