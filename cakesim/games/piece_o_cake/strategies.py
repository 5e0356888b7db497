"""Piece o' Cake strategies: parameter vectors and the decision functions that read them.

A strategy is two small integer codes (how it chooses, how it cuts) and a float vector
of weights, one row per seat, so that an experiment can mix strategies at a table and
sweep their parameters. The decision functions are compiled once and used by both the
Numba kernel and the reference engine: the reference owns the rules, the strategy only
answers "what would you do?" from the table as every player sees it. The ``choose_*``
functions receive the bundles of ``kernel.py``: ``seats`` (a ``Strategies``: every seat's
codes, weights and chance table, ``fill_chances``, one row per seat) and the seat that
decides, the ``view`` (a ``View``), the table's ``rules`` (a ``RuleData``) and the
``scratch`` space (a ``Scratch``).

What a player sees (the *view*): every player's face-up collected slices, the cake on
the table and its portions, and ``unseen[k]``, the slices of kind ``k`` not yet revealed
(later cakes and the set-aside slices). Eaten slices are face down; nobody needs them.
Cutting and choosing read the view's count of slices still to be decided,
``still_open[k]``: the unseen ones and those in portions nobody has taken yet (for the
cut, the whole cake). The engines keep it; the kernel updates it as portions are taken.

Win-seeking: a greedy player values a collected slice by the rise of its own chance of
the kind's majority (``collect_weight``) and by the fall of the best rival's chance
(``deny_weight``, ``denied``): a win is a lead over the others, so denying a rival a
majority, or breaking a tie once the kind is settled, counts. ``deny_weight`` 0 is the
older, self-regarding play, exactly.
"""

from cakesim.engine.contract import SIGNED_WEIGHT, WEIGHT
from cakesim.engine.jit import as_index, jit_borrowing, jit_inline
from cakesim.engine.seeding import below
from cakesim.games.slicing.circle import along, arcs_of_cut
from cakesim.games.slicing.cutting import rotated_even_cut
from cakesim.games.slicing.tabletop import lead_chance
from cakesim.kits.bandit import SEARCH_WEIGHTS
from cakesim.kits.strategies import Code, StrategySpec

# Chooser codes: how a player picks among portions, declines and passes.
RANDOM = 0
GREEDY = 1
SEARCH = 2
LOOKAHEAD = 3
FITTED = 4
CHOOSERS = {"random": RANDOM, "greedy": GREEDY, "search": SEARCH, "lookahead": LOOKAHEAD,
            "fitted": FITTED}

# Cutter codes: how a waiter cuts the circle.
RANDOM_CUT = 0
BALANCED_CUT = 1
ENUMERATED_CUT = 2
SEARCH_CUT = 3
LOOKAHEAD_CUT = 4
LEAD_CUT = 5
LOOKAHEAD2_CUT = 6
CUTTERS = {"random": RANDOM_CUT, "balanced": BALANCED_CUT, "enumerate": ENUMERATED_CUT,
           "search": SEARCH_CUT, "lookahead": LOOKAHEAD_CUT, "lead": LEAD_CUT,
           "lookahead2": LOOKAHEAD2_CUT}
"""A ``search`` chooser (it also keeps set-aside slices) or cutter decides by the
information-set Monte-Carlo tree search of ``search.py``, a ``lookahead`` cutter or
chooser by serving the rest of the cake after every legal cut or move, a ``lead`` cutter
by the enumerating cutter's predicted serve valued as the lookahead values a served cake,
a ``lookahead2`` cutter by serving the cuts the lead cutter ranks highest with every
chooser choosing by lookahead (``lookahead.py``: they read the eaten cream and banked
points, which the ``View`` does not hold); the kernel hands them those decisions
(``steps.advance``), so the ``choose_*`` functions here never see their codes. A
``fitted`` chooser scores the lookahead chooser's candidates by its fitted network
(``fitted.py``, which reads the same points; ``kernel.play_game`` calls it). Lookahead
and fitted choosers keep set-aside slices and decide the joker as the greedy one does."""


PARAMETERS = {
    "eat_weight": (1.0, WEIGHT, "points credited per cream dollop of an eaten slice"),
    "collect_weight": (1.0, WEIGHT, "weight of the expected majority points a collected "
                                    "slice adds"),
    "uncertainty": (0.3, WEIGHT, "how much each slice of a kind still to come blurs a lead "
                                 "in it (0: a lead is a sure win)"),
    "decline_threshold": (0.0, SIGNED_WEIGHT, "extra gain a decline (eating a collected "
                                              "kind) must promise over the best portion "
                                              "before the player declines"),
    "deny_weight": (0.0, WEIGHT, "weight of the expected majority points a collected slice "
                                 "takes from the best rival in its kind (0: the player "
                                 "looks only at its own chances)"),
    "joker_eat_bias": (0.0, SIGNED_WEIGHT, "joker: extra gain credited to eating the joker "
                                           "(its points times eat_weight) over putting it "
                                           "on the best collected kind"),
    "swap_threshold": (0.0, SIGNED_WEIGHT, "joker: extra gain the joker's best use must "
                                           "promise over the real slice given for it "
                                           "before the player claims a swap"),
    **SEARCH_WEIGHTS,
}
"""Every weight: its default, its allowed range and what it means. The last four are
read only by a ``search`` chooser or cutter; the heuristic weights before them are then
its rollout policy's."""

SPEC = StrategySpec(
    codes={"chooser": Code(CHOOSERS, "greedy", "chooser"),
           "cutter": Code(CUTTERS, "enumerate", "cutter",
                          follows=("chooser", {"random": "random", "search": "search",
                                                "lookahead": "lookahead"}))},
    parameters=PARAMETERS, uniform="uniform random legal play",
    search_parameters=tuple(SEARCH_WEIGHTS),
    untuned_choices=("lookahead", "lead", "lookahead2", "fitted"),
    # A fitted chooser plays no copies, but is played only in the kernel built with the
    # working space (``lookahead.look_ahead``), so that the heuristic one compiles faster.
    working_space_choices=("lookahead", "lookahead2", "fitted"))
"""A strategy: how it chooses, how it cuts (a file naming a random, search or lookahead
chooser and no cutter cuts that way too) and its weights."""

# Positions of the weights in a strategy's parameter vector, made from the spec.
EAT_WEIGHT = SPEC.index("eat_weight")
COLLECT_WEIGHT = SPEC.index("collect_weight")
UNCERTAINTY = SPEC.index("uncertainty")
DECLINE_THRESHOLD = SPEC.index("decline_threshold")
DENY_WEIGHT = SPEC.index("deny_weight")
JOKER_EAT_BIAS = SPEC.index("joker_eat_bias")
SWAP_THRESHOLD = SPEC.index("swap_threshold")
ITERATIONS = SPEC.index("iterations")
EXPLORATION = SPEC.index("exploration")
WIDENING = SPEC.index("widening")
DEPTH = SPEC.index("depth")

# Actions a chooser returns.
TAKE = 0
DECLINE_EAT = 1
PASS = 2

# Fields of ``View.joker``: where the joker slice is, as every player sees it.
JOKER_WHERE = 0
"""``JOKER_HIDDEN`` (not in the box, in a stack not yet laid out, set aside or discarded),
``JOKER_TABLE`` (in the cake on the table), ``JOKER_HAND`` (taken; its eat-or-place
decision is pending), ``JOKER_PLACED`` (on a pile) or ``JOKER_EATEN``."""
JOKER_SEAT = 1
"""The seat that took it (-1 before anyone has)."""
JOKER_KIND = 2
"""The kind whose pile it stands on (-1 unless ``JOKER_PLACED``)."""
JOKER_HIDDEN = 0
JOKER_TABLE = 1
JOKER_HAND = 2
JOKER_PLACED = 3
JOKER_EATEN = 4


Strategy = SPEC.record("Strategy", __name__)
"""A named strategy: chooser and cutter codes and the weights that differ from the
defaults (``Strategy.parse`` reads one from an experiment's ``[strategies.NAME]`` table;
``Strategy.arrays`` stacks the kernel's code and parameter arrays)."""


RANDOM_PLAY = Strategy("random", "random", "random")
GREEDY_PLAY = Strategy("greedy")


BUILTIN = {"random": RANDOM_PLAY, "greedy": GREEDY_PLAY,
           "greedy-balanced": Strategy("greedy-balanced", "greedy", "balanced"),
           "greedy-deny": Strategy("greedy-deny", "greedy", "balanced",
                                   (("deny_weight", 1.0),))}
"""The built-in strategies, by name: random play, greedy play with each cutter, and
greedy play that also counts what a slice denies the best rival (``greedy-deny``). The
game's ``tuned`` strategies (one per player count) are read from ``tuned/``."""


# ----------------------------------------------------------------------------------------
# Valuation shared by every greedy decision.


# Planes of a chance table.
CHANCE = 0
RISE = 1


@jit_borrowing
def chance_table_shape(most):
    """The shape of a chance table when no pile can hold more than ``most`` slices."""
    return 2, most + 1, 2 * most + 1


@jit_borrowing
def most_in_pile(kind_count, joker_kind):
    """The most slices a pile can hold: the largest kind's, and the joker on top."""
    most = 0
    for kind in range(kind_count.shape[0]):
        most = max(most, kind_count[kind])
    return most + (1 if joker_kind >= 0 else 0)


@jit_borrowing
def fill_chances(params, ties_score, chances):
    """A strategy's chance table, filled once so that the valuation never divides.

    ``chances[CHANCE, still_open, lead + most]`` is ``lead_chance``, and
    ``chances[RISE, ...]`` what one more slice adds to it. ``most``
    (``chances.shape[1] - 1``) is the most slices any kind has, so every lead of a
    player with slices lies in ``-most .. most``.
    """
    most = chances.shape[1] - 1
    for still_open in range(most + 1):
        for lead in range(-most, most + 1):
            chances[CHANCE, still_open, lead + most] = lead_chance(
                lead, still_open, params[UNCERTAINTY], ties_score)
        for index in range(2 * most):
            chances[RISE, still_open, index] = (chances[CHANCE, still_open, index + 1]
                                                - chances[CHANCE, still_open, index])


@jit_inline
def majority_chance(chances, mine, best_other, still_open):
    """Estimated chance that ``mine`` collected slices win (or share) a kind's majority."""
    chance = chances[CHANCE, as_index(still_open),
                     as_index(mine - best_other + chances.shape[1] - 1)]
    return 0.0 if mine == 0 else chance


@jit_inline
def chance_rise(chances, mine, best_other, still_open):
    """How much one more slice raises ``majority_chance``.

    From none, the chance before is 0, so the rise is the chance with one slice.
    """
    index = mine - best_other + chances.shape[1] - 1
    # One load from a computed address, not a branch the processor would mispredict.
    plane = CHANCE if mine == 0 else RISE
    return chances[plane, as_index(still_open), as_index(index + (1 if mine == 0 else 0))]


@jit_borrowing
def best_opponent(collected, seat, kind):
    """The most slices of ``kind`` any player but ``seat`` has collected."""
    most = 0
    for other in range(collected.shape[0]):
        if other != seat and collected[other, kind] > most:
            most = collected[other, kind]
    return most


@jit_inline
def fill_rivals(collected, seat, rivals):
    """``rivals[k]``: ``best_opponent`` of every kind, once per decision (piles stay put)."""
    rivals[:] = 0
    for other in range(collected.shape[0]):
        if other != seat:
            for kind in range(collected.shape[1]):
                # A maximum stored unconditionally, not a conditional store (nor the builtin
                # max(), which Numba calls out of line): the next seat's loads then get it.
                count, most = collected[other, kind], rivals[kind]
                rivals[kind] = count if count > most else most


@jit_inline
def rival_chance(chances, mine, best_other, still_open):
    """Estimated chance that the best rival, with ``best_other`` slices, wins (or shares)
    the kind's majority against our ``mine``; 0 when no rival has any (as for us)."""
    # A rival's lead is ours negated. Only ``mine`` past every slice of the kind (asked by
    # ``denied``, with no rival left) could fall before the table: clamped, then discarded.
    index = best_other - mine + chances.shape[1] - 1
    chance = chances[CHANCE, as_index(still_open), as_index(index if index >= 0 else 0)]
    return 0.0 if best_other == 0 else chance


@jit_inline
def denied(chances, mine, best_other, still_open):
    """How much one more of our slices lowers ``rival_chance``: the majority it denies.

    With tied majorities scoring for everyone tied, taking the lead from a tie gains
    nothing for our own chance once the kind is settled, but takes the points from the
    rival; win-seeking play counts that (RULES.md section 1, Scoring).
    """
    return (rival_chance(chances, mine, best_other, still_open)
            - rival_chance(chances, mine + 1, best_other, still_open))


@jit_inline
def slice_choice(params, chances, mine, best_other, still_open, value, cream):
    """Greedy choice for one slice: ``(gain, eat)``; eat when that gains at least as much.

    Collecting gains the rise of our majority chance (``collect_weight``) and the fall of
    the best rival's (``deny_weight``), each times the kind's majority value.
    """
    eat_gain = params[EAT_WEIGHT] * cream
    collect = collect_gain(params, chances, mine, best_other, still_open, value)
    eat = eat_gain >= collect
    return (eat_gain if eat else collect), eat


@jit_inline
def collect_gain(params, chances, mine, best_other, still_open, value):
    """What one more slice on a pile of ``mine`` gains: the rise of our majority chance
    (``collect_weight``) and the fall of the best rival's (``deny_weight``), each times
    the kind's majority ``value``."""
    # Written so that with deny_weight 0 the sum is the own-chance term to the last bit.
    return (params[COLLECT_WEIGHT] * value * chance_rise(chances, mine, best_other, still_open)
            + params[DENY_WEIGHT] * value * denied(chances, mine, best_other, still_open))


@jit_inline
def plan_portion(params, chances, seat, start, length, view, rules, scratch):
    """Greedy slice-by-slice plan for a portion: ``(value, eat_mask)``.

    Slices are decided in arc order; each decision sees the slices already collected from
    this portion. ``scratch.added`` and ``scratch.decided`` are zero on entry and on return.
    """
    n = view.cake_kind.shape[0]
    value = 0.0
    eat_mask = 0
    position = start
    for j in range(length):
        gain, eat = _next_slice(params, chances, seat, position, view, rules, scratch)
        value += gain
        eat_mask |= (1 << j) if eat else 0
        position = along(position, 1, n)
    _forget(view.cake_kind, start, length, scratch.added, scratch.decided)
    return value, eat_mask


@jit_inline
def _forget(cake_kind, start, length, added, decided):
    """Zero ``added``/``decided`` again for the kinds of an arc just planned.

    They are zero between plans; clearing only the kinds touched is cheaper than
    clearing every kind before each of the hundreds of plans per game.
    """
    n = cake_kind.shape[0]
    position = start
    for _ in range(length):
        kind = cake_kind[as_index(position)]
        added[kind] = 0
        decided[kind] = 0
        position = along(position, 1, n)


@jit_inline
def _next_slice(params, chances, seat, position, view, rules, scratch):
    """Decide the next slice of a portion being planned; count it in ``added``/``decided``."""
    added, decided = scratch.added, scratch.decided
    kind = view.cake_kind[as_index(position)]
    decided[kind] += 1
    if kind == rules.joker_kind:
        # Valued by its best use on the piles as they stand (all collected before the
        # take), whatever else the arc holds: so its gain, too, depends only on its kind
        # (``_value_circle``).
        gain, _ = joker_choice(params, chances, seat, view, rules, -1, view.collected[seat])
        return gain, True
    gain, eat = slice_choice(params, chances, view.collected[seat, kind] + added[kind],
                             scratch.rivals[kind], view.still_open[kind] - decided[kind],
                             rules.majority_value[kind], view.cake_cream[as_index(position)])
    added[kind] += 0 if eat else 1
    return gain, eat


@jit_inline
def _no_decline_beats(params, seat, collected_cream, best_value):
    """Whether no decline can gain more than ``best_value``, without valuing each kind.

    With weights that are not negative, eating a kind gains at most its cream's worth,
    ``eat_weight * cream``, and so at most that of the creamiest pile. Floating-point
    products and differences keep that order, so the test never hides a better decline.
    """
    most_cream = 0
    for kind in range(collected_cream.shape[1]):
        cream = collected_cream[seat, kind]
        most_cream = cream if cream > most_cream else most_cream
    bound = params[EAT_WEIGHT] * most_cream - params[DECLINE_THRESHOLD]
    return ((params[EAT_WEIGHT] >= 0.0) & (params[COLLECT_WEIGHT] >= 0.0)
            & (params[DENY_WEIGHT] >= 0.0) & (bound <= best_value))


@jit_inline
def best_decline(params, chances, seat, view, rules, scratch):
    """The collected kind whose eating gains most: ``(kind, gain)``; kind -1 if none.

    ``scratch.rivals`` must hold ``seat``'s rivals (``fill_rivals``).
    """
    collected, collected_cream, still_open = view.collected, view.collected_cream, view.still_open
    rivals, majority_value = scratch.rivals, rules.majority_value
    best_kind = -1
    best_gain = 0.0
    for kind in range(collected.shape[1]):
        mine, rival, left = collected[seat, kind], rivals[kind], still_open[kind]
        # Eating the pile gives up our chance and hands the rival its chance against none.
        handed = rival_chance(chances, 0, rival, left) - rival_chance(chances, mine, rival, left)
        gain = (params[EAT_WEIGHT] * collected_cream[seat, kind]
                - params[COLLECT_WEIGHT] * majority_value[kind]
                * majority_chance(chances, mine, rival, left)
                - params[DENY_WEIGHT] * majority_value[kind] * handed)
        # Bitwise, not short-circuit, logic and conditional moves: no branch to mispredict.
        better = (mine > 0) & ((best_kind < 0) | (gain > best_gain))
        best_kind = kind if better else best_kind
        best_gain = gain if better else best_gain
    return best_kind, best_gain


# ----------------------------------------------------------------------------------------
# Choosing: take a portion, decline and eat a collected kind, or pass.


@jit_inline
def choose_action(seats, seat, view, n_portions, rules, scratch):
    """A chooser's move: ``(action, index, eat_mask)`` with action TAKE, DECLINE_EAT or PASS.

    The cut's first ``n_portions`` portions are on the table. For TAKE, ``index`` is the
    portion and bit ``j`` of ``eat_mask`` says to eat its ``j``-th slice; for DECLINE_EAT,
    ``index`` is the kind eaten.
    """
    portion_start, portion_len, portion_taken = (view.portion_start, view.portion_len,
                                                 view.portion_taken)
    if seats.codes[seat, 0] == RANDOM:
        return _random_action(seat, portion_len, portion_taken, n_portions, view.collected,
                              view.stream)
    weights, table = seats.params[seat], seats.chances[seat]
    fill_rivals(view.collected, seat, scratch.rivals)
    best_portion = -1
    best_value = 0.0
    best_mask = 0
    for p in range(n_portions):
        if portion_taken[p]:
            continue
        value, eat_mask = plan_portion(weights, table, seat, portion_start[p], portion_len[p],
                                       view, rules, scratch)
        better = (best_portion < 0) | (value > best_value)
        best_portion = p if better else best_portion
        best_value = value if better else best_value
        best_mask = eat_mask if better else best_mask
    if best_portion >= 0 and _no_decline_beats(weights, seat, view.collected_cream,
                                               best_value):
        return TAKE, best_portion, best_mask
    kind, gain = best_decline(weights, table, seat, view, rules, scratch)
    if kind >= 0 and gain - weights[DECLINE_THRESHOLD] > best_value:
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


@jit_borrowing
def greedy_move(seats, seat, view, n_portions, rules, scratch):
    """``choose_action``, compiled once and called: for the decisions that ask for the
    policy's move once per decision (a search's candidates, a lookahead's served cake,
    the fitted chooser).

    Inlined into each of them, the chooser was compiled into each: called, the kernel's
    search build compiles in about 280 s instead of 320 (with ``rank_cuts``), and neither
    the fitted chooser nor the lookahead plays measurably slower.
    """
    return choose_action(seats, seat, view, n_portions, rules, scratch)


# ----------------------------------------------------------------------------------------
# Cutting.


@jit_inline
def choose_cut(seats, waiter, view, rules, scratch):
    """The waiter's cut, as a gap mask (see ``cakesim.games.slicing.circle``)."""
    cut_masks = rules.cut_masks
    if seats.codes[waiter, 1] == RANDOM_CUT:
        return cut_masks[below(view.stream, cut_masks.shape[0])]
    weights, table = seats.params[waiter], seats.chances[waiter]
    if seats.codes[waiter, 1] == BALANCED_CUT:
        return balanced_cut(weights, table, waiter, view, rules, scratch)
    cut_outcomes(weights, table, waiter, view, rules, scratch)
    best = 0
    for c in range(cut_masks.shape[0]):
        best = c if scratch.cut_outcome[c] > scratch.cut_outcome[best] else best
    return cut_masks[best]


@jit_inline
def balanced_cut(params, chances, waiter, view, rules, scratch):
    """As many near-equal arcs as allowed, turned so that the worst arc is worth most.

    The waiter takes last, so it expects the portion nobody wanted: it rotates the
    equal-size cut around the circle and keeps the rotation whose least valuable arc (by
    its own valuation) is the most valuable.
    """
    n = view.cake_kind.shape[0]
    k = min(rules.portion_limit, n)
    if k <= 1:
        return 0
    # Every rotation reuses the same few arcs: value each start's prefixes once.
    fill_rivals(view.collected, waiter, scratch.rivals)
    _value_arcs(params, chances, waiter, (n + k - 1) // k, view, rules, scratch)
    return rotated_even_cut(scratch.arc_value[waiter], n, k)


@jit_inline
def _value_arcs(params, chances, seat, longest, view, rules, scratch):
    """``arc_value[seat, start, length]``: the greedy value of every arc up to ``longest``.

    One pass per start: the plan of an arc extends the plan of its prefix. A waiter values
    everyone with its own weights (it does not know the others'); ``scratch.rivals`` is
    ``seat``'s. With ``rules.reuse_gains`` (every slice of a kind carries the same cream),
    each slice's gain comes from ``_value_circle`` instead of being worked out again in
    every arc.
    """
    cake_kind, reuse_gains = view.cake_kind, rules.reuse_gains
    added, decided = scratch.added, scratch.decided
    arc_value, known_gain = scratch.arc_value, scratch.known_gain
    n = cake_kind.shape[0]
    if reuse_gains:
        _value_circle(params, chances, seat, view, rules, scratch)
    for start in range(n):
        value = 0.0
        position = start
        for j in range(longest):
            if reuse_gains:
                kind = cake_kind[as_index(position)]
                gain = known_gain[kind, as_index(decided[kind])]
                decided[kind] += 1
            else:
                gain, _ = _next_slice(params, chances, seat, position, view, rules, scratch)
            value += gain
            arc_value[seat, start, j + 1] = value
            position = along(position, 1, n)
        _forget(cake_kind, start, longest, added, decided)


@jit_inline
def _value_circle(params, chances, seat, view, rules, scratch):
    """``known_gain[kind, m]``: the gain of the ``m``-th slice of ``kind`` in any arc.

    Planned slice by slice, a slice's gain depends only on its kind and on the eat choices
    for the slices of that kind before it in the arc; when all slices of a kind carry the
    same cream, those choices, and so the gain, depend only on ``m``. Planning the whole
    circle once from slice 0 therefore gives every arc's gains, for one plan's work.
    """
    cake_kind, decided = view.cake_kind, scratch.decided
    n = cake_kind.shape[0]
    for position in range(n):
        kind = cake_kind[position]
        gain, _ = _next_slice(params, chances, seat, position, view, rules, scratch)
        scratch.known_gain[kind, as_index(decided[kind] - 1)] = gain
    _forget(cake_kind, 0, n, scratch.added, decided)


@jit_inline
def cut_outcomes(params, chances, waiter, view, rules, scratch):
    """``scratch.cut_outcome[c]``: what the waiter expects from legal cut ``c``.

    The enumerating cutter's model: every seat values arcs with the waiter's weights and
    picks, in turn from the waiter's left, its best arc unless its best decline is worth
    more; the waiter gets the best of what is left and of its own decline. Leaves every
    seat's arc values, best decline and its kind in ``scratch`` (the lead cutter reads them).
    """
    n = view.cake_kind.shape[0]
    for seat in range(view.collected.shape[0]):
        fill_rivals(view.collected, seat, scratch.rivals)
        _value_arcs(params, chances, seat, n, view, rules, scratch)
        kind, gain = best_decline(params, chances, seat, view, rules, scratch)
        scratch.decline_kind[seat] = kind
        scratch.decline_value[seat] = gain - params[DECLINE_THRESHOLD] if kind >= 0 else -1.0
    _predicted_outcomes(waiter, n, rules.cut_masks, scratch)


@jit_borrowing
def rank_cuts(params, chances, waiter, view, rules, scratch):
    """``cut_outcomes``, compiled once and called by the search and the lead cutter
    (``greedy_move`` says why)."""
    cut_outcomes(params, chances, waiter, view, rules, scratch)


@jit_borrowing
def _predicted_outcomes(waiter, n, cut_masks, scratch):
    """Try every legal cut; predict each chooser's pick; the waiter's outcome of each.

    Reads ``scratch.arc_value`` and ``scratch.decline_value`` (``cut_outcomes``).
    """
    arc_value, decline_value = scratch.arc_value, scratch.decline_value
    starts, lengths, taken = scratch.starts, scratch.lengths, scratch.taken
    players = arc_value.shape[0]
    for c in range(cut_masks.shape[0]):
        count = arcs_of_cut(cut_masks[c], n, starts, lengths)
        taken[:count] = False
        for turn in range(1, players):
            chooser = (waiter + turn) % players
            pick = predicted_pick(arc_value[chooser], starts, lengths, taken, count)
            if pick >= 0 and arc_value[chooser, starts[pick], lengths[pick]] >= \
                    decline_value[chooser]:
                taken[pick] = True
        outcome = max(decline_value[waiter], 0.0)
        pick = predicted_pick(arc_value[waiter], starts, lengths, taken, count)
        if pick >= 0:
            outcome = max(outcome, arc_value[waiter, starts[pick], lengths[pick]])
        scratch.cut_outcome[c] = outcome


@jit_borrowing
def predicted_pick(values, starts, lengths, taken, count):
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
def choose_bonus(seats, seat, view, rules):
    """Which set-aside slice to keep and whether to eat it: ``(index, eat)``."""
    aside_kind, aside_cream, aside_left = view.aside_kind, view.aside_cream, view.aside_left
    collected, unseen, stream = view.collected, view.unseen, view.stream
    if seats.codes[seat, 0] == RANDOM:
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
        if kind == rules.joker_kind:
            gain, _ = joker_choice(seats.params[seat], seats.chances[seat], seat, view, rules,
                                   -1, collected[seat])
            eat = True
        else:
            gain, eat = slice_choice(seats.params[seat], seats.chances[seat],
                                     collected[seat, kind], best_opponent(collected, seat, kind),
                                     unseen[kind] - 1, rules.majority_value[kind], aside_cream[a])
        if best < 0 or gain > best_gain:
            best, best_gain, best_eat = a, gain, eat
    return best, best_eat


# ----------------------------------------------------------------------------------------
# The joker: eat it or place it, and claim a swap.


@jit_inline
def may_place_joker(mine, earlier, rules):
    """Whether the joker may go on a kind of which its holder has ``mine`` slices and had
    ``earlier`` before the take that got it the joker (RULES.md s1): a kind it collects,
    and one it had collected before that take ("már korábban gyűjtött": a kind first
    collected in the same take does not count), unless the rule set's placement is
    ``same_take``. With no such kind the joker must be eaten."""
    return mine > 0 and (earlier > 0 or rules.joker_same_take)


@jit_borrowing
def joker_choice(params, chances, seat, view, rules, less_kind, earlier):
    """The joker's best use to ``seat``: ``(gain, kind)``, kind -1 to eat it.

    Eating gains its points (``eat_weight``) plus ``joker_eat_bias``; placing it on a kind
    it may go on (``may_place_joker``, with ``earlier[kind]`` the seat's slices of the kind
    before its take) gains what one more slice there gains (``slice_choice``'s collect
    term). ``less_kind``: a kind whose pile counts one slice less (the slice a swap would
    hand over), -1 for none. With no kind to go on it must be eaten (RULES.md s1).
    """
    collected, still_open = view.collected, view.still_open
    best_kind = -1
    best = params[EAT_WEIGHT] * rules.joker_points + params[JOKER_EAT_BIAS]
    for kind in range(rules.majority_value.shape[0]):
        mine = collected[seat, kind] - (1 if kind == less_kind else 0)
        if kind == rules.joker_kind or not may_place_joker(mine, earlier[kind], rules):
            continue
        gain = collect_gain(params, chances, mine, best_opponent(collected, seat, kind),
                            still_open[kind], rules.majority_value[kind])
        if gain > best:
            best, best_kind = gain, kind
    return best, best_kind


@jit_borrowing
def choose_joker(seats, seat, view, rules):
    """The joker in hand, its take over: the kind to put it on (one it may go on,
    ``may_place_joker``), or -1 to eat it."""
    collected, earlier = view.collected, view.before_take
    if seats.codes[seat, 0] == RANDOM:
        kinds = 0
        for kind in range(collected.shape[1]):
            kinds += 1 if may_place_joker(collected[seat, kind], earlier[kind], rules) else 0
        pick = below(view.stream, kinds + 1)
        for kind in range(collected.shape[1]):
            if may_place_joker(collected[seat, kind], earlier[kind], rules):
                pick -= 1
                if pick == 0:
                    return kind
        return -1
    _, kind = joker_choice(seats.params[seat], seats.chances[seat], seat, view, rules, -1,
                           earlier)
    return kind


@jit_borrowing
def choose_swap(seats, seat, cream, eaten, view, rules):
    """Whether to give the real slice just taken (``cream``; ``eaten`` or collected) for
    the joker, which stands on that slice's kind on another seat's pile.

    Greedy: when the joker's best use, with that slice gone, beats what the slice gains
    where it lies by more than ``swap_threshold``.
    """
    if seats.codes[seat, 0] == RANDOM:
        return below(view.stream, 2) == 1
    params, chances = seats.params[seat], seats.chances[seat]
    kind = view.joker[JOKER_KIND]
    if eaten:
        kept = params[EAT_WEIGHT] * cream
        joker_gain, _ = joker_choice(params, chances, seat, view, rules, -1, view.before_take)
    else:
        # The slice's worth on the pile: what it added on top of the slices below it.
        kept = collect_gain(params, chances, view.collected[seat, kind] - 1,
                            best_opponent(view.collected, seat, kind), view.still_open[kind],
                            rules.majority_value[kind])
        joker_gain, _ = joker_choice(params, chances, seat, view, rules, kind,
                                     view.before_take)
    return joker_gain - kept > params[SWAP_THRESHOLD]
