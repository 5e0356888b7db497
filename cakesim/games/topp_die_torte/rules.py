"""The Topp die Torte! rule set: ``rules.toml`` and its tile list, validated, as arrays.

RULES.md section 4. A ``RuleSet`` is the whole game as data: the layer tiles (each
colour's stripe as a slot range, its sugar symbols, the tile's golden symbols), the cake
plate, the cube supply, the jars and the coins they pay, the chip piles, the die's faces
and the placement rules. ``RuleSet.for_table`` fixes the player count and the variant;
``TableRules.arrays`` is what a kernel receives.

Tiles are given in slot notation: one character per slot across the tile's width, the
colour's letter where a stripe lies and ``.`` where no cream is, e.g. ``BB.PPP.G.VV.OO``.
Every tile shows each of the five colours once, as one run of slots (RULES.md: "five
cream stripes that differ in colour, width and position").
"""

import csv
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from cakesim.engine.contract import check_score_fits
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_toml

# How a table with the option ``luck = "nested"`` shares chance among its deals (the
# ``[luck]`` section splits the score's variance by these blocks).
TILE_BLOCK = 16
"""Deals that share one tile deal in a nested table (4 chip shuffles of 4 deals each)."""
CHIP_BLOCK = 4
"""Deals that share one shuffle of the chip piles in a nested table."""
NESTED = ("luck", "nested")
"""The table option that nests a table's deals."""

DEFAULT_RULES = Path(__file__).with_name("rules.toml")
DEFAULT_TILES = Path(__file__).with_name("tiles.csv")
METALS = ("bronze", "silver", "gold")
"""Coin metals, in the order the kernel numbers them; a gold coin rolls the die."""
GOLD = 2
FACE_KINDS = ("cube", "golden", "star", "bronze", "silver", "gold", "blank")
"""What a die face may give: cubes of any colour, golden cubes, stars, a chip of a metal,
or nothing. A face is ``kind:amount``; the kernel reads the kind's index here."""
CUBE, GOLDEN, STAR, BRONZE, SILVER, GOLD_CHIP, BLANK = range(len(FACE_KINDS))
ORDERS = ("fixed", "rotate")
MISS_BEYOND = ("edge", "nothing")
"""Where an aim that misses beyond the outermost offset lands: on the outermost offset,
connecting as a layer placed there would (cakesim's first model), or beyond it, where no
stripe of the layer connects (the other reading)."""
EXCHANGE_RULES = ("leftover", "voluntary")
MISFIT_CUBES = ("last", "first")
"""When a layer's cube that fits no blue jar goes to the exchange jar: once every other cube
is placed and it still fits none (the seed), or at once, before the rest of the layer."""
END_CUBES = ("any-colour", "golden")
"""What the golden symbols bring at the end: ordinary cubes of any colour from the supply
(the seed's most natural reading), or golden (joker) cubes."""
FACES = 6
VARIANTS = ("base", "no-die", "no-exchange", *(f"blank-{f}" for f in range(1, FACES + 1)),
            "rotate", "scarce", "scarce-rotate")
"""The base game, then variants without the die, without the exchange jar, with one die
face blank, with the first placer rotating, with a scarce cube supply, and with both."""
MAX_SLOTS = 40
TILE_COLUMNS = ["id", "slots", "sugar", "golden"]
DIGITS = tuple("0123456789")
"""The counts a tile or die face may give, 0 to 9, as written: ``str.isdigit`` would also
pass digits such as ``²``, which ``int`` then refuses."""


@dataclass(frozen=True)
class RuleSet:
    """Every number of the game, independent of the table it is played at."""

    name: str
    colours: tuple[str, ...]
    """Colour names, in the kernel's order."""
    letters: tuple[str, ...]
    """Each colour's letter in slot notation."""
    slots: int
    """Slots across a tile's width (and the plate's)."""
    tile_ids: tuple[str, ...]
    tile_start: tuple[tuple[int, ...], ...]
    """``tile_start[t][c]``: the first slot of tile ``t``'s stripe of colour ``c``."""
    tile_end: tuple[tuple[int, ...], ...]
    """``tile_end[t][c]``: its last slot (inclusive)."""
    tile_sugar: tuple[tuple[int, ...], ...]
    """``tile_sugar[t][c]``: sugar symbols on tile ``t``'s stripe of colour ``c``."""
    tile_golden: tuple[int, ...]
    """Golden symbols on each tile."""
    plate_start: tuple[int, ...]
    plate_end: tuple[int, ...]
    min_players: int
    max_players: int
    rounds: int
    face_up: int
    max_offset: int
    min_overlap: int
    order: str
    golden_needs_connection: bool
    miss_beyond: str
    supply: tuple[int, ...]
    golden: int
    capacity: tuple[int, ...]
    metal: tuple[int, ...]
    """The coin metal (index into ``METALS``) each blue jar pays when full."""
    exchange: int
    exchange_rule: str
    misfit_cubes: str
    end_cubes: str
    chip_values: tuple[tuple[int, ...], ...]
    """Per metal, the value of every chip of its pile (in a fixed order; shuffled per deal)."""
    die_kind: tuple[int, ...]
    die_amount: tuple[int, ...]
    star_points: int
    scarce_supply: tuple[int, ...]
    scarce_golden: int
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})
    """The file the rule set was read from; where it lies changes no game."""
    tile_file: str = field(default="", metadata={"digest": False})
    """The tile list's file (its tiles are part of the rule set, and so of every digest)."""

    @property
    def cubes(self) -> int:
        """Every cube in the box, golden ones included (102 in the published game)."""
        return sum(self.supply) + self.golden

    @property
    def chips(self) -> int:
        """Every point chip in the box (66 in the published game)."""
        return sum(len(v) for v in self.chip_values)

    def face_name(self, face: int) -> str:
        """Die face ``face`` (0-based) as the rule file writes it, e.g. ``cube:2``."""
        return f"{FACE_KINDS[self.die_kind[face]]}:{self.die_amount[face]}"

    def tile_text(self, tile: int) -> str:
        """Tile ``tile`` in slot notation (``BB.PPP.G.VV.OO``)."""
        return _slot_text(self.slots, self.letters, self.tile_start[tile], self.tile_end[tile])

    def with_overrides(self, order: str | None = None, exchange_rule: str | None = None,
                       misfit_cubes: str | None = None, end_cubes: str | None = None,
                       miss_beyond: str | None = None) -> "RuleSet":
        """This rule set with the placement order, the exchange rule, the misfit cubes'
        timing, the end's cubes or where a miss beyond the outermost offset lands replaced."""
        given = (("order", order), ("exchange_rule", exchange_rule),
                 ("misfit_cubes", misfit_cubes), ("end_cubes", end_cubes),
                 ("miss_beyond", miss_beyond))
        changes = {k: v for k, v in given if v is not None}
        return replace(self, **changes) if changes else self

    def for_table(self, players: int, variant: str = "base") -> "TableRules":
        """The rules in force at a table of ``players`` playing ``variant``."""
        if not self.min_players <= players <= self.max_players:
            raise InputError(self.source, "players",
                             f"{players} players is not allowed; allowed: "
                             f"{self.min_players} to {self.max_players}")
        if variant not in VARIANTS:
            raise InputError(self.source, "variant", f"{variant!r} is not allowed; allowed "
                                                     f"values: {', '.join(VARIANTS)}")
        return TableRules(self, players, variant)


@dataclass(frozen=True)
class TableRules:
    """A rule set at a table: player count and variant fixed."""

    rules: RuleSet
    players: int
    variant: str
    tile_repeat: int = 1
    """Consecutive deals that share one tile deal (1: every deal its own). The luck
    section nests deals in this way to split the score's variance by source."""
    chip_repeat: int = 1
    """Consecutive deals that share one shuffle of the chip piles (divides ``tile_repeat``)."""

    @property
    def die(self) -> bool:
        """Whether a gold coin rolls the die."""
        return self.variant != "no-die"

    @property
    def exchange_jar(self) -> bool:
        """Whether the exchange jar is in play."""
        return self.variant != "no-exchange"

    @property
    def rotate(self) -> bool:
        """Whether the first placer passes clockwise each round."""
        return self.variant in ("rotate", "scarce-rotate") or self.rules.order == "rotate"

    @property
    def scarce(self) -> bool:
        """Whether the supply is the scarce one (``[variants]`` of the rule file)."""
        return self.variant in ("scarce", "scarce-rotate")

    @property
    def supply(self) -> tuple[int, ...]:
        """The colour cubes in the supply at the start."""
        return self.rules.scarce_supply if self.scarce else self.rules.supply

    @property
    def golden(self) -> int:
        """The golden cubes in the supply at the start."""
        return self.rules.scarce_golden if self.scarce else self.rules.golden

    @property
    def die_kind(self) -> tuple[int, ...]:
        """The die's faces at this table: ``blank-N`` leaves face N blank."""
        kinds = list(self.rules.die_kind)
        if self.variant.startswith("blank-"):
            kinds[int(self.variant.removeprefix("blank-")) - 1] = BLANK
        return tuple(kinds)

    @property
    def cubes(self) -> int:
        """Every cube at this table (the conservation law's total)."""
        return sum(self.supply) + self.golden

    @cached_property
    def arrays(self) -> dict[str, np.ndarray | int | bool]:
        """The rule set as the kernel receives it: small integer arrays and scalars."""
        r = self.rules
        chips = np.zeros((len(METALS), max(len(v) for v in r.chip_values)), np.int16)
        for m, values in enumerate(r.chip_values):
            chips[m, :len(values)] = values
        return {
            "tile_start": np.asarray(r.tile_start, np.int16),
            "tile_end": np.asarray(r.tile_end, np.int16),
            "tile_sugar": np.asarray(r.tile_sugar, np.int16),
            "tile_golden": np.asarray(r.tile_golden, np.int16),
            "plate_start": np.asarray(r.plate_start, np.int16),
            "plate_end": np.asarray(r.plate_end, np.int16),
            "supply": np.asarray(self.supply, np.int16),
            "capacity": np.asarray(r.capacity, np.int16),
            "metal": np.asarray(r.metal, np.int16),
            "chip_values": chips,
            "chip_count": np.asarray([len(v) for v in r.chip_values], np.int16),
            "die_kind": np.asarray(self.die_kind, np.int16),
            "die_amount": np.asarray(r.die_amount, np.int16),
            "golden": self.golden, "slots": r.slots, "rounds": r.rounds, "face_up": r.face_up,
            "max_offset": r.max_offset, "min_overlap": r.min_overlap,
            "miss_edge": r.miss_beyond == "edge",
            "exchange": r.exchange, "exchange_jar": self.exchange_jar,
            # The voluntary exchange needs an exchange jar: without one, a cube that fits
            # a blue jar would be thrown back into the supply for nothing.
            "voluntary": r.exchange_rule == "voluntary" and self.exchange_jar,
            "misfits_last": r.misfit_cubes == "last",
            "end_golden": r.end_cubes == "golden",
            "die": self.die,
            "rotate": self.rotate, "golden_needs_connection": r.golden_needs_connection,
            "star_points": r.star_points, "tile_repeat": self.tile_repeat,
            "chip_repeat": self.chip_repeat,
        }


def load_rules(path: str | Path | None = None, tiles: str | Path | None = None) -> RuleSet:
    """Read and validate a rule-set file and a tile list (default: the published rules and
    the default tile set, ``tiles.csv``)."""
    path = Path(path) if path is not None else DEFAULT_RULES
    tile_path = Path(tiles) if tiles is not None else DEFAULT_TILES
    return parse_rules(read_toml(path, "rule-set"), str(path), read_tiles(tile_path),
                       str(tile_path))


def read_tiles(path: Path) -> list[dict[str, str]]:
    """The rows of a tile file, read strictly (exit 2 naming the file if it is unreadable)."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if reader.fieldnames != TILE_COLUMNS:
                raise InputError(str(path), "columns",
                                 f"the header is {reader.fieldnames}; allowed: exactly "
                                 f"{','.join(TILE_COLUMNS)}")
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise InputError(str(path), "tiles", f"cannot be read as a CSV tile list: "
                                             f"{error}") from None
    if any(None in row or None in row.values() for row in rows):
        raise InputError(str(path), "tiles", f"every row must have the {len(TILE_COLUMNS)} "
                                             f"columns {','.join(TILE_COLUMNS)}")
    return rows


def _stripes(text: str, letters: tuple[str, ...], source: str, key: str,
             every: bool) -> tuple[list[int], list[int]]:
    """Each colour's first and last slot in ``text`` (slot notation), checked: a colour
    occupies one run of slots, and with ``every`` each colour appears."""
    allowed = f"allowed: the letters {''.join(letters)} and '.', each colour as one run"
    start, end = [-1] * len(letters), [-1] * len(letters)
    for slot, letter in enumerate(text):
        if letter == ".":
            continue
        if letter not in letters:
            raise InputError(source, key, f"{text!r} has {letter!r}; {allowed}")
        c = letters.index(letter)
        if start[c] >= 0 and end[c] != slot - 1:
            raise InputError(source, key, f"{text!r} splits colour {letter!r} in two; "
                                          f"{allowed}")
        start[c] = slot if start[c] < 0 else start[c]
        end[c] = slot
    missing = [letters[c] for c in range(len(letters)) if start[c] < 0]
    if every and missing:
        raise InputError(source, key, f"{text!r} lacks colour(s) {', '.join(missing)}; "
                                      f"every tile shows each colour once")
    return start, end


def _slot_text(slots: int, letters, start, end) -> str:
    """Slot notation from each colour's slot range."""
    text = ["."] * slots
    for c, letter in enumerate(letters):
        for s in range(start[c], end[c] + 1):
            text[s] = letter
    return "".join(text)


def _tiles(rows: list[dict[str, str]], source: str, letters: tuple[str, ...], slots: int):
    """Validate the tile rows: ids, slot texts of one width, sugar and golden symbols."""
    ids, start, end, sugar, golden = [], [], [], [], []
    for index, row in enumerate(rows):
        where = f"row {index + 2}"  # the header is row 1
        tile_id = row["id"].strip()
        if not tile_id or tile_id in ids:
            raise InputError(source, f"{where}.id", f"{tile_id!r} is empty or repeats an "
                                                    "earlier id; allowed: a unique id")
        text = row["slots"].strip()
        if len(text) != slots:
            raise InputError(source, f"{where}.slots", f"{text!r} is {len(text)} slots wide; "
                                                       f"allowed: {slots}, as the plate")
        first, last = _stripes(text, letters, source, f"{where}.slots", every=True)
        symbols = [0] * len(letters)
        for item in row["sugar"].split():
            letter, count = item[:1], item[1:]
            if letter not in letters or count not in DIGITS[1:]:
                raise InputError(source, f"{where}.sugar",
                                 f"{item!r} is not allowed; allowed: a colour letter "
                                 f"({''.join(letters)}) and 1 to 9 symbols, e.g. P2, "
                                 "separated by spaces")
            if symbols[letters.index(letter)]:
                raise InputError(source, f"{where}.sugar", f"colour {letter!r} is listed "
                                                           "twice; allowed: once per stripe")
            symbols[letters.index(letter)] = int(count)
        text_golden = row["golden"].strip()
        if text_golden not in DIGITS:
            raise InputError(source, f"{where}.golden", f"{text_golden!r} is not allowed; "
                                                        "allowed: 0 to 9 golden symbols")
        ids.append(tile_id)
        start.append(tuple(first))
        end.append(tuple(last))
        sugar.append(tuple(symbols))
        golden.append(int(text_golden))
    return ids, start, end, sugar, golden


def _face(table: Table, index: int, text) -> tuple[int, int]:
    """A die face ``kind:amount``, e.g. ``cube:2``."""
    kind, _, amount = str(text).partition(":")
    if kind not in FACE_KINDS or amount not in DIGITS:
        raise table.error(f"faces[{index}]", f"{text!r} is not allowed; allowed: kind:amount "
                                             f"with kind one of {', '.join(FACE_KINDS)} and "
                                             "amount 0 to 9, e.g. cube:2")
    return FACE_KINDS.index(kind), int(amount)


def most_stars(die_kind, die_amount, chip_values) -> int:
    """The most stars a player can gain in a game: the largest star face, once per gold
    chip (only a gold chip rolls the die)."""
    faces = [a for k, a in zip(die_kind, die_amount, strict=True) if k == STAR]
    return max(faces or [0]) * len(chip_values[GOLD])


def parse_rules(data: dict, source: str, tile_rows: list[dict[str, str]],
                tile_source: str) -> RuleSet:
    """Validate a parsed rule-set table and its tile rows into a ``RuleSet``."""
    top = Table(data, source)
    top.only(["name", "players", "rounds", "face_up", "colours", "plate",
              "placement", "cubes", "jars", "chips", "die", "variants"])
    players = top.sub("players")
    players.only(["min", "max"])
    # RULES.md: 2 to 4 players (the kernel's win units split among at most 4).
    min_players = players.int_in("min", 2, 4)
    max_players = players.int_in("max", min_players, 4)
    rounds = top.int_in("rounds", 1, 20)
    face_up = top.int_in("face_up", 1, rounds)

    colour_table = top.sub("colours")
    if len(colour_table.data) != 5:
        raise top.error("colours", f"names {len(colour_table.data)} colours; allowed: "
                                   "exactly five (RULES.md: five cream stripes)")
    letters = tuple(colour_table.data)
    if any(len(letter) != 1 or not letter.isalpha() for letter in letters):
        raise top.error("colours", f"keys {', '.join(letters)}; allowed: one letter each")
    colours = tuple(colour_table.get(letter, str) for letter in letters)

    plate = top.get("plate", str)
    slots = len(plate)
    if not 5 <= slots <= MAX_SLOTS:
        raise top.error("plate", f"{plate!r} is {slots} slots wide; allowed: 5 to {MAX_SLOTS}")
    plate_start, plate_end = _stripes(plate, letters, source, "plate", every=True)
    ids, start, end, sugar, golden = _tiles(tile_rows, tile_source, letters, slots)
    dealt = rounds * max_players
    if len(ids) < dealt:
        raise InputError(tile_source, "tiles", f"{len(ids)} tiles; allowed: at least "
                                               f"{rounds} rounds x {max_players} players = "
                                               f"{dealt}")

    placement = top.sub("placement")
    placement.only(["max_offset", "min_overlap", "miss_beyond", "order",
                    "golden_needs_connection"])
    cubes = top.sub("cubes")
    cubes.only(["supply", "golden", "end_cubes"])
    supply = cubes.int_list("supply", 0, 999, least=5)
    if len(supply) != 5:
        raise cubes.error("supply", f"lists {len(supply)} counts; allowed: one per colour (5)")

    jars = top.sub("jars")
    jars.only(["capacity", "metal", "exchange", "exchange_rule", "misfit_cubes"])
    capacity = jars.int_list("capacity", 1, 5)
    metal = jars.get("metal", list)
    if len(metal) != len(capacity) or any(m not in METALS for m in metal):
        raise jars.error("metal", f"{metal!r} is not allowed; allowed: one of "
                                  f"{', '.join(METALS)} per jar of `capacity`")

    chips = top.sub("chips")
    chips.only(METALS)
    chip_values = []
    for name in METALS:
        pile = chips.sub(name)
        pile.only(["values", "counts"])
        values = pile.int_list("values", 0, 99)
        counts = pile.int_list("counts", 0, 99)
        if len(counts) != len(values):
            raise pile.error("counts", f"lists {len(counts)} counts for {len(values)} "
                                       "values; allowed: one count per value")
        chip_values.append(tuple(v for v, n in zip(values, counts, strict=True)
                                 for _ in range(n)))
    if not all(chip_values):
        raise chips.error("counts", "every metal needs at least one chip")

    die = top.sub("die")
    die.only(["faces", "star_points"])
    faces = die.get("faces", list)
    if len(faces) != FACES:
        raise die.error("faces", f"lists {len(faces)} faces; allowed: exactly {FACES}")
    kinds, amounts = zip(*(_face(die, i, f) for i, f in enumerate(faces)), strict=True)
    star_points = die.int_in("star_points", 0, 99, 1)

    variants = top.sub("variants")
    variants.only(["scarce_supply", "scarce_golden"])
    scarce = variants.int_list("scarce_supply", 0, 999, least=5)
    if len(scarce) != 5:
        raise variants.error("scarce_supply", f"lists {len(scarce)} counts; allowed: 5")

    check_score_fits(top, "chips", f"every chip ({sum(map(sum, chip_values))}) + "
                                   f"{star_points} x the most stars, "
                                   f"{most_stars(kinds, amounts, chip_values)}",
                     sum(map(sum, chip_values))
                     + star_points * most_stars(kinds, amounts, chip_values))

    return RuleSet(
        name=top.get("name", str, "Topp die Torte!"), colours=colours, letters=letters,
        slots=slots, tile_ids=tuple(ids), tile_start=tuple(start), tile_end=tuple(end),
        tile_sugar=tuple(sugar), tile_golden=tuple(golden),
        plate_start=tuple(plate_start), plate_end=tuple(plate_end),
        min_players=min_players, max_players=max_players, rounds=rounds, face_up=face_up,
        max_offset=placement.int_in("max_offset", 0, slots - 1, 3),
        min_overlap=placement.int_in("min_overlap", 1, slots, 1),
        miss_beyond=placement.get("miss_beyond", str, "edge", MISS_BEYOND),
        order=placement.get("order", str, "fixed", ORDERS),
        golden_needs_connection=placement.get("golden_needs_connection", bool, False),
        supply=tuple(supply), golden=cubes.int_in("golden", 0, 999),
        end_cubes=cubes.get("end_cubes", str, "any-colour", END_CUBES),
        capacity=tuple(capacity), metal=tuple(METALS.index(m) for m in metal),
        exchange=jars.int_in("exchange", 1, 9, 3),
        exchange_rule=jars.get("exchange_rule", str, "leftover", EXCHANGE_RULES),
        misfit_cubes=jars.get("misfit_cubes", str, "last", MISFIT_CUBES),
        chip_values=tuple(chip_values), die_kind=tuple(kinds), die_amount=tuple(amounts),
        star_points=star_points, scarce_supply=tuple(scarce),
        scarce_golden=variants.int_in("scarce_golden", 0, 999),
        source=source, tile_file=tile_source)
