"""A perfect-information solver for Speedtorte: the best score of a known deal.

RULES.md section 3, turn mode without special orders, solo ("Rekordjagd") or a team of
2-5 bakers. Knowing the whole draw order and, at a team table, every hand, which
placements win, and with how many supply pieces left? For a team this is what the deal
allows: an upper bound for bakers who may not show each other their hands. The setup is
read off ``reference.Game`` (plates, hands, supply, display, the deck after the cards met
at setup went under), so both engines start from the same position; after that the
solver steps the game itself, compactly:

- a state is (placements made, every hand as a sorted multiset, the baker to move (turn
  order only), the four top pieces, the displayed cards, the cards fulfilled). The
  placements made fix the supply position, since the baker who places draws once while
  the supply lasts; the cards fulfilled fix the deck position and the points;
- a placement puts a hand piece of some kind on a plate whose top has its flavour or
  its candles (the Sachertorte fits anywhere and takes anything), the placing baker
  draws, then every displayed card the tops meet is fulfilled and refilled from the
  deck; refills chain. Which cards a board meets comes from ``cards.met_table``,
  computed by ``cards.card_met``;
- in turn order ("turns", the rules' "der Reihe nach") the bakers place in seat order and
  a baker with an empty hand is skipped. In free order ("free") any baker holding pieces
  may place next: the Eilauftrag has no turn order, so this is its bound when time is
  ignored. Free order allows every turn-order line, so it wins at least as often; its
  bakers are interchangeable, so a free-order state keeps the hands as a multiset;
- the game is won when every card is fulfilled and lost when the baker to move holds
  pieces of which none fits (in free order: when no baker's piece fits), or when every
  hand is empty.

The score is the rules' (10 per card, the level's win bonus, and solo 1 per supply piece
left on a win; a lost game keeps only its cards' points), so every win beats every loss
and a solo baker's shorter win beats a longer one. A team's wins all score the same, so
its first win found is proven best. A beam search first finds a good line quickly (for a
team at the published levels, nearly always a win). The search proper is depth first
over placements, the ones with the smallest bound on the placements still needed to win
first, then those that fulfil most cards, with a global best score: a state is entered
once (its value does not depend on how it was reached, so a second visit cannot beat the
best found from the first), and a state is cut off when even a win at the next placement
could not beat the best. A node budget stops the search; the answer then says it is the
best found so far, not proven. ``upper_bound`` counts over many deals how many are won,
proven lost, or left open by the budget: the share of winnable deals lies between the
first and the first plus the last.
"""

import gc
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
ORDERS = ("turns", "free")
"""Who may place next: the baker whose turn it is (seat order), or any baker with pieces."""
_PLATE_WEIGHT = (PIECE_TYPES ** 3, PIECE_TYPES ** 2, PIECE_TYPES, 1)
"""A board code is the four top pieces as digits in base ``PIECE_TYPES``, plate 1 first."""


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


@dataclass(frozen=True, init=False)
class Puzzle:
    """A deal after setup, as the solver sees it: everything is known, every hand too."""

    tops: tuple[int, ...]
    """The top piece of each plate (piece-type codes)."""
    hands: tuple[tuple[int, ...], ...]
    """Every baker's hand, in seat order (baker 0 places first)."""
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

    def __init__(self, *, tops: tuple[int, ...], supply: tuple[int, ...],
                 display: tuple[int, ...], queue: tuple[int, ...],
                 under_at_setup: tuple[int, ...], card_points: tuple[int, ...],
                 win_bonus: int, record_hunt_piece: int, to_fulfil: int,
                 hands: tuple[tuple[int, ...], ...] | None = None,
                 hand: tuple[int, ...] | None = None):
        """Give ``hands``, or for a solo deal ``hand``; ``hand`` wins if both are given.

        A ``hand`` keyword is what lets ``dataclasses.replace(p, hand=...)`` give a solo
        puzzle a new hand (``replace`` passes the old ``hands`` along with it).
        """
        if hand is not None:
            if hands is not None and len(hands) > 1:
                raise ValueError("a team puzzle has several hands: give hands, not hand")
            hands = (tuple(hand),)
        if not hands:
            raise TypeError("a puzzle needs hands (or a solo hand)")
        values = {"tops": tops, "hands": tuple(tuple(h) for h in hands), "supply": supply,
                  "display": display, "queue": queue, "under_at_setup": under_at_setup,
                  "card_points": card_points, "win_bonus": win_bonus,
                  "record_hunt_piece": record_hunt_piece, "to_fulfil": to_fulfil}
        for name, value in values.items():
            object.__setattr__(self, name, value)  # the class is frozen

    @property
    def hand(self) -> tuple[int, ...]:
        """The solo baker's hand (a team puzzle has several: use ``hands``)."""
        if len(self.hands) != 1:
            raise ValueError(f"a puzzle of {len(self.hands)} bakers has several hands: "
                             "use .hands")
        return self.hands[0]

    @property
    def players(self) -> int:
        """How many bakers play."""
        return len(self.hands)

    @property
    def cards(self) -> tuple[int, ...]:
        """The level's cards: the displayed ones, then the deck in order."""
        return tuple(c for c in self.display if c >= 0) + self.queue


def puzzle(table: TableRules, seed: int, index: int = 0) -> Puzzle:
    """The deal of game ``index`` of ``seed`` at ``table``, set up by ``reference.Game``."""
    a = table.arrays
    if a["rush_every"] > 0:
        raise ValueError("the solver plays the game without special orders")
    game = Game(table, [], seed, index)
    game.lay_out()
    game.open_order_cards()
    return Puzzle(
        tops=tuple(int(t) for t in game.tops),
        hands=tuple(tuple(int(t) for t in game.hands[b, :game.hand_counts[b]])
                    for b in range(table.players)),
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
    """The piece the placing baker drew, None once the supply is empty."""
    fulfilled: tuple[int, ...]
    """Cards fulfilled by this placement, in the order the reference engine checks them."""
    baker: int = 0
    """Who placed (seat number; always 0 solo)."""


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
    """How a lost line ends: the counter stands still (True) or the hands ran empty."""
    cards: tuple[int, ...] = field(default=())
    order: str = "turns"
    """Who may place next: "turns" (seat order) or "free" (any baker holding pieces)."""


class _Stop(Exception):
    """The node budget is spent."""


def _next_baker(hands: tuple, baker: int) -> int:
    """The next baker after ``baker`` in seat order who holds pieces (itself last); -1 if none."""
    players = len(hands)
    for step in range(1, players + 1):
        other = (baker + step) % players
        if hands[other]:
            return other
    return -1


class _Search:
    """Depth-first search with a visited set and a global best score."""

    def __init__(self, p: Puzzle, flavour: list[int], candles: list[int], sacher: int,
                 met: np.ndarray, budget: int, order: str):
        self.p = p
        self.budget = budget
        self.free = order == "free"
        self.cards = p.cards
        self.shown = sum(1 for c in p.display if c >= 0)
        self.n = len(self.cards)
        self.points = [p.card_points[c] for c in self.cards]
        self.all_points = sum(self.points)
        self.supply = p.supply
        # A game lasts at most one placement per piece in a hand or in the supply.
        self.pieces = sum(len(h) for h in p.hands) + len(p.supply)
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
        self.best_line: list[tuple[int, int, int]] = []
        self.best_won = False
        self.best_moves = 0
        self.path: list[tuple[int, int, int]] = []

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
        distance = self.distance
        left = display
        while left:
            bit = left & -left
            left ^= bit
            far = distance[bit.bit_length() - 1][board]
            if far > need:
                need = far
        if self.cover is not None:
            unseen = self.full & ~((1 << min(self.n, self.shown + done)) - 1)
            cover = self.cover[display | unseen]
            if cover > need:
                need = cover
        return need

    def score(self, won: bool, moves: int, points: int) -> int:
        """The rules' score: cards' points, and on a win the bonus and the supply left."""
        if not won:
            return points
        left = max(0, len(self.supply) - moves)
        return points + self.p.win_bonus + self.p.record_hunt_piece * left

    def key(self, free: bool, moves: int, hands: tuple, mover: int, tops: tuple,
            display: int, done: int) -> tuple:
        """The visited-set key of a state (the points follow from the display and done).

        In free order no baker is to move and the bakers are interchangeable, so the
        hands count as a multiset: a state and its reseated copies are one state.
        """
        if free:
            return moves, tuple(sorted(hands)), tops, display, done
        return moves, hands, mover, tops, display, done

    def children(self, free: bool, moves: int, hands: tuple, mover: int, tops: tuple,
                 display: int, done: int, points: int) -> list:
        """Every distinct placement and the state after it, most cards fulfilled first.

        In free order every baker holding pieces may place, else only ``mover``.
        A child is ``(need, -cards fulfilled, piece, plate, baker, hands, next baker,
        tops, display, done, points)``; the next baker is -1 when every hand is empty.
        """
        drew = self.supply[moves] if moves < len(self.supply) else None
        if free:
            # Two bakers with the same hand have the same placements, up to reseating.
            bakers, held = [], set()
            for b, hand in enumerate(hands):
                if hand and hand not in held:
                    held.add(hand)
                    bakers.append(b)
        else:
            bakers = [mover]
        solo = len(hands) == 1
        fulfil, moves_needed, n, fits = self.fulfil, self.moves_needed, self.n, self.fits
        board = ((tops[0] * PIECE_TYPES + tops[1]) * PIECE_TYPES + tops[2]) * PIECE_TYPES \
            + tops[3]
        out = []
        for b in bakers:
            hand = hands[b]
            for k in sorted(set(hand)):
                rest = list(hand)
                rest.remove(k)
                if drew is not None:
                    rest.append(drew)
                rest = tuple(sorted(rest))
                if solo:  # the common case of the daily puzzle, kept quick
                    after, following = (rest,), (0 if rest else -1)
                else:
                    after = (*hands[:b], rest, *hands[b + 1:])
                    following = _next_baker(after, b)
                fits_k = fits[k]
                for plate in range(4):
                    top = tops[plate]
                    if not fits_k[top]:
                        continue
                    new = (*tops[:plate], k, *tops[plate + 1:])
                    new_board = board + (k - top) * _PLATE_WEIGHT[plate]
                    d, n_done, pts = fulfil(new_board, display, done, points)
                    need = 0 if n_done >= n else moves_needed(new_board, d, n_done)
                    out.append((need, done - n_done, k, plate, b, after, following, new, d,
                                n_done, pts))
        out.sort()
        return out

    # -- the search ---------------------------------------------------------------------

    def visit(self, moves: int, hands: tuple, mover: int, tops: tuple, display: int,
              done: int, points: int, need: int, limit: int) -> None:
        """Search every line from this state that could win within ``limit`` placements.

        The state is entered for the first time in this pass. ``need`` is the bound on the
        placements still needed to win; lines that cannot beat the best score are cut off.
        """
        self.states += 1
        if self.states > self.budget:
            raise _Stop
        if moves + need > limit or self.score(True, moves + need, self.all_points) <= self.best:
            return
        children = self.children(self.free, moves, hands, mover, tops, display, done, points)
        if not children:
            self.finish(False, moves, points)  # the counter stands still
            return
        for child_need, _, k, plate, b, after, following, new, d, n_done, pts in children:
            self.path.append((b, k, plate))
            if n_done >= self.n or following < 0:
                self.finish(n_done >= self.n, moves + 1, pts)
            else:
                key = self.key(self.free, moves + 1, after, following, new, d, n_done)
                if key not in self.seen:
                    self.seen.add(key)
                    self.visit(moves + 1, after, following, new, d, n_done, pts, child_need,
                               limit)
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

    def beam(self, hands: tuple, tops: tuple, display: int, need: int, free: bool) -> None:
        """A quick first line: placement by placement, keep the ``BEAM`` most promising states.

        Promising: most cards fulfilled, then the smallest bound on placements still needed.
        Every line it ends (won or lost) is offered to ``finish``; the shortest win found
        gives the exact search its first bound (for a team, the answer). A beam in turn
        order for a free-order search offers only its wins: a turn-order game that stands
        still may go on in free order.
        """
        ends_game = free == self.free
        layer = [((0, need), hands, 0, tops, display, 0, 0, ())]
        for moves in range(self.pieces):
            following = {}
            for _, hands_, mover, tops_, display_, done, points, line in layer:
                children = self.children(free, moves, hands_, mover, tops_, display_, done,
                                         points)
                if not children and ends_game:
                    self.path = list(_unchain(line))
                    self.finish(False, moves, points)
                for child_need, _, k, plate, b, after, nxt, new, d, n_done, pts in children:
                    self.beam_states += 1
                    chained = (line, (b, k, plate))
                    if n_done >= self.n or nxt < 0:
                        if n_done >= self.n or ends_game:
                            self.path = list(_unchain(chained))
                            self.finish(n_done >= self.n, moves + 1, pts)
                        continue
                    key = self.key(free, moves + 1, after, nxt, new, d, n_done)
                    if key not in following:
                        following[key] = ((-n_done, child_need), after, nxt, new, d, n_done,
                                          pts, chained)
            if self.best_won or not following:
                break
            layer = sorted(following.values(), key=lambda s: s[0])[:BEAM]
        self.path = []

    def run(self, hands: tuple, tops: tuple, display: int) -> bool:
        """Search from the setup; True if the best line is proven best.

        First a beam search finds a good line quickly (``beam``); in free order, if it
        finds no win, a beam in turn order tries too, as every turn-order line is a
        free-order line and the narrower beam may reach further. Then a depth-first
        branch and bound over every line that could still beat the best score, placements
        with the smallest bound first: a win found shortens what is left to search. When
        it ends within the budget, the best line is proven best; with no win, that settles
        that the deal cannot be won and the most points a lost game can make.
        """
        board = ((tops[0] * PIECE_TYPES + tops[1]) * PIECE_TYPES + tops[2]) * PIECE_TYPES \
            + tops[3]
        need = self.moves_needed(board, display, 0)
        self.beam(hands, tops, display, need, self.free)
        if self.free and not self.best_won and len(hands) > 1:
            self.beam(hands, tops, display, need, False)
        self.visit(0, hands, 0, tops, display, 0, 0, need, self.pieces)
        return True


def _unchain(chain: tuple) -> list:
    """The placements of a line kept as nested pairs ``(earlier, last)``."""
    out = []
    while chain:
        chain, last = chain
        out.append(last)
    return out[::-1]


def replay(p: Puzzle, placements: list[tuple[int, int, int]], flavour, candles, sacher,
           met_of_card, order: str = "turns") -> tuple[list[Step], int, int, bool, bool]:
    """Step a line of ``(baker, piece, plate)`` placements slot by slot as ``reference.Game``.

    In turn order every placement must be by the baker to move. Returns the steps, the
    points, the cards fulfilled, whether it won and whether the counter stood still at its
    end. ``met_of_card(card, tops)`` says whether a card is met.
    """
    tops = list(p.tops)
    hands = [list(h) for h in p.hands]
    display = list(p.display)
    queue = list(p.queue)
    drawn = done = points = 0
    mover = 0
    steps = []

    def fits(piece: int, top: int) -> bool:
        return (piece == sacher or top == sacher or flavour[piece] == flavour[top]
                or candles[piece] == candles[top])

    for baker, piece, plate in placements:
        assert order == "free" or baker == mover, "not this baker's turn"
        hand = hands[baker]
        assert piece in hand, "the piece is not in the baker's hand"
        assert fits(piece, tops[plate]), "illegal placement"
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
        steps.append(Step(piece, plate, drew, tuple(fulfilled), baker))
        if done >= p.to_fulfil:
            break
        mover = _next_baker(hands, baker)
    won = done >= p.to_fulfil
    # Who could still place: the baker to move, or in free order anyone holding pieces.
    able = [hands[mover]] if order == "turns" and mover >= 0 else hands
    stuck = not won and any(able) and not any(
        fits(piece, top) for hand in able for piece in hand for top in tops)
    return steps, points, done, won, stuck


def solve_puzzle(table: TableRules, p: Puzzle, budget: int = DEFAULT_BUDGET,
                 order: str = "turns") -> Solution:
    """The best score over every legal line of a puzzle, and a line that reaches it."""
    if order not in ORDERS:
        raise ValueError(f"order {order!r} is not one of {', '.join(ORDERS)}")
    a = table.arrays
    flavour = [int(f) for f in a["type_flavour"]]
    candles = [int(c) for c in a["type_candles"]]
    sacher = int(a["sacher"])
    met = boards_met(table.rules.catalogue, a["plates"])
    if a["plates"] != 4:
        raise ValueError("the solver assumes four plates")
    start = time.perf_counter()
    search = _Search(p, flavour, candles, sacher, met, budget, order)
    # The search makes millions of small tuples and no reference cycles: the cyclic
    # garbage collector would only rescan the growing visited set, a quarter of the time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        proven = search.run(tuple(tuple(sorted(h)) for h in p.hands), tuple(p.tops),
                            (1 << search.shown) - 1)
    except _Stop:
        proven = False
        search.states = budget
    finally:
        if collecting:
            gc.enable()
    states = search.states + search.beam_states
    seconds = time.perf_counter() - start

    def met_of_card(card: int, tops: list[int]) -> bool:
        board = ((tops[0] * PIECE_TYPES + tops[1]) * PIECE_TYPES + tops[2]) * PIECE_TYPES \
            + tops[3]
        return bool((met[board, card >> 6] >> np.uint64(card & 63)) & np.uint64(1))

    steps, points, done, won, stuck = replay(p, search.best_line, flavour, candles, sacher,
                                             met_of_card, order)
    moves = len(steps)
    left = max(0, len(p.supply) - moves)
    score = search.score(won, moves, points)
    assert score == search.best, "the replayed line scores what the search found"
    return Solution(won, score, done, p.to_fulfil, left, steps, states, seconds,
                    proven, budget, stuck, p.cards, order)


def solve(table: TableRules, seed: int, index: int = 0, budget: int = DEFAULT_BUDGET,
          order: str = "turns") -> Solution:
    """Solve game ``index`` of ``seed`` at ``table`` (solo or a team, see ``ORDERS``)."""
    return solve_puzzle(table, puzzle(table, seed, index), budget, order)


def upper_bound(table: TableRules, seed: int, games: int, budget: int = DEFAULT_BUDGET,
                order: str = "turns") -> dict:
    """What the deals allow: of games 0..games-1, how many are won, proven lost, left open.

    A win found is certain; a deal the budget stopped without a win ("unproven") may
    still be winnable, so the share of winnable deals lies in [won, won + unproven] /
    games. ``deals`` holds ``(won, proven)`` per game; ``seconds`` is the total time.
    """
    start = time.perf_counter()
    deals = []
    for index in range(games):
        s = solve(table, seed, index, budget, order)
        deals.append((s.won, s.proven))
    return {
        "games": games, "order": order, "budget": budget,
        "won": sum(won for won, _ in deals),
        "proven_won": sum(won and proven for won, proven in deals),
        "proven_lost": sum(not won and proven for won, proven in deals),
        "unproven": sum(not won and not proven for won, proven in deals),
        "deals": deals, "seconds": time.perf_counter() - start,
    }
