"""Wald's sequential probability ratio test on a seat's win share.

**The hypotheses.** A *deficit* claim says "seat k wins at least delta less than a fair
share 1/P", that is p <= 1/P - delta for the seat's win share p. The test takes the
claim's negation as its null hypothesis and accepts the claim only by rejecting it:

    H0: p >= p0 = 1/P - delta              (the claim is false)
    H1: p <= p1 = 1/P - delta - epsilon    (the claim holds, with epsilon to spare)

An *advantage* claim is the mirror image: H0: p <= 1/P + delta against
H1: p >= 1/P + delta + epsilon. Between p0 and p1 lies the indifference zone of width
epsilon, where the claim is true but too narrowly for a test of finite length to tell
reliably; there either decision may come.

**The test.** Wald's SPRT between the two points p0 and p1 adds up, game by game, the
log-likelihood ratio of H1 to H0: log(p1 / p0) for a win, log((1 - p1) / (1 - p0)) for a
loss. It stops at the first game where the sum reaches log((1 - beta) / alpha) (claim
accepted) or log(beta / (1 - alpha)) (claim rejected).

**Error guarantees.** At the two points, Wald's inequalities bound the chances of error
by alpha / (1 - beta) and beta / (1 - alpha), and their sum by alpha + beta; as the sum
overshoots the bound it crosses by less than one game's step, both come out close to
alpha and beta (tests/test_sprt.py measures them). The Bernoulli family has a monotone
likelihood ratio: every extra win moves the sum the same way, so the chance of accepting
is monotone in p and the two points control the composite hypotheses:
P(accept | p >= p0) <= P(accept | p0), about alpha, and
P(accept | p <= p1) >= P(accept | p1), about 1 - beta. A test cut off at ``max_games``
before either bound is *undecided*; that never adds a false acceptance, it only loses
power (and fails the CI gate like a rejection).

**The indifference width.** epsilon defaults to 1 pp, the resolution the reports work at
(their 95 % intervals are +-0.5 pp). The test's length grows as 1 / epsilon**2: with
delta = 5 pp below a fair 25 % and alpha = beta = 0.05, a share at p0 or p1 takes about
8,000 games on average, one halfway between them about 14,000, one 2 pp or more beyond
either edge under 2,000; all well within the default ``max_games`` of 200,000. A width
proportional to delta (say delta / 2) would make strong claims vague: "at least 10 pp
less" would then be reliably accepted only at 15 pp.

**Shared first places.** A first place shared by several seats gives each a fractional
win x, and a fractional outcome has no Bernoulli likelihood: its distribution is not a
function of p alone. Each x is therefore turned into a win with chance x, by comparing it
with a uniform draw from the game's own stream (``analyses.sprt.SPRT_STREAM``). The
outcome is then exactly Bernoulli(p), p the seat's fractional win share, independent
from game to game, and a pure function of (seed, game): the same seed gives the same
decision anywhere. The coin costs a few games (a 0/1 outcome varies more than x).

**Duplicate deals are refused.** On a duplicate-deal table every deal is played once per
seat rotation, so games come in strongly correlated groups and the sum counts each
deal's luck several times: false acceptances then run far above alpha. A claim needs a
table with independent deals; experiment loading and ``analyses.sprt.sequential_test``
both say so.

This module is the arithmetic; ``cakesim.analyses.sprt`` plays the games.
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from cakesim.engine.contract import TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table

SPRT_DIRECTIONS = ("deficit", "advantage")
DEFAULT_EPSILON = 0.01
"""Indifference width: 1 pp (see the module docstring)."""
ACCEPTED, REJECTED, UNDECIDED = "claim accepted", "claim rejected", "undecided"


@dataclass(frozen=True)
class WaldTest:
    """Wald's SPRT of a Bernoulli share ``null`` (H0) against ``alternative`` (H1)."""

    null: float
    alternative: float
    alpha: float
    beta: float

    def run(self, outcomes: Iterable[np.ndarray], max_games: int) -> tuple[str, int]:
        """The decision and the games it used, on 0/1 ``outcomes`` arriving in chunks."""
        accept_at = math.log((1 - self.beta) / self.alpha)
        reject_at = math.log(self.beta / (1 - self.alpha))
        win_step = math.log(self.alternative / self.null)
        loss_step = math.log((1 - self.alternative) / (1 - self.null))
        played, won = 0, 0
        for chunk in outcomes:
            won_now = np.asarray(chunk[:max_games - played], dtype=bool)
            # The sum is linear in wins and games: computed from their counts, not
            # accumulated, so no rounding error builds up over a long test.
            wins = won + np.cumsum(won_now)
            games = played + np.arange(1, won_now.size + 1)
            path = wins * win_step + (games - wins) * loss_step
            crossed = np.flatnonzero((path >= accept_at) | (path <= reject_at))
            if crossed.size:
                stop = int(crossed[0])
                return ACCEPTED if path[stop] >= accept_at else REJECTED, int(games[stop])
            played, won = played + won_now.size, won + int(won_now.sum())
            if played >= max_games:
                break
        return UNDECIDED, played


@dataclass(frozen=True)
class SprtClaim:
    """A claim on a seat's win share, to be settled by a sequential test in CI."""

    table: str
    seat: int
    """0 is the first seat (files and the command line count seats from 1)."""
    direction: str
    """``deficit``: the seat wins at least ``delta`` less than a fair share; or ``advantage``."""
    delta: float
    alpha: float
    """Largest chance of accepting the claim when it is false (the share ``delta`` off or
    less)."""
    beta: float
    """Largest chance of not accepting it when the share is ``delta + epsilon`` off or more."""
    max_games: int
    epsilon: float = DEFAULT_EPSILON
    """Width of the indifference zone beyond ``delta``."""

    def wald_test(self, players: int) -> WaldTest:
        """The test between the edges of H0 (claim false) and H1, at ``players`` players."""
        sign = -1.0 if self.direction == "deficit" else 1.0
        fair = 1.0 / players
        return WaldTest(fair + sign * self.delta, fair + sign * (self.delta + self.epsilon),
                        self.alpha, self.beta)

    def check_table(self, table: TableSpec, error: Callable[[str, str], InputError]) -> None:
        """Refuse a table the claim cannot be tested at; ``error(key, message)`` says where."""
        if self.direction not in SPRT_DIRECTIONS:
            raise error("direction", f"{self.direction!r} is not allowed; allowed values: "
                                     f"{', '.join(map(repr, SPRT_DIRECTIONS))}")
        if not 0 <= self.seat < table.players:
            raise error("seat", f"{self.seat + 1} is out of range; {self.table!r} has seats "
                                f"1 to {table.players}")
        if table.games_per_deal > 1:
            raise error("table", f"{self.table!r} plays duplicate or blocked deals, whose "
                                 "games are correlated; a sequential test needs a table "
                                 "with independent deals")
        alternative = self.wald_test(table.players).alternative
        if not 0.0 < alternative < 1.0:
            raise error("delta", f"{self.delta:g} plus epsilon {self.epsilon:g} puts the "
                                 f"win share tested for at {alternative:.3f}, outside 0 to 1")


def parse_claim(claim: Table) -> SprtClaim:
    """One ``[[ci.sprt]]`` entry of an experiment file."""
    claim.only(["table", "seat", "direction", "delta", "epsilon", "alpha", "beta",
                "max_games"])
    return SprtClaim(
        table=claim.get("table", str), seat=claim.int_in("seat", 1, 64) - 1,
        direction=claim.get("direction", str, "deficit", SPRT_DIRECTIONS),
        delta=claim.number_in("delta", 0.0, 1.0),
        epsilon=claim.number_in("epsilon", 0.0, 1.0, DEFAULT_EPSILON),
        alpha=claim.number_in("alpha", 0.0, 0.5, 0.05),
        beta=claim.number_in("beta", 0.0, 0.5, 0.05),
        max_games=claim.int_in("max_games", 1, 10**9, 200_000))


def coin_wins(shares: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Each fractional win ``x`` made a whole win with chance ``x`` (``uniforms`` in [0, 1))."""
    return uniforms < shares


@dataclass(frozen=True)
class SprtResult:
    """How a claim fared: accepted, rejected or undecided, after how many games."""

    claim: SprtClaim
    decision: str
    games: int
    share: float
    """The seat's win share (shared first places as fractions) over the games used."""
    fair: float
    null: float
    """Edge of H0: a share this far off or less means the claim is false."""
    alternative: float
    """Edge of H1: a share this far off or more is accepted with chance at least 1 - beta."""

    def sentence(self) -> str:
        """One line for a person: the claim, the decision and what it guarantees."""
        c = self.claim
        # Shares beyond the claim's edge are "less" for a deficit, "more" for an advantage.
        beyond, short = ("less", "more") if c.direction == "deficit" else ("more", "less")
        claim = (f"{c.table}, seat {c.seat + 1}: {c.direction} of at least "
                 f"{100 * c.delta:.1f} pp against a fair {100 * self.fair:.1f} % "
                 f"(a win share of {100 * self.null:.1f} % or {beyond})")
        return (f"{claim}: {self.decision} after {self.games:,} games (win share "
                f"{100 * self.share:.1f} %; accepted with chance at most {c.alpha:g} at a "
                f"share of {100 * self.null:.1f} % or {short}, at least {1 - c.beta:g} at "
                f"{100 * self.alternative:.1f} % or {beyond})")

    def as_dict(self) -> dict:
        """Plain values for JSON."""
        return {"table": self.claim.table, "seat": self.claim.seat,
                "direction": self.claim.direction, "delta": self.claim.delta,
                "epsilon": self.claim.epsilon, "alpha": self.claim.alpha,
                "beta": self.claim.beta, "decision": self.decision, "games": self.games,
                "share": self.share}
