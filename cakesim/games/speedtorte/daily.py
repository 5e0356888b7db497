"""The Speedtorte daily puzzle: one solo deal per date and level, and whether it can be won.

RULES.md section 3, "Daily puzzle: everyone gets the same deal and cards on a date; the
deal must be a pure function of (date, level)". The deal is game 0 of the seed
``daily_seed(date, level)`` at the solo table of the level (one baker, signals mode, no
special orders); ``solver.solve`` then says, knowing the whole draw order, whether it can
be won and the best score (``cakesim speedtorte daily 2026-12-01 --level Konditor``).
"""

import datetime
import hashlib

from cakesim.games.speedtorte import solver
from cakesim.games.speedtorte.pieces import candles_of, flavour_of, piece_name
from cakesim.games.speedtorte.rules import RuleSet, TableRules

DAILY_GAME = 0
"""The game index of the daily deal under its seed."""
SEED_BITS = 63


def daily_seed(date: datetime.date, level: str) -> int:
    """The seed of the daily deal: a pure function of the date and the level's name.

    The first eight bytes of SHA-256 of ``"speedtorte-daily|YYYY-MM-DD|LEVEL"`` (UTF-8),
    read big-endian, keeping the low 63 bits. ``level`` is used as given; pass the
    level's name as ``levels.toml`` spells it (``daily_level`` does), so that "konditor"
    and "Konditor" are the same puzzle.
    """
    text = f"speedtorte-daily|{date.isoformat()}|{level}"
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << SEED_BITS) - 1)


def daily_level(rules: RuleSet, level: str) -> str:
    """The level's name as the rule set spells it (any case in; an InputError if none)."""
    return rules.level(level).name


def daily_table(rules: RuleSet, level: str) -> TableRules:
    """The daily puzzle's table: one baker, signals mode, no special orders."""
    return rules.for_table(players=1, level=level, mode="signals", special_orders=False)


def daily_puzzle(rules: RuleSet, date: datetime.date, level: str) -> solver.Puzzle:
    """The daily deal after setup: plates, hand, supply, display and deck."""
    name = daily_level(rules, level)
    return solver.puzzle(daily_table(rules, name), daily_seed(date, name), DAILY_GAME)


def solve_daily(rules: RuleSet, date: datetime.date, level: str,
                budget: int = solver.DEFAULT_BUDGET) -> solver.Solution:
    """Solve the daily puzzle of ``date`` at ``level`` (see ``solver``)."""
    name = daily_level(rules, level)
    return solver.solve_puzzle(daily_table(rules, name), daily_puzzle(rules, date, name),
                               budget)


def _piece(t: int) -> str:
    return piece_name(flavour_of(t), candles_of(t))


def _card(rules: RuleSet, card: int) -> str:
    c = rules.catalogue.cards[card]
    return f'{c.id} "{c.text_en}"'


def format_daily(rules: RuleSet, date: datetime.date, level: str,
                 solution: solver.Solution) -> str:
    """The daily puzzle as text: the deal, then the solver's verdict, line and statistics."""
    name = daily_level(rules, level)
    table = daily_table(rules, name)
    a = table.arrays
    seed = daily_seed(date, name)
    p = daily_puzzle(rules, date, name)
    lines = [f"Speedtorte daily puzzle {date.isoformat()}, level {name} (solo, "
             f"{p.to_fulfil} order cards to fulfil)",
             f"Seed {seed}, game {DAILY_GAME} (SHA-256 of "
             f'"speedtorte-daily|{date.isoformat()}|{name}", first 8 bytes, low 63 bits)',
             "",
             "Plates: " + ", ".join(f"{i + 1}: {_piece(t)}" for i, t in enumerate(p.tops)),
             "Hand: " + ", ".join(_piece(t) for t in p.hand),
             f"Supply in draw order ({len(p.supply)} pieces):"]
    for start in range(0, len(p.supply), 8):
        chunk = p.supply[start:start + 8]
        lines.append(f"  {start + 1:>2}-{start + len(chunk):>2}: "
                     + ", ".join(_piece(t) for t in chunk))
    lines.append("Order cards on display:")
    lines += [f"  {slot + 1}. {_card(rules, c)}" for slot, c in enumerate(p.display) if c >= 0]
    lines.append("Deck, top first:" if p.queue else "Deck: empty")
    lines += [f"  {k + 1:>2}. {_card(rules, c)}" for k, c in enumerate(p.queue)]
    if p.under_at_setup:
        lines.append("Went under the deck at setup (already met): "
                     + ", ".join(rules.catalogue.cards[c].id for c in p.under_at_setup))
    lines.append("")
    s = solution
    points = sum(int(a["card_points"][c]) for step in s.line for c in step.fulfilled)
    if s.won:
        verdict = "Winnable." if s.proven else "Winnable (a winning line was found)."
        lines.append(f"{verdict} {'Best' if s.proven else 'Best found'} score {s.score} = "
                     f"{points} for {s.fulfilled} cards + win bonus {a['win_bonus']} + "
                     f"{a['record_hunt_piece'] * s.supply_left} for {s.supply_left} pieces "
                     f"left in the supply ({len(s.line)} placements).")
        lines.append("Winning line:")
    else:
        if s.proven:
            lines.append(f"Not winnable. At most {s.fulfilled} of {s.to_fulfil} cards can be "
                         f"fulfilled: best score {s.score}.")
        else:
            lines.append(f"No win found. Most cards fulfilled found: {s.fulfilled} of "
                         f"{s.to_fulfil}, score {s.score}.")
        ending = "the counter stands still" if s.stuck else "the hand is empty"
        lines.append(f"A line reaching it ({len(s.line)} placements, then {ending}):")
    for k, step in enumerate(s.line, 1):
        drew = f"draws {_piece(step.drew)}" if step.drew is not None else "supply empty"
        text = f"  {k:>2}. {_piece(step.piece)} -> plate {step.plate + 1} ({drew})"
        if step.fulfilled:
            text += "; fulfils " + ", ".join(_card(rules, c) for c in step.fulfilled)
        lines.append(text)
    lines.append("")
    if s.proven:
        lines.append(f"Search: {s.states:,} states in {s.seconds:.2f} s; proven best.")
    else:
        lines.append(f"Search stopped after {s.states:,} states ({s.seconds:.2f} s): best "
                     "found so far, not proven.")
    return "\n".join(lines)
