"""A report's ``summary.json`` and its side file ``details.json.xz``.

``summary.json`` says what the experiment is and what it found (title, question, seed,
sizes, files, configuration, the answer and its headline) and stays small enough to read
(``SUMMARY_CAP``). Every table's, comparison's, item's and section's numbers go to the
side file beside it: the same strict JSON, compressed with xz, so that git and the disk
keep about a tenth of it. ``summary.json`` names the side file and the entries it holds;
``read_summary`` puts the two together again into the summary the report was written
from. Both files' bytes depend only on the summary, and a re-run that reproduces a report
keeps its date (``keep_date``), so it rewrites them unchanged.
"""

import json
import lzma
from pathlib import Path

from cakesim.engine.errors import InputError
from cakesim.engine.project import strict_json

SUMMARY = "summary.json"
DETAILS = "details.json.xz"
SUMMARY_CAP = 200_000
"""The most bytes of ``summary.json``; larger entries than fit go to the side file."""

DETAIL_KEYS = ("tables", "comparisons", "items", "sample_size", "sections")
"""The entries that always go to the side file: per table, item and section numbers."""

KEPT_KEYS = ("experiment", "title", "headline", "seed", "games_per_table")
"""The entries that always stay in ``summary.json``: what the index of reports lists."""


def write_summary(folder: Path, summary: dict) -> Path:
    """Write ``summary.json`` and, when it has details, ``details.json.xz``; return the first."""
    front = {k: v for k, v in summary.items() if k not in DETAIL_KEYS}
    details = {k: v for k, v in summary.items() if k in DETAIL_KEYS}
    # Anything else that would take summary.json past its cap moves too, largest first.
    for key in sorted(front, key=lambda k: -len(strict_json(front[k]))):
        if len(_front(front, details).encode()) <= SUMMARY_CAP:
            break
        if key not in KEPT_KEYS:
            details[key] = front.pop(key)
    side = folder / DETAILS
    if details:
        # xz's own container records no time or name: the bytes follow from the text.
        side.write_bytes(lzma.compress(strict_json(details).encode()))
    else:
        side.unlink(missing_ok=True)
    path = folder / SUMMARY
    path.write_text(_front(front, details))
    return path


def _front(front: dict, details: dict) -> str:
    """``summary.json``'s text: ``front`` and, with details, where they are."""
    pointer = {"details": {"file": DETAILS, "keys": list(details)}} if details else {}
    return strict_json(front | pointer)


def read_summary(folder: Path) -> dict:
    """The whole summary of the report in ``folder`` (or of its ``summary.json``).

    A missing or unreadable file, or a side file without an entry ``summary.json``
    names, is an InputError naming that file.
    """
    folder = Path(folder)
    path = folder if folder.name == SUMMARY else folder / SUMMARY
    summary = _load(path)
    pointer = summary.pop("details", None)
    if pointer is None:
        return summary
    if not (isinstance(pointer, dict) and isinstance(pointer.get("file"), str)
            and isinstance(pointer.get("keys"), list)):
        raise InputError(str(path), "details", "not a side file's name and keys")
    side = path.parent / pointer["file"]
    details = _load(side, lzma.decompress)
    missing = [k for k in pointer["keys"] if k not in details]
    if missing:
        raise InputError(str(side), ", ".join(missing), f"missing; {path.name} says the "
                                                        "side file holds it")
    return summary | {k: details[k] for k in pointer["keys"]}


def keep_date(folder: Path, summary: dict) -> None:
    """Date ``summary`` as the one already in ``folder`` when nothing else differs.

    A re-run that reproduces a report then leaves every file of it as it was, and git
    keeps no second copy; an unreadable earlier summary is simply written over.
    """
    try:
        before = read_summary(folder)
    except InputError:
        return
    now = json.loads(strict_json(summary))
    if before.get("written") and before | {"written": None} == now | {"written": None}:
        summary["written"] = before["written"]


def _load(path: Path, unpack=bytes) -> dict:
    """The JSON object in ``path``, its bytes first passed through ``unpack``."""
    try:
        found = json.loads(unpack(path.read_bytes()))
    except FileNotFoundError:
        raise InputError(str(path), "", "missing; run the experiment again (make "
                                        "experiment EXP=name) to write it") from None
    # JSON and text decoding errors are ValueErrors; a truncated xz stream is an LZMAError.
    except (OSError, ValueError, lzma.LZMAError) as error:
        raise InputError(str(path), "", f"unreadable: {error}") from None
    if not isinstance(found, dict):
        raise InputError(str(path), "", "not a JSON object")
    return found
