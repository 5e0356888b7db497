"""The reference engine: Piece o' Cake's rules as plain Python, one function per rule step.

Written to be read beside RULES.md section 1; speed is the kernel's job. It plays one
game from a deal and one strategy per seat, checks that every decision a strategy makes
is legal, and keeps a move log a person can read and the score after each cake. Seat 0 is
the first waiter; seats are numbered in play order (to the waiter's left).
"""

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from cakesim.engine.jit import plain_python
from cakesim.games.piece_o_cake import kernel, search, strategies
from cakesim.games.piece_o_cake.kernel import (
    GameState,
    Scratch,
    Strategies,
    View,
    deal_order,
    rule_data,
)
from cakesim.games.piece_o_cake.rules import TableRules
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    PASS,
    TAKE,
    Strategy,
    chance_table_shape,
    strategy_arrays,
)
from cakesim.games.slicing.circle import cut_table, portions_of_cut
from cakesim.games.slicing.tabletop import majority_sheet, play_seated, split_win_units

# The reference is the pure-Python engine the kernel is checked and timed against, so it
# runs the strategies' decision functions as plain Python (the kernel runs them compiled):
# parity then also shows that compiled and plain arithmetic take the same branches.
choose_action = plain_python(strategies.choose_action)
choose_bonus = plain_python(strategies.choose_bonus)
choose_cut = plain_python(strategies.choose_cut)
fill_chances = plain_python(strategies.fill_chances)
new_scratch = plain_python(kernel.new_scratch)
# The search player's decisions stay compiled: each plays hundreds of games out, which in
# plain Python would take minutes per move. The reference calls it at the same points,
# shows it the same table and carries out its moves with its own rule steps, so parity
# checks everything around the search (``search.py``): what it is shown, when it is asked,
# the moves it makes and the draws it takes from the game's stream.
search_decision = search.search_decision


@cache
def chance_table(params: tuple[float, ...], ties_score: bool, most: int) -> np.ndarray:
    """A strategy's majority chances (``strategies.fill_chances``), filled once per process."""
    chances = np.zeros(chance_table_shape(most))
    fill_chances(np.array(params), ties_score, chances)
    return chances


@dataclass(frozen=True)
class Slice:
    """One slice of cake: its kind (an index into the rule set's kinds) and its cream."""

    kind: int
    cream: int


@dataclass
class Deal:
    """What chance decides at setup: five stacks of slices and the set-aside slices."""

    cakes: list[list[Slice]]
    set_aside: list[Slice]
    order: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    """The same slices as box numbers in stack order (``dealt_order``): a search player
    deals the unseen ones afresh from it, as the kernel's search does."""


@dataclass
class Player:
    """A seat's slices: collected (face up, by kind) and eaten (face down)."""

    seat: int
    collected: dict[int, list[Slice]] = field(default_factory=dict)
    eaten: list[Slice] = field(default_factory=list)

    def collected_count(self, kind: int) -> int:
        """Face-up slices of ``kind``."""
        return len(self.collected.get(kind, []))

    def collect(self, piece: Slice) -> None:
        """Lay ``piece`` face up on its kind's pile."""
        self.collected.setdefault(piece.kind, []).append(piece)

    def eat(self, piece: Slice) -> None:
        """Lay ``piece`` face down: it scores its cream at the end."""
        self.eaten.append(piece)


@dataclass(frozen=True)
class Move:
    """One line of the move log."""

    cake: int
    seat: int
    action: str
    """``cut``, ``take``, ``decline``, ``pass``, ``discard`` or ``bonus``."""
    slices: tuple[tuple[Slice, bool], ...] = ()
    """The slices involved, each with whether it was eaten."""
    portions: tuple[tuple[Slice, ...], ...] = ()
    """For a cut: the portions, in the order the log numbers them."""
    kind: int = -1
    """For a decline: the kind eaten."""
    portion: int = -1
    """For a take: which portion of the cut (0-based)."""


@dataclass
class Result:
    """A finished game: per-seat points, split wins, the move log and the running score."""

    total: list[int]
    majority: list[int]
    cream: list[int]
    win_units: list[int]
    log: list[Move]
    players: list[Player]
    scores_by_round: tuple[tuple[int, ...], ...] = ()
    """One row per cake: every seat's total had the game been scored right after that cake
    (``Game.record_scores``); the last row is ``total``."""


@dataclass
class Cake:
    """The cake on the table: its circle of slices and, once cut, its portions."""

    slices: list[Slice]
    portions: list[list[int]] = field(default_factory=list)
    taken: list[bool] = field(default_factory=list)


class Game:
    """One game in progress (RULES.md section 1)."""

    def __init__(self, rules: TableRules, deal: Deal, strategies: list[Strategy],
                 stream: np.ndarray):
        self.rules = rules
        self.arrays = rules.arrays
        self.deal = deal
        self.strategies = strategies
        self.codes, self.params = strategy_arrays(strategies)
        self.stream = stream
        self.players = [Player(seat) for seat in range(rules.players)]
        self.aside_left = [True] * len(deal.set_aside)
        self.unseen = np.bincount(self.arrays["slice_kind"],
                                  minlength=len(rules.rules.kinds)).astype(np.int16)
        most = int(self.unseen.max())
        self.chances = np.stack([chance_table(tuple(row), self.arrays["ties_score"], most)
                                 for row in self.params])
        self.log: list[Move] = []
        self.scores_by_round: list[tuple[int, ...]] = []
        self.cut_masks = cut_table(rules.rules.slices_per_cake, rules.portion_limit)
        # The reference works out every arc's value afresh (no ``reuse_gains``), so that
        # parity also checks the kernel's reuse.
        self.rule_data = rule_data(self.arrays, self.cut_masks, reuse_gains=False)
        # The set-aside slices as every ``View`` shows them (only which are left changes).
        self.aside_kind = np.array([p.kind for p in deal.set_aside], dtype=np.uint8)
        self.aside_cream = np.array([p.cream for p in deal.set_aside], dtype=np.int8)
        if any(s.chooser == "search" or s.cutter == "search" for s in strategies):
            self.search_space = kernel.new_search_space(self.rule_data, self.params,
                                                        self.chances)

    # The rule steps, in the order of play.

    def play(self) -> Result:
        """Serve every cake, then score (s1 "Setup" to "Scoring")."""
        for number, stack in enumerate(self.deal.cakes):
            waiter = number % self.rules.players
            cake = self.lay_out_cake(stack)
            self.cut_cake(number, waiter, cake)
            for turn in range(1, self.rules.players + 1):
                self.choose(number, (waiter + turn) % self.rules.players, cake)
            self.discard_leftovers(number, waiter, cake)
            if number + 1 in self.rules.bonus_after_cakes:
                self.keep_set_aside_slice(number, waiter)
            self.record_scores()
        return self.score()

    def lay_out_cake(self, stack: list[Slice]) -> Cake:
        """The waiter lays the stack out as a circle, in stack order: all see it."""
        for piece in stack:
            self.unseen[piece.kind] -= 1
        return Cake(list(stack))

    def cut_cake(self, number: int, waiter: int, cake: Cake) -> None:
        """The waiter cuts at most P (2 players: 4) contiguous portions of >= 1 slice."""
        if self.strategies[waiter].cutter == "search":
            _, _, mask = self._search(number, 0, cake)
        else:
            mask = choose_cut(self._strategies(), waiter, self._view(cake), self.rule_data,
                              self._scratch())
        n = len(cake.slices)
        portions = portions_of_cut(int(mask), n)
        assert 1 <= len(portions) <= self.rules.portion_limit, "illegal cut"
        assert sorted(p for portion in portions for p in portion) == list(range(n))
        cake.portions = portions
        cake.taken = [False] * len(portions)
        self.log.append(Move(number, waiter, "cut", portions=tuple(
            tuple(cake.slices[p] for p in portion) for portion in portions)))

    def choose(self, number: int, seat: int, cake: Cake) -> None:
        """Take a portion (eat or collect each slice), or decline and maybe eat a kind."""
        if self.strategies[seat].chooser == "search":
            turn = (seat - number) % self.rules.players or self.rules.players
            action, index, eat_mask = self._search(number, turn, cake)
        else:
            action, index, eat_mask = choose_action(
                self._strategies(), seat, self._view(cake), len(cake.portions),
                self.rule_data, self._scratch())
        if action == TAKE:
            self.take_portion(number, seat, cake, index, eat_mask)
        elif action == DECLINE_EAT:
            self.decline_and_eat(number, seat, index)
        else:
            assert action == PASS
            self.log.append(Move(number, seat, "pass"))

    def take_portion(self, number: int, seat: int, cake: Cake, index: int,
                     eat_mask: int) -> None:
        """The chooser takes a remaining portion and decides, slice by slice, eat or collect."""
        assert 0 <= index < len(cake.portions) and not cake.taken[index], "portion not free"
        cake.taken[index] = True
        decided = []
        for j, position in enumerate(cake.portions[index]):
            piece = cake.slices[position]
            eaten = bool(eat_mask & (1 << j))
            if eaten:
                self.players[seat].eat(piece)
            else:
                self.players[seat].collect(piece)
            decided.append((piece, eaten))
        self.log.append(Move(number, seat, "take", slices=tuple(decided), portion=index))

    def decline_and_eat(self, number: int, seat: int, kind: int) -> None:
        """Declining, the chooser eats all collected slices of one kind (they leave the contest)."""
        player = self.players[seat]
        eaten = player.collected.pop(kind, [])
        assert eaten, "declined to eat a kind the player has not collected"
        player.eaten.extend(eaten)
        self.log.append(Move(number, seat, "decline", slices=tuple((p, True) for p in eaten),
                             kind=kind))

    def discard_leftovers(self, number: int, waiter: int, cake: Cake) -> None:
        """Portions left after the waiter has chosen leave the game."""
        left = tuple((cake.slices[p], False) for i, portion in enumerate(cake.portions)
                     if not cake.taken[i] for p in portion)
        if left:
            self.log.append(Move(number, waiter, "discard", slices=left))

    def keep_set_aside_slice(self, number: int, waiter: int) -> None:
        """Compensation variant: the waiter keeps one set-aside slice, eats or collects it."""
        aside = self.deal.set_aside
        # The cake is served: nothing is left on the table.
        if self.strategies[waiter].chooser == "search":
            _, index, eat = self._search(number, self.rules.players + 1, Cake([]))
        else:
            index, eat = choose_bonus(self._strategies(), waiter, self._view(Cake([])),
                                      self.rule_data)
        assert self.aside_left[index], "that set-aside slice is gone"
        self.aside_left[index] = False
        piece = aside[index]
        self.unseen[piece.kind] -= 1
        if eat:
            self.players[waiter].eat(piece)
        else:
            self.players[waiter].collect(piece)
        self.log.append(Move(number, waiter, "bonus", slices=((piece, bool(eat)),)))

    def score(self) -> Result:
        """Majorities (ties per the tie rule), plus the cream of every eaten slice."""
        counts = [[p.collected_count(k) for k in range(len(self.rules.rules.kinds))]
                  for p in self.players]
        cream = [sum(piece.cream for piece in p.eaten) for p in self.players]
        majority, total, win_units = score_sheet(
            counts, cream, self.rules.rules.majority_value, self.arrays["ties_score"])
        return Result(total, majority, cream, win_units, self.log, self.players,
                      tuple(self.scores_by_round))

    def record_scores(self) -> None:
        """Every seat's total if the game were scored now (s1 "Scoring"), after each cake.

        ``score`` only reads the piles, so it serves mid-game as it does at the end: the
        majorities as the face-up piles stand, plus the cream eaten so far. A set-aside
        slice kept after a cake (compensation variant) counts in that cake's row. Nothing
        is drawn or decided here, so recording leaves every move and result as it was.
        """
        self.scores_by_round.append(tuple(int(t) for t in self.score().total))

    # What a strategy is shown: the table as arrays, in the kernel's layout.

    def still_open(self, cake: Cake) -> np.ndarray:
        """Slices of each kind not yet decided: unseen, or in portions nobody has taken."""
        still_open = self.unseen.copy()
        for position, piece in enumerate(cake.slices):
            if not any(position in portion and cake.taken[i]
                       for i, portion in enumerate(cake.portions)):
                still_open[piece.kind] += 1
        return still_open

    def _strategies(self) -> Strategies:
        return Strategies(self.codes, self.params, self.chances)

    def _view(self, cake: Cake) -> View:
        """The table as every player sees it (``kernel.View``), with ``cake`` on it."""
        kinds, creams = self._cake_arrays(cake)
        starts, lengths = self._portion_arrays(cake)
        collected, collected_cream = self._pile_arrays()
        return View(
            stream=self.stream, collected=collected, collected_cream=collected_cream,
            unseen=self.unseen, still_open=self.still_open(cake), cake_kind=kinds,
            cake_cream=creams, portion_start=starts, portion_len=lengths,
            portion_taken=np.array(cake.taken, dtype=np.bool_),
            aside_kind=self.aside_kind, aside_cream=self.aside_cream,
            aside_left=np.array(self.aside_left, dtype=np.bool_))

    def _cake_arrays(self, cake: Cake) -> tuple[np.ndarray, np.ndarray]:
        return (np.array([p.kind for p in cake.slices], dtype=np.uint8),
                np.array([p.cream for p in cake.slices], dtype=np.int8))

    def _portion_arrays(self, cake: Cake) -> tuple[np.ndarray, np.ndarray]:
        n = len(cake.slices)
        starts = np.zeros(n, dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        for i, portion in enumerate(cake.portions):
            starts[i], lengths[i] = portion[0], len(portion)
        return starts, lengths

    def _pile_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        kinds = len(self.rules.rules.kinds)
        counts = np.zeros((self.rules.players, kinds), dtype=np.int16)
        cream = np.zeros((self.rules.players, kinds), dtype=np.int16)
        for player in self.players:
            for kind, pile in player.collected.items():
                counts[player.seat, kind] = len(pile)
                cream[player.seat, kind] = sum(p.cream for p in pile)
        return counts, cream

    def _search(self, number: int, turn: int, cake: Cake) -> tuple[int, int, int]:
        """The search player's move (``search.search_decision``) at cake ``number``, turn
        ``turn`` (0 the cut, P + 1 the set-aside slice), in the kernel's ``GameState``."""
        view = self._view(cake)
        taken = np.zeros(self.rules.rules.slices_per_cake, dtype=np.bool_)
        taken[:len(cake.taken)] = cake.taken
        eaten = [[sum(p.cream for p in player.eaten), len(player.eaten)]
                 for player in self.players]
        eaten_cream, eaten_count = np.array(eaten, dtype=np.int16).T.copy()
        state = GameState(
            seen=view._replace(portion_taken=taken), order=self.deal.order,
            deal_stream=np.zeros(2, dtype=np.uint64), eaten_cream=eaten_cream,
            eaten_count=eaten_count,
            clock=np.array([number, turn, len(cake.portions)], dtype=np.int64),
            tally=np.zeros(3, dtype=np.int16))
        move = search_decision(self.rule_data, self._strategies(), state,
                               kernel.new_scratch(self.rule_data, self.rules.players),
                               self.search_space)
        return tuple(int(x) for x in move)

    def _scratch(self) -> Scratch:
        # Fresh for every decision, so that no decision can lean on what another left.
        return new_scratch(self.rule_data, self.rules.players)


def score_sheet(collected: list[list[int]], cream: list[int], majority_value,
                ties_score: bool) -> tuple[list[int], list[int], list[int]]:
    """Majority points, totals and win units from collected counts and eaten cream."""
    majority = majority_sheet(collected, majority_value, ties_score)
    total = [majority[s] + cream[s] for s in range(len(collected))]
    return majority, total, split_win_units(total)


def dealt_order(rules: TableRules, seed: int, deal: int) -> np.ndarray:
    """Deal ``deal`` of ``seed`` as slice numbers in stack order (the kernel's function)."""
    order = np.empty(len(rules.rules.slice_kind), dtype=np.int16)
    deal_order(seed, deal, np.zeros(2, dtype=np.uint64), order)
    return order


def deal_game(rules: TableRules, seed: int, deal: int) -> Deal:
    """The deal ``deal`` of ``seed``: the same function of (seed, deal) the kernel uses."""
    r = rules.rules
    n = r.slices_per_cake
    order = dealt_order(rules, seed, deal)
    pieces = [Slice(r.slice_kind[s], r.slice_cream[s]) for s in order]
    return Deal([pieces[c * n:(c + 1) * n] for c in range(r.cakes)], pieces[r.cakes * n:],
                order)


def play_game(rules: TableRules, strategies: list[Strategy], seed: int, game: int,
              duplicate: bool = False) -> Result:
    """Game ``game`` of ``seed``, exactly as the kernel plays it; ``strategies`` by player."""
    return play_seated(Game, deal_game, rules, strategies, seed, game, duplicate)
