"""The daily puzzle: a pure function of (date, level), solved, agreeing with reference.py."""

import dataclasses
import datetime

import numpy as np
import pytest

from cakesim.games.speedtorte import daily, solver
from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.reference import Game, Move
from cakesim.games.speedtorte.rules import load_rules

DATE = datetime.date(2026, 12, 1)


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def test_seed_is_a_pure_function_of_date_and_level():
    assert daily.daily_seed(DATE, "Konditor") == daily.daily_seed(DATE, "Konditor")
    assert daily.daily_seed(DATE, "Konditor") != daily.daily_seed(DATE, "Meister")
    assert daily.daily_seed(DATE, "Konditor") != daily.daily_seed(
        DATE + datetime.timedelta(days=1), "Konditor")
    assert 0 <= daily.daily_seed(DATE, "Konditor") < 2 ** 63


def test_same_date_and_level_give_the_same_deal(rules):
    first = daily.daily_puzzle(rules, DATE, "Konditor")
    assert daily.daily_puzzle(rules, DATE, "konditor") == first  # level in any case
    other = daily.daily_puzzle(rules, DATE + datetime.timedelta(days=1), "Konditor")
    assert (other.tops, other.hand, other.supply) != (first.tops, first.hand, first.supply)
    table = daily.daily_table(rules, "Konditor")
    assert table.players == 1 and table.mode == "signals" and not table.special_orders
    assert len(first.cards) == first.to_fulfil == table.cards_to_fulfil
    assert len(first.tops) + len(first.hand) + len(first.supply) == len(table.arrays["box"])


def replay_through_reference(table, seed: int, solution: solver.Solution) -> None:
    """Play the solver's line with reference.Game step by step; same cards, same score."""
    a = table.arrays
    game = Game(table, [], seed, daily.DAILY_GAME)
    game.lay_out()
    game.open_order_cards()
    for step in solution.line:
        hand = [int(t) for t in game.hands[0, :game.hand_counts[0]]]
        slot = hand.index(step.piece)
        assert (slot, step.plate) in game.legal_placements(0)
        piece = game.place(0, slot, step.plate)
        move = Move(game.moves, 0, piece, step.plate, (0, 0, 0), 0, game.draw(0))
        assert move.drew == step.drew
        game.check_order_cards(move)
        assert tuple(f.card for f in move.fulfilled) == step.fulfilled
        if game.done >= game.to_fulfil:
            break
    won = game.done >= game.to_fulfil
    left = len(game.pieces) - game.drawn
    score = game.points + (a["win_bonus"] + a["record_hunt_piece"] * left if won else 0)
    assert len(game.log) == 0 and game.moves == len(solution.line)
    assert (won, score, game.done, left) == (solution.won, solution.score, solution.fulfilled,
                                             solution.supply_left)
    if not won:
        stuck = not game.legal_placements(0)
        assert game.hand_counts[0] == 0 or stuck
        assert stuck == solution.stuck


@pytest.mark.parametrize("level", ["Lehrling", "Konditor"])
def test_the_solvers_line_replays_through_the_reference_engine(rules, level):
    solution = daily.solve_daily(rules, DATE, level, budget=3_000)
    table = daily.daily_table(rules, level)
    replay_through_reference(table, daily.daily_seed(DATE, level), solution)
    text = daily.format_daily(rules, DATE, level, solution)
    assert DATE.isoformat() in text and str(daily.daily_seed(DATE, level)) in text
    assert f"{len(solution.line):>2}. " in text


def test_the_node_budget_stops_the_search_with_a_clear_message(rules):
    solution = daily.solve_daily(rules, DATE, "Meister", budget=50)
    assert not solution.proven and solution.budget == 50
    text = daily.format_daily(rules, DATE, "Meister", solution)
    assert "Search stopped after" in text and "best found so far, not proven" in text


def _piece(rules, flavour: str, candles: int) -> int:
    return rules.flavours.index(flavour) * 7 + candles - 1


def test_a_first_placement_that_fulfils_every_card_is_the_best_line(rules):
    table = daily.daily_table(rules, "Lehrling")
    base = daily.daily_puzzle(rules, DATE, "Lehrling")
    two_strawberry = rules.catalogue.index("F01")  # "Exactly two plates strawberry."
    p = dataclasses.replace(
        base,
        tops=(_piece(rules, "strawberry", 1), _piece(rules, "apricot", 2),
              _piece(rules, "apricot", 3), _piece(rules, "apricot", 4)),
        hand=(_piece(rules, "strawberry", 2), _piece(rules, "blueberry", 5),
              _piece(rules, "blueberry", 6), _piece(rules, "blueberry", 7)),
        supply=base.supply[:10], display=(two_strawberry, -1, -1, -1), queue=(),
        under_at_setup=(), to_fulfil=1)
    s = solver.solve_puzzle(table, p)
    assert s.proven and s.won and len(s.line) == 1
    assert s.line[0] == solver.Step(_piece(rules, "strawberry", 2), 1, base.supply[0],
                                    (two_strawberry,))
    assert s.score == 10 + table.arrays["win_bonus"] + 9 * table.arrays["record_hunt_piece"]


def brute_force(table, p: solver.Puzzle) -> int:
    """The best score over every line, by plain recursion with card_met (no memo, no bound)."""
    a = table.arrays
    flavour, candles, sacher = a["type_flavour"], a["type_candles"], a["sacher"]

    def met(card, tops):
        t = np.array(tops)
        return card_met.py_func(a["program"], card, flavour[t], candles[t])

    def fits(piece, top):
        return (piece == sacher or top == sacher or flavour[piece] == flavour[top]
                or candles[piece] == candles[top])

    def best(tops, hand, drawn, display, queue, done, points):
        options = [(i, q) for i in range(len(hand)) for q in range(4) if fits(hand[i], tops[q])]
        if not options:
            return points
        value = points
        for i, q in options:
            t = list(tops)
            t[q] = hand[i]
            h = hand[:i] + hand[i + 1:]
            d, qu, n, pts = list(display), list(queue), done, points
            if drawn < len(p.supply):
                h = [*h, p.supply[drawn]]
            changed = True
            while changed:
                changed = False
                for slot, card in enumerate(d):
                    if card >= 0 and met(card, t):
                        n, pts = n + 1, pts + p.card_points[card]
                        d[slot] = qu.pop(0) if qu else -1
                        changed = True
            if n >= p.to_fulfil:
                left = len(p.supply) - min(len(p.supply), drawn + 1)
                value = max(value, pts + a["win_bonus"] + a["record_hunt_piece"] * left)
            elif h:
                value = max(value, best(t, h, drawn + 1, d, qu, n, pts))
            else:
                value = max(value, pts)
        return value

    return best(list(p.tops), list(p.hand), 0, list(p.display), list(p.queue), 0, 0)


@pytest.mark.parametrize("day", range(8))
@pytest.mark.parametrize("supply", [1, 2])
def test_the_solver_agrees_with_an_exhaustive_search_on_tiny_deals(rules, day, supply):
    # Tiny deals from the daily setups: one or two supply pieces, two or three cards
    # (one or two displayed, one in the deck); some can be won, some cannot.
    table = daily.daily_table(rules, "Lehrling")
    base = daily.daily_puzzle(rules, DATE + datetime.timedelta(days=day), "Lehrling")
    cards = base.cards
    shown = cards[:supply]
    p = dataclasses.replace(base, supply=base.supply[:supply],
                            display=(*shown, *[-1] * (4 - supply)), queue=(cards[supply],),
                            under_at_setup=(), to_fulfil=supply + 1)
    s = solver.solve_puzzle(table, p)
    assert s.proven
    assert s.score == brute_force(table, p)
