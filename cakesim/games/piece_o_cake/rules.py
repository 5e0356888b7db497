"""The Piece o' Cake rule set: loaded from ``rules.toml``, validated, handed to kernels as arrays.

RULES.md section 1. A ``RuleSet`` is the whole game as data: the component list (one
entry per slice: its kind and its cream), each kind's majority value, the cake size, the
portion limits, the tie rule, the compensation variants, the joker slice and the number
of rounds. ``RuleSet.for_table`` fixes the player count and the variant;
``TableRules.arrays`` is what a kernel receives.
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
JOKER_PLACEMENTS = ("earlier", "same_take")
"""Where the joker may go (``[joker] placement``): ``earlier``, a kind its taker had
collected before this take (the seed's "már korábban gyűjtött", RULES.md s1); ``same_take``,
any kind it collects when it decides, one first collected in that take included."""
MOST_ROUNDS = 10
MOST_SEAT_BONUS = 50
"""The largest seat bonus (``[seat_bonus]``), either way: more than any game's spread."""
VARIANT_ROUNDS = (2, 3)
"""Round counts a variant may name (``2-rounds``); ``rounds`` in the rule file takes any
count up to ``MOST_ROUNDS``."""


def _variant_name(joker: bool, compensation: bool, rounds: int) -> str:
    parts = ["joker"] * joker + ["compensation"] * compensation
    parts += [f"{rounds}-rounds"] * (rounds > 1)
    return "-".join(parts) or "base"


VARIANTS = tuple(_variant_name(joker, compensation, rounds)
                 for rounds in (1, *VARIANT_ROUNDS) for joker in (False, True)
                 for compensation in (False, True))
"""``base``, ``compensation``, ``joker``, ``joker-compensation``, then each of them played
over 2 and 3 rounds (``2-rounds``, ``joker-compensation-3-rounds``, ...). A variant adds
to the rule file: ``joker`` puts the joker slice in the box, ``compensation`` plays the
author's compensation for the player count, ``R-rounds`` plays R rounds."""


@dataclass(frozen=True)
class VariantParts:
    """What a variant name switches on."""

    joker: bool
    compensation: bool
    rounds: int | None
    """The variant's round count; ``None``: the rule file's."""


def variant_parts(variant: str) -> VariantParts:
    """The parts a variant name (one of ``VARIANTS``) switches on."""
    rounds = next((r for r in VARIANT_ROUNDS if variant.endswith(f"{r}-rounds")), None)
    return VariantParts("joker" in variant, "compensation" in variant, rounds)


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
    rounds: int = 1
    """Rounds of ``cakes`` cakes each, totals summed (RULES.md s1, multi-round option)."""
    joker: bool = False
    """Whether the box holds the joker slice (the expansion; the ``joker`` variants add it)."""
    joker_points: int = 2
    """What the joker scores when eaten (RULES.md s1: 2)."""
    joker_placement: str = "earlier"
    """Which kinds the joker may go on (``JOKER_PLACEMENTS``; RULES.md s1: ``earlier``)."""
    seat_bonus: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Points added to each seat's final total, by player count (seat 1 serves the first
    cake); not in the published game, a lever for ``cakesim balance`` (all 0)."""
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})
    """The file the rule set was read from; where it lies changes no game."""

    @property
    def set_aside(self) -> int:
        """Slices left over after dealing the cakes, set aside face down."""
        return len(self.slice_kind) - self.cakes * self.slices_per_cake

    def portion_limit(self, players: int) -> int:
        """The most portions a waiter may cut at a table of ``players``."""
        return self.max_portions.get(players, players)

    def seat_bonus_at(self, players: int) -> tuple[int, ...]:
        """Every seat's bonus at a table of ``players`` (0 where the rule set gives none)."""
        return self.seat_bonus.get(players, (0,) * players)

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
        parts = variant_parts(variant)
        if parts.compensation and not self.has_compensation(players):
            known = ", ".join(str(p) for p in sorted(self.compensation)) or "none"
            raise InputError(self.source, "compensation",
                             f"no compensation variant for {players} players; defined for: {known}")
        bonus = self.compensation[players] if parts.compensation else ()
        # Only this table's seat bonus: a bonus at another player count changes none of its
        # games, nor its digest (so ``cakesim balance`` sees which tables a key changes).
        seat_bonus = {players: self.seat_bonus[players]} if players in self.seat_bonus else {}
        return TableRules(replace(self, seat_bonus=seat_bonus), players, variant, bonus,
                          parts.rounds or self.rounds, parts.joker or self.joker)


@dataclass(frozen=True)
class TableRules:
    """A rule set at a table: player count and variant fixed."""

    rules: RuleSet
    players: int
    variant: str
    bonus_after_cakes: tuple[int, ...]
    """1-based cakes after which that cake's waiter takes a set-aside slice (every round)."""
    rounds: int = 1
    """Rounds played, each a fresh deal of every slice, totals summed."""
    joker: bool = False
    """Whether the joker slice is in the box."""

    @property
    def joker_kind(self) -> int:
        """The joker's code among the slices' kinds (one past the real kinds), or -1."""
        return len(self.rules.kinds) if self.joker else -1

    @property
    def kinds_in_play(self) -> int:
        """Columns of every per-kind array: the real kinds, and the joker's if it is in."""
        return len(self.rules.kinds) + self.joker

    @property
    def box(self) -> int:
        """Slices in the box: the component list, and the joker if it is in."""
        return len(self.rules.slice_kind) + self.joker

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
        # The joker is the box's last slice, of a kind of its own worth no majority; its
        # "cream" is what eating it scores.
        joker = [self.joker_kind] * self.joker
        return {
            "slice_kind": np.asarray([*r.slice_kind, *joker], dtype=np.uint8),
            "slice_cream": np.asarray([*r.slice_cream, *[r.joker_points] * self.joker],
                                      dtype=np.int8),
            "majority_value": np.asarray([*r.majority_value, *[0] * self.joker],
                                         dtype=np.int16),
            "rounds": self.rounds,
            "joker_kind": self.joker_kind,
            "joker_points": r.joker_points,
            "joker_same_take": r.joker_placement == "same_take",
            "cakes": r.cakes,
            "slices_per_cake": r.slices_per_cake,
            "portion_limit": self.portion_limit,
            "ties_score": r.tie_rule == "full",
            "bonus_after_cake": bonus,
            "seat_bonus": np.asarray(r.seat_bonus_at(self.players), dtype=np.int16),
        }


def load_rules(path: str | Path | None = None) -> RuleSet:
    """Read and validate a Piece o' Cake rule-set file (default: the published rules)."""
    path = Path(path) if path is not None else DEFAULT_RULES
    return parse_rules(read_toml(path, "rule-set"), str(path))


def parse_rules(data: dict, source: str) -> RuleSet:
    """Validate a parsed rule-set table into a ``RuleSet``."""
    top = Table(data, source)
    top.only(["name", "players", "cakes", "slices_per_cake", "max_portions", "tie_rule",
              "kinds", "compensation", "rounds", "joker", "seat_bonus"])
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
    rounds = top.int_in("rounds", 1, MOST_ROUNDS, 1)
    joker = top.sub("joker", {})
    joker.only(["included", "eat_points", "placement"])
    joker_points = joker.int_in("eat_points", 0, 100, 2)
    seat_bonus_table = top.sub("seat_bonus", {})
    seat_bonus = {}
    for key in seat_bonus_table.data:
        count = _player_count(seat_bonus_table, key, min_players, max_players)
        points = seat_bonus_table.int_list(key, -MOST_SEAT_BONUS, MOST_SEAT_BONUS, least=count)
        if len(points) != count:
            raise seat_bonus_table.error(key, f"lists {len(points)} seats; allowed: one "
                                              f"number for each of the {count} seats")
        seat_bonus[count] = tuple(points)
    # The most rounds any table plays: the file's, or a variant's.
    most_rounds = max(rounds, *VARIANT_ROUNDS)
    check_score_fits(top, "kinds", f"{most_rounds} rounds of every majority value "
                                   f"({sum(values)}), every slice's cream "
                                   f"({sum(slice_cream)}) and the joker ({joker_points}), "
                                   f"and a seat bonus (at most {MOST_SEAT_BONUS})",
                     most_rounds * (sum(values) + sum(slice_cream) + joker_points)
                     + MOST_SEAT_BONUS)

    dealt = cakes * slices_per_cake
    if len(slice_kind) < dealt:
        raise top.error("kinds", f"{len(slice_kind)} slices in all, fewer than the "
                                 f"{cakes} x {slices_per_cake} = {dealt} the cakes need")
    # One place is kept for the joker, whose kind code follows the real kinds'.
    if len(slice_kind) > 254:
        raise top.error("kinds", f"{len(slice_kind)} slices in all; at most 254 are allowed")

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
        # Without the joker: a table with it has one more slice set aside.
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
        rounds=rounds,
        joker=joker.get("included", bool, False),
        joker_points=joker_points,
        joker_placement=joker.get("placement", str, "earlier", JOKER_PLACEMENTS),
        seat_bonus=seat_bonus,
        source=source,
    )


def _player_count(table: Table, key: str, low: int, high: int) -> int:
    # Matched as text: a key of thousands of digits is too long for int().
    counts = {str(count): count for count in range(low, high + 1)}
    if key not in counts:
        raise table.error(key, f"must be a player count from {low} to {high}")
    return counts[key]
