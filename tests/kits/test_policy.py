"""Policy files: written and read back bit for bit, and refused with the file and key named."""

import numpy as np
import pytest

from cakesim.engine.errors import InputError
from cakesim.kits.policy import Examples, is_policy_file, policy_length, read_policy, write_policy

SHAPE = {"players": 2, "inputs": 3, "hidden": 2}


def test_a_policy_reads_back_bit_for_bit(tmp_path):
    weights = np.random.default_rng(0).normal(size=policy_length(SHAPE)) / 3.0
    path = tmp_path / "2p.toml"
    write_policy(path, weights, SHAPE, {"command": "made here", "seed": 1})
    assert policy_length(SHAPE) == 3 * 2 + 2 * 2 + 1
    assert np.array_equal(read_policy(path, SHAPE), weights)
    assert is_policy_file(path)
    assert not is_policy_file(tmp_path / "missing.toml")


@pytest.mark.parametrize(("text", "message"), [
    ("[policy]\nplayers = 3\ninputs = 3\nhidden = 2\n[provenance]\n[weights]\nvalues = []\n",
     "policy.players: is 3, but this table needs 2: the policy was fitted for another "
     "table; allowed: 2"),
    ("[policy]\nplayers = 2\ninputs = 3\nhidden = 2\ncolour = 1\n[provenance]\n",
     "policy.colour: unknown key; allowed keys: players, inputs, hidden"),
    ("[policy]\nplayers = 2\ninputs = 3\nhidden = 2\n[provenance]\n[weights]\n"
     "values = [1.0, 2.0]\n", "weights.values: must be 11 floats"),
    ("[policy]\nplayers = 2\ninputs = 3\nhidden = 2\n[provenance]\n[weights]\n"
     f"values = [{', '.join(['1.0'] * 10)}, nan]\n", "weights.values: must be finite"),
    ("[policy]\nplayers = 2\ninputs = 3\nhidden = 2\n[weights]\nvalues = []\n",
     "provenance: missing"),
    ("[policy]\nplayers = 2\ninputs = 3\nhidden = 2\n[provenance]\n[weights]\n"
     f"values = [{', '.join(['1'] * 11)}]\n", "weights.values: must be 11 floats"),
])
def test_a_bad_policy_file_is_refused_naming_file_and_key(tmp_path, text, message):
    path = tmp_path / "2p.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=r"2p\.toml") as error:
        read_policy(path, SHAPE)
    assert message in str(error.value)


def test_a_missing_policy_says_how_to_make_one(tmp_path):
    with pytest.raises(InputError, match="no fitted policy here; make one with `cakesim train`"):
        read_policy(tmp_path / "4p.toml", SHAPE)


def test_joined_examples_number_their_decisions_on():
    part = Examples(np.zeros((3, 2), np.float32), np.arange(3.0), np.array([0, 0, 1]))
    joined = Examples.joined([part, part])
    assert joined.decisions.tolist() == [0, 0, 1, 2, 2, 3]
    assert joined.values.tolist() == [0.0, 1.0, 2.0] * 2
