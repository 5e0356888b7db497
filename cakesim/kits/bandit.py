"""The search driver's bandit over one decision's candidate moves.

A game lists a decision's candidate moves in a ``Bandit``; the search driver
(``kits.search``) chooses which candidate the next iteration plays, and which one wins.

Selection is UCB1 (Auer, Cesa-Bianchi and Fischer 2002) on win shares in 0..1: unvisited
candidates first, then ``mean + exploration * sqrt(ln t / visits)``. A decision with
hundreds of moves (a slicing game's cut) is searched by progressive widening (Coulom 2007;
Chaslot et al. 2008): after ``t`` iterations the first ``ceil(widening * sqrt(t))``
candidates compete, each new one the best-ranked widened move (``Bandit.wide_rank``, the
game's heuristic) not yet admitted.

The hidden part of a deal is sampled here too (``sort_pool``, ``deal_hidden``): which
items are hidden is public, where they lie is dealt afresh in every sampled world.
"""

from typing import NamedTuple

import numpy as np

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import below

SEARCH_WEIGHTS = {
    "iterations": (100.0, (1.0, 100_000.0), "search: worlds sampled and played out per "
                                            "decision (rounded down)"),
    "exploration": (0.5, (0.0, 100.0), "search: the UCB1 exploration constant, on win "
                                       "shares in 0..1"),
    "widening": (1.0, (0.01, 1000.0), "search: a cut searches its first "
                                      "ceil(widening * sqrt(t)) candidates after t "
                                      "iterations (progressive widening)"),
    "depth": (1.0, (1.0, 64.0), "search: the searcher's own decisions an iteration "
                                "chooses by the tree, the root's included (1: only the "
                                "root, a flat search; rounded down)"),
}
"""A search player's weights (default, range, meaning), the last of a searching game's
weight vector: read only by a ``search`` chooser or cutter, whose other weights are then
its rollout policy's."""

WIDENED = 3
"""The candidate kind of a widened move (a slicing game's cut; the games number their
other kinds around it)."""

# Columns of ``Bandit.move``.
KIND = 0
INDEX = 1
DETAIL = 2


class Bandit(NamedTuple):
    """One decision's candidate moves, their statistics and the deal's hidden part."""

    # (places,) int64: [i] the places of the deal a sampled world deals afresh, then -1s.
    hidden: np.ndarray
    # (places,) int16: [i] the items in those places, sorted: what is hidden, not where.
    pool: np.ndarray
    # (moves, 3) int64: [candidate, KIND/INDEX/DETAIL] the candidate moves, in the game's
    # encoding (``WIDENED``, INDEX the widened move, DETAIL its ``wide_detail``, is shared).
    move: np.ndarray
    # (moves,) int64: [candidate] iterations that played it.
    visits: np.ndarray
    # (moves,) float64: [candidate] the searcher's win shares summed over those iterations.
    reward: np.ndarray
    # (wide,) int64: [w] the DETAIL of widened move w (a slicing game's cut: its gap mask).
    wide_detail: np.ndarray
    # (wide,) float64: [w] the game's heuristic ranking of widened move w, higher first;
    # copied per decision, so that nothing a play-out does can change it.
    wide_rank: np.ndarray
    # (wide,) bool: [w] already a candidate (the widening admits each move once).
    admitted: np.ndarray


@jit
def new_bandit(places, moves, wide_detail):
    """A ``Bandit`` for a deal of ``places``, ``moves`` candidates and the widened moves'
    details ``wide_detail``."""
    wide = wide_detail.shape[0]
    return Bandit(np.zeros(places, dtype=np.int64), np.zeros(places, dtype=np.int16),
                  np.zeros((moves, 3), dtype=np.int64), np.zeros(moves, dtype=np.int64),
                  np.zeros(moves), wide_detail.astype(np.int64), np.zeros(wide),
                  np.zeros(wide, dtype=np.bool_))


@jit_borrowing
def clear(bandit):
    """No candidates yet: visits, rewards and the admitted moves at zero; returns 0."""
    for c in range(bandit.visits.shape[0]):
        bandit.visits[c] = 0
        bandit.reward[c] = 0.0
    for c in range(bandit.admitted.shape[0]):
        bandit.admitted[c] = False
    return 0


@jit_borrowing
def add(count, kind, index, detail, bandit):
    """Append a candidate move after the first ``count``; returns the new count."""
    bandit.move[count, KIND] = kind
    bandit.move[count, INDEX] = index
    bandit.move[count, DETAIL] = detail
    return count + 1


@jit_borrowing
def widened_candidates(policy, rank, bandit):
    """The policy's widened move (its DETAIL ``policy``) first; every other waits for the
    widening (``select``), best ``rank`` first.

    Returns the candidate count (every widened move).
    """
    count = clear(bandit)
    wide = bandit.wide_detail.shape[0]
    for w in range(wide):
        bandit.wide_rank[w] = rank[w]
        if bandit.wide_detail[w] == policy:
            bandit.admitted[w] = True
        # Not yet a move: filled when the widening lets it compete.
        bandit.move[w, KIND] = -1
    return add(count, WIDENED, -1, policy, bandit) + wide - 1


@jit_borrowing
def select(t, count, widen, exploration, widening, bandit):
    """The candidate iteration ``t`` (0-based) plays: UCB1, unvisited first.

    With ``widen`` only the first ``ceil(widening * sqrt(t + 1))`` compete; a slot
    entering play is filled with the best-ranked widened move not yet admitted.
    """
    width = count
    if widen:
        width = min(max(int(np.ceil(widening * np.sqrt(t + 1.0))), 1), count)
    for slot in range(width):
        if bandit.visits[slot] == 0:
            if widen and bandit.move[slot, KIND] != WIDENED:
                _admit(slot, bandit)
            return slot
    return ucb(t, 0, width, exploration, bandit.visits, bandit.reward)


@jit_borrowing
def ucb(t, first, width, exploration, visits, reward):
    """UCB1 over the ``width`` candidates from row ``first`` of ``visits`` and ``reward``
    after ``t`` iterations: the first unvisited, else the best score (ties: the earlier);
    returns the candidate's offset from ``first``."""
    for slot in range(width):
        if visits[first + slot] == 0:
            return slot
    log_t = np.log(float(t))
    best = 0
    best_score = -1.0
    for slot in range(width):
        n = float(visits[first + slot])
        score = reward[first + slot] / n + exploration * np.sqrt(log_t / n)
        best = slot if score > best_score else best
        best_score = score if score > best_score else best_score
    return best


@jit_borrowing
def _admit(slot, bandit):
    """Candidate ``slot`` becomes the best-ranked widened move not yet admitted."""
    best = next_admitted(bandit)
    add(slot, WIDENED, best, bandit.wide_detail[best], bandit)


@jit_borrowing
def next_admitted(bandit):
    """The best-ranked widened move not yet admitted (ties: the earlier), now admitted."""
    best = -1
    for w in range(bandit.wide_detail.shape[0]):
        if not bandit.admitted[w] and (best < 0 or bandit.wide_rank[w] > bandit.wide_rank[best]):
            best = w
    bandit.admitted[best] = True
    return best


@jit_borrowing
def most_visited(bandit):
    """The decision: the most visited candidate (ties: the earlier), as its move row."""
    best = 0
    for c in range(1, bandit.visits.shape[0]):
        best = c if bandit.visits[c] > bandit.visits[best] else best
    return bandit.move[best, KIND], bandit.move[best, INDEX], bandit.move[best, DETAIL]


@jit_borrowing
def sort_pool(order, hidden, pool):
    """``pool``: the items at the ``hidden`` places of ``order``, sorted.

    Sorted, they say which slices are hidden and nothing of where they lie, so a sampled
    world depends not at all on the real hidden order.
    """
    m = 0
    while m < hidden.shape[0] and hidden[m] >= 0:
        # Insertion sort: a few dozen items, once per decision.
        s = order[hidden[m]]
        j = m
        while j > 0 and pool[j - 1] > s:
            pool[j] = pool[j - 1]
            j -= 1
        pool[j] = s
        m += 1


@jit_borrowing
def deal_hidden(stream, order, hidden, pool):
    """Deal the ``pool`` into the ``hidden`` places of ``order`` in a fresh random order.

    Fisher-Yates over the places, drawing from ``stream``.
    """
    m = 0
    while m < hidden.shape[0] and hidden[m] >= 0:
        order[hidden[m]] = pool[m]
        m += 1
    for i in range(m - 1, 0, -1):
        j = below(stream, i + 1)
        order[hidden[i]], order[hidden[j]] = order[hidden[j]], order[hidden[i]]
