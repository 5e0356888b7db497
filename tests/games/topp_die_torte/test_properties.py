"""Invariants that hold at every step of every game (hypothesis picks the games)."""

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.games.topp_die_torte import kernel
from cakesim.games.topp_die_torte.reference import play_game
from cakesim.games.topp_die_torte.replay import end_position, score_file
from cakesim.games.topp_die_torte.rules import (
    END_CUBES,
    EXCHANGE_RULES,
    MISFIT_CUBES,
    MISS_BEYOND,
    VARIANTS,
)
from cakesim.games.topp_die_torte.strategies import GOLDEN_CUBE
from tests.games.topp_die_torte.conftest import (
    GREEDY,
    RANDOM,
    RULES,
    kernel_results,
    weighted,
)

STRATEGIES = [GREEDY, RANDOM, weighted("trader", exchange_threshold=0.8, size_weight=1.0),
              weighted("spread", fill_weight=-1.0, aim_error=3.0, hedge=0.5),
              weighted("wild", draft="greedy", jars="random", aim="random", deny_weight=1.0)]
readings = st.builds(lambda exchange, misfits, end, miss: RULES.with_overrides(
    exchange_rule=exchange, misfit_cubes=misfits, end_cubes=end, miss_beyond=miss),
    st.sampled_from(EXCHANGE_RULES), st.sampled_from(MISFIT_CUBES), st.sampled_from(END_CUBES),
    st.sampled_from(MISS_BEYOND))

tables = st.builds(
    lambda players, variant, rules, picks, seed, game, duplicate: (
        rules.for_table(players, variant),
        [STRATEGIES[i] for i in picks[:players]], seed, game, duplicate),
    st.integers(2, 4), st.sampled_from(VARIANTS), readings,
    st.lists(st.integers(0, len(STRATEGIES) - 1), min_size=4, max_size=4),
    st.integers(0, 2**32), st.integers(0, 10**6), st.booleans())


def check_step(game, step: str) -> None:
    """Conservation and the jar rules, after every rule step."""
    table = game.table
    # Cubes: supply + blue jars + exchange jars + the hand being placed.
    assert game.cubes_on_table() == table.cubes == sum(table.supply) + table.golden, step
    assert all(n >= 0 for n in game.supply.colours) and game.supply.golden >= 0
    # The end's cubes of any colour ignore the colours already in a jar.
    free_colours = game.round == table.rules.rounds and table.rules.end_cubes == "any-colour"
    for player in game.players:
        for jar in player.board.jars:
            colours = [c for c in jar.cubes if c != GOLDEN_CUBE]
            assert free_colours or len(colours) == len(set(colours)), (step, jar)
            assert len(jar.cubes) < jar.capacity or step == "place_cube", (step, jar)
        assert len(player.board.exchange) < table.rules.exchange or step == "place_cube"
        if not table.exchange_jar:
            assert player.board.exchange == []
    # Chips: each is in a pile or with a player, never both.
    won = sum(len(p.chips) for p in game.players)
    assert won + sum(len(pile) for pile in game.piles) == table.rules.chips, step


@settings(max_examples=60, deadline=None)
@given(tables)
def test_cubes_and_chips_are_conserved_at_every_step(case):
    table, strategies, seed, game, duplicate = case
    steps = []

    def audit(state, step):
        check_step(state, step)
        steps.append(step)

    result = play_game(table, strategies, seed, game, duplicate, audit=audit)
    assert steps.count("place_layer") == table.players * table.rules.rounds
    coins = sum(result.bronze) + sum(result.silver) + sum(result.gold)
    assert coins <= table.rules.chips == 66
    assert coins == sum(len(c) for c in result.chips)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_points_are_chips_plus_stars_and_the_win_is_shared(case):
    table, strategies, seed, game, duplicate = case
    result = play_game(table, strategies, seed, game, duplicate)
    star_points = table.rules.star_points
    for seat, chips in enumerate(result.chips):
        assert result.total[seat] == sum(v for _, v in chips) + star_points * result.stars[seat]
        for metal in ("bronze", "silver", "gold"):
            assert getattr(result, metal)[seat] == sum(m == metal for m, _ in chips)
    assert sum(result.win_units) == kernel.WIN_UNITS
    best = max(result.total)
    assert all((w > 0) == (t == best) for w, t in zip(result.win_units, result.total,
                                                        strict=True))
    assert len(result.scores_by_round) == table.rules.rounds + 1
    assert result.scores_by_round[-1] == result.total
    # Points never go down.
    for before, after in zip(result.scores_by_round, result.scores_by_round[1:], strict=False):
        assert all(a >= b for a, b in zip(after, before, strict=True))
    assert result.die_rolls <= sum(result.gold) or not table.die
    if not table.die:
        assert result.die_rolls == 0 and sum(result.stars) == 0
    if not table.exchange_jar:
        assert result.exchanges == 0
    assert sum(result.connected) <= 5 * table.players * table.rules.rounds
    assert all(m <= table.rules.rounds for m in result.misses)


@settings(max_examples=25, deadline=None)
@given(tables)
def test_the_kernel_keeps_the_same_laws(case):
    table, strategies, seed, first, duplicate = case
    results = kernel_results(table, strategies, seed, first, 20, duplicate)
    assert (results.win_units.sum(axis=1) == kernel.WIN_UNITS).all()
    coins = results.bronze + results.silver + results.gold
    assert (coins.sum(axis=1) <= table.rules.chips).all()
    assert (results.total >= coins).all()
    assert (results.total <= 5 * coins + table.rules.star_points * results.stars).all()


@settings(max_examples=20, deadline=None)
@given(tables)
def test_an_end_position_scores_to_the_games_own_scores(case):
    table, strategies, seed, game, duplicate = case
    result = play_game(table, strategies, seed, game, duplicate)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "end.json"
        path.write_text(json.dumps(end_position(table.rules, result)))
        scored = score_file(table.rules, path)
    assert scored["scores"] == list(result.total)
    assert scored["winners"] == [s for s, w in enumerate(result.win_units) if w > 0]
    assert [d["stars"] for d in scored["detail"]] == list(result.stars)
