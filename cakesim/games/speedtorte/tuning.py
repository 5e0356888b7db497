"""Recommend level settings that hit target win rates (RULES.md section 3, "Levels").

For each level, keep its card tiers and families and try every card count: the
recommended count is the one whose simulated win rate lies nearest the level's target.
All counts are played on the same deals (same seed), so neighbouring counts compare
fairly.
"""

from dataclasses import replace

import pandas as pd

from cakesim.engine.contract import Game
from cakesim.engine.errors import InputError
from cakesim.engine.runner import run_table
from cakesim.games.speedtorte.rules import RuleSet
from cakesim.stats.intervals import wilson

DEFAULT_TARGETS = {"Lehrling": 0.9, "Geselle": 0.75, "Konditor": 0.6, "Meister": 0.45,
                   "Hofzuckerbäcker": 0.3}
"""cakesim's default targets: each level clearly harder than the one before."""


def parse_targets(text: str, rules: RuleSet) -> dict[str, float]:
    """``Lehrling=0.9,Meister=0.4``: a target win rate per level (others keep defaults)."""
    targets = {lv.name: DEFAULT_TARGETS.get(lv.name, 0.5) for lv in rules.levels}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        level = rules.level(name.strip()).name
        try:
            rate = float(value)
        except ValueError:
            rate = -1.0
        if not 0 < rate < 1:
            raise InputError("--targets", level, f"{value!r} is not a win rate between 0 and 1")
        targets[level] = rate
    return targets


def recommend_levels(game: Game, rules: RuleSet, players: int, targets: dict[str, float],
                     variant: str = "signals", baker: str = "team", games: int = 2000,
                     seed: int = 20261201, n_jobs: int = -1) -> pd.DataFrame:
    """Per level: the card count whose win rate is nearest its target, with the evidence."""
    bakers = [game.named_strategy(baker)] * players
    rows = []
    for level in rules.levels:
        pool = len(game.table(rules, players, bakers, variant, level=level.name).rules.pool)
        tried = []
        for cards in range(1, pool + 1):
            trial = replace(rules, levels=tuple(replace(lv, cards=cards) if lv == level else lv
                                                for lv in rules.levels))
            table = game.table(trial, players, bakers, variant, level=level.name)
            if table.rules.cards_to_fulfil < 1:
                continue
            run = run_table(table, games, seed, n_jobs, progress=False)
            rate = wilson(run.totals.game_sum["won"] / run.totals.games, run.totals.games)
            tried.append((cards, rate))
        target = targets[level.name]
        best_cards, best = min(tried, key=lambda t: abs(t[1].value - target))
        rates = [rate.value for _, rate in tried]
        now = dict(tried).get(level.cards)
        rows.append({"level": level.name, "tiers": list(level.tiers), "target": target,
                     "cards_now": level.cards, "win_rate_now": now.value if now else None,
                     "recommended_cards": best_cards, "win_rate": best.value,
                     "low": best.low, "high": best.high,
                     "reachable": min(rates) <= target <= max(rates)})
    return pd.DataFrame(rows)


def format_recommendation(table: pd.DataFrame, players: int, variant: str, games: int,
                          seed: int, tier: str = "team") -> str:
    """The recommendation as a table a designer reads."""
    lines = [f"Card counts per level for target win rates: {players} player(s), {variant}, "
             f"{tier} bakers, {games:,} games per count, seed {seed}", "",
             f"{'level':<16} {'tiers':<7} {'target':>6}  {'now':>14}  {'recommended':>28}"]
    for r in table.itertuples():
        now = "—" if r.win_rate_now is None else f"{100 * r.win_rate_now:.0f} %"
        lines.append(f"{r.level:<16} {','.join(map(str, r.tiers)):<7} {100 * r.target:>5.0f} %  "
                     f"{r.cards_now:>3} cards {now:>5}  {r.recommended_cards:>3} cards "
                     f"{100 * r.win_rate:>4.0f} % [{100 * r.low:.0f}, {100 * r.high:.0f}]"
                     + ("" if r.reachable else "  (target out of reach with these tiers)"))
    return "\n".join(lines)
