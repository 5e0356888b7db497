"""One candidate against fixed opponents, on duplicate deals with common random numbers.

Every measurement plays player 0 (the candidate) against ``P - 1`` copies of one
opponent on duplicate deals: each deal is played ``P`` times, the candidate sitting once
at every seat (``kits.seating.seat_of_deal``: in game ``g`` player 0 sits at seat
``g % P``). Two candidates measured with the same seed meet the same deals and the same
decision streams, so their difference is measured far more precisely than either share.
"""

from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed

from cakesim.engine.contract import ResultKind, RuleSet, Strategy, TableSpec
from cakesim.engine.errors import InputError
from cakesim.kits.strategies import Tunable, tunable
from cakesim.stats.intervals import Estimate, mean_of


@dataclass(frozen=True)
class Arena:
    """Where candidates are measured: a game, its rules, a player count and a variant."""

    game: Tunable
    rules: RuleSet
    players: int
    variant: str

    def __post_init__(self):
        if self.game.result_kind is not ResultKind.SEATS:
            raise InputError("tune", self.game.name, "only games the seats play against each "
                                                     "other can be tuned by self-play")
        tunable(self.game)
        played = [v for v in self.game.variants
                  if self.game.has_variant(self.rules, self.players, v)]
        if self.variant not in played:
            raise InputError("--variant", self.variant, f"not played at {self.players} "
                                                        f"players; allowed: {', '.join(played)}")

    @property
    def fair(self) -> float:
        """The win share of a seat when every player is as good as the others."""
        return 1.0 / self.players

    def table(self, candidate: Strategy, opponent: Strategy) -> TableSpec:
        """The candidate as player 0, the opponent at every other place, duplicate deals."""
        return self.game.table(self.rules, self.players,
                               [candidate] + [opponent] * (self.players - 1), self.variant,
                               duplicate=True)

    def round_up(self, games: int) -> int:
        """``games`` rounded up to whole deals (``P`` games each)."""
        return max(1, -(-games // self.players)) * self.players


def candidate_wins(arena: Arena, candidate: Strategy, opponent: Strategy, seed: int,
                   first_deal: int, deals: int) -> np.ndarray:
    """``wins[deal, seat]``: the candidate's share of each game's win, seated at ``seat``."""
    players = arena.players
    chunk = arena.game.play_chunk(arena.table(candidate, opponent), seed,
                                  first_deal * players, deals * players)
    units = chunk.seat["win_units"].astype(np.float64) / arena.game.win_units
    games = np.arange(units.shape[0])
    return units[games, games % players].reshape(deals, players)


def measure(arena: Arena, pairs: list[tuple[Strategy, Strategy]], seed: int, games: int,
            n_jobs: int = -1, deals_per_job: int = 2_500) -> list[np.ndarray]:
    """``candidate_wins`` of every ``(candidate, opponent)`` pair over the same deals.

    Long measurements are split into jobs of ``deals_per_job`` deals, spread over
    ``n_jobs`` threads; the result does not depend on the split. Threads, not processes:
    the kernels release the GIL (``engine.jit``), and a tuning measures thousands of
    small batches, each far cheaper than sending a job to another process.
    """
    deals = arena.round_up(games) // arena.players
    spans = [(start, min(deals_per_job, deals - start))
             for start in range(0, deals, deals_per_job)]
    jobs = [(p, start, size) for p in range(len(pairs)) for start, size in spans]
    if n_jobs == 1:
        parts = [candidate_wins(arena, *pairs[p], seed, start, size)
                 for p, start, size in jobs]
    else:
        parts = Parallel(n_jobs=n_jobs, prefer="threads")(
            delayed(candidate_wins)(arena, *pairs[p], seed, start, size)
            for p, start, size in jobs)
    return [np.concatenate([part for (p, _, _), part in zip(jobs, parts, strict=True)
                            if p == pair]) for pair in range(len(pairs))]


def share_of(wins: np.ndarray) -> Estimate:
    """The candidate's win share with its interval; deals are the independent units."""
    return _within_shares(mean_of(wins.mean(axis=1)))


def seat_shares(wins: np.ndarray) -> list[Estimate]:
    """The candidate's win share at each seat, with intervals."""
    return [_within_shares(mean_of(wins[:, seat])) for seat in range(wins.shape[1])]


def _within_shares(e: Estimate) -> Estimate:
    """``e`` with its interval cut to 0..1: a share lies there, so the cut interval covers
    it whenever the whole one does (no -0.0 % lower ends)."""
    return Estimate(e.value, max(e.low, 0.0), min(e.high, 1.0), e.n)
