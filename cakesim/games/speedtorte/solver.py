"""A perfect-information solver for solo Speedtorte: the best score of a known deal.

RULES.md section 3, solo ("Rekordjagd", turn mode, no special orders). Knowing the whole
draw order, which placements win, and with how many supply pieces left? The setup is
read off ``reference.Game`` (plates, hand, supply, display, the deck after the cards met
at setup went under), so both engines start from the same position; after that the
solver steps the game itself, compactly:

- a state is (placements made, the hand as a sorted multiset, the four top pieces, the
  displayed cards, the cards fulfilled). The placements made fix the supply position,
  since a solo baker draws once per placement while the supply lasts; the cards
  fulfilled fix the deck position;
- a placement puts a hand piece of some kind on a plate whose top has its flavour or
  its candles (the Sachertorte fits anywhere and takes anything), draws, then fulfils
  every displayed card the tops meet, refilling from the deck; refills chain. Which
  cards a board meets comes from ``cards.met_table``, computed by ``cards.card_met``;
- the game is won when every card is fulfilled and lost when the hand is empty or no
  hand piece fits.

The score is the rules' (10 per card, the level's win bonus and 1 per supply piece left
on a win; a lost game keeps only its cards' points), so every win beats every loss and a
shorter win beats a longer one. The search is depth first over placements, the ones
that fulfil most cards first, with a global best score: a state is entered once (its
value does not depend on how it was reached, so a second visit cannot beat the best
found from the first), and a state is cut off when even a win at the next placement
could not beat the best. A node budget stops the search; the answer then says it is the
best found so far, not proven.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from cakesim.games.speedtorte.cards import boards_met
from cakesim.games.speedtorte.pieces import PIECE_TYPES
from cakesim.games.speedtorte.reference import Game
from cakesim.games.speedtorte.rules import TableRules

DEFAULT_BUDGET = 200_000
"""States the search may enter before it stops with the best line found so far."""
BEAM = 256
"""States per placement the quick first pass keeps."""
MAX_COVER_CARDS = 16
"""Up to this many cards, the bound counts how many boards must meet the cards left."""


def _distances(local: np.ndarray, i: int) -> bytes:
    """Per board, the fewest top pieces that must change for card ``i`` to be met (0-4)."""
    shape = (PIECE_TYPES,) * 4
    reach = ((local >> i) & 1).astype(bool).reshape(shape)
    distance = np.where(reach, 0, 4).astype(np.uint8)
    for d in range(1, 4):
        wider = reach.copy()
        for axis in range(4):
            wider |= reach.any(axis=axis, keepdims=True)
        distance[wider & ~reach] = d
        reach = wider
    return distance.reshape(-1).tobytes()


def _cover_numbers(local: np.ndarray, n: int) -> list[int]:
    """Per set of cards (bitmask), the fewest boards that together meet every one of them."""
    realised = np.unique(local)
    maximal = [int(m) for m in realised
               if not any(int(o) != int(m) and int(o) | int(m) == int(o) for o in realised)]

    def subsets(sets: np.ndarray) -> np.ndarray:
        for bit in range(n):
            where = np.nonzero(sets)[0]
            sets[where & ~(1 << bit)] = True
        return sets

    cover = np.full(1 << n, n + 1, dtype=np.int64)
    reach = np.zeros(1 << n, dtype=bool)
    reach[0] = True
    for k in range(n + 1):
        cover[reach & (cover > n)] = k
        if reach[-1]:
            break
        where = np.nonzero(reach)[0]
        wider = reach.copy()
        for m in maximal:
            wider[where | m] = True
        reach = subsets(wider)
    return cover.tolist()


@dataclass(frozen=True)
class Puzzle:
    """A solo deal after setup, as the solver sees it: everything is known."""

    tops: tuple[int, ...]
    """The top piece of each plate (piece-type codes)."""
    hand: tuple[int, ...]
    supply: tuple[int, ...]
    """The supply in draw order."""
    display: tuple[int, ...]
    """The displayed cards after setup (catalogue indices), -1 for an empty slot."""
    queue: tuple[int, ...]
    """The deck after setup, top first: refills come from here in this order."""
    under_at_setup: tuple[int, ...]
    """Cards met at setup that went under the deck."""
    card_points: tuple[int, ...]
    """Points of every catalogue card."""
    win_bonus: int
    record_hunt_piece: int
    to_fulfil: int

    @property
    def cards(self) -> tuple[int, ...]:
        """The level's cards: the displayed ones, then the deck in order."""
        return tuple(c for c in self.display if c >= 0) + self.queue


def puzzle(table: TableRules, seed: int, index: int = 0) -> Puzzle:
    """The deal of game ``index`` of ``seed`` at a solo ``table``, set up by ``reference.Game``."""
    a = table.arrays
    if table.players != 1 or a["rush_every"] > 0:
        raise ValueError("the solver plays the solo game without special orders")
    game = Game(table, [], seed, index)
    game.lay_out()
    game.open_order_cards()
    return Puzzle(
        tops=tuple(int(t) for t in game.tops),
        hand=tuple(int(t) for t in game.hands[0, :game.hand_counts[0]]),
        supply=tuple(int(t) for t in game.pieces[game.drawn:]),
        display=tuple(int(c) for c in game.display),
        queue=tuple(int(c) for c in game.queue),
        under_at_setup=tuple(int(c) for c in game.under_at_setup),
        card_points=tuple(int(p) for p in a["card_points"]),
        win_bonus=int(a["win_bonus"]), record_hunt_piece=int(a["record_hunt_piece"]),
        to_fulfil=int(a["cards_to_fulfil"]))


@dataclass(frozen=True)
class Step:
    """One placement of a line and what it caused."""

    piece: int
    plate: int
    drew: int | None
    fulfilled: tuple[int, ...]
    """Cards fulfilled by this placement, in the order the reference engine checks them."""


@dataclass
class Solution:
    """The solver's answer for a puzzle."""

    won: bool
    """Whether the best line wins (if ``proven``: whether the deal can be won at all)."""
    score: int
    fulfilled: int
    to_fulfil: int
    supply_left: int
    """Supply pieces left at the end of the best line."""
    line: list[Step]
    states: int
    """States the search entered (the beam's and the branch and bound's)."""
    seconds: float
    proven: bool
    """False if the node budget stopped the search: the best found, not necessarily best."""
    budget: int
    stuck: bool = False
    """How a lost line ends: the counter stands still (True) or the hand ran empty."""
    cards: tuple[int, ...] = field(default=())


class _Stop(Exception):
    """The node budget is spent."""


class _Search:
    """Depth-first search with a visited set and a global best score."""

    def __init__(self, p: Puzzle, flavour: np.ndarray, candles: np.ndarray, sacher: int,
                 met: np.ndarray, budget: int):
        self.p = p
        self.budget = budget
        self.cards = p.cards
        self.shown = sum(1 for c in p.display if c >= 0)
        self.n = len(self.cards)
        self.points = [p.card_points[c] for c in self.cards]
        self.all_points = sum(self.points)
        self.supply = p.supply
        # Which of the level's cards each board meets, as a bitmask over self.cards.
        local = np.zeros(met.shape[0], dtype=np.int64)
        for i, card in enumerate(self.cards):
            bit = (met[:, card >> 6] >> np.uint64(card & 63)) & np.uint64(1)
            local |= bit.astype(np.int64) << i
        self.met = local.tolist()
        self.distance = [_distances(local, i) for i in range(self.n)]
        self.cover = _cover_numbers(local, self.n) if self.n <= MAX_COVER_CARDS else None
        self.full = (1 << self.n) - 1
        # fits[piece][top]: the piece may go on a plate with that top piece.
        self.fits = [[piece == sacher or top == sacher or flavour[piece] == flavour[top]
                      or candles[piece] == candles[top] for top in range(PIECE_TYPES)]
                     for piece in range(PIECE_TYPES)]
        self.seen: set = set()
        self.states = 0
        self.beam_states = 0
        self.best = -1
        self.best_line: list[tuple[int, int]] = []
        self.best_won = False
        self.best_moves = 0
        self.path: list[tuple[int, int]] = []

    # -- the rules, compactly -----------------------------------------------------------

    def fulfil(self, board: int, display: int, done: int, points: int):
        """Fulfil every displayed card met on ``board``, refilling from the deck; chains."""
        met = self.met[board]
        hit = display & met
        while hit:
            bit = hit & -hit
            i = bit.bit_length() - 1
            display ^= bit
            points += self.points[i]
            if self.shown + done < self.n:
                display |= 1 << (self.shown + done)
            done += 1
            hit = display & met
        return display, done, points

    def moves_needed(self, board: int, display: int, done: int) -> int:
        """A lower bound on the placements still needed to win (at least one)."""
        need = 1
        left = display
        while left:
            bit = left & -left
            left ^= bit
            need = max(need, self.distance[bit.bit_length() - 1][board])
        if self.cover is not None:
            unseen = self.full & ~((1 << min(self.n, self.shown + done)) - 1)
            need = max(need, self.cover[display | unseen])
        return need

    def score(self, won: bool, moves: int, points: int) -> int:
        """The rules' score: cards' points, and on a win the bonus and the supply left."""
        if not won:
            return points
        left = max(0, len(self.supply) - moves)
        return points + self.p.win_bonus + self.p.record_hunt_piece * left

    def children(self, moves: int, hand: tuple, tops: tuple, display: int, done: int,
                 points: int) -> list:
        """Every distinct placement and the state after it, most cards fulfilled first."""
        drew = self.supply[moves] if moves < len(self.supply) else None
        out = []
        for k in sorted(set(hand)):
            rest = list(hand)
            rest.remove(k)
            if drew is not None:
                rest.append(drew)
            rest = tuple(sorted(rest))
            fits = self.fits[k]
            for plate in range(4):
                if not fits[tops[plate]]:
                    continue
                new = (*tops[:plate], k, *tops[plate + 1:])
                board = ((new[0] * PIECE_TYPES + new[1]) * PIECE_TYPES + new[2]) \
                    * PIECE_TYPES + new[3]
                d, n_done, pts = self.fulfil(board, display, done, points)
                need = 0 if n_done >= self.n else self.moves_needed(board, d, n_done)
                out.append((need, done - n_done, k, plate, rest, new, d, n_done, pts))
        out.sort()
        return out

    # -- the search ---------------------------------------------------------------------

    def visit(self, moves: int, hand: tuple, tops: tuple, display: int, done: int,
              points: int, need: int, limit: int) -> None:
        """Search every line from this state that could win within ``limit`` placements.

        The state is entered for the first time in this pass. ``need`` is the bound on the
        placements still needed to win; lines that cannot beat the best score are cut off.
        """
        self.states += 1
        if self.states > self.budget:
            raise _Stop
        if moves + need > limit or self.score(True, moves + need, self.all_points) <= self.best:
            return
        children = self.children(moves, hand, tops, display, done, points)
        if not children:
            self.finish(False, moves, points)  # the counter stands still
            return
        for child_need, _, k, plate, rest, new, d, n_done, pts in children:
            self.path.append((k, plate))
            if n_done >= self.n or not rest:
                self.finish(n_done >= self.n, moves + 1, pts)
            else:
                key = (moves + 1, rest, new, d, n_done)
                if key not in self.seen:
                    self.seen.add(key)
                    self.visit(moves + 1, rest, new, d, n_done, pts, child_need, limit)
            self.path.pop()
            if self.best >= self.score(True, moves + need, self.all_points):
                return

    def finish(self, won: bool, moves: int, points: int) -> None:
        """A line ended: keep it if it scores best."""
        value = self.score(won, moves, points)
        if value > self.best:
            self.best = value
            self.best_line = list(self.path)
            self.best_won = won
            self.best_moves = moves

    def beam(self, hand: tuple, tops: tuple, display: int, need: int) -> None:
        """A quick first line: placement by placement, keep the ``BEAM`` most promising states.

        Promising: most cards fulfilled, then the smallest bound on placements still needed.
        Every line it ends (won or lost) is offered to ``finish``; the shortest win found
        gives the exact search its first bound.
        """
        layer = [((0, need), hand, tops, display, 0, 0, ())]
        for moves in range(len(hand) + len(self.supply)):
            following = {}
            for _, hand_, tops_, display_, done, points, line in layer:
                children = self.children(moves, hand_, tops_, display_, done, points)
                if not children:
                    self.path = list(_unchain(line))
                    self.finish(False, moves, points)
                for child_need, _, k, plate, rest, new, d, n_done, pts in children:
                    self.beam_states += 1
                    chained = (line, (k, plate))
                    if n_done >= self.n or not rest:
                        self.path = list(_unchain(chained))
                        self.finish(n_done >= self.n, moves + 1, pts)
                        continue
                    key = (rest, new, d, n_done)
                    if key not in following:
                        following[key] = ((-n_done, child_need), rest, new, d, n_done, pts,
                                          chained)
            if self.best_won or not following:
                break
            layer = sorted(following.values(), key=lambda s: s[0])[:BEAM]
        self.path = []

    def run(self, hand: tuple, tops: tuple, display: int) -> bool:
        """Search from the setup; True if the best line is proven best.

        First a beam search finds a good line quickly (``beam``). Then a depth-first
        branch and bound over every line that could still beat the best score, placements
        with the smallest bound first: a win found shortens what is left to search. When
        it ends within the budget, the best line is proven best; with no win, that settles
        that the deal cannot be won and the most points a lost game can make.
        """
        board = ((tops[0] * PIECE_TYPES + tops[1]) * PIECE_TYPES + tops[2]) * PIECE_TYPES \
            + tops[3]
        need = self.moves_needed(board, display, 0)
        self.beam(hand, tops, display, need)
        self.visit(0, hand, tops, display, 0, 0, need, len(hand) + len(self.supply))
        return True


def _unchain(chain: tuple) -> list:
    """The placements of a line kept as nested pairs ``(earlier, last)``."""
    out = []
    while chain:
        chain, last = chain
        out.append(last)
    return out[::-1]


def replay(p: Puzzle, placements: list[tuple[int, int]], flavour, candles, sacher,
           met_of_card) -> tuple[list[Step], int, int, bool, bool]:
    """Step a line of ``(piece, plate)`` placements slot by slot as ``reference.Game`` does.

    Returns the steps, the points, the cards fulfilled, whether it won and whether the
    counter stood still at its end. ``met_of_card(card, tops)`` says whether a card is met.
    """
    tops = list(p.tops)
    hand = list(p.hand)
    display = list(p.display)
    queue = list(p.queue)
    drawn = done = points = 0
    steps = []
    for piece, plate in placements:
        top = tops[plate]
        assert piece in hand, "the piece is not in the hand"
        assert (piece == sacher or top == sacher or flavour[piece] == flavour[top]
                or candles[piece] == candles[top]), "illegal placement"
        tops[plate] = piece
        hand.remove(piece)
        drew = None
        if drawn < len(p.supply):
            drew = p.supply[drawn]
            hand.append(drew)
            drawn += 1
        fulfilled = []
        changed = True
        while changed:
            changed = False
            for slot, card in enumerate(display):
                if card < 0 or not met_of_card(card, tops):
                    continue
                fulfilled.append(card)
                done += 1
                points += p.card_points[card]
                display[slot] = queue.pop(0) if queue else -1
                changed = True
        steps.append(Step(piece, plate, drew, tuple(fulfilled)))
        if done >= p.to_fulfil:
            break
    won = done >= p.to_fulfil
    stuck = not won and bool(hand) and not any(
        piece == sacher or top == sacher or flavour[piece] == flavour[top]
        or candles[piece] == candles[top] for piece in hand for top in tops)
    return steps, points, done, won, stuck


def solve_puzzle(table: TableRules, p: Puzzle, budget: int = DEFAULT_BUDGET) -> Solution:
    """The best score over every legal line of a solo puzzle, and a line that reaches it."""
    a = table.arrays
    flavour = [int(f) for f in a["type_flavour"]]
    candles = [int(c) for c in a["type_candles"]]
    sacher = int(a["sacher"])
    met = boards_met(table.rules.catalogue, a["plates"])
    if a["plates"] != 4:
        raise ValueError("the solver assumes four plates")
    start = time.perf_counter()
    search = _Search(p, flavour, candles, sacher, met, budget)
    try:
        proven = search.run(tuple(sorted(p.hand)), tuple(p.tops), (1 << search.shown) - 1)
    except _Stop:
        proven = False
        search.states = budget
    states = search.states + search.beam_states
    seconds = time.perf_counter() - start

    def met_of_card(card: int, tops: list[int]) -> bool:
        board = ((tops[0] * PIECE_TYPES + tops[1]) * PIECE_TYPES + tops[2]) * PIECE_TYPES \
            + tops[3]
        return bool((met[board, card >> 6] >> np.uint64(card & 63)) & np.uint64(1))

    steps, points, done, won, stuck = replay(p, search.best_line, flavour, candles, sacher,
                                             met_of_card)
    moves = len(steps)
    left = max(0, len(p.supply) - moves)
    score = search.score(won, moves, points)
    assert score == search.best, "the replayed line scores what the search found"
    return Solution(won, score, done, p.to_fulfil, left, steps, states, seconds,
                    proven, budget, stuck, p.cards)


def solve(table: TableRules, seed: int, index: int = 0,
          budget: int = DEFAULT_BUDGET) -> Solution:
    """Solve game ``index`` of ``seed`` at a solo ``table``."""
    return solve_puzzle(table, puzzle(table, seed, index), budget)
