"""Wald's sequential probability ratio test on a seat's win share.

The claim "seat k wins at least ``delta`` less than a fair 1/P" is H1: p = 1/P - delta,
against H0: p = 1/P. Games are played in order and the log-likelihood ratio is added game
by game; the test stops at the first game where it leaves (log(beta/(1-alpha)),
log((1-beta)/alpha)), which keeps the two error rates at about ``alpha`` and ``beta``.
A shared first place counts as a fractional win ``x``; its term
``x log(p1/p0) + (1-x) log((1-p1)/(1-p0))`` is the Bernoulli one, and a split win varies
less than a whole one, so the stated error rates are, if anything, conservative.
"""

import math
from dataclasses import dataclass

import numpy as np

from cakesim.errors import InputError
from cakesim.experiment import SprtClaim
from cakesim.games import get_game
from cakesim.games.base import TableSpec

STEP = 2_000


@dataclass(frozen=True)
class SprtResult:
    """How a claim fared: accepted, rejected or undecided, after how many games."""

    claim: SprtClaim
    decision: str
    games: int
    share: float
    """The seat's win share over the games the test used."""
    fair: float
    alternative: float

    def sentence(self) -> str:
        """One line for a person."""
        c = self.claim
        claim = (f"{c.table}, seat {c.seat + 1}: {c.direction} of at least "
                 f"{100 * c.delta:.1f} pp against a fair {100 * self.fair:.1f} %")
        return (f"{claim}: {self.decision} after {self.games:,} games (win share "
                f"{100 * self.share:.1f} %; alpha {c.alpha:g}, beta {c.beta:g})")

    def as_dict(self) -> dict:
        """Plain values for JSON."""
        return {"table": self.claim.table, "seat": self.claim.seat,
                "direction": self.claim.direction, "delta": self.claim.delta,
                "alpha": self.claim.alpha, "beta": self.claim.beta,
                "decision": self.decision, "games": self.games, "share": self.share}


def sequential_test(table: TableSpec, seed: int, claim: SprtClaim) -> SprtResult:
    """Play games 0, 1, 2, ... of ``seed`` at ``table`` until the claim is settled."""
    game = get_game(table.game)
    fair = 1.0 / table.players
    alternative = fair - claim.delta if claim.direction == "deficit" else fair + claim.delta
    if not 0.0 < alternative < 1.0:
        raise InputError(claim.table, "delta", f"{claim.delta} puts the alternative win share "
                                               f"at {alternative:.3f}, outside 0 to 1")
    accept_at = math.log((1 - claim.beta) / claim.alpha)
    reject_at = math.log(claim.beta / (1 - claim.alpha))
    win_step = math.log(alternative / fair)
    loss_step = math.log((1 - alternative) / (1 - fair))
    played, llr, wins = 0, 0.0, 0.0
    while played < claim.max_games:
        count = min(STEP, claim.max_games - played)
        chunk = game.play_chunk(table, seed, played, count)
        x = chunk.seat["win_units"][:, claim.seat] / game.win_units
        path = llr + np.cumsum(x * win_step + (1 - x) * loss_step)
        crossed = np.flatnonzero((path >= accept_at) | (path <= reject_at))
        if crossed.size:
            stop = int(crossed[0]) + 1
            decision = "claim accepted" if path[stop - 1] >= accept_at else "claim rejected"
            share = (wins + float(x[:stop].sum())) / (played + stop)
            return SprtResult(claim, decision, played + stop, share, fair, alternative)
        llr, wins, played = float(path[-1]), wins + float(x.sum()), played + count
    return SprtResult(claim, "undecided", played, wins / played, fair, alternative)
