"""Baselines and the regression check: exact reproduction, significant moves, SPRT claims."""

import dataclasses
import io
import json
import lzma
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from cakesim.app import api
from cakesim.app.cli import main
from cakesim.games.piece_o_cake.strategies import PARAMETERS
from cakesim.reports.summary_file import read_summary
from cakesim.stats.baseline import (
    Baseline,
    deals_path,
    format_regression,
    read_baseline,
    write_baseline,
)
from cakesim.stats.intervals import holm, two_sample_p

REPORTS = Path(__file__).parents[2] / "reports"


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _baseline_then(path, change) -> None:
    """Write the baseline of ``path``, then let ``change`` edit its record and deal sums."""
    written = api.baseline(path, n_jobs=1)
    stored = read_baseline(written)
    change(stored.record, stored.arrays)
    write_baseline(stored, written)


def _seat_units(record, arrays, label):
    index = [t["label"] for t in record["tables"]].index(label)
    return arrays[f"{index}/seat/win_units"]


def test_a_baseline_is_reproduced_bit_for_bit(in_tmp, tiny_experiment):
    path = tiny_experiment()
    written = api.baseline(path, n_jobs=1)
    record = json.loads(written.read_text())
    assert record["games_per_table"] == [600] * 4 and record["seed"] == 5
    assert "4P base greedy-balanced | seat 1 win share" in read_baseline(written).numbers()
    assert deals_path(written).stat().st_size < 20_000
    result = api.regress(path, n_jobs=2)
    assert result.identical and not result.failed
    assert "reproduced bit for bit" in format_regression(result)


def test_a_material_move_paired_by_deal_fails_and_is_tabulated(in_tmp, tiny_experiment):
    path = tiny_experiment()
    moved = "3P base greedy-balanced | seat 1 win share"

    def move(record, arrays):
        # The baseline's first waiter loses 30 of its 600 games that it now wins: 5 pp.
        units = _seat_units(record, arrays, "3P base greedy-balanced")
        won = np.flatnonzero(units[:, 0] == record["win_units"])[:30]
        units[won, 0] = 0
        record["results_digest"] = "changed"

    _baseline_then(path, move)
    result = api.regress(path, n_jobs=1)
    assert result.failed and result.paired
    assert list(result.moves["number"]) == [moved]
    assert bool(result.moves["significant"].iloc[0] and result.moves["material"].iloc[0])
    text = format_regression(result)
    assert moved in text and "YES" in text and "FAIL" in text and "paired by deal" in text


def test_a_move_of_a_few_deals_is_shown_but_passes(in_tmp, tiny_experiment):
    path = tiny_experiment()

    def nudge(record, arrays):
        units = _seat_units(record, arrays, "4P base greedy-balanced")
        won = np.flatnonzero(units[:, 1] == record["win_units"])[:2]
        units[won, 1] = 0
        record["results_digest"] = "changed"
        record["config_hash"] = "older rules"

    _baseline_then(path, nudge)
    result = api.regress(path, n_jobs=1)
    assert not result.failed and result.config_changed and len(result.moves) == 1
    assert "no significant material move" in format_regression(result)


def test_a_significant_but_immaterial_move_passes(in_tmp, tiny_experiment):
    path = tiny_experiment()
    name = "3P base greedy-balanced | seat 1 mean score"

    def shift(record, arrays):
        # Every deal one point lower: certain (p = 0), but 1 point in ~70 is under 1.5 %.
        index = [t["label"] for t in record["tables"]].index("3P base greedy-balanced")
        arrays[f"{index}/seat/total"][:, 0] -= 1
        record["results_digest"] = "changed"
        record["config_hash"] = "older rules"
        record["materiality"] = 0.015

    _baseline_then(path, shift)
    result = api.regress(path, n_jobs=1)
    row = result.moves.set_index("number").loc[name]
    assert row["p"] == 0 and row["significant"] and not row["material"]
    assert not result.failed


def test_another_seed_is_compared_unpaired_and_passes(in_tmp, tiny_experiment):
    path = tiny_experiment()
    api.baseline(path, n_jobs=1)
    path.write_text(path.read_text().replace("seed = 5", "seed = 6"))
    result = api.regress(path, n_jobs=1)
    assert not result.paired and result.config_changed and len(result.moves) > 10
    assert not result.failed, format_regression(result)


def test_same_code_and_config_with_other_numbers_is_not_reproducible(in_tmp, tiny_experiment):
    path = tiny_experiment()
    _baseline_then(path, lambda record, arrays: record.update(results_digest="changed"))
    result = api.regress(path, n_jobs=1)
    assert result.failed and "not reproducible" in result.problems[0]


def test_regress_outside_a_project_or_without_experiments_exits_2(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["regress"]) == 2
    assert "not inside a cakesim project" in capsys.readouterr().err
    assert main(["reports"]) == 2
    (tmp_path / "experiments").mkdir()
    assert main(["regress"]) == 2
    assert "no experiment files" in capsys.readouterr().err


def test_regress_finds_the_project_from_a_subfolder(in_tmp, tiny_experiment, monkeypatch):
    tiny_experiment()
    assert main(["baseline", "--n-jobs", "1"]) == 0
    (in_tmp / "deeper" / "still").mkdir(parents=True)
    monkeypatch.chdir(in_tmp / "deeper" / "still")
    assert main(["regress", "--n-jobs", "1"]) == 0
    assert (in_tmp / "reports" / "baselines" / "tiny.json").exists()


def test_regress_exits_1_on_a_move_and_2_without_a_baseline(in_tmp, tiny_experiment, capsys):
    path = str(tiny_experiment())
    assert main(["regress", path]) == 2
    assert "no baseline; run `make baseline`" in capsys.readouterr().err
    assert main(["baseline", path, "--n-jobs", "1"]) == 0
    assert main(["regress", path, "--n-jobs", "1"]) == 0


def test_the_deals_sums_round_trip_in_their_smallest_integers(tmp_path):
    arrays = {"0/seat/win_units": np.array([[12, 0], [6, 6]]),
              "0/seat/total": np.array([[300, -2], [40, 41]]), "0/game/won": np.ones(2)}
    record = {"tables": [{"label": "2P", "games_per_deal": 1}], "item_ratios": {},
              "primary": []}
    path = tmp_path / "tiny.json"
    path.with_suffix(".npz").write_bytes(b"an older baseline's sums")
    write_baseline(Baseline(record, arrays), path)
    first = deals_path(path).read_bytes()
    write_baseline(Baseline(record, arrays), path)
    assert deals_path(path).read_bytes() == first and deals_path(path).name == "tiny.npz.xz"
    assert not path.with_suffix(".npz").exists()
    with np.load(io.BytesIO(lzma.decompress(first))) as stored:
        assert [stored[k].dtype.name for k in stored.files] == ["int8", "int16", "float64"]
    back = read_baseline(path)
    assert back.record == record
    assert all(np.array_equal(back.arrays[k], v) for k, v in arrays.items())


@pytest.mark.parametrize(("damage", "says"), [
    (lambda deals: deals.write_bytes(b"not xz"), "unreadable"),
    (lambda deals: deals.write_bytes(lzma.compress(b"not an npz")), "unreadable"),
    (lambda deals: deals.unlink(), "no baseline; run `make baseline`"),
])
def test_a_broken_deals_file_is_named_and_regress_exits_2(in_tmp, tiny_experiment, capsys,
                                                          damage, says):
    path = str(tiny_experiment())
    record = in_tmp / "reports" / "baselines" / "tiny.json"
    write_baseline(Baseline({"tables": [], "item_ratios": {}, "primary": []}, {}), record)
    damage(deals_path(record))
    assert main(["regress", path]) == 2
    err = capsys.readouterr().err
    assert str(deals_path(record)) in err and says in err and "Traceback" not in err


def test_every_committed_baseline_reads_with_its_numbers():
    paths = sorted(REPORTS.glob("baselines/*.json"))
    assert len(paths) == len(list(REPORTS.glob("baselines/*.npz.xz"))) > 0
    assert not list(REPORTS.glob("baselines/*.npz"))
    for path in paths:
        stored = read_baseline(path)
        assert stored.numbers() and set(stored.numbers()) == set(stored.ratios()), path


def test_an_experiment_without_a_ci_section_cannot_be_checked(in_tmp, tiny_experiment, capsys):
    text = tiny_experiment().read_text()
    bare = in_tmp / "bare.toml"
    bare.write_text(text[:text.index("[ci]")] + text[text.index("[strategies"):])
    assert main(["regress", str(bare)]) == 2
    assert "ci: missing; every experiment needs a [ci] section" in capsys.readouterr().err


@pytest.mark.parametrize(("old", "new", "message"), [
    ("level = 0.01", "level = 0.01\nsurprise = 1", "ci.surprise: unknown key"),
    ("level = 0.01", "level = 2", "ci.level: 2.0 is out of range; allowed: between 0.0 and 0.5"),
    ("delta = 0.05", "delta = 0.05\ndirection = 'sideways'",
     "ci.sprt[0].direction: 'sideways' is not allowed; allowed values: 'deficit', 'advantage'"),
    ("seat = 1", "seat = 5", "ci.sprt[0].seat: 5 is out of range; '4P base greedy-balanced' "
                             "has seats 1 to 4"),
])
def test_a_bad_ci_section_names_the_key(in_tmp, tiny_experiment, capsys, old, new, message):
    bad = in_tmp / "bad.toml"
    bad.write_text(tiny_experiment().read_text().replace(old, new))
    assert main(["regress", str(bad)]) == 2
    assert message in capsys.readouterr().err


def test_an_sprt_claim_on_an_unknown_table_names_the_tables(in_tmp, tiny_experiment, capsys):
    bad = in_tmp / "bad.toml"
    bad.write_text(tiny_experiment().read_text().replace('"4P base greedy-balanced"', '"9P"'))
    assert main(["run", str(bad), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "ci.sprt[0].table: no table '9P'; tables: 3P base greedy-balanced" in err


def test_holm_adjusts_like_the_textbook():
    # Holm (1979): sorted p 0.01, 0.02, 0.03 with m = 3 become 0.03, 0.04, 0.04.
    assert np.allclose(holm(np.array([0.03, 0.01, 0.02])), [0.04, 0.03, 0.04])
    rng = np.random.default_rng(2)
    for size in (0, 1, 7, 200):
        p = rng.random(size) ** 3
        p[: size // 4] = p[size // 2: size // 2 + size // 4]  # ties
        expected = multipletests(p, method="holm")[1] if size else p
        assert np.allclose(holm(p), expected)
    assert two_sample_p(1.0, 0.1, 1.0, 0.2) == 1.0
    assert two_sample_p(1.0, 0.0, 1.5, 0.0) == 0.0
    assert abs(two_sample_p(0.0, 0.3, 0.5, 0.4) - 0.3173) < 1e-4


def test_a_changed_strategy_default_is_a_changed_configuration(in_tmp, tiny_experiment,
                                                               monkeypatch):
    from cakesim.app.experiment import load_experiment
    from cakesim.games.piece_o_cake import strategies
    from cakesim.stats.baseline import config_hash

    path = tiny_experiment()
    before = config_hash(load_experiment(str(path), ci=True))
    default, *rest = strategies.PARAMETERS["uncertainty"]
    changed = dict(strategies.PARAMETERS, uncertainty=(2 * default, *rest))
    # The defaults live in the game's declared spec, which its strategy record reads.
    monkeypatch.setattr(strategies.Strategy, "spec",
                        dataclasses.replace(strategies.SPEC, parameters=changed))
    assert config_hash(load_experiment(str(path), ci=True)) != before


def test_summary_json_is_strict_and_records_files_and_resolved_strategies(in_tmp,
                                                                          tiny_experiment):
    path = tiny_experiment()
    api.run_experiment(path, games=60, n_jobs=1, progress=False, cache=False,
                       out=in_tmp / "out", sample_size=False)
    out = in_tmp / "out"
    for text in ((out / "summary.json").read_bytes(),
                 lzma.decompress((out / "details.json.xz").read_bytes())):
        json.loads(text, parse_constant=lambda token: pytest.fail(f"bare {token}"))
    summary = read_summary(out)
    assert any(name.endswith("rules.toml") and len(sha) == 64
               for name, sha in summary["files"].items())
    resolved = summary["tables"][0]["strategies"][0]["resolved"]
    assert len(resolved["params"]) == len(PARAMETERS) and resolved["chooser"] == "greedy"
