"""[assumptions]: read strictly, rows placed per headline table, and shown in the report."""

import pytest

from cakesim.app.cli import main
from cakesim.app.experiment import load_experiment
from cakesim.reports import assumptions
from cakesim.reports.summary_file import read_summary

TIE = """
[assumptions.tie_rule]
kind = "reading"
says = "A tied majority scores for every tied player."
other = ["tie_rule=none"]

[assumptions.tiles]
kind = "invented"
says = "Listed only."
"""


def test_a_measured_assumption_replays_every_headline_table_on_its_deals(tiny_experiment):
    experiment = load_experiment(str(tiny_experiment(extra=TIE)))
    question = experiment.sections["assumptions"]
    measured, listed = question.assumptions
    assert [h for h, _ in measured.rows] == [t.label for t in experiment.tables[:4]]
    assert listed.rows == ()
    by_label = dict(zip((t.label for t in experiment.tables), experiment.table_games,
                        strict=True))
    for headline, label in measured.rows:
        other = experiment.table_named(label)
        assert label in experiment.section_tables and by_label[label] == by_label[headline]
        assert other.rules.rules.tie_rule == "none"
        assert experiment.table_named(headline).rules.rules.tie_rule == "full"


@pytest.mark.parametrize(("old", "new", "message"), [
    ('kind = "reading"', 'kind = "guess"',
     "assumptions.tie_rule.kind: 'guess' is not allowed; allowed values: 'reading', "
     "'invented', 'parameter'"),
    ('other = ["tie_rule=none"]', 'other = ["tie_rule=sideways"]',
     "assumptions.tie_rule.other: "),
    ('other = ["tie_rule=none"]', "other = [3]", "assumptions.tie_rule.other: 3 is not allowed"),
    ('says = "Listed only."', 'says = "Listed only."\nsource = "x"',
     "assumptions.tiles.source: unknown key"),
])
def test_a_bad_assumption_names_its_key(tiny_experiment, capsys, old, new, message):
    path = tiny_experiment(extra=TIE.replace(old, new))
    assert main(["run", str(path), "--no-cache", "--out", str(path.parent / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_report_lists_every_assumption_and_sets_the_readings_side_by_side(
        tiny_experiment, tmp_path):
    path = tiny_experiment(games=600, extra=TIE)
    assert main(["run", str(path), "--no-cache", "--out", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "report.md").read_text()
    assert "## Assumptions the answer rests on" in text
    assert "**tiles** (invented by cakesim): Listed only. Not measured" in text
    assert "### If tie_rule reads otherwise" in text
    data = read_summary(tmp_path / "out")["sections"]["assumptions"]
    rows = data["assumptions"][0]["rows"]
    assert len(rows) == 4 and all(r["change"]["method"] == "paired by deal" for r in rows)
    for r in rows:
        moved = r["other"]["value"] - r["published"]["value"]
        assert r["change"]["value"] == pytest.approx(moved)
    assert set(assumptions.numbers(data)) == {
        f"assumptions | tie_rule | {r['table']} | change" for r in rows}


def _data(changes: list[tuple[float, float, float]]) -> dict:
    rows = [{"change": {"value": v, "low": lo, "high": hi}, "depends": abs(v) >= 0.01
             and not lo <= 0 <= hi} for v, lo, hi in changes]
    return {"margin": 0.01, "assumptions": [
        {"name": "tie_rule", "rows": rows, "depends": any(r["depends"] for r in rows)}]}


def test_the_headline_says_which_assumptions_the_answer_depends_on():
    assert "depends on tie_rule" in assumptions.headline(_data([(0.03, 0.02, 0.04)]))
    # A large move that is not clear, or a clear move under the margin: does not depend.
    for change in [(0.03, -0.01, 0.07), (0.005, 0.001, 0.009)]:
        assert "less than 1 pp, or not clearly" in assumptions.headline(_data([change]))
    assert "none of the assumptions listed (tiles) was measured" in assumptions.headline(
        {"margin": 0.01, "assumptions": [{"name": "tiles", "rows": [], "depends": False}]})
