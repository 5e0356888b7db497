"""The Numba kernel and the reference engine play the same games, game for game.

Every setting at a few games is the conformance suite's (``tests/conformance``); here are
the game's own tables (mixed seats, the joker's players under both of its placements, tied
majorities) and, in ``make parity``, every setting at length."""

import itertools
from dataclasses import replace

import pytest

from cakesim.games.piece_o_cake.rules import JOKER_PLACEMENTS
from tests.conformance.conftest import assert_parity
from tests.games.piece_o_cake.conftest import GAME, RULES, STRATEGY_NAMES, table_of
from tests.games.piece_o_cake.test_joker_and_rounds import EATER, PLACER

SETTINGS = [(p, v, s) for p, v, s in itertools.product((2, 3, 4, 5), ("base", "compensation"),
                                                         STRATEGY_NAMES)
            if v == "base" or RULES.has_compensation(p)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_tables_on_duplicate_deals(players):
    names = [STRATEGY_NAMES[s % len(STRATEGY_NAMES)] for s in range(players)]
    assert_parity(table_of(players, "base", names, duplicate=True), seed=5, first=0,
                  games=40 * players)


def _default_or_slow(players: int, strategy: str) -> tuple:
    """The marks of a setting: the default suite plays every strategy at two of the four
    player counts (2 and 4, or 3 and 5, alternating along the strategies, so that every
    count meets half of them); ``make parity`` plays the other two as well."""
    default = (players - STRATEGY_NAMES.index(strategy)) % 2 == 0
    return () if default else (pytest.mark.slow,)


JOKER_NAMES = [s for s in STRATEGY_NAMES if GAME.named_strategy(s, 2).chooser != "fitted"]
"""Every strategy but those choosing by a fitted network, whose shipped networks read the
base rules' kinds (at a table with the joker it is refused: test_fitted.py)."""

# The joker and several rounds, every strategy; the joker-placing and swapping player at
# every count (the shipped strategies seldom swap).
JOKER_SETTINGS = [pytest.param(p, v, s, marks=_default_or_slow(p, s))
                  for p in (2, 3, 4, 5)
                  for v in ("joker", "joker-compensation-2-rounds" if RULES.has_compensation(p)
                            else "joker-2-rounds")
                  for s in JOKER_NAMES]


SAME_TAKE = replace(RULES, joker_placement="same_take")
"""The older reading of where the joker may go: on a kind first collected in the same take."""
JOKER_GAMES = {"search": 10, "search-deep": 3, "lookahead": 10, "lookahead2": 40,
               "greedy": 40}
"""Games per strategy (100 for the rest): fewer where the reference engine's plain Python
is slow (searching, looking ahead, enumerating cuts)."""


@pytest.mark.parametrize(("players", "variant", "strategy"), JOKER_SETTINGS)
def test_kernel_matches_reference_with_the_joker_and_rounds(players, variant, strategy):
    assert_parity(table_of(players, variant, (strategy,)), seed=12, first=500,
                  games=JOKER_GAMES.get(strategy, 100))


@pytest.mark.parametrize(("players", "strategy"), [
    pytest.param(p, s, marks=_default_or_slow(p, s)) for p in (2, 3, 4, 5)
    for s in JOKER_NAMES])
def test_kernel_matches_reference_with_the_older_joker_placement(players, strategy):
    assert_parity(table_of(players, "joker", (strategy,), rules=SAME_TAKE), seed=12,
                  first=500, games=JOKER_GAMES.get(strategy, 100))


@pytest.mark.parametrize("placement", JOKER_PLACEMENTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_swapping_and_placing_players_at_mixed_tables(players, placement):
    seats = [PLACER, GAME.named_strategy("random"), EATER] * 2
    variant = "joker-compensation-3-rounds" if RULES.has_compensation(players) else "joker-3-rounds"
    rules = replace(RULES, joker_placement=placement)
    table = GAME.table(rules, players, seats[:players], variant, duplicate=True)
    chunk = GAME.play_chunk(table, 4, 0, 40 * players)
    assert chunk.game["swaps"].sum() > 0 and chunk.game["joker_placed"].sum() > 0
    assert_parity(table, seed=4, first=0, games=40 * players)


def test_the_kernel_plays_the_placement_the_rule_set_names():
    # The player who places the joker whenever it may, on the same deals: the older
    # reading opens kinds first collected in the same take to it, so it places more.
    placed = {}
    for rules in (RULES, SAME_TAKE):
        table = GAME.table(rules, 4, [PLACER] * 4, "joker")
        placed[rules.joker_placement] = GAME.play_chunk(table, 4, 0, 400).game[
            "joker_placed"].sum()
    assert placed["same_take"] > placed["earlier"] > 0


def test_a_seat_bonus():
    # A bonus that changes winners (a game's spread is often a few points) and a penalty.
    rules = replace(RULES, seat_bonus={4: (3, 0, -2, 1)})
    assert_parity(table_of(4, "compensation", ("greedy",), rules=rules), 3, 0, 150)


def test_tied_majorities_scoring_nothing():
    rules = RULES.with_overrides(tie_rule="none")
    assert_parity(table_of(4, "compensation", ("greedy",), rules=rules), 3, 0, 150)


# The enumerating cutter plays about 10 games/s in the plain-Python reference, a search
# player a few games/s: fewer games.
LONG_RUN = {"greedy": 300, "search": 1000, "search-deep": 300, "fitted-search": 300}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant", "strategy"), SETTINGS + JOKER_SETTINGS)
def test_kernel_matches_reference_at_length(players, variant, strategy):
    assert_parity(table_of(players, variant, (strategy,)), seed=2026, first=0,
                  games=LONG_RUN.get(strategy, 5000))


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant", "strategy"), JOKER_SETTINGS)
def test_kernel_matches_reference_at_length_with_the_older_joker_placement(players, variant,
                                                                           strategy):
    assert_parity(table_of(players, variant, (strategy,), rules=SAME_TAKE), seed=2026, first=0,
                  games=LONG_RUN.get(strategy, 5000))
