"""Each ``report.md`` as one self-contained ``report.html``: figures embedded, tables sortable.

A designer can mail or open the page anywhere: it loads nothing from a server or the network.
The markdown is converted by Python-Markdown; a tree processor then embeds every image as a
base64 ``data:`` URI and points links to other reports at their HTML pages. A short inline
script makes every table sortable by clicking a column header.
"""

import base64
import html
import mimetypes
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit, urlunsplit
from xml.etree import ElementTree

import markdown
from markdown.treeprocessors import Treeprocessor

from cakesim.engine.errors import InputError

# Markdown files that get an HTML page of their own, so links to them can point at the page.
RENDERED = {"report.md", "index.md"}

# A long contents list (the ladders have hundreds of sections) starts folded.
OPEN_CONTENTS_UP_TO = 24

# Table cells up to this many characters never wrap, so that a number and its interval
# ("+9.7 pp [+8.8, +10.7]") or a name ("greedy-balanced") stay on one line.
ONE_LINE_CELL = 30

CSS = r"""
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --rule: #d0d7de;
        --stripe: #f6f8fa; --head: #eaeef2; --accent: #0969da; }
body { margin: 0; background: #fff; color: var(--ink);
       font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 74rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
h1 { font-size: 1.8rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.35rem; line-height: 1.3; margin: 2.4rem 0 0.8rem; padding-bottom: 0.3rem;
     border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.1rem; margin: 1.8rem 0 0.6rem; }
p, ul, ol { max-width: 52rem; }
li { margin: 0.25rem 0; }
a { color: var(--accent); }
code { font: 0.88em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
       background: var(--stripe); padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: var(--stripe); padding: 0.75rem 1rem; border-radius: 6px; overflow-x: auto; }
pre code { background: none; padding: 0; white-space: pre; }
img { display: block; max-width: 100%; height: auto; margin: 1rem 0; }
.table-wrap { overflow-x: auto; margin: 1rem 0 1.4rem; }
table { border-collapse: collapse; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--rule); padding: 0.3rem 0.65rem; text-align: left;
         vertical-align: top; }
td { white-space: nowrap; }
td.prose { white-space: normal; }
th { background: var(--head); min-width: 5em; }
tbody tr:nth-child(even) { background: var(--stripe); }
tbody tr:hover { background: #fff8c5; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
th .arrow::after { content: "\00a0\2195"; color: var(--muted); opacity: 0.6; }
th[aria-sort="ascending"] .arrow::after { content: "\00a0\25B2"; color: var(--ink); opacity: 1; }
th[aria-sort="descending"] .arrow::after { content: "\00a0\25BC"; color: var(--ink); opacity: 1; }
nav.contents { background: var(--stripe); border: 1px solid var(--rule); border-radius: 6px;
               padding: 0.5rem 1rem; margin: 1rem 0 1.5rem; font-size: 0.92rem; }
nav.contents summary { cursor: pointer; font-weight: 600; }
nav.contents ul { columns: 17rem; column-gap: 2rem; list-style: none; padding: 0;
                  margin: 0.5rem 0; max-width: none; }
nav.contents li { break-inside: avoid; margin: 0; padding: 0.1rem 0; }
@media print { nav.contents { display: none; } tbody tr:hover { background: none; } }
"""

JS = r"""
// Click a column header to sort the table by that column; click again to reverse.
(() => {
  "use strict";
  // A cell's leading number: "47.3 % [46.8, 47.8]" -> 47.3, "+1.2 pp [...]" -> 1.2,
  // "-2.7 ± 0.5" -> -2.7, "40,000" -> 40000, and a time "3:52" -> 232 seconds.
  const NUMBER = /^([+\-\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?::(\d\d))?/;
  const collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});

  function leadingNumber(text) {
    const match = NUMBER.exec(text);
    if (match === null) return null;
    let value = parseFloat(match[2].replace(/,/g, "") + (match[3] || ""));
    if (match[4] !== undefined) value = 60 * value + parseInt(match[4], 10);
    return match[1] === "" || match[1] === "+" ? value : -value;
  }

  function compareCells(a, b, direction) {
    // Cells with no leading number ("—", "out of reach") stay below the numbers either way.
    if ((a.number === null) !== (b.number === null)) return a.number === null ? 1 : -1;
    if (a.number !== null && a.number !== b.number) return direction * (a.number - b.number);
    return direction * collator.compare(a.text, b.text);
  }

  function sortBy(table, headers, column) {
    const ascending = headers[column].getAttribute("aria-sort") !== "ascending";
    const body = table.tBodies[0];
    const rows = Array.from(body.rows, (row) => {
      const text = row.cells[column] ? row.cells[column].textContent.trim() : "";
      return {row, text, number: leadingNumber(text)};
    });
    rows.sort((a, b) => compareCells(a, b, ascending ? 1 : -1));
    for (const {row} of rows) body.appendChild(row);
    for (const header of headers) header.removeAttribute("aria-sort");
    headers[column].setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  for (const table of document.querySelectorAll("table")) {
    if (table.tHead === null || table.tBodies.length === 0) continue;
    const headers = Array.from(table.tHead.rows[0].cells);
    headers.forEach((header, column) => {
      // The header's content moves into a button, so keyboards and screen readers reach it.
      const button = document.createElement("button");
      button.type = "button";
      button.title = "Sort by this column";
      button.append(...header.childNodes);
      const arrow = document.createElement("span");
      arrow.className = "arrow";
      arrow.setAttribute("aria-hidden", "true");
      button.append(arrow);
      header.append(button);
      button.addEventListener("click", () => sortBy(table, headers, column));
    });
  }
})();
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<main>
{body}
</main>
<script>{js}</script>
</body>
</html>
"""


class SelfContained(Treeprocessor):
    """Embeds images, points report links at HTML pages, marks long cells, notes the title."""

    def __init__(self, md: markdown.Markdown, source: Path):
        super().__init__(md)
        self.source = source
        self.title = source.stem

    def run(self, root: ElementTree.Element) -> None:
        """Rewrite the document tree in place."""
        heading = root.find("h1")
        if heading is not None:
            self.title = "".join(heading.itertext()).strip()
        for image in root.iter("img"):
            image.set("src", self.data_uri(image.get("src", ""), image.get("alt", "")))
        for link in root.iter("a"):
            link.set("href", html_link(link.get("href", "")))
        for cell in root.iter("td"):
            if len("".join(cell.itertext())) > ONE_LINE_CELL:
                cell.set("class", "prose")
        wrap_tables(root)

    def data_uri(self, src: str, alt: str) -> str:
        """The image file ``src`` (relative to the markdown) as a base64 ``data:`` URI."""
        if src.startswith("data:"):
            return src
        shown = f"![{alt}]({src})"
        if urlsplit(src).scheme or src.startswith("//"):
            raise InputError(str(self.source), shown,
                             "images must be files beside the report, not addresses: the page "
                             "loads nothing from the network")
        path = self.source.parent / src
        if not path.is_file():
            raise InputError(str(self.source), shown, f"image file {path} does not exist")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def html_link(href: str) -> str:
    """``href`` with a relative link to a report's markdown pointed at its HTML page."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or PurePosixPath(parts.path).name not in RENDERED:
        return href
    page = str(PurePosixPath(parts.path).with_suffix(".html"))
    return urlunsplit(parts._replace(path=page))


def wrap_tables(root: ElementTree.Element) -> None:
    """Put every table in a ``div.table-wrap``, so a wide table scrolls instead of the page."""
    # A snapshot of the tree, so that the new wrappers are not visited (and wrapped) again.
    for parent in list(root.iter()):
        for position, child in enumerate(parent):
            if child.tag == "table":
                wrapper = ElementTree.Element("div", {"class": "table-wrap"})
                wrapper.append(child)
                parent[position] = wrapper


def contents(md: markdown.Markdown) -> str:
    """The ``##`` headings as a contents box (folded when long), or "" for fewer than two."""
    count = len(md.toc_tokens)
    if count < 2:
        return ""
    folded = "" if count <= OPEN_CONTENTS_UP_TO else " (click to unfold)"
    state = " open" if count <= OPEN_CONTENTS_UP_TO else ""
    return (f'<nav class="contents" aria-label="Contents"><details{state}>'
            f"<summary>Contents: {count} sections{folded}</summary>\n{md.toc}</details></nav>")


def render(markdown_path: Path) -> str:
    """The markdown file at ``markdown_path`` as a self-contained HTML page (str)."""
    md = markdown.Markdown(extensions=["tables", "fenced_code", "toc"],
                           extension_configs={"toc": {"toc_depth": "2-2"}})
    processor = SelfContained(md, markdown_path)
    # Priority 15: after the inline patterns (20) have made the images and links.
    md.treeprocessors.register(processor, "self_contained", 15)
    body = md.convert(markdown_path.read_text(encoding="utf-8"))
    # The contents go right below the page title, else at the top.
    heading_end = body.find("</h1>")
    split = heading_end + len("</h1>") if heading_end >= 0 else 0
    body = f"{body[:split]}\n{contents(md)}\n{body[split:]}"
    return PAGE.format(title=html.escape(processor.title), css=CSS, js=JS, body=body)


def write_html(markdown_path: Path) -> Path:
    """Write ``report.html`` beside ``report.md`` (any ``X.md`` gives ``X.html``); return it."""
    markdown_path = Path(markdown_path)
    page = markdown_path.with_suffix(".html")
    page.write_text(render(markdown_path), encoding="utf-8")
    return page


def write_index_html(root: Path) -> Path:
    """Write ``reports/index.html`` from ``reports/index.md``, linking each report's page."""
    return write_html(Path(root) / "index.md")
