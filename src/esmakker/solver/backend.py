"""Which kernel runs: numba-compiled where installed, else (or on request) plain Python."""

from __future__ import annotations

import importlib.util
from functools import cache
from types import ModuleType
from typing import Any

from esmakker.solver import kernel
from esmakker.solver.jit import HAVE_NUMBA


@cache
def _pure_kernel() -> ModuleType:
    """Load a second copy of the kernel module whose functions stay plain Python."""
    origin = kernel.__file__
    assert origin is not None
    spec = importlib.util.spec_from_file_location("esmakker.solver._pure_kernel", origin)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__["_FORCE_PURE"] = True
    spec.loader.exec_module(module)
    return module


def kernel_module(pure: bool) -> ModuleType:
    """Return the compiled kernel, or the plain one when ``pure`` or numba is missing."""
    if pure and HAVE_NUMBA:
        return _pure_kernel()
    return kernel


def int_array(size: int, fill: int, compiled: bool) -> Any:
    """Return an int64 array (numpy for the compiled kernel, a list for the plain one)."""
    if compiled:
        import numpy as np

        # Aligned to a cache line, so that a table entry's body (one line) costs one miss.
        raw = np.full(size + 8, fill, dtype=np.int64)
        start = (-raw.ctypes.data % 64) // 8
        return raw[start : start + size]
    return [fill] * size


def fill(array: Any, value: int) -> None:
    """Set every element of an ``int_array`` to ``value``, in place."""
    if isinstance(array, list):
        array[:] = [value] * len(array)
    else:
        array.fill(value)
