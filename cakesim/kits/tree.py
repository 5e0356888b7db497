"""The search driver's information-set tree: the searcher's own later decisions.

The root of a search is the decision in the real game (``bandit.Bandit``). Below it, a
searcher with ``depth`` above 1 keeps a tree of its own later decisions, as OpenSpiel's
``ismcts.py`` does (Cowling, Powley and Whitehouse 2012, SO-ISMCTS): an iteration that
reaches the searcher's next decision in its sampled world looks that decision up by what
the searcher knows there, chooses by UCB1 among its candidates, and plays on; everyone
else's moves stay the rollout policy's.

A node is the searcher's *information set*: OpenSpiel keys it by the information-state
string; here by a 64-bit hash (``fold``) of the parent's key, the candidate played there
and everything the searcher saw since (the game's ``observe`` hook). Two sampled worlds
that reach the decision with the same history share the node; a world that reveals
something else (another cake, another rival's choice) reaches another.

Most information sets are reached once: after a chance reveal (the next cake) the
searcher's history is new in almost every world. Listing a decision's candidates costs
what the root's listing costs (for a cut, every legal cut ranked), so a node is listed
only when an iteration reaches it a second time (the expansion threshold of Coulom's
MCTS); until then the iteration plays out with the rollout policy from there, as a
flat search would. Each iteration lists at most one node, and the tree stops growing
when its rows are used up.

A listed node keeps its candidates in the order the widening admits them at the root:
the policy's move, then the widened moves best rank first. A node can never see more
visits than the search has iterations, so of widened moves only the first
``ceil(widening * sqrt(iterations)) + 1`` are kept.
"""

from typing import NamedTuple

import numpy as np
from numba import literal_unroll

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import GOLDEN, mix64
from cakesim.kits.bandit import DETAIL, INDEX, KIND, WIDENED, new_bandit, next_admitted, ucb

ROWS_PER_NODE = 48
"""Candidate rows allocated per node of capacity: enough for every choice of the slicing
games (a portion per arc, a decline per kind, a pass) and the widened moves of a cut at
up to 2,000 iterations."""

NOT_LISTED = -1


class Tree(NamedTuple):
    """The searcher's later decisions: their keys, candidates and statistics."""

    # (nodes,) uint64: [n] node n's key (parent's key, candidate, what was seen since).
    key: np.ndarray
    # (slots,) int64: open addressing over the keys, a power of two at least twice the
    # nodes: [slot] node + 1, or 0 for an empty slot.
    table: np.ndarray
    # (nodes,) int64: [n] the first of node n's rows, NOT_LISTED until it is listed.
    first: np.ndarray
    # (nodes,) int64: [n] node n's candidate rows.
    count: np.ndarray
    # (nodes,) bool: [n] node n's candidates are admitted by widening.
    widen: np.ndarray
    # (nodes,) int64: [n] iterations that chose at node n.
    visits_node: np.ndarray
    # (rows, 3) int64: [row, KIND/INDEX/DETAIL] a candidate move, as ``Bandit.move``.
    move: np.ndarray
    # (rows,) int64 and float64: [row] iterations that played it, the searcher's win
    # shares summed over them.
    visits: np.ndarray
    reward: np.ndarray
    # (depth,) int64 and (depth,) int64: [i] the node and row an iteration chose at its
    # i-th decision below the root.
    path_node: np.ndarray
    path_row: np.ndarray
    # (2,) int64: nodes used, rows used.
    used: np.ndarray
    # bandit.Bandit: where the game's ``candidates`` hook lists a node's moves.
    lister: tuple


@jit
def new_tree(nodes, depth, places, moves, wide_detail):
    """A ``Tree`` of ``nodes`` nodes, iterations ``depth`` decisions deep, listing through a
    ``Bandit`` shaped as the root's (``places``, ``moves``, ``wide_detail``)."""
    slots = 1
    while slots < 2 * nodes:
        slots *= 2
    rows = nodes * ROWS_PER_NODE
    return Tree(np.zeros(nodes, dtype=np.uint64), np.zeros(slots, dtype=np.int64),
                np.zeros(nodes, dtype=np.int64), np.zeros(nodes, dtype=np.int64),
                np.zeros(nodes, dtype=np.bool_), np.zeros(nodes, dtype=np.int64),
                np.zeros((rows, 3), dtype=np.int64), np.zeros(rows, dtype=np.int64),
                np.zeros(rows), np.zeros(max(depth, 1), dtype=np.int64),
                np.zeros(max(depth, 1), dtype=np.int64), np.zeros(2, dtype=np.int64),
                new_bandit(places, moves, wide_detail))


@jit_borrowing
def tree_nodes(iterations, depth):
    """The nodes a tree needs for players searching ``iterations[j]`` worlds ``depth[j]``
    decisions deep: an iteration adds at most one node, and a flat search none."""
    nodes = 0
    for j in range(iterations.shape[0]):
        if int(depth[j]) > 1:
            nodes = max(nodes, int(iterations[j]))
    return nodes


@jit_borrowing
def tree_depth(depth):
    """The deepest of the players' ``depth`` (rounded down); at least 1."""
    deepest = 1
    for j in range(depth.shape[0]):
        deepest = max(deepest, int(depth[j]))
    return deepest


@jit_borrowing
def clear_tree(tree):
    """No nodes: a new decision's tree."""
    for slot in range(tree.table.shape[0]):
        tree.table[slot] = 0
    tree.used[0] = 0
    tree.used[1] = 0


@jit_borrowing
def fold(key, value):
    """``key`` with ``value`` (an integer) folded in: SplitMix64's avalanche of both."""
    return mix64(key ^ mix64(np.uint64(np.int64(value)) + GOLDEN))


@jit_borrowing
def fold_arrays(key, arrays):
    """``key`` with every element of each contiguous array in the tuple ``arrays`` folded
    in, in order."""
    for values in literal_unroll(arrays):
        flat = values.reshape(-1)
        for i in range(flat.shape[0]):
            key = fold(key, flat[i])
    return key


@jit_borrowing
def reach(tree, key):
    """The node of ``key`` and whether it was known: an unknown key becomes a node, not
    yet listed (-1 when the tree is full)."""
    mask = tree.table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while tree.table[slot] != 0:
        node = tree.table[slot] - 1
        if tree.key[node] == key:
            return node, True
        slot = (slot + 1) & mask
    node = tree.used[0]
    if node >= tree.key.shape[0]:
        return -1, False
    tree.used[0] = node + 1
    tree.table[slot] = node + 1
    tree.key[node] = key
    tree.first[node] = NOT_LISTED
    tree.visits_node[node] = 0
    return node, False


@jit_borrowing
def list_node(tree, node, count, widen, widening, iterations):
    """Node ``node``'s candidates, from the ``count`` the lister holds: the policy's move,
    then (``widen``) the widened moves best rank first, as many as ``iterations`` can
    admit. Returns False, leaving the node unlisted, when the rows are used up."""
    bandit = tree.lister
    keep = count
    if widen:
        keep = min(count, int(np.ceil(widening * np.sqrt(float(iterations)))) + 1)
    first = tree.used[1]
    if first + keep > tree.move.shape[0]:
        return False
    tree.used[1] = first + keep
    tree.first[node] = first
    tree.count[node] = keep
    tree.widen[node] = widen
    for r in range(first, first + keep):
        tree.visits[r] = 0
        tree.reward[r] = 0.0
    for col in range(3):
        tree.move[first, col] = bandit.move[0, col]
    if not widen:
        for c in range(1, keep):
            for col in range(3):
                tree.move[first + c, col] = bandit.move[c, col]
        return True
    # The widened moves in the order the root's widening admits them; the policy's move
    # is already admitted.
    for c in range(1, keep):
        best = next_admitted(bandit)
        tree.move[first + c, KIND] = WIDENED
        tree.move[first + c, INDEX] = best
        tree.move[first + c, DETAIL] = bandit.wide_detail[best]
    return True


@jit_borrowing
def choose_row(tree, node, exploration, widening):
    """The row an iteration plays at listed node ``node``: UCB1 over its candidates, the
    first ``ceil(widening * sqrt(t + 1))`` of them when they are widened."""
    t = tree.visits_node[node]
    width = tree.count[node]
    if tree.widen[node]:
        width = min(max(int(np.ceil(widening * np.sqrt(t + 1.0))), 1), width)
    return tree.first[node] + ucb(t, tree.first[node], width, exploration, tree.visits,
                                  tree.reward)


@jit_borrowing
def back_up(tree, steps, reward):
    """The iteration's win share credited to every row it chose below the root."""
    for i in range(steps):
        tree.visits_node[tree.path_node[i]] += 1
        tree.visits[tree.path_row[i]] += 1
        tree.reward[tree.path_row[i]] += reward
