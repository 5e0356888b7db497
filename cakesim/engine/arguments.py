"""Argument types the command line and the games' own commands share: strict, exit 2.

Each turns a flag's text into a value or raises ``argparse.ArgumentTypeError`` naming the
allowed values; argparse then prints the flag and exits with status 2. Values checked
later (against a rule set) raise an ``InputError`` that names the flag. ``--set
KEY=VALUE`` settings are read here too, and put into a parsed rule-set file.
"""

import argparse
import copy
import datetime
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cakesim.engine.errors import InputError

SEED_MAX = 2**63 - 1
"""Seeds and game indices run from 0 to this, as in experiment files."""
GAMES_MAX = 10**10
"""The most games per table, as in experiment files (and the largest count any flag takes)."""


def whole(text: str, low: int, high: int, allowed: str = "") -> int:
    """``text`` as a whole number from ``low`` to ``high``; ``allowed`` says so in words."""
    allowed = allowed or f"{low} to {high}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; allowed: "
                                         f"{allowed}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value} is out of range; allowed: {allowed}")
    return value


def positive(text: str) -> int:
    """A count of games: 1 to ``GAMES_MAX``."""
    return whole(text, 1, GAMES_MAX)


def natural(text: str) -> int:
    """A seed or game index: 0 to ``SEED_MAX``."""
    return whole(text, 0, SEED_MAX)


def jobs(text: str) -> int:
    """Worker processes as joblib counts them: 1..cores, or -1 (all) .. -cores (one)."""
    from joblib import cpu_count

    cores = cpu_count()
    allowed = f"1 to {cores} processes, or -1 (all {cores} cores) to -{cores} (one)"
    value = whole(text, -cores, cores, allowed)
    if value == 0:
        raise argparse.ArgumentTypeError(f"0 is not allowed; allowed: {allowed}")
    return value


def share(text: str) -> float:
    """A share strictly between 0 and 1."""
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, not {value}")
    return value


def date(text: str) -> datetime.date:
    """A calendar date, ``YYYY-MM-DD``."""
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-12-01") from None


def players_in_range(players: int | None, rules) -> int | None:
    """``--players`` checked against the rule set's player range (``None`` stays default)."""
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise InputError("--players", "players", f"{players} is not allowed; allowed: "
                                                 f"{rules.min_players} to {rules.max_players}"
                                                 f" (the rule set {rules.source})")
    return players


EXAMPLES = "examples:\n"


class _ExampleFormatter(argparse.HelpFormatter):
    """Wraps a command's description, and keeps its examples' lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def examples(*lines: str) -> dict:
    """A command's ``epilog`` of examples, one command line each (the keywords of
    ``add_parser``)."""
    return {"epilog": EXAMPLES + "\n".join(f"  {line}" for line in lines),
            "formatter_class": _ExampleFormatter}


def spelt(text: str, allowed) -> str:
    """``text`` as ``allowed`` spells it when it is one of them in any case; else ``text``
    unchanged, for the code that checks it to refuse with its own message."""
    return {value.casefold(): value for value in allowed}.get(text.casefold(), text)


def one_of(text: str, allowed, flag: str) -> str:
    """``text`` as ``allowed`` spells it, in any case; else an InputError naming ``flag``."""
    allowed = list(allowed)
    for value in allowed:
        if value.casefold() == text.casefold():
            return value
    raise InputError(flag, text, f"{text!r} is not allowed; allowed values: "
                                 f"{', '.join(allowed)}")


def choice(allowed) -> Callable[[str], str]:
    """An argument type: one of ``allowed`` in any case, returned as ``allowed`` spells it."""
    allowed = tuple(allowed)

    def pick(text: str) -> str:
        value = spelt(text, allowed)
        if value not in allowed:
            # argparse's own words for a choice, with the values allowed.
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r}; allowed values: "
                                             f"{', '.join(allowed)}")
        return value

    return pick


@contextmanager
def flag_errors(flag: str, key: str | None = None) -> Iterator[None]:
    """Re-word an InputError raised inside as one about the command-line flag ``flag``
    (and ``key`` in place of the error's key, ``""`` for none).

    A value typed on the command line is checked by the same code that reads files; its
    error should point at the flag the person typed, not at a file they never opened. An
    error that already names a flag (``--players``) keeps it.
    """
    try:
        yield
    except InputError as error:
        if error.source.startswith("--"):
            raise
        raise InputError(flag, error.key if key is None else key, error.message) from None


@dataclass(frozen=True)
class Setting:
    """One ``--set KEY=VALUE``: a dotted key into the rule set and its value."""

    key: str
    value: Any
    text: str
    """``KEY=VALUE`` as typed, for messages and the report."""

    @property
    def flag(self) -> str:
        """The flag as typed, e.g. ``--set tie_rule=none``."""
        return f"--set {self.text}"


SET_EXAMPLE = "e.g. tie_rule=none or kinds.chocolate.cream=2"


def setting(text: str) -> Setting:
    """``KEY=VALUE`` with the value read as TOML (``2``, ``0.5``, ``true``, ``[1, 2]``);
    a bare word such as ``none`` is a string."""
    key, equals, raw = text.partition("=")
    key = key.strip()
    if not equals or not key or not all(part.strip() for part in key.split(".")):
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE; {SET_EXAMPLE}")
    return Setting(key, _toml_value(raw.strip()), text)


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        # Not a TOML value: a bare word, taken as the string it spells.
        return text


def with_settings(data: dict, settings: list[Setting]) -> dict:
    """A copy of a parsed rule-set file with every setting put in.

    A key is a dotted path of tables (``points.card``); an entry of a list of tables is
    named by its ``name`` or ``id`` (``kinds.chocolate.majority_value``), also as
    ``FIELD.ENTRY`` (``cream.chocolate``). A single number for a list of numbers sets every
    number of it (``cream.chocolate=2``: two dollops on every chocolate slice). Keys are
    not checked here: the rule set's own reader does that, as for the file.
    """
    data = copy.deepcopy(data)
    for item in settings:
        parts = resolved_path(data, item.key)
        node, done = data, []
        for part in parts[:-1]:
            node = _step(node, part, done, item)
            done.append(part)
        last = parts[-1]
        if not isinstance(node, dict):
            fields = sorted({k for entry in node for k in entry})
            raise InputError(item.flag, ".".join(done), f"{last!r} names an entry; set one of "
                                                        f"its keys: {', '.join(fields)}")
        node[last] = _spread(node.get(last), item.value)
    return data


def resolved_path(data: dict, key: str) -> list[str]:
    """The parts of a dotted ``key``; ``FIELD.ENTRY.rest`` as ``LIST.ENTRY.FIELD.rest`` when
    FIELD is no top-level key of ``data`` but a key of the entries of one list of named
    tables (``cream.chocolate`` is ``kinds.chocolate.cream``)."""
    parts = key.split(".")
    if len(parts) < 2 or parts[0] in data:
        return parts
    lists = [name for name, value in data.items()
             if _named_entries(value) and any(parts[0] in entry for entry in value)]
    return [lists[0], parts[1], parts[0], *parts[2:]] if len(lists) == 1 else parts


def _named_entries(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(e, dict) and ("name" in e or "id" in e) for e in value))


def value_at(data: dict, key: str) -> Any:
    """The value at a dotted ``key`` of a parsed rule-set file, found as ``with_settings``
    finds the place it sets; ``None`` when the file has none."""
    node: Any = data
    for part in resolved_path(data, key):
        node = (_entry(node, part) if isinstance(node, list)
                else node.get(part) if isinstance(node, dict) else None)
        if node is None:
            return None
    return node


def _entry(entries: list, part: str) -> dict | None:
    """The entry of a list of named tables whose ``name`` (or ``id``) is ``part``, in any
    case; ``None`` if none is."""
    return next((e for e in entries
                 if str(e.get("name", e.get("id", ""))).casefold() == part.casefold()), None)


def _step(node: Any, part: str, done: list[str], item: Setting) -> Any:
    """The table (or list of named tables) ``part`` inside ``node``, made if missing."""
    if isinstance(node, list):
        entry = _entry(node, part)
        if entry is not None:
            return entry
        names = ", ".join(str(e.get("name", e.get("id"))) for e in node)
        raise InputError(item.flag, ".".join(done), f"no entry {part!r}; allowed: {names}")
    child = node.setdefault(part, {})
    if isinstance(child, dict) or _named_entries(child):
        return child
    raise InputError(item.flag, ".".join([*done, part]),
                     f"is a value ({child!r}), not a table; set it as "
                     f"{'.'.join([*done, part])}=VALUE")


def _spread(old: Any, new: Any) -> Any:
    """``new``, or a single ``new`` at every place of ``old`` when that is a list of
    numbers (a wrong value then meets the reader's check of each number)."""
    def number(x: Any) -> bool:
        return isinstance(x, int | float) and not isinstance(x, bool)

    if (isinstance(old, list) and old and all(map(number, old))
            and not isinstance(new, list | dict)):
        return [new] * len(old)
    return new
