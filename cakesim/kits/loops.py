"""Array loops for functions compiled without Numba's runtime.

A borrowing function (``engine.jit.jit_borrowing``) may not allocate, and NumPy's slice
assignment and ``sort`` do: these loops do the same work in place.
"""

from cakesim.engine.jit import jit_borrowing


@jit_borrowing
def copy_into(source, target):
    """``target[...] = source``, for arrays of one shape (a world copied from the game)."""
    flat_source, flat_target = source.reshape(-1), target.reshape(-1)
    for i in range(flat_source.shape[0]):
        flat_target[i] = flat_source[i]


@jit_borrowing
def sort_range(items, first, end):
    """Sort ``items[first:end]`` in place by insertion: a few dozen items, once per
    decision, where NumPy's sort would allocate."""
    for i in range(first + 1, end):
        item, j = items[i], i - 1
        while j >= first and items[j] > item:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = item
