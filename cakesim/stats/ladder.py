"""A strategy ladder: the win matrix, and whether one rating per strategy explains it.

A ladder is read at one player count P at a time. Its tables put one ladder strategy
against a field of another: strategy i at one place and strategy j at the other P - 1
(``against_field`` tables; at two players the field of j is j alone, so these are the
``round_robin`` pairings and one table holds both i against j and j against i). They are
meant to be played on duplicate deals, so the lone strategy sits once in every seat of
every deal. A shared first place counts as a split win, as everywhere. The ``[ladder]``
section analyses each player count separately (``cakesim.reports.ladder``).

**Identical strategies.** Two strategies that make the same moves at P players (the
game decides, from the strategies alone: ``Game.same_play``) are one strategy under two
names. The later name is merged into the earlier: its tables repeat the earlier one's on
the same deals and are left out, and the report says so. So is any later table of a
pairing already read: every table of an experiment plays the same seed, hence the same
deals.

**The win matrix** is the result, and the report leads with it. Cell (i, j) is i's share
of the games it plays alone against a field of j, to be set against the fair share 1/P.
At two players the cells (i, j) and (j, i) add up to 100 %; at more they come from
different tables. Each cell has a 95 % interval computed by deal: the games of one deal
(its P seatings on duplicate deals) share the cards, so they are one cluster, not
independent trials. The interval is Wilson's at the effective sample size of the
per-deal win shares' variance (``stats.win_share``), so it stays within 0 to 100 % near
the edges.

**Ratings: Bradley-Terry with seat terms.** A rating is a model: each strategy has a
strength b and each seat a term a, and the winner of a game is drawn among its P seats
with chances in proportion to ``exp(b + a)`` of the strategy and seat (Luce's choice
model; at two players Bradley and Terry's, with a first-player advantage). Alone at seat t
against P - 1 copies of j, i then wins with chance

    logit P = b_i - b_j + c_t,   c_t = a_t - ln(sum of exp(a_s) over the other seats s),

and ``c_t = logit(pi_t)``, where ``pi_t = exp(a_t) / sum(exp(a))`` is seat t's share of
the wins among players of equal strength (the shares of all seats add up to 1). Without
seat terms ``c_t = -ln(P - 1)``: the field of j plays as one opponent of strength
``b_j + ln(P - 1)``, the seat-free model this one extends. The model is fitted to the
lone strategy's wins at each seat of each table (a binomial cell per table and seat): the
ladder asks how the strategies rank, not which copy of j wins when the field does. (Fitted
to the winning seat as well, the model misses by far more: on Piece o' Cake at four
players, with random alone in the first seat, the greedy-balanced player right after it
wins 96 % of the games where the model says 38 %; deviances of 23,000 to 29,000 at three
to five players.)

The strengths (mean zero) and seat terms (mean zero) are the maximum of the likelihood,
found by ``scipy.optimize`` (a trust-region Newton method with the exact gradient and
Hessian). Half a game per table, spread evenly over its seats and won half the time, is
added before the fit, so that a strategy that never loses, or never wins, still gets a
finite strength; the deviance below is of the games as played. A strength
becomes the Elo rating ``1500 + 400 / ln(10) * b``, so that 400 points are ten-to-one odds
in a game of two, and a seat term the Elo points the seat is worth against the average
seat.

*Intervals* are the sandwich (cluster-robust) ones, with the deal as the cluster: every
table plays the same deals, so a deal's games at every table and seat share its cards,
and an interval that counted games (or tables) as independent would be too narrow. The
covariance is ``H^-1 M H^-1``, with H the information of the fit and M the spread of the
deals' contributions to the score (the gradient of the log-likelihood). A standard error
is never taken below the one of independent games (``H^-1`` alone): a table whose every
game goes one way shows no spread from deal to deal, yet pins a strength down only as
far as its games can (on the committed ladders the clustered errors are 0.9 to 2.4 times
the independent ones).

*Does the model fit?* The deviance ``2 sum [w ln(w / (n p)) + (n - w) ln((n - w) / (n (1 -
p)))]`` over the table-and-seat cells, with ``w`` the lone strategy's wins in its ``n``
games there and ``p`` the fitted chance, is chi-square with (cells - parameters) degrees
of freedom when the model holds. On duplicate deals the games of one cell come from
different deals (the lone strategy sits at a seat once a deal), so they are independent;
the cells of a table share their deals, and split wins vary less than whole ones, so the
test is approximate, but a misfit of hundreds of units on tens of degrees of freedom is
not an artefact. The cell furthest from the model is named with its Pearson residual
``z = (w - n p) / sqrt(n p (1 - p))``. Below ``FIT_LEVEL`` no single rating explains the
matrix: then the report shows the matrix and no rating (no ranking that the data refute).
The model cannot fit a non-transitive matrix (A beats B beats C beats A), nor one where a
strategy beats a strong opponent by more than it beats a weak one, nor a seat that is
worth more to one strategy than to another.

Measured on the committed ladders (the games of ``experiments/*_ladder.toml``), the model
fits at none of the player counts: deviance on degrees of freedom, and the seat-free
model's over the same cells:

    ====================  ===========  ===========  ===========  ===========
    ladder                2P           3P           4P           5P
    ====================  ===========  ===========  ===========  ===========
    Piece o' Cake         184 / 15     1,602 / 54   1,780 / 73   3,368 / 92
      without seats       345 / 16     1,778 / 56   1,985 / 76   3,629 / 96
    La Part du Chef       872 / 35     3,285 / 159  2,371 / 214  2,171 / 269
      without seats       872 / 36     7,715 / 161  2,909 / 217  5,310 / 273
    ====================  ===========  ===========  ===========  ===========

The seat terms help (La Part du Chef at 3P and 5P most), and so does a second strength
per strategy for when it makes up the field (2k - 1 strengths), which still leaves 153 on
10 and 631 on 28 degrees of freedom at 2P and 1,000 to 2,800 at 3 to 5 players. The
largest misfits are matchups, not noise: greedy-deny in the second seat against greedy
wins 98.6 % of Piece o' Cake's 2P games where the model says 99.7 % (z = -10); tuned
alone in the first seat against two random chefs wins 92.5 % where it says 98.7 % (z =
-25); glutton alone against four greedy-deny chefs wins 21.3 % in the first seat, the
model 11.4 % (z = +11). A strategy's strength depends on whom it plays, so no rating of
the strategies alone can hold them.

Alpha-Rank and Nash averaging (the other summaries of such a matrix) rank without a model to
test; with one strategy that beats every other, as on both committed ladders at every
count, both put it alone on top, which the matrix already shows. So the ladder keeps the
matrix as its answer and a rating only where one fits.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as scipy_stats
from scipy.special import expit, logsumexp, softmax, xlogy

from cakesim.stats.intervals import win_share

ELO_SCALE = 400 / math.log(10)
ELO_MEAN = 1500.0
FIT_LEVEL = 0.05
"""The model is said not to fit when its deviance has a p-value below this."""
FLAT = 1e-8
"""A direction of the parameters whose curvature is below this share of the largest is one
the data do not determine."""


@dataclass
class Results:
    """A ladder's games deal by deal at one player count: one table per cell (per pairing
    at two players) of distinct strategies, the lone strategy's results seat by seat."""

    names: list[str]
    """The strategies left after merging, in the ladder's order."""
    pairs: np.ndarray
    """``(tables, 2)`` strategy indices ``(i, j)``: i alone against a field of j (at two
    players ``i < j``, i is the first-seated, and the table is also j against i)."""
    wins: np.ndarray
    """``(tables, seats, deals)``: i's wins (ties split) at each seat on each deal."""
    games: np.ndarray
    """``(tables, seats, deals)``: the games i played at each seat on each deal."""
    tables: list[str]
    """The label of the table each cell is read from."""
    skipped: list[dict]
    """Tables left out (``table``, ``reason``): a pairing already read, or merged strategies."""
    players: int = 2
    """The player count of every table: the field of j is P - 1 copies of j."""

    def cells(self) -> tuple[np.ndarray, np.ndarray]:
        """``(wins, games)`` of every table and seat over all deals, each ``(tables, seats)``."""
        return self.wins.sum(axis=2), self.games.sum(axis=2)

    def per_deal(self, table: int) -> tuple[np.ndarray, np.ndarray]:
        """``(wins, games)`` of the lone strategy at one table, deal by deal (its seats
        together), over the deals that table played."""
        wins, games = self.wins[table].sum(axis=0), self.games[table].sum(axis=0)
        dealt = games > 0
        return wins[dealt], games[dealt]


def merge_identical(game, strategies: dict, players: int = 2) -> dict[str, str]:
    """Each strategy's name -> the first name (in order) of a strategy that plays the same."""
    merged = {}
    for name, strategy in strategies.items():
        merged[name] = next((first for first in dict.fromkeys(merged.values())
                             if game.same_play(strategies[first], strategy, players)), name)
    return merged


def ladder_sides(table, names) -> tuple[str, str] | None:
    """``(lone, field)`` of a ladder table: one ladder strategy at one place against
    another at the other P - 1 (at two players the first-seated is the lone one); else
    ``None`` (self-play, three strategies, two against two, strategies off the ladder)."""
    slots = [s.name for s in table.strategies]
    kinds = list(dict.fromkeys(slots))
    lone = [name for name in kinds if slots.count(name) == 1]
    if len(kinds) != 2 or not set(kinds) <= set(names) or not lone:
        return None
    return lone[0], next(name for name in kinds if name != lone[0])


def player_counts(runs, names) -> dict[int, list[str]]:
    """Every player count with ladder tables -> the ladder strategies that sit at them."""
    seen: dict[int, set[str]] = {}
    for run in runs:
        sides = ladder_sides(run.table, names)
        if sides is not None:
            seen.setdefault(run.table.players, set()).update(sides)
    return {players: [name for name in names if name in seen[players]]
            for players in sorted(seen)}


def cell_name(lone: str, field: str, players: int) -> str:
    """A cell in words: ``a vs b`` at two players, ``a vs field of b`` at more."""
    return f"{lone} vs {field}" if players == 2 else f"{lone} vs field of {field}"


def _per_seat(run, win_units: int, lone: int) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, games)`` of a ladder table, each ``(seats, deals)``: the wins of the
    strategy at slot ``lone`` at each seat deal by deal (ties split), and its games there."""
    rows = run.rows[run.rows["player"] == lone]
    at = (rows["seat"].to_numpy(np.intp), rows["deal"].to_numpy(np.intp))
    shape = (run.table.players, int(rows["deal"].max()) + 1)
    wins, games = np.zeros(shape), np.zeros(shape)
    np.add.at(wins, at, rows["win_units"].to_numpy(np.float64) / win_units)
    np.add.at(games, at, 1.0)
    return wins, games


def collect(runs, names: tuple[str, ...], game,
            players: int = 2) -> tuple[Results, dict[str, str]]:
    """The ladder's deal-by-deal results at ``players`` players, and the merged names
    (name -> the one it plays as)."""
    ladder = [(run, sides) for run in runs if run.table.players == players
              and (sides := ladder_sides(run.table, names)) is not None]
    strategies = {s.name: s for run, _ in ladder for s in run.table.strategies}
    strategies = {name: strategies[name] for name in names if name in strategies}
    merged = merge_identical(game, strategies, players)
    kept = list(dict.fromkeys(merged.get(name, name) for name in names))
    index = {name: kept.index(merged.get(name, name)) for name in names}
    found, skipped = {}, []
    for run, (lone, other) in ladder:
        a, b = index[lone], index[other]
        # At two players one table is both cells: read once, as (first, second).
        key = (min(a, b), max(a, b)) if players == 2 else (a, b)
        if a == b or key in found:
            skipped.append({"table": run.table.label, "reason": (
                ("its two strategies play alike" if players == 2 else
                 "its strategies play alike") if a == b else
                f"repeats {cell_name(kept[key[0]], kept[key[1]], players)} on the same deals")})
            continue
        if not run.rows_complete:
            raise ValueError(
                f"the ladder needs every game's seats, but table {run.table.label!r} kept only "
                f"{run.rows['game'].nunique():,} of its {run.totals.games:,} games: raise "
                f"keep_rows in [experiment] to at least {run.totals.games:,}")
        slot = [s.name for s in run.table.strategies].index(lone)
        # At two players a table read as (second, first) is the first-seated's games.
        slot = slot if (a, b) == key else 1 - slot
        found[key] = (run.table.label, *_per_seat(run, game.win_units, slot))
    cells = (itertools.combinations(range(len(kept)), 2) if players == 2
             else itertools.permutations(range(len(kept)), 2))
    missing = [cell_name(kept[i], kept[j], players) for i, j in cells if (i, j) not in found]
    if missing:
        raise ValueError(
            f"the ladder lacks games for: {', '.join(missing)}; add a round_robin table with "
            "these strategies" if players == 2 else
            f"the ladder at {players} players lacks games for: {', '.join(missing)}; add an "
            f"against_field table at {players} players with these strategies")
    labels, wins, games = zip(*found.values(), strict=True)
    deals = max(g.shape[-1] for g in games)

    def padded(x: np.ndarray) -> np.ndarray:
        # Tables of fewer games end early: their later deals have no games.
        return np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, deals - x.shape[-1])])

    results = Results(kept, np.array(list(found), dtype=np.intp).reshape(-1, 2),
                      np.stack([padded(w) for w in wins]), np.stack([padded(g) for g in games]),
                      list(labels), skipped, players)
    return results, {name: merged[name] for name in strategies if merged[name] != name}


@dataclass
class Fit:
    """A ladder's Bradley-Terry fit with seat terms, and how well it explains the games."""

    strength: np.ndarray
    """``(strategies,)``, mean zero."""
    seat: np.ndarray
    """``(seats,)``: each seat's term, mean zero."""
    covariance: np.ndarray
    """Deal-clustered covariance of ``(strength, seat)`` (the sandwich)."""
    independent: np.ndarray
    """Their covariance if every game were independent (the inverse information)."""
    chance: np.ndarray
    """``(tables, seats)``: the model's chance that the lone strategy wins there."""
    deviance: float
    df: int
    p_value: float | None
    """``None`` when the model has as many parameters as cells: nothing to test."""
    misfit: tuple[int, int, float]
    """``(table, seat, z)``: the cell furthest from the model and its Pearson residual."""

    @property
    def fits(self) -> bool:
        """Whether the deviance does not reject the model at ``FIT_LEVEL``."""
        return self.p_value is None or self.p_value >= FIT_LEVEL

    def standard_errors(self) -> np.ndarray:
        """The standard errors of ``(strength, seat)``, in strength units: the
        deal-clustered ones, but never below those of independent games."""
        return np.sqrt(np.maximum(np.diag(self.covariance), np.diag(self.independent)))


def seat_odds(seat: np.ndarray) -> np.ndarray:
    """``c[t]``: the log-odds that a player alone at seat t beats a field of equals,
    ``a_t - ln(sum of exp(a_s), s != t)``."""
    others = np.where(np.eye(seat.size, dtype=bool), -np.inf, seat[None, :])
    return seat - logsumexp(others, axis=1)


def win_chance(strength: np.ndarray, seat: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """``[table, t]``: the chance that the lone strategy of each pairing, alone at seat t
    against its field, wins."""
    i, j = np.asarray(pairs).T
    return expit((strength[i] - strength[j])[:, None] + seat_odds(seat)[None, :])


def _design(pairs: np.ndarray, strategies: int, seat: np.ndarray) -> np.ndarray:
    """``[table, t, parameter]``: how the log-odds of each cell move with the strengths
    and the seat terms (``e_i - e_j`` and ``e_t - softmax`` of the other seats)."""
    tables, seats = len(pairs), seat.size
    by_strength = np.zeros((tables, strategies))
    np.add.at(by_strength, (np.arange(tables), pairs[:, 0]), 1.0)
    np.add.at(by_strength, (np.arange(tables), pairs[:, 1]), -1.0)
    by_seat = np.eye(seats) - _others(seat)
    return np.concatenate([np.broadcast_to(by_strength[:, None, :], (tables, seats, strategies)),
                           np.broadcast_to(by_seat, (tables, seats, seats))], axis=2)


def _others(seat: np.ndarray) -> np.ndarray:
    """``[t, s]``: seat s's share of the weight of the seats other than t (0 at s = t)."""
    return softmax(np.where(np.eye(seat.size, dtype=bool), -np.inf, seat[None, :]), axis=1)


def _mean_zero(size: int) -> np.ndarray:
    """``(size, size - 1)``: free values to ``size`` values of mean zero (the last is minus
    the sum of the others)."""
    return np.vstack([np.eye(size - 1), -np.ones((1, size - 1))])


def bradley_terry(results: Results) -> Fit:
    """The maximum-likelihood strengths and seat terms of a ladder, with their
    deal-clustered covariance and the fit's deviance (half a game added per table)."""
    k, seats = len(results.names), results.players
    pairs = results.pairs
    wins, games = results.cells()
    played = games > 0
    # Half a game per table, split evenly over the seats it was played at, half of it won.
    extra = 0.5 * played / np.maximum(played.sum(axis=1, keepdims=True), 1)
    fitted_wins, fitted_games = wins + extra / 2, games + extra
    free = np.zeros((k + seats, k + seats - 2))
    free[:k, :k - 1], free[k:, k - 1:] = _mean_zero(k), _mean_zero(seats)

    def unpack(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        full = free @ x
        return full[:k], full[k:]

    def minus_log_likelihood(x: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        strength, seat = unpack(x)
        odds = (strength[pairs[:, 0]] - strength[pairs[:, 1]])[:, None] + seat_odds(seat)
        chance = expit(odds)
        design = _design(pairs, k, seat)
        residual = fitted_wins - fitted_games * chance
        weight = fitted_games * chance * (1 - chance)
        value = -float((fitted_wins * -np.logaddexp(0, -odds)
                        + (fitted_games - fitted_wins) * -np.logaddexp(0, odds)).sum())
        hessian = np.einsum("tp,tpm,tpn->mn", weight, design, design)
        # The seat terms enter the log-odds through a log-sum-exp: its curvature, weighted
        # by each seat's residuals, is the rest of the Hessian.
        share = _others(seat)
        by_seat = residual.sum(axis=0)
        hessian[k:, k:] += np.einsum("t,ts->s", by_seat, share)[:, None] * np.eye(seats) \
            - np.einsum("t,ts,tu->su", by_seat, share, share)
        return value, -free.T @ np.einsum("tp,tpm->m", residual, design), free.T @ hessian @ free

    found = optimize.minimize(lambda x: minus_log_likelihood(x)[:2], np.zeros(free.shape[1]),
                              jac=True, hess=lambda x: minus_log_likelihood(x)[2],
                              method="trust-exact", options={"gtol": 1e-9})
    strength, seat = unpack(found.x)
    information = minus_log_likelihood(found.x)[2]
    chance = win_chance(strength, seat, pairs)
    # The sandwich: each deal's contribution to the score, over every table and seat.
    design = _design(pairs, k, seat)
    score = np.einsum("tpd,tpm->dm", results.wins - results.games * chance[:, :, None],
                      design) @ free
    score = score[results.games.sum(axis=(0, 1)) > 0]
    # Directions the data do not pin down (seats a lone strategy never sat at) have a
    # curvature of rounding size: they are neither inverted nor counted as parameters.
    flat = FLAT * np.linalg.norm(information, 2)
    bread = np.linalg.pinv(information, rcond=FLAT, hermitian=True)
    # One deal says nothing of how deals vary: no interval.
    meat = (len(score) * np.cov(score, rowvar=False) if len(score) > 1
            else np.full_like(information, np.nan))
    covariance = free @ bread @ meat @ bread @ free.T
    return _with_fit(strength, seat, covariance, free @ bread @ free.T, chance, wins, games,
                     int(np.linalg.matrix_rank(information, tol=flat, hermitian=True)))


def _with_fit(strength, seat, covariance, independent, chance, wins, games,
              parameters: int) -> Fit:
    """The fit with its deviance, degrees of freedom, p-value and largest misfit."""
    played = games > 0
    lost = games - wins
    terms = (xlogy(wins, wins) - xlogy(wins, games * chance)
             + xlogy(lost, lost) - xlogy(lost, games * (1 - chance)))
    deviance = 2 * float(terms[played].sum())
    df = int(played.sum()) - parameters
    p_value = float(scipy_stats.chi2.sf(deviance, df)) if df > 0 else None
    spread = np.sqrt(games * chance * (1 - chance))
    z = np.divide(wins - games * chance, spread, out=np.zeros_like(spread), where=spread > 0)
    table, t = np.unravel_index(np.argmax(np.where(played, np.abs(z), -1.0)), z.shape)
    return Fit(strength, seat, covariance, independent, chance, deviance, df, p_value,
               (int(table), int(t), float(z[table, t])))


def deal_cell(wins: np.ndarray, games: np.ndarray) -> dict:
    """One strategy's win share at a table from per-deal wins, interval by deal."""
    per_deal = int(games[0])
    return win_share(float(wins.sum()), float((wins * wins).sum()), wins.size, per_deal,
                     1).as_dict()
