"""The reference engine: Topp die Torte!'s rules as plain Python, one method per rule step.

Written to be read beside RULES.md section 4; speed is the kernel's job. The steps carry
the kernel's names (``start_game``, ``choose_tiles``, ``aim``, ``place_layer``,
``fill_jars``, ``take_colour``, ``place_cube``, ``empty_jar``, ``trade_exchange``,
``pay_coin``, ``roll_die``, ``pass_tiles``, ``golden_cubes``, ``score_game``) and do the
same things in the same order, on readable state: jars that hold lists of cubes, a cake of
layers, a supply of cubes, chip piles. It checks that every decision a strategy makes is
legal and keeps a move log a person can read, the score after each round and every chip
won.

Seats are in placement order of the first round: seat 0 "last ate cake" and places first;
seat ``s + 1`` sits to seat ``s``'s left and receives the tiles it passes on. Colours are
``0 .. 4`` in the rule set's order; a golden (joker) cube is ``GOLDEN_CUBE``.

Chance comes from the kernel's streams, drawn in the kernel's order: the deal (tiles and
chip piles, by the kernel's own ``deal``), one aim uniform per seat and round
(``AIM_STREAM``), the die (``DIE_STREAM``) and a random strategy's choices
(``DECISION_STREAM``, keyed by the game, not the deal).
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cakesim.engine.jit import plain_python
from cakesim.engine.seeding import DECISION_STREAM, below, new_stream, uniform
from cakesim.games.topp_die_torte import kernel, search, strategies
from cakesim.games.topp_die_torte.kernel import AIM_STREAM, DIE_STREAM, WIN_UNITS
from cakesim.games.topp_die_torte.rules import (
    BLANK,
    CUBE,
    GOLD,
    GOLDEN,
    METALS,
    STAR,
    TableRules,
)
from cakesim.games.topp_die_torte.strategies import (
    AIM,
    DRAFT,
    GOLDEN_CUBE,
    JARS,
    SEARCH,
    Strategy,
    strategy_arrays,
)
from cakesim.kits import search as driver
from cakesim.kits.seating import seat_of_deal, seated, split_win_units

# The reference is the pure-Python engine the kernel is checked against, so it runs the
# strategies' decision functions as plain Python (the kernel runs them compiled): parity
# then also shows that compiled and plain arithmetic take the same branches.
choose_tile = plain_python(strategies.choose_tile)
choose_target = plain_python(strategies.choose_target)
choose_jar = plain_python(strategies.choose_jar)
choose_colour = plain_python(strategies.choose_colour)
next_cube = plain_python(strategies.next_cube)
aim_error = plain_python(strategies.aim_error)
landing = plain_python(strategies.landing)
# The search player's picks stay compiled: each plays hundreds of games out, which in
# Python would take minutes a game. The reference shows it the table as the kernel does
# (``_kernel_state``) and asks it at the same points, so parity checks everything around
# the search (``search.py``): what it is shown, when it is asked, what its pick does.
search_decision = driver.search_decision

ANY_COLOUR = -2
"""A cube of any colour owed (die, exchange) before its colour is chosen, in the log."""
EXCHANGE_JAR = -1
"""Where a placed cube went when no blue jar took it: the exchange jar ..."""
TO_SUPPLY = -2
"""... or, without an exchange jar, back to the supply."""


# The table ---------------------------------------------------------------------------------
@dataclass
class Jar:
    """A blue jar: it holds at most ``capacity`` cubes, of different colours (golden cubes are
    jokers), and pays a coin of ``metal`` when full."""

    capacity: int
    metal: int
    cubes: list[int] = field(default_factory=list)
    """The colours of its cubes, ``GOLDEN_CUBE`` for a golden one."""

    @property
    def full(self) -> bool:
        """Whether the jar holds ``capacity`` cubes."""
        return len(self.cubes) >= self.capacity

    @property
    def mask(self) -> int:
        """The colours in the jar as bits (bit ``c`` for colour ``c``), as strategies read it."""
        return sum(1 << c for c in set(self.cubes) if c != GOLDEN_CUBE)

    def fits(self, colour: int, restricted: bool = True) -> bool:
        """Whether a cube of ``colour`` may go in now: room, and (with the colour restriction)
        no cube of that colour yet; a golden cube fits any jar with room."""
        if self.full:
            return False
        return colour == GOLDEN_CUBE or not restricted or colour not in self.cubes


@dataclass
class Board:
    """A player's board: the blue jars and the exchange jar (which takes any colours)."""

    jars: list[Jar]
    exchange: list[int] = field(default_factory=list)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(jar_mask, jar_count)`` as the decision functions read them."""
        return (np.array([jar.mask for jar in self.jars], np.int64),
                np.array([len(jar.cubes) for jar in self.jars], np.int64))


@dataclass(frozen=True)
class Layer:
    """A tile on a cake, ``offset`` slots along from the layer below it, and the colours whose
    stripe connected when it was laid."""

    tile: int
    offset: int = 0
    connected: tuple[int, ...] = ()


@dataclass
class Cake:
    """A player's cake: the plate (``Layer(plate)``), then every layer laid, bottom up."""

    layers: list[Layer]

    @property
    def top(self) -> int:
        """The top layer's tile (the plate's row at the start)."""
        return self.layers[-1].tile


@dataclass
class Supply:
    """The finite supply: colour cubes per colour, and golden cubes."""

    colours: list[int]
    golden: int

    @property
    def cubes(self) -> int:
        """Every cube in the supply."""
        return sum(self.colours) + self.golden


@dataclass
class Player:
    """A seat's tiles, cake, board, chips and stars, and its tallies."""

    seat: int
    hand: list[int]
    """Face-up tiles (tile rows) the player may pick from this round."""
    pile: list[int]
    """The face-down pile, in drawing order."""
    cake: Cake
    board: Board
    chips: list[tuple[int, int]] = field(default_factory=list)
    """``(metal, value)`` of every chip won, in the order won."""
    stars: int = 0
    cubes: int = 0
    """Cubes received from connected stripes."""
    misses: int = 0
    """Layers that landed off the aimed offset."""
    pick: int = -1
    """The hand position of this round's tile."""

    @property
    def connected(self) -> int:
        """Stripes connected, over all layers."""
        return sum(len(layer.connected) for layer in self.cake.layers)

    def points(self, star_points: int) -> int:
        """Chip values plus stars (RULES.md s4 "End")."""
        return sum(value for _, value in self.chips) + star_points * self.stars


@dataclass
class Owed:
    """What a player has in hand or is owed while filling jars: cubes from the stripes (per
    colour), coins per metal, golden cubes, cubes of any colour (die, exchange) and, at the
    end, the golden symbols' cubes of any colour."""

    hand: list[int]
    coins: list[int]
    golden: int = 0
    any_colour: int = 0
    end_colour: int = 0


@dataclass
class Deal:
    """What chance decides at the deal: tiles in dealt order, each metal's chip pile in
    drawing order, and each seat's aim draw per round."""

    tiles: list[int]
    piles: list[list[int]]
    aim_draws: list[list[float]]


@dataclass(frozen=True)
class Move:
    """One line of the move log. ``round`` is 0-based; the end phase is round ``rounds``."""

    round: int
    seat: int
    action: str
    """``lay``, ``cube``, ``empty``, ``coin``, ``die``, ``trade``, ``shortfall`` or
    ``golden`` (the end's golden cubes)."""
    tile: int = -1
    target: int = 0
    """For ``lay``: the offset aimed at; ``offset`` the one the layer landed at."""
    offset: int = 0
    connected: tuple[int, ...] = ()
    """For ``lay``: the colours whose stripe connected."""
    taken: tuple[tuple[int, int], ...] = ()
    """For ``lay``: ``(colour, cubes)`` taken from the supply per connected sugared stripe."""
    colour: int = 0
    """For ``cube`` and ``shortfall``: the cube's colour, ``GOLDEN_CUBE`` or ``ANY_COLOUR``."""
    jar: int = -1
    """For ``cube`` and ``empty``: the blue jar, or ``EXCHANGE_JAR`` / ``TO_SUPPLY``."""
    metal: int = -1
    value: int = -1
    """For ``coin``: the chip's value; -1 when the pile was empty."""
    face: int = -1
    """For ``die``: the face rolled (0-based); ``kind`` what it shows (``rules.FACE_KINDS``
    index: a ``blank-N`` variant blanks one face) and ``amount`` how many."""
    kind: int = -1
    amount: int = 0
    """Cubes short (``shortfall``), returned (``empty``), traded (``trade``), golden
    symbols (``golden``); a die face's amount."""


@dataclass
class Result:
    """A finished game: per-seat and per-game metrics (the kernel's meanings), the move log,
    the running score and every chip won."""

    total: tuple[int, ...]
    win_units: tuple[int, ...]
    bronze: tuple[int, ...]
    silver: tuple[int, ...]
    gold: tuple[int, ...]
    stars: tuple[int, ...]
    cubes: tuple[int, ...]
    connected: tuple[int, ...]
    misses: tuple[int, ...]
    shortfall: int
    exchanges: int
    die_rolls: int
    empty_piles: int
    log: list[Move]
    scores_by_round: list[tuple[int, ...]]
    """Every seat's points after each round, the last row after the end phase (``total``)."""
    chips: list[list[tuple[str, int]]]
    """Per seat, ``(metal name, value)`` of every chip won."""


Audit = Callable[["Game", str], None]
"""Called after every rule step with the game and the step's name (property tests)."""


# The game ----------------------------------------------------------------------------------
class Game:
    """One game in progress (RULES.md section 4), strategies by seat."""

    def __init__(self, table: TableRules, deal: Deal, seats: list[Strategy],
                 decision_stream: np.ndarray, die_stream: np.ndarray,
                 audit: Audit | None = None):
        self.table = table
        self.r = table.rules
        self.players_count = table.players
        # What the decision functions read (the kernel's RuleData).
        self.rule_data = kernel.rule_data(table.arrays)
        self.plate = len(self.r.tile_ids)
        self.codes, self.params, self.aim_tables = strategy_arrays(seats, self.r.max_offset)
        self.deal = deal
        self.decision_stream = decision_stream
        self.die_stream = die_stream
        self.audit = audit
        self.supply = Supply(list(table.supply), table.golden)
        self.piles = [list(pile) for pile in deal.piles]
        self.players: list[Player] = []
        self.owed = Owed([0] * len(self.r.colours), [0] * len(METALS))
        self.round = 0
        self.shortfall = self.exchanges = self.die_rolls = self.empty_piles = 0
        self.log: list[Move] = []
        self.scores_by_round: list[tuple[int, ...]] = []
        # The decision functions' working space (their results never depend on it).
        self.worth = np.zeros(len(self.r.colours))
        self.values = np.zeros(2 * self.r.max_offset + 1)
        # The offset each searching seat chose with its tile this round.
        self.targets: dict[int, int] = {}
        self.search_space = None
        if any(s.searches for s in seats):
            self.search_space = search.new_search_space(self.rule_data, self._strategies())

    # The rule steps, in the order of play.

    def play(self) -> Result:
        """Deal, play every round, then the end's golden cubes and the score (s4)."""
        self.start_game()
        for round_index in range(self.r.rounds):
            self.round = round_index
            self.choose_tiles()
            for seat in self.placement_order(round_index):
                player = self.players[seat]
                tile = player.hand[player.pick]
                target, offset = self.aim(seat, tile)
                player.misses += offset != target
                self.place_layer(seat, tile, target, offset)
                self.fill_jars(seat, restricted=True)
            self.pass_tiles()
            self.record_scores()
        self.round = self.r.rounds
        for seat in self.placement_order(self.r.rounds - 1):
            self.golden_cubes(seat)
        return self.score_game()

    def placement_order(self, round_index: int) -> list[int]:
        """Seats in placement order: "whoever last ate cake" (seat 0) first, clockwise; with
        the rotating order the first placer passes one seat clockwise each round."""
        players = self.players_count
        first = round_index % players if self.table.rotate else 0
        return [(first + step) % players for step in range(players)]

    def start_game(self) -> None:
        """Set up (s4): 7 tiles each, 2 face up and 5 as a face-down pile; empty boards, cakes
        on their plates; the full supply and shuffled chip piles (done by the deal)."""
        rounds, face_up = self.r.rounds, self.r.face_up
        for seat in range(self.players_count):
            tiles = self.deal.tiles[seat * rounds:(seat + 1) * rounds]
            jars = [Jar(c, m) for c, m in zip(self.r.capacity, self.r.metal, strict=True)]
            self.players.append(Player(seat, list(tiles[:face_up]), list(tiles[face_up:]),
                                       Cake([Layer(self.plate)]), Board(jars)))
        self._step("start_game")

    def choose_tiles(self) -> None:
        """Everyone picks one face-up tile at once (s4 "Round"): each decides from the table
        as it is at the round's start, in seat order for the random draws. Searching seats
        decide first (in seat order), each its tile and the offset it will aim at
        (``search.py``), then the others."""
        picks = {}
        self.targets = {}
        for seat, player in enumerate(self.players):
            if self.codes[seat, DRAFT] == SEARCH:
                _, pick, self.targets[seat] = (int(x) for x in search_decision(
                    self.rule_data, self._strategies(), self._kernel_state(seat), None,
                    self.search_space))
                assert 0 <= pick < len(player.hand), "a player picks one of its face-up tiles"
                picks[seat] = pick
        for seat, player in enumerate(self.players):
            if seat in picks:
                continue
            left = self.players[(seat + 1) % self.players_count]
            mask, count = player.board.arrays()
            left_mask, left_count = left.board.arrays()
            pick = choose_tile(
                self.codes[seat, DRAFT], self.params[seat], self.aim_tables[seat],
                self.rule_data, np.array(player.hand, np.int16), len(player.hand),
                player.cake.top, mask, count, left.cake.top, left_mask, left_count,
                self.worth, self.values, self.decision_stream)
            assert 0 <= pick < len(player.hand), "a player picks one of its face-up tiles"
            picks[seat] = int(pick)
        # Simultaneous: nobody's pick is seen before all have picked.
        for seat, player in enumerate(self.players):
            player.pick = picks[seat]
        self._step("choose_tiles")

    def aim(self, seat: int, tile: int) -> tuple[int, int]:
        """By eye (s4; docs "Aim by eye"): the player aims at an offset and misses by its aim
        error (this round's draw). A miss beyond the allowed offsets lands on the outermost
        one (``miss_beyond = "edge"``) or beyond it (``"nothing"``). Returns
        ``(target, offset)``."""
        player = self.players[seat]
        reach = self.r.max_offset
        mask, count = player.board.arrays()
        target = self.targets.get(seat)
        if target is None:
            target = int(choose_target(self.codes[seat, AIM], self.params[seat],
                                       self.aim_tables[seat], self.rule_data,
                                       player.cake.top, tile, mask, count, self.worth,
                                       self.values, self.decision_stream))
        assert -reach <= target <= reach, "a player aims at an allowed offset"
        error = int(aim_error(self.aim_tables[seat], self.deal.aim_draws[seat][self.round]))
        return target, int(landing(self.rule_data, target + error))

    def stripe_overlap(self, below_tile: int, tile: int, colour: int, offset: int) -> int:
        """Slots where ``tile``'s stripe of ``colour``, laid ``offset`` slots along, lies over
        the same colour's stripe of ``below_tile`` (0 if none)."""
        below_start, below_end = self._stripe(below_tile, colour)
        start, end = self._stripe(tile, colour)
        return max(0, min(end + offset, below_end) - max(start + offset, below_start) + 1)

    def place_layer(self, seat: int, tile: int, target: int, offset: int) -> list[int]:
        """Lay ``tile`` on the cake (s4 "Round"): a stripe connects when the same colour
        continues in the layer below over at least ``min_overlap`` slots; each connected
        stripe's sugar symbols bring that many cubes of its colour from the supply into
        hand (what the supply lacks is lost: a shortfall). A layer that landed beyond the
        outermost offset (``miss_beyond = "nothing"``) connects nothing: it lies on the
        cake, and the next layer on it. Returns the connected colours."""
        player = self.players[seat]
        below_tile = player.cake.top
        beyond = abs(offset) > self.r.max_offset
        connected, taken, short = [], [], []
        for colour in range(len(self.r.colours)):
            if beyond or (self.stripe_overlap(below_tile, tile, colour, offset)
                          < self.r.min_overlap):
                continue
            connected.append(colour)
            wanted = self._sugar(tile, colour)
            if wanted == 0:
                continue
            got = min(wanted, self.supply.colours[colour])
            self.supply.colours[colour] -= got
            self.owed.hand[colour] += got
            player.cubes += got
            taken.append((colour, got))
            if got < wanted:
                short.append((colour, wanted - got))
        player.cake.layers.append(Layer(tile, offset, tuple(connected)))
        self.log.append(Move(self.round, seat, "lay", tile=tile, target=target, offset=offset,
                             connected=tuple(connected), taken=tuple(taken)))
        for colour, amount in short:
            self._short(seat, colour, amount)
        self._step("place_layer")
        return connected

    def fill_jars(self, seat: int, restricted: bool) -> None:
        """Put every cube in hand and every cube owed into jars, settling each consequence at
        once before the next cube: coins owed first (a gold coin's die roll may owe more),
        then golden cubes, then cubes of any colour (colour chosen from the supply), then
        the end's cubes for golden symbols, then the hand, the cube with the fewest jars to
        go to first. By default (``misfit_cubes = "last"``) a cube of the hand that fits no
        jar waits until every cube that fits is placed: it goes to the exchange jar only if
        it is left over (s4: "only cubes *left over*").

        ``restricted=False`` (the end) lifts the colour restriction for the golden symbols'
        cubes only: a cube of any colour a die roll brings then obeys the jar rules as in a
        round (s4 "End": "jar rules otherwise as above")."""
        owed = self.owed
        while True:
            metal = next((m for m in range(len(METALS)) if owed.coins[m] > 0), -1)
            if metal >= 0:
                owed.coins[metal] -= 1
                self.pay_coin(seat, metal)
            elif owed.golden > 0:
                owed.golden -= 1
                if self.supply.golden == 0:
                    self._short(seat, GOLDEN_CUBE, 1)
                else:
                    self.supply.golden -= 1
                    self.place_cube(seat, GOLDEN_CUBE, restricted)
            elif owed.any_colour > 0:
                owed.any_colour -= 1
                self.take_colour(seat, restricted=True)
            elif owed.end_colour > 0:
                owed.end_colour -= 1
                self.take_colour(seat, restricted)
            else:
                mask, count = self.players[seat].board.arrays()
                colour = int(next_cube(self.rule_data, np.array(owed.hand, np.int64), mask,
                                       count, restricted))
                if colour < 0:
                    return
                if self.r.misfit_cubes == "last":
                    assert any(self._fits_a_jar(seat, c, restricted)
                               for c in range(len(owed.hand)) if owed.hand[c] > 0) \
                        == self._fits_a_jar(seat, colour, restricted), \
                        "a cube that fits no blue jar waits while another cube fits one"
                owed.hand[colour] -= 1
                self.place_cube(seat, colour, restricted)

    def take_colour(self, seat: int, restricted: bool) -> None:
        """A cube of any colour: the player picks a colour the supply still has and places
        the cube; if no such colour fits a blue jar, the cube is lost (a shortfall)."""
        mask, count = self.players[seat].board.arrays()
        colour = int(choose_colour(self.codes[seat, JARS], self.params[seat], self.rule_data,
                                   mask, count, np.array(self.supply.colours, np.int64),
                                   restricted, self.decision_stream))
        if colour < 0:
            self._short(seat, ANY_COLOUR, 1)
            return
        assert self.supply.colours[colour] > 0, "a colour the supply has"
        self.supply.colours[colour] -= 1
        self.place_cube(seat, colour, restricted)

    def place_cube(self, seat: int, colour: int, restricted: bool) -> None:
        """The player puts the cube into a blue jar of its choice that has room and (with the
        restriction) lacks its colour; a full jar empties at once. A colour cube that goes
        to no blue jar goes to the exchange jar (without one, back to the supply); three
        there trade at once for a cube of any colour."""
        player = self.players[seat]
        board = player.board
        mask, count = board.arrays()
        j = int(choose_jar(self.codes[seat, JARS], self.params[seat], self.rule_data, mask,
                           count, colour, restricted, self.decision_stream))
        if j >= 0:
            assert board.jars[j].fits(colour, restricted), "the cube must fit the jar chosen"
            board.jars[j].cubes.append(colour)
            self.log.append(Move(self.round, seat, "cube", colour=colour, jar=j))
            self._step("place_cube")
            if board.jars[j].full:
                self.empty_jar(seat, j)
            return
        assert colour != GOLDEN_CUBE, "a golden cube fits every jar with room"
        voluntary = self._fits_a_jar(seat, colour, restricted)
        assert not voluntary or self.rule_data.voluntary, \
            "only the voluntary exchange lets a cube that fits a blue jar go elsewhere"
        if not self.table.exchange_jar:
            self.supply.colours[colour] += 1
            self.log.append(Move(self.round, seat, "cube", colour=colour, jar=TO_SUPPLY))
            self._step("place_cube")
            return
        board.exchange.append(colour)
        self.log.append(Move(self.round, seat, "cube", colour=colour, jar=EXCHANGE_JAR))
        self._step("place_cube")
        if len(board.exchange) >= self.r.exchange:
            self.trade_exchange(seat)

    def empty_jar(self, seat: int, j: int) -> None:
        """A full jar is emptied at once into the supply and pays its coin (s4: 3-jar bronze,
        4-jar silver, 5-jar gold by default); the coin is owed until paid."""
        jar = self.players[seat].board.jars[j]
        for colour in jar.cubes:
            if colour == GOLDEN_CUBE:
                self.supply.golden += 1
            else:
                self.supply.colours[colour] += 1
        self.log.append(Move(self.round, seat, "empty", jar=j, amount=len(jar.cubes)))
        jar.cubes.clear()
        self.owed.coins[jar.metal] += 1
        self._step("empty_jar")

    def trade_exchange(self, seat: int) -> None:
        """The cubes in the exchange jar go back to the supply, traded at once for one cube
        of any colour (s4), owed now."""
        board = self.players[seat].board
        for colour in board.exchange:
            self.supply.colours[colour] += 1
        self.log.append(Move(self.round, seat, "trade", amount=len(board.exchange)))
        board.exchange.clear()
        self.owed.any_colour += 1
        self.exchanges += 1
        self._step("trade_exchange")

    def pay_coin(self, seat: int, metal: int) -> None:
        """Draw the top chip of ``metal``'s pile, face down (an empty pile pays nothing); a
        gold coin also rolls the die."""
        pile = self.piles[metal]
        if not pile:
            self.empty_piles += 1
            self.log.append(Move(self.round, seat, "coin", metal=metal, value=-1))
            self._step("pay_coin")
            return
        value = pile.pop(0)
        self.players[seat].chips.append((metal, value))
        self.log.append(Move(self.round, seat, "coin", metal=metal, value=value))
        self._step("pay_coin")
        if metal == GOLD and self.table.die:
            self.roll_die(seat)

    def roll_die(self, seat: int, face: int | None = None) -> None:
        """The gold coin's die (s4): cubes of any colour or golden cubes owed, stars, a chip
        owed, or (a blank face) nothing. ``face``: for worked examples, the face shown
        (by default it is rolled)."""
        self.die_rolls += 1
        faces = self.table.die_kind
        if face is None:
            face = int(below(self.die_stream, len(faces)))
        kind, amount = faces[face], self.r.die_amount[face]
        self.log.append(Move(self.round, seat, "die", face=face, kind=kind, amount=amount))
        if kind == CUBE:
            self.owed.any_colour += amount
        elif kind == GOLDEN:
            self.owed.golden += amount
        elif kind == STAR:
            self.players[seat].stars += amount
        elif kind != BLANK:
            self.owed.coins[kind - STAR - 1] += amount
        self._step("roll_die")

    def pass_tiles(self) -> None:
        """Each passes the unpicked tiles to the left neighbour and draws one from their own
        face-down pile (none once it is used up)."""
        passed = [[t for i, t in enumerate(p.hand) if i != p.pick] for p in self.players]
        for seat, player in enumerate(self.players):
            # The right neighbour (seat - 1) passes to this seat; seat 0's is the last seat.
            player.hand = passed[seat - 1]
            if player.pile:
                player.hand.append(player.pile.pop(0))
            player.pick = -1
        self._step("pass_tiles")

    def golden_cubes(self, seat: int) -> None:
        """The end (s4): a cube per golden symbol on the finished cake (by default every
        symbol; with ``golden_needs_connection`` only on layers that connected a stripe),
        placed into jars without the colour restriction. ``end_cubes = "any-colour"``
        (default): each is a cube of a colour the player picks from the supply;
        ``"golden"``: a golden cube (a joker). What they bring about (coins, the die) is
        settled as in a round."""
        symbols = sum(self._golden_symbols(layer) for layer in self.players[seat].cake.layers)
        self.log.append(Move(self.round, seat, "golden", amount=symbols))
        if self.r.end_cubes == "golden":
            self.owed.golden += symbols
        else:
            self.owed.end_colour += symbols
        self.fill_jars(seat, restricted=False)

    def score_game(self) -> Result:
        """Coins and stars are scored (s4 "End"): most points wins; ties split the win."""
        players = self.players
        total = [p.points(self.r.star_points) for p in players]
        self.scores_by_round.append(tuple(total))
        by_metal = [tuple(sum(m == metal for m, _ in p.chips) for p in players)
                    for metal in range(len(METALS))]
        return Result(
            total=tuple(total), win_units=tuple(split_win(total)),
            bronze=by_metal[0], silver=by_metal[1], gold=by_metal[2],
            stars=tuple(p.stars for p in players), cubes=tuple(p.cubes for p in players),
            connected=tuple(p.connected for p in players),
            misses=tuple(p.misses for p in players), shortfall=self.shortfall,
            exchanges=self.exchanges, die_rolls=self.die_rolls,
            empty_piles=self.empty_piles, log=self.log, scores_by_round=self.scores_by_round,
            chips=[[(METALS[m], v) for m, v in p.chips] for p in players])

    def record_scores(self) -> None:
        """Every seat's points (chips and stars so far) after a round; reads, never changes."""
        self.scores_by_round.append(tuple(p.points(self.r.star_points) for p in self.players))

    # Reading the table.

    def cubes_on_table(self) -> int:
        """Every cube: supply, blue jars, exchange jars and the hand being placed (the
        conservation law: always ``TableRules.cubes``)."""
        boards = sum(len(jar.cubes) for p in self.players for jar in p.board.jars)
        exchange = sum(len(p.board.exchange) for p in self.players)
        return self.supply.cubes + boards + exchange + sum(self.owed.hand)

    def _stripe(self, tile: int, colour: int) -> tuple[int, int]:
        """First and last slot of ``tile``'s stripe of ``colour`` (the plate's row too)."""
        if tile == self.plate:
            return self.r.plate_start[colour], self.r.plate_end[colour]
        return self.r.tile_start[tile][colour], self.r.tile_end[tile][colour]

    def _sugar(self, tile: int, colour: int) -> int:
        return 0 if tile == self.plate else self.r.tile_sugar[tile][colour]

    def _fits_a_jar(self, seat: int, colour: int, restricted: bool) -> bool:
        return any(jar.fits(colour, restricted) for jar in self.players[seat].board.jars)

    def _golden_symbols(self, layer: Layer) -> int:
        if layer.tile == self.plate:
            return 0
        if self.r.golden_needs_connection and not layer.connected:
            return 0
        return self.r.tile_golden[layer.tile]

    def _short(self, seat: int, colour: int, amount: int) -> None:
        self.shortfall += amount
        self.log.append(Move(self.round, seat, "shortfall", colour=colour, amount=amount))

    def _step(self, name: str) -> None:
        if self.audit is not None:
            self.audit(self, name)

    def _strategies(self) -> kernel.Strategies:
        """The seats' strategies as the kernel reads them (player rows are seat rows)."""
        return kernel.Strategies(self.codes, self.params, self.aim_tables)

    def _kernel_state(self, seat: int) -> kernel.GameState:
        """The table at this round's picks as the kernel's ``GameState``, for the compiled
        search asked for ``seat``'s pick; its decision stream is this game's own."""
        r, players = self.r, self.players_count
        state = kernel.new_state(self.rule_data, players)._replace(
            decision_stream=self.decision_stream, die_stream=self.die_stream)
        state.clock[:] = (self.round, kernel.PICKING, seat, 0)
        unseen = r.rounds - r.face_up
        for s, player in enumerate(self.players):
            state.hand[s, :len(player.hand)] = player.hand
            state.seen[player.hand] = True
            state.seen[[layer.tile for layer in player.cake.layers[1:]]] = True
            state.held[s] = len(player.hand)
            state.drawn[s] = unseen - len(player.pile)
            state.pile[s, state.drawn[s]:unseen] = player.pile
            state.pick[s] = kernel.UNDECIDED
            state.target[s] = kernel.NO_PLAN
            state.top[s] = player.cake.top
            state.golden_symbols[s] = sum(self._golden_symbols(layer)
                                          for layer in player.cake.layers)
            state.jar_mask[s], state.jar_count[s] = player.board.arrays()
            for j, jar in enumerate(player.board.jars):
                state.jar_golden[s, j] = jar.cubes.count(GOLDEN_CUBE)
                for colour in range(len(r.colours)):
                    state.jar_cubes[s, j, colour] = jar.cubes.count(colour)
            for colour in range(len(r.colours)):
                state.exchange[s, colour] = player.board.exchange.count(colour)
            state.sheet.total[0, s] = sum(value for _, value in player.chips)
            state.sheet.stars[0, s] = player.stars
            state.aim_draws[s] = self.deal.aim_draws[s]
        state.supply[:] = self.supply.colours
        state.golden[0] = self.supply.golden
        # Each pile's chips in drawing order, and who drew them (the move log's coins).
        drawn: list[list[tuple[int, int]]] = [[] for _ in METALS]
        for move in self.log:
            if move.action == "coin" and move.value >= 0:
                drawn[move.metal].append((move.seat, move.value))
        for metal, pile in enumerate(self.piles):
            state.chips_drawn[metal] = len(drawn[metal])
            state.chip_owner[metal] = -1
            for i, (owner, value) in enumerate(drawn[metal]):
                state.chip_owner[metal, i], state.chips[metal, i] = owner, value
            state.chips[metal, len(drawn[metal]):len(r.chip_values[metal])] = pile
        return state


# Scores, the deal and a whole game ---------------------------------------------------------
def split_win(total: list[int]) -> list[int]:
    """Win units: ``WIN_UNITS`` split evenly among the seats with the most points."""
    return split_win_units(total, WIN_UNITS)


def score_sheet(chips: list[list[int]], stars: list[int],
                star_points: int) -> tuple[list[int], list[int]]:
    """Totals and win units from each seat's chip values and stars."""
    total = [sum(values) + star_points * s for values, s in zip(chips, stars, strict=True)]
    return total, split_win(total)


def deal_game(table: TableRules, seed: int, deal: int) -> Deal:
    """Deal ``deal`` of ``seed``: the kernel's own tile and chip shuffle, then one aim
    uniform per seat and round from the aim stream, seat by seat."""
    tiles, chips = kernel.deal(np.uint64(seed), deal, kernel.rule_data(table.arrays))
    r = table.rules
    piles = [[int(v) for v in chips[m, :len(r.chip_values[m])]] for m in range(len(METALS))]
    stream = new_stream(np.uint64(seed), deal, AIM_STREAM)
    aim_draws = [[float(uniform(stream)) for _ in range(r.rounds)]
                 for _ in range(table.players)]
    return Deal([int(t) for t in tiles], piles, aim_draws)


def dealt_order(table: TableRules, seed: int, deal: int) -> np.ndarray:
    """Deal ``deal`` as component numbers: the tile rows in dealt order, then each metal
    ``m``'s pile in drawing order as ``1000 + 100 m + value``."""
    tiles, chips = kernel.deal(np.uint64(seed), deal, kernel.rule_data(table.arrays))
    parts = [tiles.astype(np.int16)]
    for m, values in enumerate(table.rules.chip_values):
        parts.append((1000 + 100 * m + chips[m, :len(values)]).astype(np.int16))
    return np.concatenate(parts)


def deal_groups(table: TableRules) -> list[np.ndarray]:
    """The places of ``dealt_order`` that are dealt alike: every tile place, then each
    metal's pile."""
    r = table.rules
    groups, start = [np.arange(len(r.tile_ids))], len(r.tile_ids)
    for values in r.chip_values:
        groups.append(np.arange(start, start + len(values)))
        start += len(values)
    return groups


def play_game(table_rules: TableRules, strategies: list[Strategy], seed: int, game: int,
              duplicate: bool = False, audit: Audit | None = None) -> Result:
    """Game ``game`` of ``seed``, exactly as the kernel plays it; ``strategies`` by player.

    Player ``j`` sits at seat ``(j + rotation) % P``; with duplicate deals game ``i`` is
    deal ``i // P`` in rotation ``i % P``. ``audit(game, step)`` is called after every step.
    """
    deal, rotation = seat_of_deal(game, table_rules.players, duplicate)
    return Game(table_rules, deal_game(table_rules, seed, deal), seated(strategies, rotation),
                new_stream(np.uint64(seed), game, DECISION_STREAM),
                new_stream(np.uint64(seed), deal, DIE_STREAM), audit).play()
