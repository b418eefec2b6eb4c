"""Compiled agglomerative-clustering loops on a condensed distance matrix (array in, array out).

``d`` is the condensed upper triangle (``scipy.spatial.distance.pdist`` order), overwritten with
Lance–Williams updates. For Ward, centroid and median linkage it holds *squared* Euclidean
distances (their Lance–Williams formulas are exact in squared form). Each function returns the
merges as ``(n − 1, 3)`` rows ``(slot_a, slot_b, height)`` in the order they were made, where a
slot is the index of an original point representing its current cluster.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Method codes shared with _agglomerative.py.
SINGLE, COMPLETE, AVERAGE, WEIGHTED, WARD, CENTROID, MEDIAN = range(7)


@njit(cache=True, inline="always")
def _idx(n, i, j):
    if i > j:
        i, j = j, i
    return n * i - (i * (i + 1)) // 2 + j - i - 1


@njit(cache=True, inline="always")
def _lance_williams(method, d_ik, d_jk, d_ij, n_i, n_j, n_k):
    if method == SINGLE:
        return min(d_ik, d_jk)
    if method == COMPLETE:
        return max(d_ik, d_jk)
    if method == AVERAGE:
        return (n_i * d_ik + n_j * d_jk) / (n_i + n_j)
    if method == WEIGHTED:
        return 0.5 * (d_ik + d_jk)
    if method == WARD:
        return ((n_i + n_k) * d_ik + (n_j + n_k) * d_jk - n_k * d_ij) / (n_i + n_j + n_k)
    if method == CENTROID:
        s = n_i + n_j
        return (n_i * d_ik + n_j * d_jk) / s - n_i * n_j * d_ij / (s * s)
    return 0.5 * d_ik + 0.5 * d_jk - 0.25 * d_ij  # MEDIAN


@njit(cache=True)
def _merge(d, n, method, active, size, x, y, dxy):
    """Merge slot ``x`` into slot ``y``: update row ``y`` of ``d``, deactivate ``x``."""
    nx = size[x]
    ny = size[y]
    for k in range(n):
        if active[k] and k != x and k != y:
            if k < x:
                ix = n * k - (k * (k + 1)) // 2 + x - k - 1
            else:
                ix = n * x - (x * (x + 1)) // 2 + k - x - 1
            if k < y:
                iy = n * k - (k * (k + 1)) // 2 + y - k - 1
            else:
                iy = n * y - (y * (y + 1)) // 2 + k - y - 1
            d[iy] = _lance_williams(method, d[ix], d[iy], dxy, nx, ny, size[k])
    active[x] = False
    size[y] = nx + ny


@njit(cache=True)
def _nearest(d, n, active, i):
    """Nearest active cluster to ``i`` (the first one on ties): row ``i`` of ``d`` is read
    strided for ``j < i`` and contiguously for ``j > i``."""
    best = np.inf
    arg = -1
    for j in range(i):
        if active[j]:
            v = d[n * j - (j * (j + 1)) // 2 + i - j - 1]
            if v < best:
                best = v
                arg = j
    base = n * i - (i * (i + 1)) // 2 - i - 1
    for j in range(i + 1, n):
        if active[j]:
            v = d[base + j]
            if v < best:
                best = v
                arg = j
    return arg, best


@njit(cache=True)
def nn_chain(d, n, method):
    """Nearest-neighbour chain algorithm (reducible linkages): O(n²) time, no extra memory."""
    out = np.empty((n - 1, 3))
    active = np.ones(n, dtype=np.bool_)
    size = np.ones(n)
    chain = np.empty(n, dtype=np.int64)
    length = 0
    first = 0
    for step in range(n - 1):
        if length == 0:
            while not active[first]:
                first += 1
            chain[0] = first
            length = 1
        while True:
            x = chain[length - 1]
            if length > 1:
                y = chain[length - 2]
                best = d[_idx(n, x, y)]
            else:
                y = -1
                best = np.inf
            arg, v = _nearest(d, n, active, x)
            if v < best:
                best = v
                y = arg
            if length > 1 and y == chain[length - 2]:
                break
            chain[length] = y
            length += 1
        length -= 2
        if x > y:
            x, y = y, x
        out[step, 0] = x
        out[step, 1] = y
        out[step, 2] = best
        _merge(d, n, method, active, size, x, y, best)
    return out


@njit(cache=True)
def generic(d, n, method):
    """Stored-matrix algorithm with nearest-neighbour lists (any Lance–Williams linkage).

    Each active cluster keeps its nearest neighbour; after a merge only the lists that pointed
    at the merged pair are recomputed, and the others are lowered if the new cluster is
    closer. Typical cost O(n²); it is correct for non-reducible linkages (centroid, median),
    where merge heights may decrease.
    """
    out = np.empty((n - 1, 3))
    active = np.ones(n, dtype=np.bool_)
    size = np.ones(n)
    nn = np.empty(n, dtype=np.int64)
    mind = np.empty(n)
    for i in range(n):
        nn[i], mind[i] = _nearest(d, n, active, i)
    for step in range(n - 1):
        x = -1
        best = np.inf
        for i in range(n):
            if active[i] and (x < 0 or mind[i] < best):
                best = mind[i]
                x = i
        y = nn[x]
        if x > y:
            x, y = y, x
        out[step, 0] = x
        out[step, 1] = y
        out[step, 2] = best
        _merge(d, n, method, active, size, x, y, best)
        if step == n - 2:
            break
        nn[y], mind[y] = _nearest(d, n, active, y)
        for k in range(n):
            if not active[k] or k == y:
                continue
            if nn[k] == x or nn[k] == y:
                nn[k], mind[k] = _nearest(d, n, active, k)
            else:
                v = d[_idx(n, y, k)]
                if v < mind[k]:
                    mind[k] = v
                    nn[k] = y
    return out


@njit(cache=True)
def _find(parent, i):
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:  # path compression
        nxt = parent[i]
        parent[i] = root
        i = nxt
    return root


@njit(cache=True)
def scipy_linkage(merges, n):
    """Slot-based merges (in reporting order) → SciPy's linkage matrix, by union-find."""
    parent = np.arange(n)
    node = np.arange(n)  # node id of the cluster whose root is this point
    size = np.ones(n)
    Z = np.empty((n - 1, 4))
    for i in range(n - 1):
        ra = _find(parent, int(merges[i, 0]))
        rb = _find(parent, int(merges[i, 1]))
        na = node[ra]
        nb = node[rb]
        Z[i, 0] = min(na, nb)
        Z[i, 1] = max(na, nb)
        Z[i, 2] = merges[i, 2]
        Z[i, 3] = size[ra] + size[rb]
        parent[ra] = rb
        node[rb] = n + i
        size[rb] += size[ra]
    return Z


@njit(cache=True)
def cut(merges, n, n_merges):
    """Flat labels after the first ``n_merges`` merges, numbered by first appearance."""
    parent = np.arange(n)
    for i in range(n_merges):
        ra = _find(parent, int(merges[i, 0]))
        rb = _find(parent, int(merges[i, 1]))
        parent[ra] = rb
    code = np.full(n, -1, dtype=np.int64)
    labels = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n):
        r = _find(parent, i)
        if code[r] < 0:
            code[r] = count
            count += 1
        labels[i] = code[r]
    return labels
