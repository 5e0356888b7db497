"""The search driver on a toy game: it finds the best move, spends exactly its budget,
replays from the same stream, looks further with a tree of the searcher's own later
decisions, and a space no game registered fails to compile."""

from typing import NamedTuple

import numpy as np
import pytest
from numba.core.errors import TypingError

from cakesim.engine.jit import jit
from cakesim.engine.seeding import below, new_stream
from cakesim.kits import search as driver
from cakesim.kits.bandit import Bandit, add, clear, new_bandit
from cakesim.kits.search import implements, search_decision
from cakesim.kits.tree import Tree, fold, new_tree

# The toy: the searcher first gambles or plays safe. Safe wins 7 worlds in 10. A gamble
# draws a hidden bit the searcher sees at its second decision, a guess of the bit; a
# right guess wins. The rollout policy always guesses 0, so a flat search rates the gamble
# at one half and plays safe; a search that also chooses the guess rates it a sure win.
GAMBLE, SAFE = 0, 1
# Fields of a toy state: which decision is next (0 or 1, 2 when over), the first move,
# the hidden bit, whether the searcher won.
PHASE, FIRST, BIT, WON = 0, 1, 2, 3


class ToySpace(NamedTuple):
    world: np.ndarray  # (4,) int64: a toy state
    rollout: np.ndarray  # (1,) int64: unused (the toy has no rollout players)
    bandit: Bandit
    tree: Tree
    stream: np.ndarray  # (2,) uint64: the worlds' draws


@implements(driver.prepare, ToySpace)
def prepare(rules, seats, state, space):
    return 0, int(seats[0]), 0.5, 1.0, int(seats[1])


@implements(driver.candidates, ToySpace)
def candidates(rules, seat, state, scratch, space, bandit):
    # Either decision has two moves: gamble or safe, then guess 0 (the policy's) or 1.
    count = clear(bandit)
    for move in range(2):
        count = add(count, 0, move, 0, bandit)
    return count, False


@implements(driver.open_worlds, ToySpace)
def open_worlds(rules, state, space):
    pass


@implements(driver.close_worlds, ToySpace)
def close_worlds(rules, state, space):
    pass


@implements(driver.sample_world, ToySpace)
def sample_world(rules, state, space):
    for i in range(4):
        space.world[i] = state[i]
    space.world[BIT] = below(space.stream, 2)


@implements(driver.make_move, ToySpace)
def make_move(kind, index, detail, rules, seats, state, scratch, space):
    if state[PHASE] == 0:
        state[FIRST] = index
        state[PHASE] = 1 if index == GAMBLE else 2
        state[WON] = below(space.stream, 10) < 7
    else:
        state[WON] = index == state[BIT]
        state[PHASE] = 2


@implements(driver.descend, ToySpace)
def descend(rules, seat, world, scratch, space):
    return world[PHASE] == 2


@implements(driver.observe, ToySpace)
def observe(rules, seat, world, key, space):
    return fold(key, world[BIT])


@implements(driver.finish, ToySpace)
def finish(rules, seat, world, scratch, space):
    if world[PHASE] == 1:
        make_move(0, 0, 0, rules, 0, world, 0, space)
    return float(world[WON])


class OtherSpace(NamedTuple):
    world: np.ndarray
    rollout: np.ndarray
    bandit: Bandit


@jit
def _toy_space(seed, nodes, depth):
    return ToySpace(np.zeros(4, dtype=np.int64), np.zeros(1, dtype=np.int64),
                    new_bandit(1, 2, np.zeros(0, dtype=np.int64)),
                    new_tree(nodes, depth, 1, 2, np.zeros(0, dtype=np.int64)),
                    new_stream(seed, 0, 0))


def _decide(seed, iterations, depth=1):
    space = _toy_space(np.uint64(seed), iterations if depth > 1 else 0, depth)
    state = np.zeros(4, dtype=np.int64)
    budget = np.array([iterations, depth], dtype=np.int64)
    move = search_decision(0, budget, state, 0, space)
    return move, space


def test_the_flat_driver_finds_the_best_move_within_its_budget():
    move, space = _decide(7, 400)
    assert move == (0, SAFE, 0)
    assert space.bandit.visits.sum() == 400
    gamble, safe = space.bandit.reward / space.bandit.visits
    assert abs(gamble - 0.5) < 0.15 and abs(safe - 0.7) < 0.15
    assert space.tree.used[0] == 0


def test_the_tree_chooses_the_later_decision_by_what_the_searcher_saw():
    move, space = _decide(7, 400, depth=2)
    assert move == (0, GAMBLE, 0)
    assert space.bandit.visits.sum() == 400
    # One node per value of the bit the gamble shows; each learns the right guess.
    tree = space.tree
    assert tree.used[0] == 2
    for node in range(2):
        rows = slice(tree.first[node], tree.first[node] + tree.count[node])
        assert tree.visits[rows].sum() == tree.visits_node[node]
        assert tree.reward[rows].max() == tree.visits[rows].max()


def test_the_same_stream_gives_the_same_search():
    for depth in (1, 2):
        (move, first), (again, second) = _decide(3, 40, depth), _decide(3, 40, depth)
        assert move == again
        assert np.array_equal(first.bandit.visits, second.bandit.visits)
        assert np.array_equal(first.bandit.reward, second.bandit.reward)


def test_a_space_without_hooks_does_not_compile():
    space = OtherSpace(np.zeros(4, dtype=np.int64), np.zeros(1, dtype=np.int64),
                       new_bandit(1, 2, np.zeros(0, dtype=np.int64)))
    with pytest.raises(TypingError, match="prepare"):
        search_decision(0, np.array([5, 1]), np.zeros(4, dtype=np.int64), 0, space)
