"""Where a project's experiments, reports and baselines live, from any folder inside it.

A cakesim project is a folder with an ``experiments/`` folder of experiment files; its
reports go to ``reports/`` and its balance baselines to ``reports/baselines/`` beside it.
Runs that change an experiment on the command line (fewer games, another seed, changed
rules) go to ``runs/`` (not committed), so that they never write over a report. Commands
find the project by walking up from the working directory, like git does.
"""

import json
import math
from pathlib import Path

import numpy as np

from cakesim.engine.errors import InputError

EXPERIMENTS = "experiments"
REPORTS = "reports"
BASELINES = "reports/baselines"
RUNS = "runs"


def find_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (default: here) with an experiments folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / EXPERIMENTS).is_dir():
            return folder
    return None


def root(start: Path | None = None) -> Path:
    """The project folder; outside a project an InputError says so."""
    found = find_root(start)
    if found is None:
        where = (start or Path.cwd()).resolve()
        raise InputError(str(where), "", f"not inside a cakesim project: no {EXPERIMENTS}/ "
                                         "folder here or in any folder above; run from the "
                                         "project (the folder with experiments/ and reports/)")
    return found


def experiments_dir() -> Path:
    """The project's ``experiments/`` folder."""
    return root() / EXPERIMENTS


def reports_dir() -> Path:
    """The project's ``reports/`` folder."""
    return root() / REPORTS


def runs_dir() -> Path:
    """The project's ``runs/`` folder, for runs an override changed."""
    return root() / RUNS


def baselines_dir() -> Path:
    """The project's ``reports/baselines/`` folder."""
    return root() / BASELINES


def shown_path(source: str | Path) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        return str(Path(source).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(source)


def begins_with(path: Path, header: str) -> bool:
    """Whether the file ``path`` begins with ``header``'s first line (a command that wrote
    it may write it again); False if it cannot be read."""
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            return file.readline() == header.splitlines(keepends=True)[0]
    except OSError:
        return False


def strict_json(value) -> str:
    """``value`` as strict JSON (RFC 8259): a NaN or infinity becomes ``null``."""
    return json.dumps(_finite(value), indent=2, default=str, allow_nan=False) + "\n"


def _finite(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    if isinstance(value, np.generic):
        return _finite(value.item())
    return value
