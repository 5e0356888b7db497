"""Golden replays: whole games as a person reads them, diffed line by line.

A rule or strategy change that moves any decision shows in a game's golden files as a
readable diff. After checking that the change is intended, regenerate them with
``CAKESIM_UPDATE_GOLDEN=1 make test``.
"""

import os
from pathlib import Path


def assert_matches_golden(path: Path, text: str) -> None:
    """``text`` equals the golden file at ``path`` line by line (or, with
    CAKESIM_UPDATE_GOLDEN set, becomes it)."""
    if os.environ.get("CAKESIM_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing {path.name}: run with CAKESIM_UPDATE_GOLDEN=1"
    assert text.splitlines() == path.read_text().splitlines()


def replay_text(game, play_game, players: int, variant: str, seats: list, label: str,
                index: int) -> str:
    """Game ``index`` of seed 1 at a table of ``seats`` (strategies), played by the
    reference engine ``play_game`` and written out as ``game`` replays it."""
    rules = game.load_rules()
    result = play_game(rules.for_table(players, variant), seats, seed=1, game=index)
    return game.format_replay(rules, result, f"seed 1, game {index}, {players} players, "
                                             f"{variant}, {label}") + "\n"
