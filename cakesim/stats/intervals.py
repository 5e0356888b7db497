"""Confidence intervals, comparisons and verdicts, computed from exact sums.

Every interval here is two-sided at ``level`` (default 95 %). The sampling unit is the
*deal*: games of one deal (its seat rotations on duplicate deals) are not independent, so
means and their variances are taken over per-deal sums (``by_deal``).

A win share (``WinShare``) is a proportion only when every outcome is a whole win or a
loss on independent deals; then the Wilson interval is used. A shared first place counts
1/k of a win, and with such fractional outcomes (or on duplicate deals) the interval is
Wilson's at the effective sample size of the per-deal variance, with Korn and Graubard's
(1998) correction for the deals' degrees of freedom. Wilson on the games would overstate
it by about 10 % with split wins, and on duplicate deals miss it either way: a deal's
rotations are not independent games.

The floor. A variance of the deals is only an estimate, and deals that are all alike
(one seat wins every game, or every game is tied) estimate it as zero: an interval of no
width, whatever the number of deals. Whatever a deal's games do together, a deal's share
lies in 0..1 with mean p, so its variance is at most p (1 - p): Wilson's interval on the
number of *deals* is safe however a deal's games go together, the rule of three at 0 % and
100 %. A share whose
deals show no spread (fewer than two deals, or every deal alike) gets that interval. When
the deals do vary, their variance is used even where it makes the interval narrower than
Wilson's on the deals: it is the variance reduction duplicate deals are played for.

A share's verdict against its fair value is read from the same interval at a
family-corrected level, so the printed 95 % interval and the verdict cannot disagree.
"""

import math
from dataclasses import asdict, dataclass, replace

import numpy as np
from scipy import stats as scipy_stats

LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A number with its confidence interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int
    """Independent units behind the interval: deals (a deal is one game unless duplicate)."""

    @property
    def se(self) -> float:
        """The standard error the interval implies (at 95 %)."""
        return (self.high - self.low) / (2 * z_value())

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.high - self.low) / 2

    def excludes(self, reference: float) -> bool:
        """Whether ``reference`` lies outside the interval."""
        return reference < self.low or reference > self.high

    def as_dict(self) -> dict:
        """Plain numbers for JSON."""
        return asdict(self)


def z_value(level: float = LEVEL) -> float:
    """The standard normal quantile of a two-sided ``level`` interval."""
    return float(scipy_stats.norm.ppf(0.5 + level / 2))


def wilson(share: float, n: float, level: float = LEVEL) -> Estimate:
    """Wilson score interval of a proportion ``share`` observed in ``n`` trials."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = z_value(level)
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(max(share * (1 - share), 0.0) / n + z * z / (4 * n * n)) / denominator
    # The interval holds the share (0 at no win, exactly, not a rounding error above it).
    return Estimate(share, max(0.0, min(share, centre - spread)),
                    min(1.0, max(share, centre + spread)), n)


def mean_interval(total: float, total_sq: float, n: int, level: float = LEVEL) -> Estimate:
    """Student-t interval of a mean from the sum and the sum of squares of ``n`` values."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    variance = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    half = float(scipy_stats.t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def mean_of(values: np.ndarray, level: float = LEVEL) -> Estimate:
    """Student-t interval of the mean of ``values``."""
    values = np.asarray(values, dtype=np.float64)
    return mean_interval(float(values.sum()), float((values * values).sum()), values.size, level)


def paired_difference(a: np.ndarray, b: np.ndarray, level: float = LEVEL) -> Estimate:
    """Mean of ``a - b`` over paired observations (same deals), with its interval."""
    return mean_of(np.asarray(a, np.float64) - np.asarray(b, np.float64), level)


def by_deal(total: float, square: float, deals: int, per_deal: int,
            level: float = LEVEL) -> Estimate:
    """Mean per game of a metric, from the sum and the sum of squared per-deal sums.

    Each deal contributes the mean of its ``per_deal`` games; the deals are independent.
    """
    return mean_interval(total / per_deal, square / per_deal ** 2, deals, level)


@dataclass(frozen=True)
class WinShare:
    """A seat's (or player's) win share from its exact sums, with its interval at any level.

    ``units`` is the sum of the win units over the deals, ``units_sq`` the sum over deals
    of the squared per-deal win units; a deal plays ``per_deal`` games.
    """

    units: float
    units_sq: float
    deals: int
    per_deal: int
    win_units: int

    @property
    def games(self) -> int:
        """The games behind the share."""
        return self.deals * self.per_deal

    @property
    def value(self) -> float:
        """The share of the win units won (NaN without a game)."""
        return self.units / (self.win_units * self.games) if self.deals else math.nan

    def interval(self, level: float = LEVEL) -> Estimate:
        """The share with its ``level`` interval: Wilson on the games for whole wins on
        independent deals, else Wilson at the effective sample size of the per-deal
        variance, never narrower than Wilson on the deals when they show no spread."""
        if self.deals == 0:
            return Estimate(math.nan, math.nan, math.nan, 0)
        if self.per_deal == 1 and self.units_sq == self.win_units * self.units:
            return replace(wilson(self.value, self.games, level), n=self.deals)
        return replace(wilson(self.value, self.trials(level), level), n=self.deals)

    def trials(self, level: float = LEVEL) -> float:
        """The trials Wilson's interval counts: the effective sample size ``p (1 - p) /
        se^2`` of the per-deal variance, times Korn and Graubard's ``(z / t)^2`` for the
        deals' ``deals - 1`` degrees of freedom; the deals when they show no spread."""
        # D * sum(u^2) - (sum u)^2 is exact for the integer sums a table keeps.
        spread = self.deals * self.units_sq - self.units * self.units
        if self.deals < 2 or spread <= 0:
            return float(self.deals)
        unit = self.win_units * self.per_deal
        variance = spread / (self.deals * (self.deals - 1)) / unit ** 2
        share = self.value
        tail = 0.5 + level / 2
        correction = (z_value(level) / float(scipy_stats.t.ppf(tail, self.deals - 1))) ** 2
        return share * (1 - share) / (variance / self.deals) * correction


def win_share(units: float, units_sq: float, deals: int, per_deal: int, win_units: int,
              level: float = LEVEL) -> Estimate:
    """A win share from its sums, with its interval (see ``WinShare``)."""
    return WinShare(units, units_sq, deals, per_deal, win_units).interval(level)


def ratio_influence(numerator: np.ndarray,
                    denominator: np.ndarray) -> tuple[float, np.ndarray]:
    """``sum(numerator) / sum(denominator)`` and each deal's influence on it (delta method).

    The influences sum to zero; a ratio's standard error is ``influence_se`` of them, and
    the difference of two ratios on the same deals has the influences' difference. A
    ratio of nothing (0 / 0) is NaN, with zero influences.
    """
    a = np.asarray(numerator, np.float64)
    b = np.asarray(denominator, np.float64)
    bottom = float(b.sum())
    if bottom == 0:
        return math.nan, np.zeros_like(a)
    ratio = float(a.sum()) / bottom
    return ratio, (a - ratio * b) / bottom


def influence_se(influence: np.ndarray) -> float:
    """The standard error of a ratio from its deals' influences (infinite below 2 deals)."""
    deals = influence.size
    if deals < 2:
        return math.inf
    return math.sqrt(float((influence * influence).sum()) * deals / (deals - 1))


def ratio_by_deal(numerator: np.ndarray, denominator: np.ndarray, level: float = LEVEL,
                  share: bool = False) -> Estimate:
    """``sum(numerator) / sum(denominator)`` over deals, with a delta-method interval.

    For pooled numbers such as an order card's fulfilled share over all tables: each
    deal's (numerator, denominator) sums over every table that played it, so tables that
    share their deals are not counted as independent. A ``share`` (a proportion) has its
    interval cut to 0..1, which can only raise its coverage.
    """
    ratio, influence = ratio_influence(numerator, denominator)
    deals = influence.size
    if math.isnan(ratio):
        return Estimate(math.nan, math.nan, math.nan, deals)
    if deals < 2:
        return Estimate(ratio, -math.inf, math.inf, deals)
    half = float(scipy_stats.t.ppf(0.5 + level / 2, deals - 1)) * influence_se(influence)
    low, high = ratio - half, ratio + half
    if share:
        low, high = max(low, 0.0), min(high, 1.0)
    return Estimate(ratio, low, high, deals)


MARGIN = 0.01
"""Default fairness margin: a seat within 1 pp of its fair share counts as fair."""


@dataclass(frozen=True)
class Verdict:
    """What can be said of a share against its fair value, given a margin and a level.

    ``gap`` is the share minus the fair share with its *simultaneous* interval (corrected
    for the ``family`` of verdicts made together); ``games_more`` is the planner's
    estimate of the extra games an inconclusive verdict needs (None: no number of games
    settles it, e.g. a gap of exactly 0 at a margin of 0).
    """

    word: str
    gap: Estimate
    fair: float
    margin: float
    family: int
    games_more: int | None = None

    def phrase(self) -> str:
        """``disadvantaged by more than 1 pp``, ``fair within ±1 pp``, ..."""
        m = f"{100 * self.margin:g} pp"
        low, high = 100 * self.gap.low, 100 * self.gap.high
        more = ("" if self.games_more is None
                else f": need about {_round_up(self.games_more):,} more games")
        return {
            "disadvantaged": f"disadvantaged by more than {m}",
            "advantaged": f"advantaged by more than {m}",
            "fair": f"fair within ±{m}",
            "below": f"below fair by {-high:.1f} to {-low:.1f} pp (less than {m} not ruled out)",
            "above": f"above fair by {low:.1f} to {high:.1f} pp (less than {m} not ruled out)",
            "inconclusive": f"inconclusive{more}",
        }[self.word]

    def as_dict(self) -> dict:
        """Plain values for JSON."""
        return {"word": self.word, "phrase": self.phrase(), "gap": self.gap.as_dict(),
                "fair": self.fair, "margin": self.margin, "family": self.family,
                "games_more": self.games_more}


def verdict(share: WinShare, fair: float, margin: float, family: int,
            level: float = LEVEL) -> Verdict:
    """Judge ``share`` against ``fair``, at a ``margin``, simultaneously over a ``family``.

    The gap's interval is the share's own interval (``WinShare.interval``, the one a
    report prints at ``level``) at Bonferroni's level ``1 - (1 - level) / family``, minus
    ``fair``: asymmetric as Wilson's is, the printed interval itself for a family of one,
    and containing it for more. "Fair within ±m" is the two one-sided tests (TOST) at that
    level: the whole interval lies inside (-m, m). An inconclusive verdict states the
    games needed for the interval to settle either way, if the gap stays what it is.
    """
    simultaneous = share.interval(1 - (1 - level) / family)
    gap = Estimate(simultaneous.value - fair, simultaneous.low - fair,
                   simultaneous.high - fair, share.deals)
    if gap.high < -margin:
        word = "disadvantaged"
    elif gap.low > margin:
        word = "advantaged"
    elif -margin < gap.low and gap.high < margin:
        word = "fair"
    elif gap.high < 0:
        word = "below"
    elif gap.low > 0:
        word = "above"
    else:
        word = "inconclusive"
    more = _games_to_settle(gap, margin, share.games) if word == "inconclusive" else None
    return Verdict(word, gap, fair, margin, family, more)


def _games_to_settle(gap: Estimate, margin: float, games: int) -> int | None:
    """The extra games after which an inconclusive ``gap`` would settle, if it stays.

    Each side of the interval shrinks as one over the root of the games. It settles on a
    sign when the side towards 0 is shorter than the gap, and as fair when each side
    is shorter than its way to the margin: whichever takes fewer games.
    """
    below, above = gap.value - gap.low, gap.high - gap.value
    sign = (below / gap.value if gap.value > 0 else above / -gap.value if gap.value < 0
            else math.inf)
    fair = (max(above / (margin - gap.value), below / (margin + gap.value))
            if abs(gap.value) < margin else math.inf)
    factor = min(sign, fair) ** 2
    if not math.isfinite(factor):
        return None
    return max(0, math.ceil(games * (factor - 1)))


def _round_up(n: int) -> int:
    """``n`` rounded up to two significant digits."""
    if n < 100:
        return n
    step = 10 ** (len(str(n)) - 2)
    return -(-n // step) * step


def two_sample_p(a: float, a_se: float, b: float, b_se: float) -> float:
    """Two-sided p-value of ``a == b`` for independent estimates with standard errors.

    Two estimates without spread that differ differ for certain (p = 0); that is a real
    change, and the gate's materiality threshold decides whether it matters.
    """
    if a == b:
        return 1.0
    spread = math.hypot(a_se, b_se)
    if spread == 0:
        return 0.0
    if not math.isfinite(spread):
        return 1.0
    return float(2 * scipy_stats.norm.sf(abs(a - b) / spread))


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: family-wise error control over many tests.

    Written out rather than taken from statsmodels' ``multipletests``, which runs a full
    garbage collection on every Holm call (0.2 s in a large process, and the gate's own
    check makes thousands); the tests hold the two equal.
    """
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    # The k-th smallest p-value times the tests left, never below the one before.
    stepped = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted
