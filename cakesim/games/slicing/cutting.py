"""Choosing a cut of a circle when the cutter takes the last portion (RULES.md sections 1, 2).

Both helpers read a table of arc values, ``values[seat, start, length]``: what ``seat``
would get from the arc of ``length`` slices starting at ``start``, as the cutter
estimates it. They never allocate (``jit_borrowing``).
"""

import numpy as np

from cakesim.engine.jit import as_index, jit_borrowing
from cakesim.games.slicing.circle import along, arcs_of_cut


@jit_borrowing
def rotated_even_cut(values, n, k):
    """``k`` near-equal arcs (longer arcs first), rotated so that the worst arc is worth most.

    ``values`` is the cutter's own ``(n, n + 1)`` table. The cutter takes last, so it
    expects the portion nobody wanted: it keeps the rotation whose least valuable arc is
    the most valuable. Returns the cut's gap mask (see ``cakesim.games.slicing.circle``).
    """
    if k <= 1:
        return 0
    short = n // k
    longer = n % k
    best_offset = 0
    best_worst = 0.0
    for offset in range(n):
        start = offset
        worst = values[start, short + (1 if longer > 0 else 0)]
        for arc in range(1, k):
            start = along(start, short + (1 if arc - 1 < longer else 0), n)
            value = values[as_index(start), as_index(short + (1 if arc < longer else 0))]
            # Conditional moves: the comparisons are coin flips to a branch predictor.
            worst = value if value < worst else worst
        better = (offset == 0) | (worst > best_worst)
        best_offset = offset if better else best_offset
        best_worst = worst if better else best_worst
    mask = 0
    start = best_offset
    for arc in range(k):
        mask |= 1 << along(start, n - 1, n)
        start = along(start, short + (1 if arc < longer else 0), n)
    return mask


def arc_table(cut_masks: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, lengths)``, shape ``(cuts, most arcs)``: every cut's arcs, as ``arcs_of_cut``.

    Arcs past a cut's count have length 0. Tabulated once, so that a cutter trying every
    cut for every pizza does not recompute them.
    """
    most = max(1, max(int(m).bit_count() for m in cut_masks)) if len(cut_masks) else 1
    starts = np.zeros((len(cut_masks), most), dtype=np.int64)
    lengths = np.zeros((len(cut_masks), most), dtype=np.int64)
    row_starts = np.zeros(n, dtype=np.int64)
    row_lengths = np.zeros(n, dtype=np.int64)
    for c, mask in enumerate(cut_masks):
        count = arcs_of_cut(mask, n, row_starts, row_lengths)
        starts[c, :count] = row_starts[:count]
        lengths[c, :count] = row_lengths[:count]
    return starts, lengths


@jit_borrowing
def last_portion_outcomes(cutter, cut_starts, cut_lengths, values, taken, outcomes):
    """``outcomes[c]``: what ``cutter`` gets from cut ``c``, every other seat taking first.

    ``cut_starts``/``cut_lengths`` are ``arc_table(cut_masks, n)``. Every seat from the
    cutter's left picks, in turn, the untaken arc it values most (ties: the lowest); the
    cutter's outcome is the best arc left after them (with as many arcs as players, the
    one that is left). The cutter who trusts this model takes the first best cut; a search
    ranks the cuts it tries by it.
    """
    players = values.shape[0]
    for c in range(cut_starts.shape[0]):
        count = 0
        while count < cut_lengths.shape[1] and cut_lengths[c, count] > 0:
            taken[count] = False
            count += 1
        outcome = 0.0
        for turn in range(1, players + 1):
            chooser = (cutter + turn) % players
            pick = -1
            pick_value = 0.0
            for p in range(count):
                if taken[p]:
                    continue
                value = values[chooser, cut_starts[c, p], cut_lengths[c, p]]
                if pick < 0 or value > pick_value:
                    pick, pick_value = p, value
            if pick >= 0:
                taken[pick] = True
                if chooser == cutter:
                    outcome = pick_value
        outcomes[c] = outcome
