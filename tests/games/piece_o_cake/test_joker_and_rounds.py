"""The joker slice and multi-round play (RULES.md s1): worked examples and invariants."""

import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cakesim.games.piece_o_cake.reference import Cake, Deal, Game, Slice, deal_game, play_game
from cakesim.games.piece_o_cake.replay import end_position, format_replay, score_file
from cakesim.games.piece_o_cake.rules import VARIANTS, load_rules
from cakesim.games.piece_o_cake.steps import deal_round
from cakesim.games.piece_o_cake.strategies import Strategy
from cakesim.games.slicing.tabletop import majority_sheet
from cakesim.kits.seating import play_seated
from tests.games.piece_o_cake.conftest import GAME

RULES = load_rules()
SAME_TAKE = replace(RULES, joker_placement="same_take")
"""The older reading: the joker may go on a kind first collected in the take that got it."""
KIND = {name: i for i, name in enumerate(RULES.kinds)}
JOKER = len(RULES.kinds)
PLACER = Strategy("placer", "greedy", "balanced", (("deny_weight", 1.0),
                                                   ("joker_eat_bias", -50.0),
                                                   ("swap_threshold", -50.0)))
"""Puts the joker on a pile whenever it may, and claims every swap."""
EATER = Strategy("eater", "greedy", "balanced", (("joker_eat_bias", 50.0),
                                                 ("swap_threshold", 50.0)))
"""Eats the joker at once, and never swaps."""


def piece(name: str) -> Slice:
    return Slice(KIND[name], {"plum": 1, "apricot": 1, "cherry": 1, "chocolate": 3}.get(name, 2))


def game_of(strategy: Strategy, players: int = 3, variant: str = "joker",
            rules=RULES) -> Game:
    """A game whose cakes are all plum, so that a test lays out the cakes it needs."""
    table = rules.for_table(players, variant)
    deal = Deal([[piece("plum")] * 11 for _ in range(5)], [piece("kiwi")] * 3)
    return Game(table, deal, [strategy] * players, np.zeros(2, dtype=np.uint64))


def take(game: Game, seat: int, pieces: list[Slice], eat_mask: int = 0) -> None:
    """``seat`` takes a one-portion cake of ``pieces`` (then settles the joker)."""
    cake = Cake(pieces, [list(range(len(pieces)))], [False])
    game.cake = cake
    game.take_portion(0, seat, cake, 0, eat_mask)


def test_the_joker_variants_deal_58_slices_and_set_3_aside():
    table = RULES.for_table(4, "joker-compensation")
    assert table.box == 58 and table.joker_kind == JOKER
    deal = deal_game(table, 7, 3)
    assert len(deal.set_aside) == 3
    assert sum(p.kind == JOKER for cake in deal.cakes for p in cake) \
        + sum(p.kind == JOKER for p in deal.set_aside) == 1
    # The joker deal is the base deal with the joker inserted: every other slice keeps
    # its order.
    base = deal_game(RULES.for_table(4, "base"), 7, 3)
    flat = [p for cake in deal.cakes for p in cake] + deal.set_aside
    assert [p for p in flat if p.kind != JOKER] == [p for cake in base.cakes for p in cake] \
        + base.set_aside


def test_every_later_round_of_a_joker_table_deals_the_base_tables_slices_too():
    joker, base = deal_game(RULES.for_table(4, "joker-3-rounds"), 7, 3), deal_game(
        RULES.for_table(4, "3-rounds"), 7, 3)
    for _ in range(2):
        deal_round(joker.stream, joker.order, 1)
        deal_round(base.stream, base.order, 0)
        assert [s for s in joker.order if s != 57] == list(base.order)


def test_with_nothing_collected_the_joker_must_be_eaten_for_two_points():
    game = game_of(PLACER)
    take(game, 1, [Slice(JOKER, 2)])
    assert [p.kind for p in game.players[1].eaten] == [JOKER]
    result = game.score()
    assert result.cream[1] == 2 and result.total[1] == 2


def test_a_placed_joker_counts_one_more_slice_of_its_kind():
    game = game_of(PLACER)
    for _ in range(3):
        game.players[0].collect(piece("kiwi"))
    game.players[1].collect(piece("kiwi"))
    take(game, 1, [piece("kiwi"), Slice(JOKER, 2)])
    assert game.players[1].collected_count(KIND["kiwi"]) == 3
    # 3 against 3: a tied majority scores in full for both.
    majority = game.score().majority
    assert majority[0] == majority[1] == 8
    assert game.joker_place() == (3, 1, KIND["kiwi"])


def test_the_joker_goes_on_a_kind_collected_before_the_take_by_default():
    # Seat 1 takes two kiwi and the joker, with no kiwi before: "már korábban gyűjtött"
    # (RULES.md s1) rules the kiwi out, and with nothing else collected the joker must be
    # eaten. The older reading (placement "same_take") lets it go on the new kiwi pile.
    portion = [piece("kiwi"), piece("kiwi"), Slice(JOKER, 2)]
    places = {}
    for name, rules in (("earlier", RULES), ("same_take", SAME_TAKE)):
        game = game_of(PLACER, rules=rules)
        take(game, 1, portion)
        places[name] = game.joker_place()
        assert game.may_place_joker(1, KIND["kiwi"]) == (name == "same_take")
    assert places == {"earlier": (4, 1, -1), "same_take": (3, 1, KIND["kiwi"])}


def test_with_an_earlier_kind_the_joker_is_put_there_instead():
    # As above, but seat 1 collected a plum before and seat 0 holds three kiwi: the new
    # kiwi pile would tie them (worth more to this player than a second plum), yet by
    # default only the plum pile is open to the joker.
    places = {}
    for name, rules in (("earlier", RULES), ("same_take", SAME_TAKE)):
        game = game_of(PLACER, rules=rules)
        for _ in range(3):
            game.players[0].collect(piece("kiwi"))
        game.players[1].collect(piece("plum"))
        take(game, 1, [piece("kiwi"), Slice(JOKER, 2), piece("kiwi")])
        places[name] = game.joker_place()
    assert places == {"earlier": (3, 1, KIND["plum"]), "same_take": (3, 1, KIND["kiwi"])}


def test_a_real_slice_of_the_jokers_kind_may_be_swapped_for_it():
    game = game_of(PLACER)
    holder, taker = game.players[0], game.players[2]
    holder.collect(piece("kiwi"))
    holder.collected[KIND["kiwi"]].append(Slice(JOKER, 2))
    taker.collect(piece("plum"))
    take(game, 2, [piece("kiwi"), piece("cherry")])
    # The holder must accept the real kiwi in the joker's place: still 2 kiwi.
    assert holder.collected_count(KIND["kiwi"]) == 2
    assert all(p.kind == KIND["kiwi"] for p in holder.collected[KIND["kiwi"]])
    # The taker gave its kiwi and put the joker on a pile it collects.
    assert taker.collected_count(KIND["kiwi"]) == 0
    assert game.joker_place()[:2] == (3, 2)
    assert [m.action for m in game.log] == ["take", "swap", "joker"]


def test_after_a_swap_too_the_joker_goes_only_on_a_kind_collected_before_the_take():
    # Seat 2 takes a kiwi (the joker stands on seat 0's kiwi) and a cherry, its first:
    # it claims the swap whatever the joker is then worth, and by default may only eat it.
    claimer = Strategy("claimer", "greedy", "balanced", (("joker_eat_bias", -50.0),
                                                         ("swap_threshold", -1000.0)))
    places = {}
    for name, rules in (("earlier", RULES), ("same_take", SAME_TAKE)):
        game = game_of(claimer, rules=rules)
        game.players[0].collect(piece("kiwi"))
        game.players[0].collected[KIND["kiwi"]].append(Slice(JOKER, 2))
        take(game, 2, [piece("kiwi"), piece("cherry")])
        assert [m.action for m in game.log] == ["take", "swap", "joker"]
        places[name] = game.joker_place()
    assert places == {"earlier": (4, 2, -1), "same_take": (3, 2, KIND["cherry"])}


def test_no_swap_for_another_kind_for_the_holder_or_for_a_player_who_declines_it():
    game = game_of(PLACER)
    game.players[0].collect(piece("kiwi"))
    game.players[0].collected[KIND["kiwi"]].append(Slice(JOKER, 2))
    take(game, 1, [piece("cherry")])
    take(game, 0, [piece("kiwi")])
    assert game.joker_place() == (3, 0, KIND["kiwi"])
    declining = game_of(EATER)
    declining.players[0].collect(piece("kiwi"))
    declining.players[0].collected[KIND["kiwi"]].append(Slice(JOKER, 2))
    take(declining, 1, [piece("kiwi")])
    assert declining.joker_place() == (3, 0, KIND["kiwi"])
    assert "swap" not in [m.action for m in game.log + declining.log]


def test_declining_a_kind_eats_the_joker_standing_on_it():
    game = game_of(PLACER)
    game.players[1].collect(piece("kiwi"))
    game.players[1].collected[KIND["kiwi"]].append(Slice(JOKER, 2))
    game.decline_and_eat(0, 1, KIND["kiwi"])
    assert game.joker_place() == (4, 1, -1)
    assert game.score().cream[1] == 4


def test_the_first_waiter_of_each_round_sits_left_of_the_last_and_totals_sum():
    table = RULES.for_table(3, "3-rounds")
    result = play_game(table, [EATER] * 3, seed=5, game=2)
    cuts = [(m.round, m.cake, m.seat) for m in result.log if m.action == "cut"]
    assert len(cuts) == 15
    assert all(seat == (r + cake) % 3 for r, cake, seat in cuts)
    assert len(result.scores_by_round) == 15 and result.scores_by_round[-1] == tuple(
        result.total)
    by_round = [majority_sheet([[p.collected_count(k) for k in range(len(RULES.kinds))]
                                for p in players], RULES.majority_value)
                for players in result.round_players]
    assert [sum(r[s] for r in by_round) for s in range(3)] == result.majority
    assert "Round 3, cake 5" in format_replay(RULES, result, "header")


def test_the_compensation_waiter_of_a_later_round_is_that_rounds_waiter():
    table = RULES.for_table(4, "compensation-2-rounds")
    result = play_game(table, [EATER] * 4, seed=3, game=0)
    assert [(m.round, m.seat) for m in result.log if m.action == "bonus"] == [(0, 0), (1, 1)]


def test_a_score_file_takes_the_joker_and_several_rounds(tmp_path):
    one = {"players": [{"collected": {"kiwi": 2}, "joker": "kiwi"},
                       {"collected": {"kiwi": 3}, "eaten": {"plum": 1}}]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(one))
    # Kiwi 3 against 3: both score 8; the second also a dollop.
    assert score_file(RULES, path) == {"scores": [8, 9], "winners": [1]}
    eaten = {"rounds": [one, {"players": [{"joker": "eaten"}, {}]}]}
    path.write_text(json.dumps(eaten))
    assert score_file(RULES, path) == {"scores": [10, 9], "winners": [0]}


@pytest.mark.parametrize(("position", "message"), [
    ({"players": [{"joker": "kiwi"}, {}]}, "collects no kiwi"),
    ({"players": [{"joker": "eaten"}, {"joker": "eaten"}]}, "one joker"),
    ({"players": [{"joker": "lemon"}, {}]}, "allowed values"),
    ({"rounds": [{"players": [{}, {}]}, {"players": [{}, {}, {}]}]}, "first round has 2"),
    ({"rounds": [], "players": []}, "not both"),
])
def test_a_score_file_refuses_an_impossible_joker(tmp_path, position, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    with pytest.raises(Exception, match=message) as error:
        score_file(RULES, path)
    assert "bad.json" in str(error.value)


# Invariants, checked after every move of games hypothesis picks.

class Audited(Game):
    """The reference engine, checking the joker's invariants after every logged move."""

    # Before each take, the taking seat's pile counts by kind (``piles_before``).
    def take_portion(self, number, seat, cake, index, eat_mask):
        self.piles_before = {k: len(pile) for k, pile in self.players[seat].collected.items()}
        super().take_portion(number, seat, cake, index, eat_mask)

    def keep_set_aside_slice(self, number, waiter):
        self.piles_before = {k: len(pile) for k, pile in self.players[waiter].collected.items()}
        super().keep_set_aside_slice(number, waiter)

    def _log(self, number, seat, action, **details):
        super()._log(number, seat, action, **details)
        self.audit(number, self.log[-1])

    def audit(self, number, move):
        joker = self.rules.joker_kind
        places = [s for p in self.players for pile in p.collected.values() for s in pile]
        places += [s for p in self.players for s in p.eaten]
        places += [self.hand[1]] if self.hand else []
        cake = self.cake
        if cake.slices:
            untaken = range(len(cake.slices)) if not cake.portions else [
                i for k, portion in enumerate(cake.portions) if not cake.taken[k]
                for i in portion]
            places += [cake.slices[i] for i in untaken]
        places += [s for stack in self.deal.cakes[number + 1:] for s in stack]
        places += [s for s, left in zip(self.deal.set_aside, self.aside_left, strict=True)
                   if left]
        places += [s for m in self.log if m.round == self.round and m.action == "discard"
                   for s, _ in m.slices]
        # Slice conservation: every slice of the round's deal is in exactly one place.
        assert sorted(map(id, places)) == sorted(
            map(id, [s for stack in self.deal.cakes for s in stack] + self.deal.set_aside))
        # A joker is never in two places (and never on a pile of nothing real).
        assert sum(s.kind == joker for s in places) == (1 if self.rules.joker else 0)
        for player in self.players:
            for pile in player.collected.values():
                if any(s.kind == joker for s in pile):
                    assert any(s.kind != joker for s in pile)
        if move.action == "swap":
            # Only a taker who holds a real slice of the joker's kind, just taken, swaps.
            given = move.slices[0][0]
            took = self.log[-2]
            assert took.seat == move.seat and took.action in ("take", "bonus")
            assert given.kind == move.kind != joker and any(s is given for s, _ in took.slices)
            assert any(s is given for s in self.players[move.other].collected[move.kind])
            assert self.hand is not None and self.hand[0] == move.seat != move.other
        if move.action == "joker" and move.kind >= 0:
            # Placed on a kind collected before the take (by default; RULES.md s1), or
            # under the older reading on any kind the seat collects.
            assert self.rules.rules.joker_placement == "same_take" \
                or self.piles_before.get(move.kind, 0) > 0


STRATEGIES = [GAME.named_strategy("random"), GAME.named_strategy("greedy-balanced"),
              PLACER, EATER]
variants = st.sampled_from([v for v in VARIANTS if v != "base"])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), variants, st.lists(st.sampled_from(STRATEGIES), min_size=5,
                                             max_size=5), st.integers(0, 2**32),
       st.sampled_from([RULES, SAME_TAKE]))
def test_every_move_keeps_slices_and_the_joker_in_one_place(players, variant, chosen, seed,
                                                            rules):
    assume(GAME.has_variant(RULES, players, variant))
    table = rules.for_table(players, variant)
    result = play_seated(Audited, deal_game, table, chosen[:players], seed, 0, False)
    # Score = majority + cream with the joker counted once: from the end positions.
    assert result.total == [m + c for m, c in zip(result.majority, result.cream, strict=True)]
    position = end_position(RULES, result)
    rounds = position.get("rounds", [position])
    for players_then, one_round in zip(result.round_players, rounds, strict=True):
        holders = [e for e in one_round["players"] if "joker" in e]
        jokers = sum(s.kind == JOKER for p in players_then for pile in p.collected.values()
                     for s in pile) + sum(s.kind == JOKER for p in players_then for s in p.eaten)
        assert len(holders) == jokers <= 1
