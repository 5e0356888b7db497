"""Cuts of a circle into contiguous portions."""

import itertools
from math import comb

from hypothesis import given
from hypothesis import strategies as st

from cakesim.games.slicing.circle import cut_table, portions_of_cut


def test_cut_table_counts_every_distinct_cut():
    # One way to leave it whole, C(11, k) ways to make k >= 2 portions.
    assert len(cut_table(11, 5)) == 1 + sum(comb(11, k) for k in range(2, 6))
    assert len(cut_table(11, 4)) == 1 + sum(comb(11, k) for k in range(2, 5))
    assert len(cut_table(13, 3, least=3)) == comb(13, 3)


@given(st.integers(0, (1 << 11) - 1))
def test_portions_are_contiguous_and_cover_the_circle(mask):
    portions = portions_of_cut(mask, 11)
    assert len(portions) == max(1, mask.bit_count())
    assert sorted(p for portion in portions for p in portion) == list(range(11))
    for portion in portions:
        assert all((b - a) % 11 == 1 for a, b in itertools.pairwise(portion))
