"""High card for a reader: one function per rule step, the kernel's steps in Python."""

from dataclasses import dataclass

import numpy as np

from cakesim.kits.seating import seat_of_deal, split_win_units
from cakesim.kits.strategies import StrategySpec
from tests.conformance.high_card.kernel import WIN_UNITS, deal
from tests.conformance.high_card.rules import RuleSet

SPEC = StrategySpec(codes={}, parameters={
    "threshold": (0.0, (0.0, 101.0), "throw away a card below this (0: always keep)")},
    whole=("threshold",))
"""A strategy is one weight, read from ``[strategies.NAME]`` tables as ``threshold = 6``."""
THRESHOLD = SPEC.index("threshold")
Strategy = SPEC.record("Strategy", __name__)


@dataclass
class Result:
    """The cards kept, the win units and the log of one game."""

    total: list[int]
    win_units: list[int]
    redraws: int
    log: list[str]


def play_game(rules: RuleSet, strategies: list[Strategy], seed: int, game: int,
              duplicate: bool) -> Result:
    """Deal, let every seat keep or throw away in turn, then score."""
    players = len(strategies)
    deal_index, rotation = seat_of_deal(game, players, duplicate)
    order = list(deal.py_func(np.uint64(seed), deal_index, rules.deck))
    cards = [rules.values[c] for c in order]
    hands, log, next_card = [], [], players
    for seat in range(players):
        strategy = strategies[(seat - rotation) % players]
        drawn = next_card
        card, next_card = decide(strategy, cards[seat], cards, next_card)
        log.append(f"seat {seat + 1} keeps {card}" if next_card == drawn else
                   f"seat {seat + 1} throws away {cards[seat]} and takes {card}")
        hands.append(card)
    return Result(hands, score(hands, rules.first_bonus), next_card - players, log)


def decide(strategy: Strategy, card: int, cards: list[int], next_card: int) -> tuple[int, int]:
    """Keep ``card``, or throw it away and take the deck's next card."""
    if card < strategy.params[THRESHOLD]:
        return cards[next_card], next_card + 1
    return card, next_card


def score(hands: list[int], first_bonus: int = 0) -> list[int]:
    """The highest card wins, the first seat's counted with ``first_bonus``; tied winners
    split the win units."""
    return split_win_units([hands[0] + first_bonus, *hands[1:]], WIN_UNITS)
