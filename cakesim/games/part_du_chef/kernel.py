"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 2), on fixed-size integer arrays. All game constants arrive in the ``Rules``
bundle (``TableRules.arrays`` and the table's cuts, see ``table_rules``); the results go
into the preallocated ``Results`` arrays, one row per game.

Everything a function reads travels in a few named bundles (``typing.NamedTuple``s of
arrays and scalars, which Numba passes like the arrays they hold): ``Rules`` (the table's
constants), ``Strategies`` (the players'), ``State`` (a game in progress, whose ``View``
is the game as every player sees it), ``Scratch`` (the decision functions' working
space), ``Sheet`` (the score sheet), ``Results`` and ``search.SearchSpace`` (the search
player's working space). In the encodings below ``P`` is the player count, ``K`` the
number of pizza kinds, ``n`` the slices of a pizza, ``box`` the slices in the box and
``G`` the games of a chunk. Categories: ``0 .. K-1`` the kinds, ``K`` pepper, ``K + 1``
burnt; seats are numbered in play order, seat 0 the first chef.

The rule steps themselves are in ``steps.py`` (the game as a machine that pauses at a
search player's decisions), the search player in ``search.py``.
"""

from functools import cache
from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import DEAL_STREAM, DECISION_STREAM, below, game_key, shuffle_in_place
from cakesim.games.part_du_chef.lookahead import look_ahead, waits_for_lookahead
from cakesim.games.part_du_chef.search import SearchSpace
from cakesim.games.part_du_chef.steps import (
    EMPTY_STEALS,
    FINISHERS_EATEN,
    MARIANNE_PIZZA,
    STEALS,
    advance,
    assign_peppers,
    score_game,
    start_game,
)
from cakesim.games.part_du_chef.strategies import DEPTH, ITERATIONS
from cakesim.games.slicing.circle import cut_table
from cakesim.games.slicing.cutting import arc_table
from cakesim.games.slicing.tabletop import WIN_UNITS
from cakesim.kits.bandit import new_bandit
from cakesim.kits.search import decide
from cakesim.kits.seating import reseat, seat_of_deal
from cakesim.kits.tree import new_tree, tree_depth, tree_nodes

__all__ = ["WIN_UNITS", "Results", "Rules", "Scratch", "Sheet", "State", "Strategies", "View",
           "assign_peppers", "deal_pizzas", "new_scratch", "new_search_space", "new_sheet",
           "new_state", "play_games", "score_game", "seat_of_deal", "table_rules"]


class Rules(NamedTuple):
    """Per-table constants: the rule set at a table (``TableRules.arrays``) and its cuts."""

    slice_category: np.ndarray  # (box,) int8: category of box slice s, component-list order
    slice_olives: np.ndarray  # (box,) int8: olives on box slice s
    slice_finisher: np.ndarray  # (box,) bool: box slice s is its kind's finisher
    majority_value: np.ndarray  # (K,) int16: points of a majority in kind k; K is its length
    pizzas: int  # pizzas per game; pizza p is cut by seat p % P
    slices_per_pizza: int  # n: slices around a pizza's circle
    diversity_bonus: int  # points per slice of a seat's scarcest kind (peppers assigned)
    slice_point: int  # points per received slice (per held one if receipt_holder)
    burnt_penalty: int  # points lost per kept burnt slice
    receipt_holder: bool  # receipt point: True follows the slice, False stays with the receiver
    pepper_sequential: bool  # peppers: True holder after holder, False all against bare counts
    marianne: bool  # La Marianne is in play (held by seat MARIANNE_HOLDER)
    cut_masks: np.ndarray  # (cuts,) int32: every cut into exactly P arcs, as a gap mask
    cut_starts: np.ndarray  # (cuts, P) int64: [cut, arc] first position of the arc
    cut_lengths: np.ndarray  # (cuts, P) int64: [cut, arc] slices in the arc


class Strategies(NamedTuple):
    """The players' strategies (see ``strategies.py``): codes and weights, and their seating.

    The decision functions read the seat rows; the kernel copies player ``j``'s rows to
    seat ``(j + rotation) % P`` for every game, the reference engine passes the same
    arrays for both (its strategies come by seat).
    """

    codes: np.ndarray  # (P, 4) int8: [player, CHOOSER/CUTTER/THIEF/MARIANNE] strategy codes
    params: np.ndarray  # (P, weights) float64: [player, EAT_WEIGHT ...] weights (PARAMETERS)
    seat_codes: np.ndarray  # (P, 4) int8: codes, one row per seat
    seat_params: np.ndarray  # (P, weights) float64: params, one row per seat


class View(NamedTuple):
    """The game in progress as every player sees it: what the decision functions read."""

    kept: np.ndarray  # (P, K + 2) int16: [seat, category] slices kept face up
    unseen: np.ndarray  # (K + 2,) int16: [category] slices on pizzas not yet laid out
    pizza_category: np.ndarray  # (n,) int8: [position] category on the pizza on the table
    pizza_olives: np.ndarray  # (n,) int8: [position] olives on the pizza on the table
    pizza_finisher: np.ndarray  # (n,) bool: [position] a finisher on the pizza on the table
    portion_start: np.ndarray  # (n,) int64: [portion] first position; cut's portions first
    portion_len: np.ndarray  # (n,) int64: [portion] slices, clockwise from portion_start
    portion_taken: np.ndarray  # (n,) bool: [portion] already taken by a player


class State(NamedTuple):
    """One game in progress: the players' view, and the deal, the draw streams, what is
    received and eaten, where the game is. Allocated once per batch (``new_state``);
    ``steps.start_game`` resets it for each game."""

    seen: View  # the table as every player sees it (a field named ``view`` would not compile)
    order: np.ndarray  # (pizzas * n,) int16: [pizza * n + position] box slice of the deal
    pool: np.ndarray  # (box - burnt,) int16: the non-burnt box slices, shuffled by the deal
    deal_stream: np.ndarray  # (2,) uint64: [key, counter] draw stream of the deal
    stream: np.ndarray  # (2,) uint64: [key, counter] draw stream of the decisions
    received: np.ndarray  # (P,) int16: [seat] received slices earning the receipt point
    eaten_olives: np.ndarray  # (P,) int16: [seat] olives on the slices eaten
    eaten_count: np.ndarray  # (P,) int16: [seat] slices eaten
    box_count: np.ndarray  # (K + 2,) int16: [category] slices in the box (unseen at the start)
    clock: np.ndarray  # (3,) int64: steps.PIZZA, steps.TURN, steps.PORTIONS: where the game is
    tally: np.ndarray  # (4,) int16: [steps.STEALS ...] the game's counts of the Results


class Scratch(NamedTuple):
    """Working space of the decision functions; nothing in it outlives a decision."""

    still_open: np.ndarray  # (K + 2,) int16: [category] slices not yet kept, eaten or planned
    rivals: np.ndarray  # (K + 2,) int16: [category] most kept by one opponent
    rival_ties: np.ndarray  # (K + 2,) int16: [category] opponents keeping that most
    added: np.ndarray  # (K + 2,) int16: [category] slices kept by the plan being valued
    decided: np.ndarray  # (K + 2,) int16: [category] slices kept or eaten by that plan
    arc_value: np.ndarray  # (P, n, n + 1) float64: [seat, start, length] an arc's value
    taken: np.ndarray  # (n,) bool: [arc] taken, while a cut's outcome is played out
    work: np.ndarray  # (P, K + 2) int16: [seat, category] kept piles after an exchange
    cut_outcome: np.ndarray  # (cuts,) float64: [cut] the chef's predicted outcome of each cut


class Sheet(NamedTuple):
    """The score sheet of a finished game (RULES.md s2 "Scoring") and its working space."""

    assigned: np.ndarray  # (P, K) int16: [seat, kind] peppers assigned to the kind
    counts: np.ndarray  # (P, K) int16: [seat, kind] kept slices with peppers assigned
    assign: np.ndarray  # (max(peppers, 1),) int16: [pepper] kind, in the multiset tried
    extra: np.ndarray  # (K,) int16: [kind] peppers of that multiset
    points: np.ndarray  # (P,) int16: [seat] majority points
    diversity_points: np.ndarray  # (P,) int16: [seat] diversity points
    slice_points: np.ndarray  # (P,) int16: [seat] receipt points
    total: np.ndarray  # (P,) int16: [seat] total score
    wins: np.ndarray  # (P,) int16: [seat] win units (WIN_UNITS split among the top totals)


class Results(NamedTuple):
    """Per-game results: row ``g`` is game ``first_game + g``; seat columns in play order."""

    total: np.ndarray  # (G, P) int16: [game, seat] total score
    majority: np.ndarray  # (G, P) int16: [game, seat] majority points
    olives: np.ndarray  # (G, P) int16: [game, seat] olives eaten
    slices: np.ndarray  # (G, P) int16: [game, seat] receipt points
    diversity: np.ndarray  # (G, P) int16: [game, seat] diversity points
    burnt: np.ndarray  # (G, P) int16: [game, seat] burnt slices kept
    win_units: np.ndarray  # (G, P) int16: [game, seat] win units
    steals: np.ndarray  # (G,) int16: [game] finishers that robbed an opponent
    empty_steals: np.ndarray  # (G,) int16: [game] finishers kept with nobody to rob
    finishers_eaten: np.ndarray  # (G,) int16: [game] finishers eaten
    eaten_slices: np.ndarray  # (G,) int16: [game] slices eaten, all seats
    marianne_pizza: np.ndarray  # (G,) int16: [game] 1-based pizza of La Marianne, 0 unplayed


@cache
def _cuts(slices: int, portions: int) -> dict[str, np.ndarray]:
    """Every cut into exactly ``portions`` arcs, and the arcs of each, as ``Rules`` fields."""
    masks = cut_table(slices, portions, least=portions)
    starts, lengths = arc_table(masks, slices)
    return {"cut_masks": masks, "cut_starts": starts, "cut_lengths": lengths}


def table_rules(table) -> Rules:
    """The ``Rules`` of a table (a ``TableRules``); its cuts are tabulated once per size."""
    arrays = table.arrays
    return Rules(**arrays, **_cuts(arrays["slices_per_pizza"], table.players))


@jit_borrowing
def restart(stream, seed, game, which):
    """Restart draw stream ``stream`` as stream ``which`` of game ``game`` under ``seed``."""
    stream[0] = game_key(seed, game, which)
    stream[1] = 0


@jit_borrowing
def deal_pizzas(seed, deal, rules, deal_stream, order, pool):
    """Deal ``deal``: ``order[pizza * n + position]`` is the component at that place.

    RULES.md s2 "Deal": the non-burnt components are shuffled (``pool``, in component
    order before the shuffle), then each pizza in turn gets its burnt slice at a uniformly
    random position and the next shuffled components in the other places.
    """
    slice_category = rules.slice_category
    burnt = rules.majority_value.shape[0] + 1
    n = rules.slices_per_pizza
    filled = 0
    for s in range(slice_category.shape[0]):
        if slice_category[s] != burnt:
            pool[filled] = s
            filled += 1
    restart(deal_stream, seed, deal, DEAL_STREAM)
    shuffle_in_place(deal_stream, pool)
    pizza = 0
    taken = 0
    for s in range(slice_category.shape[0]):
        if slice_category[s] != burnt:
            continue
        position = below(deal_stream, n)
        for place in range(n):
            if place == position:
                order[pizza * n + place] = s
            else:
                order[pizza * n + place] = pool[taken]
                taken += 1
        pizza += 1


@jit
def new_scratch(players, categories, n, cuts=0):
    """A ``Scratch`` for ``players`` seats, ``categories`` categories and ``n``-slice pizzas.

    The enumerating cutter and the search need ``cuts``, the table's count of cuts
    (``Rules.cut_masks``); the other decisions do without.
    """
    return Scratch(np.zeros(categories, dtype=np.int16), np.zeros(categories, dtype=np.int16),
                   np.zeros(categories, dtype=np.int16), np.zeros(categories, dtype=np.int16),
                   np.zeros(categories, dtype=np.int16), np.zeros((players, n, n + 1)),
                   np.zeros(n, dtype=np.bool_), np.zeros((players, categories), dtype=np.int16),
                   np.zeros(cuts))


@jit
def new_sheet(players, kinds, peppers):
    """A blank ``Sheet`` for ``players`` seats, ``kinds`` kinds and at most ``peppers`` peppers."""
    return Sheet(np.zeros((players, kinds), dtype=np.int16),
                 np.zeros((players, kinds), dtype=np.int16),
                 np.zeros(max(peppers, 1), dtype=np.int16), np.zeros(kinds, dtype=np.int16),
                 np.zeros(players, dtype=np.int16), np.zeros(players, dtype=np.int16),
                 np.zeros(players, dtype=np.int16), np.zeros(players, dtype=np.int16),
                 np.zeros(players, dtype=np.int16))


@jit
def new_state(rules, players):
    """A ``State`` for ``players`` seats at a table of ``rules`` (``start_game`` resets it)."""
    kinds = rules.majority_value.shape[0]
    categories = kinds + 2
    n = rules.slices_per_pizza
    box = rules.slice_category.shape[0]
    box_count = np.zeros(categories, dtype=np.int16)
    for s in range(box):
        box_count[rules.slice_category[s]] += 1
    seen = View(np.zeros((players, categories), dtype=np.int16),
                np.zeros(categories, dtype=np.int16), np.zeros(n, dtype=np.int8),
                np.zeros(n, dtype=np.int8), np.zeros(n, dtype=np.bool_),
                np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                np.zeros(n, dtype=np.bool_))
    return State(seen, np.empty(rules.pizzas * n, dtype=np.int16),
                 np.empty(box - box_count[kinds + 1], dtype=np.int16),
                 np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.uint64),
                 np.zeros(players, dtype=np.int16), np.zeros(players, dtype=np.int16),
                 np.zeros(players, dtype=np.int16), box_count, np.zeros(3, dtype=np.int64),
                 np.zeros(4, dtype=np.int16))


@jit
def new_search_space(rules, strategies):
    """The search player's ``SearchSpace`` at a table of ``rules``, for ``strategies`` (its
    rollout players are shaped as their seat rows)."""
    players = strategies.seat_codes.shape[0]
    kinds = rules.majority_value.shape[0]
    dealt = rules.pizzas * rules.slices_per_pizza
    cuts = rules.cut_masks.shape[0]
    # A cut's candidates are every legal cut; a choice's, at most a portion per slice.
    moves = max(cuts, rules.slices_per_pizza)
    world = new_state(rules, players)
    codes = np.zeros_like(strategies.seat_codes)
    params = np.zeros_like(strategies.seat_params)
    iterations = strategies.seat_params[:, ITERATIONS]
    depth = strategies.seat_params[:, DEPTH]
    return SearchSpace(
        world=world, rollout=Strategies(codes, params, codes, params),
        bandit=new_bandit(dealt, moves, rules.cut_masks),
        tree=new_tree(tree_nodes(iterations, depth), tree_depth(depth), dealt,
                      moves, rules.cut_masks),
        sheet=new_sheet(players, kinds, world.box_count[kinds]))


def play_games(seed, first_game, duplicate, rules, strategies, results, search):
    """Play ``total.shape[0]`` games; seat 0 is the first chef, seats in play order.

    ``codes[j]``/``params[j]`` is player ``j``'s strategy; player ``j`` sits at seat
    ``(j + rotation) % P``. Per seat: total, majority, olives, slice (receipt) points,
    diversity points, kept burnt slices, win units. Per game: finisher steals, finishers
    kept with nobody to rob, finishers eaten, eaten slices, and the pizza (1-based) on
    whose turn La Marianne was played (0: not played). ``search`` is true when a player
    searches, ``None`` when none does (the kernel is then compiled without the search:
    ``decide`` typed for a ``None`` space is one ``raise``).

    Plain Python, as Piece o' Cake's (which says why): every array of a game is allocated
    here, once; ``play_batch``, compiled without reference counting, plays.
    """
    players = results.total.shape[1]
    kinds = rules.majority_value.shape[0]
    state = new_state(rules, players)
    space = None if search is None else new_search_space(rules, strategies)
    play_batch(seed, first_game, duplicate, rules, strategies, state,
               new_scratch(players, kinds + 2, rules.slices_per_pizza, rules.cut_masks.shape[0]),
               new_sheet(players, kinds, state.box_count[kinds]), space, results)


@jit_borrowing
def play_batch(seed, first_game, duplicate, rules, strategies, state, scratch, sheet, space,
               results):
    """The games of ``play_games``, in the arrays it allocated (no call counts references)."""
    players = results.total.shape[1]
    for g in range(results.total.shape[0]):
        game = first_game + g
        deal, rotation = seat_of_deal(game, players, duplicate)
        seat_strategies(rotation, strategies)
        deal_pizzas(seed, deal, rules, state.deal_stream, state.order, state.pool)
        restart(state.stream, seed, game, DECISION_STREAM)
        play_game(g, rules, strategies, state, scratch, sheet, space, results)


# Compiled into ``play_batch``: called once per game, it was passed every array of its
# bundles (seven machine words each).
@jit_inline
def play_game(g, rules, strategies, state, scratch, sheet, space, results):
    """Play one dealt game (``state.order``) into output row ``g``.

    The rule steps play every heuristic decision (``steps.advance``); a lookahead cut or
    choice is made by ``lookahead.look_ahead``, every other searching seat's decision by
    ``search.decide``.
    """
    start_game(rules, state)
    while not advance(rules, strategies, state, scratch):
        if waits_for_lookahead(strategies, state):
            look_ahead(rules, strategies, state, scratch, space)
        else:
            decide(rules, strategies, state, scratch, space)
    score_game(rules, state, sheet)
    kept = state.seen.kept
    charred = rules.majority_value.shape[0] + 1
    for seat in range(results.total.shape[1]):
        results.total[g, seat] = sheet.total[seat]
        results.majority[g, seat] = sheet.points[seat]
        results.olives[g, seat] = state.eaten_olives[seat]
        results.slices[g, seat] = sheet.slice_points[seat]
        results.diversity[g, seat] = sheet.diversity_points[seat]
        results.burnt[g, seat] = kept[seat, charred]
        results.win_units[g, seat] = sheet.wins[seat]
        results.eaten_slices[g] += state.eaten_count[seat]
    results.steals[g] = state.tally[STEALS]
    results.empty_steals[g] = state.tally[EMPTY_STEALS]
    results.finishers_eaten[g] = state.tally[FINISHERS_EATEN]
    results.marianne_pizza[g] = state.tally[MARIANNE_PIZZA]


@jit_borrowing
def seat_strategies(rotation, strategies):
    """Seat ``(j + rotation) % P`` gets player ``j``'s codes and weights."""
    reseat(rotation, strategies.codes, strategies.seat_codes)
    reseat(rotation, strategies.params, strategies.seat_params)
