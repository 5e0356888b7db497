"""The ``[ladder]`` section at several player counts, on synthetic runs (no games played):
which counts are ranked, the per-count data, the regression numbers, headline, text, plot."""

from types import SimpleNamespace

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.reports import ladder
from cakesim.stats.ladder import ELO_SCALE, win_chance

WIN_UNITS = 6
TRUTH = {"strong": 0.6, "middle": 0.0, "weak": -0.6}


class FakeGame:
    """Just what the ladder asks of a game: win units, and which strategies play alike."""

    win_units = WIN_UNITS

    @staticmethod
    def same_play(a, b, players: int) -> bool:
        # "twin" plays as "strong", but only at three players.
        return a.plays == b.plays and (players == 3 or a.name == b.name)


def _strategy(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, plays="strong" if name == "twin" else name)


def _run(seating: list[str], deals: int, rng, duplicate: bool = True) -> SimpleNamespace:
    """A table's per-deal win units: the Luce model with ``TRUTH``, a game per seat a deal."""
    players = len(seating)
    strength = np.array([TRUTH["strong" if n == "twin" else n] for n in seating])
    chance = np.exp(strength) / np.exp(strength).sum()
    per_deal = players if duplicate else 1
    winners = rng.choice(players, p=chance, size=(deals, per_deal))
    units = np.zeros((deals, players), np.int64)
    for slot in range(players):
        units[:, slot] = WIN_UNITS * (winners == slot).sum(axis=1)
    label = f"{players}P " + " / ".join(seating)
    table = SimpleNamespace(label=label, players=players, duplicate=duplicate,
                            strategies=tuple(_strategy(n) for n in seating))
    return SimpleNamespace(table=table, by_deal=SimpleNamespace(player={"win_units": units},
                                                                deals=deals),
                           totals=SimpleNamespace(games_per_deal=per_deal))


def _runs(names: list[str], players: list[int], deals: int = 3000, seed: int = 1) -> list:
    rng = np.random.default_rng(seed)
    runs = []
    for count in players:
        cells = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]] if count == 2 \
            else [(a, b) for a in names for b in names if a != b]
        runs += [_run([a] + [b] * (count - 1), deals, rng) for a, b in cells]
    return runs


EXPERIMENT = SimpleNamespace(game=FakeGame(), seed=5, section_tables=())
NAMES = ("strong", "middle", "weak")


def test_each_player_count_is_a_ladder_of_its_own_and_two_players_stays_on_top():
    runs = _runs(list(NAMES), [2, 3])
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(NAMES))
    assert list(data["by_players"]) == ["2", "3"] and data["players"] == 2
    assert {k: v for k, v in data.items() if k not in ("by_players", "unranked")} == \
        data["by_players"]["2"]
    three = data["by_players"]["3"]
    assert three["deals"] == 3000 and len(three["tables"]) == 6
    # Cell (i, j) is i alone against two copies of j, against a fair third.
    for i, a in enumerate(NAMES):
        for j, b in enumerate(NAMES):
            cell = three["win_matrix"][i][j]
            if i == j:
                assert cell is None
                continue
            expected = win_chance(np.array([TRUTH[a], TRUTH[b]]), 3)[0, 1]
            assert cell["low"] - 0.01 < expected < cell["high"] + 0.01
            assert cell["n"] == 3000
    elo = {r["strategy"]: r for r in three["elo"]}
    assert [r["strategy"] for r in three["elo"]] == list(NAMES)
    gap = elo["strong"]["value"] - elo["weak"]["value"]
    assert gap == pytest.approx(ELO_SCALE * 1.2, abs=elo["strong"]["high"] - elo["strong"]["low"])
    assert three["fit"]["df"] == 6 - 2 and three["fit"]["fits"]
    assert elo["strong"]["games"] == 4 * 3 * 3000  # four tables of three games a deal


def test_the_numbers_keep_the_two_player_names_and_prefix_the_others():
    data = ladder.analyse(EXPERIMENT, _runs(list(NAMES), [2, 3], deals=400),
                          ladder.LadderQuestion(NAMES))
    found = ladder.numbers(data)
    assert {"strong vs middle | win share", "middle vs weak | win share", "Elo | weak",
            "3P strong vs field of middle | win share", "3P weak vs field of strong | win share",
            "3P Elo | middle"} <= set(found)
    assert len(found) == 3 + 3 + 6 + 3
    assert found["3P Elo | strong"]["n"] == 400
    line = ladder.headline(data)
    assert line.startswith("Strategy ladder: at 2 players strong beats every other head to "
                           "head (Elo ") and "; at 3 players strong beats the field of every " \
                                                "other (Elo " in line
    text = "\n".join(ladder.markdown(data, "ladder.png"))
    assert text.count("## Strategy ladder") == 1
    assert text.index("### Head to head at 2 players") < text.index(
        "### Elo ratings at 2 players") < text.index("### One against a field at 3 players") \
        < text.index("### Elo ratings at 3 players")
    assert "fair share of 33.3 % (1/3)" in text and "| alone ↓ / field of → |" in text
    assert "exp(b_i) / (exp(b_i) + 2 exp(b_j))" in text


def test_a_count_without_every_strategy_is_left_unranked_unless_asked_for():
    runs = _runs(list(NAMES), [2]) + _runs(["strong", "weak"], [3], deals=200)
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(NAMES))
    assert list(data["by_players"]) == ["2"]
    assert data["unranked"] == [{"players": 3, "strategies": ["strong", "weak"]}]
    assert "At 3 players only strong and weak sit at ladder tables" in "\n".join(
        ladder.markdown(data, "ladder.png"))
    with pytest.raises(ValueError, match="the ladder at 3 players lacks games for: strong vs "
                                         "field of middle, middle vs field of strong"):
        ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(NAMES, (3,)))


def test_a_single_count_ladder_at_three_players_reads_as_one():
    data = ladder.analyse(EXPERIMENT, _runs(list(NAMES), [3], deals=300),
                          ladder.LadderQuestion(NAMES))
    assert data["players"] == 3 and list(data["by_players"]) == ["3"]
    assert ladder.headline(data).startswith("At 3 players strong beats the field of every "
                                            "other strategy (fair share 33.3 %): ")
    text = "\n".join(ladder.markdown(data, "ladder.png"))
    assert "### One against a field at 3 players" in text and "Head to head" not in text
    assert "largest gap" in ladder.fit_line(data) and "vs field of" in ladder.fit_line(data)


def test_strategies_that_play_alike_at_that_count_are_merged_there_only():
    names = ("strong", "middle", "twin")
    runs = _runs(list(names), [2, 3], deals=300)
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(names))
    assert data["by_players"]["2"]["strategies"] == ["strong", "middle", "twin"]
    three = data["by_players"]["3"]
    assert three["strategies"] == ["strong", "middle"]
    assert three["merged"] == [{"strategy": "twin", "plays_as": "strong", "players": 3}]
    reasons = {s["table"]: s["reason"] for s in three["skipped_tables"]}
    assert reasons["3P strong / twin / twin"] == "its strategies play alike"
    assert reasons["3P twin / middle / middle"] == ("repeats strong vs field of middle on "
                                                    "the same deals")
    assert "twin plays as strong at 3 players: merged." in ladder.markdown(data, "x.png")


def test_tables_off_duplicate_deals_are_named():
    rng = np.random.default_rng(2)
    runs = [_run(s, 200, rng, duplicate=False)
            for s in (["strong", "weak", "weak"], ["weak", "strong", "strong"])]
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(("strong", "weak")))
    assert data["single_deal_tables"] == ["3P strong / weak / weak", "3P weak / strong / strong"]
    assert any(line.startswith("Not on duplicate deals") for line in ladder.markdown(data, "x"))


def test_the_plot_has_a_row_of_panels_per_count(tmp_path):
    data = ladder.analyse(EXPERIMENT, _runs(list(NAMES), [2, 3, 4], deals=200),
                          ladder.LadderQuestion(NAMES))
    summary = {"title": "Synthetic", "experiment": "synthetic", "seed": 5}
    assert ladder.plot(data, [], summary, tmp_path) == "ladder.png"
    assert (tmp_path / "ladder.png").stat().st_size > 10_000


@pytest.mark.parametrize(("given", "expected"), [
    ({}, ()), ({"players": 3}, (3,)), ({"players": [4, 2]}, (2, 4))])
def test_the_section_reads_its_player_counts(given, expected):
    data = {"strategies": ["a", "b"], **given}
    assert ladder.parse(Table(data, "x.toml", "ladder")).players == expected


@pytest.mark.parametrize(("players", "message"), [
    (1, "out of range"), ([2, 2], "twice"), ([], "at least 1"), ("3", "must be")])
def test_bad_player_counts_name_the_key(players, message):
    with pytest.raises(InputError, match=message) as error:
        ladder.parse(Table({"strategies": ["a", "b"], "players": players}, "x.toml", "ladder"))
    assert "ladder.players" in str(error.value)
