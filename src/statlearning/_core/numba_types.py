"""Argument types for the explicit signatures of the package's compiled kernels.

A numba dispatcher compiles one specialisation per combination of argument types, and a
read-only array (``np.load(..., mmap_mode="r")``, a joblib memmap, ``setflags(write=False)``)
is a different type from a writeable one: without an explicit signature, the first fit on
read-only data compiles every kernel again (seconds). The kernels therefore declare the arrays
they only read as :func:`readonly`: numba converts a writeable array to that type safely, so
one compiled version (loaded from the on-disk cache) serves both, and nothing is copied.
Arrays a kernel writes are declared writeable (:func:`writeable`); the kernels' callers own
those buffers.
"""

from __future__ import annotations

import numpy as np
from numba import types

__all__ = ["B1", "F8", "I8", "contiguous", "either_layout", "readonly", "writeable"]

F8 = types.float64
I8 = types.int64
B1 = types.boolean


def readonly(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel does not write (accepts writeable arrays too)."""
    return types.Array(dtype, ndim, layout, readonly=True)


def writeable(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel writes into."""
    return types.Array(dtype, ndim, layout)


def either_layout(*rest, ndim: int = 2) -> list:
    """Signatures for a kernel whose first argument is a read-only data matrix in C or Fortran
    order, followed by the argument types ``rest`` (one compiled version per order, so data in
    either order are read in place). Pass the matrix through :func:`contiguous`."""
    return [(readonly(ndim, layout), *rest) for layout in ("C", "F")]


def contiguous(a: np.ndarray) -> np.ndarray:
    """``a`` itself when it is C- or Fortran-contiguous, else a C-contiguous copy (a strided
    view matches neither compiled layout)."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return a
    return np.ascontiguousarray(a)
