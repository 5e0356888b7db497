"""The search player (``search.py``): parity, determinism, what it may see, what it plays."""

import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

from cakesim.games.topp_die_torte import kernel, search
from cakesim.games.topp_die_torte.game import GAME
from cakesim.games.topp_die_torte.strategies import DRAFT, SEARCH, strategy_arrays
from cakesim.kits.search import decide, search_decision
from cakesim.kits.seating import seat_of_deal
from tests.conformance.conftest import assert_parity, assert_pure
from tests.games.topp_die_torte.conftest import GREEDY, RANDOM, RULES


def searching(players, iterations=12.0, depth=1.0, **codes):
    """The tuned strategy of ``players`` drafting by search (jar and aim ``codes`` as given)."""
    strategy = GAME.with_weights(GAME.search_player("search", tuned(players)), "search",
                                 {"iterations": float(iterations), "depth": float(depth)})
    return dataclasses.replace(strategy, **codes)


def tuned(players):
    return GAME.named_strategy("tuned", players)


# ----------------------------------------------------------------------------------------
# Kernel and reference engine play the same games, search players included.

TABLES = {
    "2P all search": (2, "base", lambda: [searching(2)] * 2, False),
    "4P search among tuned": (4, "base", lambda: [searching(4)] + [tuned(4)] * 3, True),
    "3P tree searcher, drawing searcher, random": (
        3, "base", lambda: [searching(3, 20, 3), searching(3, 8, jars="random", aim="random"),
                            RANDOM], True),
    "4P rotating first placer, two searchers": (
        4, "rotate", lambda: [searching(4, 10), GREEDY, searching(4, 16, 7), tuned(4)], True),
    "3P without die and exchange jar": (
        3, "no-exchange", lambda: [searching(3, 10), tuned(3), searching(3, 6)], False),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_kernel_matches_reference_with_search_players(name):
    players, variant, seated, duplicate = TABLES[name]
    table = GAME.table(RULES, players, seated(), variant, duplicate)
    assert_parity(table, seed=21, first=0, games=2 * players)


def test_the_built_in_search_players_are_the_tuned_strategy_searching():
    for players in (2, 3, 4):
        for name, iterations in GAME.search_budgets.items():
            strategy = GAME.named_strategy(name, players)
            assert strategy.draft == "search" and strategy.searches
            assert strategy.jars == tuned(players).jars and strategy.aim == tuned(players).aim
            assert strategy.all_weights() == (tuned(players).all_weights()
                                              | {"iterations": float(iterations)})


# ----------------------------------------------------------------------------------------
# A game with search players is a pure function of (seed, game); one iteration is the
# policy itself.


def test_the_same_games_twice_and_chunked_alike():
    table = GAME.table(RULES, 3, [searching(3, 10, jars="random"), searching(3, 6), tuned(3)],
                       duplicate=True)
    assert_pure(table, seed=5, games=6, chunk=2)


def test_one_iteration_plays_the_rollout_policy():
    # The policy's tile and aim are the first candidate, and one iteration plays it: the
    # games are the tuned strategy's (every strategy here draws nothing at random).
    for players in (2, 4):
        policy = GAME.play_chunk(GAME.table(RULES, players, [tuned(players)] * players,
                                            duplicate=True), 9, 0, 2 * players)
        one = GAME.play_chunk(GAME.table(RULES, players, [searching(players, 1)] * players,
                                         duplicate=True), 9, 0, 2 * players)
        for metric, values in policy.seat.items():
            assert np.array_equal(values, one.seat[metric]), metric
    more = GAME.play_chunk(GAME.table(RULES, 4, [searching(4, 40)] * 4, duplicate=True), 9, 0, 8)
    assert not np.array_equal(more.seat["total"], policy.seat["total"])


# ----------------------------------------------------------------------------------------
# The search sees no more than its seat: not the piles' order, the chips' order, the aims
# to come or the die.


class Paused(NamedTuple):
    """A kernel game paused at a search decision: the bundles ``search_decision`` reads."""

    rules: tuple
    seats: tuple
    state: tuple
    space: tuple


def paused_games(players, strategies, seed, game):
    """Game ``game`` of ``seed`` in the kernel, yielded (``Paused``) at every search
    decision; the search then decides, and the game goes on."""
    rules = kernel.rule_data(RULES.for_table(players, "base").arrays)
    seats = kernel.Strategies(*strategy_arrays(strategies, RULES.max_offset))
    state = kernel.new_state(rules, players)
    space = search.new_search_space(rules, seats)
    deal, rotation = seat_of_deal(game, players, True)
    kernel.start_game(np.uint64(seed), deal, game, rotation, rules, state)
    while not kernel.advance(rules, seats, state):
        yield Paused(rules, seats, state, space)
        decide(rules, seats, state, None, space)


def copy_of(state):
    """A copy of a kernel ``GameState`` that shares no array with it."""
    sheet = state.sheet._replace(**{f: getattr(state.sheet, f).copy()
                                    for f in state.sheet._fields})
    return state._replace(sheet=sheet, **{f: getattr(state, f).copy() for f in state._fields
                                          if f != "sheet"})


def reshuffled(state, rules, rng):
    """A copy of ``state`` dealt otherwise where nobody has looked: the piles' undrawn
    tiles permuted among every undrawn place, each chip pile's rest reshuffled, other aims
    from this round on, another die."""
    other = copy_of(state)
    unseen = rules.rounds - rules.face_up
    places = [(s, p) for s in range(state.held.shape[0])
              for p in range(int(state.drawn[s]), unseen)]
    for (s, p), tile in zip(places, rng.permutation([state.pile[s, p] for s, p in places]),
                            strict=True):
        other.pile[s, p] = tile
    for metal in range(kernel.METALS):
        rest = slice(int(state.chips_drawn[metal]), int(rules.chip_count[metal]))
        other.chips[metal, rest] = rng.permutation(state.chips[metal, rest])
    other.aim_draws[:, int(state.clock[kernel.ROUND]):] = rng.random(
        other.aim_draws[:, int(state.clock[kernel.ROUND]):].shape)
    other.die_stream[:] = rng.integers(1, 2**63, 2, dtype=np.uint64)
    return other


@pytest.mark.parametrize(("players", "seed", "depth"), [(2, 3, 1), (4, 8, 4)])
def test_no_decision_depends_on_what_nobody_has_seen(players, seed, depth):
    rng = np.random.default_rng(seed)
    decisions = changed = 0
    for paused in paused_games(players, [searching(players, 16, depth)] * players, seed, 0):
        rules, seats, state, space = paused
        seen = []
        for world in (copy_of(state), reshuffled(state, rules, rng),
                      reshuffled(state, rules, rng)):
            move = search_decision(rules, seats, world, None, space)
            bandit = space.bandit
            seen.append((move, bandit.visits.copy(), bandit.reward.copy(),
                         world.decision_stream.copy()))
        changed += not np.array_equal(reshuffled(state, rules, rng).pile, state.pile)
        for move, visits, reward, stream in seen[1:]:
            assert move == seen[0][0]
            # Every sampled world was the same: the same reward for every candidate.
            assert np.array_equal(visits, seen[0][1]) and np.array_equal(reward, seen[0][2])
            assert np.array_equal(stream, seen[0][3])
        decisions += 1
    assert decisions >= 5 * players and changed >= 4 * players


def test_a_sampled_world_keeps_the_table_and_deals_the_rest_afresh():
    rules, seats, state, space = next(paused_games(3, [searching(3)] * 3, 4, 0))
    search.prepare(rules, seats, state, space)
    search.open_worlds(rules, state, space)
    unseen = rules.rounds - rules.face_up
    tiles, first_places = set(), set()
    for _ in range(200):
        search.sample_world(rules, state, space)
        world = space.world
        for s in range(3):
            drawn = int(state.drawn[s])
            assert np.array_equal(world.pile[s, :drawn], state.pile[s, :drawn])
            assert np.array_equal(world.hand[s, :state.held[s]], state.hand[s, :state.held[s]])
            first_places.add(int(world.pile[s, drawn]))
        assert sorted(world.pile[:, int(state.drawn[0]):unseen].ravel()) == sorted(
            state.pile[:, int(state.drawn[0]):unseen].ravel())
        for metal in range(kernel.METALS):
            assert sorted(world.chips[metal, :rules.chip_count[metal]]) == sorted(
                state.chips[metal, :rules.chip_count[metal]])
        assert (world.pick == kernel.UNDECIDED).all()
        tiles.add(tuple(world.pile.ravel()))
    # Every undrawn tile can come to any undrawn place, seats mixed.
    assert len(first_places) > 6 and len(tiles) == 200
    search.close_worlds(rules, state, space)


def test_the_policy_tile_is_the_first_candidate():
    rules, seats, state, space = next(paused_games(2, [searching(2)] * 2, 6, 1))
    seat, *_ = search.prepare(rules, seats, state, space)
    count, widen = search.candidates(rules, seat, state, None, space, space.bandit)
    assert count == state.held[seat] and not widen
    rollout = space.rollout
    assert rollout.codes[:, DRAFT].tolist() == [1, 1] and seats.codes[0, DRAFT] == SEARCH
    assert sorted(space.bandit.move[:count, 1]) == list(range(count))
