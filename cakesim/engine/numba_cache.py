"""Numba's on-disk cache, kept per version of cakesim's source.

Numba checks a cached kernel only against its own source file: a change in a function it
calls from another file (a strategy, the seeding) would leave the old compiled kernel in
use and give silently wrong numbers. Keying the cache folder by a digest of the code the
kernels are built from (the engine, the kits and every game's folder) makes any such
change start from a fresh cache, while an edit of a report or a statistic recompiles
nothing. (The folder is chosen once per process, before numba is imported, so it cannot
be one game's.)

The test suite compiles without Numba's inlining (``CAKESIM_JIT_INLINE=0``, see
``inlining``); those builds get a folder of their own, so that no experiment loads them.
"""

import os
import sys
from pathlib import Path

from cakesim.engine.fingerprint import kernel_code_version

CACHE_ENV = "NUMBA_CACHE_DIR"
INLINE_ENV = "CAKESIM_JIT_INLINE"


def inlining() -> bool:
    """Whether ``jit.jit_inline`` compiles functions into their callers (unless
    ``CAKESIM_JIT_INLINE=0``).

    Numba inlines in its own intermediate code, before typing, and types every inlined
    copy again: inlining costs about 40 % of a kernel's compile time (Piece o' Cake's two
    builds, with and without the search, 276 s against 169 s; La Part du Chef's 211 s
    against 126 s). Numba's cache does not tell the two builds apart, hence the folder of
    their own; a folder the user chose (``NUMBA_CACHE_DIR``) is theirs to keep apart.
    Compiled as called functions instead, the kernels do the same arithmetic (``fastmath``
    stays off, so no result moves) and run slower. The test suite, which checks results
    and not speed, uses that.
    """
    return os.environ.get(INLINE_ENV) != "0"


def code_keyed_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/cakesim/numba/<kernel code version>`` (default ``~/.cache``),
    ``-called`` appended when ``jit_inline`` does not inline."""
    root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return root / "cakesim" / "numba" / (kernel_code_version()
                                         + ("" if inlining() else "-called"))


def use_code_keyed_cache() -> None:
    """Point Numba's cache at this source version's folder, unless the user chose one."""
    if CACHE_ENV in os.environ:
        return
    os.environ[CACHE_ENV] = str(code_keyed_cache_dir())
    if "numba" in sys.modules:
        from numba.core import config

        config.reload_config()
