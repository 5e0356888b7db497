"""cakesim: Monte-Carlo balance analysis for cake-themed board games."""

__version__ = "0.1.0"

from cakesim.api import ExperimentResult, run_experiment, simulate

__all__ = ["ExperimentResult", "__version__", "run_experiment", "simulate"]
