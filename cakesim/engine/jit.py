"""The one place where cakesim's Numba options are set.

Every kernel and every decision function a kernel calls is compiled with the same
options, so that cached machine code is reused across processes (``cache=True``) and
floating-point results are bit-identical to plain Python: ``fastmath`` stays off, because
the reference engine and the kernel must take the same branch on every comparison.
"""

from types import FunctionType

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher
from numba.extending import overload

from cakesim.engine.numba_cache import inlining

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}
INLINE_OPTIONS = {"inline": "always"} if inlining() else {}


def jit(function):
    """Compile ``function`` with cakesim's shared Numba options."""
    return njit(**JIT_OPTIONS)(function)


def jit_borrowing(function):
    """Compile ``function``, which never allocates, to borrow its arrays from the caller.

    Numba's runtime counts references to every array argument of every call with atomic
    operations; in the decision functions, called hundreds of times per game with a dozen
    arrays each, that was half the kernel's time. A function that creates no array can be
    compiled without the runtime (``_nrt=False``): its arrays stay owned, and kept alive,
    by the kernel that calls it. Slicing one array into another allocates; write a loop.
    """
    return njit(**JIT_OPTIONS, _nrt=False)(function)


def jit_inline(function):
    """``jit_borrowing``, and compiled into every caller instead of being called.

    Numba compiles each function on its own and LLVM seldom inlines across them; a call
    passes every array as seven machine words, which cost more than the small helpers
    of the greedy valuation themselves (a fifth of the kernel's time). Inlining costs
    about 40 % of the slicing games' compile time: ``CAKESIM_JIT_INLINE=0`` (the test
    suite) compiles them as called functions (``numba_cache.inlining``).
    """
    return njit(**JIT_OPTIONS, _nrt=False, **INLINE_OPTIONS)(function)


_PLAIN: dict = {}


def plain_python(compiled):
    """The plain-Python twin of a compiled function and of the module's functions it calls.

    Compiled helpers from other modules (random draws, the circle's arcs) stay compiled.
    """
    if compiled not in _PLAIN:
        function = compiled.py_func
        scope = dict(function.__globals__)
        _PLAIN[compiled] = FunctionType(function.__code__, scope, function.__name__,
                                        function.__defaults__, function.__closure__)
        # Registered before its callees, so that calls back into the module resolve.
        scope.update({name: plain_python(value) for name, value in scope.items()
                      if isinstance(value, Dispatcher)
                      and value.py_func.__module__ == function.__module__})
    return _PLAIN[compiled]


def as_index(i):
    """``i``, an index known not to be negative; compiled, the same value as unsigned.

    Numba wraps negative indices around (``a[-1]``), which costs three instructions per
    subscript with a signed index; with an unsigned one it skips that. In plain Python,
    as the reference engine runs, this is the identity.
    """
    return i


@overload(as_index, inline="always")
def _as_index_compiled(i):
    return lambda i: np.uint64(i)
