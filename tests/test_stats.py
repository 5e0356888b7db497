"""Intervals against SciPy's own."""

import numpy as np
import pytest
from scipy import stats

from cakesim.stats import bias_verdict, mean_of, paired_difference, wilson


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (2130, 10000), (50, 50)])
def test_wilson_matches_scipy(k, n):
    ours = wilson(k / n, n)
    theirs = stats.binomtest(k, n).proportion_ci(method="wilson")
    assert ours.low == pytest.approx(theirs.low, abs=1e-9)
    assert ours.high == pytest.approx(theirs.high, abs=1e-9)


def test_mean_interval_matches_scipy_t():
    values = np.random.default_rng(1).normal(3.0, 2.0, 500)
    ours = mean_of(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=values.mean(),
                                 scale=stats.sem(values))
    assert (ours.low, ours.high) == pytest.approx((low, high), rel=1e-9)


def test_paired_difference_removes_the_shared_part():
    rng = np.random.default_rng(2)
    shared = rng.normal(0, 10, 2000)
    a, b = shared + 1.0 + rng.normal(0, 0.1, 2000), shared + rng.normal(0, 0.1, 2000)
    d = paired_difference(a, b)
    assert d.low < 1.0 < d.high and d.half_width < 0.02


def test_verdict_words():
    assert bias_verdict("First waiter", wilson(0.213, 40000), 0.25).endswith("disadvantaged")
    assert bias_verdict("First waiter", wilson(0.30, 40000), 0.25).endswith(": advantaged")
    assert bias_verdict("First waiter", wilson(0.25, 400), 0.25).endswith("no bias detectable")
