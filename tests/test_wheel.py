"""The built wheel carries every data file the package reads, and an installed wheel runs
an experiment of every game (outside the project, with the package imported from the
wheel alone)."""

import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cakesim.games import GAMES

PACKAGE = Path(__file__).parents[1] / "cakesim"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The project built as a wheel by pip, as a user's ``pip install`` would build it: from
    a copy, since the build leaves its work folders beside the sources."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PACKAGE.parent / name, source / name)
    shutil.copytree(PACKAGE, source / "cakesim", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                    str(out), str(source)], check=True, capture_output=True)
    return next(out.glob("cakesim-*.whl"))


def test_the_wheel_carries_every_data_file_of_the_package(wheel):
    data = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert data, "the package has rule files"
    with zipfile.ZipFile(wheel) as archive:
        assert data <= set(archive.namelist())


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_an_installed_wheel_runs_an_experiment_of_every_game(wheel, tmp_path, game):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(wheel)], check=True, capture_output=True)
    # -S: no site processing, so the project's editable install is out of sight; the
    # dependencies come from this environment's site-packages.
    env = {"PYTHONPATH": f"{target}:{site.getsitepackages()[0]}", "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}

    def cakesim(*args: str) -> str:
        done = subprocess.run([sys.executable, "-S", "-m", "cakesim", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    # Outside the project: the working folder comes first on the import path.
    where = subprocess.run([sys.executable, "-S", "-c", "import cakesim; print(cakesim.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=True).stdout
    assert Path(where.strip()).is_relative_to(target)
    cakesim("new", str(tmp_path / "mine.toml"), "--game", game)
    cakesim("run", str(tmp_path / "mine.toml"), "--games", "40", "--no-plan", "--skill-games",
            "8", "--n-jobs", "1", "--quiet", "--out", str(tmp_path / "out"))
    assert "## " in (tmp_path / "out" / "report.md").read_text()
