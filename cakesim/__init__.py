"""cakesim: Monte-Carlo balance analysis for cake-themed board games."""

from cakesim.engine.numba_cache import use_code_keyed_cache
from cakesim.engine.version import __version__

# Before anything imports numba: its cache folder is read when numba is first imported.
use_code_keyed_cache()

from cakesim.api import (  # noqa: E402
    ExperimentResult,
    baseline,
    plan,
    regress,
    run_experiment,
    simulate,
    sprt,
)

__all__ = ["ExperimentResult", "__version__", "baseline", "plan", "regress", "run_experiment",
           "simulate", "sprt"]
