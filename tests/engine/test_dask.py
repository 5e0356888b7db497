"""Chunks run on a Dask cluster give the numbers of a local run."""

import pytest

from cakesim.app.api import run_experiment
from cakesim.app.cli import main
from cakesim.engine import runner
from cakesim.stats.baseline import results_digest

distributed = pytest.importorskip("distributed")


def test_a_local_dask_cluster_gives_the_local_numbers(tiny_experiment):
    path = tiny_experiment(games=900, chunk=200)
    local = run_experiment(path, n_jobs=2, progress=False, cache=False, write=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        remote = run_experiment(path, progress=False, cache=False, write=False,
                                backend_name="dask", scheduler=cluster.scheduler_address)
    assert results_digest(local.runs) == results_digest(remote.runs)
    for a, b in zip(local.runs, remote.runs, strict=True):
        assert a.rows.equals(b.rows)


def test_the_dask_backend_without_a_scheduler_is_a_clear_error(tiny_experiment, tmp_path,
                                                              capsys):
    assert main(["run", str(tiny_experiment()), "--backend", "dask", "--no-cache", "--out",
                 str(tmp_path / "out")]) == 2
    assert "needs a scheduler address" in capsys.readouterr().err


def test_an_address_where_no_scheduler_answers_is_a_clear_error(tiny_experiment, tmp_path,
                                                               capsys, monkeypatch):
    # Nothing listens there: the client waits its whole timeout, shortened for the test.
    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", "1s")
    status = main(["run", str(tiny_experiment()), "--backend", "dask", "--no-cache",
                   "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "out")])
    assert status == 2
    assert "no Dask scheduler answers at tcp://127.0.0.1:1" in capsys.readouterr().err
