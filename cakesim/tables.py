"""Strict access to parsed TOML/JSON tables: every unknown key or wrong type is an InputError."""

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cakesim.errors import InputError

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
                name, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, not {value!r}"
            )
        if kind is float:
            value = float(value)
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
            raise self.error(name, f"{value} is out of range; allowed: {low} to {high}")
        return value

    def number_in(self, name: str, low: float, high: float, default: Any = ...) -> float:
        """A number ``name`` strictly between ``low`` and ``high``."""
        value = self.get(name, float, default)
        if not low < value < high:
            raise self.error(name, f"{value} is out of range; allowed: between {low} and {high}")
        return value

    def sub(self, name: str, default: Any = ...) -> "Table":
        """The sub-table ``name``."""
        return Table(self.get(name, dict, default), self.source, self.key(name))


def _is_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


def read_toml(path: Path, what: str) -> dict:
    """Parse the TOML file ``path``; a missing or malformed file is an InputError."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(str(path), "", f"{what} file not found") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(str(path), "", f"not valid TOML: {error}") from None
