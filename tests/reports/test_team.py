"""A team game's report: win rates grouped by table option, and the markdown table."""

from cakesim.reports import team
from cakesim.reports.hooks import ReportColumn
from cakesim.reports.text import percent, plus_minus


def _estimate(value: float, half: float = 0.02) -> dict:
    return {"value": value, "low": value - half, "high": value + half, "n": 100}


def _table(label: str, players: int, level: str, rate: float) -> dict:
    return {"label": label, "players": players, "variant": "signals",
            "options": {"level": level}, "strategies": [{"name": "team"}],
            "games": 1000, "win_rate": _estimate(rate),
            "per_game": {"score": _estimate(30.0, 0.5)}}


SUMMARY = {"tables": [_table("A 2P", 2, "A", 0.9), _table("A 3P", 3, "A", 0.7),
                      _table("B 2P", 2, "B", 0.4)], "comparisons": []}


def test_the_markdown_shows_the_chosen_per_game_means():
    columns = (ReportColumn("score", "mean score"), ReportColumn("stuck", "lost", share=True))
    lines = team.markdown(SUMMARY, columns)
    assert lines[0] == "| table | games | win rate [95 % CI] | mean score | lost |"
    assert lines[2] == (f"| A 2P | 1,000 | {percent(_estimate(0.9))} | "
                        f"{plus_minus(_estimate(30.0, 0.5), 1)} | — |")


def test_text_helpers_write_intervals():
    assert percent(_estimate(0.213, 0.004)) == "21.3 % [20.9, 21.7]"
    assert plus_minus(_estimate(31.2, 0.14)) == "31.20 ± 0.14"
