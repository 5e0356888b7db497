"""Replays are reproducible; a game's end position scores to the engine's own scores."""

import json

import pytest

from cakesim.app.cli import main
from cakesim.engine.contract import ResultKind
from cakesim.engine.errors import InputError
from cakesim.kits.replay import Scorable, scorable


def test_a_replay_is_a_pure_function_of_seed_and_game(game):
    rules = game.load_rules()
    text = game.replay(rules, 12, 3)
    assert text.startswith(game.title) and len(text.splitlines()) > 1
    assert game.replay(rules, 12, 3) == text
    # Another game's log differs beyond its header line (which names the game index).
    others = [game.replay(rules, 12, index).splitlines()[1:] for index in range(4, 8)]
    assert any(other != text.splitlines()[1:] for other in others)


def test_the_command_line_replays_every_game(game, capsys):
    assert main(["replay", game.name, "--seed", "12", "--index", "3"]) == 0
    assert capsys.readouterr().out.strip() == game.replay(game.load_rules(), 12, 3).strip()


def test_an_end_position_scores_to_the_games_own_scores(game, tmp_path):
    rules = game.load_rules()
    first = game.named_strategy(game.strategy_names[0])
    checked = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for variant in game.variants:
            if not game.has_variant(rules, players, variant):
                continue
            table = game.table(rules, players, [first] * players, variant)
            for index in range(3):
                if not isinstance(game, Scorable):
                    with pytest.raises(InputError, match="no end positions"):
                        scorable(game)
                    return
                position = game.end_position(table, 6, index)
                path = tmp_path / f"{players}-{variant}-{index}.json"
                path.write_text(json.dumps(position))
                scored = game.score_file(rules, str(path))
                outcome = game.reference_outcome(table, 6, index)
                assert scored["scores"] == list(outcome["total"]), (table.label, index)
                assert scored["winners"] == [s for s, w in enumerate(outcome["win_units"])
                                             if w > 0]
                checked += 1
    assert checked and game.result_kind is ResultKind.SEATS


def test_a_game_without_score_files_says_so_with_exit_2(game, tmp_path, capsys):
    if isinstance(game, Scorable):
        pytest.skip(f"{game.name} scores end positions")
    path = tmp_path / "end.json"
    path.write_text("{}")
    assert main(["score", game.name, str(path)]) == 2
    assert game.name in capsys.readouterr().err
