"""Kernel helpers every competitive game shares: seats of duplicate deals, majorities, wins.

RULES.md sections 1 and 2 score kinds by majority (the player or players with the most
slices of a kind score its value; zero slices never qualify) and split a shared first
place evenly (section 1's **default**). Each helper comes twice: compiled for kernels
(``jit_borrowing``: they write into the caller's arrays) and as plain Python on lists for
reference engines and score sheets, so that parity tests compare two implementations.
"""

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import DECISION_STREAM, new_stream

WIN_UNITS = 840
"""A game's win is 840 units, split evenly among tied winners (840 = lcm(1..8))."""


@jit
def seat_of_deal(game, players, duplicate):
    """``(deal, rotation)`` of a game: with duplicate deals each deal is played P times."""
    if duplicate:
        return game // players, game % players
    return game, 0


@jit_borrowing
def reseat(rotation, by_player, by_seat):
    """``by_seat[s] = by_player[(s - rotation) % P]``: each seat takes its player's row.

    Rows may be of any shape; both arrays are C-contiguous, so they are walked flat.
    """
    players = by_player.shape[0]
    flat_player = by_player.reshape(players, -1)
    flat_seat = by_seat.reshape(players, -1)
    for seat in range(players):
        player = (seat - rotation) % players
        for i in range(flat_player.shape[1]):
            flat_seat[seat, i] = flat_player[player, i]


@jit_borrowing
def majority_points(counts, majority_value, ties_score, out):
    """``out[seat]``: the majority points of every seat from ``counts[seat, kind]``.

    Only the first ``len(majority_value)`` columns of ``counts`` are kinds. A tied
    majority scores for every tied seat when ``ties_score``, for none otherwise.
    """
    players = counts.shape[0]
    out[:] = 0
    for kind in range(majority_value.shape[0]):
        most = 0
        holders = 0
        for seat in range(players):
            if counts[seat, kind] > most:
                most = counts[seat, kind]
                holders = 1
            elif counts[seat, kind] == most:
                holders += 1
        if most == 0 or (holders > 1 and not ties_score):
            continue
        for seat in range(players):
            if counts[seat, kind] == most:
                out[seat] += majority_value[kind]


@jit_borrowing
def split_wins(total, win_units):
    """``win_units[seat]``: ``WIN_UNITS`` split evenly among the seats with the top total."""
    best = total[0]
    for seat in range(total.shape[0]):
        best = max(best, total[seat])
    winners = 0
    for seat in range(total.shape[0]):
        if total[seat] == best:
            winners += 1
    for seat in range(total.shape[0]):
        win_units[seat] = WIN_UNITS // winners if total[seat] == best else 0


@jit_borrowing
def lead_chance(lead, still_open, uncertainty, ties_score):
    """Estimated chance that a lead of ``lead`` slices over the best opponent wins a majority.

    A tie counts half a slice for us when ties score, against us when they do not; the
    lead is shrunk by the slices of the kind still to be decided, then squashed into
    (0, 1). With nothing left to come the answer is exact.
    """
    margin = float(lead) + (0.5 if ties_score else -0.5)
    if still_open <= 0:
        return 1.0 if margin > 0.0 else 0.0
    shrunk = margin / (1.0 + uncertainty * still_open)
    return 0.5 + 0.5 * shrunk / (1.0 + abs(shrunk))


def play_seated(engine, deal_game, rules, strategies, seed: int, game: int, duplicate: bool):
    """Game ``game`` of ``seed`` by a reference ``engine``, seated and dealt as the kernels do.

    ``strategies`` are by player; with duplicate deals player ``j`` sits at seat
    ``(j + rotation) % P``. ``engine(rules, deal, by_seat, stream)`` must have ``play()``.
    """
    deal, rotation = seat_of_deal(game, rules.players, duplicate)
    players = rules.players
    by_seat = [strategies[(seat - rotation) % players] for seat in range(players)]
    stream = new_stream(seed, game, DECISION_STREAM)
    return engine(rules, deal_game(rules, seed, deal), by_seat, stream).play()


def majority_sheet(counts: list[list[int]], majority_value, ties_score: bool = True) -> list[int]:
    """Plain-Python ``majority_points``: each seat's majority points from its counts."""
    majority = [0] * len(counts)
    for kind, value in enumerate(majority_value):
        most = max(row[kind] for row in counts)
        holders = [s for s, row in enumerate(counts) if most > 0 and row[kind] == most]
        if len(holders) == 1 or (holders and ties_score):
            for seat in holders:
                majority[seat] += int(value)
    return majority


def split_win_units(total: list[int]) -> list[int]:
    """Plain-Python ``split_wins``: every seat's win units from the totals."""
    best = max(total)
    winners = total.count(best)
    return [WIN_UNITS // winners if t == best else 0 for t in total]
