"""The sample-size planner: its variances are the variances of the estimates."""

import math
from dataclasses import replace

import numpy as np

from cakesim.analyses.planner import plan_table
from cakesim.engine.runner import run_table
from cakesim.stats.planner import Question, seat_variance
from tests.games.piece_o_cake.conftest import table_of


def test_independent_deal_variance_is_the_variance_of_the_seat_win_share():
    run = run_table(table_of(3, "base", ("random",)), 3000, seed=2, n_jobs=1,
                    progress=False)
    shares = run.rows.pivot(index="game", columns="seat", values="win_units").to_numpy() / 840
    assert np.allclose(seat_variance(run.totals, 840), shares.var(axis=0, ddof=1), rtol=1e-5)


def test_duplicate_deal_variance_is_that_of_the_per_deal_seat_share():
    table = replace(table_of(3, "base", ("random", "greedy", "greedy")), duplicate=True)
    run = run_table(table, 3000, seed=2, n_jobs=1, progress=False)
    rows = run.rows
    per_deal = rows.groupby(["deal", "seat"])["win_units"].mean().unstack().to_numpy() / 840
    # The estimate averages deal means, one per 3 games played: per game, 3 x their variance.
    expected = per_deal.var(axis=0, ddof=1) * 3
    assert np.allclose(seat_variance(run.totals, 840), expected, rtol=1e-5)


def test_games_needed_follow_the_normal_formulas():
    assert math.isclose(Question(half_width=0.01).factor(), (1.959964 / 0.01) ** 2,
                        rel_tol=1e-6)
    assert math.isclose(Question(effect=0.02, power=0.8).factor(),
                        ((1.959964 + 0.841621) / 0.02) ** 2, rel_tol=1e-6)
    plan = plan_table(table_of(2, "base", ("random",)), Question(half_width=0.02), 2000, 1,
                      n_jobs=1)
    assert list(plan["seat"]) == [1, 2]
    assert (plan["games_duplicate"] % 2 == 0).all()
    first = plan.iloc[0]
    assert first.games_independent == math.ceil(Question(half_width=0.02).factor()
                                                * first.variance_independent)
