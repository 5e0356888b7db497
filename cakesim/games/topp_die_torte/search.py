"""The search player of Topp die Torte!: its part of the search driver (``kits.search``).

The driver runs information-set Monte-Carlo tree search (ISMCTS) for every game; this
module implements its hooks for Topp die Torte!. A searching seat decides each round's
tile by playing the game out many times from the table it sees (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012):

1. *Determinize*: what the searcher has not seen is dealt afresh in each sampled world
   (RULES.md s4): every face-down pile's undrawn places get tiles drawn from all the tiles
   never face up (the box holds more tiles than are dealt: 40, of which 7 a player), the
   chips of each metal it has not seen (those left in the pile and those the other seats
   drew face down; their points follow) are dealt again into the pile and the other
   seats' hands, every aim's error from this round on is drawn again, and the die gets a
   stream re-keyed from the decision stream. Face-up tiles, cakes, jars, the supply, how
   many chips of each metal each seat drew, the stars and the searcher's own chips are
   what it knows.
2. *Select*: the candidate moves are the arms of a bandit, UCB1 (``bandit.select``): every
   face-up tile, each aimed where the rollout policy aims it, the policy's tile first.
3. *Play out*: the chosen move is made in the sampled world and every seat plays the rest
   of the game with its own strategy from the table (the population being tested; a
   searching seat with the greedy draft and its own weights), by the kernel's own rule
   steps (``kernel.advance``). The reward is the searcher's win share.
4. *Decide*: the most visited move (ties: the earlier candidate).

Only the draft is searched. The offset is the policy's, fixed with the tile when the tiles
are picked: it depends only on the seat's own cake and jars, which nothing changes between
its pick and its placement (the supply may, but no aim reads it). Searching the offsets
too (every tile at each of the seven) played worse than the policy: with 100 iterations a
pick it won 11.6 +- 3.0 % alone among tuned players at 4 players (fair 25), with 1,000
26.2 +- 4.8 %; a play-out's win is too noisy to tell offsets apart that the policy's
expected value already weighs (docs/topp_die_torte.md). Where each cube goes stays with
the seat's jar code, in the real game and in the rollouts alike. Picks are simultaneous:
a sampled world forgets every other seat's pick of the round, which its rollout player
then makes afresh.

With ``depth`` above 1 the driver keeps a tree of the searcher's own later picks
(``kits.tree``), keyed by everything public (``observe``).

Every draw comes from the game's decision stream (the worlds' deals, aims and dice, and a
random strategy's choices in the rollouts), so a game with search players is a pure
function of (seed, game) and the reference engine, calling the driver's
``search_decision`` at the same points, replays it.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import next_u64, shuffle_range, uniform
from cakesim.games.topp_die_torte.kernel import (
    METALS,
    NO_PLAN,
    PICKING,
    ROTATION,
    ROUND,
    SEAT,
    STEP,
    UNDECIDED,
    WIN_UNITS,
    Strategies,
    advance,
    columns,
    new_state,
    score_game,
)
from cakesim.games.topp_die_torte.strategies import (
    AIM,
    DEPTH,
    DRAFT,
    EXPLORATION,
    GREEDY,
    ITERATIONS,
    SEARCH,
    WIDENING,
    choose_target,
    choose_tile,
)
from cakesim.kits import search as driver
from cakesim.kits.bandit import add, clear, new_bandit
from cakesim.kits.loops import copy_into, sort_range
from cakesim.kits.search import implements
from cakesim.kits.tree import fold, fold_arrays, new_tree, tree_depth, tree_nodes

LAY = 0
"""A candidate's kind (``bandit.Bandit.move[c, KIND]``): lay the face-up tile at hand
position INDEX, aimed at offset DETAIL (the rollout policy's for that tile)."""


class SearchSpace(NamedTuple):
    """The search's working space, allocated once per batch (``new_search_space``); its
    type selects this module's hooks in the driver."""

    # kernel.GameState: the sampled world each iteration plays out (a copy of the real
    # game). Its decision stream is the game's, lent for the iterations (``open_worlds``).
    world: tuple
    # kernel.Strategies: the rollout players, by player as the table's; a searching
    # player's draft is greedy.
    rollout: tuple
    # bandit.Bandit: the candidate moves and their statistics. Its hidden places are the
    # face-down piles' undrawn places (seat * rounds + position), its pool every tile never
    # face up, in tile order when a decision starts (-1 after them), then shuffled by
    # each world.
    bandit: tuple
    # tree.Tree: the searcher's later picks (none for a flat search, ``depth`` 1).
    tree: tuple
    # (3, most chips) int16: [metal] the chips of each metal the searcher has not seen,
    # sorted when a decision starts (which they are, not who holds them or in which order
    # they lie), then shuffled by each world.
    chips: np.ndarray


@jit
def new_search_space(rules, seats):
    """The search's ``SearchSpace`` at a table of ``rules``, for the players ``seats``."""
    players = seats.codes.shape[0]
    # Every tile may be hidden (the pool); the places are fewer.
    places = rules.plate
    # A candidate per face-up tile: a hand holds fewer than ``rounds``.
    moves = rules.rounds
    no_widening = np.zeros(0, np.int64)
    iterations = seats.params[:, ITERATIONS]
    depth = seats.params[:, DEPTH]
    return SearchSpace(
        world=new_state(rules, players),
        rollout=Strategies(np.zeros_like(seats.codes), np.zeros_like(seats.params),
                           np.zeros_like(seats.aim)),
        bandit=new_bandit(places, moves, no_widening),
        tree=new_tree(tree_nodes(iterations, depth), tree_depth(depth), places, moves,
                      no_widening),
        chips=np.zeros(rules.chip_values.shape, np.int16))


@implements(driver.prepare, SearchSpace)
def prepare(rules, seats, state, space):
    """The seat whose pick is asked for (``clock[SEAT]``), its search weights, and the
    rollout players: the table's, every searching draft greedy."""
    players = state.held.shape[0]
    seat = state.clock[SEAT]
    params = seats.params[(seat - state.clock[ROTATION]) % players]
    rollout = space.rollout
    copy_into(seats.codes, rollout.codes)
    copy_into(seats.params, rollout.params)
    copy_into(seats.aim, rollout.aim)
    for player in range(players):
        if rollout.codes[player, DRAFT] == SEARCH:
            rollout.codes[player, DRAFT] = GREEDY
    return (seat, int(params[ITERATIONS]), params[EXPLORATION], params[WIDENING],
            int(params[DEPTH]))


@implements(driver.candidates, SearchSpace)
def candidates(rules, seat, state, scratch, space, bandit):
    """Every face-up tile, each aimed where the rollout policy aims it; the policy's tile
    first."""
    players = state.held.shape[0]
    player = (seat - state.clock[ROTATION]) % players
    codes, params, aim = (space.rollout.codes[player], space.rollout.params[player],
                          space.rollout.aim[player])
    left = (seat + 1) % players
    pick = choose_tile(codes[DRAFT], params, aim, rules, state.hand[seat], state.held[seat],
                       state.top[seat], state.jar_mask[seat], state.jar_count[seat],
                       state.top[left], state.jar_mask[left], state.jar_count[left],
                       state.worth, state.values, state.decision_stream)
    count = clear(bandit)
    for k in range(state.held[seat]):
        # The policy's tile first, then the others in hand order.
        i = pick if k == 0 else k - (k <= pick)
        target = choose_target(codes[AIM], params, aim, rules, state.top[seat],
                               state.hand[seat, i], state.jar_mask[seat],
                               state.jar_count[seat], state.worth, state.values,
                               state.decision_stream)
        count = add(count, LAY, i, target, bandit)
    return count, False


@implements(driver.descend, SearchSpace)
def descend(rules, seat, world, scratch, space):
    """The world played on to the searcher's next pick: its rollout player searches
    (``kernel.advance`` stops there), then plays the greedy draft again."""
    players = world.held.shape[0]
    codes = space.rollout.codes
    player = (seat - world.clock[ROTATION]) % players
    codes[player, DRAFT] = SEARCH
    over = advance(rules, space.rollout, world)
    codes[player, DRAFT] = GREEDY
    return over


@implements(driver.observe, SearchSpace)
def observe(rules, seat, world, key, space):
    """Everything ``seat`` knows folded in: the face-up tiles, cakes, jars, exchange jars,
    the supply, how many chips of each metal each seat has and its own points, the stars,
    how far each pile is drawn, and the round."""
    for other in range(world.held.shape[0]):
        for i in range(world.held[other]):
            key = fold(key, world.hand[other, i])
    key = fold(key, world.sheet.total[0, seat])
    return fold_arrays(key, (world.held, world.drawn, world.top, world.golden_symbols,
                             world.jar_mask, world.jar_count, world.jar_golden,
                             world.jar_cubes, world.exchange, world.supply, world.golden,
                             world.chips_drawn, world.sheet.bronze, world.sheet.silver,
                             world.sheet.gold, world.sheet.stars, world.clock[ROUND:STEP + 1]))


@implements(driver.open_worlds, SearchSpace)
def open_worlds(rules, state, space):
    """What the worlds deal afresh (the piles' undrawn places, every tile never face up;
    each metal's chips the searcher has not seen, sorted), and the game's decision stream
    lent to the worlds."""
    hidden, pool = space.bandit.hidden, space.bandit.pool
    m = 0
    for seat in range(state.held.shape[0]):
        for position in range(state.drawn[seat], rules.rounds - rules.face_up):
            hidden[m] = seat * rules.rounds + position
            m += 1
    hidden[m:] = -1
    m = 0
    for tile in range(rules.plate):
        if not state.seen[tile]:
            pool[m] = tile
            m += 1
    pool[m:] = -1
    searcher = state.clock[SEAT]
    for metal in range(METALS):
        m = 0
        for i in range(rules.chip_count[metal]):
            if _unseen_chip(state, searcher, metal, i):
                space.chips[metal, m] = state.chips[metal, i]
                m += 1
        sort_range(space.chips[metal], 0, m)
    copy_into(state.decision_stream, space.world.decision_stream)


@implements(driver.close_worlds, SearchSpace)
def close_worlds(rules, state, space):
    """The decision stream given back, where the worlds left it."""
    copy_into(space.world.decision_stream, state.decision_stream)


@implements(driver.sample_world, SearchSpace)
def sample_world(rules, state, space):
    """``space.world``: a copy of the game, what the searcher has not seen dealt afresh."""
    world = space.world
    stream = world.decision_stream
    copy_game(state, world)
    deal_tiles(rules, world, space.bandit.hidden, space.bandit.pool, stream)
    deal_chips(rules, state.clock[SEAT], world, space.chips, stream)
    for seat in range(world.held.shape[0]):
        for r in range(world.clock[ROUND], rules.rounds):
            world.aim_draws[seat, r] = uniform(stream)
        if world.clock[STEP] == PICKING:
            # Simultaneous picks: nobody has seen another's.
            world.pick[seat] = UNDECIDED
            world.target[seat] = NO_PLAN
    world.die_stream[0] = next_u64(stream)
    world.die_stream[1] = 0


@jit_borrowing
def deal_tiles(rules, world, hidden, pool, stream):
    """Every undrawn pile place (``hidden``) gets a tile drawn without replacement from
    the ``pool`` of tiles never face up."""
    unseen = 0
    while unseen < pool.shape[0] and pool[unseen] >= 0:
        unseen += 1
    shuffle_range(stream, pool, 0, unseen)
    m = 0
    while m < hidden.shape[0] and hidden[m] >= 0:
        world.pile[hidden[m] // rules.rounds, hidden[m] % rules.rounds] = pool[m]
        m += 1


@jit_borrowing
def deal_chips(rules, searcher, world, chips, stream):
    """Each metal's chips the searcher has not seen (``chips``) shuffled and dealt again
    into the places it has not seen (the pile's rest, the chips the others drew), and
    every other seat's points made up again from its chips."""
    for seat in range(world.held.shape[0]):
        if seat != searcher:
            world.sheet.total[0, seat] = 0
    for metal in range(METALS):
        unseen = 0
        for i in range(rules.chip_count[metal]):
            unseen += _unseen_chip(world, searcher, metal, i)
        shuffle_range(stream, chips[metal], 0, unseen)
        m = 0
        for i in range(rules.chip_count[metal]):
            if _unseen_chip(world, searcher, metal, i):
                world.chips[metal, i] = chips[metal, m]
                m += 1
        for i in range(world.chips_drawn[metal]):
            owner = world.chip_owner[metal, i]
            if owner != searcher:
                world.sheet.total[0, owner] += world.chips[metal, i]


@jit_borrowing
def _unseen_chip(state, searcher, metal, i):
    """Whether chip ``i`` of ``metal``'s pile is one the searcher has not seen: still in
    the pile, or drawn face down by another seat."""
    return i >= state.chips_drawn[metal] or state.chip_owner[metal, i] != searcher


@implements(driver.make_move, SearchSpace)
def make_move(kind, index, detail, rules, seats, state, scratch, space):
    """The asked seat picks the tile at hand position ``index``, to aim at ``detail``."""
    seat = state.clock[SEAT]
    state.pick[seat] = index
    state.target[seat] = detail


@implements(driver.finish, SearchSpace)
def finish(rules, seat, world, scratch, space):
    """The world played out by the rollout players (``kernel.advance``), then scored."""
    advance(rules, space.rollout, world)
    score_game(rules, world.sheet)
    return world.sheet.win_units[0, seat] / WIN_UNITS


@jit_borrowing
def copy_game(state, world):
    """``world`` becomes a copy of the game ``state``, but for the deal's ``dealt`` order (no
    step reads it) and the streams (the worlds draw from the decision stream, lent by
    ``open_worlds``, and re-key the die's in ``sample_world``)."""
    copy_into(state.clock, world.clock)
    copy_into(state.held, world.held)
    copy_into(state.drawn, world.drawn)
    copy_into(state.pick, world.pick)
    copy_into(state.target, world.target)
    copy_into(state.top, world.top)
    copy_into(state.golden_symbols, world.golden_symbols)
    copy_into(state.hand, world.hand)
    copy_into(state.pile, world.pile)
    copy_into(state.seen, world.seen)
    copy_into(state.jar_mask, world.jar_mask)
    copy_into(state.jar_count, world.jar_count)
    copy_into(state.jar_golden, world.jar_golden)
    copy_into(state.jar_cubes, world.jar_cubes)
    copy_into(state.exchange, world.exchange)
    copy_into(state.supply, world.supply)
    copy_into(state.golden, world.golden)
    copy_into(state.chips, world.chips)
    copy_into(state.chips_drawn, world.chips_drawn)
    copy_into(state.chip_owner, world.chip_owner)
    copy_into(state.aim_draws, world.aim_draws)
    copy_into(state.batch, world.batch)
    copy_into(state.owed_coins, world.owed_coins)
    copy_into(state.owed_cubes, world.owed_cubes)
    sheet, copy = columns(state.sheet), columns(world.sheet)
    for k in range(len(sheet[0])):
        copy_into(sheet[0][k], copy[0][k])
    for k in range(len(sheet[1])):
        copy_into(sheet[1][k], copy[1][k])
