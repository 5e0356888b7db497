"""The search driver on a toy game: it finds the best move, spends exactly its budget,
replays from the same stream, and a space no game registered fails to compile."""

from typing import NamedTuple

import numpy as np
import pytest
from numba.core.errors import TypingError

from cakesim.engine.jit import jit
from cakesim.engine.seeding import below, new_stream
from cakesim.kits import search as driver
from cakesim.kits.bandit import Bandit, add, clear, new_bandit
from cakesim.kits.search import implements, search_decision

# The toy: a state is one number; a move adds 0, 1 or 2 to it; the world then adds a
# hidden 0 or 1; the searcher wins when the total reaches 2. Adding 2 always wins,
# adding 1 wins half the worlds, adding 0 never.
MOVES = 3


class ToySpace(NamedTuple):
    world: np.ndarray  # (2,) int64: [0] the number, [1] unused
    rollout: np.ndarray  # (1,) int64: unused (the toy has no rollout players)
    bandit: Bandit
    stream: np.ndarray  # (2,) uint64: the worlds' draws


@implements(driver.prepare, ToySpace)
def prepare(rules, seats, state, space):
    return 0, int(seats[0]), 0.5, 1.0


@implements(driver.candidates, ToySpace)
def candidates(rules, seat, state, scratch, space):
    count = clear(space.bandit)
    for move in range(MOVES):
        count = add(count, 0, move, 0, space.bandit)
    return count, False


@implements(driver.open_worlds, ToySpace)
def open_worlds(rules, state, space):
    pass


@implements(driver.close_worlds, ToySpace)
def close_worlds(rules, state, space):
    pass


@implements(driver.sample_world, ToySpace)
def sample_world(rules, state, space):
    space.world[0] = state[0] + below(space.stream, 2)


@implements(driver.make_move, ToySpace)
def make_move(kind, index, detail, rules, seats, state, scratch, space):
    state[0] += index


@implements(driver.finish, ToySpace)
def finish(rules, seat, world, scratch, space):
    return 1.0 if world[0] >= 2 else 0.0


class OtherSpace(NamedTuple):
    world: np.ndarray
    rollout: np.ndarray
    bandit: Bandit


@jit
def _toy_space(seed):
    return ToySpace(np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64),
                    new_bandit(1, MOVES, np.zeros(0, dtype=np.int64)), new_stream(seed, 0, 0))


def _decide(seed, iterations):
    space = _toy_space(np.uint64(seed))
    state = np.zeros(2, dtype=np.int64)
    budget = np.array([iterations], dtype=np.int64)
    move = search_decision(0, budget, state, 0, space)
    return move, space


def test_the_driver_finds_the_best_move_within_its_budget():
    move, space = _decide(7, 60)
    assert move == (0, 2, 0)
    assert space.bandit.visits.sum() == 60
    # The sure win earns every visit's reward; the sure loss none.
    assert space.bandit.reward[2] == space.bandit.visits[2]
    assert space.bandit.reward[0] == 0.0


def test_the_same_stream_gives_the_same_search():
    (move, first), (again, second) = _decide(3, 40), _decide(3, 40)
    assert move == again
    assert np.array_equal(first.bandit.visits, second.bandit.visits)
    assert np.array_equal(first.bandit.reward, second.bandit.reward)


def test_a_space_without_hooks_does_not_compile():
    space = OtherSpace(np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64),
                       new_bandit(1, MOVES, np.zeros(0, dtype=np.int64)))
    with pytest.raises(TypingError, match="prepare"):
        search_decision(0, np.array([5]), np.zeros(2, dtype=np.int64), 0, space)
