"""How well Balance's estimate and interval (``cakesim.reports.metrics.balance``) do where
the truth is known: synthetic tables whose seats win with given shares.

A synthetic game only draws its winning seat: on each deal the seats win with
probabilities drawn from a Dirichlet law around the true shares (``luck``: the larger,
the less the deals differ; ``None``: every deal alike), and with probability ``ties``
first place is shared with another seat, chosen uniformly. On duplicate deals a deal is
P games (its seat rotations) with the same luck, as when the players' seats are
shuffled. The true shares are exact: the deal-level probabilities are set so that the
ties give back ``truth``.
"""

from dataclasses import dataclass

import numpy as np

from cakesim.reports.metrics import balance


@dataclass(frozen=True)
class Check:
    """How often Balance's interval covers the truth, over ``runs`` synthetic tables."""

    coverage: float
    too_low: float
    """Share of runs whose interval lies wholly below the true Balance."""
    too_high: float
    bias: float
    """Mean estimate minus the true Balance."""
    runs: int


def deal_shares(truth: np.ndarray, deals: int, duplicate: bool, rng: np.random.Generator,
                luck: float | None = None, ties: float = 0.0) -> np.ndarray:
    """Every seat's win share on each of ``deals`` synthetic deals (deals by seats)."""
    seats = len(truth)
    shared = ties / (2 * (seats - 1))
    # A tie gives the winner half a win and a uniform other seat the other half.
    odds = (np.asarray(truth, np.float64) - shared) / (1 - ties / 2 - shared)
    games = seats if duplicate else 1
    chances = np.broadcast_to(odds, (deals, seats)) if luck is None else \
        rng.dirichlet(luck * odds, deals)
    edges = np.cumsum(chances, axis=1)[:, None, :]
    winner = np.minimum((rng.random((deals, games, 1)) > edges).sum(axis=2), seats - 1)
    other = (winner + rng.integers(1, seats, (deals, games))) % seats
    tied = rng.random((deals, games)) < ties
    share = np.zeros((deals, games, seats))
    np.put_along_axis(share, winner[..., None], np.where(tied, 0.5, 1.0)[..., None], axis=2)
    np.add.at(share, (*np.nonzero(tied), other[tied]), 0.5)
    return share.mean(axis=1)


def check(truth: list[float], deals: int, duplicate: bool, runs: int, seed: int,
          luck: float | None = None, ties: float = 0.0) -> Check:
    """Balance's coverage and bias over ``runs`` synthetic tables of ``deals`` deals."""
    rng = np.random.default_rng(seed)
    true = 1 - (max(truth) - min(truth))
    found = [balance(deal_shares(np.asarray(truth), deals, duplicate, rng, luck, ties),
                     int(rng.integers(2 ** 32)))
             for _ in range(runs)]
    # A hair of slack: a fair table's interval ends at exactly 1 in floating point.
    above = np.array([e.low for e in found]) > true + 1e-12
    below = np.array([e.high for e in found]) < true - 1e-12
    return Check(float(1 - above.mean() - below.mean()), float(below.mean()),
                 float(above.mean()), float(np.mean([e.value for e in found]) - true), runs)
