"""Intervals against SciPy's own."""

import numpy as np
import pytest
from scipy import stats

from cakesim.stats.intervals import (
    Estimate,
    by_deal,
    holm,
    mean_of,
    paired_difference,
    ratio_by_deal,
    verdict,
    wilson,
    win_share,
)


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


def _share(value: float, se: float, n: int = 10_000) -> Estimate:
    half = 1.959963984540054 * se
    return Estimate(value, value - half, value + half, n)


@pytest.mark.parametrize(("value", "se", "word"), [
    (0.20, 0.005, "disadvantaged"),       # gap -5 pp, interval well below -1 pp
    (0.30, 0.005, "advantaged"),
    (0.251, 0.001, "fair"),               # interval inside (-1, +1) pp
    (0.241, 0.002, "below"),               # excludes fair, -1 pp not ruled out
    (0.259, 0.002, "above"),
    (0.25, 0.02, "inconclusive"),
])
def test_verdict_words(value, se, word):
    v = verdict(_share(value, se), 0.25, margin=0.01, family=1, games=10_000)
    assert v.word == word
    assert v.gap.value == pytest.approx(value - 0.25)


def test_verdicts_are_simultaneous_over_their_family():
    share = _share(0.244, 0.0025)   # z = 2.4: beyond 1.96, not beyond Bonferroni's 3.2 for 42
    assert verdict(share, 0.25, 0.01, 1, 10_000).word == "below"
    wide = verdict(share, 0.25, 0.01, 42, 10_000)
    assert wide.word == "inconclusive" and wide.gap.half_width > share.half_width * 1.5
    # Games for a half-width of max(|gap|, m - |gap|) = 0.6 pp, if the gap stays.
    assert wide.games_more == pytest.approx(10_000 * ((wide.gap.half_width / 0.006) ** 2 - 1),
                                            rel=1e-6, abs=1)
    assert "inconclusive: need about" in wide.phrase()


def test_win_share_uses_wilson_only_for_whole_wins_on_independent_deals():
    whole = win_share(units=2 * 300, units_sq=4 * 300, deals=1000, per_deal=1, win_units=2)
    assert (whole.low, whole.high) == (wilson(0.3, 1000).low, wilson(0.3, 1000).high)
    # 200 whole wins and 200 shared first places (half a win each, win_units 2).
    split = win_share(units=2 * 200 + 200, units_sq=4 * 200 + 200, deals=1000, per_deal=1,
                      win_units=2)
    values = np.r_[np.ones(200), np.full(200, 0.5), np.zeros(600)]
    # Wilson at the effective sample size of the observed variance, narrower than at 1,000.
    effective = 0.3 * 0.7 / mean_of(values).se ** 2
    assert effective > 1000
    assert (split.low, split.high) == pytest.approx((wilson(0.3, effective).low,
                                                     wilson(0.3, effective).high))
    assert split.half_width < wilson(0.3, 1000).half_width


def test_by_deal_counts_a_duplicate_deal_once():
    # Four rotations of each deal that are the same game: the interval of 250 deals, not 1000.
    outcomes = np.random.default_rng(3).integers(0, 2, 250).astype(float)
    per_deal = 4 * outcomes
    e = by_deal(per_deal.sum(), (per_deal ** 2).sum(), deals=250, per_deal=4)
    assert (e.low, e.high) == pytest.approx((mean_of(outcomes).low, mean_of(outcomes).high))


def test_ratio_by_deal_matches_the_delta_method():
    rng = np.random.default_rng(4)
    shown = rng.integers(0, 4, 5000)
    done = rng.binomial(shown, 0.6)
    e = ratio_by_deal(done, shown)
    assert e.value == pytest.approx(done.sum() / shown.sum())
    assert e.low < 0.6 < e.high
    # Against a bootstrap of deals.
    picks = rng.integers(0, 5000, (400, 5000))
    boot = done[picks].sum(1) / shown[picks].sum(1)
    assert e.se == pytest.approx(boot.std(), rel=0.15)


def test_holm_of_nothing_is_nothing():
    assert holm(np.array([])).size == 0
