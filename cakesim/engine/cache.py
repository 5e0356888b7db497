"""Finished chunks kept on disk, so that an interrupted run restarted plays only the rest.

A chunk is filed under a digest of (the game's code version, table, seed, chunk range):
change the game's code or the engine it runs on (``game_code_version``), the rule set, a
strategy parameter or the seed and the old chunks are simply not found. Editing a report,
a statistic or another game keeps them. A report section files its own slow results
(e.g. a solver's bound) the same way, under a digest of everything that decides them.
Files are written to a temporary name and renamed, so a run killed mid-write leaves no
half chunk behind; an unreadable file counts as missing.
"""

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from cakesim.engine.contract import Chunk, TableSpec
from cakesim.engine.fingerprint import digest, game_code_version, table_digest

CACHE_ENV = "CAKESIM_CACHE"
DEFAULT_CACHE = Path(".cakesim-cache")
KINDS = ("seat", "game", "item")
"""Every metric kind of a ``Chunk``, each stored as ``kind/metric`` arrays."""


def write_atomically(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Create ``path`` by ``write`` under a temporary name, then rename it: a run killed
    mid-write leaves no half file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    with open(partial, "wb") as file:
        write(file)
    os.replace(partial, path)


def default_cache_dir() -> Path:
    """``$CAKESIM_CACHE`` if set, else ``.cakesim-cache`` in the working directory."""
    return Path(os.environ.get(CACHE_ENV, DEFAULT_CACHE))


class ChunkCache:
    """A folder of finished chunks."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def path(self, table: TableSpec, seed: int, start: int, stop: int) -> Path:
        """Where the chunk ``[start, stop)`` of ``seed`` at ``table`` is filed."""
        key = digest({"code": game_code_version(table.game), "table": table_digest(table),
                      "seed": seed,
                      "start": start, "stop": stop})
        return self.root / key[:2] / f"{key}.npz"

    def load(self, table: TableSpec, seed: int, start: int, stop: int) -> Chunk | None:
        """The stored chunk, or ``None`` if it was never finished."""
        path = self.path(table, seed, start, stop)
        try:
            with np.load(path) as stored:
                parts = {kind: {k.split("/", 1)[1]: stored[k] for k in stored.files
                                if k.startswith(f"{kind}/")} for kind in KINDS}
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
            # Missing, truncated, empty or not ours: the chunk is simply played again.
            return None
        chunk = Chunk(start, parts["seat"], parts["game"], parts["item"])
        if not chunk.game or chunk.games != stop - start:
            return None
        return chunk

    def store(self, table: TableSpec, seed: int, chunk: Chunk) -> None:
        """File a finished chunk."""
        path = self.path(table, seed, chunk.first_game, chunk.first_game + chunk.games)
        arrays = {f"{kind}/{k}": v for kind in KINDS
                  for k, v in getattr(chunk, kind).items()}
        write_atomically(path, lambda file: np.savez(file, **arrays))

    def result_path(self, key: dict) -> Path:
        """Where the result decided by ``key`` (every input of it, code included) is filed."""
        name = digest(key)
        return self.root / name[:2] / f"{name}.json"

    def load_result(self, key: dict) -> dict | None:
        """The filed result of ``key``, or ``None`` if it was never finished."""
        try:
            return json.loads(self.result_path(key).read_text())
        except (OSError, ValueError):
            return None  # missing, truncated or not ours: computed again

    def store_result(self, key: dict, result: dict) -> None:
        """File a finished result (JSON) under ``key``."""
        text = json.dumps(result).encode()
        write_atomically(self.result_path(key), lambda file: file.write(text))
