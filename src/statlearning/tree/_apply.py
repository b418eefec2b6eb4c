"""Routing samples to leaves (the prediction hot loop, compiled with numba): array in/out.

The node arrays are first packed into one ``(n_nodes, 4)`` table (left, right, feature,
threshold bits: one cache line per visited node) in which a leaf points to itself, so a step
``node = child[node, not x[feature] < threshold]`` needs no branch and a row has reached its
leaf when the step no longer moves it. Eight rows descend together (independent memory loads
overlap), and the rows about to be routed are read ahead sequentially so that their cache
lines are already loaded when the descent visits them in random order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_AHEAD = 64  # rows read ahead of the descent


@njit(cache=True, nogil=True)
def pack_nodes(children_left, children_right, feature, threshold):
    """``(n_nodes, 4)`` int64 table: children, feature, threshold bits; leaves loop to self."""
    n = children_left.size
    table = np.empty((n, 4), dtype=np.int64)
    thr = table.view(np.float64)
    for t in range(n):
        if children_left[t] == -1:
            table[t, 0] = t
            table[t, 1] = t
            table[t, 2] = 0
            thr[t, 3] = 0.0
        else:
            table[t, 0] = children_left[t]
            table[t, 1] = children_right[t]
            table[t, 2] = feature[t]
            thr[t, 3] = threshold[t]
    return table


@njit(cache=True, nogil=True)
def _descend(table, thr, X, i):
    """Leaf of row ``i`` and whether a compared value was ``NaN``."""
    node = 0
    missing = False
    while True:
        x = X[i, table[node, 2]]
        missing |= x != x
        nxt = table[node, 0 if x < thr[node, 3] else 1]
        if nxt == node:
            return node, missing
        node = nxt


@njit(cache=True, nogil=True)
def apply_packed(table, X, read_ahead=True):
    """Leaf id of every row of ``X`` from a :func:`pack_nodes` table (8 rows at a time).

    Also returns whether no compared value was ``NaN`` (a ``NaN`` goes right, as ``x <
    threshold`` is false; a caller that routes missing values otherwise re-routes).
    ``read_ahead=False`` skips the sequential read-ahead, for callers that route a block of
    rows already in cache through many trees.
    """
    thr = table.view(np.float64)
    n, p = X.shape
    out = np.empty(n, dtype=np.int64)
    sink = np.zeros(1)
    touched = 0.0
    missing = False
    i = 0
    while i + 8 <= n:
        if read_ahead and i + _AHEAD + 8 <= n:
            for q in range(i + _AHEAD, i + _AHEAD + 8):
                for col in range(0, p, 8):
                    touched += X[q, col]
        a = b = c = d = e = f = g = h = 0
        while True:
            xa = X[i, table[a, 2]]
            a2 = table[a, 0 if xa < thr[a, 3] else 1]
            xb = X[i + 1, table[b, 2]]
            b2 = table[b, 0 if xb < thr[b, 3] else 1]
            xc = X[i + 2, table[c, 2]]
            c2 = table[c, 0 if xc < thr[c, 3] else 1]
            xd = X[i + 3, table[d, 2]]
            d2 = table[d, 0 if xd < thr[d, 3] else 1]
            xe = X[i + 4, table[e, 2]]
            e2 = table[e, 0 if xe < thr[e, 3] else 1]
            xf = X[i + 5, table[f, 2]]
            f2 = table[f, 0 if xf < thr[f, 3] else 1]
            xg = X[i + 6, table[g, 2]]
            g2 = table[g, 0 if xg < thr[g, 3] else 1]
            xh = X[i + 7, table[h, 2]]
            h2 = table[h, 0 if xh < thr[h, 3] else 1]
            missing |= (xa != xa) | (xb != xb) | (xc != xc) | (xd != xd) | (xe != xe) \
                | (xf != xf) | (xg != xg) | (xh != xh)
            if (a2 == a and b2 == b and c2 == c and d2 == d and e2 == e and f2 == f
                    and g2 == g and h2 == h):
                break
            a, b, c, d, e, f, g, h = a2, b2, c2, d2, e2, f2, g2, h2
        out[i] = a
        out[i + 1] = b
        out[i + 2] = c
        out[i + 3] = d
        out[i + 4] = e
        out[i + 5] = f
        out[i + 6] = g
        out[i + 7] = h
        i += 8
    while i < n:
        out[i], miss = _descend(table, thr, X, i)
        missing |= miss
        i += 1
    sink[0] = touched  # keeps the read-ahead loads
    return out, not missing


@njit(cache=True, nogil=True)
def apply_kernel(children_left, children_right, feature, threshold, X):
    """Leaf id of every row of ``X``; ``x < threshold`` goes to ``children_left``."""
    return apply_packed(pack_nodes(children_left, children_right, feature, threshold), X)[0]


@njit(cache=True, nogil=True)
def apply_checked(children_left, children_right, feature, threshold, X):
    """``(leaves, clean)``: :func:`apply_kernel` and whether no compared value was ``NaN``.

    When ``clean``, the leaves are final whatever the missing-value rule (every row met
    only observed values on its path), so ``X`` needs no separate ``NaN`` scan.
    """
    return apply_packed(pack_nodes(children_left, children_right, feature, threshold), X)
