"""Ensemble prediction hot loop (compiled with numba): sum of the trees' leaf values, array in/out.

Rows are taken in blocks that stay in the last-level cache while every tree routes them (the
tree family's packed, branch-free :func:`~statlearning.tree._apply.apply_packed` kernel), and
each tree's leaf values are added into the ``(n, k)`` accumulator in place: no
``(n_trees, n, k)`` array and no per-tree temporary of shape ``(n, k)``.

Boosted ensembles (many small trees: stumps, depth 3) keep all their trees in one flat table
(:func:`pack_flat`, built once at fit) and :func:`add_flat` routes every block of rows through
all of them in one compiled call, adding each tree's contribution in the order of the trees —
the order in which scikit-learn's boosting adds them, so the sums agree to the last bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..tree._apply import apply_packed, pack_nodes

#: Rows routed through all trees at a time. Measured on 100,000 × 100 rows through 30 trees:
#: 2,048 rows 0.31 s, 8,192 rows 0.22 s, 32,768 rows 0.32 s, no blocking 0.30 s.
BLOCK_ROWS = 8192


def pack_forest(trees):
    """Per tree: its packed routing table, leaf values (float64) and leaf votes (argmax)."""
    packed = []
    for t in trees:
        table = pack_nodes(t.children_left, t.children_right, t.feature, t.threshold)
        value = np.ascontiguousarray(t.value, dtype=np.float64)
        packed.append((table, value, np.argmax(value, axis=1).astype(np.int64)))
    return packed


@njit(cache=True, nogil=True)
def _add_leaves(out, leaves, value, votes, hard):
    """``out[i] += value[leaves[i]]`` (or one vote for ``votes[leaves[i]]`` with ``hard``)."""
    k = value.shape[1]
    for i in range(leaves.size):
        leaf = leaves[i]
        if hard:
            out[i, votes[leaf]] += 1.0
        else:
            for c in range(k):
                out[i, c] += value[leaf, c]


def accumulate_forest(packed, X, hard: bool, out) -> None:
    """Add every tree's leaf value (or, with ``hard``, a vote for its argmax) to ``out``.

    ``X`` is C-contiguous float64 without ``NaN``; ``out`` has shape ``(n, k)`` and is
    updated in place.
    """
    n = X.shape[0]
    for start in range(0, n, BLOCK_ROWS):
        block = slice(start, min(start + BLOCK_ROWS, n))
        Xb, ob = X[block], out[block]
        for table, value, votes in packed:
            leaves, _ = apply_packed(table, Xb)
            _add_leaves(ob, leaves, value, votes, hard)


#: What :func:`add_flat` adds for tree ``t`` and leaf ``v``: ``weight[t] · value[v, 0]`` to
#: column ``column[t]`` (gradient boosting); ``weight[t]`` to column ``votes[v]`` and
#: ``−weight[t]/(K − 1)`` to the others (SAMME's symmetric vote).
STAGE, SAMME = 0, 1


def pack_flat(trees, votes=None):
    """All trees in one routing table: ``(table, starts, value, votes)``.

    ``table`` stacks the :func:`~statlearning.tree._apply.pack_nodes` tables (node ids local
    to each tree), tree ``t`` in rows ``starts[t]:starts[t + 1]``; ``value`` stacks the leaf
    values (column 0), ``votes`` per node a class code (``None``: zeros).
    """
    tables = [pack_nodes(t.children_left, t.children_right, t.feature, t.threshold) for t in trees]
    starts = np.zeros(len(tables) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([tb.shape[0] for tb in tables])
    table = np.concatenate(tables) if tables else np.zeros((0, 4), np.int64)
    value = (
        np.concatenate(
            [np.asarray(t.value, np.float64).reshape(t.value.shape[0], -1)[:, 0] for t in trees]
        )
        if tables
        else np.zeros(0)
    )
    codes = (
        np.zeros(table.shape[0], np.int64)
        if votes is None
        else np.concatenate([np.asarray(v, np.int64) for v in votes])
    )
    return table, starts, value, codes


@njit(cache=True, nogil=True)
def _add_flat(table, starts, value, votes, weight, column, mode, n_classes, X, out):
    n = X.shape[0]
    for b0 in range(0, n, BLOCK_ROWS):
        b1 = min(n, b0 + BLOCK_ROWS)
        Xb = X[b0:b1]
        for t in range(starts.size - 1):
            s = starts[t]
            leaves, _ = apply_packed(table[s : starts[t + 1]], Xb)  # the one routing signature
            a = weight[t]
            if mode == STAGE:
                col = column[t]
                for i in range(b1 - b0):
                    out[b0 + i, col] += a * value[s + leaves[i]]
            else:
                other = -a / (n_classes - 1)
                for i in range(b1 - b0):
                    v = votes[s + leaves[i]]
                    for c in range(n_classes):
                        out[b0 + i, c] += a if c == v else other


def add_flat(flat, X, weight, column, mode, out) -> None:
    """Add every tree's contribution (see :data:`STAGE`, :data:`SAMME`) to ``out`` in place.

    ``flat`` is :func:`pack_flat`'s; ``X`` C-contiguous float64 without ``NaN``; ``weight``
    (float64) and ``column`` (int64) have one entry per tree; ``out`` is ``(n, K)`` float64.
    """
    table, starts, value, votes = flat
    _add_flat(table, starts, value, votes, weight, column, mode, out.shape[1], X, out)
