"""The reference engine: La Part du Chef's rules as plain Python, one method per rule step.

Written to be read beside RULES.md section 2; speed is the kernel's job. It plays one
game from a deal and one strategy per seat, checks that every decision a strategy makes
is legal, and keeps a move log a person can read and the score after each pizza. Seat 0
is the first chef (and holds La Marianne when it is in play); seats are numbered in play
order (to the chef's left).
"""

import itertools
from dataclasses import dataclass, field

import numpy as np

from cakesim.engine.jit import plain_python
from cakesim.games.part_du_chef import kernel, lookahead, strategies
from cakesim.games.part_du_chef.kernel import (
    State,
    Strategies,
    View,
    deal_pizzas,
    new_scratch,
    table_rules,
)
from cakesim.games.part_du_chef.rules import RuleSet, TableRules
from cakesim.games.part_du_chef.steps import MARIANNE_HOLDER
from cakesim.games.part_du_chef.strategies import Strategy
from cakesim.games.slicing.circle import portions_of_cut
from cakesim.games.slicing.tabletop import WIN_UNITS, majority_sheet
from cakesim.kits import search as driver
from cakesim.kits.seating import play_seated, split_win_units

# The reference is the pure-Python engine the kernel is checked and timed against, so it
# runs the strategies' decision functions as plain Python (the kernel runs them compiled).
choose_cut = plain_python(strategies.choose_cut)
choose_portion = plain_python(strategies.choose_portion)
choose_victim = plain_python(strategies.choose_victim)
choose_marianne = plain_python(strategies.choose_marianne)
# The search player's decisions stay compiled: each plays hundreds of games out, which in
# plain Python would take minutes per move. The reference calls it at the same points,
# shows it the same table and carries out its moves with its own rule steps, so parity
# checks everything around the search (``search.py``): what it is shown, when it is asked,
# the moves it makes and the draws it takes from the game's stream.
search_decision = driver.search_decision
# The lookahead players, likewise, serve the pizza hundreds of times per cut: compiled.
lookahead_cut = lookahead.lookahead_cut
lookahead_choice = lookahead.lookahead_choice


@dataclass(frozen=True)
class Slice:
    """One slice: its category (kind, pepper or burnt), its olives, whether it is a finisher."""

    category: int
    olives: int = 0
    finisher: bool = False
    box: int = field(default=-1, compare=False)
    """The slice's number in the box (component-list order), -1 for a made-up slice: a
    search player deals the unseen slices afresh by box number, as the kernel's search
    does (equal slices are interchangeable, so it takes no part in comparisons)."""


@dataclass
class Player:
    """A seat's slices: kept face up (counts by category), received points, eaten slices."""

    seat: int
    kept: list[int]
    received: int = 0
    """Slices received from portions that earn the receipt point (burnt excluded)."""
    eaten: list[Slice] = field(default_factory=list)


@dataclass(frozen=True)
class Move:
    """One line of the move log."""

    pizza: int
    seat: int
    action: str
    """``cut``, ``take``, ``steal``, ``empty-steal`` or ``marianne``."""
    portions: tuple[tuple[Slice, ...], ...] = ()
    """For a cut: the portions, in the order the log numbers them."""
    portion: int = -1
    """For a take: which portion of the cut (0-based)."""
    slices: tuple[tuple[Slice, bool], ...] = ()
    """For a take: each received slice with whether it was eaten."""
    victim: int = -1
    """For a steal: the robbed seat."""
    category: int = -1
    """For a steal: the kind stolen."""
    swaps: tuple[tuple[int, int, int], ...] = ()
    """For La Marianne: ``(given category, partner seat, taken category)`` twice."""


@dataclass(frozen=True)
class ScoreSheet:
    """RULES.md s2 "Scoring", seat by seat."""

    peppers: list[tuple[int, ...]]
    """The kind each of a seat's peppers is assigned to."""
    counts: list[list[int]]
    """Kept slices per kind with the peppers assigned."""
    majority: list[int]
    olives: list[int]
    slices: list[int]
    diversity: list[int]
    burnt: list[int]
    """Kept burnt slices (each costs the penalty)."""
    total: list[int]
    win_units: list[int]


@dataclass
class Result:
    """A finished game: the score sheet, the move log, the players' piles, the running score."""

    sheet: ScoreSheet
    log: list[Move]
    players: list[Player]
    scores_by_round: tuple[tuple[int, ...], ...] = ()
    """One row per pizza: every seat's total had the game been scored right after that
    pizza (``Game.record_scores``); the last row is ``sheet.total``."""


class Game:
    """One game in progress (RULES.md section 2)."""

    def __init__(self, rules: TableRules, pizzas: list[list[Slice]],
                 strategies: list[Strategy], stream: np.ndarray):
        self.rules = rules
        self.r = rules.rules
        # The table's constants as the decision functions read them (``kernel.Rules``).
        self.constants = table_rules(rules)
        self.pizzas = pizzas
        codes, params = Strategy.arrays(strategies)
        # The strategies come by seat: their seat rows are the same arrays.
        self.strategies = Strategies(codes, params, codes, params)
        # How each seat chooses and cuts: the search and lookahead run compiled.
        self.decides_by = [(s.chooser, s.cutter) for s in strategies]
        if any(s.needs_search_space for s in strategies):
            self.search_space = kernel.new_search_space(self.constants, self.strategies)
        self.stream = stream
        self.kinds = len(self.r.kinds)
        categories = self.kinds + 2
        self.players = [Player(seat, [0] * categories) for seat in range(rules.players)]
        self.unseen = np.array([self.r.count_of(c) for c in range(categories)], np.int16)
        self.marianne = rules.marianne
        self.log: list[Move] = []
        self.scores_by_round: list[tuple[int, ...]] = []

    # The rule steps, in the order of play.

    def play(self) -> Result:
        """Serve every pizza, then score (s2 "A pizza" to "Scoring")."""
        players = self.rules.players
        for number, pizza in enumerate(self.pizzas):
            chef = number % players
            self.lay_out_pizza(pizza)
            portions = self.cut_pizza(number, chef, pizza)
            taken = [False] * len(portions)
            for turn in range(1, players + 1):
                seat = (chef + turn) % players
                self.take_portion(number, seat, pizza, portions, taken)
                if self.marianne and seat == MARIANNE_HOLDER:
                    self.consider_marianne(number, seat)
            self.record_scores()
        return Result(self.score(), self.log, self.players, tuple(self.scores_by_round))

    def lay_out_pizza(self, pizza: list[Slice]) -> None:
        """The pizza is laid out as a circle of 13: everyone sees its slices."""
        for piece in pizza:
            self.unseen[piece.category] -= 1

    def cut_pizza(self, number: int, chef: int, pizza: list[Slice]) -> list[list[int]]:
        """The chef cuts the circle into exactly P contiguous portions."""
        n = len(pizza)
        players = self.rules.players
        if self.decides_by[chef][1] == "search":
            _, _, mask = self._search(number, 0, pizza)
        elif self.decides_by[chef][1] == "lookahead":
            mask = lookahead_cut(self.constants, self.strategies, self._state(number, 0, pizza),
                                 self._scratch(n), self.search_space)
        else:
            mask = choose_cut(self.strategies, chef, self._view(pizza), self.constants,
                              self.stream, self._scratch(n))
        portions = portions_of_cut(int(mask), n)
        assert len(portions) == players, "a chef cuts exactly P portions"
        assert sorted(p for portion in portions for p in portion) == list(range(n))
        self.log.append(Move(number, chef, "cut", portions=tuple(
            tuple(pizza[p] for p in portion) for portion in portions)))
        return portions

    def take_portion(self, number: int, seat: int, pizza: list[Slice],
                     portions: list[list[int]], taken: list[bool]) -> None:
        """Left of the chef first, each player takes a portion; the chef gets the last.

        Each received slice is at once kept or eaten; burnt and pepper must be kept.
        """
        turn = (seat - number) % self.rules.players or self.rules.players
        if self.decides_by[seat][0] == "search":
            _, index, eat_mask = self._search(number, turn, pizza, portions, taken)
        elif self.decides_by[seat][0] == "lookahead":
            index, eat_mask = (int(x) for x in lookahead_choice(
                self.constants, self.strategies, self._state(number, turn, pizza, portions, taken),
                self._scratch(len(pizza)), self.search_space))
        else:
            index, eat_mask = choose_portion(
                self.strategies, seat, self._view(pizza, portions, taken), len(portions),
                self.constants, self.stream, self._scratch(len(pizza)))
        assert 0 <= index < len(portions) and not taken[index], "portion not free"
        if taken.count(False) == 1:
            assert seat == (number % self.rules.players), "only the chef takes last"
        taken[index] = True
        decided = tuple((pizza[p], bool(eat_mask & (1 << j)))
                        for j, p in enumerate(portions[index]))
        self.log.append(Move(number, seat, "take", portion=index, slices=decided))
        for piece, eat in decided:
            self.receive_slice(number, seat, piece, eat)

    def receive_slice(self, number: int, seat: int, piece: Slice, eat: bool) -> None:
        """+1 on receipt (not for burnt); eaten: its olives; kept: its pile, a finisher steals."""
        player = self.players[seat]
        if piece.category != self.r.burnt:
            player.received += 1
        if eat:
            assert piece.category < self.kinds, "peppers and burnt slices cannot be eaten"
            player.eaten.append(piece)
            return
        player.kept[piece.category] += 1
        if piece.finisher:
            self.finisher_steals(number, seat, piece.category)

    def finisher_steals(self, number: int, seat: int, kind: int) -> None:
        """A kept finisher steals one kept slice of its kind from an opponent of the
        keeper's choice (none if no opponent has one); the receipt point stays put."""
        victim = choose_victim(self.strategies, seat, kind, self._kept(), self.constants,
                               self.stream)
        holders = [p.seat for p in self.players if p.seat != seat and p.kept[kind] > 0]
        if victim < 0:
            assert not holders, "a finisher must rob when an opponent has that kind"
            self.log.append(Move(number, seat, "empty-steal", category=kind))
            return
        assert victim in holders, "the robbed opponent must keep that kind"
        self.players[victim].kept[kind] -= 1
        self.players[seat].kept[kind] += 1
        self.log.append(Move(number, seat, "steal", victim=victim, category=kind))

    def consider_marianne(self, number: int, seat: int) -> None:
        """La Marianne: once, on their own turn, the holder may swap two kept slices for two
        kept slices of other players (their choice); then the card leaves the game."""
        last = number == len(self.pizzas) - 1
        kept = self._kept()
        use, *choice = choose_marianne(self.strategies, seat, last, len(self.pizzas) - number,
                                       kept, np.zeros_like(kept), self.constants, self.stream)
        if not use:
            return
        swaps = (tuple(choice[:3]), tuple(choice[3:]))
        mine = self.players[seat].kept
        gives = [give for give, _, _ in swaps]
        takes = [(owner, take) for _, owner, take in swaps]
        # Both exchanges use the piles as they were before the card was played.
        for give in set(gives):
            assert mine[give] >= gives.count(give), "the holder gives slices it keeps"
        for owner, take in set(takes):
            assert owner != seat and self.players[owner].kept[take] >= takes.count(
                (owner, take)), "the holder takes slices other players keep"
        for give, owner, take in swaps:
            mine[give] -= 1
            self.players[owner].kept[give] += 1
            self.players[owner].kept[take] -= 1
            mine[take] += 1
        self.marianne = False
        self.log.append(Move(number, seat, "marianne", swaps=swaps))

    def score(self) -> ScoreSheet:
        """Majorities (peppers assigned), olives, receipt points, diversity, burnt slices."""
        return score_sheet(self.r, [p.kept for p in self.players],
                           [p.received for p in self.players],
                           [sum(s.olives for s in p.eaten) for p in self.players],
                           [len(p.eaten) for p in self.players])

    def record_scores(self) -> None:
        """Every seat's total if the game were scored now (s2 "Scoring"), after each pizza.

        ``score`` only reads the piles, so it serves mid-game as it does at the end: the
        whole end-of-game scoring applied to the piles as they stand, steals and a La
        Marianne swap of that pizza included. The peppers, assigned only at scoring, are
        assigned afresh for each row against the piles of that moment, so a pepper may
        count for another kind from one row to the next; the burnt penalty can make a row
        negative. Nothing is drawn or decided here, so recording leaves every move and
        result as it was.
        """
        self.scores_by_round.append(tuple(int(t) for t in self.score().total))

    # What a strategy is shown: the table as arrays, in the kernel's layout.

    def _kept(self) -> np.ndarray:
        return np.array([p.kept for p in self.players], dtype=np.int16)

    def _view(self, pizza: list[Slice], portions: list[list[int]] = (),
              taken: list[bool] = ()) -> View:
        n = len(pizza)
        starts = np.zeros(n, np.int64)
        lengths = np.zeros(n, np.int64)
        for i, portion in enumerate(portions):
            starts[i], lengths[i] = portion[0], len(portion)
        return View(self._kept(), self.unseen, np.array([p.category for p in pizza], np.int8),
                    np.array([p.olives for p in pizza], np.int8),
                    np.array([p.finisher for p in pizza], np.bool_), starts, lengths,
                    np.array(taken, dtype=np.bool_))

    def _scratch(self, n: int):
        # Fresh for every decision, so that no decision can lean on what another left.
        return new_scratch(self.rules.players, self.kinds + 2, n, len(self.constants.cut_masks))

    def _search(self, number: int, turn: int, pizza: list[Slice],
                portions: list[list[int]] = (), taken: list[bool] = ()) -> tuple[int, int, int]:
        """The search player's move (``search.search_decision``) at pizza ``number``, turn
        ``turn`` (0 the cut)."""
        move = search_decision(self.constants, self.strategies,
                               self._state(number, turn, pizza, portions, taken),
                               self._scratch(len(pizza)), self.search_space)
        return tuple(int(x) for x in move)

    def _state(self, number: int, turn: int, pizza: list[Slice],
               portions: list[list[int]] = (), taken: list[bool] = ()) -> State:
        """The game at pizza ``number``, turn ``turn`` (0 the cut) as the kernel's
        ``State``, for the compiled search and lookahead; its stream is the game's own."""
        n = len(pizza)
        view = self._view(pizza, portions, taken)
        portion_taken = np.zeros(n, dtype=np.bool_)
        portion_taken[:len(taken)] = taken
        players = self.players
        actions = [move.action for move in self.log]
        marianne = [move.pizza + 1 for move in self.log if move.action == "marianne"]
        tally = [actions.count("steal"), actions.count("empty-steal"),
                 sum(eaten and piece.finisher for move in self.log if move.action == "take"
                     for piece, eaten in move.slices), marianne[0] if marianne else 0]
        return State(
            seen=view._replace(portion_taken=portion_taken),
            order=np.array([piece.box for dealt in self.pizzas for piece in dealt], np.int16),
            pool=np.zeros(0, np.int16), deal_stream=np.zeros(2, np.uint64), stream=self.stream,
            received=np.array([p.received for p in players], np.int16),
            eaten_olives=np.array([sum(s.olives for s in p.eaten) for p in players], np.int16),
            eaten_count=np.array([len(p.eaten) for p in players], np.int16),
            box_count=np.array([self.r.count_of(c) for c in range(self.kinds + 2)], np.int16),
            clock=np.array([number, turn, len(portions)], np.int64),
            tally=np.array(tally, np.int16))


def best_pepper_kinds(rules: RuleSet, mine: list[int], others: list[list[int]],
                      peppers: int) -> tuple[int, ...]:
    """The kinds for ``peppers`` peppers that maximise majority + diversity for ``mine``.

    RULES.md s2 (**default**): against the others' kept counts ``others``; every multiset
    of kinds is tried; ties go to the earliest kinds in the table's order.
    """
    best, best_value = (), None
    for choice in itertools.combinations_with_replacement(range(len(rules.kinds)), peppers):
        counts = [mine[k] + choice.count(k) for k in range(len(rules.kinds))]
        value = rules.diversity_bonus * min(counts)
        for k, value_k in enumerate(rules.majority_value):
            if counts[k] > 0 and all(counts[k] >= row[k] for row in others):
                value += value_k
        if best_value is None or value > best_value:
            best, best_value = choice, value
    return best


def score_sheet(rules: RuleSet, kept: list[list[int]], received: list[int],
                olives: list[int], eaten: list[int]) -> ScoreSheet:
    """Score kept piles (counts by category), receipt points, eaten olives and counts."""
    kinds = len(rules.kinds)
    players = len(kept)
    counts = [list(row[:kinds]) for row in kept]
    peppers = []
    for seat in range(players):
        others = counts if rules.pepper_assignment == "sequential" else kept
        rows = [others[o][:kinds] for o in range(players) if o != seat]
        choice = best_pepper_kinds(rules, kept[seat][:kinds], rows, kept[seat][rules.pepper])
        peppers.append(choice)
        if rules.pepper_assignment == "sequential":
            for k in choice:
                counts[seat][k] += 1
    if rules.pepper_assignment == "independent":
        for seat, choice in enumerate(peppers):
            for k in choice:
                counts[seat][k] += 1
    majority = majority_sheet(counts, rules.majority_value, ties_score=True)
    diversity = [rules.diversity_bonus * min(row) for row in counts]
    if rules.receipt_point == "holder":
        held = [eaten[s] + sum(kept[s][:kinds + 1]) for s in range(players)]
    else:
        held = list(received)
    slices = [rules.slice_point * h for h in held]
    burnt = [row[rules.burnt] for row in kept]
    total = [majority[s] + olives[s] + slices[s] + diversity[s]
             - rules.burnt_penalty * burnt[s] for s in range(players)]
    return ScoreSheet(peppers, counts, majority, list(olives), slices, diversity, burnt, total,
                      split_win_units(total, WIN_UNITS))


def dealt_order(rules: TableRules, seed: int, deal: int) -> np.ndarray:
    """Deal ``deal`` of ``seed`` as slice numbers, pizza after pizza (the kernel's function)."""
    r = rules.rules
    order = np.empty(r.pizzas * r.slices_per_pizza, dtype=np.int16)
    pool = np.empty(len(r.slice_category) - r.count_of(r.burnt), dtype=np.int16)
    deal_pizzas(seed, deal, table_rules(rules), np.zeros(2, np.uint64), order, pool)
    return order


def deal_game(rules: TableRules, seed: int, deal: int) -> list[list[Slice]]:
    """The pizzas of deal ``deal`` of ``seed``, dealt by the kernel's own function."""
    r = rules.rules
    n = r.slices_per_pizza
    pieces = [Slice(r.slice_category[s], r.slice_olives[s], r.slice_finisher[s], int(s))
              for s in dealt_order(rules, seed, deal)]
    return [pieces[p * n:(p + 1) * n] for p in range(r.pizzas)]


def play_game(rules: TableRules, strategies: list[Strategy], seed: int, game: int,
              duplicate: bool = False) -> Result:
    """Game ``game`` of ``seed``, exactly as the kernel plays it; ``strategies`` by player."""
    return play_seated(Game, deal_game, rules, strategies, seed, game, duplicate)
