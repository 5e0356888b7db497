"""A broken rule set is refused with exit status 2, naming the file; never a traceback."""

import re
from pathlib import Path

import pytest

from cakesim.app.cli import main


def _published(game) -> str:
    return Path(game.load_rules().source).read_text()


def _wrong_type(text: str) -> str:
    """The first ``key = <whole number>`` with text in place of the number."""
    return re.sub(r"(\w+\s*=\s*)\d+", r'\1"many"', text, count=1)


BREAKAGES = {
    "unknown key": lambda text: "no_such_rule = 1\n" + text,
    "not TOML": lambda text: text + "\n[[[\n",
    "wrong type": _wrong_type,
    "empty": lambda text: "",
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_a_broken_rule_file_exits_2_naming_it(game, breakage, tmp_path, capsys):
    broken = BREAKAGES[breakage](_published(game))
    assert broken != _published(game)
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    status = main(["replay", game.name, "--seed", "1", "--index", "0", "--rules", str(path)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert str(path) in err and "Traceback" not in err


def test_a_missing_rule_file_exits_2_naming_it(game, tmp_path, capsys):
    path = tmp_path / "missing.toml"
    assert main(["replay", game.name, "--seed", "1", "--index", "0", "--rules",
                 str(path)]) == 2
    assert str(path) in capsys.readouterr().err
