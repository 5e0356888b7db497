"""The Speedtorte rule set and its levels as data: loaded, validated, turned into arrays.

RULES.md section 3. Everything the kernel needs about pieces, plates, hands, points and
the special-orders module comes from ``rules.toml``; what differs per level (cards to
fulfil, which catalogue tiers and families form the deck, win bonus) from ``levels.toml``.
"""

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from cakesim.engine.contract import check_score_fits
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_toml
from cakesim.games.speedtorte.cards import Catalogue, load_catalogue
from cakesim.games.speedtorte.pieces import (
    CANDLE_CODES,
    FLAVOURS,
    PIECE_TYPES,
    SACHER,
    candles_of,
    flavour_of,
    piece_type,
)
from cakesim.games.speedtorte.timing import Profile, Timing, load_timing

HERE = Path(__file__).parent
DEFAULT_RULES = HERE / "rules.toml"
DEFAULT_LEVELS = HERE / "levels.toml"
FAMILIES = ("flavours", "candles", "mixed", "regular_guest")
MODES = ("signals", "silence", "open_hands")
"""How bakers talk: the fixed signals, no signals at all, or every hand open."""


@dataclass(frozen=True)
class Level:
    """A level: how many order cards to fulfil, from which part of the catalogue."""

    name: str
    cards: int
    tiers: tuple[int, ...]
    families: tuple[str, ...]
    win_bonus: int


@dataclass(frozen=True)
class RuleSet:
    """Every number of Speedtorte, independent of the table it is played at."""

    name: str
    flavours: tuple[str, ...]
    candles: tuple[int, int]
    copies: int
    plates: int
    hand_size: int
    displayed_cards: int
    min_players: int
    max_players: int
    card_points: int
    regular_guest_points: int
    record_hunt_piece: int
    fewer_cards: int
    rush_every: int
    rush_moves: int
    special_sachertorte: bool
    levels: tuple[Level, ...]
    catalogue: Catalogue = field(repr=False)
    timing: Timing = field(repr=False)
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})
    """The file the rule set was read from; where it lies changes no game."""
    levels_source: str = field(default=str(DEFAULT_LEVELS), metadata={"digest": False})

    @property
    def cards_source(self) -> str:
        """The card catalogue's file (``--set`` reaches it as ``cards``)."""
        return self.catalogue.source

    @property
    def timing_source(self) -> str:
        """The timing model's file (``--set`` reaches it as ``timing``)."""
        return self.timing.source

    def level(self, name: str) -> Level:
        """The level called ``name``; an InputError lists the levels there are."""
        for level in self.levels:
            if level.name.casefold() == name.casefold():
                return level
        raise InputError(self.levels_source, "level", f"{name!r} is not a level; levels: "
                                               f"{', '.join(lv.name for lv in self.levels)}")

    def box(self) -> np.ndarray:
        """The piece type of every flavoured piece in the box, in component-list order.

        The Sachertorte is not among them: it never goes to a plate or a hand, and the
        deal puts it into the supply (``TableRules.arrays["sachertorte"]``).
        """
        low, high = self.candles
        types = [piece_type(f, c) for f in range(len(self.flavours))
                 for c in range(low, high + 1) for _ in range(self.copies)]
        return np.array(types, dtype=np.int8)

    def for_table(self, players: int, level: str, mode: str = "signals",
                  special_orders: bool = False, profile: str | None = None) -> "TableRules":
        """The rules in force at a table of ``players`` playing ``level`` in ``mode``.

        With a timing ``profile`` the table plays the Eilauftrag (real time).
        """
        if not self.min_players <= players <= self.max_players:
            raise InputError(self.source, "players", f"{players} players is not allowed; "
                                                     f"allowed: {self.min_players} to "
                                                     f"{self.max_players}")
        if mode not in MODES:
            raise InputError(self.source, "mode", f"{mode!r} is not allowed; allowed values: "
                                                  f"{', '.join(MODES)}")
        chosen = self.level(level)
        timing = self.timing.profile(profile) if profile is not None else None
        table = TableRules(self, chosen, players, mode, special_orders, timing)
        if len(table.pool) < table.cards_to_fulfil:
            raise InputError(self.levels_source, f"levels.{chosen.name}",
                             f"the catalogue has {len(table.pool)} cards of tiers "
                             f"{list(chosen.tiers)} in families {list(chosen.families)}, "
                             f"fewer than the {table.cards_to_fulfil} to fulfil")
        return table


@dataclass(frozen=True)
class TableRules:
    """A rule set at a table: level, players, mode and module fixed."""

    rules: RuleSet
    level: Level
    players: int
    mode: str
    special_orders: bool
    timing: Profile | None = None
    """The bakers' timing profile in the Eilauftrag; ``None`` in turn mode."""

    @property
    def cards_to_fulfil(self) -> int:
        """Order cards to fulfil: the level's, two fewer with special orders."""
        return self.level.cards - (self.rules.fewer_cards if self.special_orders else 0)

    @property
    def dealt_out(self) -> int:
        """Pieces the setup deals: the plates, then a full hand per baker."""
        return self.rules.plates + self.players * self.rules.hand_size

    @cached_property
    def pool(self) -> tuple[int, ...]:
        """Catalogue indices of the cards that may form this level's deck."""
        families = set(self.level.families) | ({"regular_guest"} if self.special_orders
                                               else set())
        return tuple(i for i, card in enumerate(self.rules.catalogue.cards)
                     if card.family in families and card.tier in self.level.tiers)

    @cached_property
    def arrays(self) -> dict:
        """The table as the kernel receives it: small integer arrays and scalars."""
        r = self.rules
        flavour = np.array([flavour_of(t) for t in range(PIECE_TYPES)], dtype=np.int8)
        candles = np.array([candles_of(t) for t in range(PIECE_TYPES)], dtype=np.int8)
        points = np.array([r.regular_guest_points if card.family == "regular_guest"
                           else r.card_points for card in r.catalogue.cards], dtype=np.int16)
        return {
            "box": r.box(),
            "sachertorte": SACHER if self.special_orders and r.special_sachertorte else -1,
            "type_flavour": flavour, "type_candles": candles, "sacher": SACHER,
            "plates": r.plates, "hand_size": r.hand_size, "displayed": r.displayed_cards,
            "program": r.catalogue.program, "pool": np.array(self.pool, dtype=np.int16),
            "cards_to_fulfil": self.cards_to_fulfil, "card_points": points,
            "win_bonus": self.level.win_bonus,
            "record_hunt_piece": r.record_hunt_piece if self.players == 1 else 0,
            "rush_every": r.rush_every if self.special_orders else 0,
            "rush_moves": r.rush_moves, "mode": MODES.index(self.mode),
            "timing": (self.timing.arrays(r.hand_size * r.plates) if self.timing is not None
                       else np.zeros(0)),
        }


def load_rules(path: str | Path | None = None, levels: str | Path | None = None,
               cards: str | Path | None = None, timing: str | Path | None = None) -> RuleSet:
    """Read and validate a rule set, its levels, its card catalogue and its timing model."""
    path = Path(path) if path is not None else DEFAULT_RULES
    levels = Path(levels) if levels is not None else DEFAULT_LEVELS
    return parse_rules(read_toml(path, "rule-set"), str(path), read_toml(levels, "levels"),
                       str(levels), load_catalogue(cards), load_timing(timing))


def parse_rules(data: dict, source: str, level_data: dict, level_source: str,
                catalogue: Catalogue, timing: Timing) -> RuleSet:
    """Validate parsed rule-set and level tables into a RuleSet."""
    top = Table(data, source)
    top.only(["name", "pieces", "table", "points", "special_orders"])
    pieces = top.sub("pieces")
    pieces.only(["flavours", "candles", "copies"])
    flavours = tuple(pieces.get("flavours", list))
    if flavours != FLAVOURS:
        raise pieces.error("flavours", f"the piece encoding holds {list(FLAVOURS)}, in that "
                                       "order")
    candles = pieces.int_list("candles", 1, CANDLE_CODES)
    if candles != [1, CANDLE_CODES]:
        raise pieces.error("candles", "the piece encoding holds candles 1 to 7: must be [1, 7]")
    table = top.sub("table")
    table.only(["plates", "hand_size", "displayed_cards", "min_players", "max_players"])
    points = top.sub("points")
    points.only(["card", "regular_guest", "record_hunt_piece"])
    special = top.sub("special_orders")
    special.only(["fewer_cards", "rush_every", "rush_moves", "sachertorte"])
    copies = pieces.int_in("copies", 1, 8)
    plates = table.int_in("plates", 4, 4)
    hand_size = table.int_in("hand_size", 1, 10)
    min_players = table.int_in("min_players", 1, 5)
    max_players = table.int_in("max_players", min_players, 5)
    # The deal lays out the plates, then a full hand per baker: the box (the Sachertorte
    # aside, as it is not always in it) must hold them at the largest table.
    box = len(FLAVOURS) * CANDLE_CODES * copies
    needed = plates + max_players * hand_size
    if needed > box:
        raise table.error("hand_size", f"{plates} plates and {max_players} hands of "
                                       f"{hand_size} need {needed} pieces, but the box holds "
                                       f"{box} (copies = {copies}); allowed: at most "
                                       f"{(box - plates) // max_players} per hand at "
                                       f"{max_players} players")
    levels = _levels(level_data, level_source)
    fewer_cards = special.int_in("fewer_cards", 0, 10)
    easiest = min(levels, key=lambda level: level.cards)
    if fewer_cards >= easiest.cards:
        raise special.error("fewer_cards", f"{fewer_cards} leaves level {easiest.name} "
                                           f"({easiest.cards} cards) nothing to fulfil; "
                                           f"allowed: 0 to {easiest.cards - 1}")
    card_points = points.int_in("card", 0, 1000)
    guest_points = points.int_in("regular_guest", 0, 1000)
    record_hunt_piece = points.int_in("record_hunt_piece", 0, 100)
    bonus = max(level.win_bonus for level in levels)
    # Every card fulfilled at the highest points, the highest win bonus, and in the record
    # hunt every piece (and the Sachertorte) still in the supply.
    check_score_fits(points, "card", f"{len(catalogue.cards)} cards x "
                                     f"{max(card_points, guest_points)} + a win bonus of "
                                     f"{bonus} + {record_hunt_piece} x {box + 1} pieces",
                     len(catalogue.cards) * max(card_points, guest_points) + bonus
                     + record_hunt_piece * (box + 1))
    return RuleSet(
        name=top.get("name", str, Path(source).stem),
        flavours=flavours, candles=(1, CANDLE_CODES), copies=copies,
        plates=plates, hand_size=hand_size,
        displayed_cards=table.int_in("displayed_cards", 1, 8),
        min_players=min_players, max_players=max_players,
        card_points=card_points, regular_guest_points=guest_points,
        record_hunt_piece=record_hunt_piece, fewer_cards=fewer_cards,
        rush_every=special.int_in("rush_every", 1, 100),
        rush_moves=special.int_in("rush_moves", 1, 100),
        special_sachertorte=special.get("sachertorte", bool),
        levels=levels, catalogue=catalogue, timing=timing,
        source=source, levels_source=level_source)


def _levels(data: dict, source: str) -> tuple[Level, ...]:
    top = Table(data, source)
    top.only(["levels"])
    levels = []
    for index, entry in enumerate(top.get("levels", list)):
        spec = Table(entry, source, f"levels[{index}]")
        spec.only(["name", "cards", "tiers", "families", "win_bonus"])
        tiers = spec.int_list("tiers", 1, 3)
        families = spec.get("families", list)
        for family in families:
            if family not in FAMILIES:
                raise spec.error("families", f"{family!r} is not allowed; allowed values: "
                                             f"{', '.join(FAMILIES)}")
        levels.append(Level(spec.get("name", str), spec.int_in("cards", 1, 60), tuple(tiers),
                            tuple(families), spec.int_in("win_bonus", 0, 1000)))
    if not levels:
        raise top.error("levels", "list at least one [[levels]] entry")
    return tuple(levels)
