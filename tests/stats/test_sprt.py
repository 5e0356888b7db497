"""The sequential test: its error rates by simulation, on real tables, and what it refuses."""

from collections.abc import Iterator

import numpy as np
import pytest
from scipy.stats import binomtest

from cakesim.analyses.sprt import coin_draws, sequential_test
from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.stats.baseline import Baseline, compare
from cakesim.stats.sprt import SprtClaim, SprtResult, WaldTest, coin_wins
from tests.games.piece_o_cake.conftest import table_of

CHUNK = 8192
CLAIMS = {direction: SprtClaim("4P", 0, direction, 0.05, 0.05, 0.05, 200_000)
          for direction in ("deficit", "advantage")}
"""At least 5 pp off a fair 25 %, default indifference width 1 pp, alpha = beta = 0.05."""


def _bernoulli(rng: np.random.Generator, p: float) -> Iterator[np.ndarray]:
    """Endless chunks of independent 0/1 outcomes with win chance ``p``."""
    while True:
        yield rng.random(CHUNK) < p


def _shared(rng: np.random.Generator, p: float, split: float = 0.3) -> Iterator[np.ndarray]:
    """Fractional wins of mean ``p`` (a first place shared by two in ``split`` of the games),
    settled by the test's coin."""
    while True:
        whole = (rng.random(CHUNK) < (p - split / 2) / (1 - split)).astype(float)
        shares = np.where(rng.random(CHUNK) < split, 0.5, whole)
        yield coin_wins(shares, rng.random(CHUNK))


def _acceptance(test: WaldTest, p: float, runs: int, stream=_bernoulli) -> int:
    """int: how many of ``runs`` independent tests accept the claim at win share ``p``."""
    rng = np.random.default_rng(round(1e6 * p))
    return sum(test.run(stream(rng, p), 200_000)[0] == "claim accepted" for _ in range(runs))


@pytest.mark.parametrize("stream", [_bernoulli, _shared])
@pytest.mark.parametrize("direction", ["deficit", "advantage"])
def test_error_rates_hold_at_both_edges(direction, stream):
    test = CLAIMS[direction].wald_test(4)
    assert (test.null, test.alternative) == pytest.approx(
        (0.20, 0.19) if direction == "deficit" else (0.30, 0.31))
    runs = 2000
    # One-sided binomial tests: no evidence (at 0.1 %) that the simulated rates break
    # alpha at the edge of H0 or 1 - beta at the edge of H1.
    false = _acceptance(test, test.null, runs, stream)
    assert binomtest(false, runs, 0.05, alternative="greater").pvalue > 1e-3
    true = _acceptance(test, test.alternative, runs, stream)
    assert binomtest(true, runs, 0.95, alternative="less").pvalue > 1e-3


def test_acceptance_falls_as_the_share_rises():
    test = CLAIMS["deficit"].wald_test(4)
    shares = [0.17, 0.19, 0.195, 0.20, 0.225, 0.25]
    rates = np.array([_acceptance(test, p, 1000) / 1000 for p in shares])
    assert np.all(np.diff(rates) <= 0.03)  # monotone up to Monte-Carlo noise
    assert rates[0] > 0.99 and 0.3 < rates[2] < 0.7
    # A true gap of 2.5 pp is short of the claimed 5 pp: (almost) never accepted.
    assert rates[4] < 0.01 and rates[5] == 0.0


def test_the_coin_is_a_pure_function_of_seed_and_game():
    draws = coin_draws(np.uint64(3), 0, 1000)
    assert np.array_equal(draws[400:], coin_draws(np.uint64(3), 400, 600))
    assert not np.array_equal(draws, coin_draws(np.uint64(4), 0, 1000))
    assert draws.min() >= 0.0 and draws.max() < 1.0 and abs(draws.mean() - 0.5) < 0.05
    shares = np.array([0.0, 1.0, 0.5, 1 / 3])
    assert list(coin_wins(shares, np.array([0.0, 0.9999, 0.49, 0.34]))) == [0, 1, 1, 0]


def test_a_capped_test_is_undecided():
    test = WaldTest(0.20, 0.19, 1e-12, 1e-12)
    assert test.run(_bernoulli(np.random.default_rng(0), 0.1), 30) == ("undecided", 30)


@pytest.fixture(scope="module")
def greedy_table():
    return table_of(4, "base", ("greedy",))


def test_the_sequential_test_accepts_a_real_deficit_and_rejects_a_false_advantage(
        greedy_table):
    # The first waiter at 4 players wins about 16 %: more than 6 pp short of a fair 25 %.
    deficit = sequential_test(greedy_table, 1, CLAIMS["deficit"])
    assert deficit.decision == "claim accepted" and deficit.games < 5000
    assert deficit.share < 0.19
    advantage = sequential_test(greedy_table, 1, CLAIMS["advantage"])
    assert advantage.decision == "claim rejected"
    capped = sequential_test(greedy_table, 1, SprtClaim("4P", 0, "deficit", 0.05, 1e-12,
                                                        1e-12, 30))
    assert capped.decision == "undecided" and capped.games == 30
    assert capped == sequential_test(greedy_table, 1, capped.claim)


def test_a_rejected_claim_fails_the_check(greedy_table):
    record = {"experiment": "x", "results_digest": "d", "config_hash": "h",
              "code_version": "v", "seed": 1, "games_per_table": [], "tables": [],
              "win_units": 1, "items": [], "item_ratios": {}, "section_numbers": {},
              "level": 0.01}
    tested = sequential_test(greedy_table, 1, CLAIMS["advantage"])
    result = compare(Baseline(record, {}), Baseline(dict(record), {}), [tested])
    assert result.failed and "claim rejected" in result.problems[0]


def test_the_sentence_says_what_was_tested():
    deficit = SprtResult(CLAIMS["deficit"], "claim accepted", 1234, 0.16, 0.25, 0.20, 0.19)
    assert deficit.sentence() == (
        "4P, seat 1: deficit of at least 5.0 pp against a fair 25.0 % (a win share of 20.0 % "
        "or less): claim accepted after 1,234 games (win share 16.0 %; accepted with chance "
        "at most 0.05 at a share of 20.0 % or more, at least 0.95 at 19.0 % or less)")
    advantage = SprtResult(CLAIMS["advantage"], "claim rejected", 99, 0.16, 0.25, 0.30, 0.31)
    assert "(a win share of 30.0 % or more)" in advantage.sentence()
    assert "at a share of 30.0 % or less, at least 0.95 at 31.0 % or more" in (
        advantage.sentence())


def test_a_duplicate_deal_table_is_refused():
    with pytest.raises(InputError, match="--table: '4P' plays duplicate or blocked deals, "
                                         "whose games are correlated; a sequential test "
                                         "needs a table with independent deals"):
        sequential_test(table_of(4, duplicate=True), 1, CLAIMS["deficit"])


def test_a_claim_on_duplicate_deals_in_a_file_is_refused(tiny_experiment, capsys):
    path = str(tiny_experiment(extra="duplicate = true\n"))
    assert main(["run", path, "--no-cache"]) == 2
    assert ("ci.sprt[0].table: '4P base greedy-balanced' plays duplicate or blocked deals"
            in capsys.readouterr().err)


def test_a_seat_the_table_lacks_exits_2(tiny_experiment, capsys):
    path = str(tiny_experiment())
    assert main(["sprt", path, "--table", "4P base greedy-balanced", "--seat", "9",
                 "--delta", "0.05"]) == 2
    assert ("cakesim sprt: --seat: 9 is out of range; '4P base greedy-balanced' has seats "
            "1 to 4") in capsys.readouterr().err


def test_epsilon_is_read_from_the_file_and_checked(tiny_experiment, tmp_path, capsys):
    text = tiny_experiment().read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("delta = 0.05", "delta = 0.05\nepsilon = 0.25"))
    assert main(["run", str(bad), "--no-cache"]) == 2
    assert ("ci.sprt[0].delta: 0.05 plus epsilon 0.25 puts the win share tested for at "
            "-0.050, outside 0 to 1") in capsys.readouterr().err
