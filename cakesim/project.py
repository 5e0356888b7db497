"""Where a project's experiments, reports and baselines live, from any folder inside it.

A cakesim project is a folder with an ``experiments/`` folder of experiment files; its
reports go to ``reports/`` and its balance baselines to ``reports/baselines/`` beside it.
Commands that work on the whole project (``regress``, ``baseline``, ``reports``) find it
by walking up from the working directory, like git does.
"""

from pathlib import Path

from cakesim.errors import InputError

EXPERIMENTS = "experiments"
REPORTS = "reports"
BASELINES = "reports/baselines"


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


def baselines_dir() -> Path:
    """The project's ``reports/baselines/`` folder."""
    return root() / BASELINES
