"""Fitted policies on disk: one TOML file each, the weights and how they were made.

A game with a fitted chooser is ``Trainable``: it records ``Examples`` of its teacher.
A fitted policy is a flat float64 vector a game's kernel reads (its layout is the
game's), fitted by ``tuning.policy`` and written here with its provenance: the command,
the data's seed, size and digest, the fit's held-out quality and the library versions.
Floats are written in their shortest exact form, so a file read back is the vector
written, bit for bit.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import tomli_w

from cakesim.engine.errors import InputError
from cakesim.engine.project import begins_with, shown_path
from cakesim.engine.tables import Table, read_toml

HEADER = ("# A fitted policy, written by `cakesim train` (see [provenance]); the game's\n"
          "# kernel reads [weights].values as one flat vector. Re-make it; do not edit it.\n")


def policy_length(shape: dict[str, int]) -> int:
    """Weights of a one-hidden-layer network of ``shape`` (its ``inputs`` and ``hidden``):
    the first layer with its bias, the output weights and the output bias."""
    return shape["inputs"] * shape["hidden"] + 2 * shape["hidden"] + 1


@dataclass(frozen=True)
class Examples:
    """Candidate moves, one row each: their inputs, the teacher's value, their decision."""

    inputs: np.ndarray
    """(rows, inputs) float32: the network's inputs of each candidate."""
    values: np.ndarray
    """(rows,) float64: the teacher's value of each candidate."""
    decisions: np.ndarray
    """(rows,) int64: the decision each candidate belongs to, non-decreasing; a
    decision's first candidate is the game's heuristic move."""

    @staticmethod
    def joined(parts: "list[Examples]") -> "Examples":
        """The parts one after another, their decisions numbered on."""
        offset, numbered = 0, []
        for part in parts:
            numbered.append(part.decisions + offset)
            offset += int(part.decisions.max()) + 1 if part.decisions.size else 0
        return Examples(np.concatenate([p.inputs for p in parts]),
                        np.concatenate([p.values for p in parts]), np.concatenate(numbered))


class Trainable(ABC):
    """A game with a fitted chooser (``cakesim train``)."""

    teacher: str
    """The named strategy whose choices the fitted chooser learns (every seat plays it)."""

    @abstractmethod
    def training_examples(self, players: int, seed: int, first_game: int, games: int,
                          learner: np.ndarray | None = None) -> Examples:
        """The teacher's values of every candidate at its choices in games ``first_game ..
        first_game + games`` of ``seed``: the teacher at every seat, or, given a
        ``learner`` (a fitted policy's weights), in the positions the learner reaches,
        every candidate of each of the learner's choices valued by the teacher."""

    @abstractmethod
    def policy_shape(self, players: int) -> dict[str, int]:
        """The network the kernel reads at ``players`` (``inputs`` and ``hidden`` among
        the entries a policy file records)."""

    @abstractmethod
    def shipped_policy(self, players: int) -> Path:
        """The shipped policy file for ``players``, which the fitted chooser plays."""


def is_policy_file(path: Path) -> bool:
    """Whether ``path`` begins as ``write_policy`` begins a file, so train may write it again."""
    return begins_with(path, HEADER)


def write_policy(path: Path, weights: np.ndarray, shape: dict[str, int],
                 provenance: dict) -> None:
    """Write ``weights`` with the network's ``shape`` and its ``provenance``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = {"policy": shape, "provenance": provenance,
             "weights": {"values": [float(w) for w in weights]}}
    path.write_text(HEADER + tomli_w.dumps(table))


def read_policy(path: Path, shape: dict[str, int]) -> np.ndarray:
    """The weights of the policy file ``path``, which must be of ``shape`` (exit 2 naming
    the file and key otherwise)."""
    shown = shown_path(path)
    if not path.exists():
        raise InputError(shown, "(file)", "no fitted policy here; make one with "
                                          "`cakesim train`")
    data = Table(read_toml(path, "fitted policy"), shown)
    data.only(["policy", "provenance", "weights"])
    data.sub("provenance")
    written = data.sub("policy")
    written.only(list(shape))
    for name, value in shape.items():
        if written.get(name, int) != value:
            raise written.error(name, f"is {written.get(name, int)}, but this table needs "
                                      f"{value}: the policy was fitted for another table; "
                                      f"allowed: {value} (re-make it with `cakesim train`)")
    weights = data.sub("weights")
    weights.only(["values"])
    values = weights.get("values", list)
    size = policy_length(shape)
    if len(values) != size or not all(isinstance(v, float) for v in values):
        raise weights.error("values", f"must be {size} floats, one per weight "
                                      f"(inputs x hidden + 2 x hidden + 1)")
    vector = np.array(values, dtype=np.float64)
    if not np.all(np.isfinite(vector)):
        raise weights.error("values", "must be finite numbers")
    return vector
