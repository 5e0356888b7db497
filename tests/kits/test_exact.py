"""The correctly rounded exp and log2 that tables worked out in Python use."""

import math
from decimal import Decimal, localcontext

import pytest

from cakesim.kits import exact


@pytest.mark.parametrize("x", [-4.5, -2.0, -0.125, 0.0, 1.0, 3.75])
def test_exp_is_the_nearest_float_to_a_much_more_precise_value(x):
    with localcontext() as context:
        context.prec = 80
        assert exact.exp(x) == float(Decimal(x).exp())
    assert exact.exp(x) == pytest.approx(math.exp(x), rel=1e-15)


def test_exp_of_one_is_the_float_nearest_e():
    assert exact.exp(1.0) == math.e


@pytest.mark.parametrize("n", range(0, 12))
def test_log2_of_a_power_of_two_is_exact(n):
    assert exact.log2(2.0 ** n) == n


@pytest.mark.parametrize("x", [3.0, 5.0, 7.0, 12.0, 0.3])
def test_log2_is_the_nearest_float_to_a_much_more_precise_value(x):
    with localcontext() as context:
        context.prec = 80
        assert exact.log2(x) == float(Decimal(x).ln() / Decimal(2).ln())
