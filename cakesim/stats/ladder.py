"""A strategy ladder: the win matrix, and Elo ratings that summarise it, at P players.

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

**The win matrix** is the result. Cell (i, j) is i's share of the games it plays alone
against a field of j, to be set against the fair share 1/P. At two players the cells (i,
j) and (j, i) add up to 100 %; at more they come from different tables. Each cell has a
95 % interval computed by deal: the games of one deal (its P seatings on duplicate deals)
share the cards, so they are one cluster, not independent trials. The interval is
Wilson's at the effective sample size of the per-deal win shares' variance
(``stats.win_share``), so it stays within 0 to 100 % near the edges.

**Elo ratings** summarise the matrix through the Bradley-Terry model, in Luce's form for
P players: each strategy has a strength b, and the winner of a game of i against P - 1
copies of j is chosen among the P players with chances in proportion to ``exp(b)``, so i
wins with chance ``exp(b_i) / (exp(b_i) + (P - 1) exp(b_j)) = 1 / (1 + exp(b_j + ln(P -
1) - b_i))``: the field of j plays as one opponent of strength ``b_j + ln(P - 1)``. At
two players this is the classic ``1 / (1 + exp(b_j - b_i))``. The maximum-likelihood
strengths ``b`` (mean zero, fitted with ``scipy.optimize`` on the win totals, split wins
counted as fractions) become ``1500 + 400 / ln(10) * b``, so that 400 points are
ten-to-one odds in a game of two. Half a win is added to each side of every table (the
lone strategy's and the field's) before the fit (a Jeffreys-like correction), so that a
strategy that never loses still gets a finite rating.

*Does the model fit?* The deviance ``2 sum [w ln(w / (n p)) + f ln(f / (n (1 - p)))]``
over the tables, with ``w`` and ``f`` the lone strategy's and the field's wins, ``n`` the
games and ``p`` the fitted chance of the lone strategy, is chi-square with (tables -
(strategies - 1)) degrees of freedom when the model holds. (At two players a table's ``f``
is the other cell's ``w``: the sum over both cells of ``w ln(w / (n p))``.) It counts games
as independent, so it is approximate (split wins vary less than whole ones; the games of
a deal are correlated), but a misfit of hundreds of units on a few degrees of freedom is
not an artefact. The model cannot fit a non-transitive matrix (A beats B beats C beats
A), nor one where a strategy beats a strong opponent by more than it beats a weak one.
Then the ratings are a summary and the matrix is the answer.

*Rating intervals* come from a bootstrap of whole deals, jointly across tables: every
table plays the same deals, so its results are correlated with every other table's, and
an interval that treats tables (or games) as independent is too narrow. Each replicate
draws D deal indices with replacement once and uses that draw at every table (the
per-deal win sums of each table weighted by how often each deal was drawn), then refits
the model. The replicates are seeded from the experiment's seed, so the intervals are
reproducible; a rating's interval is its value plus or minus ``z`` times the standard
deviation over the replicates.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as scipy_stats
from scipy.special import expit, xlogy

from cakesim.stats.intervals import win_share

ELO_SCALE = 400 / math.log(10)
ELO_MEAN = 1500.0
REPLICATES = 400
"""Bootstrap replicates: the standard error of a rating is then known to within about 4 %."""
FIT_LEVEL = 0.05
"""The model is said not to fit when its deviance has a p-value below this."""


@dataclass
class Results:
    """A ladder's games deal by deal at one player count: one table per cell (per pairing
    at two players) of distinct strategies."""

    names: list[str]
    """The strategies left after merging, in the ladder's order."""
    pairs: np.ndarray
    """``(tables, 2)`` strategy indices ``(i, j)``: i alone against a field of j (at two
    players ``i < j``, and the table is also j against i)."""
    wins: np.ndarray
    """``(tables, 2, deals)``: i's and the field's wins (ties split) on each deal."""
    games: np.ndarray
    """``(tables, deals)``: games played on each deal."""
    tables: list[str]
    """The label of the table each cell is read from."""
    skipped: list[dict]
    """Tables left out (``table``, ``reason``): a pairing already read, or merged strategies."""
    players: int = 2
    """The player count of every table: the field of j is P - 1 copies of j."""

    def _totals(self, weights: np.ndarray | None) -> np.ndarray:
        return (self.wins.sum(axis=2) if weights is None
                else np.einsum("...d,pkd->...pk", weights, self.wins))

    def matrix(self, weights: np.ndarray | None = None) -> np.ndarray:
        """``wins[..., i, j]``: i's wins alone against a field of j, deals weighted by
        ``weights[..., deal]``. At two players a table fills both (i, j) and (j, i)."""
        totals = self._totals(weights)
        found = np.zeros((*totals.shape[:-2], len(self.names), len(self.names)))
        i, j = self.pairs.T
        found[..., i, j] = totals[..., 0]
        if self.players == 2:
            found[..., j, i] = totals[..., 1]
        return found

    def field(self, weights: np.ndarray | None = None) -> np.ndarray | None:
        """``field[..., i, j]``: the field's wins at the table of cell (i, j), weighted
        likewise; ``None`` at two players, where they are ``matrix()[..., j, i]``."""
        if self.players == 2:
            return None
        totals = self._totals(weights)
        found = np.zeros((*totals.shape[:-2], len(self.names), len(self.names)))
        i, j = self.pairs.T
        found[..., i, j] = totals[..., 1]
        return found


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


def _per_deal(run, win_units: int, lone: int) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, games)`` of a ladder table deal by deal, shapes ``(2, deals)`` and
    ``(deals,)``: the wins of the strategy at slot ``lone`` and of the others together."""
    d = run.by_deal
    units = d.player["win_units"]
    alone = units[:, lone]
    return (np.stack([alone, units.sum(axis=1) - alone]) / win_units,
            np.full(d.deals, run.totals.games_per_deal, dtype=np.int64))


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
        if run.by_deal is None:
            raise ValueError(
                f"the ladder needs every deal's sums, but table {run.table.label!r} kept only "
                f"{run.rows['game'].nunique():,} of its {run.totals.games:,} games: raise "
                f"keep_rows in [experiment] to at least {run.totals.games:,}")
        slot = [s.name for s in run.table.strategies].index(lone)
        wins, games = _per_deal(run, game.win_units, slot)
        found[key] = (run.table.label, wins if (a, b) == key else wins[::-1], games)
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
    deals = max(g.size for g in games)

    def padded(x: np.ndarray) -> np.ndarray:
        # Tables of fewer games end early: their later deals have no games.
        return np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, deals - x.shape[-1])])

    results = Results(kept, np.array(list(found), dtype=np.intp).reshape(-1, 2),
                      np.stack([padded(w) for w in wins]), np.stack([padded(g) for g in games]),
                      list(labels), skipped, players)
    return results, {name: merged[name] for name in strategies if merged[name] != name}


def field_handicap(players: int) -> float:
    """How much stronger P - 1 copies of a strategy are than one, in strength units."""
    return math.log(players - 1)


def win_chance(strength: np.ndarray, players: int = 2) -> np.ndarray:
    """``[i, j]``: the model's chance that i, alone against P - 1 copies of j, wins."""
    return expit(strength[:, None] - strength[None, :] - field_handicap(players))


def bradley_terry(wins: np.ndarray, field: np.ndarray | None = None,
                  players: int = 2) -> np.ndarray:
    """Maximum-likelihood strengths (mean zero) from ``wins[..., i, j]``, i's wins alone
    against a field of j, and ``field[..., i, j]``, that field's wins at the same table.

    Leave ``field`` out at two players, where one table is both cells and the field's
    wins against i are ``wins[..., j, i]``. Given, every cell is a table of its own and the
    field of j plays as one opponent of strength ``b_j + ln(P - 1)``: the fit is the
    two-player one over the strategies and their fields, each field's strength tied to
    its strategy's. (At two players, ``field = wins`` transposed counts every table twice
    and gives the same strengths.)

    Leading axes are independent ladders (bootstrap replicates), fitted in one Newton
    solve: their likelihoods add, so the joint Hessian is block-diagonal.
    """
    k = wins.shape[-1]
    flat = np.asarray(wins, np.float64).reshape(-1, k, k)
    if field is None:
        if players != 2:
            raise ValueError("at more than two players give the field's wins")
        items = flat
    else:
        # Opponents 0..k-1 are the strategies, k..2k-1 their fields: the field of j beat
        # i ``field[i, j]`` times.
        items = np.zeros((len(flat), 2 * k, 2 * k))
        items[:, :k, k:] = flat
        items[:, k:, :k] = np.asarray(field, np.float64).reshape(-1, k, k).transpose(0, 2, 1)
        handicap = np.concatenate([np.zeros(k), np.full(k, field_handicap(players))])
    games = items + items.transpose(0, 2, 1)

    def strengths(free: np.ndarray) -> np.ndarray:
        # The last strength is minus the sum of the others: mean zero.
        free = free.reshape(len(flat), k - 1)
        return np.concatenate([free, -free.sum(axis=1, keepdims=True)], axis=1)

    def spread(b: np.ndarray) -> np.ndarray:
        # Each opponent's share of a change of the strengths: a field moves with its own.
        return b if field is None else np.concatenate([b, b], axis=1)

    def to_free(per_opponent: np.ndarray) -> np.ndarray:
        # The chain rule through ``strengths`` and ``spread``: their transposes.
        per_strength = (per_opponent if field is None
                        else per_opponent[:, :k] + per_opponent[:, k:])
        return (per_strength[:, :-1] - per_strength[:, -1:]).ravel()

    def log_odds(free: np.ndarray) -> np.ndarray:
        b = spread(strengths(free))
        if field is not None:
            b = b + handicap
        return b[:, :, None] - b[:, None, :]

    def minus_log_likelihood(free: np.ndarray) -> tuple[float, np.ndarray]:
        diff = log_odds(free)
        # i's wins minus its expected wins: the score of b_i.
        score = (items - games * expit(diff)).sum(axis=2)
        return float((items * np.logaddexp(0.0, -diff)).sum()), -to_free(score)

    def information_times(free: np.ndarray, vector: np.ndarray) -> np.ndarray:
        p = expit(log_odds(free))
        weight = games * p * (1 - p)
        v = spread(strengths(vector))
        # (L v)_i = sum_j weight_ij (v_i - v_j): the Laplacian of the game weights.
        return to_free(weight.sum(axis=2) * v - np.einsum("rij,rj->ri", weight, v))

    fit = optimize.minimize(minus_log_likelihood, np.zeros(len(flat) * (k - 1)), jac=True,
                            hessp=information_times, method="Newton-CG",
                            options={"xtol": 1e-10})
    return strengths(fit.x).reshape(*wins.shape[:-2], k)


def fit_strengths(wins: np.ndarray, played: np.ndarray, field: np.ndarray | None = None,
                  players: int = 2) -> np.ndarray:
    """Strengths after adding half a win to each side of every table played."""
    return bradley_terry(wins + 0.5 * played, None if field is None else field + 0.5 * played,
                         players)


def goodness_of_fit(wins: np.ndarray, strength: np.ndarray, field: np.ndarray | None = None,
                    players: int = 2) -> dict:
    """The fit's deviance, degrees of freedom and p-value, and its largest gap (a table's
    cell: at two players ``i < j``). ``field`` as in ``bradley_terry``."""
    pairing = field is None
    games = wins + (wins.T if pairing else field)
    tables = (games > 0) & ~np.eye(len(strength), dtype=bool)
    p = win_chance(strength, players)
    lone = xlogy(wins, wins) - xlogy(wins, games * p)
    if pairing:
        # A table's two cells: the field's wins in one are the lone wins in the other.
        tables = np.triu(tables, 1)
        terms = lone[tables | tables.T]
    else:
        terms = (lone + xlogy(field, field) - xlogy(field, games * (1 - p)))[tables]
    deviance = 2 * float(terms.sum())
    df = int(tables.sum()) - (len(strength) - 1)
    observed = np.divide(wins, games, out=np.zeros_like(wins), where=games > 0)
    gap = np.where(tables, np.abs(observed - p), -1.0)
    i, j = np.unravel_index(np.argmax(gap), gap.shape)
    p_value = float(scipy_stats.chi2.sf(deviance, df)) if df > 0 else None
    return {"deviance": deviance, "df": df, "p_value": p_value,
            "fits": p_value is None or p_value >= FIT_LEVEL, "row": int(i), "column": int(j),
            "observed": float(observed[i, j]), "predicted": float(p[i, j])}


def fit(results: Results) -> np.ndarray:
    """The strengths of a ladder's results (half a win added to each side of a table)."""
    wins, field = results.matrix(), results.field()
    return fit_strengths(wins, played(wins, field), field, results.players)


def bootstrap(results: Results, seed: int, replicates: int = REPLICATES) -> np.ndarray:
    """Strengths of ``replicates`` resamples of whole deals, one draw shared by every table."""
    deals = results.games.shape[1]
    rng = np.random.default_rng(seed)
    # How often each deal is drawn in each replicate: one multinomial draw of D deals.
    drawn = rng.multinomial(deals, np.full(deals, 1 / deals), size=replicates)
    weights = drawn.astype(np.float64)
    field = results.field(weights)
    return fit_strengths(results.matrix(weights), played(results.matrix(), results.field()),
                         field, results.players)


def played(wins: np.ndarray, field: np.ndarray | None = None) -> np.ndarray:
    """Tables with at least one game: either side won something (ties count half)."""
    return (wins + (wins.T if field is None else field)) > 0


def deal_cell(wins: np.ndarray, games: np.ndarray) -> dict:
    """One strategy's win share at a table from per-deal wins, interval by deal."""
    per_deal = int(games[0])
    return win_share(float(wins.sum()), float((wins * wins).sum()), wins.size, per_deal,
                     1).as_dict()
