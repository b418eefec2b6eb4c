"""Calling the compiled (numba) kernels: one array layout, and the thread count.

Numba compiles a kernel once per combination of argument types, and an array's type includes its
layout and whether it is writeable: a read-only array (``np.load(..., mmap_mode="r")``, a joblib
memmap, ``a.setflags(write=False)``) or a non-contiguous view would trigger a second compilation
of every kernel it reaches (seconds each), and would not hit the on-disk cache either. Every
array handed to a kernel therefore goes through :func:`kernel_array`, which returns it unchanged
when it already is a writeable C-contiguous array of the right dtype (the usual case, no copy)
and otherwise a copy that is: one compiled signature per kernel whatever the caller passed.

:func:`numba_threads` runs a block with numba's parallel kernels (``prange``) on ``n_jobs``
threads and restores the previous count afterwards; it is how estimators with parallel kernels
implement their ``n_jobs`` parameter. :func:`single_blas_thread` limits BLAS to one thread for a
block (``threadpoolctl``, a dependency of scikit-learn): inside our own parallel blocks, where
nested BLAS threads oversubscribe the cores, and around small products, where a threaded BLAS
spends longer waking its workers than computing (on a busy two-core machine a ``5,000 × 61``
cross product took 350 ms with two threads and 0.7 ms with one).
"""

from __future__ import annotations

import contextlib

import numba
import numpy as np

__all__ = ["kernel_array", "numba_threads", "resolve_n_threads", "single_blas_thread"]

_BLAS_CONTROLLER = []


def kernel_array(a, dtype=np.float64) -> np.ndarray:
    """``a`` as a writeable, aligned, C-contiguous array of ``dtype``.

    Parameters
    ----------
    a : array-like
    dtype : data-type or None, default=float64
        ``None`` keeps the dtype of ``a``.

    Returns
    -------
    ndarray
        ``a`` itself when it already qualifies, else a C-ordered copy.
    """
    arr = np.asarray(a) if dtype is None else np.asarray(a, dtype=dtype)
    flags = arr.flags
    if flags.c_contiguous and flags.writeable and flags.aligned:
        return arr
    return np.array(arr, order="C", copy=True)


def resolve_n_threads(n_jobs) -> int | None:
    """Threads for ``n_jobs``: ``None`` → ``None`` (numba's current setting), ``k > 0`` → ``k``,
    ``-1`` → every thread numba has, ``-2`` → all but one, ... (at least 1, at most numba's
    ``NUMBA_NUM_THREADS``)."""
    if n_jobs is None:
        return None
    total = numba.config.NUMBA_NUM_THREADS
    n = int(n_jobs) if n_jobs > 0 else total + 1 + int(n_jobs)
    return int(min(max(n, 1), total))


@contextlib.contextmanager
def numba_threads(n_jobs):
    """Run the block with numba's parallel kernels on ``n_jobs`` threads.

    Parameters
    ----------
    n_jobs : int or None
        As scikit-learn's ``n_jobs`` (see :func:`resolve_n_threads`); ``None`` leaves numba's
        current thread count (all cores unless ``NUMBA_NUM_THREADS`` or
        :func:`numba.set_num_threads` said otherwise) untouched.

    Notes
    -----
    :func:`numba.set_num_threads` applies to the calling thread only; the previous value is
    restored on exit, also when the block raises.
    """
    n = resolve_n_threads(n_jobs)
    if n is None:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def single_blas_thread(flops=None, *, above=2**27):
    """Context limiting BLAS to one thread (a no-op when ``flops`` exceeds ``above``).

    Parameters
    ----------
    flops : int or None, default=None
        Multiply-adds of the products inside the block; ``None`` always limits.
    above : int, default=2**27
        Products larger than this keep every BLAS thread.

    Returns
    -------
    contextmanager
        ``threadpoolctl``'s limit, or :func:`contextlib.nullcontext`.
    """
    if flops is not None and flops > above:
        return contextlib.nullcontext()
    if not _BLAS_CONTROLLER:
        try:  # a dependency of scikit-learn
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover
            return contextlib.nullcontext()
        _BLAS_CONTROLLER.append(ThreadpoolController())
    return _BLAS_CONTROLLER[0].limit(limits=1, user_api="blas")
