"""Growing a tree: depth-first (default) or best-first (when ``max_leaf_nodes`` is set).

The builder owns the stopping rules; the split search itself is :func:`._splitter.best_split`.
"""

from __future__ import annotations

import heapq

import numpy as np

from ._criteria import node_stats
from ._splitter import GINI, best_split
from ._structure import TREE_LEAF, Tree


class _Nodes:
    """Growable node arrays (capacity doubling), frozen into :class:`Tree` at the end."""

    _FIELDS = (("left", np.int64), ("right", np.int64), ("feature", np.int64),
               ("threshold", np.float64), ("n", np.int64), ("wn", np.float64),
               ("impurity", np.float64), ("risk", np.float64), ("depth", np.int64))

    def __init__(self, n_values: int, capacity: int = 64):
        self.count = 0
        self.value = np.empty((capacity, n_values))
        for name, dtype in self._FIELDS:
            setattr(self, name, np.empty(capacity, dtype=dtype))

    def _grow(self):
        capacity = 2 * self.value.shape[0]
        self.value = np.resize(self.value, (capacity, self.value.shape[1]))
        for name, _ in self._FIELDS:
            setattr(self, name, np.resize(getattr(self, name), capacity))

    def add(self, value, n, wn, impurity, risk, depth) -> int:
        if self.count == self.value.shape[0]:
            self._grow()
        i = self.count
        self.left[i] = TREE_LEAF
        self.right[i] = TREE_LEAF
        self.feature[i] = -2
        self.threshold[i] = -2.0
        self.value[i] = value
        self.n[i] = n
        self.wn[i] = wn
        self.impurity[i] = impurity
        self.risk[i] = risk
        self.depth[i] = depth
        self.count += 1
        return i

    def freeze(self) -> Tree:
        k = self.count
        return Tree(
            self.left[:k].copy(), self.right[:k].copy(), self.feature[:k].copy(),
            self.threshold[:k].copy(), self.value[:k].copy(), self.n[:k].copy(),
            self.wn[:k].copy(), self.impurity[:k].copy(), self.risk[:k].copy(),
            self.depth[:k].copy(),
        )


def build_tree(X, y, codes, w, *, crit, n_classes, max_depth, min_samples_split,
               min_samples_leaf, min_impurity_decrease, max_leaf_nodes, max_features, rng):
    """Grow the tree on the rows with positive weight and return its :class:`Tree`."""
    n_features = X.shape[1]
    all_features = np.arange(n_features, dtype=np.int64)
    idx0 = np.flatnonzero(w > 0).astype(np.int64)
    w_total = float(w[idx0].sum())
    max_depth = np.iinfo(np.int64).max if max_depth is None else max_depth
    nodes = _Nodes(n_classes if crit >= GINI else 1)

    def candidate_features():
        if max_features >= n_features:
            return all_features
        return np.sort(rng.choice(n_features, size=max_features, replace=False)).astype(np.int64)

    def make(idx, depth):
        """Add a node; return its id and its split (or None) with the weighted decrease."""
        value, wn, imp, risk = node_stats(y, codes, w, idx, crit, n_classes)
        node = nodes.add(value, idx.size, wn, imp, risk, depth)
        if (depth >= max_depth or wn < min_samples_split
                or wn < 2 * min_samples_leaf or imp <= 1e-14):
            return node, None
        f, t, g, parent_g = best_split(
            X, y, codes, w, idx, candidate_features(), crit, n_classes, min_samples_leaf
        )
        if f < 0:
            return node, None
        decrease = max(g - parent_g, 0.0)  # weighted impurity decrease of the split
        if decrease / w_total + 1e-14 < min_impurity_decrease:
            return node, None
        return node, (f, t, decrease, idx)

    def split(node, spl, depth):
        f, t, _, idx = spl
        nodes.feature[node] = f
        nodes.threshold[node] = t
        mask = X[idx, f] < t
        return idx[mask], idx[~mask]

    if max_leaf_nodes is None:
        stack = [(idx0, 0, -1, False)]
        while stack:
            idx, depth, parent, is_left = stack.pop()
            node, spl = make(idx, depth)
            if parent >= 0:
                if is_left:
                    nodes.left[parent] = node
                else:
                    nodes.right[parent] = node
            if spl is not None:
                li, ri = split(node, spl, depth)
                stack.append((ri, depth + 1, node, False))
                stack.append((li, depth + 1, node, True))
    else:
        root, spl = make(idx0, 0)
        heap = []
        if spl is not None:
            heapq.heappush(heap, (-spl[2], root, spl))
        n_leaves = 1
        while heap and n_leaves < max_leaf_nodes:
            _, node, spl = heapq.heappop(heap)
            li, ri = split(node, spl, int(nodes.depth[node]))
            for child_idx, is_left in ((li, True), (ri, False)):
                child, cspl = make(child_idx, int(nodes.depth[node]) + 1)
                if is_left:
                    nodes.left[node] = child
                else:
                    nodes.right[node] = child
                if cspl is not None:
                    heapq.heappush(heap, (-cspl[2], child, cspl))
            n_leaves += 1
    return nodes.freeze()
