"""Every notebook runs on small data, shows its plots, and is stored without outputs."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook_per_experiment():
    experiments = {p.stem for p in (Path(__file__).parents[1] / "experiments").glob("*.toml")}
    assert experiments <= {p.stem for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_is_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, "strip outputs"


ONE_PER_GAME = ("first_player_bias", "finisher_value", "order_card_difficulty",
                "topp_jar_policies")
"""The default suite executes one notebook of each game; ``make parity`` executes all."""


@pytest.fixture(scope="module", ids=lambda p: p.stem, params=[
    pytest.param(p, marks=() if p.stem in ONE_PER_GAME else pytest.mark.slow)
    for p in NOTEBOOKS])
def executed(request, tmp_path_factory):
    """A notebook run top to bottom on small data, and the folder its report was written to.

    Each notebook runs once for all the tests below. ``MPLBACKEND`` is removed rather than
    set, so the kernel chooses matplotlib's inline backend as it does for a notebook opened
    by hand, and a plot shows only if nothing switched the backend after that.
    """
    path = request.param
    out = tmp_path_factory.mktemp(path.stem) / "report"
    notebook = nbformat.read(path, as_version=4)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CAKESIM_NOTEBOOK_GAMES", "20")
        env.setenv("CAKESIM_NOTEBOOK_OUT", str(out))
        env.delenv("MPLBACKEND", raising=False)
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook, out


def _shows_image(cell) -> bool:
    return any("image/png" in output.get("data", {}) for output in cell.outputs
               if output.output_type in ("display_data", "execute_result"))


def test_the_notebook_runs_on_small_data_and_shows_its_plots(executed):
    """It writes its data; ``import cakesim`` leaves the inline backend alone, so every
    pyplot cell shows a PNG. (One test per notebook: test processes share no fixture, so
    a second test would run the notebook again.)"""
    notebook, out = executed
    assert (out / "results.parquet").exists()
    cells = notebook.cells
    imported = next(i for i, cell in enumerate(cells) if "import cakesim" in cell.source)
    drawing = [i for i, cell in enumerate(cells)
               if i > imported and cell.cell_type == "code" and "plt." in cell.source]
    assert drawing, "every notebook draws at least one plot after importing cakesim"
    assert any(_shows_image(cells[i]) for i in drawing)
    blank = [i for i in drawing if not _shows_image(cells[i])]
    assert not blank, f"cells {blank} draw with pyplot but show no image"
