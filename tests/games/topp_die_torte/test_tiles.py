"""The committed tile list is the documented recipe's output, byte for byte."""

from cakesim.games.topp_die_torte import make_tiles
from cakesim.games.topp_die_torte.rules import load_rules


def test_the_recipe_reproduces_tiles_csv():
    assert make_tiles.generate_tiles().encode() == make_tiles.PATH.read_bytes()


def test_the_recipe_depends_on_its_seed():
    assert make_tiles.generate_tiles(make_tiles.SEED + 1) != make_tiles.generate_tiles()


def test_the_recipe_keeps_its_promises():
    rules = load_rules()
    assert len(rules.tile_ids) == make_tiles.TILES
    assert sum(rules.tile_golden) == make_tiles.GOLDEN_TILES
    for t in range(len(rules.tile_ids)):
        assert len(rules.tile_text(t)) == make_tiles.SLOTS
        assert any(rules.tile_sugar[t])
        assert all(1 <= e - s + 1 <= 3 for s, e in zip(rules.tile_start[t], rules.tile_end[t],
                                                       strict=True))
        assert all(0 <= n <= 2 for n in rules.tile_sugar[t])
