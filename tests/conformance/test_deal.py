"""The deal: every component once per deal, and every place of a group alike.

Reference engine and kernel share one deal function per game, so parity cannot catch a
biased shuffle; this checks the deal against the rules statistically. Over many deals,
the component found at each place of a group (``Game.deal_groups``) must not depend on
the place: a chi-square test of homogeneity (places x components). The seeds are fixed,
so the test is deterministic; its threshold is far below any chance failure.
"""

import numpy as np
from scipy import stats

from tests.conformance.conftest import default_table

DEALS = 3000
P_MIN = 1e-6


def _dealt(game, table, deals: int) -> np.ndarray:
    return np.stack([game.dealt(table, 20261201, d) for d in range(deals)])


def _homogeneity_p(places: np.ndarray) -> float:
    """p-value of "the component at each place has the same distribution" (columns)."""
    components, codes = np.unique(places, return_inverse=True)
    codes = codes.reshape(places.shape)
    counts = np.stack([np.bincount(codes[:, p], minlength=components.size)
                       for p in range(places.shape[1])])
    if components.size == 1:
        return 1.0
    return float(stats.chi2_contingency(counts).pvalue)


def test_every_deal_holds_every_component_once(game):
    table = default_table(game)
    dealt = _dealt(game, table, 200)
    first = np.sort(dealt[0])
    assert all(np.array_equal(np.sort(d), first) for d in dealt)
    groups = game.deal_groups(table)
    assert np.array_equal(np.sort(np.concatenate(groups)), np.arange(dealt.shape[1]))


def test_every_place_of_a_group_is_dealt_alike(game):
    table = default_table(game)
    dealt = _dealt(game, table, DEALS)
    for group in game.deal_groups(table):
        p = _homogeneity_p(dealt[:, group])
        assert p > P_MIN, f"{game.name}: places {group[0]}..{group[-1]} differ (p = {p:.2g})"


def test_the_check_sees_a_biased_shuffle(game):
    table = default_table(game)
    dealt = _dealt(game, table, DEALS)
    group = max(game.deal_groups(table), key=len)
    places = dealt[:, group].copy()
    # A shuffle that, one deal in five, puts the smallest component at the first place.
    places[np.arange(DEALS) % 5 == 0, 0] = places.min()
    assert _homogeneity_p(places) < P_MIN
