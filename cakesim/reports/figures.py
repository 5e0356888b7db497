"""What every report plot shares: a new figure, the title naming experiment and seed, the PNG.

Figures are made with matplotlib's object-oriented ``Figure`` and never through pyplot, so
writing a report neither needs nor changes the session's backend: a notebook that
imports cakesim still shows its own plots inline.
"""

from pathlib import Path

from matplotlib.figure import Figure


def new_figure(rows: int = 1, columns: int = 1, **options) -> tuple[Figure, object]:
    """A figure with a grid of axes; layout options as in ``pyplot.subplots``."""
    layout = {k: options.pop(k) for k in ("squeeze", "sharey", "sharex", "width_ratios",
                                          "height_ratios") if k in options}
    fig = Figure(**options)
    return fig, fig.subplots(rows, columns, **layout)


def save_figure(fig: Figure, summary: dict, what: str, path: Path,
                intervals: bool = True, seed: bool = True) -> Path:
    """Title ``fig`` with the experiment, ``what`` it shows and (unless not ``seed``) the
    seed; save it as PNG."""
    shown = f"{what}, 95 % intervals" if intervals else what
    seeded = f" (seed {summary['seed']})" if seed else ""
    fig.suptitle(f"{summary['title'] or summary['experiment']}: {shown}{seeded}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path
