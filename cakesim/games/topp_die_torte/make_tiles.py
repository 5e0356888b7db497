"""The default tile set: 40 layer tiles generated once from a documented seed and recipe.

The box's tile faces are not published, so cakesim ships a model set (RULES.md section 4,
"Default model") made by this recipe and committed as ``tiles.csv``, where a designer
can read every tile or replace the file with the real ones. ``tests`` regenerate it and
compare, so the file and the recipe cannot drift apart.

Recipe, per tile, with ``numpy.random.default_rng(SEED)``:

- the five colours in a random order across the tile;
- each stripe 1, 2 or 3 slots wide (probabilities ``WIDTHS``), redrawn until the five fit;
- the empty slots shared at random among the six gaps (before, between and after the
  stripes; every way of sharing them equally likely);
- on each stripe 0, 1 or 2 sugar symbols (``SUGAR``), redrawn until the tile has one;
- ``GOLDEN_TILES`` of the 40 tiles, chosen at random, carry one golden symbol.

Run ``python -m cakesim.games.topp_die_torte.make_tiles`` to write the file again.
"""

import csv
import io
from pathlib import Path

import numpy as np

SEED = 2024
"""The year the game was published."""
TILES = 40
SLOTS = 14
"""As wide as the plate (``BB.PP.GG.VV.OO``)."""
LETTERS = "BPGVO"
WIDTHS = {1: 0.2, 2: 0.45, 3: 0.35}
SUGAR = {0: 0.15, 1: 0.45, 2: 0.4}
GOLDEN_TILES = 10
PATH = Path(__file__).with_name("tiles.csv")


def _tile(rng: np.random.Generator) -> tuple[str, str]:
    """One tile's slot text and sugar symbols."""
    order = rng.permutation(len(LETTERS))
    while True:
        widths = rng.choice(list(WIDTHS), size=len(LETTERS), p=list(WIDTHS.values()))
        if widths.sum() <= SLOTS:
            break
    # Stars and bars: the empty slots among six gaps, every composition equally likely.
    empty = SLOTS - int(widths.sum())
    bars = np.sort(rng.choice(empty + len(LETTERS), size=len(LETTERS), replace=False))
    gaps = np.diff(np.concatenate(([-1], bars, [empty + len(LETTERS)]))) - 1
    text = ""
    for gap, colour, width in zip(gaps, order, widths, strict=False):
        text += "." * gap + LETTERS[colour] * width
    text += "." * gaps[-1]
    while True:
        symbols = rng.choice(list(SUGAR), size=len(LETTERS), p=list(SUGAR.values()))
        if symbols.any():
            break
    sugar = " ".join(f"{LETTERS[c]}{symbols[i]}" for i, c in enumerate(order) if symbols[i])
    return text, sugar


def generate_tiles(seed: int = SEED) -> str:
    """The tile file's text, as the recipe above makes it from ``seed``."""
    rng = np.random.default_rng(seed)
    tiles = [_tile(rng) for _ in range(TILES)]
    golden = set(rng.choice(TILES, size=GOLDEN_TILES, replace=False).tolist())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "slots", "sugar", "golden"])
    for index, (text, sugar) in enumerate(tiles):
        writer.writerow([f"T{index + 1:02d}", text, sugar, int(index in golden)])
    return out.getvalue()


if __name__ == "__main__":
    PATH.write_text(generate_tiles())
    print(f"wrote {PATH}")
