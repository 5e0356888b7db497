"""A game's move log as text a person can read, and score sheets from real playtests."""

from pathlib import Path

from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_json
from cakesim.games.piece_o_cake.reference import Move, Result, Slice, score_sheet
from cakesim.games.piece_o_cake.rules import TIE_RULES, RuleSet


def describe_slice(rules: RuleSet, piece: Slice) -> str:
    """``chocolate(3)``: kind and cream."""
    return f"{rules.kinds[piece.kind]}({piece.cream})"


def describe_move(rules: RuleSet, move: Move) -> str:
    """One move of the log as a sentence."""
    who = "first waiter" if move.seat == 0 else f"seat {move.seat + 1}"
    if move.action == "cut":
        portions = "  |  ".join(f"[{i + 1}] " + " ".join(describe_slice(rules, p) for p in portion)
                                for i, portion in enumerate(move.portions))
        return f"{who} cuts {len(move.portions)} portion(s): {portions}"
    decided = ", ".join(f"{'eats' if eaten else 'collects'} {describe_slice(rules, p)}"
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
    return f"{who} keeps a set-aside slice (compensation): {decided}"


def format_replay(rules: RuleSet, result: Result, header: str) -> str:
    """The whole game: every move by cake, then the score sheet."""
    lines = [header]
    cake = -1
    for move in result.log:
        if move.cake != cake:
            cake = move.cake
            lines.append(f"\nCake {cake + 1}")
        lines.append("  " + describe_move(rules, move))
    lines.append("\nScores (majority + cream = total, win share)")
    for seat, player in enumerate(result.players):
        piles = ", ".join(f"{rules.kinds[k]} {len(v)}" for k, v in sorted(player.collected.items())
                          if v) or "nothing"
        share = result.win_units[seat] / sum(result.win_units)
        lines.append(f"  seat {seat + 1}{' (first waiter)' if seat == 0 else ''}: "
                     f"{result.majority[seat]} + {result.cream[seat]} = {result.total[seat]}, "
                     f"win share {share:.2f}; collected: {piles}")
    return "\n".join(lines)


def score_file(rules: RuleSet, path: str | Path) -> dict:
    """Score an end position from a JSON file: ``{"scores": [...], "winners": [...]}``."""
    source = str(path)
    top = Table(read_json(path, "score"), source)
    top.only(["players", "tie_rule"])
    tie_rule = top.get("tie_rule", str, rules.tie_rule, TIE_RULES)
    entries = top.list_between("players", rules.min_players, rules.max_players)
    box = [rules.slice_kind.count(k) for k in range(len(rules.kinds))]
    used = [0] * len(rules.kinds)
    collected, cream = [], []
    for index, entry in enumerate(entries):
        player = Table(entry, source, f"players[{index}]")
        player.only(["collected", "eaten"])
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
        collected.append(counts["collected"])
        cream.append(sum(n * _kind_cream(rules, k) for k, n in enumerate(counts["eaten"])))
    for k, n in enumerate(used):
        if n > box[k]:
            raise top.error("players", f"{n} {rules.kinds[k]} slices in all, but the game "
                                       f"has {box[k]}")
    _, total, win_units = score_sheet(collected, cream, rules.majority_value,
                                      tie_rule == "full")
    return {"scores": total, "winners": [s for s, w in enumerate(win_units) if w > 0]}


def _kind_cream(rules: RuleSet, kind: int) -> int:
    """The cream of one slice of ``kind``; a score sheet cannot say which slice it was."""
    creams = {c for k, c in zip(rules.slice_kind, rules.slice_cream, strict=True) if k == kind}
    if len(creams) > 1:
        raise InputError(rules.source, f"kinds[{kind}].cream",
                         "slices of this kind differ in cream; a score sheet needs one value")
    return creams.pop()


def end_position(rules: RuleSet, result: Result) -> dict:
    """A finished game's end position in the format ``score_file`` reads.

    Scoring it again must give the game's own scores: the score file and the engine
    agree on what an end position is worth.
    """
    def by_kind(pieces) -> dict[str, int]:
        counts = {}
        for piece in pieces:
            name = rules.kinds[piece.kind]
            counts[name] = counts.get(name, 0) + 1
        return counts

    return {"tie_rule": rules.tie_rule,
            "players": [{"collected": by_kind(s for pile in p.collected.values() for s in pile),
                         "eaten": by_kind(p.eaten)} for p in result.players]}
