"""Correctly rounded ``exp`` and ``log2`` for the tables a game works out in Python.

NumPy picks its ``exp`` and ``log`` routines by the processor (AVX-512, AVX2, plain),
and their last bits differ between machines. A strategy table built with them made the
same seed play other games on another machine: Topp die Torte!'s aim weights broke a tie
between two aims on that last bit, and the regression gate saw the numbers move. Python's
``decimal`` module rounds ``exp`` and ``ln`` correctly, so these give the same float on
every machine; they are for tables worked out once, not for a kernel's inner loop.
"""

from decimal import Context, Decimal

PRECISION = 40
"""Decimal digits of the intermediate results: far more than a float's 17, so that the
one rounding to a float is the only one that shows."""

_CONTEXT = Context(prec=PRECISION)


def exp(x: float) -> float:
    """``e ** x``, correctly rounded to the nearest float."""
    return float(_CONTEXT.exp(Decimal(x)))


def log2(x: float) -> float:
    """``log2(x)`` for ``x > 0``, rounded once to the nearest float."""
    return float(_CONTEXT.divide(_CONTEXT.ln(Decimal(x)), _CONTEXT.ln(Decimal(2))))
