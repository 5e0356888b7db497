"""The La Part du Chef rule set: loaded from ``rules.toml``, validated, handed to kernels as arrays.

RULES.md section 2. A ``RuleSet`` is the whole game as data: the component list (one
entry per slice: its category, its olives, whether it is its kind's finisher), each
kind's majority value, the pizza size, the scoring switches and whether La Marianne is in
the base game. ``RuleSet.for_table`` fixes the player count and the variant;
``TableRules.arrays`` is what a kernel receives.

Slice categories: ``0 .. K-1`` are the pizza kinds in the table's order, ``K`` is a
pepper (``pepper_of(K)``) and ``K + 1`` a burnt slice (``burnt_of(K)``).
"""

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from cakesim.engine.contract import check_score_fits
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table, read_toml

DEFAULT_RULES = Path(__file__).with_name("rules.toml")
VARIANTS = ("base", "marianne")
RECEIPT_POINTS = ("receiver", "holder")
PEPPER_ASSIGNMENTS = ("independent", "sequential")


def pepper_of(kinds: int) -> int:
    """The category code of a pepper when there are ``kinds`` pizza kinds."""
    return kinds


def burnt_of(kinds: int) -> int:
    """The category code of a burnt slice when there are ``kinds`` pizza kinds."""
    return kinds + 1


@dataclass(frozen=True)
class RuleSet:
    """Every number of the game, independent of the table it is played at."""

    name: str
    kinds: tuple[str, ...]
    majority_value: tuple[int, ...]
    slice_category: tuple[int, ...]
    """Category of every slice in the box, in component-list order (kinds, peppers, burnt)."""
    slice_olives: tuple[int, ...]
    """Olives (eat value) of every slice in the box; 0 for peppers and burnt slices."""
    slice_finisher: tuple[bool, ...]
    """Whether each slice of the box is its kind's finisher."""
    min_players: int
    max_players: int
    pizzas: int
    slices_per_pizza: int
    diversity_bonus: int = 5
    slice_point: int = 1
    burnt_penalty: int = 3
    receipt_point: str = "receiver"
    pepper_assignment: str = "independent"
    marianne: bool = False
    """La Marianne in the base game (RULES.md: off by default)."""
    source: str = field(default=str(DEFAULT_RULES), metadata={"digest": False})
    """The file the rule set was read from; where it lies changes no game."""

    @property
    def pepper(self) -> int:
        """The category code of a pepper."""
        return pepper_of(len(self.kinds))

    @property
    def burnt(self) -> int:
        """The category code of a burnt slice."""
        return burnt_of(len(self.kinds))

    @property
    def categories(self) -> tuple[str, ...]:
        """Names of every category: the kinds, then ``pepper`` and ``burnt``."""
        return (*self.kinds, "pepper", "burnt")

    def count_of(self, category: int) -> int:
        """Slices of ``category`` in the box."""
        return self.slice_category.count(category)

    def with_overrides(self, receipt_point: str | None = None,
                       pepper_assignment: str | None = None) -> "RuleSet":
        """This rule set with the receipt-point or pepper-assignment rule replaced."""
        changes = {k: v for k, v in (("receipt_point", receipt_point),
                                     ("pepper_assignment", pepper_assignment)) if v is not None}
        return replace(self, **changes) if changes else self

    def for_table(self, players: int, variant: str = "base") -> "TableRules":
        """The rules in force at a table of ``players`` playing ``variant``."""
        if not self.min_players <= players <= self.max_players:
            raise InputError(self.source, "players",
                             f"{players} players is not allowed; allowed: "
                             f"{self.min_players} to {self.max_players}")
        if variant not in VARIANTS:
            raise InputError(self.source, "variant",
                             f"{variant!r} is not allowed; allowed values: {', '.join(VARIANTS)}")
        return TableRules(self, players, variant, self.marianne or variant == "marianne")


@dataclass(frozen=True)
class TableRules:
    """A rule set at a table: player count and variant fixed."""

    rules: RuleSet
    players: int
    variant: str
    marianne: bool
    """Whether La Marianne is in play (it goes to the first chef, seat 0)."""

    @cached_property
    def arrays(self) -> dict[str, np.ndarray | int | bool]:
        """The rule set as the kernel receives it: small integer arrays and scalars."""
        r = self.rules
        return {
            "slice_category": np.asarray(r.slice_category, dtype=np.int8),
            "slice_olives": np.asarray(r.slice_olives, dtype=np.int8),
            "slice_finisher": np.asarray(r.slice_finisher, dtype=np.bool_),
            "majority_value": np.asarray(r.majority_value, dtype=np.int16),
            "pizzas": r.pizzas,
            "slices_per_pizza": r.slices_per_pizza,
            "diversity_bonus": r.diversity_bonus,
            "slice_point": r.slice_point,
            "burnt_penalty": r.burnt_penalty,
            "receipt_holder": r.receipt_point == "holder",
            "pepper_sequential": r.pepper_assignment == "sequential",
            "marianne": self.marianne,
        }


def load_rules(path: str | Path | None = None) -> RuleSet:
    """Read and validate a La Part du Chef rule-set file (default: the published rules)."""
    path = Path(path) if path is not None else DEFAULT_RULES
    return parse_rules(read_toml(path, "rule-set"), str(path))


def parse_rules(data: dict, source: str) -> RuleSet:
    """Validate a parsed rule-set table into a ``RuleSet``."""
    top = Table(data, source)
    top.only(["name", "players", "pizzas", "slices_per_pizza", "diversity_bonus",
              "slice_point", "receipt_point", "pepper_assignment", "marianne", "pepper",
              "burnt", "kinds"])
    players = top.sub("players")
    players.only(["min", "max"])
    min_players = players.int_in("min", 2, 8)
    max_players = players.int_in("max", min_players, 8)
    pizzas = top.int_in("pizzas", 1, 20)
    slices_per_pizza = top.int_in("slices_per_pizza", max_players, 16)

    entries = top.get("kinds", list)
    if not entries:
        raise top.error("kinds", "must list at least one kind")
    if len(entries) > 16:
        raise top.error("kinds", f"{len(entries)} kinds; at most 16 are allowed")
    kinds, values, category, olives, finisher = [], [], [], [], []
    for index, entry in enumerate(entries):
        kind = Table(entry, source, f"kinds[{index}]")
        kind.only(["name", "majority_value", "olives", "finisher"])
        name = kind.get("name", str)
        if name in kinds or name in ("pepper", "burnt"):
            raise kind.error("name", f"kind {name!r} is listed twice or is reserved")
        kinds.append(name)
        values.append(kind.int_in("majority_value", 0, 1000))
        eat = kind.int_list("olives", 0, 100)
        medallion = kind.int_in("finisher", 0, len(eat) - 1)
        category += [index] * len(eat)
        olives += eat
        finisher += [j == medallion for j in range(len(eat))]

    pepper = top.sub("pepper")
    pepper.only(["count"])
    peppers = pepper.int_in("count", 0, 16)
    burnt = top.sub("burnt")
    burnt.only(["count", "penalty"])
    burnt_count = burnt.int_in("count", 0, 20)
    if burnt_count != pizzas:
        raise burnt.error("count", f"{burnt_count} burnt slices, but the rules put exactly "
                                   f"one on each of the {pizzas} pizzas")
    category += [pepper_of(len(kinds))] * peppers + [burnt_of(len(kinds))] * burnt_count
    olives += [0] * (peppers + burnt_count)
    finisher += [False] * (peppers + burnt_count)
    dealt = pizzas * slices_per_pizza
    if len(category) != dealt:
        raise top.error("kinds", f"{len(category)} slices in all (kinds, peppers, burnt), "
                                 f"but {pizzas} pizzas x {slices_per_pizza} = {dealt} "
                                 f"need exactly that many")

    diversity_bonus = top.int_in("diversity_bonus", 0, 1000, 5)
    slice_point = top.int_in("slice_point", 0, 100, 1)
    # The scarcest kind a player keeps has at most its slices plus every pepper.
    scarcest = min(category.count(k) for k in range(len(kinds))) + peppers
    pointed = dealt - burnt_count
    check_score_fits(top, "kinds", f"every majority value ({sum(values)}) + every olive "
                                   f"({sum(olives)}) + {slice_point} x {pointed} received "
                                   f"slices + {diversity_bonus} x {scarcest} for diversity",
                     sum(values) + sum(olives) + slice_point * pointed
                     + diversity_bonus * scarcest)

    return RuleSet(
        name=top.get("name", str, "La Part du Chef"),
        kinds=tuple(kinds),
        majority_value=tuple(values),
        slice_category=tuple(category),
        slice_olives=tuple(olives),
        slice_finisher=tuple(finisher),
        min_players=min_players,
        max_players=max_players,
        pizzas=pizzas,
        slices_per_pizza=slices_per_pizza,
        diversity_bonus=diversity_bonus,
        slice_point=slice_point,
        burnt_penalty=burnt.int_in("penalty", 0, 1000),
        receipt_point=top.get("receipt_point", str, "receiver", RECEIPT_POINTS),
        pepper_assignment=top.get("pepper_assignment", str, "independent",
                                  PEPPER_ASSIGNMENTS),
        marianne=top.get("marianne", bool, False),
        source=source,
    )
