"""Counter-based random numbers: every draw is a pure function of (seed, game, stream, n).

Game *i* of seed *s* gets its own key ``game_key(s, i, stream)``; its *n*-th draw is
``mix64(key + n * GOLDEN)`` (SplitMix64's output function applied to a counter). Nothing
depends on which process plays the game or on how games are chunked, and any game can
be replayed from its index alone.

A draw stream is a two-element ``uint64`` array ``[key, counter]`` so that kernels and the
reference engine can hand it to the same decision functions. The functions that draw
borrow it (``jit_borrowing``): a kernel creates its streams once per batch and restarts
them for every game with ``reset_stream``. The draws themselves (``jit_inline``) are
compiled into their callers: a shuffle or a random strategy makes dozens per game.
"""

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing, jit_inline

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_A = np.uint64(0xBF58476D1CE4E5B9)
_MIX_B = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S53 = np.uint64(53)
_ONE = np.uint64(1)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53

DEAL_STREAM = 0
"""Stream of a game's deal: shuffles and everything else chance decides in setup."""
DECISION_STREAM = 1
"""Stream of a game's random decisions (random strategies' choices)."""

MAX_BELOW = 2048
"""``below(stream, n)`` is exact for ``n <= MAX_BELOW`` (53 + 11 bits fit in 64)."""


@jit_inline
def mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of a 64-bit word."""
    z = (z ^ (z >> _S30)) * _MIX_A
    z = (z ^ (z >> _S27)) * _MIX_B
    return z ^ (z >> _S31)


@jit
def game_key(seed, game, stream):
    """The key of draw stream ``stream`` of game ``game`` under ``seed``."""
    k = mix64(np.uint64(seed) * GOLDEN + _ONE)
    k = mix64(k ^ (np.uint64(game) * GOLDEN))
    return mix64(k ^ (np.uint64(stream) + _ONE))


@jit_borrowing
def reset_stream(state, seed, game, stream):
    """Restart ``state`` as draw stream ``stream`` of game ``game`` under ``seed``."""
    state[0] = game_key(seed, game, stream)
    state[1] = 0


@jit
def new_stream(seed, game, stream):
    """A fresh ``[key, counter]`` draw stream."""
    state = np.empty(2, dtype=np.uint64)
    reset_stream(state, seed, game, stream)
    return state


@jit_inline
def next_u64(state):
    """The next 64-bit draw of ``state`` (advances its counter)."""
    state[1] += _ONE
    return mix64(state[0] + state[1] * GOLDEN)


@jit_inline
def below(state, n):
    """A uniform integer in ``[0, n)``, for ``1 <= n <= MAX_BELOW``."""
    return np.int64(((next_u64(state) >> _S11) * np.uint64(n)) >> _S53)


@jit_inline
def uniform(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> _S11) * _TO_UNIT


@jit_borrowing
def shuffle_in_place(state, items):
    """Fisher-Yates shuffle of ``items`` (last position first)."""
    shuffle_range(state, items, 0, items.shape[0])


@jit_borrowing
def shuffle_range(state, items, first, end):
    """Fisher-Yates shuffle of ``items[first:end]`` in place, without making a view."""
    for i in range(end - 1, first, -1):
        j = first + below(state, i - first + 1)
        items[i], items[j] = items[j], items[i]
