"""The reference engine: Piece o' Cake's rules as plain Python, one function per rule step.

Written to be read beside RULES.md section 1; speed is the kernel's job. It plays one
game from a deal and one strategy per seat, checks that every decision a strategy makes
is legal, and keeps a move log a person can read and the score after each cake. Seat 0 is
the first waiter (of the first round); seats are numbered in play order (to the waiter's
left). The joker slice, when it is in the box, is a ``Slice`` of a kind of its own
(``TableRules.joker_kind``) whose cream is what eating it scores; where it is, is wherever
that one object lies (``Game.joker_place``).
"""

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from cakesim.engine.jit import plain_python
from cakesim.games.piece_o_cake import fitted, kernel, lookahead, strategies
from cakesim.games.piece_o_cake.fitted import FITTED_CHOICE, fitted_policies
from cakesim.games.piece_o_cake.kernel import (
    GameState,
    Scratch,
    Strategies,
    View,
    deal_order,
    rule_data,
)
from cakesim.games.piece_o_cake.rules import TableRules
from cakesim.games.piece_o_cake.steps import NOTHING, PLACE, SWAP, deal_round
from cakesim.games.piece_o_cake.strategies import (
    DECLINE_EAT,
    JOKER_EATEN,
    JOKER_HAND,
    JOKER_HIDDEN,
    JOKER_PLACED,
    JOKER_TABLE,
    PASS,
    TAKE,
    Strategy,
    chance_table_shape,
)
from cakesim.games.slicing.circle import cut_table, portions_of_cut
from cakesim.games.slicing.tabletop import WIN_UNITS, majority_sheet
from cakesim.kits import search as driver
from cakesim.kits.seating import play_seated, split_win_units

# The reference is the pure-Python engine the kernel is checked and timed against, so it
# runs the strategies' decision functions as plain Python (the kernel runs them compiled):
# parity then also shows that compiled and plain arithmetic take the same branches.
choose_action = plain_python(strategies.choose_action)
choose_bonus = plain_python(strategies.choose_bonus)
choose_cut = plain_python(strategies.choose_cut)
choose_joker = plain_python(strategies.choose_joker)
choose_swap = plain_python(strategies.choose_swap)
fitted_action = plain_python(fitted.fitted_action)
fill_chances = plain_python(strategies.fill_chances)
new_scratch = plain_python(kernel.new_scratch)
# The search player's decisions stay compiled: each plays hundreds of games out, which in
# plain Python would take minutes per move. The reference calls it at the same points,
# shows it the same table and carries out its moves with its own rule steps, so parity
# checks everything around the search (``search.py``): what it is shown, when it is asked,
# the moves it makes and the draws it takes from the game's stream.
search_decision = driver.search_decision
# The lookahead players, likewise, serve the cake hundreds of times per cut (a few times
# per move): compiled; the lead cutter, their fast sibling, with them.
lookahead_cut = lookahead.lookahead_cut
lookahead_choice = lookahead.lookahead_choice
lead_cut = lookahead.lead_cut
lookahead2_cut = lookahead.lookahead2_cut


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
    stream: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.uint64))
    """The deal stream after this deal: the next round is dealt from it."""


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
    """``cut``, ``take``, ``decline``, ``pass``, ``discard``, ``bonus``, ``swap`` (the seat
    gives the real slice to the joker's holder, ``other``, and takes the joker) or
    ``joker`` (the seat eats the joker, or puts it on ``kind``)."""
    slices: tuple[tuple[Slice, bool], ...] = ()
    """The slices involved, each with whether it was eaten (the joker, taken or kept:
    not yet decided, shown as not eaten)."""
    portions: tuple[tuple[Slice, ...], ...] = ()
    """For a cut: the portions, in the order the log numbers them."""
    kind: int = -1
    """For a decline: the kind eaten."""
    portion: int = -1
    """For a take: which portion of the cut (0-based)."""
    round: int = 0
    """The round (0-based) the cake belongs to."""
    other: int = -1
    """For a swap: the seat that held the joker."""


@dataclass
class Result:
    """A finished game: per-seat points, split wins, the move log and the running score."""

    total: list[int]
    majority: list[int]
    cream: list[int]
    win_units: list[int]
    log: list[Move]
    players: list[Player]
    """Every seat's piles at the end of the last round."""
    round_players: tuple[list[Player], ...] = ()
    """Every seat's piles at the end of each round (the last: ``players``)."""
    scores_by_round: tuple[tuple[int, ...], ...] = ()
    """One row per cake of every round: every seat's total had the game been scored right
    after that cake (``Game.record_scores``); the last row is ``total``."""
    eaten_slices: int = 0
    """Slices eaten, over every round."""
    collected_slices: int = 0
    """Slices on the piles at the end of each round, over every round."""
    joker_eaten: int = 0
    """Rounds that ended with the joker eaten."""
    joker_placed: int = 0
    """Rounds that ended with the joker on a pile."""


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
        self.codes, self.params = Strategy.arrays(strategies)
        self.stream = stream
        self.kind_count = np.bincount(self.arrays["slice_kind"],
                                      minlength=rules.kinds_in_play).astype(np.int16)
        # A pile can hold every slice of its kind and the joker (``most_in_pile``).
        most = int(self.kind_count.max()) + rules.joker
        self.chances = np.stack([chance_table(tuple(row), self.arrays["ties_score"], most)
                                 for row in self.params])
        self.policy = fitted_policies([s.chooser for s in strategies], rules.kinds_in_play)
        self.log: list[Move] = []
        self.scores_by_round: list[tuple[int, ...]] = []
        self.cut_masks = cut_table(rules.rules.slices_per_cake, rules.portion_limit)
        # The reference works out every arc's value afresh (no ``reuse_gains``), so that
        # parity also checks the kernel's reuse.
        self.rule_data = rule_data(self.arrays, self.cut_masks, reuse_gains=False)
        self.round = 0
        self.banked = [[0] * rules.players, [0] * rules.players]
        """Majority and cream points of the finished rounds, by seat."""
        self.counts = {"eaten": 0, "collected": 0, "joker_eaten": 0, "joker_placed": 0}
        """What the finished rounds' end positions held (``Result``)."""
        self.finished: list[list[Player]] = []
        """Every finished round's piles."""
        self.hand: tuple[int, Slice] | None = None
        """The seat holding the joker it must now eat or place, and the joker."""
        self.taker = -1
        """The seat of the last take (a portion or a set-aside slice; -1 before any)."""
        self.got: list[Slice] = []
        """The slices that take got: a kind first collected among them is none the joker
        may go on (``may_place_joker``)."""
        self.start_round(0)
        if any(s.needs_search_space for s in strategies):
            self.search_space = kernel.new_search_space(self.rule_data, self.params,
                                                        self.chances, self.policy)

    # The rule steps, in the order of play.

    def play(self) -> Result:
        """Play every round: serve every cake, then score (s1 "Setup" to "Scoring", and
        the multi-round option: totals summed)."""
        for round_number in range(self.rules.rounds):
            if round_number > 0:
                self.end_round()
                self.deal = self.next_deal()
                self.start_round(round_number)
            for number, stack in enumerate(self.deal.cakes):
                waiter = self.waiter(number)
                cake = self.lay_out_cake(stack)
                self.cut_cake(number, waiter, cake)
                for turn in range(1, self.rules.players + 1):
                    self.choose(number, (waiter + turn) % self.rules.players, cake)
                self.discard_leftovers(number, waiter, cake)
                if number + 1 in self.rules.bonus_after_cakes:
                    self.keep_set_aside_slice(number, waiter)
                self.record_scores()
        return self.score()

    def next_deal(self) -> Deal:
        """A later round deals every slice afresh, from where the last deal left the deal
        stream (the kernel's ``deal_round``)."""
        order = self.deal.order.copy()
        stream = self.deal.stream.copy()
        deal_round(stream, order, int(self.rules.joker))
        return pieces_of(self.rules, order, stream)

    def start_round(self, round_number: int) -> None:
        """Empty piles; the round's first waiter sits left of the last round's."""
        self.round = round_number
        self.players = [Player(seat) for seat in range(self.rules.players)]
        self.aside_left = [True] * len(self.deal.set_aside)
        self.unseen = self.kind_count.copy()
        # The set-aside slices as every ``View`` shows them (only which are left changes).
        self.aside_kind = np.array([p.kind for p in self.deal.set_aside], dtype=np.uint8)
        self.aside_cream = np.array([p.cream for p in self.deal.set_aside], dtype=np.int8)
        self.cake = Cake([])

    def lay_out_cake(self, stack: list[Slice]) -> Cake:
        """The waiter lays the stack out as a circle, in stack order: all see it."""
        for piece in stack:
            self.unseen[piece.kind] -= 1
        self.cake = Cake(list(stack))
        return self.cake

    def cut_cake(self, number: int, waiter: int, cake: Cake) -> None:
        """The waiter cuts at most P (2 players: 4) contiguous portions of >= 1 slice."""
        if self.strategies[waiter].cutter == "search":
            _, _, mask = self._search(number, 0)
        elif self.strategies[waiter].cutter == "lookahead":
            mask = lookahead_cut(self.rule_data, self._strategies(), self._game_state(number, 0),
                                 self._scratch(), self.search_space)
        elif self.strategies[waiter].cutter == "lookahead2":
            mask = lookahead2_cut(self.rule_data, self._strategies(),
                                  self._game_state(number, 0), self._scratch(),
                                  self.search_space)
        elif self.strategies[waiter].cutter == "lead":
            mask = lead_cut(self.rule_data, self._strategies(), self._game_state(number, 0),
                            self._scratch())
        else:
            mask = choose_cut(self._strategies(), waiter, self._view(), self.rule_data,
                              self._scratch())
        n = len(cake.slices)
        portions = portions_of_cut(int(mask), n)
        assert 1 <= len(portions) <= self.rules.portion_limit, "illegal cut"
        assert sorted(p for portion in portions for p in portion) == list(range(n))
        cake.portions = portions
        cake.taken = [False] * len(portions)
        self._log(number, waiter, "cut", portions=tuple(
            tuple(cake.slices[p] for p in portion) for portion in portions))

    def choose(self, number: int, seat: int, cake: Cake) -> None:
        """Take a portion (eat or collect each slice), or decline and maybe eat a kind."""
        turn = self._turn(number, seat)
        if self._decides_by_search(seat):
            action, index, eat_mask = self._search(number, turn)
        elif self.strategies[seat].chooser == "lookahead":
            action, index, eat_mask = (int(x) for x in lookahead_choice(
                self.rule_data, self._strategies(), self._game_state(number, turn),
                self._scratch(), self.search_space))
        elif self.strategies[seat].chooser == FITTED_CHOICE:
            state = self._game_state(number, turn)
            action, index, eat_mask = fitted_action(
                self._strategies(), seat, turn, len(cake.portions), state.seen, state.banked,
                state.eaten_cream, self.rule_data, self._scratch())
        else:
            action, index, eat_mask = choose_action(
                self._strategies(), seat, self._view(), len(cake.portions),
                self.rule_data, self._scratch())
        if action == TAKE:
            self.take_portion(number, seat, cake, index, eat_mask)
        elif action == DECLINE_EAT:
            self.decline_and_eat(number, seat, index)
        else:
            assert action == PASS
            self._log(number, seat, "pass")

    def take_portion(self, number: int, seat: int, cake: Cake, index: int,
                     eat_mask: int) -> None:
        """The chooser takes a remaining portion and decides, slice by slice, eat or collect.

        The joker is not decided slice by slice: the taker eats or places it once the
        portion is taken (``settle_joker``). The first real slice of the kind the joker
        stands on another seat's pile may be swapped for it (s1, joker expansion).
        """
        assert 0 <= index < len(cake.portions) and not cake.taken[index], "portion not free"
        self.begin_take(seat)
        cake.taken[index] = True
        decided, offer = [], None
        for j, position in enumerate(cake.portions[index]):
            piece = cake.slices[position]
            eaten = bool(eat_mask & (1 << j))
            if piece.kind == self.rules.joker_kind:
                self.hand = (seat, piece)
                decided.append((piece, False))
                continue
            if offer is None and self._swappable(seat, piece):
                offer = (piece, eaten)
            self._get(seat, piece, eaten)
            decided.append((piece, eaten))
        self._log(number, seat, "take", slices=tuple(decided), portion=index)
        self.settle_joker(number, seat, offer)

    def decline_and_eat(self, number: int, seat: int, kind: int) -> None:
        """Declining, the chooser eats all collected slices of one kind (they leave the
        contest; the joker, if it stands there, is eaten with them)."""
        player = self.players[seat]
        eaten = player.collected.pop(kind, [])
        assert eaten, "declined to eat a kind the player has not collected"
        player.eaten.extend(eaten)
        self._log(number, seat, "decline", slices=tuple((p, True) for p in eaten), kind=kind)

    def discard_leftovers(self, number: int, waiter: int, cake: Cake) -> None:
        """Portions left after the waiter has chosen leave the game."""
        left = tuple((cake.slices[p], False) for i, portion in enumerate(cake.portions)
                     if not cake.taken[i] for p in portion)
        # Gone: a set-aside slice kept now sees no cake on the table.
        self.cake = Cake([])
        if left:
            self._log(number, waiter, "discard", slices=left)

    def keep_set_aside_slice(self, number: int, waiter: int) -> None:
        """Compensation variant: the waiter keeps one set-aside slice, eats or collects it
        (the joker: eats or places it; a real slice may be swapped for the joker)."""
        aside = self.deal.set_aside
        if self._decides_by_search(waiter):
            _, index, eat = self._search(number, self.rules.players + 1)
        else:
            index, eat = choose_bonus(self._strategies(), waiter, self._view(), self.rule_data)
        assert self.aside_left[index], "that set-aside slice is gone"
        self.begin_take(waiter)
        self.aside_left[index] = False
        piece = aside[index]
        self.unseen[piece.kind] -= 1
        offer = None
        if piece.kind == self.rules.joker_kind:
            self.hand = (waiter, piece)
            eat = False
        else:
            offer = (piece, bool(eat)) if self._swappable(waiter, piece) else None
            self._get(waiter, piece, bool(eat))
        self._log(number, waiter, "bonus", slices=((piece, bool(eat)),))
        self.settle_joker(number, waiter, offer)

    def begin_take(self, seat: int) -> None:
        """A take begins (a portion, or a set-aside slice): what the seat has collected so
        far was collected earlier, the only kinds a joker it gets may go on (s1)."""
        self.taker = seat
        self.got = []

    def settle_joker(self, number: int, seat: int, offer: tuple[Slice, bool] | None) -> None:
        """The joker decisions a take leaves: claim the swap offered, then eat or place the
        joker in hand."""
        if offer is not None:
            self.swap_joker(number, seat, *offer)
        if self.hand is not None:
            self.place_joker(number, *self.hand)

    def swap_joker(self, number: int, seat: int, piece: Slice, eaten: bool) -> None:
        """A seat that took a real slice of the kind the joker stands on may give it to the
        joker's holder, who must accept it in the joker's place; the seat takes the joker."""
        if self._decides_by_search(seat):
            _, _, detail = self._search(number, self._turn(number, seat),
                                        (SWAP, seat, piece.cream, int(eaten)))
            claim = detail == 1
        else:
            claim = choose_swap(self._strategies(), seat, piece.cream, eaten, self._view(),
                                self.rule_data)
        if not claim:
            return
        holder, kind, joker = self.joker_on_pile()
        assert holder != seat and kind == piece.kind, "no swap for this slice"
        own = self.players[seat]
        # The seat holds the real slice: in its eaten slices or on its pile.
        _remove(own.eaten if eaten else own.collected[kind], piece)
        pile = self.players[holder].collected[kind]
        _remove(pile, joker)
        pile.append(piece)
        self.hand = (seat, joker)
        self._log(number, seat, "swap", slices=((piece, False),), kind=kind, other=holder)

    def place_joker(self, number: int, seat: int, joker: Slice) -> None:
        """The joker in hand is eaten (its points) or put on a kind it may go on
        (``may_place_joker``), where it counts one more slice; with no such kind it must be
        eaten (s1)."""
        if self._decides_by_search(seat):
            _, kind, _ = self._search(number, self._turn(number, seat), (PLACE, seat, 0, 0))
        else:
            kind = choose_joker(self._strategies(), seat, self._view(), self.rule_data)
        self.hand = None
        player = self.players[seat]
        if kind < 0:
            player.eat(joker)
        else:
            assert self.may_place_joker(seat, kind), "the joker may not go on that kind"
            player.collected[kind].append(joker)
        self._log(number, seat, "joker", slices=((joker, kind < 0),), kind=int(kind))

    def end_round(self) -> None:
        """The round's end position is scored and banked (totals summed over rounds)."""
        majority, cream = self.round_score()
        for seat in range(self.rules.players):
            self.banked[0][seat] += majority[seat]
            self.banked[1][seat] += cream[seat]
        for name, count in self.position_counts().items():
            self.counts[name] += count
        self.finished.append(self.players)

    def position_counts(self) -> dict[str, int]:
        """The round's end position: slices eaten, slices on piles, whether the joker is
        eaten or on a pile (``Result``)."""
        place = self.joker_place()[0]
        return {"eaten": sum(len(p.eaten) for p in self.players),
                "collected": sum(len(v) for p in self.players for v in p.collected.values()),
                "joker_eaten": int(place == JOKER_EATEN),
                "joker_placed": int(place == JOKER_PLACED)}

    def round_score(self) -> tuple[list[int], list[int]]:
        """Majorities (ties per the tie rule) and the cream of every eaten slice, as the
        piles stand in this round; the joker counts once, where it is."""
        counts = [[p.collected_count(k) for k in range(len(self.rules.rules.kinds))]
                  for p in self.players]
        cream = [sum(piece.cream for piece in p.eaten) for p in self.players]
        majority = majority_sheet(counts, self.rules.rules.majority_value,
                                  self.arrays["ties_score"])
        return majority, cream

    def score(self) -> Result:
        """The banked rounds plus this round's majorities and cream as the piles stand,
        the seat bonus, and the split win: the final result once the last cake is served."""
        majority, cream = self.round_score()
        majority = [b + m for b, m in zip(self.banked[0], majority, strict=True)]
        cream = [b + c for b, c in zip(self.banked[1], cream, strict=True)]
        bonus = self.arrays["seat_bonus"]
        total = [m + c + int(b) for m, c, b in zip(majority, cream, bonus, strict=True)]
        counts = {name: self.counts[name] + count
                  for name, count in self.position_counts().items()}
        wins = split_win_units(total, WIN_UNITS)
        return Result(total, majority, cream, wins, self.log, self.players,
                      (*self.finished, self.players), tuple(self.scores_by_round),
                      counts["eaten"], counts["collected"], counts["joker_eaten"],
                      counts["joker_placed"])

    def record_scores(self) -> None:
        """Every seat's total if the game were scored now (s1 "Scoring"), after each cake.

        ``score`` only reads the banked rounds and the piles, so it serves mid-game as it
        does at the end: the majorities as the face-up piles stand, plus the cream eaten so
        far. A set-aside slice kept after a cake (compensation variant) counts in that
        cake's row. Nothing is drawn or decided here, so recording leaves every move and
        result as it was.
        """
        self.scores_by_round.append(tuple(int(t) for t in self.score().total))

    # Where the joker is, and whose decision it is.

    def joker_place(self) -> tuple[int, int, int]:
        """``(where, seat, kind)`` as ``View.joker`` encodes it, from where the one joker
        object lies: in hand, on a pile, eaten, in the cake on the table, or hidden."""
        if self.hand is not None:
            return JOKER_HAND, self.hand[0], -1
        holder, kind, _ = self.joker_on_pile()
        if holder >= 0:
            return JOKER_PLACED, holder, kind
        for player in self.players:
            if any(p.kind == self.rules.joker_kind for p in player.eaten):
                return JOKER_EATEN, player.seat, -1
        if any(self.cake.slices[p].kind == self.rules.joker_kind
               for i, portion in enumerate(self.cake.portions or [range(len(self.cake.slices))])
               if not (self.cake.taken and self.cake.taken[i]) for p in portion):
            return JOKER_TABLE, -1, -1
        return JOKER_HIDDEN, -1, -1

    def joker_on_pile(self) -> tuple[int, int, Slice | None]:
        """``(holder, kind, joker)`` of the joker on a pile, or ``(-1, -1, None)``."""
        for player in self.players:
            for kind, pile in player.collected.items():
                for piece in pile:
                    if piece.kind == self.rules.joker_kind:
                        return player.seat, kind, piece
        return -1, -1, None

    def may_place_joker(self, seat: int, kind: int) -> bool:
        """Whether the joker in ``seat``'s hand may go on ``kind`` (s1): a kind the seat
        collected before this take ("már korábban gyűjtött": one first collected in the
        same take does not count), or with the rule set's placement ``same_take`` any kind
        it collects."""
        pile = self.players[seat].collected.get(kind, [])
        if self.rules.rules.joker_placement == "same_take":
            return bool(pile)
        return bool(self.collected_earlier(pile))

    def collected_earlier(self, pile: list[Slice]) -> list[Slice]:
        """The slices of ``pile`` (the taker's) that its take did not get."""
        return [p for p in pile if not any(p is q for q in self.got)]

    def _swappable(self, seat: int, piece: Slice) -> bool:
        """Whether taking ``piece`` lets ``seat`` swap it for the joker: it is of the kind
        the joker stands on, on another seat's pile."""
        holder, kind, _ = self.joker_on_pile()
        return holder >= 0 and holder != seat and kind == piece.kind

    def _get(self, seat: int, piece: Slice, eaten: bool) -> None:
        self.got.append(piece)
        if eaten:
            self.players[seat].eat(piece)
        else:
            self.players[seat].collect(piece)

    def waiter(self, number: int) -> int:
        """The waiter of cake ``number`` of this round."""
        return (self.round + number) % self.rules.players

    def _turn(self, number: int, seat: int) -> int:
        """The clock's turn of ``seat`` at cake ``number`` (P + 1: the set-aside slice)."""
        if self.cake.slices:
            return (seat - self.waiter(number)) % self.rules.players or self.rules.players
        return self.rules.players + 1

    def _decides_by_search(self, seat: int) -> bool:
        """Whether ``seat``'s choices (and keeps, and joker decisions) are searched."""
        return self.strategies[seat].chooser == "search"

    def _log(self, number: int, seat: int, action: str, **details) -> None:
        self.log.append(Move(number, seat, action, round=self.round, **details))

    # What a strategy is shown: the table as arrays, in the kernel's layout.

    def still_open(self) -> np.ndarray:
        """Slices of each kind not yet decided: unseen, or in portions nobody has taken."""
        cake = self.cake
        still_open = self.unseen.copy()
        for position, piece in enumerate(cake.slices):
            if not any(position in portion and cake.taken[i]
                       for i, portion in enumerate(cake.portions)):
                still_open[piece.kind] += 1
        return still_open

    def _strategies(self) -> Strategies:
        return Strategies(self.codes, self.params, self.chances, self.policy)

    def _view(self) -> View:
        """The table as every player sees it (``kernel.View``), with the cake on it."""
        kinds, creams = self._cake_arrays()
        starts, lengths = self._portion_arrays()
        collected, collected_cream = self._pile_arrays()
        return View(
            stream=self.stream, collected=collected, collected_cream=collected_cream,
            unseen=self.unseen, still_open=self.still_open(), cake_kind=kinds,
            cake_cream=creams, portion_start=starts, portion_len=lengths,
            portion_taken=np.array(self.cake.taken, dtype=np.bool_),
            aside_kind=self.aside_kind, aside_cream=self.aside_cream,
            aside_left=np.array(self.aside_left, dtype=np.bool_),
            joker=np.array(self.joker_place(), dtype=np.int16), before_take=self._before_take())

    def _before_take(self) -> np.ndarray:
        """``View.before_take``: the taker's slices of each kind collected before its take."""
        counts = np.zeros(self.rules.kinds_in_play, dtype=np.int16)
        if self.taker >= 0:
            for kind, pile in self.players[self.taker].collected.items():
                counts[kind] = len(self.collected_earlier(pile))
        return counts

    def _cake_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.array([p.kind for p in self.cake.slices], dtype=np.uint8),
                np.array([p.cream for p in self.cake.slices], dtype=np.int8))

    def _portion_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.cake.slices)
        starts = np.zeros(n, dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        for i, portion in enumerate(self.cake.portions):
            starts[i], lengths[i] = portion[0], len(portion)
        return starts, lengths

    def _pile_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        kinds = self.rules.kinds_in_play
        counts = np.zeros((self.rules.players, kinds), dtype=np.int16)
        cream = np.zeros((self.rules.players, kinds), dtype=np.int16)
        for player in self.players:
            for kind, pile in player.collected.items():
                counts[player.seat, kind] = len(pile)
                cream[player.seat, kind] = sum(p.cream for p in pile)
        return counts, cream

    def _search(self, number: int, turn: int,
                pending: tuple[int, int, int, int] = (NOTHING, 0, 0, 0)) -> tuple[int, int, int]:
        """The search player's move (``search.search_decision``) at cake ``number``, turn
        ``turn`` (0 the cut, P + 1 the set-aside slice) and the joker decision ``pending``
        (``steps.PENDING``)."""
        move = search_decision(self.rule_data, self._strategies(),
                               self._game_state(number, turn, pending),
                               kernel.new_scratch(self.rule_data, self.rules.players),
                               self.search_space)
        return tuple(int(x) for x in move)

    def _game_state(self, number: int, turn: int,
                    pending: tuple[int, int, int, int] = (NOTHING, 0, 0, 0)) -> GameState:
        """The game at cake ``number``, turn ``turn`` and joker decision ``pending`` as the
        kernel's ``GameState``, for the compiled search and lookahead."""
        view = self._view()
        n = self.rules.rules.slices_per_cake
        taken = np.zeros(n, dtype=np.bool_)
        taken[:len(self.cake.taken)] = self.cake.taken
        cake_kind = np.zeros(n, dtype=np.uint8)
        cake_cream = np.zeros(n, dtype=np.int8)
        cake_kind[:len(self.cake.slices)] = view.cake_kind
        cake_cream[:len(self.cake.slices)] = view.cake_cream
        starts, lengths = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        starts[:len(view.portion_start)] = view.portion_start
        lengths[:len(view.portion_len)] = view.portion_len
        eaten = [[sum(p.cream for p in player.eaten), len(player.eaten)]
                 for player in self.players]
        eaten_cream, eaten_count = np.array(eaten, dtype=np.int16).T.copy()
        return GameState(
            seen=view._replace(portion_taken=taken, cake_kind=cake_kind, cake_cream=cake_cream,
                               portion_start=starts, portion_len=lengths),
            order=self.deal.order, deal_stream=np.zeros(2, dtype=np.uint64),
            eaten_cream=eaten_cream, eaten_count=eaten_count,
            clock=np.array([number, turn, len(self.cake.portions), self.round],
                           dtype=np.int64),
            pending=np.array(pending, dtype=np.int64),
            banked=np.array(self.banked, dtype=np.int16),
            majority=np.zeros(self.rules.players, dtype=np.int16),
            tally=np.zeros(8, dtype=np.int16))

    def _scratch(self) -> Scratch:
        # Fresh for every decision, so that no decision can lean on what another left.
        return new_scratch(self.rule_data, self.rules.players)


def _remove(pile: list[Slice], piece: Slice) -> None:
    """Take the very object ``piece`` (not an equal slice) off ``pile``."""
    index = next(i for i, p in enumerate(pile) if p is piece)
    del pile[index]


def score_sheet(collected: list[list[int]], cream: list[int], majority_value,
                ties_score: bool) -> tuple[list[int], list[int], list[int]]:
    """Majority points, totals and win units from collected counts and eaten cream."""
    majority = majority_sheet(collected, majority_value, ties_score)
    total = [majority[s] + cream[s] for s in range(len(collected))]
    return majority, total, split_win_units(total, WIN_UNITS)


def dealt_order(rules: TableRules, seed: int, deal: int,
                stream: np.ndarray | None = None) -> np.ndarray:
    """Deal ``deal`` of ``seed`` (its first round) as slice numbers in stack order (the
    kernel's function); ``stream``, if given, is left where the next round's deal starts."""
    order = np.empty(rules.box, dtype=np.int16)
    deal_order(seed, deal, int(rules.joker), np.zeros(2, dtype=np.uint64) if stream is None
               else stream, order)
    return order


def deal_game(rules: TableRules, seed: int, deal: int) -> Deal:
    """The deal ``deal`` of ``seed``: the same function of (seed, deal) the kernel uses."""
    stream = np.zeros(2, dtype=np.uint64)
    return pieces_of(rules, dealt_order(rules, seed, deal, stream), stream)


def pieces_of(rules: TableRules, order: np.ndarray, stream: np.ndarray) -> Deal:
    """The cakes and set-aside slices of a deal given as box numbers in stack order."""
    kinds, creams = rules.arrays["slice_kind"], rules.arrays["slice_cream"]
    n, cakes = rules.rules.slices_per_cake, rules.rules.cakes
    pieces = [Slice(int(kinds[s]), int(creams[s])) for s in order]
    return Deal([pieces[c * n:(c + 1) * n] for c in range(cakes)], pieces[cakes * n:], order,
                stream)


def play_game(rules: TableRules, strategies: list[Strategy], seed: int, game: int,
              duplicate: bool = False) -> Result:
    """Game ``game`` of ``seed``, exactly as the kernel plays it; ``strategies`` by player."""
    return play_seated(Game, deal_game, rules, strategies, seed, game, duplicate)
