"""The Numba kernel and the reference engine play the very same games, metric for metric.

Every player count and variant, random and greedy tables, duplicate deals on and off,
mixed tables, weights off their defaults, the voluntary exchange rule, and both readings
of when a cube that fits no jar goes to the exchange jar, of the end's cubes and of where
a miss beyond the outermost offset lands. The reference
plays each game on its own from (seed, game); the kernel plays a batch in one call.
"""

import pytest

from cakesim.games.topp_die_torte import kernel
from cakesim.games.topp_die_torte.reference import play_game
from cakesim.games.topp_die_torte.rules import VARIANTS, TableRules, parse_rules
from tests.games.topp_die_torte.conftest import (
    GREEDY,
    RANDOM,
    RULES,
    kernel_results,
    published_data,
    published_tiles,
    weighted,
)

CAREFUL = weighted("careful", hedge=0.7, deny_weight=1.5, aim_error=0.0)
SHAKY = weighted("shaky", top_weight=2.0, fill_weight=-1.0, size_weight=3.0, aim_error=2.5)
TRADER = weighted("trader", exchange_threshold=0.8)
ODD = weighted("odd", draft="random", jars="greedy", aim="best", exchange_threshold=0.8,
               hedge=0.3, golden_weight=3.0)
WILD_JARS = weighted("wild-jars", jars="random", aim="random", exchange_weight=1.5)
VOLUNTARY = RULES.with_overrides(exchange_rule="voluntary")


def assert_parity(table: TableRules, strategies, seed: int, first: int, games: int,
                  duplicate: bool) -> None:
    results = kernel_results(table, strategies, seed, first, games, duplicate)
    for g in range(games):
        reference = play_game(table, strategies, seed, first + g, duplicate)
        for name in kernel.SEAT_RESULTS:
            expected = tuple(int(x) for x in getattr(results, name)[g])
            assert getattr(reference, name) == expected, (table.variant, first + g, name)
        for name in kernel.GAME_RESULTS:
            expected = int(getattr(results, name)[g])
            assert getattr(reference, name) == expected, (table.variant, first + g, name)
        assert reference.scores_by_round[-1] == reference.total


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_variant_and_player_count(players, variant):
    table = RULES.for_table(players, variant)
    assert_parity(table, [GREEDY] * players, 101, 0, 4, duplicate=False)
    assert_parity(table, [RANDOM] * players, 102, 5, 4, duplicate=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("duplicate", [False, True])
def test_mixed_tables_and_weights(players, duplicate):
    table = RULES.for_table(players, "base")
    mixed = [RANDOM, GREEDY, CAREFUL, SHAKY][:players]
    assert_parity(table, mixed, 201, 0, 8, duplicate)
    assert_parity(table, [SHAKY, CAREFUL, WILD_JARS, ODD][:players], 202, 40, 8, duplicate)


@pytest.mark.parametrize("variant", ["base", "no-exchange", "no-die", "scarce", "rotate"])
@pytest.mark.parametrize("players", [2, 4])
def test_voluntary_exchange(players, variant):
    table = VOLUNTARY.for_table(players, variant)
    assert_parity(table, [TRADER, ODD, GREEDY, RANDOM][:players], 301, 0, 6, players == 4)
    assert_parity(table, [TRADER] * players, 302, 9, 4, False)


def test_the_voluntary_exchange_is_played():
    # The trader puts cubes that fit a blue jar into the exchange jar: more trades than
    # under the leftover rule, on the same deals.
    def trades(rules):
        table = rules.for_table(4, "base")
        return sum(play_game(table, [TRADER] * 4, 303, g).exchanges for g in range(6))

    assert trades(VOLUNTARY) > trades(RULES)


@pytest.mark.parametrize(("misfit_cubes", "end_cubes"),
                         [("last", "golden"), ("first", "any-colour"), ("first", "golden")])
@pytest.mark.parametrize("variant", ["base", "no-exchange", "scarce"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_reading_of_the_exchange_and_the_end(players, variant, misfit_cubes, end_cubes):
    # The default readings (last, any-colour) are played by every test above.
    rules = RULES.with_overrides(misfit_cubes=misfit_cubes, end_cubes=end_cubes)
    table = rules.for_table(players, variant)
    assert_parity(table, [GREEDY, RANDOM, SHAKY, WILD_JARS][:players], 501, 0, 6, players == 4)
    voluntary = rules.with_overrides(exchange_rule="voluntary").for_table(players, variant)
    assert_parity(voluntary, [TRADER, ODD, CAREFUL, GREEDY][:players], 502, 7, 4, False)


def test_misfits_sent_at_once_fill_the_exchange_jar_more_often():
    # The earlier reading sends a cube to the exchange jar that a jar emptied later in the
    # layer would have taken: more trades, on the same games.
    def trades(misfit_cubes):
        table = RULES.with_overrides(misfit_cubes=misfit_cubes).for_table(4, "base")
        return kernel_results(table, [GREEDY] * 4, 304, 0, 200).exchanges.sum()

    assert trades("first") > trades("last")


def test_the_end_takes_ordinary_cubes_or_golden_ones():
    # A box without colour cubes and a golden symbol on every tile: only the end scores.
    data = published_data()
    data["cubes"]["supply"] = [0] * 5
    rows = published_tiles()
    for row in rows:
        row["golden"] = "1"
    rules = parse_rules(data, "no_colours.toml", rows, "golden_tiles.csv")
    results = {}
    for end in ("any-colour", "golden"):
        table = rules.with_overrides(end_cubes=end).for_table(2)
        assert_parity(table, [GREEDY, RANDOM], 601, 0, 4, duplicate=False)
        results[end] = kernel_results(table, [GREEDY] * 2, 601, 0, 4)
    # Cubes of any colour: the supply has none, every symbol is short. Golden cubes: 12 in
    # the box, back in the supply whenever a jar empties, so fewer are short.
    assert (results["any-colour"].total == 0).all() and (results["golden"].total > 0).all()
    assert (results["any-colour"].shortfall > results["golden"].shortfall).all()


@pytest.mark.parametrize("golden_needs_connection", [False, True])
@pytest.mark.parametrize("variant", ["base", "scarce", "rotate"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_miss_beyond_the_edge_that_connects_nothing(players, variant,
                                                      golden_needs_connection):
    # The default ("edge") is played by every test above. Shaky and random aims miss
    # beyond the edge often; the careful player's hedged aim weighs such a miss as nothing.
    data = published_data()
    data["placement"].update(miss_beyond="nothing",
                             golden_needs_connection=golden_needs_connection)
    rules = parse_rules(data, "nothing.toml", published_tiles(), "tiles.csv")
    table = rules.for_table(players, variant)
    assert_parity(table, [SHAKY, WILD_JARS, CAREFUL, RANDOM][:players], 701, 0, 6,
                  players == 4)
    assert_parity(table, [weighted("hedged", hedge=1.0, aim_error=2.0), ODD, GREEDY,
                          SHAKY][:players], 702, 9, 4, False)


def test_a_miss_beyond_the_edge_changes_a_game_only_from_where_one_happens():
    # Players who do not hedge aim alike under both readings: a game is the same game up to
    # its first layer that lands beyond the edge, which "edge" lays on the edge instead.
    beyond = 0
    for g in range(12):
        logs = {reading: play_game(RULES.with_overrides(miss_beyond=reading).for_table(3),
                                   [GREEDY] * 3, 703, g).log
                for reading in ("edge", "nothing")}
        far = [i for i, m in enumerate(logs["nothing"])
               if m.action == "lay" and abs(m.offset) > RULES.max_offset]
        if not far:
            assert logs["nothing"] == logs["edge"]
            continue
        beyond += 1
        first = far[0]
        assert logs["nothing"][:first] == logs["edge"][:first]
        nothing, edge = logs["nothing"][first], logs["edge"][first]
        assert nothing.connected == () and (edge.tile, edge.target) == (nothing.tile,
                                                                       nothing.target)
        assert edge.offset == max(-RULES.max_offset, min(nothing.offset, RULES.max_offset))
    assert 0 < beyond < 12


def test_nested_luck_blocks_share_the_deal():
    # The luck section's nested deals: consecutive deals share tiles and chips.
    from dataclasses import replace
    table = replace(RULES.for_table(3, "base"), tile_repeat=4, chip_repeat=2)
    assert_parity(table, [GREEDY, SHAKY, RANDOM], 401, 0, 8, duplicate=False)
