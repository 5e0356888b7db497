"""Topp die Torte! strategies: parameter vectors and the decision functions that read them.

A strategy is three small integer codes (how it drafts, how it fills jars, how it aims)
and a float vector of weights, one row per player, so that an experiment can mix strategies at
a table and sweep their parameters. The decision functions are compiled once and used by
both the Numba kernel and the reference engine (which runs them as plain Python): the
engines own the rules, a strategy only answers "what would you do?".

What a player reads: its cake's top layer, its jars (``jar_mask[j]``, the colours in jar
``j`` as bits; ``jar_count[j]``, its cubes, golden ones included), the supply, and the
left neighbour's top layer and jars (to weigh the tile it passes on). Colours are
``0 .. 4`` in the rule set's order; a golden cube is ``GOLDEN_CUBE``.

The aim error (docs/topp_die_torte.md, "Aim by eye"): a player aims at an offset and
misses by ``k`` slots with probability proportional to ``exp(-k^2 / (2 sigma^2))``,
``|k| <= 2 * max_offset``, ``sigma`` its ``aim_error`` (0: never misses); the layer lands
at the aimed offset plus the error (``landing``: by default a miss beyond the allowed
offsets lands on the outermost one; with ``miss_beyond = "nothing"`` it lands beyond it,
where nothing connects).
"""

import math

import numpy as np

from cakesim.engine.contract import SIGNED_WEIGHT, WEIGHT
from cakesim.engine.jit import jit_inline
from cakesim.engine.seeding import below
from cakesim.kits import exact
from cakesim.kits.bandit import SEARCH_WEIGHTS
from cakesim.kits.strategies import Code, StrategySpec

# Positions in a strategy's code vector, and the codes.
DRAFT, JARS, AIM = 0, 1, 2
RANDOM = 0
GREEDY = 1
SEARCH = 2
CODES = {"random": RANDOM, "greedy": GREEDY}
"""Jar codes: at random, or by the weights."""
DRAFTS = {**CODES, "search": SEARCH}
"""Draft codes: at random, by the weights, or by the search of ``search.py``, which
chooses the tile and the offset to aim it at together (the kernel hands it the pick:
``kernel.advance``; ``choose_tile`` never sees its code)."""
AIMS = {"random": RANDOM, "best": GREEDY}
"""Aim codes: at a random offset, or at the best one (by the weights)."""
GOLDEN_CUBE = -1
"""A golden (joker) cube where a decision takes a colour."""

PARAMETERS = {
    "aim_error": (1.0, (0.0, 5.0), "the aim error's size (sigma, in slots): 0 never misses; "
                                   "the default is a steady but unmeasured eye"),
    "hedge": (0.0, (0.0, 1.0), "how much the aim allows for the player's own error: 0 aims "
                               "at the best offset, 1 at the best expected value under the "
                               "error"),
    "fit_weight": (1.0, WEIGHT, "value of a cube that fits a blue jar"),
    "exchange_weight": (0.34, WEIGHT, "value of a cube that fits no blue jar (it goes to "
                                      "the exchange jar: three make one cube)"),
    "golden_weight": (1.0, WEIGHT, "value of a golden symbol on a tile (a golden cube at "
                                   "the end)"),
    "deny_weight": (0.0, WEIGHT, "weight of what the tile passed on is worth to the left "
                                 "neighbour, subtracted from the tile kept"),
    "top_weight": (0.0, SIGNED_WEIGHT, "value of the tile's cream width as the new top "
                                       "layer (a wide top is easier to connect to), per "
                                       "tile width"),
    "fill_weight": (1.0, SIGNED_WEIGHT, "jar choice: weight of how full a jar would be "
                                        "(positive: finish jars first; negative: spread)"),
    "size_weight": (0.0, SIGNED_WEIGHT, "jar choice: weight of a jar's size (positive: "
                                        "large jars and gold first; negative: small)"),
    "exchange_threshold": (-1e6, SIGNED_WEIGHT, "with the voluntary exchange rule only: a "
                                                "colour cube whose best jar scores below "
                                                "this goes to the exchange jar (the default "
                                                "is below any jar's score: never)"),
    **SEARCH_WEIGHTS,
}
"""Every weight: its default, its allowed range and what it means. The last four are
read only by a ``search`` draft; the heuristic weights before them are then its rollout
policy's."""

FOLLOWS_DRAFT = ("draft", {"random": "random"})
"""A file naming a random draft and no jar or aim code fills jars and aims at random too."""
SPEC = StrategySpec(codes={"draft": Code(DRAFTS, "greedy", "draft"),
                           "jars": Code(CODES, "greedy", "jars", follows=FOLLOWS_DRAFT),
                           "aim": Code(AIMS, "best", "aim", follows=FOLLOWS_DRAFT)},
                    parameters=PARAMETERS, search_parameters=tuple(SEARCH_WEIGHTS))
"""A strategy: how it drafts, fills jars and aims, and its weights."""

# Positions of the weights in a strategy's parameter vector, made from the spec.
AIM_ERROR = SPEC.index("aim_error")
HEDGE = SPEC.index("hedge")
FIT_WEIGHT = SPEC.index("fit_weight")
EXCHANGE_WEIGHT = SPEC.index("exchange_weight")
GOLDEN_WEIGHT = SPEC.index("golden_weight")
DENY_WEIGHT = SPEC.index("deny_weight")
TOP_WEIGHT = SPEC.index("top_weight")
FILL_WEIGHT = SPEC.index("fill_weight")
SIZE_WEIGHT = SPEC.index("size_weight")
EXCHANGE_THRESHOLD = SPEC.index("exchange_threshold")
ITERATIONS = SPEC.index("iterations")
EXPLORATION = SPEC.index("exploration")
WIDENING = SPEC.index("widening")
DEPTH = SPEC.index("depth")


Strategy = SPEC.record("Strategy", __name__)
"""A named strategy: draft, jar and aim codes and the weights that differ from the
defaults (``Strategy.parse`` reads one from an experiment's ``[strategies.NAME]`` table)."""


BUILTIN = {
    "random": Strategy("random", "random", "random", "random"),
    "greedy": Strategy("greedy"),
}


def aim_table(sigma: float, spread: int) -> np.ndarray:
    """The aim error's probabilities for errors ``-spread .. spread`` slots, and their
    running sums (row 1; its last entry exactly 1): a discretised normal of size ``sigma``.

    Computed once per player in Python, so that the kernel and the reference draw the
    error from the very same numbers, and with correctly rounded ``exp`` (``kits.exact``)
    so that every machine does: the tuned aim breaks ties between offsets on their bits.
    """
    weights = np.array([float(k == 0) if sigma == 0 else exact.exp(-k * k / (2 * sigma * sigma))
                        for k in range(-spread, spread + 1)])
    pmf = weights / weights.sum()
    cdf = np.cumsum(pmf)
    cdf[-1] = 1.0
    return np.stack([pmf, cdf])


def strategy_arrays(strategies: list[Strategy], max_offset: int):
    """Per-player codes, weights and aim tables (``(P, 2, 4 * max_offset + 1)``) for the
    kernel: the aim tables are worked out here, once per player, from ``aim_error``."""
    codes, params = Strategy.arrays(strategies)
    return codes, params, np.stack([aim_table(float(s.params[AIM_ERROR]), 2 * max_offset)
                                    for s in strategies])


# Geometry --------------------------------------------------------------------------------
@jit_inline
def connects(rules, below_tile, tile, colour, offset):
    """Whether ``tile``'s stripe of ``colour``, placed ``offset`` slots along, overlaps the
    same colour's stripe of ``below_tile`` by at least ``min_overlap`` slots."""
    low = max(rules.tile_start[tile, colour] + offset, rules.tile_start[below_tile, colour])
    high = min(rules.tile_end[tile, colour] + offset, rules.tile_end[below_tile, colour])
    return high - low + 1 >= rules.min_overlap


@jit_inline
def fits(rules, jar_mask, jar_count, j, colour, restricted):
    """Whether a cube of ``colour`` (or golden) may go into jar ``j`` now."""
    if jar_count[j] >= rules.capacity[j]:
        return False
    return colour == GOLDEN_CUBE or not restricted or (jar_mask[j] >> colour) & 1 == 0


@jit_inline
def cube_worth(rules, params, jar_mask, jar_count, worth):
    """Fill ``worth[c]``: a cube of colour ``c`` is worth ``fit_weight`` if some blue jar
    takes it now, else ``exchange_weight``."""
    for c in range(worth.shape[0]):
        worth[c] = params[EXCHANGE_WEIGHT]
        for j in range(rules.capacity.shape[0]):
            if fits(rules, jar_mask, jar_count, j, c, True):
                worth[c] = params[FIT_WEIGHT]
                break


@jit_inline
def offset_values(rules, below_tile, tile, worth, values):
    """Fill ``values[d + max_offset]``: the worth of the cubes ``tile`` brings when laid
    ``d`` slots along on ``below_tile`` (each connected stripe's sugar symbols)."""
    reach = rules.max_offset
    for i in range(2 * reach + 1):
        total = 0.0
        for c in range(worth.shape[0]):
            if rules.tile_sugar[tile, c] > 0 and connects(rules, below_tile, tile, c, i - reach):
                total += rules.tile_sugar[tile, c] * worth[c]
        values[i] = total


@jit_inline
def landing(rules, offset):
    """Where a layer aimed and missed to ``offset`` lands: with ``miss_edge``, a miss beyond
    the allowed offsets on the outermost one; otherwise where it went (beyond the allowed
    offsets a layer connects nothing)."""
    if rules.miss_edge:
        return min(max(offset, -rules.max_offset), rules.max_offset)
    return offset


@jit_inline
def aimed_value(rules, values, aim, hedge, i):
    """Offset ``i``'s value, blended with its expected value under the aim error (a landing
    beyond the allowed offsets is worth nothing)."""
    if hedge == 0.0:
        return values[i]
    reach = rules.max_offset
    spread = (aim.shape[1] - 1) // 2
    expected = 0.0
    for k in range(aim.shape[1]):
        landed = landing(rules, i + k - spread - reach)
        if abs(landed) <= reach:
            expected += aim[0, k] * values[landed + reach]
    return (1.0 - hedge) * values[i] + hedge * expected


@jit_inline
def best_offset(rules, values, aim, hedge):
    """The offset index to aim at: the highest (hedged) value, ties to the offset nearest
    0, then the left one (``0, -1, +1, -2, ...``). Returns ``(index, value)``."""
    reach = rules.max_offset
    best, best_value = reach, -math.inf
    for step in range(2 * reach + 1):
        i = reach + (step + 1) // 2 * (1 if step % 2 == 0 else -1)
        value = aimed_value(rules, values, aim, hedge, i)
        if value > best_value:
            best, best_value = i, value
    return best, best_value


@jit_inline
def tile_width(rules, tile):
    """The cream width of ``tile`` as a share of the tile: its stripes' slots over all."""
    width = 0
    for c in range(rules.tile_sugar.shape[1]):
        width += rules.tile_end[tile, c] - rules.tile_start[tile, c] + 1
    return width / rules.slots


# Decisions -------------------------------------------------------------------------------
@jit_inline
def choose_tile(code, params, aim, rules, hand, held, top, jar_mask, jar_count, left_top,
                left_mask, left_count, worth, values, stream):
    """Which of the ``held`` tiles of ``hand`` to lay this round (an index into ``hand``).

    Greedy: each tile's best (hedged) offset value on the player's top, plus its golden
    symbols and its width as the new top, minus ``deny_weight`` times what the tiles it
    passes on bring the left neighbour at their best offset. Ties: the first tile.
    """
    if code == RANDOM:
        return below(stream, held)
    cube_worth(rules, params, jar_mask, jar_count, worth)
    best, best_value = 0, -math.inf
    for i in range(held):
        offset_values(rules, top, hand[i], worth, values)
        _, value = best_offset(rules, values, aim, params[HEDGE])
        value += (params[GOLDEN_WEIGHT] * rules.tile_golden[hand[i]]
                  + params[TOP_WEIGHT] * tile_width(rules, hand[i]))
        if params[DENY_WEIGHT] != 0.0:
            cube_worth(rules, params, left_mask, left_count, worth)
            for other in range(held):
                if other != i:
                    offset_values(rules, left_top, hand[other], worth, values)
                    _, passed = best_offset(rules, values, aim, 0.0)
                    value -= params[DENY_WEIGHT] * passed
            cube_worth(rules, params, jar_mask, jar_count, worth)
        if value > best_value:
            best, best_value = i, value
    return best


@jit_inline
def choose_target(code, params, aim, rules, top, tile, jar_mask, jar_count, worth, values,
                  stream):
    """The offset (``-max_offset .. max_offset``) the player aims ``tile`` at: the best
    (``best_offset``; ``code`` is the strategy's aim code) or a random one."""
    reach = rules.max_offset
    if code == RANDOM:
        return below(stream, 2 * reach + 1) - reach
    cube_worth(rules, params, jar_mask, jar_count, worth)
    offset_values(rules, top, tile, worth, values)
    best, _ = best_offset(rules, values, aim, params[HEDGE])
    return best - reach


@jit_inline
def aim_error(aim, u):
    """The aim error (in slots) for the uniform draw ``u``: the first running sum above it."""
    spread = (aim.shape[1] - 1) // 2
    for k in range(aim.shape[1]):
        if u < aim[1, k]:
            return k - spread
    return spread


@jit_inline
def jar_score(rules, params, jar_count, j):
    """How much the player likes putting a cube into jar ``j``."""
    return (params[FILL_WEIGHT] * (jar_count[j] + 1) / rules.capacity[j]
            + params[SIZE_WEIGHT] * rules.capacity[j] / rules.largest_jar)


@jit_inline
def choose_jar(code, params, rules, jar_mask, jar_count, colour, restricted, stream):
    """The blue jar for a cube of ``colour`` (or golden), or -1 for the exchange jar.

    Greedy: the highest ``jar_score`` among the jars the cube fits (ties: the first jar);
    under the voluntary exchange rule a colour cube whose best score is below
    ``exchange_threshold`` goes to the exchange jar. Random: any jar it fits, uniformly.
    """
    jars = rules.capacity.shape[0]
    if code == RANDOM:
        count = homes(rules, jar_mask, jar_count, colour, restricted)
        if count == 0:
            return -1
        pick = below(stream, count)
        for j in range(jars):
            if fits(rules, jar_mask, jar_count, j, colour, restricted):
                if pick == 0:
                    return j
                pick -= 1
    best, best_score = -1, -math.inf
    for j in range(jars):
        if fits(rules, jar_mask, jar_count, j, colour, restricted):
            score = jar_score(rules, params, jar_count, j)
            if score > best_score:
                best, best_score = j, score
    if (rules.voluntary and colour != GOLDEN_CUBE and best >= 0
            and best_score < params[EXCHANGE_THRESHOLD]):
        return -1
    return best


@jit_inline
def choose_colour(code, params, rules, jar_mask, jar_count, supply, restricted, stream):
    """The colour of a cube of any colour (die, exchange), or -1 when no colour left in
    the supply fits a blue jar. Greedy: the colour with the best-scoring jar it fits (ties:
    the first colour); random: any colour that fits some jar, uniformly."""
    best, best_score, count = -1, -math.inf, 0
    for c in range(supply.shape[0]):
        if supply[c] == 0:
            continue
        fitting = False
        for j in range(rules.capacity.shape[0]):
            if fits(rules, jar_mask, jar_count, j, c, restricted):
                fitting = True
                score = jar_score(rules, params, jar_count, j)
                if score > best_score:
                    best, best_score = c, score
        count += fitting
    if code == RANDOM and count > 0:
        pick = below(stream, count)
        for c in range(supply.shape[0]):
            if supply[c] > 0 and homes(rules, jar_mask, jar_count, c, restricted) > 0:
                if pick == 0:
                    return c
                pick -= 1
    return best


@jit_inline
def homes(rules, jar_mask, jar_count, colour, restricted):
    """How many blue jars a cube of ``colour`` fits now."""
    count = 0
    for j in range(rules.capacity.shape[0]):
        count += fits(rules, jar_mask, jar_count, j, colour, restricted)
    return count


@jit_inline
def next_cube(rules, batch, jar_mask, jar_count, restricted):
    """Which cube of the ``batch`` (counts per colour) to place next: the colour that fits
    the fewest blue jars, ties to the first colour. Every strategy places a batch in this
    order, so that cubes with few homes find one.

    A cube that fits no jar comes last under ``misfits_last`` (the default: it goes to the
    exchange jar only if it is still left over once every cube that fits is placed, and a
    jar that fills and empties on the way gives it a home), else first."""
    # Ranks: 0 to ``jars`` homes, a waiting misfit ``jars + 1``; every rank beats the start.
    jars = rules.capacity.shape[0]
    best, fewest = -1, jars + 2
    for c in range(batch.shape[0]):
        if batch[c] > 0:
            rank = homes(rules, jar_mask, jar_count, c, restricted)
            if rank == 0 and rules.misfits_last:
                rank = jars + 1
            if rank < fewest:
                best, fewest = c, rank
    return best
