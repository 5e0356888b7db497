"""cakesim: Monte-Carlo balance analysis for cake-themed board games.

The front door is thin on purpose: ``import cakesim`` (or a worker unpickling a table)
loads no game, plotting or tuning library. The API's names are imported on first use.
"""

from cakesim.engine.blas import pin_blas_kernels

# Before anything imports NumPy, whose OpenBLAS reads its kernel choice when it is loaded.
pin_blas_kernels()

from cakesim.engine.numba_cache import use_code_keyed_cache  # noqa: E402
from cakesim.engine.version import __version__  # noqa: E402

# Before anything imports numba: its cache folder is read when numba is first imported.
use_code_keyed_cache()

__all__ = ["ExperimentResult", "__version__", "balance_rules", "baseline", "plan", "regress",
           "run_experiment", "simulate", "sprt"]


def __getattr__(name: str):
    """``cakesim.simulate`` and the other API names, imported from ``cakesim.app.api``."""
    if name in __all__:
        from cakesim.app import api

        return getattr(api, name)
    raise AttributeError(f"module 'cakesim' has no attribute {name!r}")
