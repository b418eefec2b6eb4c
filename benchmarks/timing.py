"""Timing and traced-memory measurements shared by the workload runner and the grid."""

from __future__ import annotations

import gc
import time
import tracemalloc


def timed(call) -> float:
    """Seconds taken by ``call()``, with the cyclic GC off as :mod:`timeit` does."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        call()
        return time.perf_counter() - start
    finally:
        gc.enable()


def peak_fit_bytes(factory, X, y=None) -> int:
    """Peak of traced allocations during one fit of a fresh estimator (``fit(X)`` if no ``y``)."""
    estimator = factory()
    gc.collect()
    tracemalloc.start()
    try:
        estimator.fit(X) if y is None else estimator.fit(X, y)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        del estimator
        gc.collect()
