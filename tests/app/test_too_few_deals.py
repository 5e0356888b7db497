"""A table too small for an interval by deal is refused before a game is played."""

from pathlib import Path

import pytest

from cakesim.app.cli import main
from cakesim.app.experiment import load_experiment
from cakesim.engine.errors import InputError

EXPERIMENTS = Path(__file__).parents[2] / "experiments"


def test_one_nested_tile_block_is_refused_naming_games_and_the_fewest_it_needs(tmp_path,
                                                                              capsys):
    # One tile block of the nested tables is one deal: no variance between deals.
    assert main(["run", "topp_skill_vs_luck", "--games", "16", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--games: 16: one deal" in err
    assert "needs 2 deals; allowed: at least 128" in err


def test_the_fewest_games_are_those_of_every_table_the_override_sizes():
    # A game per table is one deal of the 2P table; the skill rows' duplicate deals at 5P
    # need ten games for two.
    with pytest.raises(InputError, match=r"allowed: at least 10$"):
        load_experiment("first_player_bias", games=1)
    with pytest.raises(InputError, match=r"'2P base · mixed random vs tuned'.*at least 10$"):
        load_experiment("first_player_bias", games=2)
    assert load_experiment("first_player_bias", games=10).table_games[0] == 10


def test_a_file_too_small_is_refused_naming_its_key(tmp_path):
    path = tmp_path / "tiny.toml"
    text = (EXPERIMENTS / "first_player_bias.toml").read_text()
    path.write_text(text.replace("games = 40000", "games = 1", 1))
    with pytest.raises(InputError, match=r"experiment\.games: 1: one deal \(1 game\) at the "
                                         "table '2P base tuned'"):
        load_experiment(str(path))
    text = (EXPERIMENTS / "topp_skill_vs_luck.toml").read_text()
    path.write_text(text.replace("games = 16000", "games = 16", 1))
    with pytest.raises(InputError, match=r"tables\[\d+\]\.games: 16: one deal \(32 games\) "
                                         r"at the table 'nested 2P base mixed skill'.*at least 64"):
        load_experiment(str(path))
