"""The search player (``search.py``): parity, determinism, what it may see, what it plays."""

import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

from cakesim.games.topp_die_torte import kernel, search
from cakesim.games.topp_die_torte.game import GAME
from cakesim.games.topp_die_torte.strategies import (
    AIM,
    DRAFT,
    SEARCH,
    choose_target,
    choose_tile,
    strategy_arrays,
)
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
    """A copy of ``state`` dealt otherwise where the asked seat has not looked: the undrawn
    pile places refilled from every tile never face up, the chips it has not seen (the
    piles' rest, the others' chips) dealt again and the others' points made up from them,
    other aims from this round on, another die, and the other seats' picks of the round
    scrambled."""
    other = copy_of(state)
    searcher = int(state.clock[kernel.SEAT])
    places = [(s, p) for s in range(state.held.shape[0])
              for p in range(int(state.drawn[s]), rules.rounds - rules.face_up)]
    unseen = rng.permutation(np.flatnonzero(~state.seen))
    for (s, p), tile in zip(places, unseen, strict=False):
        other.pile[s, p] = tile
    for metal in range(kernel.METALS):
        hidden = [i for i in range(int(rules.chip_count[metal]))
                  if i >= state.chips_drawn[metal] or state.chip_owner[metal, i] != searcher]
        other.chips[metal, hidden] = rng.permutation(state.chips[metal, hidden])
    for s in range(state.held.shape[0]):
        if s != searcher:
            mine = [(m, i) for m in range(kernel.METALS) for i in range(int(state.chips_drawn[m]))
                    if state.chip_owner[m, i] == s]
            other.sheet.total[0, s] = sum(int(other.chips[m, i]) for m, i in mine)
            other.pick[s] = rng.integers(0, state.held[s])
            other.target[s] = rng.integers(-rules.max_offset, rules.max_offset + 1)
    other.aim_draws[:, int(state.clock[kernel.ROUND]):] = rng.random(
        other.aim_draws[:, int(state.clock[kernel.ROUND]):].shape)
    other.die_stream[:] = rng.integers(1, 2**63, 2, dtype=np.uint64)
    return other


@pytest.mark.parametrize(("players", "seed", "depth"), [(2, 3, 1), (4, 8, 4)])
def test_no_decision_depends_on_what_the_seat_has_not_seen(players, seed, depth):
    rng = np.random.default_rng(seed)
    decisions = changed = 0
    for paused in paused_games(players, [searching(players, 16, depth)] * players, seed, 0):
        rules, seats, state, space = paused
        seen = []
        for world in (copy_of(state), reshuffled(state, rules, rng),
                      reshuffled(state, rules, rng)):
            changed += not np.array_equal(world.pile, state.pile)
            move = search_decision(rules, seats, world, None, space)
            bandit = space.bandit
            seen.append((move, bandit.visits.copy(), bandit.reward.copy(),
                         world.decision_stream.copy()))
        for move, visits, reward, stream in seen[1:]:
            assert move == seen[0][0]
            # Every sampled world was the same: the same reward for every candidate.
            assert np.array_equal(visits, seen[0][1]) and np.array_equal(reward, seen[0][2])
            assert np.array_equal(stream, seen[0][3])
        decisions += 1
    assert decisions >= 5 * players and changed >= 8 * players


def sampled_worlds(paused, n):
    """``n`` worlds the search samples at a paused decision (copies)."""
    rules, seats, state, space = paused
    search.prepare(rules, seats, state, space)
    search.open_worlds(rules, state, space)
    for _ in range(n):
        search.sample_world(rules, state, space)
        yield copy_of(space.world)
    search.close_worlds(rules, state, space)


def test_a_sampled_world_keeps_the_table_and_deals_the_rest_afresh():
    # A later decision: chips have been won.
    paused = [copy_of(p.state) for p in paused_games(3, [searching(3)] * 3, 4, 0)]
    late = [p for p in paused if p.clock[kernel.ROUND] == 4][-1]
    owners = late.chip_owner[late.chip_owner >= 0]
    assert (owners != late.clock[kernel.SEAT]).any()  # chips the others drew face down
    rules, seats, _, space = next(paused_games(3, [searching(3)] * 3, 4, 0))
    searcher = int(late.clock[kernel.SEAT])
    undrawn = [(s, p) for s in range(3) for p in range(int(late.drawn[s]), 5)]
    box_tiles, first_places = set(), set()
    for world in sampled_worlds(Paused(rules, seats, late, space), 300):
        for s in range(3):
            drawn = int(late.drawn[s])
            assert np.array_equal(world.pile[s, :drawn], late.pile[s, :drawn])
            assert np.array_equal(world.hand[s, :late.held[s]], late.hand[s, :late.held[s]])
            first_places.add(int(world.pile[s, drawn]))
        tiles = [int(world.pile[s, p]) for s, p in undrawn]
        # Tiles never face up, each once; some of them from the box, never dealt.
        assert len(set(tiles)) == len(tiles) and not late.seen[tiles].any()
        box_tiles |= set(tiles) - {int(late.pile[s, p]) for s, p in undrawn}
        for metal in range(kernel.METALS):
            count = int(rules.chip_count[metal])
            assert sorted(world.chips[metal, :count]) == sorted(late.chips[metal, :count])
            mine = late.chip_owner[metal, :count] == searcher
            assert np.array_equal(world.chips[metal, :count][mine], late.chips[metal, :count][mine])
        for s in range(3):
            won = [int(world.chips[m, i]) for m in range(3) for i in range(int(late.chips_drawn[m]))
                   if world.chip_owner[m, i] == s]
            assert world.sheet.total[0, s] == sum(won)
        assert world.sheet.total[0, searcher] == late.sheet.total[0, searcher]
        assert (world.pick == kernel.UNDECIDED).all()
    assert len(first_places) > 6 and box_tiles


def test_a_world_forgets_the_other_searchers_picks_of_the_round():
    pauses = paused_games(3, [searching(3)] * 3, 5, 0)
    next(pauses)
    second = next(pauses)
    assert second.state.clock[kernel.SEAT] == 1 and second.state.pick[0] != kernel.UNDECIDED
    for world in sampled_worlds(second, 3):
        assert (world.pick == kernel.UNDECIDED).all()
        assert (world.target == kernel.NO_PLAN).all()


def test_the_tree_knows_the_table_not_what_is_hidden():
    rng = np.random.default_rng(2)
    paused = next(p for p in paused_games(4, [searching(4)] * 4, 6, 0)
                  if p.state.clock[kernel.ROUND] == 2)
    rules, _, state, space = paused
    seat = int(state.clock[kernel.SEAT])
    key = search.observe(rules, seat, state, np.uint64(0), space)
    hidden = reshuffled(state, rules, rng)
    hidden.hand[:, -1] = 99  # past every hand's held tiles
    assert search.observe(rules, seat, hidden, np.uint64(0), space) == key
    public = copy_of(state)
    public.jar_count[(seat + 1) % 4, 0] += 1
    assert search.observe(rules, seat, public, np.uint64(0), space) != key


def test_descend_stops_at_the_searchers_next_pick():
    rules, seats, state, space = next(paused_games(2, [searching(2)] * 2, 7, 0))
    seat = int(state.clock[kernel.SEAT])
    for world in sampled_worlds(Paused(rules, seats, state, space), 1):
        world.pick[seat] = 0
        assert not search.descend(rules, seat, world, None, space)
        assert world.clock[kernel.ROUND] == 1 and world.clock[kernel.STEP] == kernel.PICKING
        assert world.clock[kernel.SEAT] == seat
        assert space.rollout.codes[(seat - world.clock[kernel.ROTATION]) % 2, DRAFT] != SEARCH


def test_the_policy_tile_and_aim_are_the_first_candidate():
    rules, seats, state, space = next(paused_games(2, [searching(2)] * 2, 6, 1))
    seat, *_ = search.prepare(rules, seats, state, space)
    count, widen = search.candidates(rules, seat, state, None, space, space.bandit)
    assert count == state.held[seat] and not widen
    rollout, player = space.rollout, (seat - state.clock[kernel.ROTATION]) % 2
    assert rollout.codes[:, DRAFT].tolist() == [1, 1] and seats.codes[0, DRAFT] == SEARCH
    left = (seat + 1) % 2
    args = (rollout.params[player], rollout.aim[player], rules)
    pick = choose_tile(rollout.codes[player, DRAFT], *args, state.hand[seat], state.held[seat],
                       state.top[seat], state.jar_mask[seat], state.jar_count[seat],
                       state.top[left], state.jar_mask[left], state.jar_count[left],
                       state.worth, state.values, state.decision_stream)
    moves = space.bandit.move[:count]
    assert moves[0, 1] == pick and sorted(moves[:, 1]) == list(range(count))
    for _, index, target in moves:
        assert target == choose_target(rollout.codes[player, AIM], *args, state.top[seat],
                                       state.hand[seat, index], state.jar_mask[seat],
                                       state.jar_count[seat], state.worth, state.values,
                                       state.decision_stream)
