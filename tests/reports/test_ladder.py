"""The ``[ladder]`` section at several player counts, on synthetic runs (no games played):
which counts are ranked, the per-count data, the fit and the ratings where it holds, the
regression numbers, headline, text, plot."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.reports import figures, ladder
from cakesim.stats.ladder import ELO_SCALE, win_chance

WIN_UNITS = 6
TRUTH = {"strong": 0.6, "middle": 0.0, "weak": -0.6}
SEAT = {2: np.array([0.1, -0.1]), 3: np.array([0.2, 0.0, -0.2]),
        4: np.array([0.2, 0.1, -0.1, -0.2])}
"""Each seat's term: the first seat is worth a little more at every count."""


class FakeGame:
    """Just what the ladder asks of a game: win units, and which strategies play alike."""

    win_units = WIN_UNITS

    @staticmethod
    def same_play(a, b, players: int) -> bool:
        # "twin" plays as "strong", but only at three players.
        return a.plays == b.plays and (players == 3 or a.name == b.name)


def _strategy(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, plays="strong" if name == "twin" else name)


def _run(seating: list[str], deals: int, rng, duplicate: bool = True,
         strengths: dict | None = None) -> SimpleNamespace:
    """A table's every game, one row per seat: the winner drawn with chances in proportion
    to ``exp(strength + seat term)`` (``TRUTH`` and ``SEAT``); on duplicate deals slot p
    sits at seat ``(p + r) % P`` in the deal's r-th game, else each keeps its seat."""
    strengths = strengths or TRUTH
    players = len(seating)
    per_deal = players if duplicate else 1
    games = deals * per_deal
    rotation = np.arange(games) % per_deal
    # The slot at each seat of each game.
    player = (np.arange(players)[None, :] - rotation[:, None]) % players
    strength = np.array([strengths["strong" if n == "twin" else n] for n in seating])
    weight = np.exp(strength[player] + SEAT[players][None, :])
    cumulative = np.cumsum(weight / weight.sum(axis=1, keepdims=True), axis=1)
    winner = (rng.random((games, 1)) > cumulative).sum(axis=1)
    units = WIN_UNITS * (np.arange(players)[None, :] == winner[:, None])
    game = np.repeat(np.arange(games), players)
    rows = pd.DataFrame({"game": game, "deal": game // per_deal,
                         "seat": np.tile(np.arange(players), games),
                         "player": player.ravel(), "win_units": units.ravel()})
    label = f"{players}P " + " / ".join(seating)
    table = SimpleNamespace(label=label, players=players, duplicate=duplicate,
                            strategies=tuple(_strategy(n) for n in seating))
    return SimpleNamespace(table=table, rows=rows, rows_complete=True,
                           totals=SimpleNamespace(games=games))


def _runs(names: list[str], players: list[int], deals: int = 3000, seed: int = 1,
          strengths: dict | None = None) -> list:
    rng = np.random.default_rng(seed)
    runs = []
    for count in players:
        cells = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]] if count == 2 \
            else [(a, b) for a in names for b in names if a != b]
        runs += [_run([a] + [b] * (count - 1), deals, rng, strengths=strengths)
                 for a, b in cells]
    return runs


EXPERIMENT = SimpleNamespace(game=FakeGame(), seed=5, section_tables=())
NAMES = ("strong", "middle", "weak")


def _expected_share(a: str, b: str, players: int) -> float:
    """a's share alone against P - 1 copies of b, the mean over the seats it sits at."""
    strength = np.array([TRUTH[a], TRUTH[b]])
    return float(win_chance(strength, SEAT[players], np.array([[0, 1]])).mean())


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
            assert cell["low"] - 0.01 < _expected_share(a, b, 3) < cell["high"] + 0.01
            assert cell["n"] == 3000
    # Six tables at three seats, less two strengths and two seat terms.
    assert three["fit"]["df"] == 6 * 3 - 2 - 2 and three["fit"]["fits"]
    elo = {r["strategy"]: r for r in three["elo"]}
    assert [r["strategy"] for r in three["elo"]] == list(NAMES)
    gap = elo["strong"]["value"] - elo["weak"]["value"]
    assert gap == pytest.approx(ELO_SCALE * 1.2, abs=elo["strong"]["high"] - elo["strong"]["low"])
    assert elo["strong"]["games"] == 4 * 3 * 3000  # four tables of three games a deal
    seats = three["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    for s, truth in zip(seats, SEAT[3], strict=True):
        assert s["low"] < ELO_SCALE * truth < s["high"]
    shares = [s["share_among_equals"] for s in seats]
    assert sum(shares) == pytest.approx(1) and shares[0] > 1 / 3 > shares[2]


def test_the_numbers_keep_the_two_player_names_and_prefix_the_others():
    data = ladder.analyse(EXPERIMENT, _runs(list(NAMES), [2, 3], deals=400),
                          ladder.LadderQuestion(NAMES))
    found = ladder.numbers(data)
    assert {"strong vs middle | win share", "middle vs weak | win share", "Elo | weak",
            "Elo | seat 2", "3P strong vs field of middle | win share",
            "3P weak vs field of strong | win share", "3P Elo | middle",
            "3P Elo | seat 3"} <= set(found)
    assert len(found) == (3 + 3 + 2) + (6 + 3 + 3)
    assert found["3P Elo | strong"]["n"] == 400
    line = ladder.headline(data)
    assert line.startswith("Strategy ladder: at 2 players strong beats every other head to "
                           "head (closest: ") and "; at 3 players strong beats the field of " \
                                                 "every other (closest: " in line
    assert "; Elo " in line
    text = "\n".join(ladder.markdown(data, "ladder.png"))
    assert text.count("## Strategy ladder") == 1
    assert text.index("### Head to head at 2 players") < text.index(
        "### Ratings at 2 players") < text.index("### One against a field at 3 players") \
        < text.index("### Ratings at 3 players")
    assert "fair share of 33.3 % (1/3)" in text and "| alone ↓ / field of → |" in text
    assert "**Fit:** deviance" in text and "| seat | Elo points [95 % CI] |" in text


def test_the_answer_leads_with_the_matrix_and_rates_where_the_model_fits():
    data = ladder.analyse(EXPERIMENT, _runs(list(NAMES), [2, 3], deals=400),
                          ladder.LadderQuestion(NAMES))
    found = ladder.answer(data, {})
    assert found.header == ["players", "strategy", *NAMES, "Elo [95 % CI]"]
    assert [row[:2] for row in found.rows[:3]] == [["2P", "strong"], ["2P", "middle"],
                                                   ["2P", "weak"]]
    three = data["by_players"]["3"]["win_matrix"]
    assert found.rows[3][3] == (f"{100 * three[0][1]['value']:.1f} ± "
                                f"{50 * (three[0][1]['high'] - three[0][1]['low']):.1f}")
    assert found.rows[3][2] == "—"
    assert "one rating with seat terms explains the results: Elo strong " in found.paragraph
    assert "No single rating" not in found.paragraph



def test_where_no_rating_fits_the_report_says_so_and_shows_none(tmp_path):
    # Rock, paper, scissors: each beats the next 70 % of the time head to head.
    rng = np.random.default_rng(3)
    names = ("rock", "scissors", "paper")
    runs = []
    for a, b in (("rock", "scissors"), ("rock", "paper"), ("scissors", "paper")):
        edge = np.log(7 / 3) * (1 if (a, b) != ("rock", "paper") else -1)
        runs.append(_run([a, b], 2000, rng, strengths={a: edge, b: 0.0}))
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(names))
    assert not data["fit"]["fits"] and data["fit"]["deviance"] > 100
    assert data["elo"] == [] and data["seats"] == []
    assert set(ladder.numbers(data)) == {"rock vs scissors | win share",
                                         "rock vs paper | win share",
                                         "scissors vs paper | win share"}
    assert ladder.headline(data) == ("No strategy beats every other head to head and no "
                                     "single rating fits.")
    found = ladder.answer(data, {})
    assert "No single rating explains these results at 2 players (deviance " in found.paragraph
    assert "; largest misfit: " in found.paragraph and " predicted, z = " in found.paragraph
    assert found.header == ["players", "strategy", *names]
    text = "\n".join(ladder.markdown(data, "ladder.png"))
    assert "**No single rating explains these results at 2 players" in text
    assert "| rank |" not in text and "| seat |" not in text
    assert text.index("### Head to head") < text.index("No single rating explains")
    summary = {"title": "Synthetic", "experiment": "synthetic", "seed": 5}
    assert ladder.plot(data, [], summary, tmp_path) == "ladder.png"


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
                                            "other (closest: ")
    text = "\n".join(ladder.markdown(data, "ladder.png"))
    assert "### One against a field at 3 players" in text and "Head to head" not in text
    line = ladder.fit_line(data)
    assert line.startswith("**Fit:** deviance") and " alone in seat " in line
    assert "against the field of" in line


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


def test_tables_off_duplicate_deals_are_named_and_give_no_seat_terms():
    rng = np.random.default_rng(2)
    runs = [_run(s, 200, rng, duplicate=False)
            for s in (["strong", "weak", "weak"], ["weak", "strong", "strong"])]
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(("strong", "weak")))
    assert data["single_deal_tables"] == ["3P strong / weak / weak", "3P weak / strong / strong"]
    assert any(line.startswith("Not on duplicate deals") for line in ladder.markdown(data, "x"))
    # The lone strategies always sit first: two cells, a strength and that seat's odds.
    assert data["fit"]["df"] == 0 and data["fit"]["p_value"] is None
    assert "nothing to test" in ladder.fit_line(data)
    assert [r["strategy"] for r in data["elo"]] == ["strong", "weak"] and data["seats"] == []


def _cycle(players: int, deals: int, rng) -> list:
    """Rock, paper, scissors alone against the field of each other at ``players``: each
    far above its fair share against the one it beats, far below against the other."""
    beats = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
    return [_run([a] + [b] * (players - 1), deals, rng,
                 strengths={a: 1.5 if (a, b) in beats else -1.5, b: 0.0})
            for a in ("rock", "scissors", "paper") for b in ("rock", "scissors", "paper")
            if a != b]


def test_a_ladder_rated_at_one_count_and_not_at_another_says_which(tmp_path):
    rng = np.random.default_rng(4)
    names = ("rock", "scissors", "paper")
    even = {name: 0.0 for name in names}
    runs = [_run([a, b], 1000, rng, strengths=even)
            for a, b in (("rock", "scissors"), ("rock", "paper"), ("scissors", "paper"))]
    data = ladder.analyse(EXPERIMENT, runs + _cycle(3, 1000, rng), ladder.LadderQuestion(names))
    two, three = data["by_players"]["2"], data["by_players"]["3"]
    assert two["fit"]["fits"] and len(two["elo"]) == 3 and len(two["seats"]) == 2
    assert not three["fit"]["fits"] and three["elo"] == [] and three["seats"] == []
    found = ladder.answer(data, {})
    assert found.header[-1] == "Elo [95 % CI]"
    assert [row[-1] for row in found.rows[3:]] == ["no fit"] * 3
    assert "one rating with seat terms explains the results" in found.paragraph
    assert "No single rating explains these results at 3 players" in found.paragraph
    assert "No rating is shown where none fits" in found.paragraph
    assert found.line.endswith("; no single rating fits at 3 players.")
    assert set(ladder.numbers(data)) >= {"Elo | rock", "Elo | seat 2"}
    assert not any(name.startswith("3P Elo") for name in ladder.numbers(data))
    line = ladder.headline(data)
    assert "at 2 players no strategy beats every other head to head, " in line
    assert "at 3 players no strategy beats the field of every other and no single rating " \
           "fits" in line


@pytest.mark.parametrize("cycle", [False, True])
def test_the_plot_has_a_row_of_panels_per_count(tmp_path, monkeypatch, cycle):
    problems = []
    save = Figure.savefig

    def checked(fig, where, **options):
        problems.extend(figures.layout_problems(fig))
        return save(fig, where, **options)

    monkeypatch.setattr(Figure, "savefig", checked)
    runs = _runs(list(NAMES), [2, 3, 4], deals=200)
    names = NAMES
    if cycle:
        # Rated at no count: the heat maps alone.
        runs, names = _cycle(3, 500, np.random.default_rng(5)), ("rock", "scissors", "paper")
    data = ladder.analyse(EXPERIMENT, runs, ladder.LadderQuestion(names))
    summary = {"title": "Synthetic", "experiment": "synthetic", "seed": 5}
    assert ladder.plot(data, [], summary, tmp_path) == "ladder.png"
    assert (tmp_path / "ladder.png").stat().st_size > 10_000
    assert problems == []


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
