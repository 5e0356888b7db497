"""The answer a report opens with: what each kind says, in words, from a summary."""

from pathlib import Path

import pytest

from cakesim.app.experiment import load_experiment
from cakesim.engine.errors import InputError
from cakesim.reports import answer, contrasts, skill
from cakesim.reports.answer import seat_bias, win_rate, worst_seat
from cakesim.reports.summary_file import read_summary


def _estimate(value: float, half: float = 0.01) -> dict:
    return {"value": value, "low": value - half, "high": value + half, "n": 1000}


def _seat(name: str, share: float, players: int, word: str) -> dict:
    return {"name": name, "win_share": _estimate(share),
            "verdict": {"word": word, "gap": _estimate(share - 1 / players)}}


def _table(label: str, players: int, variant: str, shares: list[float], words: list[str],
           strategy: str = "tuned", control: bool = False, headline: bool = True) -> dict:
    names = ["first waiter", *[f"seat {k}" for k in range(2, players + 1)]]
    return {"label": label, "players": players, "variant": variant, "control": control,
            "headline": headline, "strategies": [{"name": strategy}],
            "seats": [_seat(n, s, players, w)
                      for n, s, w in zip(names, shares, words, strict=True)]}


def _summary() -> dict:
    tables = [
        _table("2P base tuned", 2, "base", [0.47, 0.53], ["disadvantaged", "advantaged"]),
        _table("4P base tuned", 4, "base", [0.16, 0.30, 0.27, 0.27],
               ["disadvantaged", "advantaged", "advantaged", "advantaged"]),
        _table("4P compensation tuned", 4, "compensation", [0.34, 0.22, 0.22, 0.22],
               ["advantaged", "disadvantaged", "disadvantaged", "disadvantaged"]),
        _table("5P base greedy", 5, "base", [0.2, 0.096, 0.3, 0.2, 0.204],
               ["fair", "disadvantaged", "advantaged", "fair", "fair"], "greedy",
               headline=False),
        _table("5P base random control", 5, "base", [0.01, 0.2, 0.2, 0.2, 0.39],
               ["disadvantaged", "fair", "fair", "fair", "advantaged"], "random",
               control=True, headline=False),
    ]
    comparison = {"table": "4P compensation tuned", "base": "4P base tuned",
                  "variant": "compensation",
                  "first_seat_win_share_difference": {"method": "paired by deal",
                                                      **_estimate(0.18)}}
    return {"tables": tables, "comparisons": [comparison], "base_variant": "base",
            "margin": 0.01}


def test_the_seat_bias_answer_says_what_a_variant_does_and_names_the_worst_seat():
    found = seat_bias(_summary())
    assert "behind at 2P (47.0 %, -3.0 pp) and 4P (16.0 %, -9.0 pp)" in found.paragraph
    # 16 % -> 34 % against a fair 25 %: the gap changes sign and exceeds the margin.
    assert "at 4P from 16.0 to 34.0 % (+18.0 pp: over-corrects)" in found.paragraph
    assert found.rows[2][5] == "+18.0 pp [+17.0, +19.0]" and found.rows[1][5] == "—"
    # Measured against its fair share, 9.6 % of 20 % is the worst: a control is never it.
    assert found.paragraph.endswith("Worst seat: seat 2 at 5P base greedy wins 9.6 % "
                                    "against a fair 20.0 % (-10.4 pp [-11.4, -9.4]; 48 % of "
                                    "its fair share).")
    assert "Worst seat: seat 2 at 5P base greedy" in found.line
    assert [row[0] for row in found.rows] == ["2P base tuned", "4P base tuned",
                                              "4P compensation tuned", "5P base greedy"]


def test_a_variant_that_reaches_fair_fixes_the_gap():
    summary = _summary()
    summary["tables"][2]["seats"][0]["verdict"]["word"] = "fair"
    assert "fixes it" in seat_bias(summary).paragraph


def test_controls_are_explained_once_when_present():
    class Game:
        from cakesim.engine.contract import ResultKind
        result_kind = ResultKind.SEATS  # and no report hooks of its own

    found = answer.answer("seat_bias", Game(), _summary(), {})
    assert found.paragraph.lower().count("control") == 1
    assert worst_seat(_summary()) in found.paragraph


def _team(label: str, players: int, level: str, rate: float) -> dict:
    return {"label": label, "players": players, "variant": "signals",
            "options": {"level": level}, "strategies": [{"name": "team"}],
            "win_rate": _estimate(rate)}


def test_the_win_rate_answer_tables_levels_by_player_count_and_sums_up_variants():
    summary = {"tables": [_team("A 2P", 2, "A", 0.9), _team("A 3P", 3, "A", 0.7),
                          _team("B 2P", 2, "B", 0.4)],
               "base_variant": "signals",
               "comparisons": [{"variant": "silence", "table": "A 3P",
                                "win_rate_difference": _estimate(-0.05, 0.02)}]}
    found = win_rate(summary)
    assert found.header == ["level", "2P", "3P"]
    assert found.rows[1] == ["B", "40.0 % [39.0, 41.0]", "—"]
    assert "from 90 % (A 2P) down to 40 % (B 2P)" in found.paragraph
    assert ("Silence instead of signals (team bakers) changes the win rate by -5.0 to "
            "-5.0 pp (paired by deal over 1 tables; 1 clearly non-zero)") in found.paragraph


def test_the_contrast_answer_groups_pairs_by_what_they_compare():
    pair = {"player": 1, "score": _estimate(1.0, 0.1)}
    data = {"contrasts": [
        {**pair, "table": "2P base keeps", "against": "2P base eats",
         "win_share": _estimate(0.3)},
        {**pair, "table": "3P base keeps", "against": "3P base eats",
         "win_share": _estimate(0.005)}]}
    found = contrasts.answer(data, {})
    assert found.paragraph == ("Player 1's win share, keeps rather than eats: +30.0 pp at "
                               "2P, +0.5 pp at 3P (1 not clearly different from 0).")
    assert len(found.rows) == 2


def test_skill_robustness_can_be_the_answer():
    summary = read_summary(Path(__file__).parents[2] / "reports" / "first_player_bias")
    data = summary["sections"]["skill"]
    found = skill.answer(data, summary)
    assert [row[0] for row in found.rows] == data["strengths"]
    assert found.line == skill.headline(data)


def test_an_unknown_answer_kind_names_the_key_and_the_kinds_allowed(tmp_path):
    text = (Path(__file__).parents[2] / "experiments" / "finisher_value.toml").read_text()
    path = tmp_path / "wrong.toml"
    path.write_text(text.replace('answer = "contrasts"', 'answer = "elo"'))
    with pytest.raises(InputError, match=r"answer.*'seat_bias', 'contrasts', 'skill'"):
        load_experiment(str(path))


def _first_seat(word: str, gap: float) -> dict:
    return {"seats": [{"verdict": {"word": word, "gap": {"value": gap}}}]}


@pytest.mark.parametrize(("before", "after", "difference", "said"), [
    (("disadvantaged", -0.05), ("fair", 0.0), (0.04, 0.06), "fixes it"),
    (("fair", 0.0), ("fair", 0.004), (0.001, 0.007), "still fair"),
    (("inconclusive", 0.006), ("fair", 0.0), (-0.009, -0.003), "now fair"),
    (("fair", 0.0), ("advantaged", 0.14), (0.12, 0.16), "advantages it"),
    (("fair", 0.0), ("disadvantaged", -0.02), (-0.03, -0.01), "disadvantages it"),
    (("below", -0.016), ("advantaged", 0.036), (0.04, 0.06), "over-corrects"),
    (("advantaged", 0.10), ("advantaged", 0.05), (-0.06, -0.04), "narrows the gap"),
    (("fair", 0.0), ("advantaged", 0.02), (-0.01, 0.05), "no clear change"),
    (("inconclusive", 0.006), ("inconclusive", 0.001), (-0.007, -0.003), "disadvantages it"),
])
def test_a_variants_effect_on_the_first_seat_is_named_by_both_verdicts(before, after,
                                                                      difference, said):
    low, high = difference
    shift = {"value": (low + high) / 2, "low": low, "high": high}
    assert answer._effect(_first_seat(*before), _first_seat(*after), shift, 0.01) == said
