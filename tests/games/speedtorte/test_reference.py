"""The Speedtorte reference engine keeps the rules: legal moves, exact cards, honest scores."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.app.cli import main
from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.pieces import SACHER
from cakesim.games.speedtorte.reference import Game
from cakesim.games.speedtorte.strategies import fits
from tests.games.speedtorte.conftest import LEVELS, RULES, table_of

VARIANTS = ("signals", "silence", "open_hands", "special_orders", "silence+special_orders",
            "open_hands+special_orders")


def _played(players, level, variant, seed, index, bakers=("team",)):
    table = table_of(players, level, variant, bakers)
    game = Game(table.rules, list(table.strategies), seed, index)
    return table, game, game.play()


@settings(max_examples=60, deadline=None)
@given(players=st.integers(1, 5), level=st.sampled_from(LEVELS),
       variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**40), index=st.integers(0, 999),
       random=st.booleans())
def test_every_logged_move_is_legal_and_every_card_exactly_met(players, level, variant, seed,
                                                               index, random):
    table, _, result = _played(players, level, variant, seed, index,
                                  ("random",) if random else ("team",))
    a = table.rules.arrays
    tops = np.array(result.setup["tops"], dtype=np.int8)
    hands = [list(h) for h in result.setup["hands"]]
    baker = 0
    for move in result.log:
        while not hands[baker]:
            baker = (baker + 1) % players
        assert move.baker == baker, "bakers take turns, skipping empty hands"
        assert move.piece in hands[baker], "the piece comes from the baker's own hand"
        assert fits(move.piece, tops[move.plate], a["type_flavour"], a["type_candles"],
                    a["sacher"])
        hands[baker].remove(move.piece)
        if move.drew is not None:
            hands[baker].append(move.drew)
        tops[move.plate] = move.piece
        for f in move.fulfilled:
            assert card_met(a["program"], f.card, a["type_flavour"][tops],
                            a["type_candles"][tops]), "only the top pieces count"
        if variant == "silence":
            assert move.signal is None
        baker = (baker + 1) % players
    # Conservation: plates, placements, hands and supply account for every piece.
    box = len(a["box"]) + (a["sachertorte"] >= 0)
    assert 4 + result.moves + sum(len(h) for h in hands) + result.supply_left == box
    won = result.ending == 0
    assert won == (result.fulfilled >= result.to_fulfil)
    card_points = sum(int(a["card_points"][f.card]) for m in result.log for f in m.fulfilled)
    bonus = a["win_bonus"] + a["record_hunt_piece"] * result.supply_left if won else 0
    assert result.score == card_points + bonus
    if result.ending == 1:
        stuck = result.stuck
        assert stuck["hand"] and not any(
            fits(p, t, a["type_flavour"], a["type_candles"], a["sacher"])
            for p in stuck["hand"] for t in stuck["tops"])


def test_a_card_met_at_setup_goes_under_the_deck_once():
    for index in range(200):
        _, _, result = _played(2, "Lehrling", "signals", 3, index)
        if result.setup["under"]:
            assert len(set(result.setup["under"])) == len(result.setup["under"])
            return
    raise AssertionError("no deal with a card met at setup in 200 games")


def test_special_orders_start_with_two_fewer_cards_and_a_sachertorte():
    plain = table_of(2, "Meister", "signals").rules
    special = table_of(2, "Meister", "special_orders").rules
    assert special.cards_to_fulfil == plain.cards_to_fulfil - 2
    assert plain.arrays["sachertorte"] == -1 and special.arrays["sachertorte"] == SACHER
    assert len(Game(special, [], 1, 0).pieces) == len(plain.arrays["box"]) + 1 == 57
    regulars = [RULES.catalogue.cards[i].family for i in special.pool]
    assert "regular_guest" in regulars
    assert "regular_guest" not in [RULES.catalogue.cards[i].family for i in plain.pool]


@pytest.mark.parametrize("players", [1, 3, 5])
def test_the_sachertorte_lies_in_the_supply_never_on_a_plate_or_in_a_hand(players):
    table = table_of(players, "Meister", "special_orders+eilauftrag").rules
    places = []
    for index in range(300):
        game = Game(table, [], 11, index)
        game.lay_out()
        assert SACHER not in game.tops and SACHER not in game.hands
        supply = list(game.pieces[game.drawn:])
        assert supply.count(SACHER) == 1
        places.append(supply.index(SACHER))
    # Anywhere in the supply: its first and its last place both occur.
    assert min(places) == 0 and max(places) > 0.9 * len(supply)


def test_a_rush_card_missed_adds_a_card_under_the_deck():
    for index in range(300):
        _, _, result = _played(3, "Meister", "special_orders", 8, index)
        if result.rushes_missed:
            base = table_of(3, "Meister", "special_orders").rules.cards_to_fulfil
            assert result.to_fulfil == base + result.rushes_missed
            return
    raise AssertionError("no missed rush card in 300 games")


def test_the_replay_gives_a_reason_for_every_placement(capsys):
    assert main(["replay", "speedtorte", "--seed", "4", "--index", "2", "--option", "level=Meister",
                 "--players", "3"]) == 0
    out = capsys.readouterr().out
    placements = [line for line in out.splitlines() if " puts " in line]
    assert placements and all("legal)" in line for line in placements)
    assert any("fulfils card" in line for line in placements)
    assert any("brings card" in line and "plate" in line for line in placements)
    assert "signals:" in out and "Score:" in out


def test_replay_rejects_an_unknown_level(capsys):
    assert main(["replay", "speedtorte", "--seed", "1", "--index", "0",
                 "--option", "level=Bäcker"]) == 2
    err = capsys.readouterr().err
    assert "--option: Bäcker: 'Bäcker' is not allowed; allowed values: Lehrling" in err
