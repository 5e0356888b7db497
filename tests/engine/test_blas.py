"""The BLAS kernel pin: the same covariance bits on every x86-64 processor that runs them."""

import os
import subprocess
import sys

import pytest

from cakesim.engine.blas import CORE, CORE_ENV, CORE_NEEDS, cpu_flags, pin_blas_kernels

COVARIANCE = """
import numpy as np
shares = np.random.default_rng(1).random((10000, 5))
print(np.cov(shares, rowvar=False).tobytes().hex())
"""


def python(code: str, **env: str) -> str:
    """What ``code`` prints in a fresh interpreter, with ``env`` in place of the BLAS choice."""
    environ = {k: v for k, v in os.environ.items() if k != CORE_ENV} | env
    return subprocess.run([sys.executable, "-c", code], env=environ, check=True,
                          capture_output=True, text=True).stdout


def test_cpu_flags_reads_the_flags_line(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2 fma\nbugs\t\t: spectre\n")
    assert cpu_flags(cpuinfo) == {"fpu", "sse2", "avx2", "fma"}
    assert cpu_flags(tmp_path / "missing") == frozenset()


def test_no_pin_without_the_kernels_features_or_after_numpy(monkeypatch):
    monkeypatch.delenv(CORE_ENV, raising=False)
    assert not pin_blas_kernels(frozenset({"sse2", "avx"}))
    # NumPy is loaded in this process: its kernels are chosen already.
    assert not pin_blas_kernels(CORE_NEEDS)
    assert CORE_ENV not in os.environ
    monkeypatch.setenv(CORE_ENV, "SkylakeX")
    assert not pin_blas_kernels(CORE_NEEDS)


@pytest.mark.skipif(not cpu_flags() >= CORE_NEEDS, reason="the processor lacks AVX2 or FMA")
def test_importing_cakesim_first_gives_the_haswell_kernels_bits():
    pinned = python("import cakesim, os\nprint(os.environ.get('OPENBLAS_CORETYPE'))"
                    + COVARIANCE)
    chosen, _, covariance = pinned.partition("\n")
    assert chosen == CORE
    assert covariance == python(COVARIANCE, **{CORE_ENV: CORE})
