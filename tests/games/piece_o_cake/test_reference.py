"""The seed's worked examples and the scoring rules, on the reference engine."""

import numpy as np

from cakesim.games.piece_o_cake.reference import Cake, Deal, Game, Slice, score_sheet
from cakesim.games.piece_o_cake.rules import load_rules
from cakesim.games.piece_o_cake.strategies import GREEDY_PLAY

RULES = load_rules()
KIND = {name: i for i, name in enumerate(RULES.kinds)}


def piece(name: str) -> Slice:
    return Slice(KIND[name], {"plum": 1, "apricot": 1, "cherry": 1, "chocolate": 3}.get(name, 2))


def four_player_game() -> Game:
    deal = Deal([[piece("plum")] * 11 for _ in range(5)], [piece("kiwi"), piece("kiwi")])
    return Game(RULES.for_table(4, "base"), deal, [GREEDY_PLAY] * 4,
                np.zeros(2, dtype=np.uint64))


def test_ottilia_eats_strawberry_and_chocolate_and_collects_gooseberry():
    # Seed example: Mathilda serves the first cake in 4 portions; Ottilia, on her left,
    # takes the 3-slice portion, eats strawberry and chocolate, collects gooseberry.
    game = four_player_game()
    cake = Cake([piece("strawberry"), piece("chocolate"), piece("gooseberry")]
                + [piece("plum")] * 8)
    cake.portions = [[0, 1, 2], [3, 4], [5, 6, 7], [8, 9, 10]]
    cake.taken = [False] * 4
    ottilia = game.players[1]
    game.take_portion(0, 1, cake, 0, eat_mask=0b011)
    assert [p.kind for p in ottilia.eaten] == [KIND["strawberry"], KIND["chocolate"]]
    assert ottilia.collected_count(KIND["gooseberry"]) == 1
    result = game.score()
    # Sole gooseberry collector: its majority value 9; plus 2 + 3 cream.
    assert result.majority[1] == 9 and result.cream[1] == 5 and result.total[1] == 14


def test_declining_eats_every_collected_slice_of_one_kind():
    game = four_player_game()
    player = game.players[2]
    for _ in range(3):
        player.collect(piece("chocolate"))
    player.collect(piece("kiwi"))
    game.decline_and_eat(0, 2, KIND["chocolate"])
    assert player.collected_count(KIND["chocolate"]) == 0
    assert sum(p.cream for p in player.eaten) == 9
    assert player.collected_count(KIND["kiwi"]) == 1


def test_tied_majorities_score_in_full_or_not_at_all():
    collected = [[2, 0], [2, 1], [1, 0]]
    majority, total, win = score_sheet(collected, [0, 0, 5], (3, 4), ties_score=True)
    assert majority == [3, 7, 0] and total == [3, 7, 5] and win == [0, 840, 0]
    majority, total, _ = score_sheet(collected, [0, 0, 5], (3, 4), ties_score=False)
    assert majority == [0, 4, 0]


def test_zero_slices_never_qualify_and_shared_wins_split():
    majority, _total, win = score_sheet([[0], [0]], [4, 4], (11,), ties_score=True)
    assert majority == [0, 0] and win == [420, 420]
