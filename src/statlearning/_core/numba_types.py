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

from numba import types

__all__ = ["F8", "I8", "readonly", "writeable"]

F8 = types.float64
I8 = types.int64


def readonly(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel does not write (accepts writeable arrays too)."""
    return types.Array(dtype, ndim, layout, readonly=True)


def writeable(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel writes into."""
    return types.Array(dtype, ndim, layout)
