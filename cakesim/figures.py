"""What every report plot shares: the title naming experiment and seed, the saved PNG."""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def save_figure(fig, summary: dict, what: str, path: Path, intervals: bool = True) -> Path:
    """Title ``fig`` with the experiment, ``what`` it shows and the seed; save it as PNG."""
    shown = f"{what}, 95 % intervals" if intervals else what
    fig.suptitle(f"{summary['title'] or summary['experiment']}: {shown} "
                 f"(seed {summary['seed']})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
