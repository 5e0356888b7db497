"""The Speedtorte reference engine, turn mode: the rules as readable Python, with a move log.

Each method is one step of RULES.md section 3. The bakers' decisions are the pure-Python
versions (``.py_func``) of the functions the kernel compiles, so the two engines can be
compared game for game while this one stays plain Python throughout.
"""

from dataclasses import dataclass, field

import numpy as np

from cakesim.engine.seeding import DECISION_STREAM, new_stream
from cakesim.games.speedtorte import planner
from cakesim.games.speedtorte import strategies as bots
from cakesim.games.speedtorte.cards import card_met
from cakesim.games.speedtorte.rules import TableRules
from cakesim.games.speedtorte.steps import (
    COUNTERS,
    DONE,
    DRAWN,
    HEAD,
    INCOMING,
    MISSED,
    MOVES,
    POINTS,
    RESERVE,
    TAIL,
    TO_FULFIL,
    Board,
    GameState,
    Rules,
    deal,
    lognormal_noise,
)
from cakesim.games.speedtorte.strategies import Baker

ENDINGS = ("won", "the counter stands still", "all hands are empty")


@dataclass
class Fulfilment:
    """An order card fulfilled; ``chain`` counts the cards fulfilled before it this move."""

    slot: int
    card: int
    chain: int
    waited: int
    """Placements since the card was put on display."""
    refill: int | None = None
    """The card that took its place on the display, if the deck had one."""
    rush: bool = False
    """Whether the new card is a rush card."""


@dataclass
class Move:
    """One placement and everything it caused."""

    number: int
    baker: int
    piece: int
    plate: int
    reason: tuple[int, int, int]
    """``(reason code, card slot, detail)`` as ``strategies.choose_move`` gives it."""
    options: int
    """Legal placements the baker had."""
    drew: int | None
    fulfilled: list[Fulfilment] = field(default_factory=list)
    expired: list[int] = field(default_factory=list)
    """Cards whose rush deadline passed at this move."""
    signal: tuple[int, int] | None = None
    withdrawn: list[int] = field(default_factory=list)
    """Bakers who took back a signal no longer true after this placement."""
    time: float = 0.0
    """Eilauftrag: seconds on the clock when the piece landed."""


@dataclass
class Result:
    """A finished game: how it ended, points, and the move log."""

    ending: int
    score: int
    moves: int
    fulfilled: int
    to_fulfil: int
    supply_left: int
    rushes_missed: int
    setup: dict
    log: list[Move]
    stuck: dict | None = None
    """On a loss: who was to move, their hand, the tops, the displayed cards."""
    seconds: float = 0.0
    """Eilauftrag: seconds on the clock at the end."""
    rejected: list[tuple[float, int, int]] = field(default_factory=list)
    """Eilauftrag: ``(time, baker, plate)`` of every placement rejected because the plate
    had just changed."""


class Game:
    """One game of Speedtorte in turn mode at a table."""

    def __init__(self, table: TableRules, bakers: list[Baker], seed: int, index: int):
        self.table = table
        self.a = table.arrays
        self.bakers = bakers
        self.params = Baker.arrays(bakers)[0] if bakers else np.zeros((0, 1))
        self.players = table.players
        self.stream = new_stream(np.uint64(seed), index, DECISION_STREAM)
        self.rules = Rules.of_table(self.a)
        self.pieces, self.deck = deal.py_func(np.uint64(seed), index, self.a["box"],
                                              self.a["pool"], self.a["sachertorte"],
                                              table.dealt_out)
        self.log: list[Move] = []
        self.plan = planner.new_plan(self.players, self.a["hand_size"], self.a["plates"],
                                     self.a["displayed"], len(self.pieces), len(self.a["pool"]),
                                     len(self.a["card_points"]))

    # -- setup (RULES.md 3, "Setup") ---------------------------------------------------

    def lay_out(self) -> None:
        """Four pieces face up as plates 1-4; each baker takes a hand; the rest (with the
        Sachertorte, which ``deal`` put among it) is the supply."""
        plates, hand = self.a["plates"], self.a["hand_size"]
        self.tops = np.array(self.pieces[:plates], dtype=np.int8)
        self.hands = np.full((self.players, hand), -1, np.int8)
        self.hand_counts = np.zeros(self.players, np.int64)
        drawn = plates
        for b in range(self.players):
            self.hands[b] = self.pieces[drawn:drawn + hand]
            self.hand_counts[b] = hand
            drawn += hand
        self.drawn = drawn

    def open_order_cards(self) -> None:
        """The level's cards form the deck; four go on display, met ones under the deck."""
        n = self.a["cards_to_fulfil"]
        self.queue = list(self.deck[:n])
        self.reserve = n
        self.to_fulfil = n
        self.display = np.full(self.a["displayed"], -1, np.int16)
        self.shown_at = [0] * self.a["displayed"]
        self.rush_deadline = [0] * self.a["displayed"]
        self.under_at_setup = []
        for slot in range(self.a["displayed"]):
            while self.queue:
                card = self.queue.pop(0)
                # A card met at setup goes under the deck once; met again, it stays.
                if card in self.under_at_setup or not self.is_met(card):
                    self.display[slot] = card
                    break
                self.queue.append(card)
                self.under_at_setup.append(card)
        self.signals = np.zeros(self.players, np.int8)
        self.signal_args = np.zeros(self.players, np.int8)
        self.done = self.points = self.moves = self.incoming = self.missed = 0

    # -- the rules' checks --------------------------------------------------------------

    def is_met(self, card: int) -> bool:
        """Only the four top pieces count, and the card's text is exact."""
        flavour = self.a["type_flavour"][self.tops]
        candles = self.a["type_candles"][self.tops]
        return bool(card_met.py_func(self.a["program"], card, flavour, candles))

    def fits(self, piece: int, top: int) -> bool:
        """Same flavour or same candles; the Sachertorte fits everywhere and takes anything."""
        return bool(bots.fits.py_func(piece, top, self.a["type_flavour"],
                                      self.a["type_candles"], self.a["sacher"]))

    def legal_placements(self, baker: int) -> list[tuple[int, int]]:
        """Every (hand slot, plate) where the piece fits the plate's top piece."""
        return [(i, p) for i in range(self.hand_counts[baker])
                for p in range(self.a["plates"]) if self.fits(self.hands[baker, i], self.tops[p])]

    def next_with_pieces(self, baker: int) -> int:
        """The next baker after ``baker`` who still holds pieces."""
        for step in range(1, self.players + 1):
            other = (baker + step) % self.players
            if self.hand_counts[other] > 0:
                return other
        return -1

    @property
    def board(self) -> Board:
        """What the bakers see, as the decision functions read it (``steps.Board``)."""
        return Board(self.hands, self.hand_counts, self.tops, self.display, self.signals,
                     self.signal_args)

    # -- a turn (RULES.md 3, "Turn") ----------------------------------------------------

    def choose(self, baker: int, most_patience: float = 0.0
               ) -> tuple[int, int, tuple[int, int, int], float]:
        """The baker's placement, its reason and its worth, from what the baker may see;
        ``most_patience`` caps its patience (the Eilauftrag's waiting; 0: it never waits).

        The lookahead baker's play-outs run the kernel's compiled steps on the kernel's
        state (``kernel_state``): in plain Python one decision would take seconds. It
        skips its search when it would wait whatever the search picked.
        """
        if self.params[baker, 0] == bots.LOOKAHEAD:
            slot, plate, reason, card_slot, detail, worth = planner.lookahead_move(
                baker, self.kernel_state(), self.rules, self.params, self.plan,
                self.a["timing"], most_patience)
        else:
            slot, plate, reason, card_slot, detail, worth = bots.choose_move.py_func(
                self.params[baker], baker, self.board, self.rules,
                self.next_with_pieces(baker), self.a["mode"] == 2, self.stream)
        return int(slot), int(plate), (int(reason), int(card_slot), int(detail)), worth

    def kernel_state(self) -> GameState:
        """This game's state as the kernel holds it (``steps.GameState``), for the lookahead."""
        a = self.a
        count = np.zeros(COUNTERS, np.int64)
        (count[HEAD], count[TAIL], count[RESERVE], count[TO_FULFIL], count[DONE], count[MOVES],
         count[INCOMING], count[MISSED], count[POINTS], count[DRAWN]) = (
            0, len(self.queue), self.reserve, self.to_fulfil, self.done, self.moves,
            self.incoming, self.missed, self.points, self.drawn)
        queue = np.zeros(2 * len(a["pool"]) + a["displayed"], np.int16)
        queue[:len(self.queue)] = self.queue
        cards = len(a["card_points"])
        return GameState(self.board, self.pieces, self.deck, queue,
                         np.array(self.shown_at, np.int64),
                         np.array(self.rush_deadline, np.int64), count, self.stream,
                         np.zeros(self.players), np.zeros(self.players),
                         np.zeros((self.players, 2), np.int64), np.zeros(a["plates"]),
                         *(np.zeros(cards, np.int16) for _ in range(3)))

    def place(self, baker: int, slot: int, plate: int) -> int:
        """Put the hand piece on the plate; it becomes the plate's top piece."""
        piece = int(self.hands[baker, slot])
        assert self.fits(piece, self.tops[plate]), "illegal placement"
        self.tops[plate] = piece
        last = self.hand_counts[baker] - 1
        self.hands[baker, slot] = self.hands[baker, last]
        self.hands[baker, last] = -1
        self.hand_counts[baker] = last
        self.moves += 1
        return piece

    def draw(self, baker: int) -> int | None:
        """Draw one piece from the supply while it lasts."""
        if self.drawn >= len(self.pieces):
            return None
        piece = int(self.pieces[self.drawn])
        self.hands[baker, self.hand_counts[baker]] = piece
        self.hand_counts[baker] += 1
        self.drawn += 1
        return piece

    def check_order_cards(self, move: Move) -> None:
        """Every displayed card met by the tops is fulfilled and refilled; refills chain."""
        changed = True
        while changed:
            changed = False
            for slot in range(self.a["displayed"]):
                card = int(self.display[slot])
                if card < 0 or not self.is_met(card):
                    continue
                fulfilment = Fulfilment(slot, card, len(move.fulfilled),
                                        self.moves - self.shown_at[slot])
                move.fulfilled.append(fulfilment)
                self.done += 1
                self.points += int(self.a["card_points"][card])
                self.display[slot] = -1
                self.rush_deadline[slot] = 0
                if self.queue:
                    self.refill(slot, fulfilment)
                changed = True

    def refill(self, slot: int, fulfilment: Fulfilment) -> None:
        """The next deck card comes onto the display; every ``rush_every``-th is a rush card."""
        self.display[slot] = self.queue.pop(0)
        self.shown_at[slot] = self.moves
        self.incoming += 1
        fulfilment.refill = int(self.display[slot])
        fulfilment.rush = self.a["rush_every"] > 0 and self.incoming % self.a["rush_every"] == 0
        if fulfilment.rush:
            self.rush_deadline[slot] = self.moves + self.a["rush_moves"]

    def expire_rush_cards(self, move: Move) -> None:
        """A rush card not met in time stays as a normal card; one more card goes under."""
        for slot in range(self.a["displayed"]):
            if 0 < self.rush_deadline[slot] <= self.moves:
                self.rush_deadline[slot] = 0
                self.missed += 1
                move.expired.append(int(self.display[slot]))
                if self.reserve < len(self.deck):
                    self.queue.append(int(self.deck[self.reserve]))
                    self.reserve += 1
                    self.to_fulfil += 1

    def give_signal(self, baker: int) -> tuple[int, int] | None:
        """After placing, the baker's old signal ends and it may give a new one."""
        if self.a["mode"] == 1:
            self.signals[baker] = bots.NO_SIGNAL
            return None
        signal, arg = bots.choose_signal.py_func(self.params[baker], baker, self.board,
                                                 self.rules)
        self.signals[baker], self.signal_args[baker] = signal, arg
        return int(signal), int(arg)

    def withdraw_signals(self, baker: int, move: Move) -> None:
        """Every other baker takes back a "can help" or "don't cover" signal that the
        placement made untrue ("withdraw"), if its strategy does."""
        if self.a["mode"] == 1:
            return
        for other in range(self.players):
            if (other != baker and self.params[other, bots.W_WITHDRAW] > 0
                    and self.signals[other] != bots.NO_SIGNAL
                    and not bots.signal_stands.py_func(other, self.board, self.rules)):
                self.signals[other] = bots.NO_SIGNAL
                move.withdrawn.append(other)

    # -- the whole game -----------------------------------------------------------------

    def play(self) -> Result:
        """Turns until every card is fulfilled, the counter stands still or hands run out."""
        self.lay_out()
        self.open_order_cards()
        setup = {"tops": self.tops.tolist(), "hands": self.hands.tolist(),
                 "display": self.display.tolist(), "under": list(self.under_at_setup)}
        baker, ending, stuck = 0, 2, None
        while True:
            if self.hand_counts.sum() == 0:
                ending = 2
                break
            while self.hand_counts[baker] == 0:
                baker = (baker + 1) % self.players
            options = len(self.legal_placements(baker))
            slot, plate, reason, _ = self.choose(baker)
            if slot < 0:
                ending = 1
                stuck = {"baker": baker, "hand": self.hands[baker, :self.hand_counts[baker]]
                         .tolist(), "tops": self.tops.tolist(),
                         "display": self.display.tolist()}
                break
            piece = self.place(baker, slot, plate)
            move = Move(self.moves, baker, piece, plate, reason, options, self.draw(baker))
            self.log.append(move)
            self.check_order_cards(move)
            if self.done >= self.to_fulfil:
                ending = 0
                break
            self.expire_rush_cards(move)
            move.signal = self.give_signal(baker)
            self.withdraw_signals(baker, move)
            baker = (baker + 1) % self.players
        left = len(self.pieces) - self.drawn
        score = self.points
        if ending == 0:
            score += self.a["win_bonus"] + self.a["record_hunt_piece"] * left
        return Result(ending, score, self.moves, self.done, self.to_fulfil, left, self.missed,
                      setup, self.log, stuck)


def play_game(table: TableRules, bakers: list[Baker], seed: int, index: int) -> Result:
    """Play game ``index`` of ``seed`` at ``table`` with the reference engine."""
    return Game(table, bakers, seed, index).play()


@dataclass
class Attempt:
    """A baker's placement under way in the Eilauftrag: chosen at ``started``, lands later."""

    baker: int
    slot: int
    plate: int
    reason: tuple[int, int, int]
    options: int
    started: float
    lands: float


class RealTimeGame(Game):
    """One game of the Eilauftrag: no turns, every baker works on its own clock.

    RULES.md 3, "Eilauftrag", with the timing model of ``timing.toml``: a baker with a
    fitting piece picks a placement on the board it sees; the piece lands after its think
    time and flight. If another piece landed on that plate in the meantime, the placement
    is rejected ("plate X has just changed") and the time is lost. Whenever the board
    changes, every idle baker with a fitting piece decides whether to start or to wait
    (``start_attempts``). The clock does not stop play:
    the finishing time is recorded, and a budget decides afterwards whether it was in time.
    """

    def start_attempts(self, attempts: list[Attempt | None], clock: float) -> None:
        """Every idle baker decides, in seat order, whether to start a placement now.

        Placing is a choice (RULES.md 3, "anyone with a fitting piece *may* place"): a
        baker waits while its best placement is worth less than its ``patience`` and
        another baker's piece is on its way or another baker can help with a card. If
        then nobody is placing, the first idle baker who can place starts anyway (or the
        game would stand still) and the others decide again.
        """
        self.clock = clock
        for baker in range(self.players):
            if attempts[baker] is None:
                attempts[baker] = self.start_attempt(baker, clock, attempts, may_wait=True)
        if any(attempts):
            return
        for baker in range(self.players):
            attempts[baker] = self.start_attempt(baker, clock, attempts, may_wait=False)
            if attempts[baker] is not None:
                for other in range(self.players):
                    if attempts[other] is None:
                        attempts[other] = self.start_attempt(other, clock, attempts,
                                                             may_wait=True)
                return

    def others_busy(self, baker: int, attempts: list[Attempt | None]) -> bool:
        """Whether another baker's piece is on its way or another baker can help."""
        return any(other != baker and (attempts[other] is not None
                                       or self.signals[other] == bots.CAN_HELP)
                   for other in range(self.players))

    def start_attempt(self, baker: int, clock: float, attempts: list[Attempt | None],
                      may_wait: bool) -> Attempt | None:
        """The baker's next placement, if it holds a fitting piece and does not wait."""
        if self.hand_counts[baker] == 0:
            return None
        options = len(self.legal_placements(baker))
        if options == 0:
            return None
        slot, plate, reason, worth = self.choose(baker, np.inf if may_wait else 0.0)
        patience = self.params[baker, bots.W_PATIENCE]
        if may_wait and patience > 0 and worth < patience and self.others_busy(baker,
                                                                               attempts):
            return None
        timing = self.a["timing"]
        think = timing[options] * lognormal_noise(self.stream, timing[-2])
        return Attempt(baker, slot, plate, reason, options, clock, clock + think + timing[-1])

    def kernel_state(self) -> GameState:
        """The kernel's state with the clock's: the pieces on their way, where and when
        they land, and when each plate last changed (the lookahead plays out on it)."""
        state = super().kernel_state()
        for baker, attempt in enumerate(self.attempts):
            if attempt is None:  # idle: a placement it starts now starts at the clock
                state.lands_at[baker], state.started_at[baker] = np.inf, self.clock
            else:
                state.lands_at[baker], state.started_at[baker] = attempt.lands, attempt.started
                state.target[baker] = attempt.slot, attempt.plate
        state.changed_at[:] = self.changed_at
        return state

    def play(self) -> Result:
        """Attempts land in time order until every card is fulfilled or nobody can place."""
        self.lay_out()
        self.open_order_cards()
        setup = {"tops": self.tops.tolist(), "hands": self.hands.tolist(),
                 "display": self.display.tolist(), "under": list(self.under_at_setup)}
        attempts: list[Attempt | None] = [None] * self.players
        changed_at = [-1.0] * self.a["plates"]
        # The lookahead's play-outs on the clock read both (``kernel_state``).
        self.attempts, self.changed_at = attempts, changed_at
        self.start_attempts(attempts, 0.0)
        clock, rejected, ending = 0.0, [], 2
        while True:
            under_way = [a for a in attempts if a is not None]
            if not under_way:
                ending = 2 if self.hand_counts.sum() == 0 else 1
                break
            attempt = min(under_way, key=lambda a: (a.lands, a.baker))
            clock = attempt.lands
            attempts[attempt.baker] = None
            if changed_at[attempt.plate] > attempt.started:
                rejected.append((clock, attempt.baker, attempt.plate))
            else:
                piece = self.place(attempt.baker, attempt.slot, attempt.plate)
                move = Move(self.moves, attempt.baker, piece, attempt.plate, attempt.reason,
                            attempt.options, self.draw(attempt.baker), time=clock)
                self.log.append(move)
                changed_at[attempt.plate] = clock
                self.check_order_cards(move)
                if self.done >= self.to_fulfil:
                    ending = 0
                    break
                self.expire_rush_cards(move)
                move.signal = self.give_signal(attempt.baker)
                self.withdraw_signals(attempt.baker, move)
            self.start_attempts(attempts, clock)
        left = len(self.pieces) - self.drawn
        score = self.points
        if ending == 0:
            score += self.a["win_bonus"] + self.a["record_hunt_piece"] * left
        return Result(ending, score, self.moves, self.done, self.to_fulfil, left, self.missed,
                      setup, self.log, seconds=clock, rejected=rejected)


def play_any(table: TableRules, bakers: list[Baker], seed: int, index: int) -> Result:
    """Play game ``index``: in real time when the table has a timing profile, else turns."""
    engine = RealTimeGame if table.timing is not None else Game
    return engine(table, bakers, seed, index).play()


def outcome(result: Result) -> tuple:
    """The kernel's per-game metrics (``Speedtorte.game_metrics`` order) of a result."""
    return (int(result.ending == 0), result.score, result.moves, result.fulfilled,
            int(result.ending == 1), int(result.ending == 2), result.supply_left,
            result.rushes_missed, int(np.round(result.seconds * 1000.0)), len(result.rejected))


def card_outcome(result: Result, cards: int) -> dict[str, tuple[int, ...]]:
    """The kernel's per-card metrics (``Speedtorte.item_metrics``) of a result.

    Replayed from the log: a card is shown when it is on display at setup or refills a
    slot; a fulfilment adds its wait; a lost game counts the cards left on display.
    """
    shown, fulfilled, wait, at_loss = ([0] * cards for _ in range(4))
    display = list(result.setup["display"])
    for card in display:
        if card >= 0:
            shown[card] += 1
    for move in result.log:
        for f in move.fulfilled:
            fulfilled[f.card] += 1
            wait[f.card] += f.waited
            display[f.slot] = -1 if f.refill is None else f.refill
            if f.refill is not None:
                shown[f.refill] += 1
    if result.ending != 0:
        for card in display:
            if card >= 0:
                at_loss[card] += 1
    return {"shown": tuple(shown), "fulfilled": tuple(fulfilled), "wait": tuple(wait),
            "at_loss": tuple(at_loss)}
