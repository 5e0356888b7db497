"""Argument types the command line and the games' own commands share: strict, exit 2.

Each turns a flag's text into a value or raises ``argparse.ArgumentTypeError`` naming the
allowed values; argparse then prints the flag and exits with status 2.
"""

import argparse
import datetime

from cakesim.engine.errors import InputError

SEED_MAX = 2**63 - 1
"""Seeds and game indices run from 0 to this, as in experiment files."""
GAMES_MAX = 10**10
"""The most games per table, as in experiment files (and the largest count any flag takes)."""


def whole(text: str, low: int, high: int, allowed: str = "") -> int:
    """``text`` as a whole number from ``low`` to ``high``; ``allowed`` says so in words."""
    allowed = allowed or f"{low} to {high}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; allowed: "
                                         f"{allowed}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value} is out of range; allowed: {allowed}")
    return value


def positive(text: str) -> int:
    """A count of games: 1 to ``GAMES_MAX``."""
    return whole(text, 1, GAMES_MAX)


def natural(text: str) -> int:
    """A seed or game index: 0 to ``SEED_MAX``."""
    return whole(text, 0, SEED_MAX)


def jobs(text: str) -> int:
    """Worker processes as joblib counts them: 1..cores, or -1 (all) .. -cores (one)."""
    from joblib import cpu_count

    cores = cpu_count()
    allowed = f"1 to {cores} processes, or -1 (all {cores} cores) to -{cores} (one)"
    value = whole(text, -cores, cores, allowed)
    if value == 0:
        raise argparse.ArgumentTypeError(f"0 is not allowed; allowed: {allowed}")
    return value


def share(text: str) -> float:
    """A share strictly between 0 and 1."""
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, not {value}")
    return value


def date(text: str) -> datetime.date:
    """A calendar date, ``YYYY-MM-DD``."""
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-12-01") from None


def players_in_range(players: int | None, rules) -> int | None:
    """``--players`` checked against the rule set's player range (``None`` stays default)."""
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise InputError("--players", "players", f"{players} is not allowed; allowed: "
                                                 f"{rules.min_players} to {rules.max_players}"
                                                 f" (the rule set {rules.source})")
    return players
