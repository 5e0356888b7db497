"""Piece o' Cake strategies: parameter vectors and the decision functions that read them.

A strategy is two small integer codes (how it chooses, how it cuts) and a float vector
of weights, one row per seat, so that an experiment can mix strategies at a table and
sweep their parameters. The decision functions are compiled once and used by both the
Numba kernel and the reference engine: the reference owns the rules, the strategy only
answers "what would you do?" from the table as every player sees it.

What a player sees (the *view*): every player's face-up collected slices, the cake on
the table and its portions, and ``unseen[k]``, the slices of kind ``k`` not yet revealed
(later cakes and the set-aside slices). Eaten slices are face down; nobody needs them.
"""

from dataclasses import dataclass

import numpy as np

from cakesim.circle import arcs_of_cut
from cakesim.errors import InputError
from cakesim.jit import jit_borrowing
from cakesim.seeding import below
from cakesim.tables import Table

# Chooser codes: how a player picks among portions, declines and passes.
RANDOM = 0
GREEDY = 1
CHOOSERS = {"random": RANDOM, "greedy": GREEDY}

# Cutter codes: how a waiter cuts the circle.
RANDOM_CUT = 0
BALANCED_CUT = 1
ENUMERATED_CUT = 2
CUTTERS = {"random": RANDOM_CUT, "balanced": BALANCED_CUT, "enumerate": ENUMERATED_CUT}

# Parameter positions in a strategy's float vector.
EAT_WEIGHT = 0
COLLECT_WEIGHT = 1
UNCERTAINTY = 2
DECLINE_THRESHOLD = 3

PARAMETERS = {
    "eat_weight": (1.0, "points credited per cream dollop of an eaten slice"),
    "collect_weight": (1.0, "weight of the expected majority points a collected slice adds"),
    "uncertainty": (0.3, "how much each slice of a kind still to come blurs a lead in it "
                         "(0: a lead is a sure win)"),
    "decline_threshold": (0.0, "extra gain a decline (eating a collected kind) must promise "
                               "over the best portion before the player declines"),
}

# Actions a chooser returns.
TAKE = 0
DECLINE_EAT = 1
PASS = 2


@dataclass(frozen=True)
class Strategy:
    """A named strategy: chooser and cutter codes and the weight vector."""

    name: str
    chooser: str = "greedy"
    cutter: str = "enumerate"
    weights: tuple[tuple[str, float], ...] = ()
    """Weights that differ from the defaults, as ``(name, value)`` pairs."""

    @property
    def codes(self) -> np.ndarray:
        """``[chooser code, cutter code]`` as the kernel reads them."""
        return np.array([CHOOSERS[self.chooser], CUTTERS[self.cutter]], dtype=np.int8)

    @property
    def params(self) -> np.ndarray:
        """The weight vector, defaults filled in, in ``PARAMETERS`` order."""
        given = dict(self.weights)
        return np.array([given.get(k, d) for k, (d, _) in PARAMETERS.items()])

    def describe(self) -> str:
        """One line: chooser, cutter and weights."""
        if self.chooser == "random" and self.cutter == "random":
            return "uniform random legal play"
        weights = ", ".join(f"{k}={v:g}" for k, v in zip(PARAMETERS, self.params, strict=True))
        return f"{self.chooser} chooser, {self.cutter} cutter ({weights})"


def parse_strategy(name: str, table: Table) -> Strategy:
    """A ``Strategy`` from an experiment's ``[strategies.NAME]`` table."""
    table.only(["chooser", "cutter", *PARAMETERS])
    chooser = table.get("chooser", str, "greedy", CHOOSERS)
    cutter = table.get("cutter", str, "random" if chooser == "random" else "enumerate", CUTTERS)
    weights = {k: table.get(k, float) for k in PARAMETERS if k in table.data}
    for key in ("eat_weight", "collect_weight", "uncertainty"):
        if weights.get(key, 0.0) < 0:
            raise table.error(key, f"{weights[key]} is not allowed; must be 0 or more")
    return Strategy(name, chooser, cutter, tuple(weights.items()))


def strategy_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Per-player code and parameter arrays for the kernel."""
    return (np.stack([s.codes for s in strategies]), np.stack([s.params for s in strategies]))


RANDOM_PLAY = Strategy("random", "random", "random")
GREEDY_PLAY = Strategy("greedy")


def named_strategy(name: str) -> Strategy:
    """A built-in strategy by name: ``random``, ``greedy`` or ``greedy-balanced``."""
    builtin = {"random": RANDOM_PLAY, "greedy": GREEDY_PLAY,
               "greedy-balanced": Strategy("greedy-balanced", "greedy", "balanced")}
    if name not in builtin:
        raise InputError("strategy", name, f"unknown strategy; built in: {', '.join(builtin)}")
    return builtin[name]


# ----------------------------------------------------------------------------------------
# Valuation shared by every greedy decision.


@jit_borrowing
def majority_chance(mine, best_other, still_open, uncertainty, ties_score):
    """Estimated chance that ``mine`` collected slices win (or share) a kind's majority.

    The lead over the best opponent (a tie counts half a slice for us when ties score,
    against us when they do not) is shrunk by the slices of the kind still to be decided,
    then squashed into (0, 1). With nothing left to come the answer is exact.
    """
    if mine == 0:
        return 0.0
    margin = float(mine - best_other) + (0.5 if ties_score else -0.5)
    if still_open == 0:
        return 1.0 if margin > 0.0 else 0.0
    lead = margin / (1.0 + uncertainty * still_open)
    return 0.5 + 0.5 * lead / (1.0 + abs(lead))


@jit_borrowing
def best_opponent(collected, seat, kind):
    """The most slices of ``kind`` any player but ``seat`` has collected."""
    most = 0
    for other in range(collected.shape[0]):
        if other != seat and collected[other, kind] > most:
            most = collected[other, kind]
    return most


@jit_borrowing
def slice_choice(params, mine, best_other, still_open, value, cream, ties_score):
    """Greedy choice for one slice: ``(gain, eat)``; eat when that gains at least as much."""
    eat_gain = params[EAT_WEIGHT] * cream
    now = majority_chance(mine, best_other, still_open, params[UNCERTAINTY], ties_score)
    then = majority_chance(mine + 1, best_other, still_open, params[UNCERTAINTY], ties_score)
    collect_gain = params[COLLECT_WEIGHT] * value * (then - now)
    if eat_gain >= collect_gain:
        return eat_gain, True
    return collect_gain, False


@jit_borrowing
def open_slices(unseen, cake_kind, portion_start, portion_len, portion_taken, n_portions,
                out):
    """``out[k]``: slices of kind ``k`` still undecided (unseen or in untaken portions)."""
    n = cake_kind.shape[0]
    for kind in range(unseen.shape[0]):
        out[kind] = unseen[kind]
    for p in range(n_portions):
        if not portion_taken[p]:
            for j in range(portion_len[p]):
                out[cake_kind[(portion_start[p] + j) % n]] += 1


@jit_borrowing
def plan_portion(params, seat, start, length, cake_kind, cake_cream, collected, still_open,
                 majority_value, ties_score, added, decided):
    """Greedy slice-by-slice plan for a portion: ``(value, eat_mask)``.

    Slices are decided in arc order; each decision sees the slices already collected from
    this portion. ``added`` and ``decided`` are scratch arrays of one entry per kind.
    """
    n = cake_kind.shape[0]
    added[:] = 0
    decided[:] = 0
    value = 0.0
    eat_mask = 0
    for j in range(length):
        gain, eat = _next_slice(params, seat, (start + j) % n, cake_kind, cake_cream,
                                collected, still_open, majority_value, ties_score, added,
                                decided)
        value += gain
        if eat:
            eat_mask |= 1 << j
    return value, eat_mask


@jit_borrowing
def _next_slice(params, seat, position, cake_kind, cake_cream, collected, still_open,
                majority_value, ties_score, added, decided):
    """Decide the next slice of a portion being planned; count it in ``added``/``decided``."""
    kind = cake_kind[position]
    decided[kind] += 1
    gain, eat = slice_choice(params, collected[seat, kind] + added[kind],
                             best_opponent(collected, seat, kind),
                             still_open[kind] - decided[kind], majority_value[kind],
                             cake_cream[position], ties_score)
    if not eat:
        added[kind] += 1
    return gain, eat


@jit_borrowing
def best_decline(params, seat, collected, collected_cream, still_open, majority_value,
                 ties_score):
    """The collected kind whose eating gains most: ``(kind, gain)``; kind -1 if none."""
    best_kind = -1
    best_gain = 0.0
    for kind in range(collected.shape[1]):
        mine = collected[seat, kind]
        if mine == 0:
            continue
        chance = majority_chance(mine, best_opponent(collected, seat, kind), still_open[kind],
                                 params[UNCERTAINTY], ties_score)
        gain = (params[EAT_WEIGHT] * collected_cream[seat, kind]
                - params[COLLECT_WEIGHT] * majority_value[kind] * chance)
        if best_kind < 0 or gain > best_gain:
            best_kind = kind
            best_gain = gain
    return best_kind, best_gain


# ----------------------------------------------------------------------------------------
# Choosing: take a portion, decline and eat a collected kind, or pass.


@jit_borrowing
def choose_action(codes, params, seat, cake_kind, cake_cream, portion_start, portion_len,
                  portion_taken, n_portions, collected, collected_cream, unseen,
                  majority_value, ties_score, stream, still_open, added, decided):
    """A chooser's move: ``(action, index, eat_mask)`` with action TAKE, DECLINE_EAT or PASS.

    For TAKE, ``index`` is the portion and bit ``j`` of ``eat_mask`` says to eat its
    ``j``-th slice; for DECLINE_EAT, ``index`` is the kind eaten.
    """
    if codes[0] == RANDOM:
        return _random_action(seat, portion_len, portion_taken, n_portions, collected, stream)
    open_slices(unseen, cake_kind, portion_start, portion_len, portion_taken, n_portions,
                still_open)
    best_portion = -1
    best_value = 0.0
    best_mask = 0
    for p in range(n_portions):
        if portion_taken[p]:
            continue
        value, eat_mask = plan_portion(params, seat, portion_start[p], portion_len[p],
                                       cake_kind, cake_cream, collected, still_open,
                                       majority_value, ties_score, added, decided)
        if best_portion < 0 or value > best_value:
            best_portion, best_value, best_mask = p, value, eat_mask
    kind, gain = best_decline(params, seat, collected, collected_cream, still_open,
                              majority_value, ties_score)
    if kind >= 0 and gain - params[DECLINE_THRESHOLD] > best_value:
        return DECLINE_EAT, kind, 0
    if best_portion >= 0:
        return TAKE, best_portion, best_mask
    return PASS, -1, 0


@jit_borrowing
def _random_action(seat, portion_len, portion_taken, n_portions, collected, stream):
    """Uniform over the legal moves: every untaken portion, every collected kind, a pass."""
    untaken = 0
    for p in range(n_portions):
        if not portion_taken[p]:
            untaken += 1
    kinds = 0
    for kind in range(collected.shape[1]):
        if collected[seat, kind] > 0:
            kinds += 1
    pick = below(stream, untaken + kinds + 1)
    if pick < untaken:
        for p in range(n_portions):
            if not portion_taken[p]:
                if pick == 0:
                    eat_mask = 0
                    for j in range(portion_len[p]):
                        if below(stream, 2) == 1:
                            eat_mask |= 1 << j
                    return TAKE, p, eat_mask
                pick -= 1
    pick -= untaken
    if pick < kinds:
        for kind in range(collected.shape[1]):
            if collected[seat, kind] > 0:
                if pick == 0:
                    return DECLINE_EAT, kind, 0
                pick -= 1
    return PASS, -1, 0


# ----------------------------------------------------------------------------------------
# Cutting.


@jit_borrowing
def choose_cut(codes, params, waiter, cake_kind, cake_cream, collected, collected_cream,
               unseen, majority_value, ties_score, portion_limit, cut_masks, stream,
               still_open, added, decided, arc_value, decline_value, starts, lengths, taken):
    """The waiter's cut, as a gap mask (see ``cakesim.circle``)."""
    if codes[1] == RANDOM_CUT:
        return cut_masks[below(stream, cut_masks.shape[0])]
    n = cake_kind.shape[0]
    for kind in range(unseen.shape[0]):
        still_open[kind] = unseen[kind]
    for position in range(n):
        still_open[cake_kind[position]] += 1
    if codes[1] == BALANCED_CUT:
        return _balanced_cut(params, waiter, cake_kind, cake_cream, collected, still_open,
                             majority_value, ties_score, portion_limit, arc_value, added,
                             decided)
    for seat in range(collected.shape[0]):
        _value_arcs(params, seat, n, cake_kind, cake_cream, collected, still_open,
                    majority_value, ties_score, arc_value, added, decided)
        kind, gain = best_decline(params, seat, collected, collected_cream, still_open,
                                  majority_value, ties_score)
        decline_value[seat] = gain - params[DECLINE_THRESHOLD] if kind >= 0 else -1.0
    return _best_enumerated_cut(params, waiter, n, cut_masks, arc_value, decline_value,
                                starts, lengths, taken)


@jit_borrowing
def _balanced_cut(params, waiter, cake_kind, cake_cream, collected, still_open,
                  majority_value, ties_score, portion_limit, arc_value, added, decided):
    """As many near-equal arcs as allowed, turned so that the worst arc is worth most.

    The waiter takes last, so it expects the portion nobody wanted: it rotates the
    equal-size cut around the circle and keeps the rotation whose least valuable arc (by
    its own valuation) is the most valuable.
    """
    n = cake_kind.shape[0]
    k = min(portion_limit, n)
    if k <= 1:
        return 0
    # Every rotation reuses the same few arcs: value each start's prefixes once.
    _value_arcs(params, waiter, (n + k - 1) // k, cake_kind, cake_cream, collected,
                still_open, majority_value, ties_score, arc_value, added, decided)
    best_mask = 0
    best_worst = 0.0
    for offset in range(n):
        mask = 0
        worst = 0.0
        start = offset
        for arc in range(k):
            length = n // k + (1 if arc < n % k else 0)
            mask |= 1 << ((start + n - 1) % n)
            value = arc_value[waiter, start, length]
            if arc == 0 or value < worst:
                worst = value
            start = (start + length) % n
        if offset == 0 or worst > best_worst:
            best_mask, best_worst = mask, worst
    return best_mask


@jit_borrowing
def _value_arcs(params, seat, longest, cake_kind, cake_cream, collected, still_open,
                majority_value, ties_score, arc_value, added, decided):
    """``arc_value[seat, start, length]``: the greedy value of every arc up to ``longest``.

    One pass per start: the plan of an arc extends the plan of its prefix. A waiter values
    everyone with its own weights (it does not know the others').
    """
    n = cake_kind.shape[0]
    for start in range(n):
        added[:] = 0
        decided[:] = 0
        value = 0.0
        for j in range(longest):
            gain, _ = _next_slice(params, seat, (start + j) % n, cake_kind, cake_cream,
                                  collected, still_open, majority_value, ties_score, added,
                                  decided)
            value += gain
            arc_value[seat, start, j + 1] = value


@jit_borrowing
def _best_enumerated_cut(params, waiter, n, cut_masks, arc_value, decline_value, starts,
                         lengths, taken):
    """Try every legal cut; predict each chooser's pick; keep the waiter's best outcome."""
    players = arc_value.shape[0]
    best_mask = 0
    best_outcome = 0.0
    for c in range(cut_masks.shape[0]):
        count = arcs_of_cut(cut_masks[c], n, starts, lengths)
        taken[:count] = False
        for turn in range(1, players):
            chooser = (waiter + turn) % players
            pick = _predicted_pick(arc_value[chooser], starts, lengths, taken, count)
            if pick >= 0 and arc_value[chooser, starts[pick], lengths[pick]] >= \
                    decline_value[chooser]:
                taken[pick] = True
        outcome = max(decline_value[waiter], 0.0)
        pick = _predicted_pick(arc_value[waiter], starts, lengths, taken, count)
        if pick >= 0:
            outcome = max(outcome, arc_value[waiter, starts[pick], lengths[pick]])
        if c == 0 or outcome > best_outcome:
            best_mask, best_outcome = cut_masks[c], outcome
    return best_mask


@jit_borrowing
def _predicted_pick(values, starts, lengths, taken, count):
    """The untaken arc a chooser values most (-1 if none is left)."""
    pick = -1
    for p in range(count):
        if not taken[p] and (pick < 0 or values[starts[p], lengths[p]] >
                             values[starts[pick], lengths[pick]]):
            pick = p
    return pick


# ----------------------------------------------------------------------------------------
# Compensation variant: keeping one set-aside slice.


@jit_borrowing
def choose_bonus(codes, params, seat, aside_kind, aside_cream, aside_left, collected,
                 unseen, majority_value, ties_score, stream):
    """Which set-aside slice to keep and whether to eat it: ``(index, eat)``."""
    if codes[0] == RANDOM:
        left = 0
        for a in range(aside_kind.shape[0]):
            if aside_left[a]:
                left += 1
        pick = below(stream, left)
        for a in range(aside_kind.shape[0]):
            if aside_left[a]:
                if pick == 0:
                    return a, below(stream, 2) == 1
                pick -= 1
    best = -1
    best_gain = 0.0
    best_eat = True
    for a in range(aside_kind.shape[0]):
        if not aside_left[a]:
            continue
        kind = aside_kind[a]
        gain, eat = slice_choice(params, collected[seat, kind],
                                 best_opponent(collected, seat, kind), unseen[kind] - 1,
                                 majority_value[kind], aside_cream[a], ties_score)
        if best < 0 or gain > best_gain:
            best, best_gain, best_eat = a, gain, eat
    return best, best_eat
