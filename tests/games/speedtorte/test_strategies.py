"""The bakers' decisions: waiting in the Eilauftrag, withdrawn signals, the lookahead."""

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.games.speedtorte import planner, steps
from cakesim.games.speedtorte.game import GAME
from cakesim.games.speedtorte.reference import Attempt, Game, RealTimeGame
from cakesim.games.speedtorte.strategies import (
    NO_SIGNAL,
    W_PATIENCE,
    Baker,
    named_strategy,
    signal_stands,
)
from tests.conformance.conftest import assert_parity
from tests.games.speedtorte.conftest import RULES


def _table(players, level, variant, bakers):
    return GAME.table(RULES, players, list(bakers), variant, level=level)


def _won(table, games=200, seed=3):
    return GAME.play_chunk(table, seed, 0, games).game


def test_a_patient_baker_never_places_while_another_piece_is_on_its_way():
    # With endless patience a baker starts only when nobody else is placing, so no two
    # placements are ever under way together and none can be rejected.
    patient = Baker("patient", weights=(("patience", 1e6),))
    hasty = Baker("hasty", weights=(("patience", 0.0),))
    calm = _won(_table(3, "Meister", "eilauftrag", [patient] * 3))
    rushed = _won(_table(3, "Meister", "eilauftrag", [hasty] * 3))
    assert calm["rejected"].sum() == 0
    assert rushed["rejected"].sum() > 0


def test_holding_back_pointless_placements_wins_more_eilauftrag_games():
    team = named_strategy("team")
    forced = Baker("forced", weights=(("patience", 0.0),))
    waits = _won(_table(3, "Meister", "eilauftrag", [team] * 3), 400)["won"]
    never = _won(_table(3, "Meister", "eilauftrag", [forced] * 3), 400)["won"]
    assert waits.mean() > never.mean()


class _Checked:
    """A reference game that checks, after every placement, that no stale signal stands."""

    stale = 0

    def withdraw_signals(self, baker, move):
        super().withdraw_signals(baker, move)
        for other in range(self.players):
            if other != baker and self.signals[other] != NO_SIGNAL and \
                    not signal_stands.py_func(other, self.board, self.rules):
                self.stale += 1


class _CheckedTurns(_Checked, Game):
    pass


class _CheckedRealTime(_Checked, RealTimeGame):
    pass


@pytest.mark.parametrize("engine", [_CheckedTurns, _CheckedRealTime])
def test_a_signal_no_longer_true_is_withdrawn(engine):
    keeps = Baker("keeps", weights=(("withdraw", 0.0),))
    for bakers, expect_stale in (([named_strategy("team")] * 3, False), ([keeps] * 3, True)):
        table = _table(3, "Konditor", "eilauftrag" if engine is _CheckedRealTime else "signals",
                       bakers)
        stale = withdrawn = 0
        for index in range(30):
            game = engine(table.rules, bakers, 5, index)
            result = game.play()
            stale += game.stale
            withdrawn += sum(len(m.withdrawn) for m in result.log)
        assert (stale > 0) == expect_stale
        assert (withdrawn > 0) == (not expect_stale)


def test_a_lookahead_comparing_one_candidate_plays_as_the_team_baker():
    one = Baker("one", chooser="lookahead", weights=(("candidates", 1.0),))
    for variant in ("signals", "eilauftrag"):
        team = GAME.play_chunk(_table(3, "Meister", variant, [named_strategy("team")] * 3),
                               4, 0, 60)
        same = GAME.play_chunk(_table(3, "Meister", variant, [one] * 3), 4, 0, 60)
        for metric, values in team.game.items():
            np.testing.assert_array_equal(values, same.game[metric], err_msg=metric)


def _first_moves(baker, shuffles: int) -> set:
    """Baker 0's first placement at a 3-baker Meister table, over deals that differ only
    in where the pieces it cannot see lie (the other hands and the supply permuted)."""
    table = _table(3, "Meister", "signals", [baker] * 3)
    moves = set()
    for shuffle in range(shuffles):
        trial = Game(table.rules, list(table.strategies), 8, 0)
        trial.lay_out()
        trial.open_order_cards()
        hidden = np.concatenate([trial.hands[1], trial.hands[2], trial.pieces[trial.drawn:]])
        np.random.default_rng(shuffle).shuffle(hidden)
        trial.hands[1], trial.hands[2] = hidden[:4], hidden[4:8]
        trial.pieces[trial.drawn:] = hidden[8:]
        moves.add(planner.lookahead_move(0, trial.kernel_state(), trial.rules, trial.params,
                                         trial.plan, trial.a["timing"], 0.0)[:2])
    return moves


def test_the_lookahead_cannot_see_where_unseen_pieces_lie():
    assert len(_first_moves(named_strategy("lookahead"), 4)) == 1


def test_a_clairvoyant_lookahead_plays_out_in_the_true_deal():
    # Where the plain lookahead decides the same however the unseen pieces lie (above),
    # the clairvoyant reads where they lie: its decisions differ between such deals.
    seer = Baker("seer", chooser="lookahead", weights=(("clairvoyant", 1.0),))
    assert len(_first_moves(seer, 12)) > 1
    table = _table(3, "Meister", "signals", [seer] * 3)
    # One world, the true one: its sampled worlds' count changes nothing.
    many = Baker("many", chooser="lookahead", weights=(("clairvoyant", 1.0), ("samples", 16.0)))
    one = _won(table, games=30)
    for metric, values in _won(_table(3, "Meister", "signals", [many] * 3), games=30).items():
        np.testing.assert_array_equal(values, one[metric], err_msg=metric)


def _eilauftrag_start(shared_plate: bool) -> tuple[RealTimeGame, tuple, tuple]:
    """A 3-baker Meister Eilauftrag laid out, nobody placing yet, and a placement each for
    bakers 0 and 1 (on the same plate when ``shared_plate``)."""
    table = _table(3, "Meister", "eilauftrag", [named_strategy("lookahead")] * 3)
    for seed in range(100):
        game = RealTimeGame(table.rules, list(table.strategies), seed, 0)
        game.lay_out()
        game.open_order_cards()
        game.attempts, game.clock = [None] * 3, 0.0
        game.changed_at = [-1.0] * game.a["plates"]
        for mine in game.legal_placements(0):
            for theirs in game.legal_placements(1):
                if (mine[1] == theirs[1]) == shared_plate:
                    return game, mine, theirs
    raise AssertionError("no deal with such placements")


def test_a_piece_on_its_way_stays_in_sight_in_the_lookaheads_worlds():
    game, _, (slot, plate) = _eilauftrag_start(shared_plate=False)
    game.attempts[1] = Attempt(1, slot, plate, (0, 0, 0), 1, 0.0, 2.0)
    flying, world = int(game.hands[1, slot]), game.plan.world
    kept, dealt = set(), set()
    for key in range(20):
        state = game.kernel_state()
        planner.copy_state(state, world)
        world.stream[:] = key, 0
        planner.deal_unseen(0, world, game.plan.unseen, False, True)
        kept.add(int(world.board.hands[1, slot]))
        dealt.add(tuple(world.board.hands[2]))
    assert kept == {flying}
    assert len(dealt) > 1


def test_a_play_out_on_the_clock_lands_pieces_in_time_order():
    # Baker 1's piece is on its way to the plate the candidate aims at and lands first
    # (depth 0 stops there); the candidate's piece, still on its way, then finds the
    # plate changed since it started and is rejected.
    game, (slot, plate), (their_slot, _) = _eilauftrag_start(shared_plate=True)
    game.attempts[1] = Attempt(1, their_slot, plate, (0, 0, 0), 1, 0.0, 0.001)
    theirs = int(game.hands[1, their_slot])
    world = game.plan.world
    planner.copy_state(game.kernel_state(), world)
    ending = planner.play_out_on_the_clock(0, slot, plate, 0, world, game.rules, game.params,
                                           game.a["timing"])
    assert ending == -1
    assert world.board.tops[plate] == theirs
    assert world.lands_at[0] > 0.001 and tuple(world.target[0]) == (slot, plate)
    baker, _, placed, _ = steps.land_next(world, game.rules, game.params)
    assert (baker, placed) == (0, False)
    assert world.board.tops[plate] == theirs


def test_a_lookahead_that_waits_whatever_it_picks_skips_its_search():
    # Baker 1's piece is on its way and baker 0's patience is above every placement's
    # worth: baker 0 waits whichever placement its search would pick. It skips the search
    # (the play-outs' values stay unwritten) but draws the keys of its worlds, so the
    # draws after it are those the search leaves (the games stay the same).
    game, _, (slot, plate) = _eilauftrag_start(shared_plate=False)
    game.attempts[1] = Attempt(1, slot, plate, (0, 0, 0), 1, 0.0, 2.0)
    game.params[0, W_PATIENCE] = 1e6
    streams, searched = [], []
    for most_patience in (np.inf, 0.0):  # may wait; must start now (the search runs)
        state = game.kernel_state()
        state.stream[:] = 5, 0
        game.plan.values[:] = np.nan
        move = planner.lookahead_move(0, state, game.rules, game.params, game.plan,
                                      game.a["timing"], most_patience)
        streams.append(tuple(state.stream))
        searched.append(not np.isnan(game.plan.values).all())
    assert steps.waits(0, move[5], np.inf, state, game.params)
    assert searched == [False, True]
    assert streams[0] == streams[1]


@pytest.mark.parametrize("variant", ["signals", "eilauftrag"])
def test_the_kernel_plays_the_clairvoyant_as_the_reference_does(variant):
    seer = Baker("seer", chooser="lookahead", weights=(("clairvoyant", 1.0),))
    assert_parity(_table(3, "Hofzuckerbäcker", variant, [seer, named_strategy("team"), seer]),
                  seed=9, first=0, games=12)


def test_a_lookahead_weight_that_counts_must_be_whole():
    with pytest.raises(InputError, match=r"samples.*whole number 1 to 64"):
        Baker.parse("x", Table({"chooser": "lookahead", "samples": 2.5}, "exp.toml",
                               "strategies.x"))
