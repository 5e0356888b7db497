"""The Eilauftrag timing model as data: baker profiles and the seed's time budgets.

RULES.md section 3, "Eilauftrag". ``timing.toml`` says where every number comes from
and which are assumptions.
"""

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from cakesim.engine.tables import Table, read_toml
from cakesim.kits import exact

DEFAULT_TIMING = Path(__file__).with_name("timing.toml")
PARAMETERS = ("notice", "decide_per_bit", "sigma", "flight")


@dataclass(frozen=True)
class Profile:
    """How fast one kind of baker places: the four timing parameters, in seconds."""

    name: str
    description: str
    notice: float
    decide_per_bit: float
    sigma: float
    flight: float

    def scaled(self, parameter: str, factor: float) -> "Profile":
        """This profile with one parameter multiplied by ``factor`` (for sensitivity)."""
        return replace(self, **{parameter: getattr(self, parameter) * factor})

    def arrays(self, max_options: int) -> np.ndarray:
        """``[notice + decide * log2(1 + n) for n in 0..max_options], sigma, flight``.

        The think time per option count is tabulated once, so that the kernel and the
        reference engine add exactly the same numbers, with a correctly rounded ``log2``
        (``kits.exact``) so that every machine does.
        """
        think = [self.notice + self.decide_per_bit * exact.log2(1.0 + n)
                 for n in range(max_options + 1)]
        return np.array([*think, self.sigma, self.flight])


@dataclass(frozen=True)
class Timing:
    """Every profile, the seed's budgets per level, and the two-player extra time."""

    profiles: dict[str, Profile]
    default_profile: str
    budgets: dict[str, float]
    two_players_extra: float
    points_every: float
    source: str = field(default=str(DEFAULT_TIMING), metadata={"digest": False})

    def profile(self, name: str | None = None) -> Profile:
        """A profile by name (default: the file's default); an InputError lists them."""
        name = name or self.default_profile
        if name not in self.profiles:
            raise Table({}, self.source).error(
                "profile", f"{name!r} is not allowed; allowed values: {', '.join(self.profiles)}")
        return self.profiles[name]

    def seed_budget(self, level: str, players: int) -> float:
        """The seed's budget in seconds for ``level`` at ``players`` (+15 s for two)."""
        if level not in self.budgets:
            raise Table({}, self.source).error(
                f"budgets.{level}", f"missing: level {level!r} has no seed budget; budgets "
                                    f"given for: {', '.join(self.budgets) or 'none'}")
        return self.budgets[level] + (self.two_players_extra if players == 2 else 0.0)


def load_timing(path: str | Path | None = None) -> Timing:
    """Read and validate a timing file."""
    path = Path(path) if path is not None else DEFAULT_TIMING
    top = Table(read_toml(path, "timing"), str(path))
    top.only(["default_profile", "profiles", "budgets"])
    profiles = {}
    profile_table = top.sub("profiles")
    for name in profile_table.data:
        spec = profile_table.sub(name)
        spec.only(["description", *PARAMETERS])
        profiles[name] = Profile(name, spec.get("description", str, ""),
                                 *(spec.number_in(p, 0.0, 60.0) for p in PARAMETERS))
    if not profiles:
        raise top.error("profiles", "define at least one [profiles.NAME]")
    default = top.get("default_profile", str, next(iter(profiles)), list(profiles))
    budgets = top.sub("budgets")
    extra = budgets.number_in("two_players_extra", -1.0, 3600.0, 0.0)
    every = budgets.number_in("points_every", 0.0, 3600.0, 10.0)
    levels = {k: budgets.number_in(k, 0.0, 36000.0) for k in budgets.data
              if k not in ("two_players_extra", "points_every")}
    return Timing(profiles, default, levels, extra, every, str(path))
