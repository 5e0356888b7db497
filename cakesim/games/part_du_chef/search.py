"""The search player of La Part du Chef: its part of the search driver (``kits.search``).

The driver runs information-set Monte-Carlo tree search (ISMCTS) for every game; this
module implements its hooks for La Part du Chef. A searching seat decides each of its
cuts and portion choices by playing the game out many times from the table it sees
(Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
2012):

1. *Determinize*: the later pizzas are hidden. Which slices they hold is public (the box,
   less every slice laid out so far), and so is how they were dealt: one burnt slice on
   each, at a uniformly random position, the shuffled others around it (RULES.md s2
   "Deal"). Each iteration deals them afresh in that way: the hidden non-burnt slices in
   a random order into every later pizza's places but its first
   (``bandit.deal_hidden``), the pizza's burnt slice in its first place, then
   swapped to a uniformly random one. The places dealt into are the same whatever the
   real deal, so a sampled world depends not at all on the real hidden order. Kept piles,
   La Marianne and every seat's eaten olives (seen when their portion was taken) are
   public.
2. *Select*: the candidate moves are the arms of a bandit, UCB1 with progressive widening
   for cuts (``bandit.select``).
3. *Play out*: the chosen move is made in the sampled world and every seat, the searcher
   too, plays the rest of the game with the searcher's heuristic policy (greedy chooser,
   balanced cutter, the searcher's thief and Marianne codes and its weights: for the
   shipped ``search`` strategies the tuned bot's), by the kernel's own rule steps
   (``steps.advance``). The reward is the searcher's win share.
4. *Decide*: the most visited move (ties: the earlier candidate).

Only cuts and portion choices are searched. Whom a kept finisher robs and when La
Marianne is played stay with the seat's thief and Marianne codes, in the real game and in
the rollouts alike: a searched portion choice is carried out with its steals and, on the
holder's turn, La Marianne (``steps.play_turn``).

With ``depth`` 1 the tree is one level deep, as Piece o' Cake's
(``piece_o_cake/search.py``): the searcher's later moves, and everyone else's, are the
rollout policy's; with ``depth`` above 1 the driver keeps a tree of the searcher's own
later decisions (``kits.tree``), keyed by everything public (``observe``), though here it
changes no decision: after a cut the searcher's next decision is the forced last portion,
after a choice one on a new pizza (docs/part_du_chef.md).

A cut has hundreds of legal moves (exactly P portions of 13 slices: 78 cuts at 2 players,
715 at 4, 1287 at 5). The candidates are therefore the policy's own cut, then the other
cuts in the order the enumerating cutter ranks them (``strategies.cut_outcomes``),
admitted by progressive widening. A portion choice has one candidate per untaken portion,
each with the policy's slice-by-slice eat plan (``strategies.plan_portion``), the
policy's pick first: the plan already weighs eating against keeping slice by slice, and
every slice planned otherwise would double a portion's candidates. The chef, left the
last portion, has nothing to search.

Every draw comes from the game's decision stream (the worlds' deals, and a random thief's
or Marianne's in the rollouts), so a game with search players is a pure function of
(seed, game) and the reference engine, calling the driver's ``search_decision`` at the
same points, replays it.
"""

from typing import NamedTuple

from cakesim.engine.jit import jit_borrowing
from cakesim.engine.seeding import below
from cakesim.games.part_du_chef.steps import (
    PIZZA,
    PORTIONS,
    TURN,
    advance,
    cut_pizza,
    play_turn,
    score_game,
)
from cakesim.games.part_du_chef.strategies import (
    BALANCED_CUT,
    CHOOSER,
    CUTTER,
    DEPTH,
    EXPLORATION,
    GREEDY,
    ITERATIONS,
    MARIANNE,
    SEARCH,
    SEARCH_CUT,
    THIEF,
    WIDENING,
    balanced_cut,
    cut_outcomes,
    greedy_portion,
    open_portions,
    plan_portion,
)
from cakesim.games.slicing.tabletop import WIN_UNITS
from cakesim.kits import search as driver
from cakesim.kits.bandit import WIDENED, add, clear, deal_hidden, sort_pool, widened_candidates
from cakesim.kits.search import implements
from cakesim.kits.tree import fold_arrays

CUT = WIDENED
TAKE = 0
"""A candidate's kind (``bandit.Bandit.move[c, KIND]``) is taking a portion (TAKE) or a
cut (CUT: the widened moves)."""


class SearchSpace(NamedTuple):
    """The search's working space, allocated once per batch (``kernel.new_search_space``);
    its type selects this module's hooks in the driver."""

    # State: the sampled world each iteration plays out (a copy of the real game). Its
    # stream is the game's decision stream, lent for the iterations (``open_worlds``).
    world: tuple
    # Strategies: the rollout players, every seat the searcher's heuristic policy (player
    # and seat rows are the same arrays).
    rollout: tuple
    # slicing.bandit.Bandit: the candidate moves and their statistics. A move's KIND is
    # CUT (DETAIL the gap mask) or TAKE (INDEX the portion, DETAIL the eat mask); its
    # hidden places are those a sampled world deals the hidden non-burnt slices into,
    # every later pizza's but its first (``determinize``).
    bandit: tuple
    # tree.Tree: the searcher's later decisions (none for a flat search, ``depth`` 1).
    tree: tuple
    # Sheet: a played-out world's score sheet.
    sheet: tuple


@implements(driver.prepare, SearchSpace)
def prepare(rules, seats, state, space):
    """The seat deciding at ``state.clock`` (the chef cuts, the others choose), its search
    weights, and the rollout seats set to its policy."""
    players = state.seen.kept.shape[0]
    seat = (state.clock[PIZZA] + state.clock[TURN]) % players
    params = seats.seat_params[seat]
    seat_rollout(seats, seat, space.rollout)
    return (seat, int(params[ITERATIONS]), params[EXPLORATION], params[WIDENING],
            int(params[DEPTH]))


@implements(driver.candidates, SearchSpace)
def candidates(rules, seat, state, scratch, space, bandit):
    """The decision's candidates: a cut's (widened) or a portion choice's."""
    if state.clock[TURN] == 0:
        return _cut_candidates(rules, space.rollout, seat, state, scratch, bandit), True
    return portion_candidates(rules, space.rollout, seat, state, scratch, bandit), False


@implements(driver.descend, SearchSpace)
def descend(rules, seat, world, scratch, space):
    """The world played on to the searcher's next decision: its rollout seat stops there
    (the search codes, ``steps.advance``), then plays the policy again."""
    codes = space.rollout.seat_codes
    codes[seat, CHOOSER] = SEARCH
    codes[seat, CUTTER] = SEARCH_CUT
    over = advance(rules, space.rollout, world, scratch)
    codes[seat, CHOOSER] = GREEDY
    codes[seat, CUTTER] = BALANCED_CUT
    return over


@implements(driver.observe, SearchSpace)
def observe(rules, seat, world, key, space):
    """Everything public folded in: the pizza on the table, every kept pile, what each
    seat received and ate, the game's counts (steals, La Marianne) and where it is."""
    seen = world.seen
    return fold_arrays(key, (seen.kept, world.received, world.eaten_olives,
                             world.eaten_count, world.tally, seen.pizza_category,
                             seen.pizza_olives, seen.portion_start, seen.portion_len,
                             world.clock, seen.pizza_finisher, seen.portion_taken))


@implements(driver.open_worlds, SearchSpace)
def open_worlds(rules, state, space):
    """The places the worlds deal afresh and the slices in them, and the game's decision
    stream lent to the worlds: their deals and their rollouts (a random thief's or
    Marianne's) draw from it."""
    _hide(rules, state, space)
    for i in range(state.stream.shape[0]):
        space.world.stream[i] = state.stream[i]


@implements(driver.close_worlds, SearchSpace)
def close_worlds(rules, state, space):
    """The decision stream given back, where the worlds left it."""
    for i in range(state.stream.shape[0]):
        state.stream[i] = space.world.stream[i]


@implements(driver.sample_world, SearchSpace)
def sample_world(rules, state, space):
    """``space.world``: a copy of the game, its later pizzas dealt afresh."""
    copy_game(state, space.world)
    determinize(rules, space.world, space.bandit.hidden, space.bandit.pool)


@implements(driver.make_move, SearchSpace)
def make_move(kind, index, detail, rules, seats, state, scratch, space):
    """Carry out a candidate move in the game ``state`` at its ``clock``; the seat's steals
    and La Marianne go by its codes in ``seats``."""
    players = state.seen.kept.shape[0]
    if kind == CUT:
        cut_pizza(detail, state)
    else:
        seat = (state.clock[PIZZA] + state.clock[TURN]) % players
        play_turn(seat, index, detail, rules, seats, state, scratch)


@implements(driver.finish, SearchSpace)
def finish(rules, seat, world, scratch, space):
    """The world played out by the rollout seats (``steps.advance``), then scored."""
    advance(rules, space.rollout, world, scratch)
    score_game(rules, world, space.sheet)
    return space.sheet.wins[seat] / WIN_UNITS


@jit_borrowing
def seat_rollout(seats, seat, rollout):
    """Every rollout seat plays the searcher's weights, thief and Marianne with the greedy
    chooser and the balanced cutter."""
    for row in range(rollout.seat_codes.shape[0]):
        rollout.seat_codes[row, CHOOSER] = GREEDY
        rollout.seat_codes[row, CUTTER] = BALANCED_CUT
        rollout.seat_codes[row, THIEF] = seats.seat_codes[seat, THIEF]
        rollout.seat_codes[row, MARIANNE] = seats.seat_codes[seat, MARIANNE]
        for w in range(rollout.seat_params.shape[1]):
            rollout.seat_params[row, w] = seats.seat_params[seat, w]


@jit_borrowing
def _cut_candidates(rules, rollout, chef, state, scratch, bandit):
    """The policy's (balanced) cut, then every cut in the enumerating cutter's ranking."""
    view = state.seen
    params = rollout.seat_params[chef]
    policy = balanced_cut(params, chef, view, rules, scratch)
    cut_outcomes(params, chef, view, rules, scratch)
    return widened_candidates(policy, scratch.cut_outcome, bandit)


@jit_borrowing
def portion_candidates(rules, rollout, seat, state, scratch, bandit):
    """The policy's pick first, then every other untaken portion with the policy's eat
    plan."""
    view = state.seen
    n_portions = state.clock[PORTIONS]
    index, eat_mask = greedy_portion(rollout, seat, view, n_portions, rules, state.stream,
                                     scratch)
    count = add(clear(bandit), TAKE, index, eat_mask, bandit)
    open_portions(seat, view, n_portions, scratch)
    for p in range(n_portions):
        if not view.portion_taken[p] and p != index:
            _, plan = plan_portion(rollout.seat_params[seat], seat, view.portion_start[p],
                                   view.portion_len[p], view, rules, scratch)
            count = add(count, TAKE, p, plan, bandit)
    return count


@jit_borrowing
def _hide(rules, state, space):
    """``space.bandit.pool``: the slices of the pizzas after the one on the table but their burnt
    ones, sorted; ``space.bandit.hidden``: the places ``determinize`` deals them into."""
    hidden = space.bandit.hidden
    n = rules.slices_per_pizza
    burnt = rules.majority_value.shape[0] + 1
    first = state.clock[PIZZA] + 1
    m = 0
    for place in range(first * n, rules.pizzas * n):
        if rules.slice_category[state.order[place]] != burnt:
            hidden[m] = place
            m += 1
    for i in range(m, hidden.shape[0]):
        hidden[i] = -1
    sort_pool(state.order, hidden, space.bandit.pool)
    # The same count of places, but where the real burnt slices lie is hidden: every
    # later pizza's places but its first, whatever the deal.
    m = 0
    for pizza in range(first, rules.pizzas):
        for position in range(1, n):
            hidden[m] = pizza * n + position
            m += 1


@jit_borrowing
def determinize(rules, world, hidden, pool):
    """A sampled world: the later pizzas of ``world`` dealt afresh as the rules deal them,
    drawing from ``world.stream``.

    Each later pizza's burnt slice goes to its first place, the ``pool`` into the
    ``hidden`` places (the others), then each burnt slice to a uniformly random place of
    its pizza.
    """
    order = world.order
    n = rules.slices_per_pizza
    burnt = rules.majority_value.shape[0] + 1
    first = world.clock[PIZZA] + 1
    for pizza in range(first, rules.pizzas):
        for place in range(pizza * n, (pizza + 1) * n):
            if rules.slice_category[order[place]] == burnt:
                order[place], order[pizza * n] = order[pizza * n], order[place]
    deal_hidden(world.stream, order, hidden, pool)
    for pizza in range(first, rules.pizzas):
        place = pizza * n + below(world.stream, n)
        order[place], order[pizza * n] = order[pizza * n], order[place]


@jit_borrowing
def copy_game(state, world):
    """``world`` becomes a copy of the game ``state``: every array but the streams, the
    deal's working space (``pool``) and the box counts, which no step changes."""
    seen, copy = state.seen, world.seen
    for seat in range(seen.kept.shape[0]):
        world.received[seat] = state.received[seat]
        world.eaten_olives[seat] = state.eaten_olives[seat]
        world.eaten_count[seat] = state.eaten_count[seat]
        for category in range(seen.kept.shape[1]):
            copy.kept[seat, category] = seen.kept[seat, category]
    for category in range(seen.unseen.shape[0]):
        copy.unseen[category] = seen.unseen[category]
    for position in range(seen.pizza_category.shape[0]):
        copy.pizza_category[position] = seen.pizza_category[position]
        copy.pizza_olives[position] = seen.pizza_olives[position]
        copy.pizza_finisher[position] = seen.pizza_finisher[position]
        copy.portion_start[position] = seen.portion_start[position]
        copy.portion_len[position] = seen.portion_len[position]
        copy.portion_taken[position] = seen.portion_taken[position]
    for place in range(state.order.shape[0]):
        world.order[place] = state.order[place]
    for i in range(state.clock.shape[0]):
        world.clock[i] = state.clock[i]
    for i in range(state.tally.shape[0]):
        world.tally[i] = state.tally[i]
