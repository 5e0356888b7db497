"""Seat verdicts from a table's sums: read from the interval the table prints."""

from types import SimpleNamespace

import numpy as np
import pytest

from cakesim.engine.contract import ResultKind
from cakesim.reports.summaries import seat_verdicts, verdict_family
from cakesim.stats.intervals import WinShare


def _run(units: list[int], squares: list[int], games: int,
         win_units: int = 1) -> SimpleNamespace:
    """A table of ``games`` independent deals whose seats won ``units`` win units, with
    ``squares`` the sums over deals of their squares (a game's first place is worth
    ``win_units``)."""
    totals = SimpleNamespace(players=len(units), deals=games, games=games, games_per_deal=1,
                             seat_sum={"win_units": np.array(units)},
                             seat_sq={"win_units": np.array(squares)})
    return SimpleNamespace(totals=totals, table=SimpleNamespace(game=SimpleNamespace(
        win_units=win_units)))


def test_no_win_in_ten_games_at_four_players_is_not_disadvantaged():
    # Wilson's 95 % interval of 0/10 is [0, 27.8 %]: it holds the fair 25 %.
    run = _run([4, 3, 3, 0], [4, 3, 3, 0], 10)
    last = seat_verdicts(run, 0.01, family=1)[3]
    assert last["word"] == "inconclusive"
    share = WinShare(0, 0, 10, 1, 1).interval()
    assert (last["gap"]["low"], last["gap"]["high"]) == (share.low - 0.25, share.high - 0.25)


def test_three_games_all_tied_are_not_fair():
    # Every game tied by all three players: a third of a win each, no spread over deals.
    run = _run([3, 3, 3], [3, 3, 3], 3, win_units=3)
    assert {v["word"] for v in seat_verdicts(run, 0.01, family=3)} == {"inconclusive"}


def test_the_verdict_interval_holds_the_printed_one_and_is_it_for_a_family_of_one():
    wins = [2400, 2600, 2500, 2500]
    run = _run(wins, wins, 10_000)
    for family in (1, 12):
        for seat, v in enumerate(seat_verdicts(run, 0.01, family)):
            printed = WinShare(wins[seat], wins[seat], 10_000, 1, 1).interval()
            low, high = printed.low - 0.25, printed.high - 0.25
            if family == 1:
                assert (v["gap"]["low"], v["gap"]["high"]) == pytest.approx((low, high))
            else:
                assert v["gap"]["low"] < low and high < v["gap"]["high"]


def test_the_family_is_every_seat_of_the_reports_own_tables():
    tables = [SimpleNamespace(table=SimpleNamespace(label=label, players=players))
              for label, players in (("3P", 3), ("4P", 4), ("4P · skill random", 4))]
    experiment = SimpleNamespace(game=SimpleNamespace(result_kind=ResultKind.SEATS),
                                 section_tables=("4P · skill random",))
    assert verdict_family(experiment, tables) == 7
    experiment.game.result_kind = ResultKind.TEAM
    assert verdict_family(experiment, tables) == 0
