"""The weakest-link (cost-complexity) sequence of a tree (compiled with numba): array in/out.

Each step collapses the live internal node(s) with the smallest
``g(t) = (C(t) - C(T_t)) / (|T_t| - 1)`` and updates the subtree sizes and costs of their
ancestors. The minimum comes from a binary heap of ``(g, node)`` entries ordered by ``g`` then
node id; an entry whose ``g`` is no longer its node's is stale and skipped, so a step costs
O(depth · log n) instead of a scan of every node.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _less(keys, ids, a, b):
    return keys[a] < keys[b] or (keys[a] == keys[b] and ids[a] < ids[b])


@njit(cache=True)
def _swap(keys, ids, a, b):
    keys[a], keys[b] = keys[b], keys[a]
    ids[a], ids[b] = ids[b], ids[a]


@njit(cache=True)
def _push(keys, ids, size, key, node):
    """Add ``(key, node)``; returns the (possibly reallocated) arrays and the new size."""
    if size == keys.size:
        keys = np.concatenate((keys, np.empty(keys.size)))
        ids = np.concatenate((ids, np.empty(ids.size, dtype=np.int64)))
    keys[size] = key
    ids[size] = node
    i = size
    while i > 0:
        up = (i - 1) // 2
        if not _less(keys, ids, i, up):
            break
        _swap(keys, ids, i, up)
        i = up
    return keys, ids, size + 1


@njit(cache=True)
def _pop(keys, ids, size):
    """Remove the smallest entry (its key and node are left at index ``size - 1``)."""
    size -= 1
    _swap(keys, ids, 0, size)
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _less(keys, ids, child + 1, child):
            child += 1
        if not _less(keys, ids, child, i):
            break
        _swap(keys, ids, i, child)
        i = child
    return size


@njit(cache=True)
def weakest_link_kernel(left, right, cost, one_at_a_time, rel_tol):
    """``(alphas, leaf_costs, n_leaves, step_nodes, step_offsets)`` of the sequence.

    Step ``s`` (``s = 0`` is the full tree, with alpha 0) collapsed the original node ids
    ``step_nodes[step_offsets[s]:step_offsets[s + 1]]`` (increasing): every live node whose
    ``g`` is within ``rel_tol`` of the minimum, or with ``one_at_a_time`` the smallest id
    among those at the minimum.
    """
    n = left.size
    parent = np.full(n, -1, dtype=np.int64)
    for t in range(n):
        if left[t] != -1:
            parent[left[t]] = t
            parent[right[t]] = t
    leaves = np.ones(n)
    branch = cost.copy()
    for t in range(n - 1, -1, -1):  # children have larger ids than their parent
        if left[t] != -1:
            leaves[t] = leaves[left[t]] + leaves[right[t]]
            branch[t] = branch[left[t]] + branch[right[t]]
    g = np.full(n, np.inf)
    keys = np.empty(2 * n + 16)
    ids = np.empty(2 * n + 16, dtype=np.int64)
    size = 0
    for t in range(n):
        if left[t] != -1:
            g[t] = (cost[t] - branch[t]) / (leaves[t] - 1.0)
            keys, ids, size = _push(keys, ids, size, g[t], t)
    alphas = [0.0]
    leaf_costs = [branch[0]]
    n_leaves = [leaves[0]]
    step_nodes = [np.int64(0)]
    step_nodes.pop()  # a typed, empty list of int64
    offsets = [np.int64(0), np.int64(0)]
    stack = np.empty(n + 2, dtype=np.int64)
    chosen = np.empty(n, dtype=np.int64)
    while np.isfinite(g[0]):
        # the live minimum
        while keys[0] != g[ids[0]]:
            size = _pop(keys, ids, size)
        gmin = keys[0]
        n_chosen = 0
        if one_at_a_time:
            chosen[0] = ids[0]
            n_chosen = 1
        else:
            tol = gmin + rel_tol * max(abs(gmin), abs(cost[0]) * 1e-3)
            while size > 0 and keys[0] <= tol:
                live = keys[0] == g[ids[0]]
                node = ids[0]
                size = _pop(keys, ids, size)
                if live:
                    chosen[n_chosen] = node
                    n_chosen += 1
            chosen[:n_chosen].sort()
            # an unchanged g can leave two live entries of one node: keep it once
            m = 0
            for c in range(n_chosen):
                if m == 0 or chosen[c] != chosen[m - 1]:
                    chosen[m] = chosen[c]
                    m += 1
            n_chosen = m
        for c in range(n_chosen):
            t = chosen[c]
            step_nodes.append(t)
            if not np.isfinite(g[t]):
                continue  # inside a subtree collapsed earlier in this step
            d_leaves = leaves[t] - 1.0
            d_cost = branch[t] - cost[t]
            top = 0
            stack[top] = t
            top += 1
            while top > 0:
                top -= 1
                u = stack[top]
                if np.isfinite(g[u]):
                    g[u] = np.inf
                    stack[top] = left[u]
                    stack[top + 1] = right[u]
                    top += 2
            leaves[t] = 1.0
            branch[t] = cost[t]
            u = parent[t]
            while u >= 0:
                leaves[u] -= d_leaves
                branch[u] -= d_cost
                g[u] = (cost[u] - branch[u]) / (leaves[u] - 1.0)
                keys, ids, size = _push(keys, ids, size, g[u], u)
                u = parent[u]
        alphas.append(max(gmin, 0.0))
        leaf_costs.append(branch[0])
        n_leaves.append(leaves[0])
        offsets.append(np.int64(len(step_nodes)))
    return (np.array(alphas), np.array(leaf_costs), np.array(n_leaves),
            np.array(step_nodes, dtype=np.int64), np.array(offsets, dtype=np.int64))
