"""The Piece o' Cake rule set: loaded from ``rules.toml``, validated, handed to kernels as arrays.

RULES.md section 1. A ``RuleSet`` is the whole game as data: the component list (one
entry per slice: its kind and its cream), each kind's majority value, the cake size, the
portion limits, the tie rule and the compensation variants. ``RuleSet.for_table`` fixes
the player count and the variant; ``TableRules.arrays`` is what a kernel receives.
"""

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from cakesim.engine.contract import check_score_fits
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_toml

DEFAULT_RULES = Path(__file__).with_name("rules.toml")
TIE_RULES = ("full", "none")
VARIANTS = ("base", "compensation")


@dataclass(frozen=True)
class RuleSet:
    """Every number of the game, independent of the table it is played at."""

    name: str
    kinds: tuple[str, ...]
    majority_value: tuple[int, ...]
    slice_kind: tuple[int, ...]
    """Kind code of every slice in the box, in component-list order."""
    slice_cream: tuple[int, ...]
    """Cream dollops of every slice in the box, in component-list order."""
    min_players: int
    max_players: int
    cakes: int
    slices_per_cake: int
    max_portions: dict[int, int] = field(default_factory=dict)
    tie_rule: str = "full"
    compensation: dict[int, tuple[int, ...]] = field(default_factory=dict)
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})
    """The file the rule set was read from; where it lies changes no game."""

    @property
    def set_aside(self) -> int:
        """Slices left over after dealing the cakes, set aside face down."""
        return len(self.slice_kind) - self.cakes * self.slices_per_cake

    def portion_limit(self, players: int) -> int:
        """The most portions a waiter may cut at a table of ``players``."""
        return self.max_portions.get(players, players)

    def has_compensation(self, players: int) -> bool:
        """Whether the author gave a compensation variant for ``players``."""
        return players in self.compensation

    def with_overrides(self, tie_rule: str | None = None) -> "RuleSet":
        """This rule set with the tie rule replaced."""
        return self if tie_rule is None else replace(self, tie_rule=tie_rule)

    def for_table(self, players: int, variant: str = "base") -> "TableRules":
        """The rules in force at a table of ``players`` playing ``variant``."""
        if not self.min_players <= players <= self.max_players:
            raise InputError(self.source, "players",
                             f"{players} players is not allowed; allowed: "
                             f"{self.min_players} to {self.max_players}")
        if variant not in VARIANTS:
            raise InputError(self.source, "variant",
                             f"{variant!r} is not allowed; allowed values: {', '.join(VARIANTS)}")
        if variant == "compensation" and not self.has_compensation(players):
            known = ", ".join(str(p) for p in sorted(self.compensation)) or "none"
            raise InputError(self.source, "compensation",
                             f"no compensation variant for {players} players; defined for: {known}")
        bonus = self.compensation[players] if variant == "compensation" else ()
        return TableRules(self, players, variant, bonus)


@dataclass(frozen=True)
class TableRules:
    """A rule set at a table: player count and variant fixed."""

    rules: RuleSet
    players: int
    variant: str
    bonus_after_cakes: tuple[int, ...]
    """1-based cakes after which that cake's waiter takes a set-aside slice."""

    @property
    def portion_limit(self) -> int:
        """The most portions a waiter may cut."""
        return self.rules.portion_limit(self.players)

    @cached_property
    def arrays(self) -> dict[str, np.ndarray | int | bool]:
        """The rule set as the kernel receives it: small integer arrays and scalars."""
        r = self.rules
        bonus = np.zeros(r.cakes, dtype=np.bool_)
        for cake in self.bonus_after_cakes:
            bonus[cake - 1] = True
        return {
            "slice_kind": np.asarray(r.slice_kind, dtype=np.uint8),
            "slice_cream": np.asarray(r.slice_cream, dtype=np.int8),
            "majority_value": np.asarray(r.majority_value, dtype=np.int16),
            "cakes": r.cakes,
            "slices_per_cake": r.slices_per_cake,
            "portion_limit": self.portion_limit,
            "ties_score": r.tie_rule == "full",
            "bonus_after_cake": bonus,
        }


def load_rules(path: str | Path | None = None) -> RuleSet:
    """Read and validate a Piece o' Cake rule-set file (default: the published rules)."""
    path = Path(path) if path is not None else DEFAULT_RULES
    return parse_rules(read_toml(path, "rule-set"), str(path))


def parse_rules(data: dict, source: str) -> RuleSet:
    """Validate a parsed rule-set table into a ``RuleSet``."""
    top = Table(data, source)
    top.only(["name", "players", "cakes", "slices_per_cake", "max_portions", "tie_rule",
              "kinds", "compensation"])
    players = top.sub("players")
    players.only(["min", "max"])
    min_players = players.int_in("min", 2, 8)
    max_players = players.int_in("max", min_players, 8)
    cakes = top.int_in("cakes", 1, 20)
    slices_per_cake = top.int_in("slices_per_cake", 1, 16)

    kinds, values, slice_kind, slice_cream = [], [], [], []
    entries = top.get("kinds", list)
    if not entries:
        raise top.error("kinds", "must list at least one kind")
    if len(entries) > 32:
        raise top.error("kinds", f"{len(entries)} kinds; at most 32 are allowed")
    for index, entry in enumerate(entries):
        kind = Table(entry, source, f"kinds[{index}]")
        kind.only(["name", "majority_value", "cream"])
        name = kind.get("name", str)
        if name in kinds:
            raise kind.error("name", f"kind {name!r} is listed twice")
        kinds.append(name)
        values.append(kind.int_in("majority_value", 0, 1000))
        cream = kind.int_list("cream", 0, 100)
        slice_kind += [index] * len(cream)
        slice_cream += cream
    check_score_fits(top, "kinds", f"every majority value ({sum(values)}) plus every "
                                   f"slice's cream ({sum(slice_cream)})",
                     sum(values) + sum(slice_cream))

    dealt = cakes * slices_per_cake
    if len(slice_kind) < dealt:
        raise top.error("kinds", f"{len(slice_kind)} slices in all, fewer than the "
                                 f"{cakes} x {slices_per_cake} = {dealt} the cakes need")
    if len(slice_kind) > 255:
        raise top.error("kinds", f"{len(slice_kind)} slices in all; at most 255 are allowed")

    portion_table = top.sub("max_portions", {})
    max_portions = {}
    for key in portion_table.data:
        count = _player_count(portion_table, key, min_players, max_players)
        max_portions[count] = portion_table.int_in(key, 1, slices_per_cake)

    compensation_table = top.sub("compensation", {})
    compensation = {}
    set_aside = len(slice_kind) - dealt
    for key in compensation_table.data:
        count = _player_count(compensation_table, key, min_players, max_players)
        after = compensation_table.int_list(key, 1, cakes, least=0)
        if len(set(after)) != len(after):
            raise compensation_table.error(key, "lists a cake twice")
        if len(after) > set_aside:
            raise compensation_table.error(
                key, f"{len(after)} bonus slices but only {set_aside} are set aside")
        compensation[count] = tuple(sorted(after))

    return RuleSet(
        name=top.get("name", str, "Piece o' Cake"),
        kinds=tuple(kinds),
        majority_value=tuple(values),
        slice_kind=tuple(slice_kind),
        slice_cream=tuple(slice_cream),
        min_players=min_players,
        max_players=max_players,
        cakes=cakes,
        slices_per_cake=slices_per_cake,
        max_portions=max_portions,
        tie_rule=top.get("tie_rule", str, "full", TIE_RULES),
        compensation=compensation,
        source=source,
    )


def _player_count(table: Table, key: str, low: int, high: int) -> int:
    # Matched as text: a key of thousands of digits is too long for int().
    counts = {str(count): count for count in range(low, high + 1)}
    if key not in counts:
        raise table.error(key, f"must be a player count from {low} to {high}")
    return counts[key]
