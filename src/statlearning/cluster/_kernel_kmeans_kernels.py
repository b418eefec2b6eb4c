"""Compiled hot loops of kernel k-means: the per-cluster kernel sums of every point.

``S[i, c] = Σ_{j ∈ C_c} w_j K[i, j]`` is what the feature-space distance
``‖φ(x_i) − μ_c‖² = K_ii − 2 S[i, c] / W_c + Σ_{j,l ∈ C_c} w_j w_l K_jl / W_c²`` needs; one pass
over the Gram (``n²`` reads, each row independent) computes all of it, and after an assignment
step only the columns of the points that changed cluster are read again
(:func:`move_points`), so late iterations, where few points move, cost ``n × moved``.

Array in, array out, with explicit signatures (the Gram is read in place, writeable or not);
the row loops run on numba's threads (``KernelKMeans(n_jobs=...)``), and every row is summed
by one thread in a fixed order, so the result does not depend on the thread count.
"""

from __future__ import annotations

import numba
import numpy as np

from .._core.compiled import I8, lazy_kernel, readonly, writeable

_BLOCK = 256  # rows of S updated together when points move (their K rows stay in cache)


@lazy_kernel(
    (readonly(2), readonly(1, dtype=I8), readonly(1), I8), cache=True, nogil=True, parallel=True
)
def cluster_sums(K, labels, weights, n_clusters):
    """``S[i, c] = Σ_{j: labels[j] = c} weights[j] K[i, j]``, shape (n, n_clusters).

    Parameters
    ----------
    K : ndarray (n, n), C-contiguous
        The Gram matrix (row i is read contiguously).
    labels : ndarray (n,), int64
        Cluster of every point, in ``0 … n_clusters − 1``.
    weights : ndarray (n,)
        Sample weights.
    n_clusters : int
    """
    n = K.shape[0]
    out = np.zeros((n, n_clusters))
    for i in numba.prange(n):
        for j in range(n):
            out[i, labels[j]] += weights[j] * K[i, j]
    return out


@lazy_kernel(
    (
        readonly(2),
        writeable(2),
        readonly(1, dtype=I8),
        readonly(1, dtype=I8),
        readonly(1, dtype=I8),
        readonly(1),
    ),
    cache=True,
    nogil=True,
    parallel=True,
)
def move_points(K, S, rows, old, new, weights):
    """Update ``S`` in place for the points ``rows`` moving from clusters ``old`` to ``new``.

    Uses the symmetry of ``K``: the column of point ``j`` is read as its (contiguous) row.
    """
    n = K.shape[0]
    m = rows.shape[0]
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for b in numba.prange(n_blocks):
        lo = b * _BLOCK
        hi = min(lo + _BLOCK, n)
        for t in range(m):
            j = rows[t]
            w = weights[j]
            a = old[t]
            c = new[t]
            for i in range(lo, hi):
                v = w * K[j, i]
                S[i, a] -= v
                S[i, c] += v
