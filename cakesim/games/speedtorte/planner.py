"""The lookahead baker: plays its best placements out in worlds it cannot tell apart.

RULES.md section 3 lets a baker see the plates, the displayed cards, its own hand, the
signals and how many pieces it has not seen (the other hands and the supply; with open
hands, the other hands too). Before placing, the lookahead baker

1. ranks its legal placements by the team baker's score (``strategies.placement_value``)
   and keeps the best ``candidates``;
2. samples ``samples`` worlds consistent with what it sees: the unseen pieces (sorted,
   so that nothing of where they lie leaks in) dealt afresh into the other hands (their
   sizes are known) and the supply, the order of the cards still to come shuffled;
3. in every world, plays each candidate and then ``depth`` placements of the team policy
   in turn order (each seat's own weights; a lookahead seat plays its weights directly),
   with the kernel's own rule steps (``steps.py``) on a copy of the state;
4. values a play-out by the cards it fulfils, a won game above everything and a lost one
   below everything, and (to break ties) the displayed cards then one plate away;
5. places the candidate with the best mean value, the team baker's favourite on a tie.

A *clairvoyant* lookahead (``clairvoyant`` = 1) skips step 2: it plays out in the true
deal, one world, since every sample would be the same. It is no fair baker but a
diagnostic: beside the sampled-world lookahead on the same deals it shows how much of
what the search leaves to the perfect-information solver is information the rules hide.

In the Eilauftrag the play-outs run on the clock, as the game does (``steps.land_next``):
the candidate starts now, the pieces already on their way land when they land (a piece
on its way is in plain sight, so it is not dealt afresh), every idle baker decides with
its weights whether to start, and a plate changed under a piece rejects it. Step 3's
``depth`` then counts the placements that land.

Every candidate meets the same worlds (common random numbers), so that the comparison
is not drowned in the worlds' luck. Each world takes one draw from the game's decision
stream and shuffles with its own stream: a decision is a pure function of (seed, game).
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import next_u64, shuffle_range
from cakesim.games.speedtorte.lookahead import plates_missing
from cakesim.games.speedtorte.steps import (
    COUNTERS,
    DONE,
    DRAWN,
    HANDS_EMPTY,
    HEAD,
    OPEN_HANDS,
    STUCK,
    TAIL,
    TO_FULFIL,
    WON,
    Board,
    GameState,
    after_placement,
    land_next,
    legal_count,
    next_with_pieces,
    place_and_draw,
    start_attempt_at,
    waits,
)
from cakesim.games.speedtorte.strategies import (
    LOOKAHEAD,
    W_CANDIDATES,
    W_CLAIRVOYANT,
    W_DEPTH,
    W_SAMPLES,
    board_with,
    choose_move,
    display_gaps,
    fits_top,
    placement_value,
)
from cakesim.kits.loops import copy_into, sort_range

LOOKED_AHEAD = 6
"""Reason code of a lookahead placement that differs from the team baker's choice."""


class Plan(NamedTuple):
    """Work space of the lookahead: a world to play out in, and the candidates."""

    # The state of the world a play-out runs in (``steps.GameState``), its card rows
    # scratch rows that no result reads.
    world: GameState
    # int8 (pieces in the box,): the unseen pieces, gathered to be dealt afresh.
    unseen: np.ndarray
    # int64 (candidates,): each candidate's hand slot and plate.
    slots: np.ndarray
    plates: np.ndarray
    # float64 (candidates,): each candidate's team score, then its summed play-out values.
    scores: np.ndarray
    values: np.ndarray


@jit
def new_plan(players, hand_size, plates, displayed, pieces, pool, cards):
    """A work space for a table of ``players``; ``pieces`` counts the box with the
    Sachertorte, ``pool`` the level's cards, ``cards`` the catalogue."""
    board = Board(np.full((players, hand_size), -1, np.int8), np.zeros(players, np.int64),
                  np.zeros(plates, np.int8), np.full(displayed, -1, np.int16),
                  np.zeros(players, np.int8), np.zeros(players, np.int8))
    world = GameState(board, np.zeros(pieces, np.int8), np.zeros(pool, np.int16),
                      np.zeros(2 * pool + displayed, np.int16), np.zeros(displayed, np.int64),
                      np.zeros(displayed, np.int64), np.zeros(COUNTERS, np.int64),
                      np.zeros(2, np.uint64), np.zeros(players), np.zeros(players),
                      np.zeros((players, 2), np.int64), np.zeros(plates),
                      np.zeros(cards, np.int16), np.zeros(cards, np.int16),
                      np.zeros(cards, np.int16))
    most = hand_size * plates
    return Plan(world, np.zeros(pieces, np.int8), np.zeros(most, np.int64),
                np.zeros(most, np.int64), np.zeros(most), np.zeros(most))


@jit_borrowing
def copy_state(state, world):
    """Copy what the rule steps read and change from ``state`` into ``world``."""
    board, into = state.board, world.board
    copy_into(board.hands, into.hands)
    copy_into(board.hand_counts, into.hand_counts)
    copy_into(board.tops, into.tops)
    copy_into(board.display, into.display)
    copy_into(board.signals, into.signals)
    copy_into(board.signal_args, into.signal_args)
    copy_into(state.pieces, world.pieces)
    copy_into(state.deck, world.deck)
    copy_into(state.queue, world.queue)
    copy_into(state.shown_at, world.shown_at)
    copy_into(state.rush_deadline, world.rush_deadline)
    copy_into(state.count, world.count)
    copy_into(state.lands_at, world.lands_at)
    copy_into(state.started_at, world.started_at)
    copy_into(state.target, world.target)
    copy_into(state.changed_at, world.changed_at)


@jit_inline
def in_sight(other, i, world, on_the_clock):
    """Whether the other baker's hand piece ``i`` is on its way to a plate (Eilauftrag)."""
    # Compiled into ``deal_unseen``.
    return on_the_clock and world.lands_at[other] != np.inf and world.target[other, 0] == i


@jit_borrowing
def deal_unseen(baker, world, unseen, open_hands, on_the_clock):
    """Deal the pieces ``baker`` has not seen afresh, and shuffle the cards to come."""
    hands, hand_counts, pieces, count = (world.board.hands, world.board.hand_counts,
                                         world.pieces, world.count)
    n = 0
    for other in range(hands.shape[0]):
        if other != baker and not open_hands:
            for i in range(hand_counts[other]):
                if not in_sight(other, i, world, on_the_clock):
                    unseen[n] = hands[other, i]
                    n += 1
    for k in range(count[DRAWN], pieces.shape[0]):
        unseen[n] = pieces[k]
        n += 1
    # Sorted first, so that the worlds depend on which pieces are unseen, never on where
    # they lie: the lookahead cannot peek.
    sort_range(unseen, 0, n)
    shuffle_range(world.stream, unseen, 0, n)
    n = 0
    for other in range(hands.shape[0]):
        if other != baker and not open_hands:
            for i in range(hand_counts[other]):
                if not in_sight(other, i, world, on_the_clock):
                    hands[other, i] = unseen[n]
                    n += 1
    for k in range(count[DRAWN], pieces.shape[0]):
        pieces[k] = unseen[n]
        n += 1
    shuffle_range(world.stream, world.queue, count[HEAD], count[TAIL])


@jit_inline
def play_out(baker, slot, plate, depth, world, rules, params):
    """Place the candidate, then ``depth`` placements of the policy in turn order; the
    outcome's ending (WON, STUCK, HANDS_EMPTY or -1 still going)."""
    # Compiled into ``lookahead_move`` with the rule steps it runs: no bundle is copied.
    board = world.board
    hand_counts = board.hand_counts
    players = hand_counts.shape[0]
    place_and_draw(baker, slot, plate, world)
    if after_placement(world, baker, rules, params):
        return WON
    mover = baker
    for _ in range(depth):
        if hand_counts.sum() == 0:
            return HANDS_EMPTY
        mover = (mover + 1) % players
        while hand_counts[mover] == 0:
            mover = (mover + 1) % players
        i, p, _, _, _, _ = choose_move(params[mover], mover, board, rules,
                                       next_with_pieces(hand_counts, mover),
                                       rules.mode == OPEN_HANDS, world.stream)
        if i < 0:
            return STUCK
        place_and_draw(mover, i, p, world)
        if after_placement(world, mover, rules, params):
            return WON
    return -1


@jit_inline
def play_out_on_the_clock(baker, slot, plate, depth, world, rules, params, timing):
    """Start the candidate now, then let pieces land on the clock, the policy deciding
    for every idle baker, until ``depth`` more have landed; the ending or -1."""
    # Compiled into ``lookahead_move`` with the rule steps it runs: no bundle is copied.
    board = world.board
    options = legal_count(board.hands[baker], board.hand_counts[baker], board.tops, rules)
    now = world.started_at[baker]
    start_attempt_at(baker, now, slot, plate, options, world, timing)
    policy_attempts(now, world, rules, params, timing)
    landed = 0
    while True:
        mover, clock, placed, won = land_next(world, rules, params)
        if mover < 0:
            return HANDS_EMPTY if board.hand_counts.sum() == 0 else STUCK
        if won:
            return WON
        if placed:
            landed += 1
            if landed > depth:
                return -1
        policy_attempts(clock, world, rules, params, timing)


@jit_borrowing
def policy_attempts(clock, world, rules, params, timing):
    """``kernel._start_attempts`` in a play-out: every idle baker decides with its weights
    (a lookahead seat too) whether to start now, one must if none is placing."""
    # The kernel's attempts decide with ``decide``, which may call the lookahead: one
    # driver for both would make the lookahead compile into itself.
    lands_at = world.lands_at
    players = lands_at.shape[0]
    for baker in range(players):
        if lands_at[baker] == np.inf:
            policy_attempt(baker, clock, world, rules, params, timing, np.inf)
    for baker in range(players):
        if lands_at[baker] != np.inf:
            return
    for baker in range(players):
        if policy_attempt(baker, clock, world, rules, params, timing, 0.0):
            for other in range(players):
                if lands_at[other] == np.inf:
                    policy_attempt(other, clock, world, rules, params, timing, np.inf)
            return


@jit_borrowing
def policy_attempt(baker, clock, world, rules, params, timing, most_patience):
    """``kernel._start_attempt`` with the baker's weights: whether it started."""
    board = world.board
    if board.hand_counts[baker] == 0:
        return False
    options = legal_count(board.hands[baker], board.hand_counts[baker], board.tops, rules)
    if options == 0:
        return False
    slot, plate, _, _, _, worth = choose_move(params[baker], baker, board, rules,
                                              next_with_pieces(board.hand_counts, baker),
                                              rules.mode == OPEN_HANDS, world.stream)
    if waits(baker, worth, most_patience, world, params):
        return False
    start_attempt_at(baker, clock, slot, plate, options, world, timing)
    return True


@jit_inline
def play_out_value(ending, done_before, world, rules):
    """A play-out's value: cards fulfilled, a win above and a loss below everything else,
    and a fraction for the displayed cards left one plate away."""
    # Compiled into ``lookahead_move``.
    count, board = world.count, world.board
    if ending == WON:
        return count[TO_FULFIL] + 1.0
    if ending >= 0:  # STUCK or HANDS_EMPTY: the game is lost
        return -1.0
    near, shown = 0, 0
    now = board_with(board.tops, -1, 0, rules.type_flavour.shape[0])
    for s in range(board.display.shape[0]):
        if board.display[s] >= 0:
            shown += 1
            if plates_missing(rules.card_gaps, now, board.display[s]) == 1:
                near += 1
    return (count[DONE] - done_before) + 0.5 * near / max(shown, 1)


@jit_inline
def waits_whatever(baker, team_worth, n, gaps_now, state, rules, params, plan,
                   most_patience):
    """Whether the baker waits (``steps.waits``) whichever of the ``n`` candidates and
    the team's placement its search picks: all are worth less than its patience."""
    # Compiled into ``lookahead_move``. In the Eilauftrag many decisions end in waiting
    # (Hofzuckerbäcker: about 40 % with 2 bakers, 55 % with 3, 70 % with 5), and a
    # search costs thousands of placements' evaluations; these checks cost a few.
    if not waits(baker, team_worth, most_patience, state, params):
        return False
    board = state.board
    next_baker = next_with_pieces(board.hand_counts, baker)
    for c in range(n):
        worth = placement_value(params[baker], baker, plan.slots[c], plan.plates[c],
                                gaps_now, board, rules, next_baker,
                                rules.mode == OPEN_HANDS)[1]
        if not waits(baker, worth, most_patience, state, params):
            return False
    return True


@jit_borrowing
def lookahead_move(baker, state, rules, params, plan, timing, most_patience):
    """``(hand slot, plate, reason, card slot, detail, worth)`` of the lookahead baker,
    as ``strategies.choose_move`` gives them; ``params`` holds one row per baker,
    ``timing`` the Eilauftrag's profile (``kernel.Bakers.timing``; empty in turn mode),
    ``most_patience`` the cap on the baker's patience (``steps.waits``; 0 in turn mode)."""
    # Called, not compiled into the game loops like ``choose_move``: copying the bundles
    # costs nothing beside the play-outs, and one compiled copy keeps compiling quick.
    own, board = params[baker], state.board
    open_hands = rules.mode == OPEN_HANDS
    next_baker = next_with_pieces(board.hand_counts, baker)
    team = choose_move(own, baker, board, rules, next_baker, open_hands, state.stream)
    if team[0] < 0:
        return team
    # The candidates: the legal placements with the best team scores, best first.
    hand, count, tops = board.hands[baker], board.hand_counts[baker], board.tops
    gaps_now = display_gaps(board, rules)
    wanted = int(own[W_CANDIDATES])
    n = 0
    for i in range(count):
        for p in range(tops.shape[0]):
            if not fits_top(hand[i], tops[p], rules.fit_mask):
                continue
            score = placement_value(own, baker, i, p, gaps_now, board, rules, next_baker,
                                    open_hands)[0]
            at = n
            while at > 0 and plan.scores[at - 1] < score:
                at -= 1
            if at >= wanted:
                continue
            for k in range(min(n, wanted - 1), at, -1):
                plan.slots[k], plan.plates[k], plan.scores[k] = (plan.slots[k - 1],
                                                                 plan.plates[k - 1],
                                                                 plan.scores[k - 1])
            plan.slots[at], plan.plates[at], plan.scores[at] = i, p, score
            n = min(n + 1, wanted)
    if n < 2:
        return team
    clairvoyant = own[W_CLAIRVOYANT] > 0
    worlds = 1 if clairvoyant else int(own[W_SAMPLES])
    if waits_whatever(baker, team[5], n, gaps_now, state, rules, params, plan,
                      most_patience):
        # The search would pick a placement the baker does not start: skip it, but draw
        # its worlds' keys, so that every later draw is the one a search leaves.
        for _ in range(worlds):
            next_u64(state.stream)
        return team
    plan.values[:n] = 0.0
    world = plan.world
    depth = int(own[W_DEPTH])
    on_the_clock = timing.shape[0] > 0
    for _ in range(worlds):
        key = next_u64(state.stream)
        for c in range(n):
            copy_state(state, world)
            world.stream[0], world.stream[1] = key, 0
            if not clairvoyant:
                deal_unseen(baker, world, plan.unseen, open_hands, on_the_clock)
            if on_the_clock:
                ending = play_out_on_the_clock(baker, plan.slots[c], plan.plates[c], depth,
                                               world, rules, params, timing)
            else:
                ending = play_out(baker, plan.slots[c], plan.plates[c], depth, world,
                                  rules, params)
            plan.values[c] += play_out_value(ending, state.count[DONE], world, rules)
    best = 0
    for c in range(1, n):
        if plan.values[c] > plan.values[best]:
            best = c
    slot, plate = plan.slots[best], plan.plates[best]
    if slot == team[0] and plate == team[1]:
        return team
    worth = placement_value(own, baker, slot, plate, gaps_now, board, rules, next_baker,
                            open_hands)[1]
    return slot, plate, LOOKED_AHEAD, -1, n, worth


@jit_inline
def decide(baker, state, rules, params, plan, timing, most_patience):
    """Baker ``baker``'s placement by its chooser: ``strategies.choose_move`` or the
    lookahead; ``(hand slot, plate, reason, card slot, detail, worth)``.
    ``most_patience`` caps the baker's patience (``steps.waits``; 0 in turn mode)."""
    # Compiled into the kernel's game loops, like the choosers it dispatches to.
    if params[baker, 0] == LOOKAHEAD:
        return lookahead_move(baker, state, rules, params, plan, timing, most_patience)
    board = state.board
    return choose_move(params[baker], baker, board, rules,
                       next_with_pieces(board.hand_counts, baker),
                       rules.mode == OPEN_HANDS, state.stream)
