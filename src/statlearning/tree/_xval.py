"""Held-out losses of every pruned subtree at once (rpart's xval; compiled with numba).

For one fold's tree, ``node_alpha[t]`` is the complexity at which node ``t`` becomes a leaf
(non-increasing from the root down a path; ``inf`` for leaves). At complexity ``m`` a held-out
row is predicted by the first node of its root-to-leaf path with ``node_alpha <= m``. The
complexities ``mids`` decrease, so each node of the path predicts the row over one contiguous
range of them: the row's loss is added over that range with a difference array, in
O(depth + log(#mids)) per row instead of routing every row once per complexity.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _first_below(mids, a):
    """Smallest ``k`` with ``mids[k] < a`` (``mids`` decreasing); ``mids.size`` if none."""
    lo, hi = 0, mids.size
    while lo < hi:
        mid = (lo + hi) // 2
        if mids[mid] < a:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def xval_loss_sums(left, right, feature, threshold, node_alpha, node_value, node_class, X, y,
                   codes, w, mids, classification, total, total_sq):
    """Add ``Σ w·loss`` and ``Σ w·loss²`` of the rows of ``X`` at every ``mids[k]``.

    ``total`` and ``total_sq`` (length ``mids.size``) are updated in place. The loss is the
    squared error against ``node_value`` or the 0/1 loss against ``node_class``.
    """
    n_mid = mids.size
    diff = np.zeros(n_mid + 1)
    diff_sq = np.zeros(n_mid + 1)
    for i in range(X.shape[0]):
        start = 0  # first complexity index at which the current node predicts the row
        t = 0
        while True:
            leaf = left[t] == -1
            stop = n_mid if leaf else _first_below(mids, node_alpha[t])
            if stop > start:
                if classification:
                    e = 1.0 if node_class[t] != codes[i] else 0.0
                    e2 = e
                else:
                    r = y[i] - node_value[t]
                    e = r * r
                    e2 = e * e
                diff[start] += w[i] * e
                diff[stop] -= w[i] * e
                diff_sq[start] += w[i] * e2
                diff_sq[stop] -= w[i] * e2
            if leaf:
                break
            start = max(start, stop)
            t = left[t] if X[i, feature[t]] < threshold[t] else right[t]
    acc = 0.0
    acc_sq = 0.0
    for k in range(n_mid):
        acc += diff[k]
        acc_sq += diff_sq[k]
        total[k] += acc
        total_sq[k] += acc_sq
