"""Cutting a circle of slices into contiguous portions (RULES.md sections 1 and 2).

A cut of a circle of ``n`` slices is a bit mask over its ``n`` gaps: bit ``g`` set means
the knife goes between slice ``g`` and slice ``(g + 1) % n``. Mask 0 leaves the circle
whole (one portion); a mask with one bit set is the same single portion, so the table of
distinct cuts holds mask 0 and every mask with 2 to ``most`` bits.
"""

import numpy as np

from cakesim.engine.jit import jit_borrowing, jit_inline


def cut_table(n: int, most: int, least: int = 1) -> np.ndarray:
    """Every distinct cut of an ``n``-slice circle into ``least`` to ``most`` portions."""
    masks = [0] if least <= 1 <= most else []
    masks += [m for m in range(1 << n) if max(least, 2) <= m.bit_count() <= most]
    return np.asarray(masks, dtype=np.int32)


@jit_inline
def along(position, steps, n):
    """The slice ``steps`` (0 to ``n``) after ``position`` on a circle of ``n`` slices.

    No modulo: dividing by a run-time ``n`` is the slowest integer instruction, and the
    kernel walks the circle hundreds of times per game.
    """
    position += steps
    return position - n if position >= n else position


@jit_borrowing
def arcs_of_cut(mask, n, starts, lengths):
    """Fill ``starts``/``lengths`` with the portions of cut ``mask``; return their count.

    Portions are listed by the gap that opens them, lowest gap first.
    """
    if mask == 0:
        starts[0] = 0
        lengths[0] = n
        return 1
    count = 0
    for gap in range(n):
        if mask & (1 << gap):
            starts[count] = along(gap, 1, n)
            count += 1
    if count == 1:
        lengths[0] = n
        return 1
    for p in range(count):
        following = starts[p + 1] if p + 1 < count else starts[0]
        lengths[p] = along(following, n - starts[p], n)
    return count


def portions_of_cut(mask: int, n: int) -> list[list[int]]:
    """The slice positions of each portion of cut ``mask``, in the same order as the kernel."""
    starts = np.zeros(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    count = arcs_of_cut(mask, n, starts, lengths)
    return [[(starts[p] + j) % n for j in range(lengths[p])] for p in range(count)]
