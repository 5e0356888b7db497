"""Stable digests of everything that decides a result: code, rule set, strategies, seed.

A digest is taken of a canonical JSON form, so it is the same on every machine and in
every process. Dataclass fields marked ``metadata={"digest": False}`` (such as the path a
rule set was read from) are left out: they do not change any game.
"""

import ast
import dataclasses
import hashlib
import json
import sys
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


def _files_digest(files: list[Path]) -> str:
    """A digest of ``files``' contents, each named by its last three path parts (so the
    same on every machine)."""
    h = hashlib.sha256()
    for path in sorted(set(files)):
        h.update("/".join(path.parts[-3:]).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _sources(folder: Path) -> list[Path]:
    """Every source and data file under ``folder``."""
    return [p for p in folder.rglob("*") if p.suffix in (".py", ".toml", ".csv")]


@cache
def code_version() -> str:
    """The package version and a digest of all its source files, so any code change shows
    (a tuning's checkpoint and a baseline record it)."""
    return f"{__version__}+{_files_digest(_sources(PACKAGE))}"


@cache
def source_version() -> str:
    """The package version and a digest of its Python sources alone: the code that made a
    data file (a fitted policy records it), unchanged when data files change."""
    return f"{__version__}+{_files_digest([p for p in _sources(PACKAGE) if p.suffix == '.py'])}"


@cache
def kernel_code_version() -> str:
    """A digest of the code compiled kernels are built from: the engine, the kits and every
    game's folder. Numba's cache is keyed by it, so that editing a report, a statistic or
    the application recompiles nothing."""
    files = [f for folder in ("engine", "kits", "games") for f in _sources(PACKAGE / folder)]
    return f"{__version__}+{_files_digest(files)}"


def _module_file(name: str, home: str) -> Path | None:
    """The source file of module ``name``, found without importing it; ``None`` unless it is
    a module of this package or of ``home``, the game's own package (a test's game)."""
    parts = name.split(".")
    if parts[0] == PACKAGE.name:
        base = PACKAGE.joinpath(*parts[1:])
    elif parts[0] == home:
        base = Path(next(iter(sys.modules[home].__path__))).joinpath(*parts[1:])
    else:
        return None
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def import_closure(module: str) -> list[Path]:
    """The files of ``module`` and of every module it imports at load time, transitively:
    imports at module level only (a report a game imports inside a method is not part of
    how it plays)."""
    found: dict[Path, None] = {}
    todo, home = [module], module.split(".")[0]
    while todo:
        path = _module_file(todo.pop(), home)
        if path is None or path in found:
            continue
        found[path] = None
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from package import module`` names modules as well as values.
                todo += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return list(found)


@cache
def module_code_version(module: str) -> str:
    """A digest of module ``module`` and of every module it imports at load time: what a
    result computed by its code (not by a game's chunks) is keyed by."""
    return f"{__version__}+{_files_digest(import_closure(module))}"


@cache
def _game_code_version(module: str, rule_version: str) -> str:
    files = import_closure(module)
    data = [p for p in _sources(files[0].parent) if p.suffix != ".py"]
    engine = _sources(PACKAGE / "engine")  # the runner that drives every chunk, always
    return f"{__version__}+rules {rule_version}+{_files_digest(files + data + engine)}"


def game_code_version(game) -> str:
    """What decides a game's chunks besides its table: the game's declared rule version and
    a digest of the code its game module loads (its kernel, strategies and rules, the kits),
    of the whole engine and of the data files in its folder. Finished chunks are keyed by it,
    so that editing a report, a statistic or another game keeps them."""
    return _game_code_version(type(game).__module__, game.rule_version)


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
