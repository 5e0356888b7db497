"""A game's move log as text a person can read, and score sheets from real playtests."""

from pathlib import Path

from cakesim.engine.tables import Table, read_json
from cakesim.games.part_du_chef.reference import Move, Result, Slice, score_sheet
from cakesim.games.part_du_chef.rules import RuleSet


def describe_slice(rules: RuleSet, piece: Slice) -> str:
    """``truffe(1)*``: kind and olives, ``*`` for a finisher; ``pepper``, ``burnt``."""
    if piece.category >= len(rules.kinds):
        return rules.categories[piece.category]
    return f"{rules.kinds[piece.category]}({piece.olives}){'*' if piece.finisher else ''}"


def seat_name(seat: int) -> str:
    """``first chef`` for seat 0, else ``seat N`` (1-based)."""
    return "first chef" if seat == 0 else f"seat {seat + 1}"


def describe_move(rules: RuleSet, move: Move) -> str:
    """One move of the log as a sentence."""
    who = seat_name(move.seat)
    if move.action == "cut":
        portions = "  |  ".join(f"[{i + 1}] " + " ".join(describe_slice(rules, p) for p in portion)
                                for i, portion in enumerate(move.portions))
        return f"{who} cuts {len(move.portions)} portions: {portions}"
    if move.action == "take":
        decided = ", ".join(f"{'eats' if eaten else 'keeps'} {describe_slice(rules, p)}"
                            for p, eaten in move.slices)
        return f"{who} takes portion [{move.portion + 1}]: {decided}"
    if move.action == "steal":
        return (f"  {who}'s finisher steals a kept {rules.kinds[move.category]} from "
                f"{seat_name(move.victim)}")
    if move.action == "empty-steal":
        return (f"  {who}'s finisher steals nothing: no opponent keeps "
                f"{rules.kinds[move.category]}")
    swaps = "; ".join(f"gives {rules.categories[give]} to {seat_name(owner)} for their "
                      f"{rules.categories[take]}" for give, owner, take in move.swaps)
    return f"{who} plays La Marianne: {swaps}"


def format_replay(rules: RuleSet, result: Result, header: str) -> str:
    """The whole game: every move by pizza, then the score sheet."""
    lines = [header]
    pizza = -1
    for move in result.log:
        if move.pizza != pizza:
            pizza = move.pizza
            lines.append(f"\nPizza {pizza + 1}")
        lines.append("  " + describe_move(rules, move))
    sheet = result.sheet
    lines.append("\nScores (majority + olives + slices + diversity - burnt = total, win share)")
    for seat, player in enumerate(result.players):
        piles = ", ".join(f"{name} {count}" for name, count in
                          zip(rules.categories, player.kept, strict=True) if count) or "nothing"
        peppers = ", ".join(rules.kinds[k] for k in sheet.peppers[seat])
        share = sheet.win_units[seat] / sum(sheet.win_units)
        lines.append(
            f"  {seat_name(seat)}: {sheet.majority[seat]} + {sheet.olives[seat]} + "
            f"{sheet.slices[seat]} + {sheet.diversity[seat]} - "
            f"{rules.burnt_penalty * sheet.burnt[seat]} = {sheet.total[seat]}, win share "
            f"{share:.2f}; kept: {piles}" + (f"; peppers as {peppers}" if peppers else ""))
    return "\n".join(lines)


def score_file(rules: RuleSet, path: str | Path) -> dict:
    """Score an end position from a JSON file: ``{"scores": [...], "winners": [...]}``.

    Each player gives ``kept`` (slices kept face up at the end, by kind, ``pepper`` and
    ``burnt``), ``eaten_olives`` (olives of every slice eaten) and ``received`` (slices
    received from portions that earn the receipt point, burnt excluded). With the
    ``holder`` receipt rule, ``eaten`` (slices eaten) replaces ``received``. Peppers are
    assigned as the rule set says. Winners are 0-based seats.
    """
    source = str(path)
    top = Table(read_json(path, "score"), source)
    top.only(["players"])
    entries = top.list_between("players", rules.min_players, rules.max_players)
    categories = rules.categories
    box = [rules.count_of(c) for c in range(len(categories))]
    olives_in_box = sum(rules.slice_olives)
    pointed = len(rules.slice_category) - box[rules.burnt]
    holder = rules.receipt_point == "holder"
    kept, received, olives, eaten = [], [], [], []
    for index, entry in enumerate(entries):
        player = Table(entry, source, f"players[{index}]")
        player.only(["kept", "eaten_olives", "received", "eaten"])
        pile = player.sub("kept", {})
        row = [0] * len(categories)
        for name in pile.data:
            if name not in categories:
                raise pile.error(name, f"unknown kind; kinds: {', '.join(categories)}")
            row[categories.index(name)] = pile.int_in(name, 0, box[categories.index(name)])
        kept.append(row)
        olives.append(player.int_in("eaten_olives", 0, olives_in_box, 0))
        received.append(player.int_in("received", 0, pointed, 0 if holder else ...))
        eaten.append(player.int_in("eaten", 0, pointed, ... if holder else 0))
    for c, name in enumerate(categories):
        count = sum(row[c] for row in kept)
        if count > box[c]:
            raise top.error("players", f"{count} kept {name} slices in all, but the game "
                                       f"has {box[c]}")
    for what, values, most in (("received", received, pointed), ("eaten_olives", olives,
                                                                 olives_in_box)):
        if sum(values) > most:
            raise top.error("players", f"{sum(values)} {what} in all, but the game has "
                                       f"only {most}")
    sheet = score_sheet(rules, kept, received, olives, eaten)
    return {"scores": sheet.total, "winners": [s for s, w in enumerate(sheet.win_units) if w]}


def end_position(rules: RuleSet, result: Result) -> dict:
    """A finished game's end position in the format ``score_file`` reads.

    Scoring it again must give the game's own scores: the score file and the engine
    agree on what an end position is worth.
    """
    holder = rules.receipt_point == "holder"
    players = []
    for p in result.players:
        entry = {"kept": {rules.categories[c]: n for c, n in enumerate(p.kept) if n},
                 "eaten_olives": sum(piece.olives for piece in p.eaten)}
        entry |= {"eaten": len(p.eaten)} if holder else {"received": p.received}
        players.append(entry)
    return {"players": players}
