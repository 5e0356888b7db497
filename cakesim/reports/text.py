"""How estimates are written in reports: percentages and points with intervals, means
with ± spread."""


def percent(e: dict) -> str:
    """``21.3 % [20.9, 21.7]``."""
    return f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def points(e: dict) -> str:
    """A share difference in percentage points: ``+1.2 pp [-0.5, +2.9]``."""
    return f"{100 * e['value']:+.1f} pp [{100 * e['low']:+.1f}, {100 * e['high']:+.1f}]"


def pp(e: dict) -> str:
    """A share difference in percentage points, without its interval: ``+1.2 pp``."""
    return f"{100 * e['value']:+.1f} pp"


def points_plus_minus(e: dict) -> str:
    """A share difference in percentage points, ± half its interval: ``-2.1 ± 0.8``."""
    return f"{100 * e['value']:+.1f} ± {50 * (e['high'] - e['low']):.1f}"


def plus_minus(e: dict, digits: int = 2) -> str:
    """``31.20 ± 0.14``: the value and half its interval's width."""
    return f"{e['value']:.{digits}f} ± {(e['high'] - e['low']) / 2:.{digits}f}"
