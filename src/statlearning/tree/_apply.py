"""Routing samples to leaves (the prediction hot loop, compiled with numba): array in/out."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def apply_kernel(children_left, children_right, feature, threshold, X):
    """Leaf id of every row of ``X``; ``x < threshold`` goes to ``children_left``."""
    n = X.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        node = 0
        while children_left[node] != -1:
            if X[i, feature[node]] < threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        out[i] = node
    return out
