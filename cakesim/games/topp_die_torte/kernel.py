"""The Numba kernel: plays games ``first_game .. first_game + n`` of a seed into flat arrays.

It follows the same rule steps, under the same names, as ``reference.py`` (RULES.md
section 4), on fixed-size integer arrays. All game constants arrive in a ``RuleData``
(built from ``TableRules.arrays``); the results go into preallocated output arrays, one row
per game. The arrays travel in a few named bundles:

- ``RuleData``: the per-table constants;
- ``Strategies``: codes, weights and aim tables, by player;
- ``GameState``: one game in progress, where it is (``clock``) and its results so far
  (``sheet``, a ``Results`` of one row);
- ``Results``: the output arrays.

A game is played by ``advance``, which plays on from ``GameState.clock`` until a
searching seat must pick its tile (the search of ``search.py`` then decides, through the
driver's ``decide``) or the game is over: the same steps play the real game and the search's
sampled worlds.

Seats are in placement order of the first round: seat 0 "last ate cake" (chosen at
random, so seat 0 is simply whoever it was) and places first; seat ``s + 1`` sits to seat
``s``'s left and receives the tiles it passes on. ``P`` is the player count, ``T`` the
tiles in the box (row ``T`` of the tile arrays is the cake plate), ``J`` the blue jars.

Chance has four streams, so that each source of luck can be held fixed while another
varies (the luck section nests them): the tile deal (``DEAL_STREAM``), the chip piles'
shuffle (``CHIP_STREAM``), every aim's error (``AIM_STREAM``: one uniform per seat and
round, drawn at the deal) and the die (``DIE_STREAM``); a random strategy's choices draw
from ``DECISION_STREAM``. On duplicate deals every rotation of a deal shares all four.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline
from cakesim.engine.seeding import (
    DEAL_STREAM,
    DECISION_STREAM,
    below,
    reset_stream,
    shuffle_range,
    uniform,
)
from cakesim.games.topp_die_torte.rules import BLANK, CUBE, GOLD, GOLDEN, STAR
from cakesim.games.topp_die_torte.strategies import (
    AIM,
    DRAFT,
    GOLDEN_CUBE,
    JARS,
    SEARCH,
    aim_error,
    choose_colour,
    choose_jar,
    choose_target,
    choose_tile,
    connects,
    landing,
    next_cube,
)
from cakesim.kits.search import decide
from cakesim.kits.seating import seat_of_deal

CHIP_STREAM = 2
AIM_STREAM = 3
DIE_STREAM = 4
WIN_UNITS = 12
"""Win units of one game: divisible by every number of tied winners, 1 to 4."""
COLOURS = 5
METALS = 3
GOLDEN_OWED, ANY_OWED, END_OWED = range(3)
"""Cubes owed while filling jars (``GameState.owed_cubes``): golden cubes, cubes of any
colour (die, exchange: they keep the colour restriction) and, at the end, the golden
symbols' cubes of any colour (free of it)."""
ROUND, STEP, SEAT, ROTATION = range(4)
"""Fields of ``GameState.clock``: the round (``rounds`` is the end, ``rounds + 1`` a game
over), the placements made this round (``PICKING`` while tiles are being picked), the seat
whose pick the search is asked for, and the deal's rotation (player ``j`` sits at seat
``(j + rotation) % P``)."""
PICKING = -1
UNDECIDED = -1
"""``GameState.pick`` of a seat that has not picked this round's tile yet."""
NO_PLAN = 127
"""``GameState.target`` of a seat that aims when it places (no searched target)."""


class RuleData(NamedTuple):
    """A table's constants: the rule data of ``TableRules.arrays`` and what follows from it."""

    # (T + 1, 5) int16: each tile's first slot of each colour's stripe; row T the plate.
    tile_start: np.ndarray
    # (T + 1, 5) int16: the stripe's last slot (inclusive).
    tile_end: np.ndarray
    # (T + 1, 5) int16: sugar symbols on each stripe (the plate has none).
    tile_sugar: np.ndarray
    # (T + 1,) int16: golden symbols on each tile.
    tile_golden: np.ndarray
    # int: the plate's row, T.
    plate: int
    # int: slots across a tile.
    slots: int
    # (5,) int16: colour cubes in the supply at the start.
    supply: np.ndarray
    # int: golden cubes in the supply at the start.
    golden: int
    # (J,) int16: each blue jar's capacity, and (J,) the metal (0 bronze, 1 silver,
    # 2 gold) of the coin it pays when full.
    capacity: np.ndarray
    metal: np.ndarray
    # int: the largest capacity (the jar-size weight's unit).
    largest_jar: int
    # (3, most chips) int16: every chip's value per metal (a pile is shuffled per deal),
    # and (3,) how many chips each pile has.
    chip_values: np.ndarray
    chip_count: np.ndarray
    # (6,) int16: each die face's kind (rules.FACE_KINDS) and amount.
    die_kind: np.ndarray
    die_amount: np.ndarray
    # ints: rounds, face-up tiles per player, the largest offset, the overlap that
    # connects, cubes the exchange jar trades, points per star.
    rounds: int
    face_up: int
    max_offset: int
    min_overlap: int
    exchange: int
    star_points: int
    # bool: an aim that misses beyond the outermost offset lands on it (else beyond it,
    # where the layer connects nothing).
    miss_edge: bool
    # bools: exchange jar in play; voluntary exchange; a cube that fits no blue jar waits
    # until the layer's other cubes are placed; the golden symbols bring golden cubes (else
    # cubes of any colour); gold rolls the die; the first placer rotates; golden symbols
    # count only on tiles that connected.
    exchange_jar: bool
    voluntary: bool
    misfits_last: bool
    end_golden: bool
    die: bool
    rotate: bool
    golden_needs_connection: bool
    # ints: consecutive deals sharing one tile deal, one chip shuffle (the luck section).
    tile_repeat: int
    chip_repeat: int


class Strategies(NamedTuple):
    """Every player's strategy (player ``j`` sits at seat ``(j + rotation) % P``)."""

    # (P, 3) int8: draft, jar and aim codes (strategies.CODES, strategies.AIMS).
    codes: np.ndarray
    # (P, weights) float64: the weights, in strategies.PARAMETERS order.
    params: np.ndarray
    # (P, 2, 4 * max_offset + 1) float64: the aim error's probabilities and running sums.
    aim: np.ndarray


class GameState(NamedTuple):
    """One game in progress; every per-seat array is indexed by seat."""

    # (4,) int64: where the game is: [ROUND, STEP, SEAT, ROTATION] (module constants).
    clock: np.ndarray
    # (T,) int16: the tiles in dealt order; seat s gets dealt[s * rounds ..][:rounds].
    dealt: np.ndarray
    # (P, rounds) int16: the tiles a seat holds face up (the first ``held[s]``), and
    # (P,) how many.
    hand: np.ndarray
    held: np.ndarray
    # (P, rounds) int16: each seat's face-down pile in drawing order, and (P,) the next
    # tile's position in it.
    pile: np.ndarray
    drawn: np.ndarray
    # (T,) bool: the tiles that have been face up (dealt face up or drawn): what every
    # player has seen of the deal.
    seen: np.ndarray
    # (P,) int16: the hand position of the tile each seat picked this round
    # (``UNDECIDED`` before it picks), and the offset a searching seat aims it at
    # (``NO_PLAN``: it aims by its aim code when it places).
    pick: np.ndarray
    target: np.ndarray
    # (P,) int16: the top layer of each cake (tile row; the plate at the start).
    top: np.ndarray
    # (P,) int16: golden symbols on each cake (that count at the end).
    golden_symbols: np.ndarray
    # (P, J) int64: the colours in each blue jar (bit c for colour c), its cubes
    # (golden included) and its golden cubes; (P, J, 5) its cubes of each colour (more
    # than one only at the end, when the golden symbols' cubes ignore the colours).
    jar_mask: np.ndarray
    jar_count: np.ndarray
    jar_golden: np.ndarray
    jar_cubes: np.ndarray
    # (P, 5) int64: cubes of each colour in each exchange jar.
    exchange: np.ndarray
    # (5,) int64: colour cubes in the supply; (1,) golden cubes in the supply.
    supply: np.ndarray
    golden: np.ndarray
    # (3, most chips) int16: each pile's chips in drawing order; (3,) chips drawn; (3, most
    # chips) int16: the seat that drew each chip (-1: not drawn). A chip is drawn face
    # down: only the seat that drew it knows its value (docs/topp_die_torte.md).
    chips: np.ndarray
    chips_drawn: np.ndarray
    chip_owner: np.ndarray
    # (P, rounds) float64: the uniform draw that decides each seat's aim error per round.
    aim_draws: np.ndarray
    # (5,) int64: the cubes in hand, per colour, while they are put into jars; (3,)
    # coins owed per metal, and (3,) cubes owed (``GOLDEN_OWED``, ``ANY_OWED``,
    # ``END_OWED``).
    batch: np.ndarray
    owed_coins: np.ndarray
    owed_cubes: np.ndarray
    # (rounds,) int16: the last seat's hand while tiles pass round the table.
    passing: np.ndarray
    # (5,) and (2 * max_offset + 1,) float64: the decision functions' working space.
    worth: np.ndarray
    values: np.ndarray
    # (2,) uint64 each: the draw streams (module docstring).
    deal_stream: np.ndarray
    chip_stream: np.ndarray
    aim_stream: np.ndarray
    die_stream: np.ndarray
    decision_stream: np.ndarray
    # Results: the game's results so far, one row (the stars are added to ``total`` by
    # ``score_game``).
    sheet: tuple


class Results(NamedTuple):
    """The output arrays: one row per game."""

    # (n, P) int16 per seat: points, win units, coins of each metal, stars, cubes
    # received from stripes, stripes connected, layers that missed the aimed offset.
    total: np.ndarray
    win_units: np.ndarray
    bronze: np.ndarray
    silver: np.ndarray
    gold: np.ndarray
    stars: np.ndarray
    cubes: np.ndarray
    connected: np.ndarray
    misses: np.ndarray
    # (n,) int16 per game: cubes owed that the supply no longer had, exchange trades,
    # die rolls, coins owed from an empty pile.
    shortfall: np.ndarray
    exchanges: np.ndarray
    die_rolls: np.ndarray
    empty_piles: np.ndarray


SEAT_RESULTS = ("total", "win_units", "bronze", "silver", "gold", "stars", "cubes",
                "connected", "misses")
GAME_RESULTS = ("shortfall", "exchanges", "die_rolls", "empty_piles")


def rule_data(arrays: dict) -> RuleData:
    """The kernel's ``RuleData`` from ``TableRules.arrays`` (the plate becomes tile row T)."""
    plate = arrays["tile_start"].shape[0]

    def with_plate(tiles, plate_row):
        return np.vstack([tiles, plate_row[None, :]]).astype(np.int16)

    return RuleData(
        tile_start=with_plate(arrays["tile_start"], arrays["plate_start"]),
        tile_end=with_plate(arrays["tile_end"], arrays["plate_end"]),
        tile_sugar=with_plate(arrays["tile_sugar"], np.zeros(COLOURS, np.int16)),
        tile_golden=np.append(arrays["tile_golden"], 0).astype(np.int16),
        plate=plate, slots=arrays["slots"],
        supply=arrays["supply"], golden=arrays["golden"], capacity=arrays["capacity"],
        metal=arrays["metal"], largest_jar=int(arrays["capacity"].max()),
        chip_values=arrays["chip_values"], chip_count=arrays["chip_count"],
        die_kind=arrays["die_kind"], die_amount=arrays["die_amount"],
        rounds=arrays["rounds"], face_up=arrays["face_up"],
        max_offset=arrays["max_offset"], min_overlap=arrays["min_overlap"],
        miss_edge=arrays["miss_edge"], exchange=arrays["exchange"],
        star_points=arrays["star_points"],
        exchange_jar=arrays["exchange_jar"], voluntary=arrays["voluntary"],
        misfits_last=arrays["misfits_last"], end_golden=arrays["end_golden"],
        die=arrays["die"], rotate=arrays["rotate"],
        golden_needs_connection=arrays["golden_needs_connection"],
        tile_repeat=arrays["tile_repeat"], chip_repeat=arrays["chip_repeat"])


@jit
def new_state(rules, players):
    """A game state for ``players`` players, every array allocated once."""
    tiles = rules.plate
    jars = rules.capacity.shape[0]
    seat, game = (1, players), 1
    sheet = Results(np.zeros(seat, np.int16), np.zeros(seat, np.int16),
                    np.zeros(seat, np.int16), np.zeros(seat, np.int16),
                    np.zeros(seat, np.int16), np.zeros(seat, np.int16),
                    np.zeros(seat, np.int16), np.zeros(seat, np.int16),
                    np.zeros(seat, np.int16), np.zeros(game, np.int16),
                    np.zeros(game, np.int16), np.zeros(game, np.int16),
                    np.zeros(game, np.int16))
    return GameState(
        clock=np.zeros(4, np.int64),
        dealt=np.zeros(tiles, np.int16),
        hand=np.zeros((players, rules.rounds), np.int16),
        held=np.zeros(players, np.int16),
        pile=np.zeros((players, rules.rounds), np.int16),
        drawn=np.zeros(players, np.int16), pick=np.zeros(players, np.int16),
        target=np.zeros(players, np.int16),
        top=np.zeros(players, np.int16), golden_symbols=np.zeros(players, np.int16),
        jar_mask=np.zeros((players, jars), np.int64),
        jar_count=np.zeros((players, jars), np.int64),
        jar_golden=np.zeros((players, jars), np.int64),
        jar_cubes=np.zeros((players, jars, COLOURS), np.int64),
        exchange=np.zeros((players, COLOURS), np.int64),
        supply=np.zeros(COLOURS, np.int64), golden=np.zeros(1, np.int64),
        chips=np.zeros(rules.chip_values.shape, np.int16),
        chips_drawn=np.zeros(METALS, np.int64),
        chip_owner=np.zeros(rules.chip_values.shape, np.int16),
        seen=np.zeros(tiles, np.bool_),
        aim_draws=np.zeros((players, rules.rounds)),
        batch=np.zeros(COLOURS, np.int64), passing=np.zeros(rules.rounds, np.int16),
        owed_coins=np.zeros(METALS, np.int64),
        owed_cubes=np.zeros(3, np.int64),
        worth=np.zeros(COLOURS), values=np.zeros(2 * rules.max_offset + 1),
        deal_stream=np.zeros(2, np.uint64), chip_stream=np.zeros(2, np.uint64),
        aim_stream=np.zeros(2, np.uint64), die_stream=np.zeros(2, np.uint64),
        decision_stream=np.zeros(2, np.uint64), sheet=sheet)


@jit_borrowing
def deal_tiles(seed, deal, rules, stream, order):
    """The tiles of deal ``deal`` in dealt order (``order``, length T): a pure function of
    (seed, the deal's tile block)."""
    for t in range(order.shape[0]):
        order[t] = t
    reset_stream(stream, seed, deal // rules.tile_repeat, DEAL_STREAM)
    shuffle_range(stream, order, 0, order.shape[0])


@jit_borrowing
def shuffle_chips(seed, deal, rules, stream, chips):
    """Each metal's chip pile of deal ``deal`` in drawing order (``chips``, per metal)."""
    reset_stream(stream, seed, deal // rules.chip_repeat, CHIP_STREAM)
    for m in range(METALS):
        for i in range(rules.chip_count[m]):
            chips[m, i] = rules.chip_values[m, i]
        shuffle_range(stream, chips[m], 0, rules.chip_count[m])


@jit
def deal(seed, deal_index, rules):
    """Deal ``deal_index``: the tiles in dealt order, then each metal's pile of chips."""
    stream = np.zeros(2, np.uint64)
    tiles = np.zeros(rules.plate, np.int16)
    deal_tiles(seed, deal_index, rules, stream, tiles)
    chips = np.zeros(rules.chip_values.shape, np.int16)
    shuffle_chips(seed, deal_index, rules, stream, chips)
    return tiles, chips


# Rule steps ------------------------------------------------------------------------------
@jit_borrowing
def start_game(seed, deal, game, rotation, rules, state):
    """Deal the tiles (RULES.md s4: 7 per player, 2 face up, 5 in a face-down pile), the
    chip piles, every aim's chance; fill the supply; empty boards, cakes on their plates,
    a blank score sheet; the clock at the first round's picks."""
    players = state.held.shape[0]
    state.clock[ROUND] = 0
    state.clock[STEP] = PICKING
    state.clock[ROTATION] = rotation
    deal_tiles(seed, deal, rules, state.deal_stream, state.dealt)
    shuffle_chips(seed, deal, rules, state.chip_stream, state.chips)
    state.chips_drawn[:] = 0
    state.chip_owner[:] = -1
    state.seen[:] = False
    for seat in range(players):
        for r in range(rules.rounds):
            tile = state.dealt[seat * rules.rounds + r]
            if r < rules.face_up:
                state.hand[seat, r] = tile
                state.seen[tile] = True
            else:
                state.pile[seat, r - rules.face_up] = tile
        state.held[seat] = rules.face_up
        state.drawn[seat] = 0
        state.top[seat] = rules.plate
        state.golden_symbols[seat] = 0
        state.pick[seat] = UNDECIDED
        state.target[seat] = NO_PLAN
    clear_sheet(state.sheet)
    reset_stream(state.aim_stream, seed, deal, AIM_STREAM)
    for seat in range(players):
        for r in range(rules.rounds):
            state.aim_draws[seat, r] = uniform(state.aim_stream)
    reset_stream(state.die_stream, seed, deal, DIE_STREAM)
    reset_stream(state.decision_stream, seed, game, DECISION_STREAM)
    for c in range(COLOURS):
        state.supply[c] = rules.supply[c]
    state.golden[0] = rules.golden
    state.jar_mask[:] = 0
    state.jar_count[:] = 0
    state.jar_golden[:] = 0
    state.jar_cubes[:] = 0
    state.exchange[:] = 0


@jit_inline
def choose_tiles(rules, seats, rotation, state):
    """Everyone picks one face-up tile at once (RULES.md s4 "Round"): each decides from
    the table as it is at the round's start, in seat order for the random draws (a
    searching seat has picked already: ``advance``)."""
    players = state.held.shape[0]
    for seat in range(players):
        if state.pick[seat] != UNDECIDED:
            continue
        player = (seat - rotation) % players
        left = (seat + 1) % players
        state.pick[seat] = choose_tile(
            seats.codes[player, DRAFT], seats.params[player], seats.aim[player], rules,
            state.hand[seat], state.held[seat], state.top[seat], state.jar_mask[seat],
            state.jar_count[seat], state.top[left], state.jar_mask[left],
            state.jar_count[left], state.worth, state.values, state.decision_stream)


@jit_inline
def aim(rules, seats, rotation, seat, round_index, tile, state):
    """The offset the layer lands at: the player aims by eye (``choose_target``, or at the
    offset its search chose with the tile) and misses by its aim error
    (``strategies.aim_error``); with ``miss_edge`` a miss beyond the allowed offsets lands
    on the outermost one (``strategies.landing``), else beyond it. Returns
    ``(target, offset)``."""
    players = state.held.shape[0]
    player = (seat - rotation) % players
    target = state.target[seat]
    if target == NO_PLAN:
        target = choose_target(seats.codes[player, AIM], seats.params[player],
                               seats.aim[player], rules, state.top[seat], tile,
                               state.jar_mask[seat], state.jar_count[seat], state.worth,
                               state.values, state.decision_stream)
    error = aim_error(seats.aim[player], state.aim_draws[seat, round_index])
    return target, landing(rules, target + error)


@jit_inline
def place_layer(rules, seat, tile, offset, state):
    """Lay ``tile`` on the cake at ``offset``; for every connected stripe with sugar
    symbols take that many cubes of its colour from the supply into hand (what the supply
    lacks is lost). A layer beyond the outermost offset connects nothing."""
    below_tile = state.top[seat]
    connected = 0
    for c in range(COLOURS):
        if abs(offset) <= rules.max_offset and connects(rules, below_tile, tile, c, offset):
            connected += 1
            wanted = rules.tile_sugar[tile, c]
            taken = min(wanted, state.supply[c])
            state.supply[c] -= taken
            state.batch[c] += taken
            state.sheet.cubes[0, seat] += taken
            state.sheet.shortfall[0] += wanted - taken
    state.sheet.connected[0, seat] += connected
    if connected > 0 or not rules.golden_needs_connection:
        state.golden_symbols[seat] += rules.tile_golden[tile]
    state.top[seat] = tile


@jit_inline
def empty_jar(rules, seat, j, state):
    """A full jar empties at once into the supply and owes its coin."""
    for c in range(COLOURS):
        state.supply[c] += state.jar_cubes[seat, j, c]
        state.jar_cubes[seat, j, c] = 0
    state.golden[0] += state.jar_golden[seat, j]
    state.jar_mask[seat, j] = 0
    state.jar_count[seat, j] = 0
    state.jar_golden[seat, j] = 0
    state.owed_coins[rules.metal[j]] += 1


@jit_inline
def trade_exchange(rules, seat, state):
    """``exchange`` cubes in the exchange jar go back to the supply for one cube of any
    colour, owed at once."""
    for c in range(COLOURS):
        state.supply[c] += state.exchange[seat, c]
        state.exchange[seat, c] = 0
    state.owed_cubes[ANY_OWED] += 1
    state.sheet.exchanges[0] += 1


@jit_inline
def place_cube(rules, seats, player, seat, colour, restricted, state):
    """Put one cube in hand into the jar the player chooses; a colour cube that goes to
    no blue jar goes to the exchange jar (or, without one, back to the supply)."""
    j = choose_jar(seats.codes[player, JARS], seats.params[player], rules,
                   state.jar_mask[seat], state.jar_count[seat], colour, restricted,
                   state.decision_stream)
    if j < 0 and colour == GOLDEN_CUBE:
        state.golden[0] += 1  # no jar has room: cannot happen, since full jars empty
        return
    if j < 0:
        if not rules.exchange_jar:
            state.supply[colour] += 1
            return
        state.exchange[seat, colour] += 1
        if state.exchange[seat].sum() >= rules.exchange:
            trade_exchange(rules, seat, state)
        return
    if colour == GOLDEN_CUBE:
        state.jar_golden[seat, j] += 1
    else:
        state.jar_mask[seat, j] |= 1 << colour
        state.jar_cubes[seat, j, colour] += 1
    state.jar_count[seat, j] += 1
    if state.jar_count[seat, j] == rules.capacity[j]:
        empty_jar(rules, seat, j, state)


@jit_inline
def take_colour(rules, seats, player, seat, restricted, state):
    """Take a cube of the colour the player chooses from what the supply has and return
    its colour, to be placed; -1 if none left fits a blue jar (a shortfall)."""
    colour = choose_colour(seats.codes[player, JARS], seats.params[player], rules,
                           state.jar_mask[seat], state.jar_count[seat], state.supply,
                           restricted, state.decision_stream)
    if colour < 0:
        state.sheet.shortfall[0] += 1
    else:
        state.supply[colour] -= 1
    return colour


@jit_inline
def roll_die(rules, seat, state):
    """A gold coin rolls the die (RULES.md s4): cubes of any colour or golden cubes owed,
    stars, or a chip owed."""
    state.sheet.die_rolls[0] += 1
    face = below(state.die_stream, rules.die_kind.shape[0])
    kind, amount = rules.die_kind[face], rules.die_amount[face]
    if kind == CUBE:
        state.owed_cubes[ANY_OWED] += amount
    elif kind == GOLDEN:
        state.owed_cubes[GOLDEN_OWED] += amount
    elif kind == STAR:
        state.sheet.stars[0, seat] += amount
    elif kind != BLANK:
        state.owed_coins[kind - STAR - 1] += amount


@jit_inline
def pay_coin(rules, seat, metal, state):
    """Draw the top chip of ``metal``'s pile (none if it is empty); gold rolls the die."""
    if state.chips_drawn[metal] >= rules.chip_count[metal]:
        state.sheet.empty_piles[0] += 1
        return
    state.sheet.total[0, seat] += state.chips[metal, state.chips_drawn[metal]]
    state.chip_owner[metal, state.chips_drawn[metal]] = seat
    state.chips_drawn[metal] += 1
    if metal == 0:
        state.sheet.bronze[0, seat] += 1
    elif metal == 1:
        state.sheet.silver[0, seat] += 1
    else:
        state.sheet.gold[0, seat] += 1
    if metal == GOLD and rules.die:
        roll_die(rules, seat, state)


@jit_inline
def fill_jars(rules, seats, rotation, seat, restricted, state):
    """Put every cube in hand and every cube owed into jars, settling each consequence at
    once before the next cube: coins owed first (a gold coin's die roll may owe more),
    then golden cubes, then cubes of any colour, then the end's cubes for golden symbols,
    then the hand (``next_cube`` first)."""
    players = state.held.shape[0]
    player = (seat - rotation) % players
    while True:
        metal = -1
        for m in range(METALS):
            if state.owed_coins[m] > 0:
                metal = m
                break
        if metal >= 0:
            state.owed_coins[metal] -= 1
            pay_coin(rules, seat, metal, state)
            continue
        # Each branch yields the next cube to place, if any (``GOLDEN_CUBE`` is -1, so a
        # flag says whether there is one); a single call of ``place_cube`` serves them all,
        # because every call site is compiled in full (inlined, with the player's jar
        # choice): four sites made a kernel that took three minutes to compile.
        jar_restricted = restricted
        if state.owed_cubes[GOLDEN_OWED] > 0:
            state.owed_cubes[GOLDEN_OWED] -= 1
            colour = GOLDEN_CUBE
            placing = state.golden[0] > 0
            if placing:
                state.golden[0] -= 1
            else:
                state.sheet.shortfall[0] += 1
        elif state.owed_cubes[ANY_OWED] > 0 or state.owed_cubes[END_OWED] > 0:
            if state.owed_cubes[ANY_OWED] > 0:
                state.owed_cubes[ANY_OWED] -= 1
                # A cube of any colour keeps the colour restriction even at the end
                # (RULES.md s4: only the golden symbols' cubes are exempt).
                jar_restricted = True
            else:
                state.owed_cubes[END_OWED] -= 1
            colour = take_colour(rules, seats, player, seat, jar_restricted, state)
            placing = colour >= 0
        else:
            colour = next_cube(rules, state.batch, state.jar_mask[seat],
                               state.jar_count[seat], restricted)
            if colour < 0:
                return
            state.batch[colour] -= 1
            placing = True
        if placing:
            place_cube(rules, seats, player, seat, colour, jar_restricted, state)


@jit_inline
def pass_tiles(rules, state):
    """Each passes the unpicked tiles left and draws one from their own pile."""
    players = state.held.shape[0]
    # The tiles each seat keeps for its left neighbour, in hand order, after the pick.
    for i in range(state.held[players - 1]):
        state.passing[i] = state.hand[players - 1, i]
    last_held = state.held[players - 1]
    last_pick = state.pick[players - 1]
    for seat in range(players - 1, -1, -1):
        source = seat - 1
        count = 0
        if source >= 0:
            for i in range(state.held[source]):
                if i != state.pick[source]:
                    state.hand[seat, count] = state.hand[source, i]
                    count += 1
        else:
            for i in range(last_held):
                if i != last_pick:
                    state.hand[seat, count] = state.passing[i]
                    count += 1
        if state.drawn[seat] < rules.rounds - rules.face_up:
            state.hand[seat, count] = state.pile[seat, state.drawn[seat]]
            state.seen[state.hand[seat, count]] = True
            state.drawn[seat] += 1
            count += 1
        state.held[seat] = count
        state.pick[seat] = UNDECIDED
        state.target[seat] = NO_PLAN


@jit_inline
def score_game(rules, sheet):
    """Points: every chip's value (already added) plus the stars; the most points win,
    ties split the win units."""
    players = sheet.total.shape[1]
    best = -1
    for seat in range(players):
        sheet.total[0, seat] += rules.star_points * sheet.stars[0, seat]
        best = max(best, sheet.total[0, seat])
    # ``kits.seating.split_wins``, in place: it would allocate the winners' mask.
    winners = 0
    for seat in range(players):
        winners += sheet.total[0, seat] == best
    for seat in range(players):
        sheet.win_units[0, seat] = WIN_UNITS // winners if sheet.total[0, seat] == best else 0


@jit_inline
def first_placer(rules, round_index, players):
    """The seat that places first in round ``round_index``: seat 0, who last ate cake, in
    every round; with the rotating order, one seat further clockwise each round."""
    return round_index % players if rules.rotate else 0


@jit_inline
def golden_cubes(rules, seats, rotation, seat, state):
    """The end (RULES.md s4): a cube for every golden symbol on the finished cake, into
    jars without the colour restriction: by default a cube of any colour from the supply,
    with ``end_golden`` a golden cube; what they bring about (coins, the die) is settled as
    in a round."""
    if rules.end_golden:
        state.owed_cubes[GOLDEN_OWED] += state.golden_symbols[seat]
    else:
        state.owed_cubes[END_OWED] += state.golden_symbols[seat]
    fill_jars(rules, seats, rotation, seat, False, state)


@jit_inline
def place(rules, seats, rotation, seat, state):
    """One seat's turn in placement order: aim the picked tile, lay it, fill the jars."""
    tile = state.hand[seat, state.pick[seat]]
    target, offset = aim(rules, seats, rotation, seat, state.clock[ROUND], tile, state)
    state.sheet.misses[0, seat] += offset != target
    place_layer(rules, seat, tile, offset, state)
    fill_jars(rules, seats, rotation, seat, True, state)


@jit_borrowing
def advance(rules, seats, state):
    """Play on from ``state.clock`` until a searching seat must pick (False; the clock's
    ``SEAT`` is that seat) or the game is over (True): RULES.md s4, round by round (picks,
    then placements in order, then the tiles passed on), then the end.

    A seat searches when its draft code is ``SEARCH``: at a round's start each such seat
    whose pick is still ``UNDECIDED`` is asked in seat order, before the other seats pick
    (``choose_tiles``); every pick is made from the table as it was at the round's start.
    """
    players = state.held.shape[0]
    clock = state.clock
    rotation = clock[ROTATION]
    while clock[ROUND] < rules.rounds:
        if clock[STEP] == PICKING:
            for seat in range(players):
                player = (seat - rotation) % players
                if state.pick[seat] == UNDECIDED and seats.codes[player, DRAFT] == SEARCH:
                    clock[SEAT] = seat
                    return False
            choose_tiles(rules, seats, rotation, state)
            clock[STEP] = 0
        first = first_placer(rules, clock[ROUND], players)
        while clock[STEP] < players:
            place(rules, seats, rotation, (first + clock[STEP]) % players, state)
            clock[STEP] += 1
        pass_tiles(rules, state)
        clock[ROUND] += 1
        clock[STEP] = PICKING
    if clock[ROUND] == rules.rounds:
        # The end, in the last round's placement order.
        first = first_placer(rules, rules.rounds - 1, players)
        for step in range(players):
            golden_cubes(rules, seats, rotation, (first + step) % players, state)
        clock[ROUND] += 1
    return True


def play_games(seed, first_game, duplicate, rules, seats, results, space=None):
    """Play ``results.total.shape[0]`` games of ``seed`` from ``first_game`` on.

    Player ``j`` (row ``j`` of ``seats``) sits at seat ``(j + rotation) % P``; with
    duplicate deals game ``i`` is deal ``i // P`` in rotation ``i % P``. ``space`` is the
    search's working space (``search.new_search_space``) when a player searches, else
    ``None`` (the kernel is then compiled without the search: ``kits.search.decide``).
    Plain Python, as Piece o' Cake's (which says why): the game state is allocated here,
    once; ``play_batch`` plays the games in it.
    """
    play_batch(seed, first_game, duplicate, rules, seats,
               new_state(rules, results.total.shape[1]), space, results)


@jit_borrowing
def play_batch(seed, first_game, duplicate, rules, seats, state, space, results):
    """The games of ``play_games``, in arrays it allocated: a function that allocates
    counts references to every array of every bundle it passes on, which cost more than
    the game itself."""
    players = results.total.shape[1]
    sheet = state.sheet
    for g in range(results.total.shape[0]):
        game = first_game + g
        deal_index, rotation = seat_of_deal(game, players, duplicate)
        start_game(seed, deal_index, game, rotation, rules, state)
        while not advance(rules, seats, state):
            decide(rules, seats, state, None, space)
        score_game(rules, sheet)
        record(sheet, g, results)


@jit_inline
def columns(results):
    """The per-seat arrays of a ``Results``, then its per-game arrays, in ``SEAT_RESULTS``
    and ``GAME_RESULTS`` order: two tuples of arrays of one type each, which a loop may
    index (a bundle's fields can only be named)."""
    return ((results.total, results.win_units, results.bronze, results.silver, results.gold,
             results.stars, results.cubes, results.connected, results.misses),
            (results.shortfall, results.exchanges, results.die_rolls, results.empty_piles))


@jit_borrowing
def clear_sheet(sheet):
    """Every result of the game's one row at zero."""
    per_seat, per_game = columns(sheet)
    for k in range(len(per_seat)):
        for seat in range(per_seat[k].shape[1]):
            per_seat[k][0, seat] = 0
    for k in range(len(per_game)):
        per_game[k][0] = 0


@jit_borrowing
def record(sheet, g, results):
    """The finished game's row of results into output row ``g``."""
    per_seat, per_game = columns(sheet)
    into_seat, into_game = columns(results)
    for k in range(len(per_seat)):
        for seat in range(per_seat[k].shape[1]):
            into_seat[k][g, seat] = per_seat[k][0, seat]
    for k in range(len(per_game)):
        into_game[k][g] = per_game[k][0]
