"""Forest prediction hot loop (compiled with numba): sum of the trees' leaf values, array in/out.

The node arrays of all trees are concatenated; tree ``t`` owns the slice
``offsets[t]:offsets[t + 1]`` and its child ids are local to that slice. Only the ``(n, k)``
accumulator is written, never an ``(n_trees, n, k)`` array.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def accumulate_forest(left, right, feature, threshold, value, offsets, X, hard, out,
                      block=256):
    """Add every tree's leaf value (or, with ``hard``, a vote for its argmax) to ``out``.

    ``x < threshold`` goes to the left child. ``out`` has shape ``(n_samples, n_values)``.
    Rows are processed in blocks of ``block`` rows through all trees, so that the block of
    ``X`` stays in cache while the trees stream past.
    """
    n = X.shape[0]
    k = value.shape[1]
    for start in range(0, n, block):
        stop = min(start + block, n)
        for t in range(offsets.shape[0] - 1):
            _tree_block(left, right, feature, threshold, value, offsets[t], X, hard, out,
                        start, stop, k)
    return out


@njit(cache=True, nogil=True)
def _tree_block(left, right, feature, threshold, value, base, X, hard, out, start, stop, k):
    """Rows ``start:stop`` through the tree whose nodes start at ``base``."""
    for i in range(start, stop):
        node = 0
        while left[base + node] != -1:
            j = base + node
            if X[i, feature[j]] < threshold[j]:
                node = left[j]
            else:
                node = right[j]
        leaf = base + node
        if hard:
            best = 0
            for c in range(1, k):
                if value[leaf, c] > value[leaf, best]:
                    best = c
            out[i, best] += 1.0
        else:
            for c in range(k):
                out[i, c] += value[leaf, c]


def pack_trees(trees):
    """Concatenate :class:`~statlearning.tree.Tree` node arrays for :func:`accumulate_forest`."""
    offsets = np.zeros(len(trees) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([t.node_count for t in trees])
    return (
        np.concatenate([t.children_left for t in trees]).astype(np.int64),
        np.concatenate([t.children_right for t in trees]).astype(np.int64),
        np.concatenate([t.feature for t in trees]).astype(np.int64),
        np.concatenate([t.threshold for t in trees]).astype(np.float64),
        np.ascontiguousarray(np.concatenate([t.value for t in trees]), dtype=np.float64),
        offsets,
    )
