"""Compiled hot loops of Elkan's k-means: the exact start (every distance) and the assignment
step that skips most distances by the triangle inequality (``KMeans(algorithm="elkan")``).

Array in, array out; compiled by numba with ``cache=True``.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _dist(X, i, centers, j):
    d = 0.0
    for f in range(X.shape[1]):
        diff = X[i, f] - centers[j, f]
        d += diff * diff
    return np.sqrt(d)


@numba.njit(cache=True)
def elkan_init(X, centers):
    """Exact start of Elkan's algorithm: labels, upper bounds and lower bounds ``(n, k)``.

    Returns ``(labels, upper, lower)`` with ``lower[i, j] = ‖x_i − c_j‖`` and ``upper[i]`` the
    distance to the nearest centre (ties to the lowest index).
    """
    n = X.shape[0]
    k = centers.shape[0]
    labels = np.zeros(n, dtype=np.int64)
    upper = np.empty(n, dtype=np.float64)
    lower = np.empty((n, k), dtype=np.float64)
    for i in range(n):
        best = 0
        best_d = np.inf
        for j in range(k):
            d = _dist(X, i, centers, j)
            lower[i, j] = d
            if d < best_d:
                best_d = d
                best = j
        labels[i] = best
        upper[i] = best_d
    return labels, upper, lower


@numba.njit(cache=True)
def elkan_assign(X, centers, labels, upper, lower):
    """One assignment step of Elkan's algorithm (triangle-inequality pruning), in place.

    ``upper[i]`` must bound ``‖x_i − c_{labels[i]}‖`` from above and ``lower[i, j]`` bound
    ``‖x_i − c_j‖`` from below for the current ``centers``. A centre ``j`` is examined only when
    ``upper[i] > lower[i, j]`` and ``upper[i] > ½‖c_{labels[i]} − c_j‖``. On return ``upper``
    is exact (the distance to the assigned centre).

    Returns
    -------
    labels, upper, lower, sums (k, p), counts (k,)
    """
    n, p = X.shape
    k = centers.shape[0]
    half = np.empty((k, k), dtype=np.float64)
    for a in range(k):
        half[a, a] = 0.0
        for b in range(a + 1, k):
            d = 0.0
            for f in range(p):
                diff = centers[a, f] - centers[b, f]
                d += diff * diff
            half[a, b] = half[b, a] = 0.5 * np.sqrt(d)
    s = np.empty(k, dtype=np.float64)
    for a in range(k):
        m = np.inf
        for b in range(k):
            if b != a and half[a, b] < m:
                m = half[a, b]
        s[a] = m
    sums = np.zeros((k, p), dtype=np.float64)
    counts = np.zeros(k, dtype=np.float64)
    for i in range(n):
        a = labels[i]
        if upper[i] > s[a]:
            stale = True
            for j in range(k):
                if j == a or upper[i] <= lower[i, j] or upper[i] <= half[a, j]:
                    continue
                if stale:
                    upper[i] = _dist(X, i, centers, a)
                    lower[i, a] = upper[i]
                    stale = False
                    if upper[i] <= lower[i, j] or upper[i] <= half[a, j]:
                        continue
                d = _dist(X, i, centers, j)
                lower[i, j] = d
                if d < upper[i] or (d == upper[i] and j < a):
                    a = j
                    upper[i] = d
            labels[i] = a
        upper[i] = _dist(X, i, centers, a)
        counts[a] += 1.0
        for f in range(p):
            sums[a, f] += X[i, f]
    return labels, upper, lower, sums, counts
