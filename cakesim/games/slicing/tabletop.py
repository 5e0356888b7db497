"""Kernel helpers the two slicing games share: majorities and how sure a lead is.

RULES.md sections 1 and 2 score kinds by majority (the player or players with the most
slices of a kind score its value; zero slices never qualify). Each helper comes twice:
compiled for kernels (``jit_borrowing``: they write into the caller's arrays) and as
plain Python on lists for reference engines and score sheets, so that parity tests
compare two implementations. Seating by deal and splitting a win are every game's
(``cakesim.kits.seating``).
"""

from cakesim.engine.jit import jit_borrowing

WIN_UNITS = 840
"""A game's win is 840 units, split evenly among tied winners (840 = lcm(1..8))."""


@jit_borrowing
def majority_points(counts, majority_value, ties_score, out):
    """``out[seat]``: the majority points of every seat from ``counts[seat, kind]``.

    Only the first ``len(majority_value)`` columns of ``counts`` are kinds. A tied
    majority scores for every tied seat when ``ties_score``, for none otherwise.
    """
    players = counts.shape[0]
    out[:] = 0
    for kind in range(majority_value.shape[0]):
        most = 0
        holders = 0
        for seat in range(players):
            if counts[seat, kind] > most:
                most = counts[seat, kind]
                holders = 1
            elif counts[seat, kind] == most:
                holders += 1
        if most == 0 or (holders > 1 and not ties_score):
            continue
        for seat in range(players):
            if counts[seat, kind] == most:
                out[seat] += majority_value[kind]


@jit_borrowing
def lead_chance(lead, still_open, uncertainty, ties_score):
    """Estimated chance that a lead of ``lead`` slices over the best opponent wins a majority.

    A tie counts half a slice for us when ties score, against us when they do not; the
    lead is shrunk by the slices of the kind still to be decided, then squashed into
    (0, 1). With nothing left to come the answer is exact.
    """
    margin = float(lead) + (0.5 if ties_score else -0.5)
    if still_open <= 0:
        return 1.0 if margin > 0.0 else 0.0
    shrunk = margin / (1.0 + uncertainty * still_open)
    return 0.5 + 0.5 * shrunk / (1.0 + abs(shrunk))


def majority_sheet(counts: list[list[int]], majority_value, ties_score: bool = True) -> list[int]:
    """Plain-Python ``majority_points``: each seat's majority points from its counts."""
    majority = [0] * len(counts)
    for kind, value in enumerate(majority_value):
        most = max(row[kind] for row in counts)
        holders = [s for s, row in enumerate(counts) if most > 0 and row[kind] == most]
        if len(holders) == 1 or (holders and ties_score):
            for seat in holders:
                majority[seat] += int(value)
    return majority
