"""Stable digests of everything that decides a result: code, rule set, strategies, seed.

A digest is taken of a canonical JSON form, so it is the same on every machine and in
every process. Dataclass fields marked ``metadata={"digest": False}`` (such as the path a
rule set was read from) are left out: they do not change any game.
"""

import dataclasses
import hashlib
import json
from functools import cache
from pathlib import Path

import numpy as np

from cakesim.engine.project import shown_path
from cakesim.engine.version import __version__

PACKAGE = Path(__file__).parents[1]
"""The ``cakesim`` package folder: every source file in it is part of the code version."""


def canonical(value):
    """A JSON-ready form of ``value``, equal for equal values; floats kept exact."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.metadata.get("digest", True)}
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, np.ndarray):
        return {"dtype": str(value.dtype), "shape": list(value.shape),
                "data": canonical(value.tolist())}
    if isinstance(value, np.generic):
        return canonical(value.item())
    if isinstance(value, float):
        return float.hex(value)
    return value


def digest(value) -> str:
    """SHA-256 of the canonical form of ``value``."""
    text = json.dumps(canonical(value), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def code_version() -> str:
    """The package version and a digest of its source files, so any code change shows."""
    h = hashlib.sha256()
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.toml")]):
        h.update(path.relative_to(PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return f"{__version__}+{h.hexdigest()[:12]}"


def resolved_strategy(strategy) -> dict:
    """A strategy as it plays: its fields and every parameter, defaults filled in.

    Strategies store only the weights that differ from the defaults; the defaults live
    in code, so the vector the kernel reads (``params``) is recorded too: a changed
    default is then a changed configuration.
    """
    record = canonical(strategy)
    for name, vector in strategy.vectors().items():
        record[name] = np.asarray(vector).tolist()
    return record


def table_digest(table) -> str:
    """What decides a table's games: game, players, variant, deal mode, rules, strategies."""
    return digest({"game": table.game.name, "players": table.players, "variant": table.variant,
                   "duplicate": table.duplicate, "rules": table.rules,
                   "strategies": [resolved_strategy(s) for s in table.strategies]})


def source_files(value, found: dict | None = None) -> dict[str, str]:
    """Every file a rule set was read from (``source`` and ``*_source`` fields, nested)."""
    found = {} if found is None else found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if (f.name == "source" or f.name.endswith("_source")) and isinstance(item, str):
                if Path(item).is_file():
                    found[str(Path(item).resolve())] = item
            else:
                source_files(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            source_files(item, found)
    return found


def file_digests(rules_objects) -> dict[str, str]:
    """SHA-256 of every rule, card, timing or tile file behind ``rules_objects``."""
    found = {}
    for rules in rules_objects:
        source_files(rules, found)
    return {shown: hashlib.sha256(Path(path).read_bytes()).hexdigest()
            for path, shown in sorted(found.items())}


def files_in_force(runs) -> dict[str, str]:
    """SHA-256 of every rule, card, timing or level file the runs' tables were read from."""
    return {shown_path(path): sha
            for path, sha in file_digests(run.table.rules for run in runs).items()}
