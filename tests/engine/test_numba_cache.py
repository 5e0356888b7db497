"""Numba's cache folder and the chunk cache are keyed by the code they depend on: no stale
kernel or chunk survives a change of it, and an edit elsewhere (a report) keeps both."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cakesim.engine import fingerprint, numba_cache
from cakesim.engine.fingerprint import code_version, kernel_code_version
from cakesim.games import game_named


def test_the_cache_folder_names_the_code_version(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(numba_cache.INLINE_ENV, raising=False)
    folder = numba_cache.code_keyed_cache_dir()
    assert folder == tmp_path / "cakesim" / "numba" / kernel_code_version()


def test_builds_without_inlining_keep_a_folder_of_their_own(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv(numba_cache.INLINE_ENV, "0")
    assert numba_cache.code_keyed_cache_dir().name == kernel_code_version() + "-called"


@pytest.mark.parametrize(("value", "inline"), [("0", None), ("1", "always"), (None, "always")])
def test_the_inlining_switch_reaches_the_compiled_helpers(value, inline):
    env = {k: v for k, v in os.environ.items()
           if k not in (numba_cache.INLINE_ENV, numba_cache.CACHE_ENV)}
    if value is not None:
        env[numba_cache.INLINE_ENV] = value
    shown = subprocess.run(
        [sys.executable, "-c", "from cakesim.games.piece_o_cake.steps import choose; "
                               "print(choose.targetoptions.get('inline'))"],
        env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert shown == str(inline)


def test_a_folder_the_user_chose_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv(numba_cache.CACHE_ENV, str(tmp_path / "mine"))
    numba_cache.use_code_keyed_cache()
    assert os.environ[numba_cache.CACHE_ENV] == str(tmp_path / "mine")


def test_the_code_version_changes_with_any_source_file(monkeypatch, tmp_path):
    package = tmp_path / "cakesim"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    monkeypatch.setattr("cakesim.engine.fingerprint.PACKAGE", package)
    code_version.cache_clear()
    try:
        before = code_version()
        (package / "a.py").write_text("x = 2\n")
        code_version.cache_clear()
        assert code_version() != before
    finally:
        code_version.cache_clear()


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """A copy of the package's source that the digests read instead of the package."""
    copy = tmp_path / "cakesim"
    shutil.copytree(fingerprint.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprint, "PACKAGE", copy)
    caches = (code_version, kernel_code_version, fingerprint._game_code_version)
    for cached in caches:
        cached.cache_clear()
    yield copy
    for cached in caches:
        cached.cache_clear()


def _keys(game) -> tuple[str, str, str]:
    for cached in (code_version, kernel_code_version, fingerprint._game_code_version):
        cached.cache_clear()
    return code_version(), kernel_code_version(), fingerprint.game_code_version(game)


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# an edit\n")


def test_a_report_edit_neither_recompiles_kernels_nor_invalidates_chunks(package_copy):
    game = game_named("piece-o-cake")
    code, kernels, chunks = _keys(game)
    _edit(package_copy / "reports" / "report.py")
    _edit(package_copy / "stats" / "intervals.py")
    after = _keys(game)
    assert after[0] != code, "the whole code's version sees every edit"
    assert after[1:] == (kernels, chunks)


def test_an_edit_of_a_games_code_or_the_engine_starts_afresh(package_copy):
    game, other = game_named("piece-o-cake"), game_named("topp-die-torte")
    before, other_before = _keys(game), _keys(other)[2]
    _edit(package_copy / "games" / "slicing" / "cutting.py")  # a kit the game imports
    sliced = _keys(game)
    assert sliced[1] != before[1] and sliced[2] != before[2]
    assert _keys(other)[2] == other_before, "another game's chunks are kept"
    _edit(package_copy / "engine" / "runner.py")
    assert _keys(game)[2] != sliced[2] and _keys(other)[2] != other_before


def test_a_rule_version_keys_the_chunks(monkeypatch):
    game = game_named("topp-die-torte")
    before = fingerprint.game_code_version(game)
    monkeypatch.setattr(type(game), "rule_version", game.rule_version + ".1")
    assert fingerprint.game_code_version(game) != before
