"""Baselines and the regression check: exact reproduction, significant moves, SPRT claims."""

import json

import numpy as np
import pytest

from cakesim import api
from cakesim.baseline import compare, format_regression
from cakesim.cli import main
from cakesim.experiment import SprtClaim
from cakesim.sprt import sequential_test
from cakesim.stats import holm, two_sample_p
from tests.games.piece_o_cake.conftest import table_of


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _baseline_then(path, change) -> None:
    """Write the baseline of ``path``, then let ``change`` edit the stored record."""
    written = api.baseline(path, n_jobs=1)
    record = json.loads(written.read_text())
    change(record)
    written.write_text(json.dumps(record))


def test_a_baseline_is_reproduced_bit_for_bit(in_tmp, tiny_experiment):
    path = tiny_experiment()
    written = api.baseline(path, n_jobs=1)
    record = json.loads(written.read_text())
    assert record["games_per_table"] == [600] * 4 and record["seed"] == 5
    assert "4P base greedy-balanced | seat 1 win share" in record["numbers"]
    result = api.regress(path, n_jobs=2)
    assert result.identical and not result.failed
    assert "reproduced bit for bit" in format_regression(result)


def test_a_significant_move_fails_and_is_tabulated(in_tmp, tiny_experiment):
    path = tiny_experiment()
    moved = "3P base greedy-balanced | seat 1 mean score"

    def move(record):
        record["numbers"][moved]["value"] += 20 * record["numbers"][moved]["se"]
        record["results_digest"] = "changed"

    _baseline_then(path, move)
    result = api.regress(path, n_jobs=1)
    assert result.failed
    assert list(result.moves["number"]) == [moved]
    assert bool(result.moves["significant"].iloc[0])
    text = format_regression(result)
    assert moved in text and "YES" in text and "FAIL" in text


def test_a_small_move_is_shown_but_passes(in_tmp, tiny_experiment):
    path = tiny_experiment()
    name = "4P base greedy-balanced | seat 2 win share"

    def nudge(record):
        record["numbers"][name]["value"] += 0.5 * record["numbers"][name]["se"]
        record["results_digest"] = "changed"
        record["config_hash"] = "older rules"

    _baseline_then(path, nudge)
    result = api.regress(path, n_jobs=1)
    assert not result.failed and result.config_changed
    assert "no significant move" in format_regression(result)


def test_same_code_and_config_with_other_numbers_is_not_reproducible(in_tmp, tiny_experiment):
    path = tiny_experiment()
    _baseline_then(path, lambda record: record.update(results_digest="changed"))
    result = api.regress(path, n_jobs=1)
    assert result.failed and "not reproducible" in result.problems[0]


def test_regress_exits_1_on_a_move_and_2_without_a_baseline(in_tmp, tiny_experiment, capsys):
    path = str(tiny_experiment())
    assert main(["regress", path]) == 2
    assert "no baseline; run `make baseline`" in capsys.readouterr().err
    assert main(["baseline", path, "--n-jobs", "1"]) == 0
    assert main(["regress", path, "--n-jobs", "1"]) == 0


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


def test_the_sequential_test_accepts_a_real_deficit_and_rejects_a_false_advantage():
    table = table_of(4, "base", ("greedy",))
    deficit = sequential_test(table, 1, SprtClaim("4P", 0, "deficit", 0.05, 0.05, 0.05, 20000))
    assert deficit.decision == "claim accepted" and deficit.games < 2000
    advantage = sequential_test(table, 1, SprtClaim("4P", 0, "advantage", 0.05, 0.05, 0.05,
                                                    20000))
    assert advantage.decision == "claim rejected"
    capped = sequential_test(table, 1, SprtClaim("4P", 0, "deficit", 0.05, 1e-12, 1e-12, 30))
    assert capped.decision == "undecided" and capped.games == 30


def test_a_rejected_claim_fails_the_check():
    table = table_of(4, "base", ("greedy",))
    claim = SprtClaim("4P", 0, "advantage", 0.05, 0.05, 0.05, 20000)
    record = {"experiment": "x", "results_digest": "d", "config_hash": "h",
              "code_version": "v", "numbers": {}, "level": 0.01}
    result = compare(record, dict(record), [sequential_test(table, 1, claim)])
    assert result.failed and "claim rejected" in result.problems[0]


def test_holm_adjusts_like_the_textbook():
    # Holm (1979): sorted p 0.01, 0.02, 0.03 with m = 3 become 0.03, 0.04, 0.04.
    assert np.allclose(holm(np.array([0.03, 0.01, 0.02])), [0.04, 0.03, 0.04])
    assert two_sample_p(1.0, 0.1, 1.0, 0.2) == 1.0
    assert two_sample_p(1.0, 0.0, 1.5, 0.0) == 0.0
    assert abs(two_sample_p(0.0, 0.3, 0.5, 0.4) - 0.3173) < 1e-4
