"""Finished chunks kept on disk, so that an interrupted run restarted plays only the rest.

A chunk is filed under a digest of (code version, table, seed, chunk range): change the
code, the rule set, a strategy parameter or the seed and the old chunks are simply not
found. Files are written to a temporary name and renamed, so a run killed mid-write
leaves no half chunk behind; an unreadable file counts as missing.
"""

import os
import zipfile
from pathlib import Path

import numpy as np

from cakesim.fingerprint import code_version, digest, table_digest
from cakesim.games.base import Chunk, TableSpec

CACHE_ENV = "CAKESIM_CACHE"
DEFAULT_CACHE = Path(".cakesim-cache")


def default_cache_dir() -> Path:
    """``$CAKESIM_CACHE`` if set, else ``.cakesim-cache`` in the working directory."""
    return Path(os.environ.get(CACHE_ENV, DEFAULT_CACHE))


class ChunkCache:
    """A folder of finished chunks."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def path(self, table: TableSpec, seed: int, start: int, stop: int) -> Path:
        """Where the chunk ``[start, stop)`` of ``seed`` at ``table`` is filed."""
        key = digest({"code": code_version(), "table": table_digest(table), "seed": seed,
                      "start": start, "stop": stop})
        return self.root / key[:2] / f"{key}.npz"

    def load(self, table: TableSpec, seed: int, start: int, stop: int) -> Chunk | None:
        """The stored chunk, or ``None`` if it was never finished."""
        path = self.path(table, seed, start, stop)
        try:
            with np.load(path) as stored:
                seat = {k[5:]: stored[k] for k in stored.files if k.startswith("seat/")}
                game = {k[5:]: stored[k] for k in stored.files if k.startswith("game/")}
        except (OSError, ValueError, zipfile.BadZipFile):
            return None
        return Chunk(start, seat, game)

    def store(self, table: TableSpec, seed: int, chunk: Chunk) -> None:
        """File a finished chunk."""
        path = self.path(table, seed, chunk.first_game, chunk.first_game + chunk.games)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"seat/{k}": v for k, v in chunk.seat.items()}
        arrays |= {f"game/{k}": v for k, v in chunk.game.items()}
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")
        with open(partial, "wb") as file:
            np.savez(file, **arrays)
        os.replace(partial, path)
