"""A project is found from any folder inside it; paths and JSON are written strictly."""

import json
import math

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.project import find_root, root, shown_path, strict_json


def test_the_project_is_found_from_a_subfolder(tmp_path):
    (tmp_path / "experiments").mkdir()
    deep = tmp_path / "reports" / "x"
    deep.mkdir(parents=True)
    assert find_root(deep) == tmp_path.resolve()


def test_outside_a_project_is_an_input_error(tmp_path):
    assert find_root(tmp_path) is None
    with pytest.raises(InputError, match="not inside a cakesim project"):
        root(tmp_path)


def test_paths_below_the_working_directory_are_shown_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert shown_path(tmp_path / "a" / "b.toml") == "a/b.toml"
    assert shown_path("/elsewhere/c.toml") == "/elsewhere/c.toml"


def test_strict_json_writes_no_nan_or_infinity():
    text = strict_json({"a": math.nan, "b": [math.inf, 1.5], "c": np.float64(2.0),
                        "d": np.int64(3)})
    assert json.loads(text) == {"a": None, "b": [None, 1.5], "c": 2.0, "d": 3}
