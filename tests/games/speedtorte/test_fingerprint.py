"""Golden digests of Speedtorte's kernel: every built-in baker's games, bit for bit.

A speed change to the kernel must leave every game as it was. This slow test (``make
parity``) plays every built-in baker at every level, player count and a set of variants,
and compares the SHA-256 of each table's per-game rows and per-card sums with the digests
in ``fingerprint.json``. A deliberate change of play writes them afresh:
``.venv/bin/python -m tests.games.speedtorte.test_fingerprint --write``.
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from cakesim.engine.runner import run_table
from cakesim.games.speedtorte.game import Speedtorte
from cakesim.games.speedtorte.strategies import named_strategy

GOLDEN = Path(__file__).with_name("fingerprint.json")
VARIANTS = ("signals", "silence", "open_hands", "special_orders", "eilauftrag",
            "silence+eilauftrag", "open_hands+special_orders+eilauftrag")
BAKERS = (("team", 600), ("novice", 600), ("greedy", 300), ("random", 300), ("lookahead", 20))
"""Each built-in baker and the games of its tables (the lookahead plays ~100 games/s)."""
LEVELS = ("Lehrling", "Geselle", "Konditor", "Meister", "Hofzuckerbäcker")
SEED = 11


def table_digest(run) -> str:
    """SHA-256 over a table's per-game rows (every column, by name) and per-card sums."""
    h = hashlib.sha256()
    for column in run.rows.columns:
        h.update(column.encode())
        values = run.rows[column]
        if values.dtype.kind in "biuf":
            h.update(np.ascontiguousarray(values.to_numpy()).tobytes())
        else:
            h.update("\x1f".join(map(str, values)).encode())
    for name in sorted(run.totals.item_sum):
        h.update(name.encode())
        h.update(np.ascontiguousarray(run.totals.item_sum[name]).tobytes())
    return h.hexdigest()


def digests() -> dict[str, str]:
    """Every table's digest, by its label and baker."""
    game = Speedtorte()
    rules = game.load_rules(None)
    found = {}
    for variant in VARIANTS:
        for baker, games in BAKERS:
            for level in LEVELS:
                for players in range(1, 6):
                    if "eilauftrag" in variant and players == 1:
                        continue  # the Eilauftrag needs two bakers or more
                    table = game.table(rules, players, [named_strategy(baker)] * players,
                                       variant, level=level)
                    run = run_table(table, games, SEED, n_jobs=1, progress=False)
                    found[table.label] = table_digest(run)
    return found


@pytest.mark.slow
def test_every_built_in_baker_plays_every_game_as_before():
    expected = json.loads(GOLDEN.read_text())
    changed = sorted(label for label, digest in digests().items()
                     if expected.get(label) != digest)
    assert not changed, (f"{len(changed)} tables play differently, e.g. {changed[:5]}; a "
                         "deliberate change writes the digests afresh (module docstring)")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text(json.dumps(digests(), indent=1, ensure_ascii=False) + "\n")
