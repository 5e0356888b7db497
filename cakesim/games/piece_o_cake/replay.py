"""A game's move log as text a person can read, and score sheets from real playtests."""

from pathlib import Path

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_json
from cakesim.games.piece_o_cake.reference import Move, Result, Slice, score_sheet
from cakesim.games.piece_o_cake.rules import MOST_ROUNDS, TIE_RULES, RuleSet
from cakesim.games.slicing.tabletop import WIN_UNITS
from cakesim.kits.seating import split_win_units


def describe_slice(rules: RuleSet, piece: Slice) -> str:
    """``chocolate(3)``: kind and cream; ``JOKER``."""
    if piece.kind == len(rules.kinds):
        return "JOKER"
    return f"{rules.kinds[piece.kind]}({piece.cream})"


def describe_move(rules: RuleSet, move: Move) -> str:
    """One move of the log as a sentence."""
    who = "first waiter" if move.seat == 0 else f"seat {move.seat + 1}"
    if move.action == "cut":
        portions = "  |  ".join(f"[{i + 1}] " + " ".join(describe_slice(rules, p) for p in portion)
                                for i, portion in enumerate(move.portions))
        return f"{who} cuts {len(move.portions)} portion(s): {portions}"
    # The joker is decided once the portion is taken: a line of its own ("joker").
    decided = ", ".join(f"{'eats' if eaten else 'collects'} {describe_slice(rules, p)}"
                        if p.kind != len(rules.kinds) else "takes the JOKER"
                        for p, eaten in move.slices)
    if move.action == "take":
        return f"{who} takes a portion: {decided}"
    if move.action == "decline":
        return (f"{who} declines and eats all {len(move.slices)} collected "
                f"{rules.kinds[move.kind]}")
    if move.action == "pass":
        return f"{who} declines and eats nothing (pass)"
    if move.action == "discard":
        return "left over and discarded: " + " ".join(describe_slice(rules, p)
                                                    for p, _ in move.slices)
    if move.action == "swap":
        holder = "the first waiter" if move.other == 0 else f"seat {move.other + 1}"
        return (f"{who} swaps {describe_slice(rules, move.slices[0][0])} for the JOKER on "
                f"{holder}'s {rules.kinds[move.kind]} pile")
    if move.action == "joker":
        if move.kind < 0:
            return f"{who} eats the JOKER ({move.slices[0][0].cream} points)"
        return f"{who} puts the JOKER on its {rules.kinds[move.kind]} pile"
    return f"{who} keeps a set-aside slice (compensation): {decided}"


def format_replay(rules: RuleSet, result: Result, header: str) -> str:
    """The whole game: every move by cake, then the score sheet."""
    lines = [header]
    cake = (-1, -1)
    several = any(move.round > 0 for move in result.log)
    for move in result.log:
        if several and move.round != cake[0]:
            first = move.round % len(result.players)
            lines.append(f"\nRound {move.round + 1}: "
                         f"{'the first waiter' if first == 0 else f'seat {first + 1}'} "
                         "serves its first cake")
        if (move.round, move.cake) != cake:
            cake = (move.round, move.cake)
            lines.append(f"\n{f'Round {move.round + 1}, c' if several else 'C'}ake "
                         f"{move.cake + 1}")
        lines.append("  " + describe_move(rules, move))
    bonus = rules.seat_bonus_at(len(result.players))
    lines.append(f"\nScores (majority + cream{' + seat bonus' * any(bonus)} = total, win share)")
    for seat, player in enumerate(result.players):
        piles = ", ".join(f"{rules.kinds[k]} {len(v)}" for k, v in sorted(player.collected.items())
                          if v) or "nothing"
        share = result.win_units[seat] / sum(result.win_units)
        lines.append(f"  seat {seat + 1}{' (first waiter)' if seat == 0 else ''}: "
                     f"{result.majority[seat]} + {result.cream[seat]}"
                     f"{f' + {bonus[seat]}' * any(bonus)} = {result.total[seat]}, "
                     f"win share {share:.2f}; collected: {piles}")
    return "\n".join(lines)


def score_file(rules: RuleSet, path: str | Path) -> dict:
    """Score an end position from a JSON file: ``{"scores": [...], "winners": [...]}``.

    One round: ``{"players": [{"collected": {KIND: n}, "eaten": {KIND: n}, "joker":
    "eaten" or KIND}, ...]}``; several rounds (totals summed): ``{"rounds": [{"players":
    [...]}, ...]}``. ``joker`` names where the joker slice ended, for at most one player a
    round: eaten, or standing on a kind that player still collects.
    """
    source = str(path)
    top = Table(read_json(path, "score"), source)
    top.only(["players", "tie_rule", "rounds"])
    tie_rule = top.get("tie_rule", str, rules.tie_rule, TIE_RULES)
    if "rounds" in top.data:
        if "players" in top.data:
            raise top.error("players", "give players or rounds, not both")
        entries = top.list_between("rounds", 1, MOST_ROUNDS)
        rounds = [Table(entry, source, f"rounds[{r}]") for r, entry in enumerate(entries)]
    else:
        rounds = [top]
    totals = None
    for round_table in rounds:
        round_table.only(["players", *(["tie_rule"] if round_table is top else [])])
        collected, cream = _round_position(rules, round_table)
        if totals is not None and len(collected) != len(totals):
            raise round_table.error("players", f"{len(collected)} players, but the first "
                                               f"round has {len(totals)}")
        _, total, _ = score_sheet(collected, cream, rules.majority_value, tie_rule == "full")
        totals = total if totals is None else [a + b for a, b in zip(totals, total, strict=True)]
    # The seat bonus counts once a game (the rule set's, 0 as published).
    bonus = rules.seat_bonus_at(len(totals))
    totals = [t + b for t, b in zip(totals, bonus, strict=True)]
    win_units = split_win_units(totals, WIN_UNITS)
    return {"scores": totals, "winners": [s for s, w in enumerate(win_units) if w > 0]}


def _round_position(rules: RuleSet, top: Table) -> tuple[list[list[int]], list[int]]:
    """One round's collected counts (the joker counted where it stands) and eaten cream
    (the joker's points if eaten), checked against the box."""
    source = top.source
    entries = top.list_between("players", rules.min_players, rules.max_players)
    box = [rules.slice_kind.count(k) for k in range(len(rules.kinds))]
    used = [0] * len(rules.kinds)
    collected, cream = [], []
    joker_seen = None
    for index, entry in enumerate(entries):
        player = Table(entry, source, f"{top.where + '.' if top.where else ''}players[{index}]")
        player.only(["collected", "eaten", "joker"])
        counts = {}
        for pile in ("collected", "eaten"):
            table = player.sub(pile, {})
            counts[pile] = [0] * len(rules.kinds)
            for name in table.data:
                if name not in rules.kinds:
                    raise table.error(name, f"unknown kind; kinds: {', '.join(rules.kinds)}")
                counts[pile][rules.kinds.index(name)] = table.int_in(name, 0, box[
                    rules.kinds.index(name)])
        for k in range(len(rules.kinds)):
            used[k] += counts["collected"][k] + counts["eaten"][k]
        eaten_cream = sum(n * _kind_cream(rules, k) for k, n in enumerate(counts["eaten"]))
        if "joker" in player.data:
            where = player.get("joker", str, choices=("eaten", *rules.kinds))
            if joker_seen is not None:
                raise player.error("joker", f"the game has one joker, and players[{joker_seen}] "
                                            "already has it")
            joker_seen = index
            if where == "eaten":
                eaten_cream += rules.joker_points
            elif counts["collected"][rules.kinds.index(where)] == 0:
                raise player.error("joker", f"stands on {where}, but this player collects no "
                                            f"{where}; allowed: eaten, or a kind the player "
                                            "collects")
            else:
                counts["collected"][rules.kinds.index(where)] += 1
        collected.append(counts["collected"])
        cream.append(eaten_cream)
    for k, n in enumerate(used):
        if n > box[k]:
            raise top.error("players", f"{n} {rules.kinds[k]} slices in all, but the game "
                                       f"has {box[k]}")
    return collected, cream


def _kind_cream(rules: RuleSet, kind: int) -> int:
    """The cream of one slice of ``kind``; a score sheet cannot say which slice it was."""
    creams = {c for k, c in zip(rules.slice_kind, rules.slice_cream, strict=True) if k == kind}
    if len(creams) > 1:
        raise InputError(rules.source, f"kinds[{kind}].cream",
                         "slices of this kind differ in cream; a score sheet needs one value")
    return creams.pop()


def end_position(rules: RuleSet, result: Result) -> dict:
    """A finished game's end position in the format ``score_file`` reads (every round's,
    when it had several).

    Scoring it again must give the game's own scores: the score file and the engine
    agree on what an end position is worth.
    """
    joker = len(rules.kinds)

    def by_kind(pieces) -> dict[str, int]:
        counts = {}
        for piece in pieces:
            if piece.kind != joker:
                name = rules.kinds[piece.kind]
                counts[name] = counts.get(name, 0) + 1
        return counts

    def entry(player) -> dict:
        found = {"collected": by_kind(s for pile in player.collected.values() for s in pile),
                 "eaten": by_kind(player.eaten)}
        if any(p.kind == joker for p in player.eaten):
            found["joker"] = "eaten"
        for kind, pile in player.collected.items():
            if any(p.kind == joker for p in pile):
                found["joker"] = rules.kinds[kind]
        return found

    rounds = [{"players": [entry(p) for p in players]} for players in result.round_players]
    if len(rounds) == 1:
        return {"tie_rule": rules.tie_rule, **rounds[0]}
    return {"tie_rule": rules.tie_rule, "rounds": rounds}
