"""The one place where cakesim's Numba options are set.

Every kernel and every decision function a kernel calls is compiled with the same
options, so that cached machine code is reused across processes (``cache=True``) and
floating-point results are bit-identical to plain Python: ``fastmath`` stays off, because
the reference engine and the kernel must take the same branch on every comparison.
"""

from numba import njit

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def jit(function):
    """Compile ``function`` with cakesim's shared Numba options."""
    return njit(**JIT_OPTIONS)(function)
