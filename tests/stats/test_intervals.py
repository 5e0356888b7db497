"""Intervals against SciPy's own."""

import numpy as np
import pytest
from scipy import stats

from cakesim.stats.intervals import (
    WinShare,
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


def _whole(wins: float, games: int) -> WinShare:
    """``wins`` whole wins in ``games`` games on independent deals."""
    return WinShare(wins, wins, games, 1, 1)


@pytest.mark.parametrize(("wins", "word"), [
    (2000, "disadvantaged"),       # gap -5 pp, interval well below -1 pp
    (3000, "advantaged"),
    (2505, "fair"),                # interval inside (-1, +1) pp
    (2400, "below"),               # excludes fair, -1 pp not ruled out
    (2600, "above"),
    (2420, "inconclusive"),        # holds 0 and reaches below -1 pp
])
def test_verdict_words(wins, word):
    v = verdict(_whole(wins, 10_000), 0.25, margin=0.01, family=1)
    assert v.word == word
    assert v.gap.value == pytest.approx(wins / 10_000 - 0.25)


@pytest.mark.parametrize(("wins", "games"), [(0, 10), (1, 10), (10, 10), (37, 200), (2410, 10_000)])
def test_the_verdict_reads_the_interval_the_report_prints(wins, games):
    share = _whole(wins, games)
    printed = share.interval()
    alone = verdict(share, 0.25, 0.01, 1).gap
    assert (alone.low, alone.high) == (printed.low - 0.25, printed.high - 0.25)
    wide = verdict(share, 0.25, 0.01, 42).gap
    assert wide.low <= alone.low and alone.high <= wide.high
    assert (wide.low, wide.high) != (alone.low, alone.high)


def test_no_win_in_ten_games_at_four_players_is_not_disadvantaged():
    # Wilson's 95 % interval of 0/10 is [0, 27.8 %]: it holds the fair 25 %.
    share = _whole(0, 10)
    assert share.interval().high == pytest.approx(0.2775, abs=1e-4)
    v = verdict(share, 0.25, 0.01, 1)
    assert v.word == "inconclusive" and v.gap.high > 0


def test_verdicts_are_simultaneous_over_their_family():
    share = _whole(2410, 10_000)   # beyond 1.96 standard errors, not beyond 3.2 (42 verdicts)
    assert verdict(share, 0.25, 0.01, 1).word == "below"
    wide = verdict(share, 0.25, 0.01, 42)
    assert wide.word == "inconclusive" and wide.gap.high - wide.gap.low > 1.5 * (
        share.interval().high - share.interval().low)
    assert "inconclusive: need about" in wide.phrase()


@pytest.mark.parametrize("wins", [2410, 2480, 2530])
def test_the_games_more_settle_an_inconclusive_verdict_if_the_share_stays(wins):
    v = verdict(_whole(wins, 10_000), 0.25, 0.01, 42)
    assert v.word == "inconclusive" and v.games_more > 0

    def settled(extra: float) -> bool:
        games = round(10_000 + extra)
        return verdict(_whole(wins / 10_000 * games, games), 0.25, 0.01, 42).word != (
            "inconclusive")

    # The planner's estimate: Wilson's sides shrink about as one over the root of the games.
    assert settled(1.1 * v.games_more) and not settled(0.9 * v.games_more)


def test_a_gap_of_zero_at_a_margin_of_zero_never_settles():
    v = verdict(_whole(50, 100), 0.5, margin=0.0, family=1)
    assert v.word == "inconclusive" and v.games_more is None and v.phrase() == "inconclusive"


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


def test_the_effective_sample_size_is_corrected_for_the_deals_degrees_of_freedom():
    # Split wins on 12 deals: Wilson at the effective sample size times (z / t_11)^2.
    values = np.r_[np.ones(3), np.full(4, 0.5), np.zeros(5)]
    share = WinShare(2 * values.sum(), 4 * (values ** 2).sum(), 12, 1, 2)
    variance = values.var(ddof=1) / 12
    for level in (0.95, 0.999):
        z, t = stats.norm.ppf(0.5 + level / 2), stats.t.ppf(0.5 + level / 2, 11)
        effective = values.mean() * (1 - values.mean()) / variance * (z / t) ** 2
        ours, theirs = share.interval(level), wilson(values.mean(), effective, level)
        assert (ours.low, ours.high) == pytest.approx((theirs.low, theirs.high))


def test_deals_all_alike_give_wilsons_interval_on_the_deals():
    # Three games, every one tied by all three players: a third of a win each, no spread.
    tied = WinShare(units=3, units_sq=3, deals=3, per_deal=1, win_units=3)
    assert (tied.interval().low, tied.interval().high) == pytest.approx(
        (wilson(1 / 3, 3).low, wilson(1 / 3, 3).high))
    assert verdict(tied, 1 / 3, 0.01, 3).word == "inconclusive"
    # A strategy winning both games of every one of 3,000 deals: the rule of three on deals.
    always = WinShare(units=6000, units_sq=4 * 3000, deals=3000, per_deal=2, win_units=1)
    e = always.interval()
    assert e.value == 1.0 and e.high == 1.0
    assert e.low == pytest.approx(wilson(1.0, 3000).low) and e.low < 0.999
    theirs = stats.binomtest(3000, 3000).proportion_ci(method="wilson")
    assert e.low == pytest.approx(theirs.low, abs=1e-12)


def test_one_deal_still_has_a_finite_interval_and_none_has_none():
    one = WinShare(units=1, units_sq=1, deals=1, per_deal=4, win_units=1)
    e = one.interval()
    assert 0 < e.low < 0.25 < e.high < 1
    assert verdict(one, 0.25, 0.01, 4).games_more > 0
    nothing = WinShare(0, 0, 0, 4, 1).interval()
    assert nothing.n == 0 and np.isnan([nothing.value, nothing.low, nothing.high]).all()


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
