"""The same BLAS kernels on every x86-64 processor, so that a report's floats keep their bits.

NumPy's and SciPy's OpenBLAS picks its kernels by the processor at run time: on one with
AVX-512 it adds up the products of a covariance matrix in another order than on one with
AVX2 only, and the last bit of some numbers differs (nine of first_player_bias's Balance
interval bounds, in six of its tables, came out one unit in the last place apart on the
two kinds of machine). Intel's MKL has ``MKL_CBWR`` for this; OpenBLAS has
``OPENBLAS_CORETYPE``, read once, when the library is loaded. cakesim asks for the Haswell
kernels, which need AVX2 and FMA (every x86-64 processor since 2013 has both) and on
which the committed reports were written; elsewhere (another architecture, an older
processor, a choice of the user's) nothing is set.
"""

import os
import platform
import sys
from pathlib import Path

CORE_ENV = "OPENBLAS_CORETYPE"
CORE = "Haswell"
CORE_NEEDS = frozenset({"avx2", "fma"})
"""The processor features the Haswell kernels use (``flags`` of ``/proc/cpuinfo``)."""


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The processor's feature flags as Linux lists them; empty where it does not."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


def pin_blas_kernels(flags: frozenset[str] | None = None) -> bool:
    """Ask OpenBLAS for the Haswell kernels where the processor runs them and nobody chose
    other ones; returns whether it did (too late once NumPy is loaded: then it does not)."""
    if CORE_ENV in os.environ or platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if not (cpu_flags() if flags is None else flags) >= CORE_NEEDS:
        return False
    if "numpy" in sys.modules:
        # A process that loaded NumPy before cakesim keeps the processor's own kernels.
        return False
    os.environ[CORE_ENV] = CORE
    return True
