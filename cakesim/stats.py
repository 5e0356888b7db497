"""Confidence intervals and comparisons, computed from exact sums.

Every interval here is two-sided at ``level`` (default 95 %). Win shares count a shared
first place as 1/k of a win; their Wilson interval treats the share as a proportion,
which is conservative because a split win varies less than a whole one.
"""

import math
from dataclasses import asdict, dataclass

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


def wilson(share: float, n: int, level: float = LEVEL) -> Estimate:
    """Wilson score interval of a proportion ``share`` observed in ``n`` trials."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = z_value(level)
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(max(share * (1 - share), 0.0) / n + z * z / (4 * n * n)) / denominator
    return Estimate(share, max(0.0, centre - spread), min(1.0, centre + spread), n)


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


def bias_verdict(role: str, share: Estimate, fair: float) -> str:
    """A sentence on a seat's win share against its fair share, e.g. for the report."""
    word = ("disadvantaged" if share.high < fair else
            "advantaged" if share.low > fair else "no bias detectable")
    return (f"{role} wins {100 * share.value:.1f} % ± {100 * share.half_width:.1f} pp "
            f"against a fair {100 * fair:.1f} %: {word}")


def two_sample_p(a: float, a_se: float, b: float, b_se: float) -> float:
    """Two-sided p-value of ``a == b`` for independent estimates with standard errors."""
    if a == b:
        return 1.0
    spread = math.hypot(a_se, b_se)
    if spread == 0 or not math.isfinite(spread):
        return 0.0 if spread == 0 else 1.0
    return float(2 * scipy_stats.norm.sf(abs(a - b) / spread))


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: family-wise error control over many tests."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    scaled = (p.size - np.arange(p.size)) * p[order]
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted
