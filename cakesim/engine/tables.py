"""Strict access to parsed TOML/JSON tables: every unknown key or wrong type is an InputError."""

import json
import math
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cakesim.engine.errors import InputError

_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a table"}


class Table:
    """A mapping read from ``source`` at dotted position ``where``, read strictly."""

    def __init__(self, data: Mapping[str, Any], source: str, where: str = ""):
        if not isinstance(data, Mapping):
            raise InputError(source, where or "(top level)", "must be a table")
        self.data = data
        self.source = source
        self.where = where

    def key(self, name: str) -> str:
        """The dotted name of ``name`` inside this table, for error messages."""
        return f"{self.where}.{name}" if self.where else name

    def error(self, name: str, message: str) -> InputError:
        """An InputError about key ``name`` of this table."""
        return InputError(self.source, self.key(name), message)

    def only(self, allowed: Iterable[str]) -> None:
        """Reject every key not in ``allowed``, naming the allowed ones."""
        allowed = list(allowed)
        for name in self.data:
            if name not in allowed:
                raise self.error(name, f"unknown key; allowed keys: {', '.join(allowed)}")

    def get(self, name: str, kind: type, default: Any = ..., choices: Iterable | None = None):
        """The value of ``name``, checked to be of ``kind`` (and one of ``choices``)."""
        if name not in self.data:
            if default is ...:
                raise self.error(name, f"missing; must be {_TYPE_NAMES.get(kind, kind.__name__)}")
            return default
        value = self.data[name]
        if not _is_kind(value, kind):
            raise self.error(
                name, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, not {_shown(value)}"
            )
        if kind is float:
            value = _finite(value)
            if value is None:
                # TOML has nan and inf literals, and integers too large for a float.
                raise self.error(name, f"must be a finite number, not "
                                       f"{_shown(self.data[name])}")
        if choices is not None:
            choices = list(choices)
            if value not in choices:
                shown = ", ".join(repr(c) for c in choices)
                raise self.error(name, f"{value!r} is not allowed; allowed values: {shown}")
        return value

    def int_in(self, name: str, low: int, high: int, default: Any = ...) -> int:
        """An integer value of ``name`` within ``[low, high]``."""
        value = self.get(name, int, default)
        if not low <= value <= high:
            raise self.error(name, f"{_shown(value)} is out of range; allowed: {low} to {high}")
        return value

    def number_in(self, name: str, low: float, high: float, default: Any = ...) -> float:
        """A number ``name`` strictly between ``low`` and ``high``."""
        value = self.get(name, float, default)
        if not low < value < high:
            raise self.error(name, f"{value} is out of range; allowed: between {low} and {high}")
        return value

    def number_within(self, name: str, low: float, high: float, default: Any = ...) -> float:
        """A finite number ``name`` within ``[low, high]``."""
        value = self.get(name, float, default)
        if not low <= value <= high:
            raise self.error(name, f"{_number(value)} is not allowed; allowed: "
                                   f"{_number(low)} to {_number(high)}")
        return value

    def numbers(self, ranges: Mapping[str, tuple[float, float]]) -> dict[str, float]:
        """Each number this table gives of those ``ranges`` names, within its ``(low, high)``."""
        return {name: self.number_within(name, *ranges[name]) for name in ranges
                if name in self.data}

    def int_list(self, name: str, low: int, high: int, default: Any = ...,
                 least: int = 1) -> list[int]:
        """A list ``name`` of at least ``least`` integers, each within ``[low, high]``."""
        values = self.get(name, list, default)
        allowed = f"allowed: a list of whole numbers {low} to {high}"
        if len(values) < least:
            raise self.error(name, f"lists {len(values)} numbers, at least {least} needed; "
                                   f"{allowed}")
        for value in values:
            if not _is_kind(value, int) or not low <= value <= high:
                raise self.error(name, f"{_shown(value)} is not allowed; {allowed}")
        return values

    def list_between(self, name: str, low: int, high: int) -> list:
        """A list ``name`` of ``low`` to ``high`` entries (e.g. one per player)."""
        values = self.get(name, list)
        if not low <= len(values) <= high:
            raise self.error(name, f"{len(values)} {name}; allowed: {low} to {high}")
        return values

    def sub(self, name: str, default: Any = ...) -> "Table":
        """The sub-table ``name``."""
        return Table(self.get(name, dict, default), self.source, self.key(name))


def _is_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


def _finite(value: int | float) -> float | None:
    """``value`` as a float, or ``None`` if it is NaN, infinite or too large for a float."""
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _number(value: float) -> str:
    """``1000000``, ``0.5``, ``1e+300``: whole numbers in full up to 15 digits."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"


def _shown(value: Any) -> str:
    """``value`` as Python writes it, cut short: an integer may have thousands of digits."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"


def _read_text(path: str | Path, what: str) -> str:
    """The UTF-8 text of ``path``; a missing, unreadable or binary file is an InputError."""
    source = str(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(source, "", f"{what} file not found") from None
    except IsADirectoryError:
        raise InputError(source, "", "is a folder, not a file") from None
    except UnicodeDecodeError as error:
        raise InputError(source, "", f"not UTF-8 text (cannot decode byte {error.start}); "
                                     "allowed: UTF-8 text") from None
    except OSError as error:
        raise InputError(source, "", f"cannot be read: {error.strerror}") from None


def read_toml(path: str | Path, what: str) -> dict:
    """Parse the TOML file ``path``; a missing or malformed file is an InputError."""
    text = _read_text(path, what)
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as error:
        # TOMLDecodeError is a ValueError; so are integers of thousands of digits.
        raise InputError(str(path), "", f"not valid TOML: {_limit(error)}") from None


def read_json(path: str | Path, what: str) -> Any:
    """Parse the JSON file ``path``; a key given twice in one object is an InputError too."""
    source = str(path)
    text = _read_text(path, what)

    def unique(pairs: list[tuple[str, Any]]) -> dict:
        # json.loads alone keeps the last of repeated keys, silently.
        table = {}
        for key, value in pairs:
            if key in table:
                raise InputError(source, key, "given twice in one object; each key may be "
                                              "given once")
            table[key] = value
        return table

    try:
        return json.loads(text, object_pairs_hook=unique)
    except (ValueError, RecursionError) as error:
        # ValueError: malformed JSON, or an integer of thousands of digits.
        raise InputError(source, "", f"not valid JSON: {_limit(error)}") from None


def _limit(error: Exception) -> str:
    """What went wrong, in one line."""
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).splitlines()[0]
