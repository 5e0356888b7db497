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

from cakesim import __version__

PACKAGE = Path(__file__).parent


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


def table_digest(table) -> str:
    """What decides a table's games: game, players, variant, deal mode, rules, strategies."""
    return digest({"game": table.game, "players": table.players, "variant": table.variant,
                   "duplicate": table.duplicate, "rules": table.rules,
                   "strategies": table.strategies})
