"""A Speedtorte game's move log as text: each placement with its reason, signals, cards."""

from cakesim.games.speedtorte import strategies as bots
from cakesim.games.speedtorte.pieces import candles_of, flavour_of, piece_name
from cakesim.games.speedtorte.planner import LOOKED_AHEAD
from cakesim.games.speedtorte.reference import ENDINGS, Game, Move, Result
from cakesim.games.speedtorte.rules import TableRules


def piece(t: int) -> str:
    """``strawberry 3`` or ``Sachertorte``."""
    return piece_name(flavour_of(t), candles_of(t))


def pieces(types) -> str:
    """A comma-separated list of pieces."""
    return ", ".join(piece(int(t)) for t in types) or "nothing"


def reason_text(move: Move, game: Game) -> str:
    """The bot's reason in the words of the game's hint ("fulfils card 3", ...)."""
    code, slot, detail = move.reason
    if code == bots.FULFILS:
        return f"fulfils card {slot + 1}"
    if code == bots.CLOSER:
        left = "one plate missing" if detail == 1 else "two or more plates missing"
        return f"brings card {slot + 1} closer: {left}"
    if code == bots.KEEPS_FREE:
        return "keeps what another baker asked for"
    if code == bots.ONLY_MOVE:
        return "the only piece that fits"
    if code == bots.AT_RANDOM:
        return "chosen at random"
    if code == LOOKED_AHEAD:
        return f"best of its {detail} best placements, played out"
    if game.a["mode"] == 2:
        return f"leaves the next baker {detail} option{'s' if detail != 1 else ''}"
    return f"leaves the next baker room: {detail} kinds of piece fit somewhere"


def card_text(game: Game, card: int) -> str:
    """``C07 "Candle sum at least 20"``."""
    c = game.table.rules.catalogue.cards[card]
    return f'{c.id} "{c.text_en}"'


def format_replay(table: TableRules, game: Game, result: Result, header: str) -> str:
    """The whole game: setup, every placement with reason, signals and cards, the end."""
    s = result.setup
    lines = [header, "", f"Plates: {pieces(s['tops'])}"]
    for b, hand in enumerate(s["hands"]):
        lines.append(f"Baker {b + 1} holds: {pieces(hand)}")
    lines.append("Order cards on display:")
    lines += [f"  card {slot + 1}: {card_text(game, c)}" for slot, c in enumerate(s["display"])
              if c >= 0]
    if s["under"]:
        lines.append("Met at setup, so under the deck: "
                     + ", ".join(card_text(game, c) for c in s["under"]))
    lines.append(f"Cards to fulfil: {table.cards_to_fulfil}")
    lines.append("")
    rejected = list(result.rejected)
    for move in result.log:
        while rejected and rejected[0][0] <= move.time:
            when, baker, plate = rejected.pop(0)
            lines.append(f"     [{when:6.1f} s] baker {baker + 1}: plate {plate + 1} has just "
                         "changed - placement rejected")
        why = reason_text(move, game)
        drew = f"; draws {piece(move.drew)}" if move.drew is not None else ""
        clock = f"[{move.time:6.1f} s] " if table.timing is not None else ""
        lines.append(f"{move.number:3d}. {clock}baker {move.baker + 1} puts {piece(move.piece)} "
                     f"on plate {move.plate + 1} ({why}; {move.options} legal){drew}")
        for f in move.fulfilled:
            chain = f" (chain {f.chain + 1})" if f.chain else ""
            lines.append(f"       card {f.slot + 1} fulfilled{chain}: {card_text(game, f.card)}"
                         f" after {f.waited} placement(s)")
            if f.refill is not None:
                lines.append(f"       new card {f.slot + 1}: {card_text(game, f.refill)}"
                             + (f" - RUSH: {game.a['rush_moves']} placements to meet it"
                                if f.rush else ""))
        for card in move.expired:
            lines.append(f"       rush missed: {card_text(game, card)} stays; one more card "
                         "goes under the deck")
        if move.signal is not None:
            signal, arg = move.signal
            lines.append(f"       baker {move.baker + 1} signals: "
                         f"{bots.SIGNAL_NAMES[signal].format(arg + 1)}")
        for baker in move.withdrawn:
            lines.append(f"       baker {baker + 1} {bots.WITHDRAW_TEXT}")
    lines.append("")
    if table.timing is not None:
        lines.append(f"Clock at the end: {result.seconds:.1f} s; {len(result.rejected)} "
                     "placement(s) rejected")
    lines.append(f"End: {ENDINGS[result.ending]} after {result.moves} placements; "
                 f"{result.fulfilled} of {result.to_fulfil} cards fulfilled; "
                 f"{result.supply_left} pieces left in the supply.")
    if result.stuck is not None:
        st = result.stuck
        lines.append(f"Baker {st['baker'] + 1} was stuck holding {pieces(st['hand'])}; tops "
                     f"{pieces(st['tops'])}.")
    lines.append(f"Score: {result.score}")
    return "\n".join(lines)
