"""Every report plot reads at a glance: titles and legends inside the figure, no legend
over the data. Drawn from the committed reports' summaries, as `cakesim run` draws them."""

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from cakesim.games.speedtorte.report import plot_cards
from cakesim.games.speedtorte.tuning import DEFAULT_TARGETS
from cakesim.reports import contrasts, figures, ladder, skill, team
from cakesim.reports.report import plot_seat_win_share
from cakesim.reports.summary_file import read_summary

REPORTS = Path(__file__).parents[2] / "reports"
SUMMARIES = sorted(p for p in REPORTS.glob("*/summary.json") if p.parent.name != "exploitability")
SECTIONS = {"skill": skill, "ladder": ladder, "contrasts": contrasts}
"""Sections whose plots need only the summary (the others read the runs' rows)."""


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, list[str]]]:
    """Every figure saved, with its layout problems."""
    found = []
    save = Figure.savefig

    def checked(fig, where, **options):
        found.append((fig.get_suptitle(), figures.layout_problems(fig)))
        return save(fig, where, **options)

    monkeypatch.setattr(Figure, "savefig", checked)
    return found


@pytest.mark.parametrize("path", SUMMARIES, ids=lambda p: p.parent.name)
def test_every_report_plot_keeps_titles_and_legends_readable(path, tmp_path, drawn):
    summary = read_summary(path)
    if summary["result_kind"] == "seats":
        plot_seat_win_share(summary, tmp_path / "seats.png")
    else:
        team.plot_win_rate(summary, tmp_path / "win_rate.png", DEFAULT_TARGETS)
    if summary.get("items"):
        plot_cards(summary, tmp_path / "cards.png")
    for name, data in summary.get("sections", {}).items():
        if name in SECTIONS:
            SECTIONS[name].plot(data, [], summary, tmp_path)
    assert drawn
    assert [(name, problems) for name, problems in drawn if problems] == []


def test_the_check_finds_a_legend_over_the_data_and_a_title_outside(tmp_path):
    fig, ax = figures.new_figure()
    ax.plot(range(10), range(10), label="a line")
    ax.legend(loc="center")
    fig.text(1.2, 0.5, "far right")
    assert figures.layout_problems(fig) == ["title 'far right' sticks out of the figure",
                                            "a legend covers the data of an axes"]


def test_one_name_keeps_its_colour():
    colours = figures.Colours(["base", "compensation"])
    assert colours["compensation"] == figures.PALETTE[1]
    assert colours["joker"] == figures.PALETTE[2] and colours["base"] == figures.PALETTE[0]
