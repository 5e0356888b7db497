"""Every notebook runs top to bottom on small data, and is committed without outputs."""

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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_runs_on_small_data(path, tmp_path, monkeypatch):
    monkeypatch.setenv("CAKESIM_NOTEBOOK_GAMES", "200")
    monkeypatch.setenv("CAKESIM_NOTEBOOK_OUT", str(tmp_path / "report"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    assert (tmp_path / "report" / "results.parquet").exists()
