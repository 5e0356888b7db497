"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 1), on fixed-size integer arrays. All game constants arrive in a ``RuleData``
(built from ``TableRules.arrays``); the results go into preallocated output arrays, one row
per game. The arrays travel in a few named bundles (``typing.NamedTuple``: Numba reads
their fields at no cost, but a call that is not inlined is passed every array of a bundle,
so the hot paths hand bundles only to ``jit_inline`` functions):

- ``RuleData``: the per-table constants;
- ``Strategies``: codes, weights, chance tables and fitted policies, by player and (a
  copy) by seat;
- ``GameState``: one game in progress, whose ``View`` is what every decision reads;
- ``Scratch``: the decision functions' working space;
- ``Results``: the output arrays;
- ``search.SearchSpace``: the search player's working space.

The rule steps themselves are in ``steps.py`` (the game as a machine that pauses at a
search player's decisions), the search player in ``search.py``.

Seats are in play order (seat 0 the first waiter of the first round); ``P`` is the player
count, ``kinds`` the rule set's kind count (and one more, the joker's own, when the joker
is in the box), ``n`` the slices per cake and ``box`` all slices of a game.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import DEAL_STREAM, DECISION_STREAM, reset_stream
from cakesim.games.piece_o_cake.fitted import (
    HIDDEN,
    fitted_move,
    fitted_to_move,
    move_width,
    position_width,
)
from cakesim.games.piece_o_cake.lookahead import look_ahead, waits_for_lookahead
from cakesim.games.piece_o_cake.search import SearchSpace
from cakesim.games.piece_o_cake.steps import (
    COLLECTED,
    DECLINES,
    DISCARDED,
    EATEN,
    JOKER_EATEN_ROUNDS,
    JOKER_PLACED_ROUNDS,
    PASSES,
    SWAPS,
    advance,
    deal_round,
    score_game,
    start_game,
)
from cakesim.games.piece_o_cake.strategies import (
    DEPTH,
    ITERATIONS,
    chance_table_shape,
    fill_chances,
    most_in_pile,
)
from cakesim.kits.bandit import new_bandit
from cakesim.kits.search import decide
from cakesim.kits.seating import reseat, seat_of_deal
from cakesim.kits.tree import new_tree, tree_depth, tree_nodes


class RuleData(NamedTuple):
    """A table's constants: the rule data of ``TableRules.arrays`` and what follows from it."""

    # (box,) uint8: each slice's kind (an index into the rule set's kinds), in box order.
    slice_kind: np.ndarray
    # (box,) int8: each slice's cream dollops, in box order.
    slice_cream: np.ndarray
    # (kinds,) int16: the points for the majority in each kind (the joker's kind: 0).
    majority_value: np.ndarray
    # int: rounds per game, each a fresh deal of ``cakes`` cakes; totals are summed.
    rounds: int
    # int: the joker's kind code (the box's last slice is the joker), -1 without it.
    joker_kind: int
    # int: the points an eaten joker scores (its ``slice_cream``).
    joker_points: int
    # bool: the joker may go on a kind first collected in the take that got it (rule-set
    # placement "same_take"); else only on one collected before (RULES.md s1, "earlier").
    joker_same_take: bool
    # int: cakes per round.
    cakes: int
    # int: slices per cake, n; the last ``box - cakes * n`` dealt slices are set aside.
    slices_per_cake: int
    # int: the most portions a waiter may cut.
    portion_limit: int
    # bool: whether tied majorities score (tie rule "full") or nobody scores them.
    ties_score: bool
    # (cakes,) bool: [cake] whether that cake's waiter keeps a set-aside slice after it.
    bonus_after_cake: np.ndarray
    # (P,) int16: [seat] points added to the seat's final total (rule-set ``seat_bonus``;
    # all 0 as published), seat 0 the first waiter.
    seat_bonus: np.ndarray
    # (cuts,) int32: every legal cut as a gap mask (``slicing.circle.cut_table``).
    cut_masks: np.ndarray
    # (kinds,) int16: how many slices of each kind the box holds.
    kind_count: np.ndarray
    # bool: every slice of a kind carries the same cream, so the cutters may take every
    # slice's gain from one plan of the circle (``strategies._value_circle``). The
    # reference engine turns it off, so that parity also checks the reuse.
    reuse_gains: bool


class Strategies(NamedTuple):
    """Strategies, one row per player (``players``) or per seat (``seats``, what decides)."""

    # (P, 2) int8: [row, 0] chooser code (``strategies.CHOOSERS``), [row, 1] cutter code
    # (``strategies.CUTTERS``).
    codes: np.ndarray
    # (P, weights) float64: [row, w] weight w, in ``strategies.PARAMETERS`` order.
    params: np.ndarray
    # (P, 2, most + 1, 2 * most + 1) float64: [row, plane, still open, lead + most] the
    # row's chance table (``strategies.fill_chances``; planes CHANCE and RISE); ``most`` is
    # the largest ``RuleData.kind_count``.
    chances: np.ndarray
    # (P, weights) float64: [row, i] weight i of the row's fitted chooser (``fitted.py``:
    # the network's layers, flat, ``fitted.policy_shape``); zeros for a row that does not
    # choose by ``fitted``, and (P, 0) when no row does.
    policy: np.ndarray


class View(NamedTuple):
    """The game as every player sees it, and the decision stream: all a decision reads."""

    # (2,) uint64: the game's decision stream (``seeding.reset_stream``): every random
    # choice of a strategy draws from it.
    stream: np.ndarray
    # (P, kinds) int16: [seat, kind] the seat's face-up collected slices of the kind.
    collected: np.ndarray
    # (P, kinds) int16: [seat, kind] the cream dollops on those slices.
    collected_cream: np.ndarray
    # (kinds,) int16: slices of each kind not yet revealed (later cakes, set-aside slices).
    unseen: np.ndarray
    # (kinds,) int16: slices of each kind still to be decided: unseen, or on the table in a
    # portion nobody has taken (for the cut, the whole cake).
    still_open: np.ndarray
    # (n,) uint8: [position] the kind of each slice of the cake on the table, around the
    # circle in stack order.
    cake_kind: np.ndarray
    # (n,) int8: [position] the cream of each slice of that cake.
    cake_cream: np.ndarray
    # (n,) int64: [portion] the first position of each portion of the cut, in cut order
    # (``slicing.circle.arcs_of_cut``); rows past the cut's portion count are stale.
    portion_start: np.ndarray
    # (n,) int64: [portion] how many slices each portion has.
    portion_len: np.ndarray
    # (n,) bool: [portion] whether a chooser has taken the portion.
    portion_taken: np.ndarray
    # (box - cakes * n,) uint8: [a] the kind of each set-aside slice, in stack order.
    aside_kind: np.ndarray
    # (box - cakes * n,) int8: [a] the cream of each set-aside slice.
    aside_cream: np.ndarray
    # (box - cakes * n,) bool: [a] whether the set-aside slice is still there.
    aside_left: np.ndarray
    # (3,) int16: where the joker is (``strategies.JOKER_WHERE``), the seat that took it
    # (``JOKER_SEAT``) and the kind it stands on (``JOKER_KIND``).
    joker: np.ndarray
    # (kinds,) int16: [kind] the slices of the kind on the pile of the seat taking now (a
    # portion, or a set-aside slice) before its take began: where the joker it gets may
    # go (``strategies.may_place_joker``). Stale between takes, when nobody reads it.
    before_take: np.ndarray


class GameState(NamedTuple):
    """One game in progress: the players' view and what only the kernel tracks.

    Allocated once per batch (``new_state``); ``play_game`` resets it for each game.
    """

    # View: the table as every player sees it (a field named ``view`` would not compile).
    seen: View
    # (box,) int16: the deal, slice indices into the box in stack order: the cakes one
    # after another (n each), then the set-aside slices (``deal_order``).
    order: np.ndarray
    # (2,) uint64: the deal stream that shuffles ``order``.
    deal_stream: np.ndarray
    # (P,) int16: [seat] the cream dollops on the seat's eaten (face-down) slices.
    eaten_cream: np.ndarray
    # (P,) int16: [seat] how many slices the seat has eaten.
    eaten_count: np.ndarray
    # (4,) int64: where the game is (``steps.ROUND``, ``steps.CAKE``, ``steps.TURN``) and
    # the cut's portion count (``steps.PORTIONS``).
    clock: np.ndarray
    # (4,) int64: the joker decision the turn waits for (``steps.PENDING``), its seat, and
    # for a swap the real slice's cream and whether it was eaten (``steps.SWAP_CREAM``...).
    pending: np.ndarray
    # (2, P) int16: [BANKED_MAJORITY or BANKED_CREAM, seat] points of the finished rounds.
    banked: np.ndarray
    # (P,) int16: [seat] the round's majority points, as ``steps.end_round`` works them out.
    majority: np.ndarray
    # (8,) int16: the game's declines, passes, discarded slices, joker swaps, eaten and
    # collected slices, and rounds ending with the joker eaten or placed
    # (``steps.DECLINES`` ...).
    tally: np.ndarray


class Scratch(NamedTuple):
    """The decision functions' working space; what it holds between decisions is garbage."""

    # (kinds,) int16: [kind] the most slices of the kind any other seat has collected
    # (``strategies.fill_rivals``, once per decision).
    rivals: np.ndarray
    # (kinds,) int16: [kind] slices of the kind collected by the plan being made; zero
    # between plans.
    added: np.ndarray
    # (kinds,) int16: [kind] slices of the kind decided by the plan being made; zero between
    # plans.
    decided: np.ndarray
    # (P, n, n + 1) float64: [seat, start, length] the greedy value to the seat of the arc
    # of ``length`` slices from position ``start`` (``strategies._value_arcs``).
    arc_value: np.ndarray
    # (P,) float64: [seat] the seat's best decline less its threshold, -1 if it has
    # nothing to decline (the enumerating cutter's prediction).
    decline_value: np.ndarray
    # (P,) int64: [seat] the kind of that decline, -1 for none.
    decline_kind: np.ndarray
    # (n,) int64: [arc] the first position of each arc of a cut being tried.
    starts: np.ndarray
    # (n,) int64: [arc] the length of each arc of that cut.
    lengths: np.ndarray
    # (n,) bool: [arc] whether a chooser is predicted to take the arc.
    taken: np.ndarray
    # (kinds, n) float64: [kind, m] the gain of the m-th slice of the kind in any arc
    # (``strategies._value_circle``, with ``RuleData.reuse_gains``).
    known_gain: np.ndarray
    # (cuts,) float64: [cut] the waiter's predicted outcome of each legal cut
    # (``strategies.cut_outcomes``).
    cut_outcome: np.ndarray
    # (P, kinds) int16: [seat, kind] the seat's pile of the kind once a cut's predicted
    # serve is done (``lookahead.predicted_serve``).
    piles: np.ndarray
    # (P,) float64: [seat] the seat's banked points and eaten cream, likewise (a standing's
    # sure points, ``lookahead.standing_lead``).
    points: np.ndarray
    # (fitted.position_width,) float64: the fitted chooser's position inputs.
    position_inputs: np.ndarray
    # (fitted.move_width,) float64: the fitted chooser's inputs of the move being scored.
    move_inputs: np.ndarray
    # (fitted.HIDDEN,) float64: the position's part of the hidden layer, bias included.
    position_hidden: np.ndarray
    # (fitted.HIDDEN,) float64: the hidden layer of the move being scored.
    hidden: np.ndarray


class Results(NamedTuple):
    """The output arrays, one row per game; named as the game's seat and game metrics."""

    # (games, P) int16: [game, seat] total points, majority plus cream.
    total: np.ndarray
    # (games, P) int16: [game, seat] majority points.
    majority: np.ndarray
    # (games, P) int16: [game, seat] cream points (the eaten slices' dollops).
    cream: np.ndarray
    # (games, P) int16: [game, seat] the seat's share of the win, in
    # ``slicing.tabletop.WIN_UNITS`` per game.
    win_units: np.ndarray
    # (games,) int16: [game] declines with eating.
    declines: np.ndarray
    # (games,) int16: [game] passes (declines without eating).
    passes: np.ndarray
    # (games,) int16: [game] slices of portions nobody took.
    discarded: np.ndarray
    # (games,) int16: [game] slices eaten, at the end of the game.
    eaten_slices: np.ndarray
    # (games,) int16: [game] slices collected (face up), at the end of the game.
    collected_slices: np.ndarray
    # (games,) int16: [game] joker swaps.
    swaps: np.ndarray
    # (games,) int16: [game] rounds that ended with the joker eaten.
    joker_eaten: np.ndarray
    # (games,) int16: [game] rounds that ended with the joker on a pile.
    joker_placed: np.ndarray


def rule_data(arrays: dict, cut_masks: np.ndarray, reuse_gains: bool = True) -> RuleData:
    """A table's ``RuleData`` from its ``TableRules.arrays`` and its cut table.

    With ``reuse_gains`` the cutters reuse one plan's gains wherever the rules allow it
    (``same_cream_kinds``); the reference engine passes False.
    """
    kinds = arrays["majority_value"].shape[0]
    kind_count = np.bincount(arrays["slice_kind"], minlength=kinds).astype(np.int16)
    reuse = reuse_gains and bool(same_cream_kinds(arrays["slice_kind"], arrays["slice_cream"],
                                                  kinds))
    return RuleData(**arrays, cut_masks=cut_masks, kind_count=kind_count, reuse_gains=reuse)


@jit_borrowing
def deal_order(seed, deal, jokers, deal_stream, order):
    """Deal ``deal``'s first round into ``order`` (``steps.deal_round``); later rounds are
    dealt from the same ``deal_stream``."""
    reset_stream(deal_stream, seed, deal, DEAL_STREAM)
    deal_round(deal_stream, order, jokers)


@jit
def same_cream_kinds(slice_kind, slice_cream, kinds):
    """Whether every slice of each kind carries the same cream (see ``_value_circle``)."""
    cream_of_kind = np.full(kinds, -1, dtype=np.int64)
    for s in range(slice_kind.shape[0]):
        kind = slice_kind[s]
        if cream_of_kind[kind] < 0:
            cream_of_kind[kind] = slice_cream[s]
        elif slice_cream[s] != cream_of_kind[kind]:
            return False
    return True


@jit
def new_state(rules, players):
    """A ``GameState`` for ``players`` seats at a table of ``rules`` (``play_game`` resets it)."""
    kinds = rules.majority_value.shape[0]
    n = rules.slices_per_cake
    box = rules.slice_kind.shape[0]
    aside = box - rules.cakes * n
    seen = View(
        stream=np.zeros(2, dtype=np.uint64),
        collected=np.zeros((players, kinds), dtype=np.int16),
        collected_cream=np.zeros((players, kinds), dtype=np.int16),
        unseen=np.zeros(kinds, dtype=np.int16),
        still_open=np.zeros(kinds, dtype=np.int16),
        cake_kind=np.zeros(n, dtype=np.uint8),
        cake_cream=np.zeros(n, dtype=np.int8),
        portion_start=np.zeros(n, dtype=np.int64),
        portion_len=np.zeros(n, dtype=np.int64),
        portion_taken=np.zeros(n, dtype=np.bool_),
        aside_kind=np.zeros(aside, dtype=np.uint8),
        aside_cream=np.zeros(aside, dtype=np.int8),
        aside_left=np.zeros(aside, dtype=np.bool_),
        joker=np.zeros(3, dtype=np.int16),
        before_take=np.zeros(kinds, dtype=np.int16))
    return GameState(
        seen=seen,
        order=np.empty(box, dtype=np.int16),
        deal_stream=np.zeros(2, dtype=np.uint64),
        eaten_cream=np.zeros(players, dtype=np.int16),
        eaten_count=np.zeros(players, dtype=np.int16),
        clock=np.zeros(4, dtype=np.int64),
        pending=np.zeros(4, dtype=np.int64),
        banked=np.zeros((2, players), dtype=np.int16),
        majority=np.zeros(players, dtype=np.int16),
        tally=np.zeros(8, dtype=np.int16))


@jit
def new_scratch(rules, players):
    """The decision functions' ``Scratch`` for ``players`` seats at a table of ``rules``."""
    kinds = rules.majority_value.shape[0]
    n = rules.slices_per_cake
    return Scratch(
        rivals=np.zeros(kinds, dtype=np.int16),
        added=np.zeros(kinds, dtype=np.int16),
        decided=np.zeros(kinds, dtype=np.int16),
        arc_value=np.zeros((players, n, n + 1)),
        decline_value=np.zeros(players),
        decline_kind=np.zeros(players, dtype=np.int64),
        starts=np.zeros(n, dtype=np.int64),
        lengths=np.zeros(n, dtype=np.int64),
        taken=np.zeros(n, dtype=np.bool_),
        known_gain=np.zeros((kinds, n)),
        cut_outcome=np.zeros(rules.cut_masks.shape[0]),
        piles=np.zeros((players, kinds), dtype=np.int16),
        points=np.zeros(players),
        position_inputs=np.zeros(position_width(players, kinds)),
        move_inputs=np.zeros(move_width(kinds)),
        position_hidden=np.zeros(HIDDEN), hidden=np.zeros(HIDDEN))


@jit
def new_search_space(rules, params, chances, policy):
    """The search player's ``SearchSpace`` at a table of ``rules``, for strategies whose
    weights, chance tables and fitted networks are shaped as ``params``, ``chances`` and
    ``policy`` (a row per player)."""
    players = params.shape[0]
    n = rules.slices_per_cake
    kinds = rules.majority_value.shape[0]
    box = rules.slice_kind.shape[0]
    cuts = rules.cut_masks.shape[0]
    moves = max(cuts, n + kinds + 1, 2 * (box - rules.cakes * n))
    # A searcher with a fitted chooser plays out with its network (search.seat_rollout);
    # the lookahead's model seats never choose by ``fitted``: their policy rows stay empty.
    rollout = Strategies(np.zeros((players, 2), dtype=np.int8), np.zeros_like(params),
                         np.zeros_like(chances), np.zeros_like(policy))
    iterations, depth = params[:, ITERATIONS], params[:, DEPTH]
    model = Strategies(np.zeros((players, 2), dtype=np.int8), np.zeros_like(params),
                       np.zeros_like(chances), np.zeros((players, 0)))
    return SearchSpace(
        world=new_state(rules, players), rollout=rollout,
        bandit=new_bandit(box, moves, rules.cut_masks),
        tree=new_tree(tree_nodes(iterations, depth), tree_depth(depth), box, moves,
                      rules.cut_masks),
        inner=new_state(rules, players), model=model,
        majority=np.zeros(players, dtype=np.int16),
        total=np.zeros(players, dtype=np.int16), win_units=np.zeros(players, dtype=np.int16))


def play_games(seed, first_game, duplicate, rules, codes, params, policy, results, search):
    """Play ``results.total.shape[0]`` games; seat 0 is the first waiter, seats in play order.

    ``codes[j]``/``params[j]``/``policy[j]`` is player ``j``'s strategy (``policy``: its
    fitted chooser's weights, ``Strategies.policy``); player ``j`` sits at seat
    ``(j + rotation) % P``. Per seat: total, majority and cream points and win units;
    per game: declines with eating, passes, discarded slices, eaten and collected slices.
    ``search`` is true when a player searches, ``None`` when none does (the kernel is then
    compiled without the search: ``decide`` typed for a ``None`` space is one ``raise``).

    Plain Python: every array is allocated here, once, and ``play_batch`` plays the games
    in them. Compiled, this function only added a level to the first compile (Numba links
    every callee into its caller's library and optimises it again): 8 to 10 s of each
    build's 45 to 120 s, for about 20 us of Python per chunk.
    """
    play_batch(seed, first_game, duplicate, rules,
               *new_bundles(rules, codes, params, policy, search), results)


def new_bundles(rules, codes, params, policy, search):
    """The bundles a batch of games is played in: the strategies by player and by seat,
    the game, the scratch space and the search's space (``None`` without ``search``)."""
    players = codes.shape[0]
    planes, opens, leads = chance_table_shape(most_in_pile(rules.kind_count, rules.joker_kind))
    chances = np.zeros((players, planes, opens, leads))
    for player in range(players):
        fill_chances(params[player], rules.ties_score, chances[player])
    by_player = Strategies(codes, params, chances, policy)
    seats = Strategies(np.empty_like(codes), np.empty_like(params), np.empty_like(chances),
                       np.empty_like(policy))
    space = None if search is None else new_search_space(rules, params, chances, policy)
    return (by_player, seats, new_state(rules, players), new_scratch(rules, players), space)


@jit_borrowing
def play_batch(seed, first_game, duplicate, rules, by_player, seats, state, scratch, space,
               results):
    """The games of ``play_games``, in arrays it allocated (so that no call counts references)."""
    seated = -1
    for g in range(results.total.shape[0]):
        seated = set_up_game(seed, first_game + g, duplicate, rules, by_player, seats, state,
                             seated)
        play_game(g, rules, seats, state, scratch, space, results)


@jit_inline
def set_up_game(seed, game, duplicate, rules, by_player, seats, state, seated):
    """Seat the players for game ``game`` and deal it; returns the rotation seated (the
    caller passes it back, ``seated``, so that an unchanged rotation is not copied again)."""
    deal, rotation = seat_of_deal(game, seats.codes.shape[0], duplicate)
    # Copying the chance tables costs more than a short game: reseat on a new rotation.
    if rotation != seated:
        seat_strategies(rotation, by_player, seats)
    deal_order(seed, deal, 1 if rules.joker_kind >= 0 else 0, state.deal_stream, state.order)
    reset_stream(state.seen.stream, seed, game, DECISION_STREAM)
    return rotation


@jit_borrowing
def seat_strategies(rotation, by_player, seats):
    """Seat ``(j + rotation) % P`` gets player ``j``'s codes, weights, chance table and
    fitted policy."""
    reseat(rotation, by_player.codes, seats.codes)
    reseat(rotation, by_player.params, seats.params)
    reseat(rotation, by_player.chances, seats.chances)
    reseat(rotation, by_player.policy, seats.policy)


# Compiled into ``play_batch``: called once per game, it was passed every array of its
# bundles (seven machine words each).
@jit_inline
def play_game(g, rules, seats, state, scratch, space, results):
    """Play one dealt game (``state.order``) into output row ``g``.

    The rule steps play every heuristic decision (``steps.advance``); a fitted chooser's
    move is made by ``fitted.fitted_move``, a lookahead cut or move by
    ``lookahead.look_ahead``, every other searching seat's decision by ``search.decide``.
    """
    start_game(rules, state)
    while not advance(rules, seats, state, scratch):
        if fitted_to_move(seats, state):
            fitted_move(rules, seats, state, scratch, space)
        elif waits_for_lookahead(seats, state):
            look_ahead(rules, seats, state, scratch, space)
        else:
            decide(rules, seats, state, scratch, space)
    score_game(rules, state, results.majority[g], results.total[g], results.win_units[g])
    for seat in range(results.total.shape[1]):
        results.cream[g, seat] = (results.total[g, seat] - results.majority[g, seat]
                                  - rules.seat_bonus[seat])
    tally = state.tally
    results.declines[g] = tally[DECLINES]
    results.passes[g] = tally[PASSES]
    results.discarded[g] = tally[DISCARDED]
    results.eaten_slices[g] = tally[EATEN]
    results.collected_slices[g] = tally[COLLECTED]
    results.swaps[g] = tally[SWAPS]
    results.joker_eaten[g] = tally[JOKER_EATEN_ROUNDS]
    results.joker_placed[g] = tally[JOKER_PLACED_ROUNDS]
