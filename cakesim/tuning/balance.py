"""The balancing assistant's search: the smallest rule change that makes every seat fair.

An experiment's ``[balance]`` section names rule keys and the values each may take. The
candidates are every combination of those values; the published rules are one of them.
Each candidate's distance to the published rules is declared, so that the answer can read
"change one thing": first how many parameters it changes, then by how much (each
parameter's step counted as a share of the span of its listed values; a list of numbers
by how far its entries moved in all, as a share of the listed list that moved farthest;
1 for any other value).

The target (``target = "seats"``) is every seat of every target table within ``margin``
of a fair 1/P, judged as ``stats.intervals.verdict`` judges a seat (two one-sided tests
at the 95 % level, Bonferroni over every target seat). The candidates race as in
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
candidate whose worst seat came closest to fair ("none meets the target").

Parameters that change different tables are independent: a first-waiter bonus at three
players changes no four-player game. The question is split (``split``) into parts that
share no table, each raced alone on its own share of the budget, and the answer joins the
parts' picks (``joined``): three parameters of six values each are 3 x 7 candidates, not
7 ** 3.

The race is written here rather than taken from a library: Optuna's pruners stop one
trial at a time by its own learning curve and nevergrad has no racing, while this race
plays every candidate on the same deals and drops by a statistical verdict; it is a few
dozen lines.
"""

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cakesim.engine.runner import TableRun
from cakesim.engine.tables import Table
from cakesim.stats.intervals import WinShare, verdict

TARGETS = ("seats",)
"""What a candidate must achieve: ``seats``, every seat within the margin of fair."""
OUT, OPEN, IN = "out", "open", "in"
VERDICT_ORDER = ("none", "likely", "meets")
"""A race's verdicts, weakest first (``Race.verdict``)."""


@dataclass(frozen=True)
class Parameter:
    """A rule key the search may change, the values it may take and the published one."""

    key: str
    values: tuple
    published: Any

    def step(self, value: Any) -> float:
        """How far ``value`` is from the published value: a share of the listed values'
        span for numbers; for lists of numbers as long as the published one, how far its
        entries moved in all, as a share of the listed list that moved farthest; else 1
        when it differs."""
        if value == self.published:
            return 0.0
        numbers = [v for v in (*self.values, self.published) if _number(v)]
        if _number(value) and _number(self.published) and len(numbers) == len(self.values) + 1:
            return abs(value - self.published) / (max(numbers) - min(numbers))
        if all(_numbers(v, self.published) for v in (*self.values, value)):
            return _moved(value, self.published) / max(_moved(v, self.published)
                                                       for v in self.values)
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
    adapt: tuple[str, ...] = ()
    """Labels of the experiment's tables whose players adapt to the rules (search players,
    who read the changed scores in every play-out): the pick and the published rules are
    played there too, to show whether the fix survives adaptation."""
    adapt_games: int = 2_000
    """Games a table at the ``adapt`` tables."""

    @property
    def confirming(self) -> int:
        """Games after the race, at most: the pick and the published rules, each at every
        target table and every ``adapt`` table."""
        return 2 * (len(self.tables) * self.confirm_games + len(self.adapt) * self.adapt_games)


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
    ``first_games``, ``budget``, ``confirm_games``, ``adapt``, ``adapt_games``.
    ``published(key)`` is the key's value
    in the rules as published (a ``LookupError`` with the keys allowed when the rules do
    not have it); ``labels`` are the experiment's tables."""
    table.only(["parameters", "target", "margin", "tables", "first_games", "budget",
                "confirm_games", "adapt", "adapt_games"])
    entries = table.get("parameters", list)
    if not entries:
        raise table.error("parameters", "list at least one parameter to search")
    parameters = [_parameter(Table(entry, table.source, table.key(f"parameters[{index}]")),
                             published) for index, entry in enumerate(entries)]
    keys = [p.key for p in parameters]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise table.error("parameters", f"{twice[0]!r} is listed twice; list each key once")
    adapt = _labels(table, "adapt", labels, (), "")
    tables = _labels(table, "tables", [t for t in labels if t not in adapt], None,
                     " (the adapt tables do not race)" if adapt else "")
    question = BalanceQuestion(
        tuple(parameters), tables, table.get("target", str, "seats", TARGETS),
        table.number_within("margin", 0.0, 0.5, margin),
        table.int_in("first_games", 10, 10**8, BalanceQuestion.first_games),
        table.int_in("budget", 10, 10**11, BalanceQuestion.budget),
        table.int_in("confirm_games", 10, 10**9, BalanceQuestion.confirm_games),
        adapt, table.int_in("adapt_games", 10, 10**9, BalanceQuestion.adapt_games))
    return question


def _labels(table: Table, key: str, labels: Sequence[str], default: tuple | None,
            why: str) -> tuple:
    """``key``: labels of the experiment's tables, each once (default ``labels``, or
    ``default``); ``why`` some tables are not allowed, if they are not."""
    found = tuple(table.get(key, list, list(labels) if default is None else list(default)))
    allowed = (f"allowed values: labels of the experiment's tables{why}: {', '.join(labels)}"
               if labels else f"allowed: a table that is not in adapt{why}")
    unknown = [t for t in found if t not in labels]
    if unknown or (default is None and not found):
        raise table.error(key, f"{unknown[0] if unknown else []!r} is not allowed; {allowed}")
    twice = sorted({t for t in found if found.count(t) > 1})
    if twice:
        raise table.error(key, f"{twice[0]!r} is listed twice; list each table once")
    return found


def check_budget(question: BalanceQuestion, parts: Sequence[BalanceQuestion]) -> str | None:
    """Why the budget is too small for the parts' first rounds (every candidate at every
    table, ``first_games`` each), or None."""
    needed = sum(first_round(part) for part in parts)
    if question.budget >= needed:
        return None
    return (f"{question.budget:,} games is not allowed; allowed: at least the first "
            f"round's {needed:,} (every candidate at every table, first_games each)")


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


def first_round(question: BalanceQuestion) -> int:
    """Games of the race's first round: every candidate at every table, ``first_games``."""
    return len(candidates(question)) * len(question.tables) * question.first_games


def split(question: BalanceQuestion, touched: dict[str, set[str]]) -> list[BalanceQuestion]:
    """The question as parts that share no table (``touched[key]``: the tables whose rules a
    parameter's values change), each with its share of the budget, in proportion to its
    first round; the tables no parameter changes form a part of their own, with nothing to
    change."""
    parts: list[tuple[list[Parameter], set[str]]] = []
    for parameter in question.parameters:
        tables = touched[parameter.key] & set(question.tables)
        joined = [part for part in parts if part[1] & tables]
        parts = [part for part in parts if part not in joined]
        parts.append(([*(p for part in joined for p in part[0]), parameter],
                      tables.union(*(part[1] for part in joined))))
    rest = set(question.tables).difference(*(tables for _, tables in parts))
    if rest:
        parts.append(([], rest))
    order = {p.key: i for i, p in enumerate(question.parameters)}
    found = [replace(question, parameters=tuple(sorted(params, key=lambda p: order[p.key])),
                     tables=tuple(t for t in question.tables if t in tables))
             for params, tables in sorted(parts, key=lambda part: min(
                 [order[p.key] for p in part[0]] or [len(order)]))]
    total = sum(first_round(part) for part in found)
    return [replace(part, budget=question.budget * first_round(part) // total) for part in found]


def joined(picks: Sequence[Candidate], question: BalanceQuestion) -> Candidate:
    """The candidate that makes every part's pick: their changes in the section's order."""
    order = {p.key: i for i, p in enumerate(question.parameters)}
    changes = sorted((c for pick in picks for c in pick.changes), key=lambda c: order[c[0]])
    return Candidate(tuple(changes), sum(pick.size for pick in picks))


def weakest(verdicts: Sequence[str]) -> str:
    """The answer of several parts: ``none`` if any part has none, else ``likely`` if any
    part is only likely, else ``meets``."""
    return min(verdicts, key=VERDICT_ORDER.index)


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


def standing(runs: Sequence[TableRun], margin: float, family: int | None = None) -> Standing:
    """A candidate's standing from its target tables' runs (seat games only), its seats'
    verdicts corrected for a ``family`` of seats judged together (default: its own)."""
    seats = [(run, seat) for run in runs for seat in range(run.totals.players)]
    found, words, worst = [], [], 0.0
    for run, seat in seats:
        t = run.totals
        share = WinShare(float(t.seat_sum["win_units"][seat]),
                         float(t.seat_sq["win_units"][seat]), t.deals, t.games_per_deal,
                         run.table.game.win_units)
        judged = verdict(share, 1.0 / t.players, margin, family or len(seats))
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
         play: Callable[[list[int], int], dict[int, list[TableRun]]],
         family: int | None = None) -> Race:
    """Race the candidates ``field_`` (nearest first); ``play(indices, games)`` plays the
    first ``games`` games of each target table of those candidates and returns their runs.
    A part of a split question passes the whole question's seats as the ``family``, so
    that the joined answer's verdicts hold together as one candidate's do."""
    tables = len(question.tables)
    alive, rounds, played, games = list(range(len(field_))), [], 0, question.first_games
    while alive:
        # Only the games a round adds count: the earlier ones come back from the cache.
        new = len(alive) * tables * (games - (games // 2 if rounds else 0))
        if rounds and played + new > question.budget:
            break
        runs = play(alive, games)
        played += new
        now = {i: standing(runs[i], question.margin, family) for i in alive}
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


def _numbers(value: Any, like: Any) -> bool:
    """Whether ``value`` and ``like`` are lists of numbers of one length."""
    return (isinstance(value, tuple) and isinstance(like, tuple) and len(value) == len(like)
            and all(_number(x) for x in (*value, *like)))


def _moved(value: tuple, published: tuple) -> float:
    """How far a list's entries moved from the published list's, in all."""
    return sum(abs(a - b) for a, b in zip(value, published, strict=True))


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
