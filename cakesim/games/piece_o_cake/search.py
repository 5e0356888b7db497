"""The search player of Piece o' Cake: its part of the search driver (``kits.search``).

The driver runs information-set Monte-Carlo tree search (ISMCTS) for every game; this
module implements its hooks for Piece o' Cake. A searching seat decides each of its
moves (a cut, a choice, a set-aside slice, and the joker's decisions: claiming a swap,
eating or placing it) by playing the game out many times from the table it sees (Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012):

1. *Determinize*: the order of the slices nobody has seen (the later cakes and the
   set-aside slices still there) is hidden, and every order is equally likely; each
   iteration deals them afresh in a random order (``bandit.deal_hidden``). Which
   slices they are is public: the box, less every slice laid out so far. Eaten slices
   were seen when their portion was taken, so a player who remembers knows every seat's
   cream. (A waiter who has looked at the set-aside slices still treats them as unseen.)
   In a game of several rounds, the later rounds' deals are drawn afresh as well.
2. *Select*: the candidate moves are the arms of a bandit, UCB1 with progressive widening
   for cuts (``bandit.select``).
3. *Play out*: the chosen move is made in the sampled world and every seat, the searcher
   too, plays the rest of the game with the searcher's heuristic policy (greedy chooser,
   balanced cutter, the strategy's own weights: for the shipped ``search`` strategies the
   tuned bot's), by the kernel's own rule steps (``steps.advance``). A searcher whose
   chooser is ``fitted`` (it searches only its cuts) plays its play-outs with its fitted
   network at every seat instead (``rollout_chooser``): the search then sits on top of
   the population it is tested in, as expert iteration asks. The reward is the
   searcher's win share.
4. *Decide*: the most visited move (ties: the earlier candidate).

With ``depth`` 1 the tree is one level deep: the searcher's later moves, and everyone
else's, are the rollout policy's. With ``depth`` above 1 the driver keeps a tree of the
searcher's own later decisions (``kits.tree``): ``descend`` plays a world on to the
searcher's next decision, ``observe`` folds in everything public there (the table, every
pile, what each seat ate, the joker, the clock; not the world's own set-aside kinds).
After the next cake is laid out that history is new in almost every world, so the tree
pays off within a cake: the waiter's cut, then its choice and its set-aside slice. A
searcher with a fitted chooser searches only its cuts, so its tree holds cuts alone, the
next a cake or more later: a depth above 1 buys it little (``fitted-search`` keeps 1).

A cut has hundreds of legal moves (551 at 2 and 4 players): spread evenly, 200 iterations
would try each about once. The candidates are therefore the policy's own cut, then the
other cuts in the order the enumerating cutter ranks them (``strategies.cut_outcomes``),
admitted by progressive widening. A choice has at most a portion per arc, a decline per
collected kind and a pass: all compete from the start, each portion with the policy's
slice-by-slice eat/collect plan. Keeping a set-aside slice (compensation variant) has
every slice left, eaten or collected; a swap, claiming it or not; the joker in hand,
eating it or putting it on each kind it may go on (``strategies.may_place_joker``: by
default one collected before the take).

Every draw comes from the game's decision stream, so a game with search players is a pure
function of (seed, game) and the reference engine, calling the driver's
``search_decision`` at the same points, replays it.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit_borrowing
from cakesim.engine.seeding import next_u64
from cakesim.games.piece_o_cake.fitted import fitted_to_move, make_fitted_move
from cakesim.games.piece_o_cake.steps import (
    CAKE,
    NOTHING,
    PENDING,
    PENDING_SEAT,
    PORTIONS,
    SWAP,
    SWAP_CREAM,
    SWAP_EATEN,
    TURN,
    advance,
    choose,
    cut_cake,
    keep_set_aside_slice,
    place_joker,
    score_game,
    swap_joker,
    waiter_of,
)
from cakesim.games.piece_o_cake.strategies import (
    BALANCED_CUT,
    DECLINE_EAT,
    DEPTH,
    EXPLORATION,
    FITTED,
    GREEDY,
    ITERATIONS,
    PASS,
    SEARCH,
    SEARCH_CUT,
    TAKE,
    WIDENING,
    balanced_cut,
    choose_bonus,
    choose_joker,
    choose_swap,
    fill_rivals,
    greedy_move,
    may_place_joker,
    plan_portion,
    rank_cuts,
)
from cakesim.games.slicing.tabletop import WIN_UNITS
from cakesim.kits import search as driver
from cakesim.kits.bandit import WIDENED, add, clear, deal_hidden, sort_pool, widened_candidates
from cakesim.kits.search import implements
from cakesim.kits.tree import fold_arrays

CUT = WIDENED
KEEP = 4
CLAIM = 5
JOKER = 6
"""A candidate's kind (``bandit.Bandit.move[c, KIND]``) is a chooser's action (TAKE,
DECLINE_EAT, PASS, from ``strategies``), a cut (CUT: the widened moves), keeping a
set-aside slice (KEEP), a swap decision (CLAIM) or the joker's place (JOKER)."""


class SearchSpace(NamedTuple):
    """The search's working space, allocated once per batch (``kernel.new_search_space``);
    its type selects this module's hooks in the driver."""

    # GameState: the sampled world each iteration plays out (a copy of the real game).
    world: tuple
    # Strategies: the rollout players, every seat the searcher's policy (``seat_rollout``);
    # its policy rows the searcher's network, when that is its rollout chooser.
    rollout: tuple
    # slicing.bandit.Bandit: the candidate moves and their statistics. A move's KIND is
    # CUT (DETAIL the gap mask), TAKE (INDEX the portion, DETAIL the eat mask),
    # DECLINE_EAT (INDEX the kind), PASS, KEEP (INDEX the set-aside slice, DETAIL 1 to eat
    # it), CLAIM (DETAIL 1 to swap), JOKER (INDEX the kind, -1 to eat it); its hidden
    # places are in ``GameState.order``.
    bandit: tuple
    # tree.Tree: the searcher's later decisions (none for a flat search, ``depth`` 1).
    tree: tuple
    # GameState: a second copy of the game, for a two-ply lookahead cutter: the choosers'
    # own lookahead inside the cake it serves in ``world`` (``lookahead.lookahead2_cut``).
    inner: tuple
    # Strategies: that cutter's model of the players (every seat its weights, choosing
    # by lookahead).
    model: tuple
    # (P,) int16: [seat] a played-out world's majority points, totals and win units.
    majority: np.ndarray
    total: np.ndarray
    win_units: np.ndarray


@implements(driver.prepare, SearchSpace)
def prepare(rules, seats, state, space):
    """The seat deciding at ``state.clock`` (the waiter, a chooser, or the seat a pending
    joker decision waits on), its search weights, and the rollout seats set to its policy."""
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    turn = state.clock[TURN]
    seat = (waiter + turn) % players if 0 < turn <= players else waiter
    seat = state.pending[PENDING_SEAT] if state.pending[PENDING] != NOTHING else seat
    params = seats.params[seat]
    seat_rollout(seats, seat, space.rollout, rollout_chooser(seats, seat))
    return (seat, int(params[ITERATIONS]), params[EXPLORATION], params[WIDENING],
            int(params[DEPTH]))


@implements(driver.candidates, SearchSpace)
def candidates(rules, seat, state, scratch, space, bandit):
    """The decision's candidates: a joker decision's, a cut's (widened), a choice's or a
    set-aside slice's."""
    players = state.eaten_count.shape[0]
    turn = state.clock[TURN]
    if state.pending[PENDING] != NOTHING:
        return _joker_candidates(rules, space.rollout, seat, state, bandit), False
    if turn == 0:
        return _cut_candidates(rules, space.rollout, seat, state, scratch, bandit), True
    if turn <= players:
        return choice_candidates(rules, space.rollout, seat, state, scratch, bandit), False
    return _keep_candidates(rules, space.rollout, seat, state, bandit), False


@implements(driver.descend, SearchSpace)
def descend(rules, seat, world, scratch, space):
    """The world played on to the searcher's next decision: its rollout seat stops there
    (the search codes, ``steps.advance``), then plays the policy again. A searcher with a
    fitted chooser searches only its cuts: its choices on the way stay its network's, as
    they are in the real game."""
    codes = space.rollout.codes
    chooser = codes[seat, 0]
    if chooser != FITTED:
        codes[seat, 0] = SEARCH
    codes[seat, 1] = SEARCH_CUT
    over = play_on(rules, space.rollout, world, scratch)
    codes[seat, 0] = chooser
    codes[seat, 1] = BALANCED_CUT
    return over


@implements(driver.observe, SearchSpace)
def observe(rules, seat, world, key, space):
    """Everything public folded in: the table, every pile, what each seat ate, the joker,
    where the game is and (several rounds) the banked scores. The set-aside slices' kinds
    are the world's own draw, so they are left out."""
    seen = world.seen
    return fold_arrays(key, (seen.collected, seen.collected_cream, world.banked,
                             seen.cake_kind, seen.cake_cream, seen.portion_taken,
                             seen.aside_left, seen.joker, seen.portion_start,
                             seen.portion_len, world.clock, world.pending,
                             world.eaten_cream, world.eaten_count))


@implements(driver.open_worlds, SearchSpace)
def open_worlds(rules, state, space):
    """The places the worlds deal afresh and the slices in them; the worlds draw from the
    game's decision stream itself, so nothing is lent."""
    _hidden_places(rules, state, space.bandit.hidden)
    sort_pool(state.order, space.bandit.hidden, space.bandit.pool)


@implements(driver.close_worlds, SearchSpace)
def close_worlds(rules, state, space):
    """Nothing was lent (``open_worlds``)."""


@implements(driver.sample_world, SearchSpace)
def sample_world(rules, state, space):
    """``space.world``: a copy of the game, its hidden slices dealt afresh."""
    copy_game(state, space.world)
    determinize(rules, state.seen.stream, space.world, space.bandit.hidden,
                space.bandit.pool)


@implements(driver.make_move, SearchSpace)
def make_move(kind, index, detail, rules, seats, state, scratch, space):
    """Carry out a candidate move in the game ``state`` at its ``clock`` (every part of a
    Piece o' Cake move is in the candidate: ``seats`` is not read)."""
    players = state.eaten_count.shape[0]
    waiter = waiter_of(state.clock, players)
    if kind == CUT:
        cut_cake(detail, state)
    elif kind == KEEP:
        keep_set_aside_slice(waiter, index, detail == 1, rules, state)
    elif kind == CLAIM:
        swap_joker(state.pending[PENDING_SEAT], detail == 1, rules, state)
    elif kind == JOKER:
        place_joker(state.pending[PENDING_SEAT], index, rules, state)
    else:
        choose((waiter + state.clock[TURN]) % players, kind, index, detail, rules, state)


@implements(driver.finish, SearchSpace)
def finish(rules, seat, world, scratch, space):
    """The world played out by the rollout seats (``play_on``), then scored."""
    play_on(rules, space.rollout, world, scratch)
    score_game(rules, world, space.majority, space.total, space.win_units)
    return space.win_units[seat] / WIN_UNITS


@jit_borrowing
def rollout_chooser(seats, seat):
    """How the searcher at ``seat`` plays its play-outs' choices: by its fitted network if
    it chooses by one (``FITTED``), else greedily (``GREEDY``)."""
    return FITTED if seats.codes[seat, 0] == FITTED else GREEDY


@jit_borrowing
def seat_rollout(seats, seat, rollout, chooser):
    """Every rollout seat plays the searcher's weights, choosing by ``chooser`` (``GREEDY``,
    or ``FITTED`` with the searcher's network) and cutting balanced."""
    for row in range(rollout.codes.shape[0]):
        rollout.codes[row, 0] = chooser
        rollout.codes[row, 1] = BALANCED_CUT
        for w in range(rollout.params.shape[1]):
            rollout.params[row, w] = seats.params[seat, w]
        # Only a fitted rollout reads the network. The lookahead's model seats, which
        # seat rollouts too (``lookahead.served_ahead``), have no policy rows to copy.
        if chooser == FITTED:
            for w in range(rollout.policy.shape[1]):
                rollout.policy[row, w] = seats.policy[seat, w]
        flat_from = seats.chances[seat].reshape(-1)
        flat_to = rollout.chances[row].reshape(-1)
        for i in range(flat_from.shape[0]):
            flat_to[i] = flat_from[i]


@jit_borrowing
def play_on(rules, rollout, world, scratch):
    """``steps.advance`` with the ``rollout`` seats, a fitted chooser's moves made on the
    way (``advance`` stops at them): on until a searching seat must decide (False) or the
    game is over (True)."""
    over = advance(rules, rollout, world, scratch)
    while not over and fitted_to_move(rollout, world):
        make_fitted_move(rules, rollout, world, scratch)
        over = advance(rules, rollout, world, scratch)
    return over


@jit_borrowing
def _cut_candidates(rules, rollout, waiter, state, scratch, bandit):
    """The policy's (balanced) cut, then every cut in the enumerating cutter's ranking."""
    view = state.seen
    params, chances = rollout.params[waiter], rollout.chances[waiter]
    policy = balanced_cut(params, chances, waiter, view, rules, scratch)
    rank_cuts(params, chances, waiter, view, rules, scratch)
    return widened_candidates(policy, scratch.cut_outcome, bandit)


@jit_borrowing
def choice_candidates(rules, rollout, seat, state, scratch, bandit):
    """The policy's move first, then every other take (with the policy's eat plan),
    every decline and the pass."""
    view = state.seen
    n_portions = state.clock[PORTIONS]
    params, chances = rollout.params[seat], rollout.chances[seat]
    action, index, eat_mask = greedy_move(rollout, seat, view, n_portions, rules, scratch)
    count = add(clear(bandit), action, index, eat_mask, bandit)
    fill_rivals(view.collected, seat, scratch.rivals)
    for p in range(n_portions):
        if not view.portion_taken[p] and not (action == TAKE and index == p):
            _, plan = plan_portion(params, chances, seat, view.portion_start[p],
                                   view.portion_len[p], view, rules, scratch)
            count = add(count, TAKE, p, plan, bandit)
    for kind in range(view.collected.shape[1]):
        if view.collected[seat, kind] > 0 and not (action == DECLINE_EAT and index == kind):
            count = add(count, DECLINE_EAT, kind, 0, bandit)
    if action != PASS:
        count = add(count, PASS, -1, 0, bandit)
    return count


@jit_borrowing
def _keep_candidates(rules, rollout, waiter, state, bandit):
    """The policy's pick first, then every set-aside slice left, eaten or collected (the
    joker once: what becomes of it is its own decision)."""
    view = state.seen
    a, eat = choose_bonus(rollout, waiter, view, rules)
    count = add(clear(bandit), KEEP, a, 1 if eat else 0, bandit)
    for other in range(view.aside_left.shape[0]):
        # The joker is one move (eaten or placed afterwards), not two.
        joker = view.aside_kind[other] == rules.joker_kind
        for detail in range(1 if joker else 2):
            policy = other == a and (joker or detail == (1 if eat else 0))
            if view.aside_left[other] and not policy:
                count = add(count, KEEP, other, detail, bandit)
    return count


@jit_borrowing
def _joker_candidates(rules, rollout, seat, state, bandit):
    """The policy's answer first. A swap: claim it or not; the joker in hand: eat it, or
    put it on each kind it may go on (``may_place_joker``)."""
    view, pending = state.seen, state.pending
    if pending[PENDING] == SWAP:
        claim = choose_swap(rollout, seat, pending[SWAP_CREAM], pending[SWAP_EATEN] == 1, view,
                            rules)
        count = add(clear(bandit), CLAIM, -1, 1 if claim else 0, bandit)
        return add(count, CLAIM, -1, 0 if claim else 1, bandit)
    policy = choose_joker(rollout, seat, view, rules)
    count = add(clear(bandit), JOKER, policy, 0, bandit)
    for kind in range(-1, view.collected.shape[1]):
        if kind != policy and (kind < 0 or may_place_joker(
                view.collected[seat, kind], view.before_take[kind], rules)):
            count = add(count, JOKER, kind, 0, bandit)
    return count


@jit_borrowing
def _hidden_places(rules, state, hidden):
    """The deal's places nobody has seen, then -1s: the cakes after the one being served
    and the set-aside slices still there."""
    n = rules.slices_per_cake
    m = 0
    for place in range((state.clock[CAKE] + 1) * n, rules.cakes * n):
        hidden[m] = place
        m += 1
    for a in range(state.seen.aside_left.shape[0]):
        if state.seen.aside_left[a]:
            hidden[m] = rules.cakes * n + a
            m += 1
    for i in range(m, hidden.shape[0]):
        hidden[i] = -1


@jit_borrowing
def determinize(rules, stream, world, hidden, pool):
    """A sampled world: the hidden slices dealt afresh into ``world``'s hidden places, the
    set-aside slices it then has, and (several rounds) a deal stream of its own for the
    rounds to come."""
    deal_hidden(stream, world.order, hidden, pool)
    if rules.rounds > 1:
        world.deal_stream[0] = next_u64(stream)
        world.deal_stream[1] = 0
    n = rules.slices_per_cake
    for a in range(world.seen.aside_kind.shape[0]):
        s = world.order[rules.cakes * n + a]
        world.seen.aside_kind[a] = rules.slice_kind[s]
        world.seen.aside_cream[a] = rules.slice_cream[s]


@jit_borrowing
def copy_game(state, world):
    """``world`` becomes a copy of the game ``state`` (every array but the streams)."""
    seen, copy = state.seen, world.seen
    for seat in range(seen.collected.shape[0]):
        world.eaten_cream[seat] = state.eaten_cream[seat]
        world.eaten_count[seat] = state.eaten_count[seat]
        for kind in range(seen.collected.shape[1]):
            copy.collected[seat, kind] = seen.collected[seat, kind]
            copy.collected_cream[seat, kind] = seen.collected_cream[seat, kind]
    for kind in range(seen.unseen.shape[0]):
        copy.unseen[kind] = seen.unseen[kind]
        copy.still_open[kind] = seen.still_open[kind]
        copy.before_take[kind] = seen.before_take[kind]
    for position in range(seen.cake_kind.shape[0]):
        copy.cake_kind[position] = seen.cake_kind[position]
        copy.cake_cream[position] = seen.cake_cream[position]
        copy.portion_start[position] = seen.portion_start[position]
        copy.portion_len[position] = seen.portion_len[position]
        copy.portion_taken[position] = seen.portion_taken[position]
    for a in range(seen.aside_left.shape[0]):
        copy.aside_left[a] = seen.aside_left[a]
    for place in range(state.order.shape[0]):
        world.order[place] = state.order[place]
    for i in range(state.clock.shape[0]):
        world.clock[i] = state.clock[i]
    for i in range(state.pending.shape[0]):
        world.pending[i] = state.pending[i]
    # The world's tally counts nothing anyone reads: kept from growing without end.
    world.tally[:] = 0
    for i in range(seen.joker.shape[0]):
        copy.joker[i] = seen.joker[i]
    for row in range(state.banked.shape[0]):
        for seat in range(state.banked.shape[1]):
            world.banked[row, seat] = state.banked[row, seat]
