"""What every report plot shares: a figure laid out so nothing is clipped, one colour per
name across panels, legends outside the data, the title naming experiment and what is
shown, the PNG.

Figures are made with matplotlib's object-oriented ``Figure`` and never through pyplot, so
writing a report neither needs nor changes the session's backend: a notebook that
imports cakesim still shows its own plots inline. The random seed is not in titles: it is
in the report's "Reproduce" section beside the plot.

Plots are saved as palette PNGs of at most 256 colours and no metadata: about a third of
matplotlib's true-colour file, as readable, and the same bytes for the same figure.
"""

import io
from pathlib import Path

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

PALETTE = colormaps["tab10"].colors + colormaps["Dark2"].colors
"""Distinct colours, handed out in order of first use by ``Colours``."""


class Colours:
    """One fixed colour per name (a variant, a strategy) across every panel of a figure."""

    def __init__(self, names=()):
        self.given: dict[str, tuple] = {}
        for name in names:
            self[name]

    def __getitem__(self, name: str) -> tuple:
        if name not in self.given:
            self.given[name] = PALETTE[len(self.given) % len(PALETTE)]
        return self.given[name]


def error_bars(estimates: list[dict]) -> list[list[float]]:
    """Matplotlib's ``yerr`` (below, above) in percent of a list of estimates (``value``,
    ``low``, ``high`` as shares), never negative.

    An interval may end a rounding error inside its own estimate (Wilson's lower end at a
    share of 0 is 7e-18, not 0); matplotlib refuses a negative error bar.
    """
    return [[100 * max(e["value"] - e["low"], 0) for e in estimates],
            [100 * max(e["high"] - e["value"], 0) for e in estimates]]


def new_figure(rows: int = 1, columns: int = 1, **options) -> tuple[Figure, object]:
    """A figure with a grid of axes; layout options as in ``pyplot.subplots``.

    The constrained layout makes room for the title and for legends placed outside the
    axes (``legend_outside``), so neither is clipped nor covers data.
    """
    layout = {k: options.pop(k) for k in ("squeeze", "sharey", "sharex", "width_ratios",
                                          "height_ratios") if k in options}
    fig = Figure(layout="constrained", **options)
    FigureCanvasAgg(fig)  # what savefig draws PNGs with; layout_problems measures on it
    return fig, fig.subplots(rows, columns, **layout)


def legend_outside(fig: Figure, axes, **options) -> None:
    """One legend for the whole figure, below the panels: every entry of ``axes`` once
    (panels repeat a name in its one colour), in as many columns as fit."""
    entries = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            entries.setdefault(label, handle)
    columns = options.pop("ncols", min(len(entries), 3 if len(entries) > 8 else 4))
    fig.legend(list(entries.values()), list(entries), loc="outside lower center",
               ncols=columns, fontsize=8, frameon=False, **options)


def save_figure(fig: Figure, summary: dict, what: str, path: Path,
                intervals: bool = True) -> Path:
    """Title ``fig`` with the experiment and ``what`` it shows; save it as PNG."""
    shown = f"{what}, 95 % intervals" if intervals else what
    fig.suptitle(f"{summary['title'] or summary['experiment']}: {shown}", fontsize=10)
    drawn = io.BytesIO()
    fig.savefig(drawn, format="png", dpi=DPI)
    path.write_bytes(compact_png(drawn.getvalue()))
    return path


DPI = 110
"""Pixels per inch of every report plot."""

COLOURS = 256
"""The most colours of a saved plot: the few of its lines and bars, and their edges."""


def compact_png(png: bytes) -> bytes:
    """A true-colour PNG as a palette PNG of at most ``COLOURS`` colours, no metadata.

    Median cut keeps a heat map's colour scale smooth where an octree would band it;
    without dithering flat areas stay flat. The quantiser is deterministic, so the same
    drawing always gives the same bytes.
    """
    with Image.open(io.BytesIO(png)) as image:
        # The figures are opaque (a white face): dropping alpha loses nothing.
        palette = image.convert("RGB").quantize(COLOURS, method=Image.Quantize.MEDIANCUT,
                                                dither=Image.Dither.NONE)
    compact = io.BytesIO()
    palette.save(compact, format="png", optimize=True)
    return compact.getvalue()


def layout_problems(fig: Figure) -> list[str]:
    """Titles and legends that stick out of the figure, and legends that cover an axes'
    data area: what a reader could not read. Empty when the figure is clean."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    found = []
    texts = [(f"title {t.get_text()!r}", t) for t in fig.texts if t.get_text()]
    texts += [(f"axes title {ax.get_title()!r}", ax.title) for ax in fig.axes
              if ax.get_title()]
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
    texts += [("legend", legend) for legend in legends]
    for name, artist in texts:
        box = artist.get_window_extent(renderer)
        if (box.x0 < frame.x0 - 1 or box.y0 < frame.y0 - 1 or box.x1 > frame.x1 + 1
                or box.y1 > frame.y1 + 1):
            found.append(f"{name} sticks out of the figure")
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in fig.axes:
            if ax.get_visible() and ax.has_data() and box.overlaps(ax.get_window_extent(renderer)):
                found.append("a legend covers the data of an axes")
    return found
