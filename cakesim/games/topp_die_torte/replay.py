"""A game's move log as text a person can read, and score sheets from real playtests."""

from pathlib import Path

from cakesim.engine.tables import Table, read_json
from cakesim.games.topp_die_torte.reference import (
    ANY_COLOUR,
    EXCHANGE_JAR,
    TO_SUPPLY,
    Move,
    Result,
    score_sheet,
)
from cakesim.games.topp_die_torte.rules import (
    BLANK,
    CUBE,
    FACE_KINDS,
    GOLDEN,
    METALS,
    STAR,
    RuleSet,
    most_stars,
)
from cakesim.games.topp_die_torte.strategies import GOLDEN_CUBE


def seat_name(seat: int) -> str:
    """``seat 1 (first placer)`` for seat 0 ("last ate cake"), else ``seat N`` (1-based)."""
    return "seat 1 (first placer)" if seat == 0 else f"seat {seat + 1}"


def jar_name(rules: RuleSet, jar: int) -> str:
    """``3-jar`` (a blue jar by its capacity, as RULES.md names them), ``exchange jar``."""
    if jar == EXCHANGE_JAR:
        return "exchange jar"
    if jar == TO_SUPPLY:
        return "the supply (no jar takes it)"
    if rules.capacity.count(rules.capacity[jar]) > 1:
        return f"jar {jar + 1} ({rules.capacity[jar]} cubes)"
    return f"{rules.capacity[jar]}-jar"


def cube_name(rules: RuleSet, colour: int) -> str:
    """``pink``, ``golden``, or ``any-colour``."""
    if colour == GOLDEN_CUBE:
        return "golden"
    if colour == ANY_COLOUR:
        return "any-colour"
    return rules.colours[colour]


def end_cubes_text(rules: RuleSet, amount: int) -> str:
    """What ``amount`` golden symbols bring at the end (``end_cubes``), e.g. ``2 cubes of
    any colour`` or ``1 golden cube``."""
    plural = "" if amount == 1 else "s"
    if rules.end_cubes == "golden":
        return f"{amount} golden cube{plural}"
    return f"{amount} cube{plural} of any colour"


def face_text(rules: RuleSet, kind: int, amount: int) -> str:
    """What a die face does, e.g. ``2 cubes of any colour``, ``+1 star``."""
    plural = "" if amount == 1 else "s"
    if kind == CUBE:
        return f"{amount} cube{plural} of any colour"
    if kind == GOLDEN:
        return f"{amount} golden cube{plural}"
    if kind == STAR:
        return f"+{amount} star{plural}"
    if kind == BLANK:
        return "blank: nothing"
    return f"{amount} {FACE_KINDS[kind]} chip{plural}"


def describe_move(rules: RuleSet, move: Move) -> str:
    """One move of the log as a sentence (a ``lay`` or ``golden`` line names the seat; the
    moves it brings about follow it, indented)."""
    if move.action == "lay":
        missed = "" if move.offset == move.target else " (missed)"
        if abs(move.offset) > rules.max_offset:
            missed = " (missed, beyond the outermost offset)"
        connected = ", ".join(rules.colours[c] for c in move.connected) or "no stripe"
        taken = ", ".join(f"{n} {rules.colours[c]}" for c, n in move.taken) or "nothing"
        return (f"{seat_name(move.seat)} lays {rules.tile_ids[move.tile]} "
                f"{rules.tile_text(move.tile)}: aimed {move.target:+d}, landed "
                f"{move.offset:+d}{missed}; connects {connected}; takes {taken}")
    if move.action == "golden":
        plural = "" if move.amount == 1 else "s"
        return (f"{seat_name(move.seat)}: {move.amount} golden symbol{plural} on the cake, "
                f"{end_cubes_text(rules, move.amount)}")
    if move.action == "cube":
        return f"{cube_name(rules, move.colour)} cube -> {jar_name(rules, move.jar)}"
    if move.action == "empty":
        return (f"{jar_name(rules, move.jar)} full: {move.amount} cubes back to the supply, "
                f"pays {METALS[rules.metal[move.jar]]}")
    if move.action == "coin":
        if move.value < 0:
            return f"the {METALS[move.metal]} pile is empty: no chip"
        return f"draws a {METALS[move.metal]} chip worth {move.value}"
    if move.action == "die":
        return (f"rolls the die: face {move.face + 1}, "
                f"{face_text(rules, move.kind, move.amount)}")
    if move.action == "trade":
        return f"exchange jar: {move.amount} cubes traded for a cube of any colour"
    plural = "" if move.amount == 1 else "s"
    return (f"the supply is short of {move.amount} {cube_name(rules, move.colour)} "
            f"cube{plural}: lost")


def format_replay(rules: RuleSet, result: Result, header: str) -> str:
    """The whole game round by round: every seat's layer and what it brought, the points
    after each round, the end's cubes for golden symbols, the final scores and the winners."""
    players = len(result.total)
    lines = [header]
    end_cubes = ("golden cubes" if rules.end_cubes == "golden"
                 else "cubes of any colour from the supply")
    current = None
    for move in result.log:
        if move.round != current:
            if current is not None and current < rules.rounds:
                lines.append(_points(result.scores_by_round[current]))
            current = move.round
            lines.append(f"\nRound {current + 1}" if current < rules.rounds
                         else f"\nEnd: {end_cubes} for the golden symbols, placed "
                              "without the colour restriction")
        text = describe_move(rules, move)
        indent = "  " if move.action in ("lay", "golden") else "      "
        lines.append(indent + text)
    lines.append("\nFinal scores (chips + stars = total, win share)")
    for seat in range(players):
        chips = "; ".join(f"{metal} " + " ".join(str(v) for m, v in result.chips[seat]
                                                  if m == metal)
                          for metal in METALS
                          if any(m == metal for m, _ in result.chips[seat])) or "no chips"
        points = sum(v for _, v in result.chips[seat])
        stars = result.stars[seat]
        share = result.win_units[seat] / sum(result.win_units)
        lines.append(f"  {seat_name(seat)}: {chips} = {points} + {stars} "
                     f"star{'' if stars == 1 else 's'} = {result.total[seat]}, "
                     f"win share {share:.2f}")
    winners = [seat_name(s) for s in range(players) if result.win_units[s] > 0]
    lines.append(("Winner: " if len(winners) == 1 else "Winners (tied): ")
                 + ", ".join(winners))
    return "\n".join(lines)


def _points(row: tuple[int, ...]) -> str:
    return "  points: " + ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(row))


def end_position(rules: RuleSet, result: Result) -> dict:
    """A finished game's end position in the format ``score_file`` reads.

    Scoring it again must give the game's own scores: the score file and the engine
    agree on what an end position is worth.
    """
    return {"players": [{"chips": {metal: [v for m, v in chips if m == metal]
                                   for metal in METALS},
                         "stars": stars}
                        for chips, stars in zip(result.chips, result.stars, strict=True)]}


def score_file(rules: RuleSet, path: str | Path) -> dict:
    """Score an end position from a JSON file: ``{"scores": [...], "winners": [...],
    "detail": [...]}`` (winners as 0-based seats).

    Each player gives ``chips`` (per metal, the value of every chip won; a metal may be
    left out) and ``stars``; points are the chip values plus the stars.
    """
    source = str(path)
    top = Table(read_json(path, "score"), source)
    top.only(["players"])
    entries = top.list_between("players", rules.min_players, rules.max_players)
    stars_at_most = most_stars(rules.die_kind, rules.die_amount, rules.chip_values)
    chips, stars = [], []
    for index, entry in enumerate(entries):
        player = Table(entry, source, f"players[{index}]")
        player.only(["chips", "stars"])
        piles = player.sub("chips", {})
        piles.only(METALS)
        chips.append({metal: _chip_values(rules, piles, metal) for metal in METALS})
        stars.append(player.int_in("stars", 0, stars_at_most, 0))
    for m, metal in enumerate(METALS):
        for value in sorted(set(rules.chip_values[m])):
            used = sum(row[metal].count(value) for row in chips)
            box = rules.chip_values[m].count(value)
            if used > box:
                raise top.error("players", f"{used} {metal} chips worth {value} in all, but "
                                           f"the game has {box}")
    values = [[v for metal in METALS for v in row[metal]] for row in chips]
    total, win_units = score_sheet(values, stars, rules.star_points)
    detail = [{"chips": row, "points": {metal: sum(row[metal]) for metal in METALS},
               "stars": s, "total": t} for row, s, t in zip(chips, stars, total, strict=True)]
    return {"scores": total, "winners": [s for s, w in enumerate(win_units) if w > 0],
            "detail": detail}


def _chip_values(rules: RuleSet, piles: Table, metal: str) -> list[int]:
    """The chip values a player lists for ``metal``, each one a value of that metal's chips."""
    values = piles.get(metal, list, [])
    allowed = sorted(set(rules.chip_values[METALS.index(metal)]))
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise piles.error(metal, f"{value!r} is not allowed; allowed values: "
                                     f"{', '.join(map(str, allowed))} (one per chip)")
    return list(values)
