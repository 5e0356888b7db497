"""cakesim: Monte-Carlo balance analysis for cake-themed board games."""

__version__ = "0.1.0"

from cakesim.api import (
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
