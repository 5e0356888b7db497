"""High card for a reader: one function per rule step, the kernel's steps in Python."""

from dataclasses import dataclass

import numpy as np

from cakesim.kits.seating import seat_of_deal, split_win_units
from tests.conformance.high_card.kernel import WIN_UNITS, deal
from tests.conformance.high_card.rules import RuleSet


@dataclass(frozen=True)
class Strategy:
    """Throw a card away when it is below ``threshold`` (0: always keep)."""

    name: str
    threshold: int = 0

    def vectors(self) -> dict[str, np.ndarray]:
        """What the kernel reads of this strategy."""
        return {"threshold": np.array([self.threshold])}

    def describe(self) -> str:
        """The strategy in words."""
        return f"throws away cards below {self.threshold}" if self.threshold else "keeps"


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
    return Result(hands, score(hands), next_card - players, log)


def decide(strategy: Strategy, card: int, cards: list[int], next_card: int) -> tuple[int, int]:
    """Keep ``card``, or throw it away and take the deck's next card."""
    if card < strategy.threshold:
        return cards[next_card], next_card + 1
    return card, next_card


def score(hands: list[int]) -> list[int]:
    """The highest card wins; tied winners split the win units."""
    return split_win_units(hands, WIN_UNITS)
