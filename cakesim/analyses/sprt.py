"""Running Wald's sequential test on a table: games played until a claim is settled.

The test itself (its hypotheses, error guarantees and the coin that makes a shared first
place a whole win) is ``cakesim.stats.sprt``; this module plays the games it reads.
"""

import sys
from collections.abc import Iterator

import numpy as np
from tqdm import tqdm

from cakesim.engine.contract import Game, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.jit import jit
from cakesim.engine.runner import say_if_compiling
from cakesim.engine.seeding import reset_stream, uniform
from cakesim.stats.sprt import SprtClaim, SprtResult, coin_wins

STEP = 2_000
"""Games played per chunk while the test runs."""
SPRT_STREAM = 0x5350_5254
"""Draw stream of the coin that settles a shared first place ("SPRT" in ASCII): far from
the small stream numbers of cakesim.engine.seeding, so that no game's draws can coincide with it."""


@jit
def coin_draws(seed, first_game, games):
    """float64[games]: one uniform draw per game from stream ``SPRT_STREAM`` of ``seed``."""
    draws = np.empty(games)
    stream = np.empty(2, dtype=np.uint64)
    for i in range(games):
        reset_stream(stream, seed, first_game + i, SPRT_STREAM)
        draws[i] = uniform(stream)
    return draws



def sequential_test(table: TableSpec, seed: int, claim: SprtClaim,
                    progress: bool = False) -> SprtResult:
    """Play games 0, 1, 2, ... of ``seed`` at ``table`` until the claim is settled.

    A table the claim cannot be tested at is an InputError naming the command-line option.
    With ``progress`` a bar counts the games up to ``max_games`` (the test may stop sooner).
    """
    claim.check_table(table, lambda key, message: InputError("cakesim sprt", f"--{key}",
                                                               message))
    test = claim.wald_test(table.players)
    shares: list[np.ndarray] = []
    say_if_compiling(progress)
    with tqdm(total=claim.max_games, desc=f"sprt: {table.label}", unit="game",
              file=sys.stderr, disable=not progress, leave=False) as bar:
        wins = _seat_wins(table.game, table, seed, claim, shares, bar)
        decision, games = test.run(wins, claim.max_games)
    share = float(np.concatenate(shares)[:games].mean())
    return SprtResult(claim, decision, games, share, 1.0 / table.players, test.null,
                      test.alternative)


def _seat_wins(game: Game, table: TableSpec, seed: int, claim: SprtClaim,
               shares: list[np.ndarray], bar: tqdm) -> Iterator[np.ndarray]:
    """The claim's seat's 0/1 outcomes, chunk by chunk; its fractional wins go to ``shares``."""
    for first in range(0, claim.max_games, STEP):
        count = min(STEP, claim.max_games - first)
        chunk = game.play_chunk(table, seed, first, count)
        bar.update(count)
        shares.append(chunk.seat["win_units"][:, claim.seat] / game.win_units)
        yield coin_wins(shares[-1], coin_draws(np.uint64(seed), first, count))
