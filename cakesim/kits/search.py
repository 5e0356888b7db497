"""The search driver: information-set Monte-Carlo tree search (ISMCTS), written once for
every game that searches.

A searching seat decides a move by playing the game out many times from the table it
sees (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 2012):

1. *Determinize*: each iteration samples a world consistent with what the seat has seen,
   the hidden part of the deal dealt afresh (``sample_world``).
2. *Select*: the candidate moves are the arms of a bandit, UCB1 with progressive widening
   for decisions of hundreds of moves (``bandit.select``).
3. *Descend* (a searcher of ``depth`` above 1): the chosen move is made in the sampled
   world; the game goes on by the rollout policy to the searcher's next decision, which
   the tree of its information sets chooses by UCB1 in turn (``tree``), down to
   ``depth`` decisions, to the first decision the tree does not know yet, or to the end.
4. *Play out*: every seat plays the rest of the game with the searcher's heuristic policy
   (``finish``); the reward, the searcher's win share, is credited to every decision
   chosen on the way.
5. *Decide*: the most visited move (ties: the earlier candidate).

The driver is the same for every game; a game supplies its part through the hooks below
(its candidates, its move, how its worlds are sampled and finished). Each hook is a stub
here; a game registers its implementation with ``implements(hook, SearchSpace)``, and
Numba picks the implementation by the type of the ``space`` argument when the driver is
compiled, as ``functools.singledispatch`` picks one in Python at call time. Numba's
``@overload`` is used for this rather than passing the game's functions to the driver:
a compiled function that takes or closes over other compiled functions cannot be cached
(its cache key holds their identities, which change with every process), so every run
would compile the search afresh.

A game's ``SearchSpace`` is a NamedTuple with at least ``world`` (the sampled world, a
game state), ``rollout`` (the strategies that play it out), ``bandit`` (a
``bandit.Bandit``) and ``tree`` (a ``tree.Tree``). Every draw comes from the game's
decision stream, so a game with search players is a pure function of (seed, game), and a
reference engine calling ``search_decision`` at the same points replays it.
"""

import functools
import inspect

import numpy as np
from numba.extending import overload

from cakesim.engine.jit import JIT_OPTIONS, jit_borrowing
from cakesim.kits.bandit import DETAIL, INDEX, KIND, most_visited, select
from cakesim.kits.tree import NOT_LISTED, back_up, choose_row, clear_tree, fold, list_node, reach

# The hooks a searching game implements. Compiled code calls the implementation registered
# for its ``space``; a space no game registered fails to compile, naming the hook. The
# stubs themselves are never run.


def prepare(rules, seats, state, space):
    """Hook: the seat deciding at ``state.clock``, with every rollout seat of ``space`` set
    to its heuristic policy; returns ``(seat, iterations, exploration, widening, depth)``."""
    raise NotImplementedError(type(space).__name__)


def candidates(rules, seat, state, scratch, space, bandit):
    """Hook: the decision's candidate moves in ``bandit``, the policy's first; returns
    ``(count, widen)``, ``widen`` true when the moves are admitted by widening."""
    raise NotImplementedError(type(space).__name__)


def descend(rules, seat, world, scratch, space):
    """Hook: the sampled ``world`` played on by the rollout seats up to ``seat``'s next
    decision (False) or the end of the game (True)."""
    raise NotImplementedError(type(space).__name__)


def observe(rules, seat, world, key, space):
    """Hook: ``key`` with everything ``seat`` knows at its decision in ``world`` folded in
    (``tree.fold``): the same for two worlds the seat cannot tell apart."""
    raise NotImplementedError(type(space).__name__)


def open_worlds(rules, state, space):
    """Hook: what the sampled worlds deal afresh (``space.bandit.hidden`` and ``pool``),
    and any stream the game lends them, before the first iteration."""
    raise NotImplementedError(type(space).__name__)


def close_worlds(rules, state, space):
    """Hook: after the last iteration, whatever ``open_worlds`` lent given back."""
    raise NotImplementedError(type(space).__name__)


def sample_world(rules, state, space):
    """Hook: ``space.world`` becomes a copy of the game ``state`` with its hidden part dealt
    afresh."""
    raise NotImplementedError(type(space).__name__)


def make_move(kind, index, detail, rules, seats, state, scratch, space):
    """Hook: carry out a candidate move (a row of ``space.bandit.move``) in ``state`` at its
    clock; what the move leaves to the seat's codes goes by ``seats``."""
    raise NotImplementedError(type(space).__name__)


def finish(rules, seat, world, scratch, space):
    """Hook: the sampled ``world`` played to its end by the rollout seats of ``space``; the
    win share of ``seat``, in 0..1."""
    raise NotImplementedError(type(space).__name__)


def implements(hook, space_class):
    """Register the decorated function as ``hook``'s implementation for a ``space`` of
    ``space_class``; returns it compiled (``jit_borrowing``), to call directly too."""
    position = list(inspect.signature(hook).parameters).index("space")

    def register(function):
        @functools.wraps(hook)
        def typing(*args):
            if getattr(args[position], "instance_class", None) is space_class:
                return function
            return None

        # The options of jit_borrowing (the driver lends its arrays to the hook), but not
        # cached on its own: compiled into the driver, whose cache holds it. A cached copy
        # would share the file of the directly callable function returned below, which has
        # a Python entry point the driver's copy lacks.
        overload(hook, jit_options={**JIT_OPTIONS, "cache": False, "_nrt": False})(typing)
        return jit_borrowing(function)

    return register


@jit_borrowing
def decide(rules, seats, state, scratch, space):
    """Make the decision ``state.clock`` points at by search, in the real game.

    A kernel given no working space (``space`` None: no seat searches) is compiled
    without the search: typed for a ``None`` space, this is one ``raise``, the rest pruned
    by Numba. The search is half of a game's kernel, so the many tables without a
    searching seat compile in half the time.
    """
    if space is None:
        raise ValueError("a seat searches, but its kernel was compiled without the search")
    kind, index, detail = search_decision(rules, seats, state, scratch, space)
    make_move(kind, index, detail, rules, seats, state, scratch, space)


@jit_borrowing
def search_decision(rules, seats, state, scratch, space):
    """The searching seat's move at ``state.clock``: ``(kind, index, detail)`` as in
    ``space.bandit.move``; only the decision stream changes."""
    seat, iterations, exploration, widening, depth = prepare(rules, seats, state, space)
    count, widen = candidates(rules, seat, state, scratch, space, space.bandit)
    if count > 1:
        open_worlds(rules, state, space)
        clear_tree(space.tree)
        for t in range(iterations):
            c = select(t, count, widen, exploration, widening, space.bandit)
            space.bandit.visits[c] += 1
            space.bandit.reward[c] += play_out(c, seat, depth, exploration, widening,
                                               iterations, rules, state, scratch, space)
        close_worlds(rules, state, space)
    return most_visited(space.bandit)


@jit_borrowing
def play_out(c, seat, depth, exploration, widening, iterations, rules, state, scratch,
             space):
    """One iteration: a fresh world, candidate ``c`` made in it, the searcher's later
    decisions chosen by the tree, the game played out; the searcher's win share."""
    sample_world(rules, state, space)
    move = space.bandit.move
    world = space.world
    make_move(move[c, KIND], move[c, INDEX], move[c, DETAIL], rules, space.rollout, world,
              scratch, space)
    steps = 0
    if depth > 1:
        steps = down_the_tree(c, seat, depth, exploration, widening, iterations, rules,
                              scratch, space)
    reward = finish(rules, seat, world, scratch, space)
    back_up(space.tree, steps, reward)
    return reward


@jit_borrowing
def down_the_tree(c, seat, depth, exploration, widening, iterations, rules, scratch,
                  space):
    """The searcher's decisions after root candidate ``c`` in the sampled world, each
    chosen at its node (``tree``), until ``depth`` decisions, a node reached for the first
    time or just listed, or the end; returns how many were chosen."""
    tree, world = space.tree, space.world
    key = fold(np.uint64(0), c)
    steps = 0
    while steps < depth - 1:
        if descend(rules, seat, world, scratch, space):
            break
        key = observe(rules, seat, world, key, space)
        node, known = reach(tree, key)
        if not known:
            break
        fresh = tree.first[node] == NOT_LISTED
        if fresh:
            count, widen = candidates(rules, seat, world, scratch, space, tree.lister)
            if not list_node(tree, node, count, widen, widening, iterations):
                break
        row = choose_row(tree, node, exploration, widening)
        tree.path_node[steps] = node
        tree.path_row[steps] = row
        steps += 1
        make_move(tree.move[row, KIND], tree.move[row, INDEX], tree.move[row, DETAIL], rules,
                  space.rollout, world, scratch, space)
        key = fold(key, row - tree.first[node])
        if fresh:
            break
    return steps
