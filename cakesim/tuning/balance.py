"""The balancing assistant's search: the smallest rule change that makes every seat fair.

An experiment's ``[balance]`` section names rule keys and the values each may take. The
candidates are every combination of those values; the published rules are one of them.
Each candidate's distance to the published rules is declared, so that the answer can read
"change one thing": first how many parameters it changes, then by how much (each
parameter's step counted as a share of the span of its listed values, or 1 for a value
that is not a number).

The target (``target = "seats"``) is every seat of every target table within ``margin``
of a fair 1/P, judged as ``stats.intervals.verdict`` judges a seat (two one-sided tests
at the 95 % level, Bonferroni over the candidate's seats). The candidates race as in
Maron and Moore's Hoeffding races (a candidate leaves once the evidence is clear), with
the games doubling every round as in successive halving: round r plays every candidate
still in the race on the first
``first_games * 2**r`` games of the experiment's seed, so that every candidate meets the
same deals (common random numbers) and a round extends the last one instead of playing
it again. After each round a candidate is

- *out* when a seat is clearly outside the band (the verdict ``advantaged`` or
  ``disadvantaged``): it is dropped;
- *in* when every seat is clearly inside (``fair``): every candidate farther from the
  published rules is then dropped, because the nearest fair change is the answer;
- *open* otherwise: it plays the next round.

The race stops when the nearest candidate left is in, when none is left, or when the next
round would pass the budget. The answer is the nearest candidate in; else the nearest
open one whose every seat is within the margin by its point estimate ("likely"); else the
candidate whose worst seat came closest to fair ("none meets the target"). It is written
here rather than taken from a library: Optuna's pruners stop one trial at a time by its
own learning curve and nevergrad has no racing, while this race plays every candidate on
the same deals and drops by a statistical verdict; it is a few dozen lines.
"""

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cakesim.engine.runner import TableRun
from cakesim.engine.tables import Table
from cakesim.stats.intervals import WinShare, verdict

TARGETS = ("seats",)
"""What a candidate must achieve: ``seats``, every seat within the margin of fair."""
OUT, OPEN, IN = "out", "open", "in"


@dataclass(frozen=True)
class Parameter:
    """A rule key the search may change, the values it may take and the published one."""

    key: str
    values: tuple
    published: Any

    def step(self, value: Any) -> float:
        """How far ``value`` is from the published value: a share of the listed values'
        span for numbers, else 1 when it differs."""
        if value == self.published:
            return 0.0
        numbers = [v for v in (*self.values, self.published) if _number(v)]
        if _number(value) and _number(self.published) and len(numbers) == len(self.values) + 1:
            return abs(value - self.published) / (max(numbers) - min(numbers))
        return 1.0


@dataclass(frozen=True)
class BalanceQuestion:
    """``[balance]``: what to change, what to achieve, at which tables, at what cost."""

    parameters: tuple[Parameter, ...]
    tables: tuple[str, ...]
    """Labels of the experiment's tables the target reads."""
    target: str = "seats"
    margin: float = 0.01
    first_games: int = 2_000
    """Games a table in the race's first round; each round doubles them."""
    budget: int = 200_000
    """Most games the race plays, over every candidate and table."""
    confirm_games: int = 20_000
    """Games a table when the pick and the published rules are confirmed on fresh deals."""


@dataclass(frozen=True)
class Candidate:
    """One combination of the parameters' values, and its distance to the published rules."""

    changes: tuple[tuple[str, Any], ...]
    """``(key, value)`` of every parameter whose value differs from the published rules,
    in the section's order."""
    size: float
    """The sum of the parameters' steps (``Parameter.step``)."""

    @property
    def distance(self) -> tuple[int, float]:
        """The order of the answer: fewer changes first, then smaller ones."""
        return len(self.changes), self.size

    def describe(self) -> str:
        """``key=value, ...`` of what it changes, or ``the published rules``."""
        return ", ".join(f"{k}={text(v)}" for k, v in self.changes) or "the published rules"


@dataclass(frozen=True)
class Standing:
    """A candidate after a round: its status, its worst seat's gap and every seat's verdict."""

    status: str
    worst_gap: float
    """The largest ``|share - fair|`` over the target tables' seats (point estimates)."""
    games: int
    """Games a table behind the verdicts."""
    seats: tuple[dict, ...]
    """Per seat: ``table``, ``seat``, ``name``, ``share``, ``verdict`` (``Verdict.as_dict``)."""


@dataclass
class Race:
    """Every round's standings, and the answer."""

    candidates: list[Candidate]
    rounds: list[dict[int, Standing]]
    """Per round: candidate index -> its standing after the round."""
    pick: int
    verdict: str
    """``meets`` (every seat clearly fair), ``likely`` (within the margin by the point
    estimates, not yet clearly) or ``none`` (no candidate meets the target)."""
    games: int
    """Games the race played in all."""

    def last(self, index: int) -> Standing:
        """Candidate ``index``'s standing after the last round it played."""
        return next(r[index] for r in reversed(self.rounds) if index in r)


def parse(table: Table, published: Callable[[str], Any], labels: Sequence[str],
          margin: float = 0.01) -> BalanceQuestion:
    """``[balance]``: ``parameters`` (``key`` with ``values``, or ``key`` with ``low``,
    ``high`` and ``step``), ``target``, ``margin`` (default the experiment's), ``tables``,
    ``first_games``, ``budget``, ``confirm_games``. ``published(key)`` is the key's value
    in the rules as published (a ``LookupError`` with the keys allowed when the rules do
    not have it); ``labels`` are the experiment's tables."""
    table.only(["parameters", "target", "margin", "tables", "first_games", "budget",
                "confirm_games"])
    entries = table.get("parameters", list)
    if not entries:
        raise table.error("parameters", "list at least one parameter to search")
    parameters = [_parameter(Table(entry, table.source, table.key(f"parameters[{index}]")),
                             published) for index, entry in enumerate(entries)]
    keys = [p.key for p in parameters]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise table.error("parameters", f"{twice[0]!r} is listed twice; list each key once")
    tables = tuple(table.get("tables", list, list(labels)))
    unknown = [t for t in tables if t not in labels]
    if unknown or not tables:
        raise table.error("tables", f"{unknown[0] if unknown else []!r} is not allowed; allowed "
                                    f"values: labels of the experiment's tables: "
                                    f"{', '.join(labels)}")
    question = BalanceQuestion(
        tuple(parameters), tables, table.get("target", str, "seats", TARGETS),
        table.number_within("margin", 0.0, 0.5, margin),
        table.int_in("first_games", 10, 10**8, BalanceQuestion.first_games),
        table.int_in("budget", 10, 10**11, BalanceQuestion.budget),
        table.int_in("confirm_games", 10, 10**9, BalanceQuestion.confirm_games))
    first_round = len(candidates(question)) * len(tables) * question.first_games
    if question.budget < first_round:
        raise table.error("budget", f"{question.budget:,} games is not allowed; allowed: at "
                                    f"least the first round's {first_round:,} (every "
                                    "candidate at every table, first_games each)")
    return question


def _parameter(entry: Table, published: Callable[[str], Any]) -> Parameter:
    """One ``[[balance.parameters]]`` entry."""
    key = entry.get("key", str)
    if "values" in entry.data:
        entry.only(["key", "values"])
        values = entry.get("values", list)
        if not values:
            raise entry.error("values", "is empty; list at least one value")
    else:
        entry.only(["key", "low", "high", "step"])
        low, high = entry.get("low", float), entry.get("high", float)
        step = entry.get("step", float, 1.0)
        if high < low or step <= 0:
            raise entry.error("high" if high < low else "step",
                              f"low {low:g}, high {high:g}, step {step:g}; allowed: low <= "
                              "high and a positive step")
        count = math.floor((high - low) / step + 1e-9) + 1
        whole = all(float(x).is_integer() for x in (low, high, step))
        values = [int(low + i * step) if whole else low + i * step for i in range(count)]
    try:
        now = published(key)
    except LookupError as missing:
        raise entry.error("key", f"{key!r} is not allowed; allowed: {missing.args[0]} (or a "
                                 "dotted key into one of them)") from None
    return Parameter(key, tuple(dict.fromkeys(_hashable(v) for v in values)), _hashable(now))


def candidates(question: BalanceQuestion) -> list[Candidate]:
    """Every combination of the parameters' values and the published rules, nearest first
    (ties in the section's order of values)."""
    options = [tuple(dict.fromkeys((p.published, *p.values))) for p in question.parameters]
    found = []
    for values in itertools.product(*options):
        chosen = list(zip(question.parameters, values, strict=True))
        found.append(Candidate(tuple((p.key, v) for p, v in chosen if v != p.published),
                               sum(p.step(v) for p, v in chosen)))
    # A stable sort: equal distances keep the order the designer listed the values in.
    return sorted(found, key=lambda c: c.distance)


def standing(runs: Sequence[TableRun], margin: float) -> Standing:
    """A candidate's standing from its target tables' runs (seat games only)."""
    seats = [(run, seat) for run in runs for seat in range(run.totals.players)]
    found, words, worst = [], [], 0.0
    for run, seat in seats:
        t = run.totals
        share = WinShare(float(t.seat_sum["win_units"][seat]),
                         float(t.seat_sq["win_units"][seat]), t.deals, t.games_per_deal,
                         run.table.game.win_units)
        judged = verdict(share, 1.0 / t.players, margin, len(seats))
        worst = max(worst, abs(share.value - 1.0 / t.players))
        words.append(judged.word)
        found.append({"table": run.table.label, "seat": seat,
                      "name": run.table.game.seat_name(run.table, seat).name,
                      "share": share.value, "verdict": judged.as_dict()})
    if any(w in ("advantaged", "disadvantaged") for w in words):
        status = OUT
    elif all(w == "fair" for w in words):
        status = IN
    else:
        status = OPEN
    return Standing(status, worst, runs[0].totals.games, tuple(found))


def race(question: BalanceQuestion, field_: list[Candidate],
         play: Callable[[list[int], int], dict[int, list[TableRun]]]) -> Race:
    """Race the candidates ``field_`` (nearest first); ``play(indices, games)`` plays the
    first ``games`` games of each target table of those candidates and returns their runs."""
    tables = len(question.tables)
    alive, rounds, played, games = list(range(len(field_))), [], 0, question.first_games
    while alive:
        # Only the games a round adds count: the earlier ones come back from the cache.
        new = len(alive) * tables * (games - (games // 2 if rounds else 0))
        if rounds and played + new > question.budget:
            break
        runs = play(alive, games)
        played += new
        now = {i: standing(runs[i], question.margin) for i in alive}
        rounds.append(now)
        alive = [i for i in alive if now[i].status != OUT]
        settled = [i for i in alive if now[i].status == IN]
        if settled:
            # ``alive`` runs nearest first, as ``field_`` does.
            alive = [i for i in alive if field_[i].distance <= field_[settled[0]].distance]
            if now[alive[0]].status == IN:
                break
        games *= 2
    return _answer(field_, rounds, alive, question.margin, played)


def _answer(field_: list[Candidate], rounds: list[dict[int, Standing]], alive: list[int],
            margin: float, played: int) -> Race:
    """The nearest candidate in; else the nearest likely; else the closest to fair."""
    last = rounds[-1]
    settled = [i for i in alive if last[i].status == IN]
    likely = [i for i in alive if last[i].worst_gap <= margin]
    if settled:
        return Race(field_, rounds, settled[0], "meets", played)
    if likely:
        return Race(field_, rounds, likely[0], "likely", played)
    every = {i: s for r in rounds for i, s in r.items()}
    closest = min(every, key=lambda i: (every[i].worst_gap, field_[i].distance))
    return Race(field_, rounds, closest, "none", played)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _hashable(value: Any) -> Any:
    """Lists as tuples, so that values can be compared and counted."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def plain(value: Any) -> Any:
    """A value as the rule files hold it: tuples as lists again."""
    return [plain(v) for v in value] if isinstance(value, tuple) else value


def text(value: Any) -> str:
    """A value as TOML writes it, for ``--set KEY=VALUE``."""
    if isinstance(value, tuple):
        return "[" + ", ".join(text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)
