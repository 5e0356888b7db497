"""Numba's cache folder is keyed by the source version, so no stale kernel survives a change."""

import os

from cakesim.engine import numba_cache
from cakesim.engine.fingerprint import code_version


def test_the_cache_folder_names_the_code_version(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = numba_cache.code_keyed_cache_dir()
    assert folder == tmp_path / "cakesim" / "numba" / code_version()


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
