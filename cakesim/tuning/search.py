"""Self-play tuning: CMA-ES over a strategy's weights, against the players that beat it.

The tuned strategy is meant to sit at every seat of a balance experiment, so what
matters is that no single player at the table can do much better by playing otherwise:
its *exploitability*, the win share a lone best response takes from a field of it, minus
the fair share ``1 / P``. The tuner lowers it by iterated best response over parameter
vectors (a double oracle, as in PSRO), in rounds:

1. **Champion.** CMA-ES searches the weights whose field (the candidate at every seat
   but one) leaves the strongest *lone* member of the population the smallest win share:
   it minimises ``max_m share(m alone against a field of the candidate)``. The champion
   joins the population.
2. **Exploiter.** CMA-ES then searches the lone player that wins most against a field of
   the new champion (a best response); it joins the population.

The population starts with the game's tuning base strategy (the stock bot), so the first
champion already plays to beat it; each exploiter is a new way of beating the champion
that the next champion must resist. The tuned strategy is the champion whose field
leaves the strongest other member the least on fresh deals (``most_robust``), and the
members' shares against it are the tuning's own estimate of its exploitability
(``cakesim exploit`` measures it again with a fresh search).

Why CMA-ES (the ``cma`` package): the weights are a handful of continuous numbers and a
candidate's win share is a noisy function of them; CMA-ES uses only the order of a
generation's candidates, and every candidate of a generation meets the same deals and
decision streams (common random numbers), so the noise they share cannot mislead it.
NTBEA, which TAG uses, is made for small discrete grids of parameters; ours are
continuous. Each generation draws new deals, so no strategy is fitted to a few deals.

The search runs in a unit box, weight ``w`` at ``low + x * (high - low)``
(``Tunable.tuning_start``: by default ``Tunable.tuning_box``). A tuning is a pure function of
its seed: the deals come from seeds derived from it, and CMA-ES draws from NumPy's
global generator, whose state is saved in every checkpoint and restored around each
draw, so an interrupted tuning restarted from its checkpoint continues exactly as if it
had not stopped.
"""

import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cma
import numpy as np
from tqdm import tqdm

from cakesim.engine.contract import Strategy
from cakesim.engine.fingerprint import code_version, digest, file_digests
from cakesim.stats.intervals import Estimate
from cakesim.tuning.arena import Arena, measure, seat_shares, share_of


@dataclass(frozen=True)
class Budget:
    """How much a tuning plays."""

    evaluations: int = 3_000
    """Candidates measured, over all searches (two per round: champion and exploiter)."""
    rounds: int = 6
    """Rounds, each a champion search and an exploiter search."""
    games: int = 4_000
    """Games per candidate measurement (a champion candidate: half as many against each
    member of the population)."""
    confirm: int = 20_000
    """Games per member in the closing confirmation, on new deals."""

    def per_search(self, searches: int) -> int:
        """Candidates measured in each of ``searches`` CMA-ES runs."""
        return max(1, self.evaluations // searches)


def derived_seed(seed: int, *path: int) -> int:
    """A seed for one step of a tuning, a pure function of the tuning's seed and the step."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1)[0] >> 1)


@dataclass
class Space:
    """The tuned weights of a base strategy, mapped to and from the unit box."""

    arena: Arena
    base: Strategy
    box: dict[str, tuple[float, float]] | None = None
    """The weights searched, each in ``(low, high)``; ``None``: the game's ``tuning_box``."""
    names: tuple[str, ...] = field(init=False)
    low: np.ndarray = field(init=False)
    high: np.ndarray = field(init=False)

    def __post_init__(self):
        box = self.box if self.box is not None else self.arena.game.tuning_box
        self.names = tuple(box)
        self.low = np.array([box[n][0] for n in self.names])
        self.high = np.array([box[n][1] for n in self.names])

    def point(self, strategy: Strategy) -> np.ndarray:
        """Where ``strategy``'s weights lie in the unit box (clipped into it)."""
        weights = self.arena.game.weights_of(strategy)
        x = (np.array([weights[n] for n in self.names]) - self.low) / (self.high - self.low)
        return np.clip(x, 0.0, 1.0)

    def weights(self, x: np.ndarray) -> dict[str, float]:
        """The weights at point ``x``, rounded to 4 significant digits for the record."""
        values = self.low + np.clip(x, 0.0, 1.0) * (self.high - self.low)
        return {n: float(f"{v:.4g}") for n, v in zip(self.names, values, strict=True)}

    def strategy(self, x: np.ndarray, name: str) -> Strategy:
        """The base strategy with the weights at ``x``."""
        return self.arena.game.with_weights(self.base, name, self.weights(x))


@dataclass
class Member:
    """A member of the population: a name and a strategy."""

    name: str
    strategy: Strategy


@dataclass
class Outcome:
    """A finished tuning: the tuned strategy and its record against the population."""

    strategy: Strategy
    population: list[Member]
    against: list[Estimate]
    """Each member's win share alone against a field of the tuned strategy."""
    alone: list[Estimate]
    """The tuned strategy's win share alone against a field of each member."""
    seats: list[list[Estimate]]
    """``against`` per seat of the lone member."""
    fair: float
    """The fair share, ``1 / P``."""
    settings: dict


Objective = Callable[[list[Strategy], int], list[float]]
"""Scores (higher is better) of a generation's candidates, measured on one deal seed."""


def lone_objective(arena: Arena, field_of: Strategy, games: int, n_jobs: int) -> Objective:
    """A candidate's win share alone against a field of ``field_of``: a best response."""
    def score(candidates: list[Strategy], seed: int) -> list[float]:
        wins = measure(arena, [(c, field_of) for c in candidates], seed, games, n_jobs)
        return [float(w.mean()) for w in wins]
    return score


def field_objective(arena: Arena, members: list[Strategy], games: int,
                    n_jobs: int) -> Objective:
    """Minus the largest win share any member takes alone against a field of the candidate
    (``games`` games against each member)."""
    def score(candidates: list[Strategy], seed: int) -> list[float]:
        wins = measure(arena, [(m, c) for c in candidates for m in members], seed, games,
                       n_jobs)
        k = len(members)
        return [-max(float(w.mean()) for w in wins[i * k:(i + 1) * k])
                for i in range(len(candidates))]
    return score


def cma_search(space: Space, objective: Objective, x0: np.ndarray, evaluations: int,
               seed: int, bar, state: dict, save: Callable[[], None]) -> np.ndarray:
    """One CMA-ES run from ``x0`` maximising ``objective``: the distribution's final mean.

    ``state`` carries the run across interruptions (``es``, the NumPy generator state,
    ``generation``); ``save()`` is called after each generation to keep it on disk.
    """
    if "es" not in state:
        saved = np.random.get_state()
        state["es"] = cma.CMAEvolutionStrategy(
            list(x0), 0.25, {"seed": seed % 2**31 or 1, "bounds": [0.0, 1.0],
                             "maxfevals": evaluations, "verbose": -9})
        state["numpy"], state["generation"] = np.random.get_state(), 0
        np.random.set_state(saved)
    es = state["es"]
    while not es.stop():
        saved = np.random.get_state()
        np.random.set_state(state["numpy"])
        xs = es.ask()
        state["numpy"] = np.random.get_state()
        np.random.set_state(saved)
        scores = objective([space.strategy(x, "candidate") for x in xs],
                           derived_seed(seed, state["generation"]))
        es.tell(xs, [-s for s in scores])
        state["generation"] += 1
        bar.update(len(xs))
        save()
    return np.clip(np.asarray(es.result.xfavorite), 0.0, 1.0)


class Checkpoint:
    """A tuning's progress on disk, written after every generation (temporary file, then
    rename: a run killed mid-write leaves the previous checkpoint)."""

    def __init__(self, path: Path | None):
        self.path = path

    def load(self) -> dict:
        """The saved progress, or a fresh start."""
        if self.path is None or not self.path.exists():
            return {}
        try:
            return pickle.loads(self.path.read_bytes())
        except (pickle.UnpicklingError, EOFError, AttributeError, ValueError):
            return {}

    def save(self, progress: dict) -> None:
        """Write ``progress``."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(pickle.dumps(progress))
        temporary.replace(self.path)


def checkpoint_path(root: Path, arena: Arena, kind: str, settings: dict) -> Path:
    """Where a tuning's checkpoint is filed: a digest of everything that decides it."""
    key = digest({"code": code_version(), "game": arena.game.name, "players": arena.players,
                  "variant": arena.variant, "rules": file_digests([arena.rules]),
                  "kind": kind, **settings})
    return root / "tuning" / f"{key}.pkl"


class Searches:
    """A sequence of CMA-ES searches that survives interruptions: finished searches'
    results and the running one's state are checkpointed."""

    def __init__(self, space: Space, checkpoint: Checkpoint, total: int, label: str,
                 progress: bool):
        self.space = space
        self.checkpoint = checkpoint
        self.progress = checkpoint.load() or {"done": []}
        self.bar = tqdm(total=total, desc=label, unit="candidate", file=sys.stderr,
                        disable=not progress, leave=False)

    def run(self, step: int, objective: Callable[[], Objective], x0: np.ndarray,
            evaluations: int, seed: int, space: Space | None = None) -> np.ndarray:
        """Search ``step`` (its result read back if it finished before an interruption), in
        ``space`` (default: the searches' own)."""
        done = self.progress["done"]
        if step < len(done):
            self.bar.update(evaluations)
            return done[step]
        state = self.progress.setdefault("current", {})
        if "es" in state:
            self.bar.update(state["es"].countevals)
        x = cma_search(space or self.space, objective(), x0, evaluations,
                       derived_seed(seed, 1, step), self.bar, state,
                       lambda: self.checkpoint.save(self.progress))
        done.append(x)
        self.progress.pop("current")
        self.checkpoint.save(self.progress)
        return x

    def close(self) -> None:
        """Close the progress bar."""
        self.bar.close()


def most_robust(arena: Arena, champions: list[Member], members: list[Member], seed: int,
                games: int, n_jobs: int) -> Member:
    """The champion whose field leaves the strongest other member the least, measured on
    fresh deals: the last champion has resisted every earlier exploiter, but the last
    exploiter was searched against it alone."""
    # One measurement of every pairing, so that all of them share the worker pool.
    pairs = [(c, m) for c in champions for m in members if m is not c]
    wins = measure(arena, [(m.strategy, c.strategy) for c, m in pairs], seed, games, n_jobs)
    worst = [max(float(w.mean()) for (c, _), w in zip(pairs, wins, strict=True)
                 if c is champion) for champion in champions]
    return champions[int(np.argmin(worst))]


def tune(arena: Arena, budget: Budget, seed: int, n_jobs: int = -1, progress: bool = True,
         cache: Path | None = None) -> Outcome:
    """Tune the game's strategy at ``arena`` by self-play (see the module), from the
    strategy and over the weights of ``Tunable.tuning_start``."""
    game = arena.game
    base, box = game.tuning_start(arena.players, arena.variant)
    space = Space(arena, base, box)
    settings = {"seed": seed, "budget": vars(budget), "box": box, "base": base.name}
    checkpoint = Checkpoint(checkpoint_path(cache, arena, "tune", settings) if cache else None)
    each = budget.per_search(2 * budget.rounds)
    searches = Searches(space, checkpoint, each * 2 * budget.rounds,
                        f"tune {game.name} {arena.players}P", progress)
    lone = [Member(base.name, base)]
    champions: list[Member] = []
    x = space.point(base)
    for r in range(budget.rounds):
        # Each member on half the games, not the games split among them: the worst share
        # decides, so every share must be measured well enough to rank candidates by it.
        def field(members=tuple(m.strategy for m in (*lone, *champions))):
            return field_objective(arena, list(members), budget.games // 2, n_jobs)
        x = searches.run(2 * r, field, x, each, seed)
        champion = space.strategy(x, f"champion {r + 1}")
        champions.append(Member(champion.name, champion))

        def best_response(target=champion):
            return lone_objective(arena, target, budget.games, n_jobs)
        exploiter = searches.run(2 * r + 1, best_response, x, each, seed)
        lone.append(Member(f"exploiter {r + 1}", space.strategy(exploiter, "")))
    searches.close()
    chosen = most_robust(arena, champions, [*lone, *champions], derived_seed(seed, 3),
                         budget.games, n_jobs)
    tuned = game.with_weights(base, "tuned", game.weights_of(chosen.strategy))
    population = [m for m in (*lone, *champions) if m is not chosen]
    confirm_seed = derived_seed(seed, 2)
    both = measure(arena, [(m.strategy, tuned) for m in population]
                   + [(tuned, m.strategy) for m in population], confirm_seed, budget.confirm,
                   n_jobs)
    against, alone = both[:len(population)], both[len(population):]
    return Outcome(tuned, population, [share_of(w) for w in against],
                   [share_of(w) for w in alone], [seat_shares(w) for w in against],
                   arena.fair, settings)
