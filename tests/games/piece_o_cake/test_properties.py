"""Invariants that hold in every game (hypothesis picks the games)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from cakesim.games.piece_o_cake.reference import score_sheet
from tests.games.piece_o_cake.conftest import (
    GAME,
    RULES,
    STRATEGY_NAMES,
    reference_result,
    table_of,
)


def _playable(players: int, variant: str, names: list[str]) -> str:
    """``variant``, or base where the count has no such variant or a fitted chooser plays
    the joker (its shipped networks read the base rules' kinds)."""
    fitted_joker = "joker" in variant and any(
        GAME.named_strategy(n, players).chooser == "fitted" for n in names)
    return variant if GAME.has_variant(RULES, players, variant) and not fitted_joker else "base"


tables = st.builds(
    lambda players, variant, names, seed, game: (
        table_of(players, _playable(players, variant, names), names), seed, game),
    st.integers(2, 5), st.sampled_from(GAME.variants),
    st.lists(st.sampled_from(STRATEGY_NAMES), min_size=1, max_size=1),
    st.integers(0, 2**32), st.integers(0, 10**6))
"""A table of any variant (the joker, rounds; base where the count has no such variant)."""


@settings(max_examples=60, deadline=None)
@given(tables)
def test_score_is_majority_plus_cream_and_slices_are_conserved(case):
    table, seed, first = case
    # A search player at every seat plays a game in up to 0.4 s (a lookahead one in a few
    # ms): two of its games check the same rule steps as twenty of a heuristic's.
    searching = any(s.needs_search_space for s in table.strategies)
    chunk = GAME.play_chunk(table, seed, first, 2 if searching else 20)
    seat, per_game = chunk.seat, chunk.game
    assert (seat["total"] == seat["majority"] + seat["cream"]).all()
    assert (seat["win_units"].sum(axis=1) == GAME.win_units).all()
    rules = table.rules
    dealt = RULES.cakes * RULES.slices_per_cake + len(rules.bonus_after_cakes)
    kept = per_game["eaten_slices"] + per_game["collected_slices"] + per_game["discarded"]
    assert (kept == rules.rounds * dealt).all()
    assert (seat["majority"].max(axis=1) <= rules.rounds * sum(RULES.majority_value)).all()
    if rules.joker:
        assert (per_game["joker_eaten"] + per_game["joker_placed"] <= rules.rounds).all()


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5).flatmap(lambda p: st.lists(
    st.lists(st.integers(0, 4), min_size=8, max_size=8), min_size=p, max_size=p)),
    st.booleans())
def test_every_player_tied_for_most_scores_the_kind(collected, ties_score):
    majority, total, win_units = score_sheet(collected, [0] * len(collected),
                                             RULES.majority_value, ties_score)
    for seat, row in enumerate(collected):
        expected = 0
        for kind, value in enumerate(RULES.majority_value):
            most = max(r[kind] for r in collected)
            holders = sum(r[kind] == most for r in collected)
            if row[kind] == most > 0 and (holders == 1 or ties_score):
                expected += value
        assert majority[seat] == expected
    best = max(total)
    assert all((w > 0) == (t == best) for w, t in zip(win_units, total, strict=True))


@settings(max_examples=40, deadline=None)
@given(tables)
def test_every_logged_move_is_legal(case):
    table, seed, game = case
    result = reference_result(table, seed, game)
    players = table.players
    by_cake = {}
    for move in result.log:
        by_cake.setdefault((move.round, move.cake), []).append(move)
    assert sorted(by_cake) == [(r, c) for r in range(table.rules.rounds)
                               for c in range(RULES.cakes)]
    for (round_number, cake), moves in by_cake.items():
        # The round's first waiter sits left of the last round's.
        waiter = (round_number + cake) % players
        cut, choices = moves[0], [m for m in moves if m.action in ("take", "decline", "pass")]
        assert cut.action == "cut" and cut.seat == waiter
        assert 1 <= len(cut.portions) <= table.rules.portion_limit
        assert sum(len(p) for p in cut.portions) == RULES.slices_per_cake
        # Everyone chooses once, left of the waiter first, the waiter last.
        assert [m.seat for m in choices] == [(waiter + t) % players for t in
                                             range(1, players + 1)]
        takes = [m for m in choices if m.action == "take"]
        assert len({m.portion for m in takes}) == len(takes)
        assert all(tuple(p for p, _ in m.slices) == cut.portions[m.portion] for m in takes)
        bonus = [m for m in moves if m.action == "bonus"]
        assert len(bonus) == (cake + 1 in table.rules.bonus_after_cakes)
        assert all(m.seat == waiter and len(m.slices) == 1 for m in bonus)
