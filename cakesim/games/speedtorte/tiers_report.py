"""The ``[tiers]`` section of a Speedtorte experiment: do the answers depend on the bakers?

The experiment plays the same levels, player counts and variants with bakers of several
skill tiers (by default ``novice``, ``team`` and ``lookahead``, see ``strategies.py``); the
tables share their seed, hence their deals. This section puts them side by side:

- per level, player count and variant, each tier's win rate, and each tier minus the
  base tier (``team``) paired by deal on the deals both played;
- "what the deal allows": on the first ``bound_deals`` deals of each table in turn mode
  without special orders, the perfect-information solver (``solver.upper_bound``, which
  sees every hand and the supply order; in the Eilauftrag it places in free order and
  ignores the clock) wins at least ``won`` and at most ``won + unproven`` of them;
- the skill trace (``trace``: tiers that differ only in the lookahead's budget, weakest
  first): each step's change in win rate paired by deal, whether the last step settled
  within ±1 pp (``reports.skill.moved``), and how far the strongest tier falls short of
  what the deals allow;
- the shortfall split (``clairvoyant = true``): the section plays the trace's strongest
  tier again on the same deals, told the deal (``clairvoyant`` = 1: its play-outs run in
  the true deal instead of sampled worlds; a diagnostic, never a tier or a table). Its
  gain, paired by deal, is what knowing the deal (the other hands, the supply's order,
  the cards to come) is worth to that search; what it still falls short of the solver
  is the search's own;
- how stable the order cards' difficulty ranking is across tiers: Spearman's rank
  correlation of the cards' fulfilled share once shown between two tiers, with a
  bootstrap interval over deals.
"""

import itertools
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from scipy import stats

from cakesim.engine.cache import ChunkCache
from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import module_code_version
from cakesim.engine.runner import TableRun, run_table
from cakesim.engine.tables import Table
from cakesim.games.speedtorte import solver
from cakesim.games.speedtorte.strategies import LOOKAHEAD, W_SAMPLES, told_the_deal
from cakesim.reports.figures import new_figure, save_figure
from cakesim.reports.skill import moved
from cakesim.reports.text import percent, points
from cakesim.stats.intervals import paired_difference, wilson

SUPPLEMENT = True
"""The tiers add to the experiment's answer (the team bakers' win rates); they do not
replace it."""
LEADS = ("win_rate", "cards")
"""The answers (both of them win rates, per level and player count) that open with the
strongest tier's win rates (``answer_lead``)."""
DEFAULT_TIERS = ("novice", "team", "lookahead")
RANK_DRAWS = 400
"""Bootstrap replicates of each rank correlation."""
NEAR_BOUND = 0.05
"""How close (5 pp) the strongest tier's win rate must come to the share of deals the
perfect-information solver wins to be called near what the deals allow."""
SETTLED = {"settled": "settled within ±1 pp", "moving": "still moving by more than 1 pp",
           "unresolved": "not resolved to ±1 pp"}
"""The last step of a trace in words, by ``reports.skill.moved``'s verdict."""
VERB = {"settled": "has", "moving": "is", "unresolved": "is"}


@dataclass(frozen=True)
class TierQuestion:
    """The tiers compared (weakest first), the base tier, and the solver's share."""

    tiers: tuple[str, ...]
    base: str
    bound_deals: int
    bound_budget: int
    bound_players: tuple[int, ...]
    """Player counts whose tables get the solver's bound (it runs in plain Python)."""
    trace: tuple[str, ...] = ()
    """The tiers of the skill trace, weakest first: the lookahead at growing budgets."""
    clairvoyant: bool = False
    """Whether to play the trace's strongest tier told the deal beside it, to split its
    shortfall from the bound into what knowing the deal is worth and the rest."""

    def at_most(self, games: int) -> "TierQuestion":
        """The same question for runs of ``games``: one solved deal per 100 games at most
        (the solver runs in plain Python, up to seconds a deal)."""
        return replace(self, bound_deals=min(self.bound_deals, games // 100))


def parse(table: Table) -> TierQuestion:
    """``[tiers]``: ``tiers`` (strategy names, weakest first), ``base``, ``trace``,
    ``bound_deals``, ``bound_budget``, ``bound_players``, ``clairvoyant``."""
    table.only(["tiers", "base", "trace", "bound_deals", "bound_budget", "bound_players",
                "clairvoyant"])
    tiers = tuple(table.get("tiers", list, list(DEFAULT_TIERS)))
    base = table.get("base", str, "team")
    if base not in tiers:
        raise table.error("base", f"{base!r} is not allowed; allowed values: {', '.join(tiers)}")
    trace = tuple(table.get("trace", list, []))
    if any(tier not in tiers for tier in trace) or len(trace) == 1 or (
            [t for t in tiers if t in trace] != list(trace)):
        raise table.error("trace", f"{list(trace)!r} is not allowed; allowed values: two or "
                                   f"more of {', '.join(tiers)}, in that order")
    clairvoyant = table.get("clairvoyant", bool, False)
    if clairvoyant and not trace:
        raise table.error("clairvoyant", "true is not allowed without a trace; allowed: false")
    return TierQuestion(tiers, base, table.int_in("bound_deals", 0, 10_000, 40),
                        table.int_in("bound_budget", 1000, 10**8, solver.DEFAULT_BUDGET),
                        tuple(table.int_list("bound_players", 1, 5, [1, 3])), trace,
                        clairvoyant)


def check(question: TierQuestion, tables: list, path) -> None:
    """Refuse, before a game is played, a tier told the deal: a diagnostic, not a baker."""
    for table in tables:
        tier = _tier_of(table, question.tiers)
        if tier is not None and told_the_deal(table.strategies):
            raise InputError(path, "tiers.tiers",
                             f"{tier!r} is told the deal (clairvoyant = 1): a diagnostic, "
                             "not a tier; allowed: bakers that see what the rules let them "
                             "see (the section plays the diagnostic itself with "
                             "clairvoyant = true)")


def _tier_of(table, tiers) -> str | None:
    names = {s.name for s in table.strategies}
    return names.pop() if len(names) == 1 and names <= set(tiers) else None


def _setting(run) -> tuple:
    t = run.table
    return (t.rules.level.name, t.players, t.variant,
            t.rules.timing.name if t.rules.timing is not None else "")


def analyse(experiment, runs, question: TierQuestion, n_jobs: int = -1,
            cache: ChunkCache | None = None) -> dict:
    """Every number of the section, from the experiment's runs (every deal's sums kept);
    the solver's bounds are filed in ``cache``, so that a second run reads them back."""
    groups: dict[tuple, dict[str, object]] = {}
    for run in runs:
        # ``check`` refused tiers told the deal when the experiment was read.
        tier = _tier_of(run.table, question.tiers)
        if tier is not None:
            groups.setdefault(_setting(run), {})[tier] = run
    settings = []
    for key, by_tier in groups.items():
        if question.base not in by_tier or len(by_tier) < 2:
            continue
        base = by_tier[question.base]
        level, players, variant, profile = key
        row = {"level": level, "players": players, "variant": variant, "profile": profile,
               "tiers": {}}
        for tier in question.tiers:
            if tier not in by_tier:
                continue
            run = by_tier[tier]
            won = run.by_deal.game["won"]
            entry = {"win_rate": wilson(float(won.mean()), won.size).as_dict(),
                     "games": int(won.size)}
            if tier != question.base:
                entry["minus_base"] = _paired(run, base)
            row["tiers"][tier] = entry
        row["bound"] = _bound(base, by_tier, question, experiment.seed, cache)
        told = (_told(by_tier[question.trace[-1]], n_jobs, cache)
                if question.clairvoyant and all(t in by_tier for t in question.trace) else None)
        row["trace"] = _trace(row, by_tier, question.trace, told)
        settings.append(row)
    return {"tiers": list(question.tiers), "base": question.base, "settings": settings,
            "bound_deals": question.bound_deals, "bound_budget": question.bound_budget,
            "trace": _budgets(runs, question.trace),
            "ranks": _rank_stability(groups, question, experiment.seed)}


def _told(run: TableRun, n_jobs: int, cache: ChunkCache | None) -> TableRun:
    """``run``'s table played again on the same deals with every baker told the deal (the
    chunks kept in ``cache``, so that a second run reads them back)."""
    table = run.table
    seers = tuple(replace(s, name=f"{s.name} told the deal",
                          weights=(*s.weights, ("clairvoyant", 1.0))) for s in table.strategies)
    told = replace(table, strategies=seers, label=f"{table.label} told the deal")
    return run_table(told, int(run.by_deal.game["won"].size), run.seed, n_jobs,
                     progress=False, cache=cache)


def _paired(run, other) -> dict:
    """``run``'s win rate minus ``other``'s on the deals both played (one seed: deal d is
    the same deal in both)."""
    won, other_won = run.by_deal.game["won"], other.by_deal.game["won"]
    n = min(won.size, other_won.size)
    return paired_difference(won[:n].astype(float), other_won[:n].astype(float)).as_dict()


def _budgets(runs, trace: tuple[str, ...]) -> dict[str, int | None]:
    """Each trace tier's budget: the lookahead's worlds a decision (None: not a lookahead)."""
    found: dict[str, int | None] = {}
    for run in runs:
        baker = run.table.strategies[0]
        if baker.name in trace and baker.name not in found:
            row = baker.params
            found[baker.name] = int(row[W_SAMPLES]) if row[0] == LOOKAHEAD else None
    return {tier: found.get(tier) for tier in trace}


def _trace(row: dict, by_tier, trace: tuple[str, ...],
           told: TableRun | None = None) -> dict | None:
    """The skill trace at one setting (``row``, its tiers and bound filled in): each step
    up and its paired change in win rate, whether the last step settled, the strongest
    tier's shortfall from the bound, and the clairvoyant search's rate beside it. None
    unless the setting plays every tier of the trace: a step skipping a tier would read as
    one doubling."""
    played = [tier for tier in trace if tier in by_tier]
    if len(trace) < 2 or len(played) < len(trace):
        return None
    steps = [{"lower": lower, "upper": upper, "change": _paired(by_tier[upper], by_tier[lower])}
             for lower, upper in itertools.pairwise(played)]
    strongest, bound = played[-1], row["bound"]
    # The solver's share of its first deals against the strongest tier's over all of its
    # deals: both estimate the same table's rate (the bound's from few deals, hence rough).
    short = None if bound is None else (
        bound["won"] / bound["deals"] - row["tiers"][strongest]["win_rate"]["value"])
    seer = None
    if told is not None:
        won = told.by_deal.game["won"]
        seer = {"win_rate": wilson(float(won.mean()), won.size).as_dict(),
                "minus_strongest": _paired(told, by_tier[strongest]),
                "short_of_bound": None if bound is None else (
                    bound["won"] / bound["deals"] - float(won.mean())),
                "bound_deals_won": None if bound is None else int(won[:bound["deals"]].sum())}
    return {"steps": steps, "strongest": strongest, "moved": moved([steps[-1]["change"]]),
            "short_of_bound": short, "clairvoyant": seer}


def _bound(base, by_tier, question: TierQuestion, seed: int,
           cache: ChunkCache | None) -> dict | None:
    """The solver's wins on the first deals, and each tier's wins on the same deals."""
    table = base.table
    if (question.bound_deals == 0 or table.rules.special_orders
            or table.players not in question.bound_players):
        return None
    order = "free" if table.rules.timing is not None else "turns"
    deals = min(question.bound_deals, base.by_deal.deals)
    # The solver runs in plain Python (seconds a deal): its result is filed like a chunk.
    key = {"result": "upper_bound", "code": module_code_version(solver.__name__),
           "rules": table.rules, "seed": seed, "deals": deals,
           "budget": question.bound_budget, "order": order}
    found = cache.load_result(key) if cache is not None else None
    if found is None:
        bound = solver.upper_bound(table.rules, seed, deals, question.bound_budget, order)
        found = {"won": int(bound["won"]), "unproven": int(bound["unproven"])}
        if cache is not None:
            cache.store_result(key, found)
    return {"deals": deals, "order": order, "won": found["won"],
            "unproven": found["unproven"],
            "tiers_won": {tier: int(run.by_deal.game["won"][:deals].sum())
                          for tier, run in by_tier.items()}}


def _card_shares(runs) -> tuple[np.ndarray, np.ndarray]:
    """Per deal and card, summed over ``runs``: times shown and times fulfilled."""
    deals = max(run.by_deal.deals for run in runs)
    cards = runs[0].by_deal.item["shown"].shape[1]
    shown, done = np.zeros((deals, cards)), np.zeros((deals, cards))
    for run in runs:
        d = run.by_deal
        shown[:d.deals] += d.item["shown"]
        done[:d.deals] += d.item["fulfilled"]
    return shown, done


def _rank_stability(groups, question: TierQuestion, seed: int) -> list[dict]:
    """Spearman's correlation of the cards' fulfilled shares, base tier against each other,
    over the deals both tiers played, with a bootstrap interval over those deals."""
    pooled = {}
    for tier in question.tiers:
        runs = [g[tier] for g in groups.values() if tier in g]
        if runs:
            pooled[tier] = _card_shares(runs)
    if question.base not in pooled:
        return []
    rng = np.random.default_rng(seed)
    found = []
    for tier, (shown, done) in pooled.items():
        if tier == question.base:
            continue
        base_shown, base_done = pooled[question.base]
        n = min(shown.shape[0], base_shown.shape[0])
        seen = (shown[:n].sum(0) > 0) & (base_shown[:n].sum(0) > 0)

        def rho(rows, shown=shown, done=done, base_shown=base_shown, base_done=base_done,
                seen=seen):
            a = done[rows].sum(0)[seen] / np.maximum(shown[rows].sum(0)[seen], 1)
            b = base_done[rows].sum(0)[seen] / np.maximum(base_shown[rows].sum(0)[seen], 1)
            return stats.spearmanr(a, b).statistic

        value = rho(np.arange(n))
        draws = [rho(rng.integers(0, n, n)) for _ in range(RANK_DRAWS)]
        low, high = np.nanpercentile(draws, [2.5, 97.5])
        found.append({"tier": tier, "against": question.base, "cards": int(seen.sum()),
                      "deals": int(n), "rho": float(value), "low": float(low),
                      "high": float(high)})
    return found


def headline(data: dict) -> str:
    """The answer in one line: how far the tiers lie apart where it matters most."""
    hardest = [s for s in data["settings"] if len(s["tiers"]) == len(data["tiers"])]
    if not hardest:
        return "No setting was played by every tier."
    worst = min(hardest, key=lambda s: s["tiers"][data["base"]]["win_rate"]["value"])
    rates = ", ".join(f"{tier} {100 * worst['tiers'][tier]['win_rate']['value']:.0f} %"
                      for tier in data["tiers"])
    apart = [e["minus_base"] for e in worst["tiers"].values() if "minus_base" in e]
    verdict = ("Skill matters" if any(d["low"] > 0 or d["high"] < 0 for d in apart)
               else "The tiers agree within their intervals")
    text = (f"{verdict}: at {worst['level']} {worst['players']}P {worst['variant']} the "
            f"bakers win {rates}")
    if worst["bound"] is not None:
        b = worst["bound"]
        text += (f"; the deals allow at least {b['won']} of {b['deals']} "
                 f"({100 * b['won'] / b['deals']:.0f} %)")
    ranks = "; ".join(f"card ranking {r['tier']} vs {r['against']}: rank correlation "
                      f"{r['rho']:.2f} [{r['low']:.2f}, {r['high']:.2f}]" for r in data["ranks"])
    return text + (f". {ranks}." if ranks else ".") + trace_headline(data)


def trace_headline(data: dict) -> str:
    """The skill trace in two sentences: where the last doubling settled, and how far the
    strongest tier is from what the deals allow ("" without a trace)."""
    traced = [s for s in data["settings"] if s.get("trace")]
    if not traced:
        return ""
    strongest = traced[0]["trace"]["strongest"]
    groups = {word: [_where(s) for s in traced if s["trace"]["moved"] == word]
              for word in SETTLED}
    text = (f" Skill trace ({_budget_words(data['trace'])}): from its last doubling, the win "
            "rate " + "; ".join(f"{VERB[w]} {SETTLED[w]} at {', '.join(where)}"
                                    for w, where in groups.items() if where) + ".")
    bounded = [s for s in traced if s["trace"]["short_of_bound"] is not None]
    if bounded:
        # A difference of two shares: 40/40 - 0.95 is 0.05000000000000004 in floating
        # point, shown (and meant) as 5 pp; 5.4 pp, also shown as 5, is not within 5.
        near = [_where(s) for s in bounded
                if s["trace"]["short_of_bound"] <= NEAR_BOUND + 1e-9]
        worst = max(bounded, key=lambda s: s["trace"]["short_of_bound"])
        text += (f" {strongest} is within {100 * NEAR_BOUND:.0f} pp of what the deals allow "
                 f"at {len(near)} of {len(bounded)} bounded settings"
                 + (f" ({', '.join(near)})" if near else "")
                 + f"; it falls furthest short at {_where(worst)}, by "
                   f"{100 * worst['trace']['short_of_bound']:.0f} pp.")
        text += _split_line(worst)
    return text


def _split_line(s: dict) -> str:
    """`` Told the deal ..., the same search wins +21.3 pp [+17.9, +24.7] more there and
    falls 15 pp short ...``: the worst shortfall split ("" without the diagnostic)."""
    trace = s["trace"]
    told = trace.get("clairvoyant")
    if told is None or told["short_of_bound"] is None:
        return ""
    gain, short = told["minus_strongest"], 100 * told["short_of_bound"]
    told_what = (" Told the deal (every hand, the supply's order and the cards to come: a "
                 "diagnostic, not a fair baker), the same search")
    if gain["low"] > 0:
        return (f"{told_what} wins {points(gain)} more there (paired by deal) and falls "
                f"{short:.0f} pp short: that gain is what knowing the deal is worth to it, the "
                "rest is the search's own.")
    # Knowing more can only help a perfect player; a search that plays worse with it
    # misuses it (its play-outs model the game wrongly), so nothing splits.
    change = "no clear change" if gain["high"] >= 0 else "less"
    return (f"{told_what} wins {points(gain)} there ({change}, paired by deal): what it "
            "leaves is its search's, not missing information.")


def answer_lead(data: dict) -> tuple[str, str] | None:
    """The win rates of the trace's strongest tier, which a win-rate answer opens with (its
    sentence, and its line for the index); None without a trace.

    The sentence says why these rates may not be the game's ceiling: where the last
    doubling of the search still gained (paired by deal), and where the
    perfect-information solver won more of the first deals than this tier did on the same
    deals (it sees every hand and the supply's order, so that gap is partly information).
    """
    if not data["trace"]:
        return None
    top = list(data["trace"])[-1]
    traced = [s for s in data["settings"] if s.get("trace") and s["trace"]["strongest"] == top]
    if not traced:
        return None

    def rate(s: dict) -> float:
        return s["tiers"][top]["win_rate"]["value"]

    easiest, hardest = max(traced, key=rate), min(traced, key=rate)
    worlds = data["trace"][top]
    clock = " without a clock" if any(s["profile"] for s in traced) else ""
    span = (f"{100 * rate(easiest):.0f} % ({_where(easiest)}) down to "
            f"{100 * rate(hardest):.0f} % ({_where(hardest)})")
    sentence = (f"With the strongest bakers played, {top}"
                + (f" ({worlds} sampled worlds a decision)" if worlds else "")
                + f", the win rate{clock} over the {len(traced)} settings it plays runs from "
                + span)
    gaining = [s for s in traced if s["trace"]["steps"][-1]["change"]["low"] > 0]
    def extra(s: dict) -> int:
        return s["bound"]["won"] - s["bound"]["tiers_won"][top]

    bounded = [s for s in traced if s["bound"] is not None]
    most = max(bounded, key=extra) if bounded else None
    caveats = []
    if gaining:
        caveats.append(f"the last doubling of its search still gained at {len(gaining)} of "
                       f"{len(traced)} settings (paired by deal)")
    if most is not None and extra(most) > 0:
        told = most["trace"].get("clairvoyant")
        seer = ("" if told is None else
                f"; told the deal, the same search wins {told['bound_deals_won']} of them")
        caveats.append("the perfect-information solver (which sees every hand and the "
                       f"supply's order) won up to {extra(most)} of the same first "
                       f"{most['bound']['deals']} deals more than it ({_where(most)}{seer})")
    sentence += ("; these may not be the game's ceiling: " + " and ".join(caveats) + "."
                 if caveats else ".")
    return sentence, f"Strongest bakers ({top}): {span}."


def _where(s: dict) -> str:
    """A setting's name: ``Meister 3P signals``, then the timing profile if any."""
    return f"{s['level']} {s['players']}P {s['variant']}" + (
        f" {s['profile']}" if s["profile"] else "")


def _budget_words(budgets: dict[str, int | None]) -> str:
    """``lookahead 8, lookahead16 16 worlds a decision``: the trace's tiers and budgets."""
    return ", ".join(f"{tier} {n} worlds" if n else tier for tier, n in budgets.items())


def numbers(data: dict) -> dict[str, dict]:
    """Each tier's win rate and its difference from the base tier, for baselines."""
    found = {}
    for s in data["settings"]:
        name = f"{s['level']} {s['players']}P {s['variant']} {s['profile']}".strip()
        for tier, entry in s["tiers"].items():
            found[f"{name} | {tier} win rate"] = entry["win_rate"]
            if "minus_base" in entry:
                found[f"{name} | {tier} minus {data['base']}"] = entry["minus_base"]
        told = (s.get("trace") or {}).get("clairvoyant")
        if told is not None:
            found[f"{name} | {s['trace']['strongest']} told the deal minus it"] = (
                told["minus_strongest"])
    return found


def markdown(data: dict, plot: str | None) -> list[str]:
    """The section as report text: a table per setting, the bound, the ranking's stability."""
    tiers, base = data["tiers"], data["base"]
    lines = ["## Skill tiers: does the answer depend on the bakers?", "",
             "The same deals played by bakers of each tier (weakest first): `novice` is the "
             "team baker with slips (random noise on every placement's score), who never "
             "waits and never withdraws a signal; `team` is the default baker; `lookahead` "
             "plays its best few placements out in sampled worlds. Differences are paired "
             "by deal. *Deal allows*: of the first deals, how many the perfect-information "
             "solver wins (it sees every hand and the supply; a deal it could not settle "
             "within its budget counts as open, so the bound is a range).", ""]
    if plot:
        lines += [f"![win rate by tier]({plot})", ""]
    head = " | ".join(tiers)
    # The trace's stronger tiers are compared step by step in their own table.
    stronger = list(data["trace"])[1:]
    against = [t for t in tiers if t != base and t not in stronger]
    diffs = " | ".join(f"{t} minus {base}" for t in against)
    lines += [f"| setting | {head} | {diffs} | deal allows |",
              "|---" * (2 + len(tiers) + len(against)) + "|"]
    for s in data["settings"]:
        cells = [percent(s["tiers"][t]["win_rate"]) if t in s["tiers"] else "—" for t in tiers]
        moves = [points(s["tiers"][t]["minus_base"]) if t in s["tiers"] else "—"
                 for t in against]
        b = s["bound"]
        allows = "—" if b is None else (
            f"{b['won']} to {b['won'] + b['unproven']} of {b['deals']} "
            f"({', '.join(f'{t} {n}' for t, n in b['tiers_won'].items())})")
        lines.append(f"| {_where(s)} | {' | '.join(cells)} | {' | '.join(moves)} | {allows} |")
    lines.append("")
    lines += _trace_markdown(data)
    if data["ranks"]:
        lines += ["How stable is the order cards' difficulty ranking across tiers? Spearman's "
                  "rank correlation of the cards' fulfilled share once shown, 95 % bootstrap "
                  "interval over deals:", ""]
        lines += [f"- {r['tier']} against {r['against']}: {r['rho']:.2f} "
                  f"[{r['low']:.2f}, {r['high']:.2f}] over {r['cards']} cards and "
                  f"{r['deals']:,} deals." for r in data["ranks"]]
        lines.append("")
    return lines


def _trace_markdown(data: dict) -> list[str]:
    """The skill trace's table: each doubling's paired change, the verdict, the bound."""
    traced = [s for s in data["settings"] if s.get("trace")]
    if not traced:
        return []
    pairs = list(itertools.pairwise(data["trace"]))
    lines = ["### Skill trace: does the win rate stop moving as the search grows?", "",
             f"The lookahead at doubling budgets ({_budget_words(data['trace'])} a "
             "decision), on the same deals. Each step is the stronger tier's win rate minus "
             "the weaker's, paired by deal; the verdict reads the last step: settled when its "
             "95 % interval lies within ±1 pp. *Short of the bound*: the share of the first "
             "deals the perfect-information solver wins minus the strongest tier's win rate; "
             "the solver sees every hand and the supply's order, which no baker may, so part "
             "of any shortfall is the game's hidden information and not the bakers' play."]
    strongest = traced[0]["trace"]["strongest"]
    split = [] if not any(s["trace"].get("clairvoyant") for s in traced) else [
        f"{strongest} told the deal minus it", "told the deal, short of the bound"]
    if split:
        lines[-1] += (f" *Told the deal*: {strongest} played again on the same deals with "
                      "its play-outs in the true deal (every hand, the supply's order and the "
                      "cards to come), a diagnostic and not a fair baker; where its gain, "
                      "paired by deal, is clearly positive, it is what knowing the deal is "
                      "worth to that search, and what it still falls short of the bound is "
                      "the search's own; a gain near zero or below says the shortfall is not "
                      "missing information.")
    columns = ["setting", *(f"{upper} minus {lower}" for lower, upper in pairs), "last step",
               "short of the bound", *split]
    lines += ["", f"| {' | '.join(columns)} |", "|---" * len(columns) + "|"]
    for s in traced:
        trace = s["trace"]
        by_step = {(st["lower"], st["upper"]): points(st["change"]) for st in trace["steps"]}
        cells = [_pp(trace["short_of_bound"])]
        if split:
            seer = trace.get("clairvoyant")
            cells += (["—", "—"] if seer is None else
                      [points(seer["minus_strongest"]), _pp(seer["short_of_bound"])])
        lines.append(f"| {_where(s)} | " + " | ".join(by_step.get(p, "—") for p in pairs)
                     + f" | {SETTLED[trace['moved']]} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _pp(short: float | None) -> str:
    """A shortfall from the bound, ``+12.3 pp``, or ``—`` without a bound."""
    return "—" if short is None else f"{100 * short:+.1f} pp"


def plot(data: dict, runs, summary: dict, out: Path) -> str | None:
    """Win rate by level for each tier (one panel per player count, base variant)."""
    shown = [s for s in data["settings"] if s["variant"] == data["settings"][0]["variant"]
             and s["profile"] == data["settings"][0]["profile"]] if data["settings"] else []
    counts = sorted({s["players"] for s in shown})
    if not counts:
        return None
    fig, axes = new_figure(1, len(counts), figsize=(3.2 * len(counts) + 1.6, 3.6),
                           squeeze=False, sharey=True)
    levels = list(dict.fromkeys(s["level"] for s in shown))
    x = np.arange(len(levels))
    for ax, players in zip(axes[0], counts, strict=True):
        here = {s["level"]: s for s in shown if s["players"] == players}
        for tier in data["tiers"]:
            y = [100 * here[lv]["tiers"][tier]["win_rate"]["value"]
                 if lv in here and tier in here[lv]["tiers"] else np.nan for lv in levels]
            ax.plot(x, y, marker="o", label=tier)
        bound = [100 * here[lv]["bound"]["won"] / here[lv]["bound"]["deals"]
                 if lv in here and here[lv]["bound"] else np.nan for lv in levels]
        if not np.all(np.isnan(bound)):
            ax.plot(x, bound, linestyle="none", marker="_", markersize=14, color="black",
                    label="deal allows (at least)")
        ax.set_xticks(x, levels, rotation=30, fontsize=7)
        ax.set_ylim(0, 105)
        ax.set_title(f"{players} player{'s' if players > 1 else ''}", fontsize=9)
    axes[0][0].set_ylabel("win rate (%)")
    # One legend for every panel: the bound's marker may be missing from the last one.
    entries = {}
    for ax in axes[0]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            entries.setdefault(label, handle)
    axes[0][-1].legend(entries.values(), entries.keys(), loc="upper left",
                       bbox_to_anchor=(1.02, 1), fontsize=8)
    return save_figure(fig, summary, "win rate by skill tier", out / "tiers.png",
                       intervals=False).name
