"""La Part du Chef strategies: parameter vectors and the decision functions that read them.

A strategy is four small integer codes (how it picks a portion and keeps or eats, how it
cuts as chef, whom a finisher robs, how it plays La Marianne) and a float vector of
weights, one row per seat, so that an experiment can mix strategies at a table and sweep
their parameters. The decision functions are compiled once and used by both the Numba
kernel and the reference engine (which runs them as plain Python): the engines own the
rules, a strategy only answers "what would you do?" from the table as everyone sees it.

What a player sees (the *view*): every player's kept slices by category (face up: the
pizza kinds, peppers, burnt slices), the pizza on the table and its portions, and
``unseen[c]``, the slices of category ``c`` on pizzas not yet laid out. Categories:
``0 .. K-1`` the kinds, ``K`` pepper, ``K + 1`` burnt (see ``rules.py``).
"""

from cakesim.engine.contract import SIGNED_WEIGHT, WEIGHT
from cakesim.engine.jit import jit_borrowing, jit_inline
from cakesim.engine.seeding import below
from cakesim.games.slicing.cutting import last_portion_outcomes, rotated_even_cut
from cakesim.games.slicing.tabletop import lead_chance
from cakesim.kits.bandit import SEARCH_WEIGHTS
from cakesim.kits.strategies import Code, StrategySpec

# Positions in a strategy's code vector, and the codes.
CHOOSER, CUTTER, THIEF, MARIANNE = 0, 1, 2, 3
RANDOM = 0
GREEDY = 1
SEARCH = 2
LOOKAHEAD = 3
CHOOSERS = {"random": RANDOM, "greedy": GREEDY, "search": SEARCH, "lookahead": LOOKAHEAD}
RANDOM_CUT = 0
BALANCED_CUT = 1
ENUMERATED_CUT = 2
SEARCH_CUT = 3
LOOKAHEAD_CUT = 4
CUTTERS = {"random": RANDOM_CUT, "balanced": BALANCED_CUT, "enumerate": ENUMERATED_CUT,
           "search": SEARCH_CUT, "lookahead": LOOKAHEAD_CUT}
"""A ``search`` chooser (portion and eat plan) or cutter decides by the information-set
Monte-Carlo tree search of ``search.py``, a ``lookahead`` one by serving the rest of the
pizza after every legal cut or portion (``lookahead.py``); the kernel hands them those
decisions (``steps.advance``), so ``choose_portion`` and ``choose_cut`` never see their
codes. Whom a finisher robs and La Marianne stay with the thief and Marianne codes."""
RANDOM_VICTIM = 0
KIND_LEADER = 1
SCORE_LEADER = 2
THIEVES = {"random": RANDOM_VICTIM, "kind-leader": KIND_LEADER, "score-leader": SCORE_LEADER}
NEVER = 0
RANDOM_SWAP = 1
GREEDY_SWAP = 2
MARIANNES = {"never": NEVER, "random": RANDOM_SWAP, "greedy": GREEDY_SWAP}


PARAMETERS = {
    "eat_weight": (1.0, WEIGHT, "points credited per olive of an eaten slice"),
    "majority_weight": (1.0, WEIGHT, "weight of the expected majority points a kept slice "
                                     "adds"),
    "diversity_weight": (1.0, WEIGHT, "weight of a kept slice's share of the diversity "
                                      "bonus: a slice of a kind tied for the fewest kept is "
                                      "worth the bonus divided by the number of kinds tied "
                                      "there"),
    "uncertainty": (0.3, WEIGHT, "how much each undecided slice of a kind blurs a lead in it "
                                 "(0: a lead is a sure win)"),
    "burnt_weight": (1.0, WEIGHT, "weight of the penalty of a burnt slice in a portion's "
                                  "value"),
    "pepper_worth": (3.0, WEIGHT, "points a kept pepper is credited with when La Marianne "
                                  "weighs piles (a pepper in a portion is valued as the best "
                                  "kind for it)"),
    "marianne_threshold": (3.0, WEIGHT, "gain La Marianne must promise before the holder's "
                                        "last turn; on the last turn any gain above 0 is "
                                        "taken"),
    "spite": (0.5, WEIGHT, "weight of the points La Marianne takes from the opponents "
                           "swapped with, beside the holder's own gain"),
    "finisher_bias": (0.0, SIGNED_WEIGHT, "points added to keeping a finisher (large and "
                                          "positive: always keep it; large and negative: "
                                          "always eat it)"),
    "deny_weight": (0.0, WEIGHT, "weight of the expected majority points a kept slice takes "
                                 "from the best opponent in its kind (denying a majority, "
                                 "breaking a tie); 0: only the keeper's own chance counts"),
    **SEARCH_WEIGHTS,
}
"""Every weight: its default, its allowed range and what it means. The last four are
read only by a ``search`` chooser or cutter; the heuristic weights before them are then
its rollout policy's."""

RANDOM_LIKE_CHOOSER = ("chooser", {"random": "random"})
SPEC = StrategySpec(
    codes={"chooser": Code(CHOOSERS, "greedy", "chooser"),
           "cutter": Code(CUTTERS, "enumerate", "cutter",
                          follows=("chooser", {"random": "random", "search": "search",
                                               "lookahead": "lookahead"})),
           "thief": Code(THIEVES, "kind-leader", "thief", follows=RANDOM_LIKE_CHOOSER),
           "marianne": Code(MARIANNES, "greedy", "Marianne", follows=RANDOM_LIKE_CHOOSER)},
    parameters=PARAMETERS, uniform="uniform random legal play",
    search_parameters=tuple(SEARCH_WEIGHTS), untuned_choices=("lookahead",),
    working_space_choices=("lookahead",))
"""A strategy: how it picks, cuts, robs and plays La Marianne (a file naming a random
chooser and nothing else plays every code at random; a search or lookahead chooser also
cuts that way) and its weights."""

# Positions of the weights in a strategy's parameter vector, made from the spec.
EAT_WEIGHT = SPEC.index("eat_weight")
MAJORITY_WEIGHT = SPEC.index("majority_weight")
DIVERSITY_WEIGHT = SPEC.index("diversity_weight")
UNCERTAINTY = SPEC.index("uncertainty")
BURNT_WEIGHT = SPEC.index("burnt_weight")
PEPPER_WORTH = SPEC.index("pepper_worth")
MARIANNE_THRESHOLD = SPEC.index("marianne_threshold")
SPITE = SPEC.index("spite")
FINISHER_BIAS = SPEC.index("finisher_bias")
DENY_WEIGHT = SPEC.index("deny_weight")
ITERATIONS = SPEC.index("iterations")
EXPLORATION = SPEC.index("exploration")
WIDENING = SPEC.index("widening")
DEPTH = SPEC.index("depth")

SEARCH_PARAMETERS = SPEC.search_parameters

Strategy = SPEC.record("Strategy", __name__)
"""A named strategy: chooser, cutter, thief and Marianne codes and the weights that
differ from the defaults (``Strategy.parse`` reads one from an experiment's
``[strategies.NAME]`` table; ``Strategy.arrays`` stacks the kernel's code and parameter
arrays)."""


BUILTIN = {
    "random": Strategy("random", "random", "random", "random", "random"),
    "greedy": Strategy("greedy"),
    "greedy-balanced": Strategy("greedy-balanced", cutter="balanced"),
    "hoarder": Strategy("hoarder", cutter="balanced",
                        weights=(("eat_weight", 0.5), ("diversity_weight", 1.5))),
    "glutton": Strategy("glutton", cutter="balanced", weights=(("eat_weight", 2.0),)),
    "thief-leader": Strategy("thief-leader", thief="score-leader"),
    "greedy-deny": Strategy("greedy-deny", cutter="balanced", weights=(("deny_weight", 1.0),)),
}
"""The strategy ladder: random play, greedy play with each cutter, keeping more (hoarder),
eating more (glutton), robbing the overall leader (thief-leader), and greedy-balanced play
that also credits what a kept slice takes from the best opponent's chance of a majority
(greedy-deny: ``deny_weight`` 1)."""


# ----------------------------------------------------------------------------------------
# Valuation shared by every greedy decision.
#
# The decision functions read the kernel's bundles (``kernel.py``): ``strategies`` (the
# seat rows of the codes and weights), ``view`` (what every player sees), ``rules`` (the
# table's constants) and ``scratch`` (their working space), plus the draw ``stream``.
# A call passes every array of every bundle given, seven machine words or more each:
# the four ``choose_*`` functions, called from the kernel's game loop, and ``standing``,
# called hundreds of times per La Marianne decision, are compiled into their callers.


@jit_borrowing
def fill_rivals(kept, seat, rivals, rival_ties):
    """``rivals[c]``: the most kept slices of ``c`` among opponents; ``rival_ties[c]``: how many."""
    for category in range(kept.shape[1]):
        rivals[category] = 0
        rival_ties[category] = 0
        for other in range(kept.shape[0]):
            if other == seat:
                continue
            if kept[other, category] > rivals[category]:
                rivals[category] = kept[other, category]
                rival_ties[category] = 1
            elif kept[other, category] == rivals[category]:
                rival_ties[category] += 1


@jit_inline
def held_value(params, mine, rival, left, value):
    """Expected majority points of holding ``mine`` slices of a kind against ``rival``."""
    if mine <= 0:
        return 0.0
    return params[MAJORITY_WEIGHT] * value * lead_chance(mine - rival, left,
                                                          params[UNCERTAINTY], True)


@jit_inline
def rival_value(params, mine, rival, left, value):
    """Weighted expected majority points of the best opponent, holding ``rival`` to my ``mine``.

    A kept slice also lowers the best opponent's chance of the kind's majority, and
    win-seeking play cares about its lead over the opponents, not only its own points:
    ``deny_weight`` credits that fall. RULES.md section 2 scores a tied majority for every
    tied player, so ``held_value`` counts a tie as nearly mine: breaking it adds little to my
    own chance (nothing with no slice left to come), and the kind's value it takes from the
    opponent shows only here. Same lead estimate and tie convention as ``held_value``, seen
    from the opponent's side; no chance when no opponent holds the kind.
    """
    if rival <= 0:
        return 0.0
    return params[DENY_WEIGHT] * value * lead_chance(rival - mine, left, params[UNCERTAINTY],
                                                     True)


@jit_inline
def keep_gain(params, seat, kind, finisher, left, view, rules, scratch):
    """What keeping one slice of ``kind`` adds: majority chance, diversity, a finisher's steal.

    A finisher with an opponent to rob is valued as two slices, the rival's lead cut by one
    when a single opponent holds it. ``added`` holds the slices kept so far in the plan.
    The fall in the best opponent's expected majority points, weighted by ``deny_weight``,
    is added (``rival_value``).
    """
    kept = view.kept
    added = scratch.added
    majority_value = rules.majority_value
    mine = kept[seat, kind] + added[kind]
    rival = scratch.rivals[kind]
    value = majority_value[kind]
    before = held_value(params, mine, rival, left, value)
    rival_before = rival_value(params, mine, rival, left, value)
    if finisher and rival > 0:
        rival_after = rival - 1 if scratch.rival_ties[kind] == 1 else rival
        after = held_value(params, mine + 2, rival_after, left, value)
        denied = rival_before - rival_value(params, mine + 2, rival_after, left, value)
    else:
        after = held_value(params, mine + 1, rival, left, value)
        denied = rival_before - rival_value(params, mine + 1, rival, left, value)
    gain = after - before + denied
    lowest = kept[seat, 0] + added[0]
    for k in range(1, majority_value.shape[0]):
        lowest = min(lowest, kept[seat, k] + added[k])
    if mine == lowest:
        ties = 0
        for k in range(majority_value.shape[0]):
            if kept[seat, k] + added[k] == lowest:
                ties += 1
        gain += params[DIVERSITY_WEIGHT] * rules.diversity_bonus / ties
    return gain


@jit_inline
def slice_choice(params, seat, position, view, rules, scratch):
    """Greedy choice for the next slice of a plan: ``(gain, eat)``; counts it in the plan.

    Eat when that gains at least as much as keeping. A pepper is worth its best kind;
    a burnt slice its penalty. Every slice but a burnt one also brings the receipt point.
    """
    category = view.pizza_category[position]
    finisher = view.pizza_finisher[position]
    still_open = scratch.still_open
    decided = scratch.decided
    kinds = rules.majority_value.shape[0]
    if category == kinds + 1:
        return -params[BURNT_WEIGHT] * rules.burnt_penalty, False
    if category == kinds:
        best = 0.0
        for kind in range(kinds):
            best = max(best, keep_gain(params, seat, kind, False,
                                       still_open[kind] - decided[kind], view, rules, scratch))
        return rules.slice_point + best, False
    decided[category] += 1
    keep = keep_gain(params, seat, category, finisher, still_open[category] - decided[category],
                     view, rules, scratch)
    if finisher:
        keep += params[FINISHER_BIAS]
    eat = params[EAT_WEIGHT] * view.pizza_olives[position]
    if eat >= keep:
        return rules.slice_point + eat, True
    scratch.added[category] += 1
    return rules.slice_point + keep, False


@jit_inline
def forget(start, length, view, scratch):
    """Zero ``added``/``decided`` again for the categories of an arc just planned."""
    pizza_category = view.pizza_category
    n = pizza_category.shape[0]
    for j in range(length):
        category = pizza_category[(start + j) % n]
        scratch.added[category] = 0
        scratch.decided[category] = 0


@jit_borrowing
def plan_portion(params, seat, start, length, view, rules, scratch):
    """Greedy slice-by-slice plan for a portion: ``(value, eat_mask)``, in arc order."""
    n = view.pizza_category.shape[0]
    value = 0.0
    eat_mask = 0
    for j in range(length):
        gain, eat = slice_choice(params, seat, (start + j) % n, view, rules, scratch)
        value += gain
        if eat:
            eat_mask |= 1 << j
    forget(start, length, view, scratch)
    return value, eat_mask


@jit_borrowing
def value_arcs(params, seat, longest, view, rules, scratch):
    """``arc_value[seat, start, length]``: the greedy value of every arc up to ``longest``.

    One pass per start: the plan of an arc extends the plan of its prefix. A chef values
    everyone with its own weights; ``rivals`` must be ``seat``'s.
    """
    n = view.pizza_category.shape[0]
    arc_value = scratch.arc_value
    for start in range(n):
        value = 0.0
        for j in range(longest):
            gain, _ = slice_choice(params, seat, (start + j) % n, view, rules, scratch)
            value += gain
            arc_value[seat, start, j + 1] = value
        forget(start, longest, view, scratch)


@jit_inline
def standing(params, kept, seat, rules):
    """``seat``'s points if the game ended now (peppers at ``pepper_worth``, no olives)."""
    majority_value = rules.majority_value
    kinds = majority_value.shape[0]
    points = 0.0
    lowest = kept[seat, 0]
    for kind in range(kinds):
        mine = kept[seat, kind]
        lowest = min(lowest, mine)
        if mine == 0:
            continue
        best = True
        for other in range(kept.shape[0]):
            if kept[other, kind] > mine:
                best = False
        if best:
            points += majority_value[kind]
    points += rules.diversity_bonus * lowest + params[PEPPER_WORTH] * kept[seat, kinds]
    return points - rules.burnt_penalty * kept[seat, kinds + 1]


# ----------------------------------------------------------------------------------------
# Choosing a portion and keeping or eating its slices.


@jit_inline
def choose_portion(strategies, seat, view, n_portions, rules, stream, scratch):
    """A player's pick: ``(portion, eat_mask)``; bit ``j`` of the mask eats slice ``j``.

    The chef, last, has one portion left to take; the mask is still its choice.
    """
    pizza_category = view.pizza_category
    portion_start = view.portion_start
    portion_len = view.portion_len
    portion_taken = view.portion_taken
    n = pizza_category.shape[0]
    kinds = rules.majority_value.shape[0]
    if strategies.seat_codes[seat, CHOOSER] == RANDOM:
        untaken = 0
        for p in range(n_portions):
            if not portion_taken[p]:
                untaken += 1
        pick = below(stream, untaken)
        for p in range(n_portions):
            if portion_taken[p]:
                continue
            if pick == 0:
                eat_mask = 0
                for j in range(portion_len[p]):
                    if pizza_category[(portion_start[p] + j) % n] < kinds and \
                            below(stream, 2) == 1:
                        eat_mask |= 1 << j
                return p, eat_mask
            pick -= 1
    open_portions(seat, view, n_portions, scratch)
    best = -1
    best_value = 0.0
    best_mask = 0
    for p in range(n_portions):
        if portion_taken[p]:
            continue
        value, eat_mask = plan_portion(strategies.seat_params[seat], seat, portion_start[p],
                                       portion_len[p], view, rules, scratch)
        if best < 0 or value > best_value:
            best, best_value, best_mask = p, value, eat_mask
    return best, best_mask


@jit_borrowing
def greedy_portion(strategies, seat, view, n_portions, rules, stream, scratch):
    """``choose_portion``, compiled once and called: for the decisions that ask for the
    policy's pick once per decision (a search's candidates, a lookahead's served pizza).

    Inlined into each of them, the chooser was compiled into each: called, the kernel's
    search build compiles in about 220 s instead of 236.
    """
    return choose_portion(strategies, seat, view, n_portions, rules, stream, scratch)


@jit_inline
def open_portions(seat, view, n_portions, scratch):
    """Ready ``scratch`` for ``seat``'s plans of the untaken portions (``plan_portion``).

    ``still_open``: the slices not yet laid out or in a portion nobody has taken;
    ``rivals``/``rival_ties``: ``seat``'s opponents' most kept.
    """
    pizza_category = view.pizza_category
    n = pizza_category.shape[0]
    still_open = scratch.still_open
    for category in range(view.unseen.shape[0]):
        still_open[category] = view.unseen[category]
    for p in range(n_portions):
        if not view.portion_taken[p]:
            for j in range(view.portion_len[p]):
                still_open[pizza_category[(view.portion_start[p] + j) % n]] += 1
    fill_rivals(view.kept, seat, scratch.rivals, scratch.rival_ties)


# ----------------------------------------------------------------------------------------
# A kept finisher: whom to rob.


@jit_inline
def choose_victim(strategies, seat, kind, kept, rules, stream):
    """The opponent a kept finisher of ``kind`` robs, or -1 if no opponent keeps one.

    Opponents are considered in play order from the keeper's left; ties go to the first.
    """
    players = kept.shape[0]
    candidates = 0
    for turn in range(1, players):
        if kept[(seat + turn) % players, kind] > 0:
            candidates += 1
    if candidates == 0:
        return -1
    rule = strategies.seat_codes[seat, THIEF]
    pick = below(stream, candidates) if rule == RANDOM_VICTIM else 0
    victim = -1
    best = 0.0
    for turn in range(1, players):
        other = (seat + turn) % players
        if kept[other, kind] == 0:
            continue
        if rule == RANDOM_VICTIM:
            if pick == 0:
                return other
            pick -= 1
            continue
        if rule == KIND_LEADER:
            score = float(kept[other, kind])
        else:
            score = standing(strategies.seat_params[seat], kept, other, rules)
        if victim < 0 or score > best:
            victim, best = other, score
    return victim


# ----------------------------------------------------------------------------------------
# La Marianne: once, on one of the holder's turns, swap two kept slices for two others'.


@jit_inline
def choose_marianne(strategies, seat, last_turn, turns_left, kept, work, rules, stream):
    """``(use, give_1, owner_1, take_1, give_2, owner_2, take_2)``.

    If ``use``, the holder gives a kept slice of category ``give_i`` to ``owner_i`` and
    takes a kept slice of category ``take_i`` from them, both exchanges from the piles as
    they are now. ``work`` is scratch of ``kept``'s shape. ``turns_left`` counts this one.
    """
    players, categories = kept.shape
    mine = 0
    theirs = 0
    for category in range(categories):
        mine += kept[seat, category]
        for other in range(players):
            if other != seat:
                theirs += kept[other, category]
    rule = strategies.seat_codes[seat, MARIANNE]
    if rule == NEVER or mine < 2 or theirs < 2:
        return False, -1, -1, -1, -1, -1, -1
    if rule == RANDOM_SWAP:
        if below(stream, turns_left) != 0:
            return False, -1, -1, -1, -1, -1, -1
        first = below(stream, mine)
        second = below(stream, mine - 1)
        second += 1 if second >= first else 0
        give_1 = _own_slice(kept, seat, first)
        give_2 = _own_slice(kept, seat, second)
        first = below(stream, theirs)
        second = below(stream, theirs - 1)
        second += 1 if second >= first else 0
        owner_1, take_1 = _others_slice(kept, seat, first)
        owner_2, take_2 = _others_slice(kept, seat, second)
        return True, give_1, owner_1, take_1, give_2, owner_2, take_2
    for other in range(players):
        for category in range(categories):
            work[other, category] = kept[other, category]
    params = strategies.seat_params[seat]
    gain_1, give_1, owner_1, take_1 = _best_exchange(params, seat, kept, work, -1, -1, -1,
                                                     rules)
    if give_1 < 0:
        return False, -1, -1, -1, -1, -1, -1
    _exchange(work, seat, give_1, owner_1, take_1)
    gain_2, give_2, owner_2, take_2 = _best_exchange(params, seat, kept, work, give_1,
                                                     owner_1, take_1, rules)
    if give_2 < 0:
        return False, -1, -1, -1, -1, -1, -1
    gain = gain_1 + gain_2
    use = gain >= params[MARIANNE_THRESHOLD] or (last_turn and gain > 0.0)
    return use, give_1, owner_1, take_1, give_2, owner_2, take_2


@jit_borrowing
def _own_slice(kept, seat, index):
    """The category of the ``index``-th of ``seat``'s kept slices, categories in order."""
    for category in range(kept.shape[1]):
        if index < kept[seat, category]:
            return category
        index -= kept[seat, category]
    return -1


@jit_borrowing
def _others_slice(kept, seat, index):
    """``(owner, category)`` of the ``index``-th kept slice of the other players."""
    for other in range(kept.shape[0]):
        if other == seat:
            continue
        for category in range(kept.shape[1]):
            if index < kept[other, category]:
                return other, category
            index -= kept[other, category]
    return -1, -1


@jit_borrowing
def _exchange(piles, seat, give, owner, take):
    """Move a ``give`` slice from ``seat`` to ``owner`` and a ``take`` slice back."""
    piles[seat, give] -= 1
    piles[owner, give] += 1
    piles[owner, take] -= 1
    piles[seat, take] += 1


@jit_borrowing
def _best_exchange(params, seat, kept, work, used_give, used_owner, used_take, rules):
    """The one-for-one exchange on ``work`` that gains the holder most: ``(gain, give, owner,
    take)``.

    Gain: the holder's standing rises plus ``spite`` times the partner's falls. Only
    slices in the piles before La Marianne may move: the first exchange's (``used_*``)
    are no longer there. Exchanging a category for itself changes nothing and is skipped.
    """
    players, categories = kept.shape
    best_gain = 0.0
    best_give, best_owner, best_take = -1, -1, -1
    mine_before = standing(params, work, seat, rules)
    for give in range(categories):
        if kept[seat, give] - (1 if give == used_give else 0) <= 0:
            continue
        for owner in range(players):
            if owner == seat:
                continue
            theirs_before = standing(params, work, owner, rules)
            for take in range(categories):
                if take == give or kept[owner, take] - (
                        1 if owner == used_owner and take == used_take else 0) <= 0:
                    continue
                _exchange(work, seat, give, owner, take)
                gain = (standing(params, work, seat, rules) - mine_before
                        + params[SPITE] * (theirs_before - standing(params, work, owner, rules)))
                _exchange(work, seat, take, owner, give)
                if best_give < 0 or gain > best_gain:
                    best_gain, best_give, best_owner, best_take = gain, give, owner, take
    return best_gain, best_give, best_owner, best_take


# ----------------------------------------------------------------------------------------
# Cutting: exactly P portions.


@jit_inline
def choose_cut(strategies, chef, view, rules, stream, scratch):
    """The chef's cut into exactly P portions, as a gap mask (see ``cakesim.games.slicing.circle``).

    ``cut_masks`` lists every cut into exactly P arcs; ``cut_starts``/``cut_lengths``
    their arcs (``cakesim.games.slicing.cutting.arc_table``). The enumerating cutter takes
    the first cut of the best predicted outcome (``cut_outcomes``).
    """
    rule = strategies.seat_codes[chef, CUTTER]
    if rule == RANDOM_CUT:
        return rules.cut_masks[below(stream, rules.cut_masks.shape[0])]
    weights = strategies.seat_params[chef]
    if rule == BALANCED_CUT:
        return balanced_cut(weights, chef, view, rules, scratch)
    cut_outcomes(weights, chef, view, rules, scratch)
    cut_outcome = scratch.cut_outcome
    best = 0
    for c in range(cut_outcome.shape[0]):
        best = c if cut_outcome[c] > cut_outcome[best] else best
    return rules.cut_masks[best]


@jit_inline
def _open_pizza(view, scratch):
    """``scratch.still_open``: the slices not yet laid out and the whole pizza on the table."""
    still_open = scratch.still_open
    pizza_category = view.pizza_category
    for category in range(view.unseen.shape[0]):
        still_open[category] = view.unseen[category]
    for position in range(pizza_category.shape[0]):
        still_open[pizza_category[position]] += 1


@jit_inline
def balanced_cut(params, chef, view, rules, scratch):
    """P near-equal arcs, turned so that the worst arc is worth most to the chef.

    The chef takes last, so it expects the portion nobody wanted
    (``cakesim.games.slicing.cutting.rotated_even_cut``).
    """
    players = view.kept.shape[0]
    n = view.pizza_category.shape[0]
    _open_pizza(view, scratch)
    fill_rivals(view.kept, chef, scratch.rivals, scratch.rival_ties)
    value_arcs(params, chef, (n + players - 1) // players, view, rules, scratch)
    return rotated_even_cut(scratch.arc_value[chef], n, players)


@jit_inline
def cut_outcomes(params, chef, view, rules, scratch):
    """``scratch.cut_outcome[c]``: what the chef expects from legal cut ``c``.

    The enumerating cutter's model: every seat values arcs with the chef's weights and
    picks, in turn from the chef's left, the untaken arc it values most; the chef gets
    the arc left over.
    """
    players = view.kept.shape[0]
    n = view.pizza_category.shape[0]
    _open_pizza(view, scratch)
    for seat in range(players):
        fill_rivals(view.kept, seat, scratch.rivals, scratch.rival_ties)
        value_arcs(params, seat, n - players + 1, view, rules, scratch)
    last_portion_outcomes(chef, rules.cut_starts, rules.cut_lengths, scratch.arc_value,
                          scratch.taken, scratch.cut_outcome)
