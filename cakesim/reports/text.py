"""How estimates are written in reports: percentages with intervals, means with ± spread."""


def percent(e: dict) -> str:
    """``21.3 % [20.9, 21.7]``."""
    return f"{100 * e['value']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def plus_minus(e: dict, digits: int = 2) -> str:
    """``31.20 ± 0.14``: the value and half its interval's width."""
    return f"{e['value']:.{digits}f} ± {(e['high'] - e['low']) / 2:.{digits}f}"
