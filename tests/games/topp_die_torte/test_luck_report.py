"""The ``[luck]`` section's variance split recovers known components from synthetic scores."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from cakesim.games.topp_die_torte import luck_report
from cakesim.games.topp_die_torte.luck_report import CHIP_BLOCK, SOURCES, TILE_BLOCK


class _Table:
    def __init__(self, players: int):
        self.players = players
        self.duplicate = True
        self.games_per_deal = players
        self.label = f"{players}P mixed skill"
        self.options = (luck_report.NESTED,)
        self.strategies = ()


class _Run:
    """Just what ``luck_report`` reads of a table's run: its table and every game's rows."""

    def __init__(self, players: int, rows: pd.DataFrame):
        self.table = _Table(players)
        self.rows = rows
        self.rows_complete = True
        self.totals = SimpleNamespace(deals=(rows["deal"].max() + 1) // TILE_BLOCK)


def synthetic_run(blocks: int, sd: dict[str, float], player_means: list[float],
                  seed: int = 0) -> _Run:
    """Scores = player mean + tile effect + chip effect + noise, per seat and rotation."""
    rng = np.random.default_rng(seed)
    players = len(player_means)
    deals = blocks * TILE_BLOCK
    records = []
    for rotation in range(players):
        for seat in range(players):
            player = (seat - rotation) % players
            tiles = np.repeat(rng.normal(0, sd["tiles"], blocks), TILE_BLOCK)
            chips = np.repeat(rng.normal(0, sd["chips"], deals // CHIP_BLOCK), CHIP_BLOCK)
            noise = rng.normal(0, sd["rest"], deals)
            total = player_means[player] + tiles + chips + noise
            for deal in range(deals):
                records.append((deal * players + rotation, deal, seat, total[deal]))
    rows = pd.DataFrame(records, columns=["game", "deal", "seat", "total"])
    return _Run(players, rows)


def test_the_nested_split_recovers_known_components():
    sd = {"tiles": 2.0, "chips": 1.0, "rest": 3.0}
    means = [10.0, 12.0, 14.0]
    scores, seat, player = luck_report._cells(synthetic_run(400, sd, means))
    parts = dict(zip(SOURCES, luck_report._components(scores, seat, player), strict=True))
    assert parts["skill"] == pytest.approx(np.var(means), rel=0.1)
    assert parts["seat"] == pytest.approx(0.0, abs=0.05)
    assert parts["tiles"] == pytest.approx(sd["tiles"] ** 2, rel=0.15)
    assert parts["chips"] == pytest.approx(sd["chips"] ** 2, rel=0.15)
    assert parts["aim and die"] == pytest.approx(sd["rest"] ** 2, rel=0.05)


def test_a_source_without_effect_gets_no_share_and_the_interval_covers_the_truth():
    sd = {"tiles": 0.0, "chips": 1.5, "rest": 1.5}
    run = synthetic_run(120, sd, [5.0, 5.0])
    found = luck_report._decomposition(run, seed=3)["shares"]
    assert found["tiles"]["value"] < 0.02 and found["skill"]["value"] < 0.02
    truth = 1.5 ** 2 / (2 * 1.5 ** 2)
    for source in ("chips", "aim and die"):
        assert found[source]["low"] <= truth <= found[source]["high"]
    assert sum(found[s]["value"] for s in SOURCES) == pytest.approx(1.0)


def test_luck_every_player_shares_moves_the_points_but_not_the_lead():
    """A deal that brings every seat the same extra points changes nobody's lead."""
    rng = np.random.default_rng(5)
    players, blocks = 3, 60
    deals = blocks * TILE_BLOCK
    common = np.repeat(rng.normal(0, 3.0, blocks), TILE_BLOCK)
    records = []
    for deal in range(deals):
        for rotation in range(players):
            for seat in range(players):
                total = 10 + common[deal] + rng.normal(0, 1.0)
                records.append((deal * players + rotation, deal, seat, total))
    run = _Run(players, pd.DataFrame(records, columns=["game", "deal", "seat", "total"]))
    found = luck_report._decomposition(run, seed=1)
    assert found["shares"]["tiles"]["value"] > 0.8
    assert found["lead_shares"]["tiles"]["value"] < 0.05
