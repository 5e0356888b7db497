"""Seats and wins as every game's kernel and reference engine count them.

With duplicate deals game ``g`` is deal ``g // P`` played in rotation ``g % P``, and
player ``j`` sits at seat ``(j + rotation) % P``, so that every player meets the same luck
from every seat; a game's win is a whole number of units split evenly among the seats
that share first place. Each helper comes twice where both engines need it: compiled for
kernels (``jit_borrowing``: they write into the caller's arrays) and as plain Python for
reference engines and score sheets.
"""

from cakesim.engine.jit import jit, jit_borrowing
from cakesim.engine.seeding import DECISION_STREAM, new_stream


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
def split_wins(total, units, win_units):
    """``win_units[seat]``: a game's ``units`` split evenly among the seats with the top
    total (a shared first place splits the win)."""
    best = total[0]
    for seat in range(total.shape[0]):
        best = max(best, total[seat])
    winners = 0
    for seat in range(total.shape[0]):
        if total[seat] == best:
            winners += 1
    for seat in range(total.shape[0]):
        win_units[seat] = units // winners if total[seat] == best else 0


def seated(by_player: list, rotation: int) -> list:
    """Plain-Python ``reseat``: the item of the player at each seat in ``rotation``."""
    players = len(by_player)
    return [by_player[(seat - rotation) % players] for seat in range(players)]


def play_seated(engine, deal_game, rules, strategies, seed: int, game: int, duplicate: bool):
    """Game ``game`` of ``seed`` by a reference ``engine``, seated and dealt as the kernels do.

    ``strategies`` are by player; with duplicate deals player ``j`` sits at seat
    ``(j + rotation) % P``. ``engine(rules, deal, by_seat, stream)`` must have ``play()``.
    """
    deal, rotation = seat_of_deal(game, rules.players, duplicate)
    stream = new_stream(seed, game, DECISION_STREAM)
    return engine(rules, deal_game(rules, seed, deal), seated(strategies, rotation),
                  stream).play()


def split_win_units(total: list[int], units: int) -> list[int]:
    """Plain-Python ``split_wins``: every seat's share of ``units`` from the totals."""
    best = max(total)
    winners = total.count(best)
    return [units // winners if t == best else 0 for t in total]
