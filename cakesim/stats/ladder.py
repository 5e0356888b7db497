"""A strategy ladder: the head-to-head win matrix, and Elo ratings that summarise it.

The ``[ladder]`` section of an experiment reads every two-player table whose two
strategies are both on the ladder (``round_robin`` tables, on duplicate deals so each
strategy sits in each seat). A shared first place counts half a win to each.

**Identical strategies.** Two strategies that make the same moves at two players (the
game decides, from the strategies alone: ``Game.same_play``) are one strategy
under two names. The later name is merged into the earlier: its tables repeat the
earlier one's pairings on the same deals and are left out, and the report says so. So
is any later table of a pairing already read: every table of an experiment plays the
same seed, hence the same deals.

**The win matrix** is the result. Cell (i, j) is i's share of the games against j, with a
95 % interval computed by deal: the games of one deal (both seatings of a duplicate deal)
share the cards, so they are one cluster, not independent trials. The interval is
Wilson's at the effective sample size of the per-deal win shares' variance
(``stats.win_share``), so it stays within 0 to 100 % near the edges.

**Elo ratings** summarise the matrix through the Bradley-Terry model: i beats j with
chance ``1 / (1 + exp(b_j - b_i))``. The maximum-likelihood strengths ``b`` (mean zero,
fitted with ``scipy.optimize``) become ``1500 + 400 / ln(10) * b``, so that 400 points
are ten-to-one odds. Half a win is added to each side of every pairing before the fit (a
Jeffreys-like correction), so that a strategy that never loses still gets a finite
rating.

*Does the model fit?* The deviance ``2 sum w_ij ln(w_ij / (n_ij p_ij))`` over the ordered
pairs, with ``n_ij`` the games of the pairing and ``p_ij`` the fitted chance, is
chi-square with (pairings - (strategies - 1)) degrees of freedom when the model holds.
It counts games as independent, so it is approximate (split wins vary less than whole
ones; the games of a deal are correlated), but a misfit of hundreds of units on a few
degrees of freedom is not an artefact. The model cannot fit a non-transitive matrix (A
beats B beats C beats A), nor one where a strategy beats a strong opponent by more than
it beats a weak one. Then the ratings are a summary and the matrix is the answer.

*Rating intervals* come from a bootstrap of whole deals, jointly across tables: every
table plays the same deals, so its results are correlated with every other table's, and
an interval that treats tables (or games) as independent is too narrow. Each replicate
draws D deal indices with replacement once and uses that draw at every table (the
per-deal win sums of each table weighted by how often each deal was drawn), then refits
the model. The replicates are seeded from the experiment's seed, so the intervals are
reproducible; a rating's interval is its value plus or minus ``z`` times the standard
deviation over the replicates.
"""

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
    """The ladder's games deal by deal: one table per pairing of distinct strategies."""

    names: list[str]
    """The strategies left after merging, in the ladder's order."""
    pairs: np.ndarray
    """``(pairings, 2)`` strategy indices ``(i, j)``, ``i < j``."""
    wins: np.ndarray
    """``(pairings, 2, deals)``: i's and j's wins (ties split) on each deal."""
    games: np.ndarray
    """``(pairings, deals)``: games played on each deal."""
    tables: list[str]
    """The label of the table each pairing is read from."""
    skipped: list[dict]
    """Tables left out (``table``, ``reason``): a pairing already read, or merged strategies."""

    def matrix(self, weights: np.ndarray | None = None) -> np.ndarray:
        """``wins[..., i, j]``: i's wins against j, deals weighted by ``weights[..., deal]``."""
        k = len(self.names)
        totals = (self.wins.sum(axis=2) if weights is None
                  else np.einsum("...d,pkd->...pk", weights, self.wins))
        found = np.zeros((*totals.shape[:-2], k, k))
        i, j = self.pairs.T
        found[..., i, j] = totals[..., 0]
        found[..., j, i] = totals[..., 1]
        return found


def merge_identical(game, strategies: dict, players: int = 2) -> dict[str, str]:
    """Each strategy's name -> the first name (in order) of a strategy that plays the same."""
    merged = {}
    for name, strategy in strategies.items():
        merged[name] = next((first for first in dict.fromkeys(merged.values())
                             if game.same_play(strategies[first], strategy, players)), name)
    return merged


def _per_deal(run, win_units: int) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, games)`` of a two-player table deal by deal: shapes ``(2, deals)``, ``(deals,)``."""
    d = run.by_deal
    return (d.player["win_units"].T / win_units,
            np.full(d.deals, run.totals.games_per_deal, dtype=np.int64))


def collect(runs, names: tuple[str, ...], game) -> tuple[Results, dict[str, str]]:
    """The ladder's deal-by-deal results, and the merged names (name -> the one it plays as)."""
    # Two different ladder strategies at a two-player table; self-play tables are no match.
    ladder = [run for run in runs if run.table.players == 2
              and len({s.name for s in run.table.strategies} & set(names)) == 2]
    strategies = {s.name: s for run in ladder for s in run.table.strategies}
    strategies = {name: strategies[name] for name in names if name in strategies}
    merged = merge_identical(game, strategies)
    kept = list(dict.fromkeys(merged.get(name, name) for name in names))
    index = {name: kept.index(merged.get(name, name)) for name in names}
    found, skipped = {}, []
    for run in ladder:
        a, b = (index[s.name] for s in run.table.strategies)
        if a == b or (min(a, b), max(a, b)) in found:
            skipped.append({"table": run.table.label, "reason": (
                "its two strategies play alike" if a == b else
                f"repeats {kept[min(a, b)]} vs {kept[max(a, b)]} on the same deals")})
            continue
        if run.by_deal is None:
            raise ValueError(
                f"the ladder needs every deal's sums, but table {run.table.label!r} kept only "
                f"{run.rows['game'].nunique():,} of its {run.totals.games:,} games: raise "
                f"keep_rows in [experiment] to at least {run.totals.games:,}")
        wins, games = _per_deal(run, game.win_units)
        found[min(a, b), max(a, b)] = (run.table.label, wins if a < b else wins[::-1], games)
    missing = [f"{kept[i]} vs {kept[j]}" for i in range(len(kept))
               for j in range(i + 1, len(kept)) if (i, j) not in found]
    if missing:
        raise ValueError(f"the ladder lacks games for: {', '.join(missing)}; add a "
                         "round_robin table with these strategies")
    labels, wins, games = zip(*found.values(), strict=True)
    deals = max(g.size for g in games)

    def padded(x: np.ndarray) -> np.ndarray:
        # Tables of fewer games end early: their later deals have no games.
        return np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, deals - x.shape[-1])])

    results = Results(kept, np.array(list(found), dtype=np.intp).reshape(-1, 2),
                      np.stack([padded(w) for w in wins]), np.stack([padded(g) for g in games]),
                      list(labels), skipped)
    return results, {name: merged[name] for name in strategies if merged[name] != name}


def bradley_terry(wins: np.ndarray) -> np.ndarray:
    """Maximum-likelihood strengths (mean zero) from ``wins[..., i, j]``, i's wins over j.

    Leading axes are independent ladders (bootstrap replicates), fitted in one Newton
    solve: their likelihoods add, so the joint Hessian is block-diagonal.
    """
    k = wins.shape[-1]
    flat = np.asarray(wins, np.float64).reshape(-1, k, k)
    games = flat + flat.transpose(0, 2, 1)

    def strengths(free: np.ndarray) -> np.ndarray:
        # The last strength is minus the sum of the others: mean zero.
        free = free.reshape(len(flat), k - 1)
        return np.concatenate([free, -free.sum(axis=1, keepdims=True)], axis=1)

    def to_free(per_strength: np.ndarray) -> np.ndarray:
        # The chain rule through ``strengths``: its transpose.
        return (per_strength[:, :-1] - per_strength[:, -1:]).ravel()

    def log_odds(free: np.ndarray) -> np.ndarray:
        b = strengths(free)
        return b[:, :, None] - b[:, None, :]

    def minus_log_likelihood(free: np.ndarray) -> tuple[float, np.ndarray]:
        diff = log_odds(free)
        # i's wins minus its expected wins: the score of b_i.
        score = (flat - games * expit(diff)).sum(axis=2)
        return float((flat * np.logaddexp(0.0, -diff)).sum()), -to_free(score)

    def information_times(free: np.ndarray, vector: np.ndarray) -> np.ndarray:
        p = expit(log_odds(free))
        weight = games * p * (1 - p)
        v = strengths(vector)
        # (L v)_i = sum_j weight_ij (v_i - v_j): the Laplacian of the game weights.
        return to_free(weight.sum(axis=2) * v - np.einsum("rij,rj->ri", weight, v))

    fit = optimize.minimize(minus_log_likelihood, np.zeros(len(flat) * (k - 1)), jac=True,
                            hessp=information_times, method="Newton-CG",
                            options={"xtol": 1e-10})
    return strengths(fit.x).reshape(*wins.shape[:-2], k)


def fit_strengths(wins: np.ndarray, played: np.ndarray) -> np.ndarray:
    """Strengths after adding half a win to each side of every pairing played."""
    return bradley_terry(wins + 0.5 * played)


def goodness_of_fit(wins: np.ndarray, strength: np.ndarray) -> dict:
    """The fit's deviance, degrees of freedom and p-value, and its largest gap (i < j)."""
    games = wins + wins.T
    played = np.triu(games > 0, 1)
    p = expit(strength[:, None] - strength[None, :])
    both = played | played.T
    deviance = 2 * float((xlogy(wins, wins) - xlogy(wins, games * p))[both].sum())
    df = int(played.sum()) - (len(strength) - 1)
    observed = np.divide(wins, games, out=np.zeros_like(wins), where=games > 0)
    gap = np.where(played, np.abs(observed - p), -1.0)
    i, j = np.unravel_index(np.argmax(gap), gap.shape)
    p_value = float(scipy_stats.chi2.sf(deviance, df)) if df > 0 else None
    return {"deviance": deviance, "df": df, "p_value": p_value,
            "fits": p_value is None or p_value >= FIT_LEVEL, "row": int(i), "column": int(j),
            "observed": float(observed[i, j]), "predicted": float(p[i, j])}


def bootstrap(results: Results, seed: int, replicates: int = REPLICATES) -> np.ndarray:
    """Strengths of ``replicates`` resamples of whole deals, one draw shared by every table."""
    deals = results.games.shape[1]
    rng = np.random.default_rng(seed)
    # How often each deal is drawn in each replicate: one multinomial draw of D deals.
    drawn = rng.multinomial(deals, np.full(deals, 1 / deals), size=replicates)
    return fit_strengths(results.matrix(drawn.astype(np.float64)), played(results.matrix()))


def played(wins: np.ndarray) -> np.ndarray:
    """Pairings with at least one game: either side won something (ties count half)."""
    return (wins + wins.T) > 0


def deal_cell(wins: np.ndarray, games: np.ndarray) -> dict:
    """One strategy's win share against another from per-deal wins, interval by deal."""
    per_deal = int(games[0])
    return win_share(float(wins.sum()), float((wins * wins).sum()), wins.size, per_deal,
                     1).as_dict()
