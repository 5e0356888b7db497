"""The HTML report pages: one self-contained file with its figures embedded and links to other
report pages, and tables that sort by a header click (checked in headless Chromium)."""

import base64
import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from cakesim.engine.errors import InputError
from cakesim.reports.html import write_html, write_index_html

CHROMIUM = Path("/usr/bin/chromium")
# Offline and quiet: no sandbox (root in a container), no GPU, nothing fetched in the background.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]

REPORT = """# Tiny report

**Question.** Does the `tuned` player win? See [the other report](../other/report.md#answer).

## Answer

| strategy | win share |
|---|---|
| greedy | 9.5 % [9.0, 10.0] |
| tuned | 10.2 % [9.8, 10.6] |
| random | -2.7 ± 0.5 |
| search-deep | — |
| search | 1,200 |

![win share](plot.png)

## Games

| seat | games |
|---|---|
| seat 10 | 40,000 |
| seat 2 | 600 |

    cakesim run experiments/tiny.toml --seed 1
"""

# The win-share column sorted up and down: by the first number, and "—" below either way.
ASCENDING = ["-2.7 ± 0.5", "9.5 % [9.0, 10.0]", "10.2 % [9.8, 10.6]", "1,200", "—"]
DESCENDING = ["1,200", "10.2 % [9.8, 10.6]", "9.5 % [9.0, 10.0]", "-2.7 ± 0.5", "—"]


@pytest.fixture
def report(tmp_path) -> Path:
    """``reports/tiny/report.md`` with one small PNG figure beside it."""
    folder = tmp_path / "reports" / "tiny"
    folder.mkdir(parents=True)
    fig = Figure(figsize=(2, 1.5))
    fig.subplots().plot([0, 1], [1, 0])
    fig.savefig(folder / "plot.png", dpi=40)
    path = folder / "report.md"
    path.write_text(REPORT, encoding="utf-8")
    return path


def test_the_page_embeds_its_figure_and_loads_nothing_from_outside(report):
    page = write_html(report)
    assert page == report.parent / "report.html"
    text = page.read_text(encoding="utf-8")
    embedded = re.search(r'src="data:image/png;base64,([^"]+)"', text)
    assert embedded, "the figure is not embedded as a data URI"
    assert base64.b64decode(embedded.group(1)) == (report.parent / "plot.png").read_bytes()
    for outside in ('src="http', "src='http", 'href="http', "<link", 'src="plot.png"',
                    "<script src", "@import", "url("):
        assert outside not in text
    assert "<title>Tiny report</title>" in text
    assert text.count("<table>") == 2 and "<script>" in text and "<style>" in text
    assert '<a href="#answer">Answer</a>' in text and '<h2 id="answer">Answer</h2>' in text
    assert "<pre><code>cakesim run experiments/tiny.toml --seed 1" in text


def test_links_to_reports_point_at_their_pages(report, tmp_path):
    text = write_html(report).read_text(encoding="utf-8")
    assert 'href="../other/report.html#answer"' in text
    root = tmp_path / "reports"
    (root / "index.md").write_text(
        "# cakesim reports\n\n| experiment | answer |\n|---|---|\n"
        "| [Tiny](tiny/report.md) | yes |\n\nRules: [the rules](https://example.org/report.md)."
        "\n", encoding="utf-8")
    index = write_index_html(root)
    assert index == root / "index.html"
    text = index.read_text(encoding="utf-8")
    assert '<a href="tiny/report.html">Tiny</a>' in text
    # A link to a page elsewhere is followed by the reader, never loaded: it stays as written.
    assert 'href="https://example.org/report.md"' in text


def test_a_missing_figure_names_the_report_and_the_image(report):
    (report.parent / "plot.png").unlink()
    with pytest.raises(InputError) as error:
        write_html(report)
    assert str(report) in str(error.value) and "plot.png" in str(error.value)
    assert not (report.parent / "report.html").exists()


def test_a_figure_given_by_address_is_refused(report):
    report.write_text("# Remote\n\n![plot](https://example.org/plot.png)\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"example\.org/plot\.png"):
        write_html(report)


def test_the_page_works_in_headless_chromium(report):
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: `make browser` installs Debian's chromium package")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="no playwright package: `make install` then `make browser`")
    page_path = write_html(report)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors, requests = [], []
            page.on("console", lambda message: message.type == "error"
                    and errors.append(message.text))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(page_path.as_uri())

            widths = page.eval_on_selector_all("img", "images => images.map(i => i.naturalWidth)")
            assert widths and all(width > 0 for width in widths)

            shares, games = page.locator("table").nth(0), page.locator("table").nth(1)
            header = shares.locator("th").nth(1)
            header.locator("button").click()
            assert shares.locator("tbody td:nth-child(2)").all_inner_texts() == ASCENDING
            assert header.get_attribute("aria-sort") == "ascending"
            header.locator("button").click()
            assert shares.locator("tbody td:nth-child(2)").all_inner_texts() == DESCENDING
            assert header.get_attribute("aria-sort") == "descending"
            # Each row moves whole: its name goes with its number.
            assert shares.locator("tbody td:nth-child(1)").all_inner_texts()[0] == "search"

            games.locator("th").nth(1).locator("button").click()
            assert games.locator("tbody td:nth-child(2)").all_inner_texts() == ["600", "40,000"]
            assert shares.locator("th[aria-sort]").count() == 1  # each table sorts on its own
            games.locator("th").nth(0).locator("button").click()
            assert games.locator("tbody td:nth-child(1)").all_inner_texts() == ["seat 2",
                                                                                "seat 10"]
            assert games.locator("th").nth(1).get_attribute("aria-sort") is None
        finally:
            browser.close()
    assert errors == []
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
