"""A report's summary.json and its side file: the cap, the round trip, the date of a
reproduced report, and errors that name the file."""

import json
import lzma
import math
from pathlib import Path

import pytest

from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.engine.project import strict_json
from cakesim.reports.summary_file import (
    DETAILS,
    SUMMARY_CAP,
    keep_date,
    read_summary,
    write_summary,
)

REPORTS = Path(__file__).parents[2] / "reports"


def _summary(tables: int = 3, config: int = 0) -> dict:
    """A summary like a report's: ``tables`` tables of numbers, a config of ``config`` keys."""
    return {"experiment": "tiny", "title": "Tiny", "headline": "fair", "seed": 5,
            "games_per_table": [600] * tables, "written": "2026-01-01 00:00 UTC",
            "config": {f"key {i}": "x" * 40 for i in range(config)},
            "tables": [{"label": f"{i}P", "seats": [{"value": i / 7, "low": math.nan}]}
                       for i in range(tables)],
            "sections": {"ladder": {"matrix": [[0.5] * 40] * 40}}}


def _as_read(summary: dict) -> dict:
    """What a reader gets back: the summary as strict JSON (NaN as null)."""
    return json.loads(strict_json(summary))


def test_the_numbers_go_to_the_side_file_and_come_back(tmp_path):
    summary = _summary()
    write_summary(tmp_path, summary)
    front = json.loads((tmp_path / "summary.json").read_text())
    assert front["details"] == {"file": DETAILS, "keys": ["tables", "sections"]}
    assert "tables" not in front and front["headline"] == "fair"
    assert read_summary(tmp_path) == _as_read(summary)
    assert read_summary(tmp_path / "summary.json") == _as_read(summary)
    assert read_summary(tmp_path)["tables"][0]["seats"][0]["low"] is None


def test_the_same_summary_gives_the_same_bytes(tmp_path):
    for folder in (tmp_path / "a", tmp_path / "b"):
        folder.mkdir()
        write_summary(folder, _summary())
    for name in ("summary.json", DETAILS):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_summary_json_keeps_under_its_cap(tmp_path):
    summary = _summary(tables=2000, config=6000)
    assert len(strict_json(summary)) > 2 * SUMMARY_CAP
    write_summary(tmp_path, summary)
    front = json.loads((tmp_path / "summary.json").read_text())
    assert (tmp_path / "summary.json").stat().st_size <= SUMMARY_CAP
    assert front["details"]["keys"] == ["tables", "sections", "config"]
    assert front["games_per_table"] == [600] * 2000  # what the index lists stays
    assert read_summary(tmp_path) == _as_read(summary)


def test_a_summary_without_details_has_no_side_file(tmp_path):
    write_summary(tmp_path, _summary())
    write_summary(tmp_path, {"experiment": "x", "headline": "h"})
    assert not (tmp_path / DETAILS).exists()
    assert read_summary(tmp_path) == {"experiment": "x", "headline": "h"}


@pytest.mark.parametrize(("damage", "named", "says"), [
    (lambda folder: (folder / DETAILS).unlink(), DETAILS, "missing"),
    (lambda folder: (folder / DETAILS).write_bytes(b"not xz"), DETAILS, "unreadable"),
    (lambda folder: (folder / DETAILS).write_bytes((folder / DETAILS).read_bytes()[:40]),
     DETAILS, "unreadable"),
    (lambda folder: (folder / DETAILS).write_bytes(lzma.compress(b"{}")), DETAILS,
     "tables, sections: missing"),
    (lambda folder: (folder / "summary.json").write_text("{"), "summary.json", "unreadable"),
    (lambda folder: (folder / "summary.json").unlink(), "summary.json", "missing"),
])
def test_a_missing_or_broken_file_is_named(tmp_path, damage, named, says):
    write_summary(tmp_path, _summary())
    damage(tmp_path)
    with pytest.raises(InputError, match=says) as error:
        read_summary(tmp_path)
    assert error.value.source == str(tmp_path / named)


def test_make_reports_names_a_broken_side_file_and_exits_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "experiments").mkdir()
    folder = tmp_path / "reports" / "tiny"
    folder.mkdir(parents=True)
    write_summary(folder, _summary())
    (folder / DETAILS).write_bytes(b"broken")
    monkeypatch.chdir(tmp_path)
    assert main(["reports"]) == 2
    err = capsys.readouterr().err
    assert str(folder / DETAILS) in err and "unreadable" in err and "Traceback" not in err


def test_a_reproduced_report_keeps_its_date(tmp_path):
    write_summary(tmp_path, _summary())
    again = _summary() | {"written": "2026-02-02 00:00 UTC"}
    keep_date(tmp_path, again)
    assert again["written"] == "2026-01-01 00:00 UTC"
    changed = _summary() | {"written": "2026-02-02 00:00 UTC", "seed": 6}
    keep_date(tmp_path, changed)
    assert changed["written"] == "2026-02-02 00:00 UTC"
    (tmp_path / DETAILS).write_bytes(b"broken")
    keep_date(tmp_path, again := _summary() | {"written": "2026-03-03 00:00 UTC"})
    assert again["written"] == "2026-03-03 00:00 UTC"


def test_every_committed_summary_is_under_its_cap_and_reads_whole():
    paths = sorted(REPORTS.glob("*/summary.json"))
    assert paths
    for path in paths:
        assert path.stat().st_size <= SUMMARY_CAP, path
        summary = read_summary(path.parent)
        assert "details" not in summary and summary["headline"]
        if path.parent.name != "exploitability":
            assert summary["tables"], path
