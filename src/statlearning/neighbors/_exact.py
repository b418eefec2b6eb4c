"""Exact pairwise values and exact per-row selection (compiled with numba).

The *reduced value* of a pair is what the searches order by: the squared Euclidean distance,
the clipped cosine distance, the Manhattan or Chebyshev distance, or the Minkowski power sum
``Σ|x_f − y_f|^p``. :func:`pair_value` computes it directly, coordinate by coordinate in
column order and without reassociation, so every search computes bit-identical values for the
same pair (the same sums as R's ``class::knn``). Neighbours are ordered by
``(value, training index)``.

* :func:`exact_pairs` evaluates given (query, candidate) pairs, for the KD-tree search;
* :func:`exact_select` scans every training row for each query: the first ``k`` neighbours in
  ``(value, index)`` order, plus (``all_ties``) every further neighbour whose value is within
  ``(1 + rel)`` times the ``k``-th. It is the fallback of both searches for the rare queries
  whose candidate set is ambiguous, and the path of ``ties="all"`` when ties occur.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = [
    "CHEBYSHEV",
    "COSINE",
    "MANHATTAN",
    "MINKOWSKI",
    "SQEUCLIDEAN",
    "exact_pairs",
    "exact_select",
    "pair_value",
    "sift_down",
]

SQEUCLIDEAN = 0
COSINE = 1
MANHATTAN = 2
CHEBYSHEV = 3
MINKOWSKI = 4


@njit(cache=True)
def pair_value(a, b, code, power):
    """Reduced value between rows ``a`` and ``b`` (1-D arrays of equal length)."""
    p = a.shape[0]
    s = 0.0
    if code == SQEUCLIDEAN:
        for f in range(p):
            t = a[f] - b[f]
            s += t * t
    elif code == COSINE:
        for f in range(p):
            s += a[f] * b[f]
        s = 1.0 - s
        if s < 0.0:
            s = 0.0
        elif s > 2.0:
            s = 2.0
    elif code == MANHATTAN:
        for f in range(p):
            s += abs(a[f] - b[f])
    elif code == CHEBYSHEV:
        for f in range(p):
            t = abs(a[f] - b[f])
            if t > s:
                s = t
    else:
        for f in range(p):
            s += abs(a[f] - b[f]) ** power
    return s


@njit(cache=True)
def sift_down(h, pos, n):
    """Restore the max-heap property of ``h[:n]`` below ``pos``."""
    v = h[pos]
    while True:
        c = 2 * pos + 1
        if c >= n:
            break
        if c + 1 < n and h[c + 1] > h[c]:
            c += 1
        if h[c] > v:
            h[pos] = h[c]
            pos = c
        else:
            break
    h[pos] = v


@njit(cache=True)
def _sort_row(vals, idx, out_v, out_i):
    """Write ``(vals, idx)`` to ``out_*`` ordered by value, then by index.

    A heapsort on the key ``(value, index)`` (unique, so any correct sort gives this order);
    numpy's sorts would compile numba's sorting kernels as well (seconds of the first run).
    """
    c = vals.shape[0]
    for a in range(c):
        out_v[a] = vals[a]
        out_i[a] = idx[a]
    for s in range(c // 2 - 1, -1, -1):
        _sift_pair(out_v, out_i, s, c)
    for end in range(c - 1, 0, -1):
        out_v[0], out_v[end] = out_v[end], out_v[0]
        out_i[0], out_i[end] = out_i[end], out_i[0]
        _sift_pair(out_v, out_i, np.int64(0), end)  # not a literal: one compilation


@njit(cache=True)
def _sift_pair(v, i, pos, n):
    """Restore the max-heap property of ``(v, i)[:n]`` (key: value, then index) below
    ``pos``."""
    while True:
        c = 2 * pos + 1
        if c >= n:
            return
        if c + 1 < n and (v[c + 1] > v[c] or (v[c + 1] == v[c] and i[c + 1] > i[c])):
            c += 1
        if v[c] > v[pos] or (v[c] == v[pos] and i[c] > i[pos]):
            v[c], v[pos] = v[pos], v[c]
            i[c], i[pos] = i[pos], i[c]
            pos = c
        else:
            return


@njit(parallel=True, cache=True)
def exact_pairs(Q, X, idx, code, power):
    """Values of the pairs ``(Q[i], X[idx[i, a]])``, each row sorted by ``(value, index)``.

    Parameters
    ----------
    Q : ndarray (m, p); X : ndarray (n, p); idx : int64 ndarray (m, c)
    code : int; power : float

    Returns
    -------
    vals : ndarray (m, c); order : int64 ndarray (m, c)
        The sorted values and the training indices in that order.
    """
    m, c = idx.shape
    vals = np.empty((m, c))
    order = np.empty((m, c), np.int64)
    for i in prange(m):
        _pairs_row(Q[i], X, idx[i], code, power, vals[i], order[i])
    return vals, order


@njit(cache=True)
def _pairs_row(q, X, cand, code, power, out_v, out_i):
    v = np.empty(cand.shape[0])
    for a in range(cand.shape[0]):
        v[a] = pair_value(q, X[cand[a]], code, power)
    _sort_row(v, cand, out_v, out_i)


@njit(cache=True)
def _kth_value(row_vals, k):
    """The ``k``-th smallest of ``row_vals`` (a max-heap of size ``k``)."""
    h = np.empty(k)
    for j in range(k):
        h[j] = row_vals[j]
    for s in range(k // 2 - 1, -1, -1):
        sift_down(h, s, k)
    for j in range(k, row_vals.shape[0]):
        v = row_vals[j]
        if v < h[0]:
            h[0] = v
            sift_down(h, 0, k)
    return h[0]


@njit(cache=True)
def _row_values(q, X, code, power):
    n = X.shape[0]
    d = np.empty(n)
    for j in range(n):
        d[j] = pair_value(q, X[j], code, power)
    return d


@njit(cache=True)
def _row_threshold(q, X, k, code, power, all_ties, rel):
    """The row's selection threshold and how many neighbours it reports."""
    d = _row_values(q, X, code, power)
    t = _kth_value(d, k)
    if not all_ties:
        return t, k
    t = t * (1.0 + rel)
    c = 0
    for j in range(d.shape[0]):
        if d[j] <= t:
            c += 1
    return t, c


@njit(cache=True)
def _row_fill(q, X, t, length, code, power, vals, idx):
    d = _row_values(q, X, code, power)
    c = 0
    for j in range(d.shape[0]):
        if d[j] <= t:
            c += 1
    cv = np.empty(c)
    ci = np.empty(c, np.int64)
    c = 0
    for j in range(d.shape[0]):
        if d[j] <= t:
            cv[c] = d[j]
            ci[c] = j
            c += 1
    order = np.argsort(cv, kind="mergesort")  # stable: ties keep index order
    for a in range(length):
        vals[a] = cv[order[a]]
        idx[a] = ci[order[a]]


@njit(parallel=True, cache=True)
def exact_select(Q, X, k, code, power, all_ties, rel):
    """Exact neighbours of each query by a full scan of ``X``.

    Returns
    -------
    vals, idx : ndarray of shape (m, L)
        Row ``i`` holds its first ``lengths[i]`` neighbours in ``(value, index)`` order; the
        rest is padding (``inf``, ``-1``). ``L = max(lengths)``.
    lengths : int64 ndarray (m,)
        ``k``, plus (``all_ties``) the number of further neighbours tied with the ``k``-th:
        within ``(1 + rel)`` times its value.
    """
    m = Q.shape[0]
    kth = np.empty(m)
    lengths = np.empty(m, np.int64)
    for i in prange(m):
        kth[i], lengths[i] = _row_threshold(Q[i], X, k, code, power, all_ties, rel)
    L = lengths.max() if m else k
    vals = np.full((m, L), np.inf)
    idx = np.full((m, L), -1, np.int64)
    for i in prange(m):
        _row_fill(Q[i], X, kth[i], lengths[i], code, power, vals[i], idx[i])
    return vals, idx, lengths
