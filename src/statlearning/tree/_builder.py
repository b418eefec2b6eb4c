"""Growing a tree: depth-first (default) or best-first (when ``max_leaf_nodes`` is set).

The builder owns the stopping rules; the split search itself is :func:`._splitter.best_split`
for numeric data without missing values, and :mod:`._missing` (missing values by rpart's
surrogate splits, categorical columns) otherwise.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np

from ._missing import (
    best_split_general,
    find_surrogates,
    n_words,
    primary_directions,
    route_missing,
    to_bitset,
)
from ._route import LEFT, RIGHT
from ._splitter import GINI, PURE_TOL, best_split, node_summary
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


def is_leaf(nobs, wn, imp, depth, max_depth, min_split, min_leaf, min_wleaf) -> bool:
    """The stopping rules: depth, ``nobs`` observations against ``min_samples_split`` and twice
    ``min_samples_leaf``, weight ``wn`` against twice ``min_weight_leaf``, a pure node."""
    return (depth >= max_depth or nobs < min_split or nobs < 2 * min_leaf
            or wn < 2 * min_wleaf or imp <= PURE_TOL)


def _feature_sampler(n_features: int, max_features: int, rng, shuffle: bool = False):
    """The columns of one node in scan order: all of them in column order, or (random subsets,
    ``tie_break="random"``) a fresh random permutation, of which the split search evaluates
    the first ``max_features`` that are not constant in the node (scikit-learn's rule, the
    compiled grower's).
    """
    all_features = np.arange(n_features, dtype=np.int64)

    def candidate_features():
        if shuffle or max_features < n_features:
            return rng.permutation(n_features).astype(np.int64)
        return all_features

    return candidate_features


def _drive(nodes: _Nodes, idx0, make, split, max_leaf_nodes) -> None:
    """Grow from the root rows ``idx0``: depth-first, or best-first up to ``max_leaf_nodes``.

    ``make(idx, depth) -> (node, split or None)`` adds a node (the split's third entry is its
    weighted decrease, the best-first priority); ``split(node, spl, depth) -> (left rows,
    right rows)`` records the split. Depth-first numbering is pre-order, left child first.
    """
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
        return
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


def build_tree(X, y, codes, w, *, crit, n_classes, max_depth, min_samples_split,
               min_samples_leaf, min_impurity_decrease, max_leaf_nodes, max_features, rng,
               n_categories=None, max_surrogates=0, tie_break="first", force_general=False,
               n_obs=None, min_weight_leaf=0.0):
    """Grow the tree on the rows with positive weight and return its :class:`Tree`.

    ``w`` are case weights (the split criterion and the node values); the stopping rules
    ``min_samples_split``/``min_samples_leaf`` count observations, ``n_obs`` per row (default
    one per row of positive weight), and ``min_weight_leaf`` bounds a child's weight.

    ``n_categories`` (levels per column, ``0`` for numeric; ``None``: all numeric) and
    ``max_surrogates`` only matter on the general path, taken when ``X`` holds ``NaN`` or a
    categorical column, or when ``force_general`` (surrogates searched on complete data);
    numeric data without ``NaN`` otherwise grow on the numeric path, without surrogates.
    """
    if n_obs is None:
        n_obs = (w > 0).astype(np.float64)
    general = force_general or (n_categories is not None and np.any(np.asarray(n_categories) > 0))
    if general or np.isnan(X).any():
        if n_categories is None:
            n_categories = np.zeros(X.shape[1], dtype=np.int64)
        return _build_general(
            X, y, codes, w, crit=crit, n_classes=n_classes, max_depth=max_depth,
            min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease, max_leaf_nodes=max_leaf_nodes,
            max_features=max_features, rng=rng,
            n_categories=np.asarray(n_categories, dtype=np.int64),
            max_surrogates=max_surrogates, tie_break=tie_break, n_obs=n_obs,
            min_weight_leaf=min_weight_leaf,
        )
    n_features = X.shape[1]
    idx0 = np.flatnonzero(w > 0).astype(np.int64)
    w_total = float(w[idx0].sum())
    max_depth = np.iinfo(np.int64).max if max_depth is None else max_depth
    nodes = _Nodes(n_classes if crit >= GINI else 1)

    candidate_features = _feature_sampler(n_features, max_features, rng,
                                          shuffle=tie_break == "random")

    def _stops(idx, wn, imp, depth):
        return is_leaf(float(n_obs[idx].sum()), wn, imp, depth, max_depth, min_samples_split,
                       min_samples_leaf, min_weight_leaf)

    def make(idx, depth):
        """Add a node; return its id and its split (or None) with the weighted decrease."""
        value, wn, imp, risk = node_summary(y, codes, w, idx, crit, n_classes)
        node = nodes.add(value, idx.size, wn, imp, risk, depth)
        if _stops(idx, wn, imp, depth):
            return node, None
        f, t, g, parent_g = best_split(
            X, y, codes, w, n_obs, idx, candidate_features(), max_features, crit, n_classes,
            min_samples_leaf, min_weight_leaf)
        if f < 0:
            return node, None
        decrease = max(g - parent_g, 0.0)  # weighted impurity decrease of the split
        if decrease / w_total + PURE_TOL < min_impurity_decrease:
            return node, None
        return node, (f, t, decrease, idx)

    def split(node, spl, depth):
        f, t, _, idx = spl
        nodes.feature[node] = f
        nodes.threshold[node] = t
        mask = X[idx, f] < t
        return idx[mask], idx[~mask]

    _drive(nodes, idx0, make, split, max_leaf_nodes)
    return nodes.freeze()


def _build_general(X, y, codes, w, *, crit, n_classes, max_depth, min_samples_split,
                   min_samples_leaf, min_impurity_decrease, max_leaf_nodes, max_features, rng,
                   n_categories, max_surrogates, tie_break="first", n_obs, min_weight_leaf):
    """:func:`build_tree` with missing values (surrogates) and categorical columns."""
    n_features = X.shape[1]
    idx0 = np.flatnonzero(w > 0).astype(np.int64)
    w_total = float(w[idx0].sum())
    max_depth = np.iinfo(np.int64).max if max_depth is None else max_depth
    nodes = _Nodes(n_classes if crit >= GINI else 1)
    extras = {}  # node -> (left levels, right levels, surrogates, majority)

    candidate_features = _feature_sampler(n_features, max_features, rng,
                                          shuffle=tie_break == "random")

    def _stops(idx, wn, imp, depth):
        return is_leaf(float(n_obs[idx].sum()), wn, imp, depth, max_depth, min_samples_split,
                       min_samples_leaf, min_weight_leaf)

    def make(idx, depth):
        value, wn, imp, risk = node_summary(y, codes, w, idx, crit, n_classes)
        node = nodes.add(value, idx.size, wn, imp, risk, depth)
        if _stops(idx, wn, imp, depth):
            return node, None
        f, t, left_levels, decrease = best_split_general(
            X, y, codes, w, n_obs, idx, candidate_features(), max_features, n_categories, crit,
            n_classes, min_samples_leaf, min_weight_leaf)
        if f < 0:
            return node, None
        decrease = max(decrease, 0.0)
        if decrease / w_total + PURE_TOL < min_impurity_decrease:
            return node, None
        return node, (f, t, decrease, idx, left_levels)

    def split(node, spl, depth):
        f, t, _, idx, left_levels = spl
        nodes.feature[node] = f
        nodes.threshold[node] = t
        ydir = primary_directions(X, idx, f, t, left_levels)
        right_levels = None
        if left_levels is not None:
            present = np.unique(X[idx, f][~np.isnan(X[idx, f])]).astype(np.int64)
            right_levels = np.setdiff1d(present, left_levels)
        lw = float(w[idx][ydir == LEFT].sum())
        rw = float(w[idx][ydir == RIGHT].sum())
        first = _rpart_left_first(y, codes, w, idx, ydir, crit, n_classes)
        majority = LEFT if lw > rw else (RIGHT if rw > lw else 0)
        surrogates = []
        if max_surrogates > 0:
            surrogates = find_surrogates(X, w, idx, f, ydir, n_categories, max_surrogates)
        if np.any(ydir == 0):
            route_missing(X, idx, ydir, surrogates, majority)
        extras[node] = (left_levels, right_levels, surrogates, majority, first)
        return idx[ydir == LEFT], idx[ydir == RIGHT]

    _drive(nodes, idx0, make, split, max_leaf_nodes)
    return _attach_extras(nodes.freeze(), extras, n_categories, max_surrogates)


def _attach_extras(tree, extras, n_categories, max_surrogates):
    """Store the categorical level sets, surrogates and default directions in the tree."""
    k = tree.node_count
    words = n_words(n_categories)
    s = max(int(max_surrogates), 0)
    cat_left = np.zeros((k, words), np.uint64)
    cat_right = np.zeros((k, words), np.uint64)
    sf = np.full((k, s), -1, np.int64)
    st = np.full((k, s), np.nan)
    sl = np.ones((k, s), np.bool_)
    sa = np.full((k, s), np.nan)
    sj = np.full((k, s), np.nan)
    scl = np.zeros((k, s, words), np.uint64)
    scr = np.zeros((k, s, words), np.uint64)
    majority = np.full(k, -1, np.int8)
    rpart_left = np.ones(k, np.bool_)
    for node, (lev_l, lev_r, surrogates, maj, first) in extras.items():
        if node >= k or tree.children_left[node] == TREE_LEAF:
            continue
        rpart_left[node] = first
        if lev_l is not None:
            cat_left[node] = to_bitset(lev_l, words)
            cat_right[node] = to_bitset(lev_r, words)
        majority[node] = 1 if maj == LEFT else (0 if maj == RIGHT else -1)
        for i, sur in enumerate(surrogates):
            sf[node, i] = sur["feature"]
            st[node, i] = sur["threshold"]
            sl[node, i] = sur["lt_left"]
            sa[node, i] = sur["agreement"]
            sj[node, i] = sur["adj"]
            if sur["levels_left"] is not None:
                scl[node, i] = to_bitset(sur["levels_left"], words)
                scr[node, i] = to_bitset(sur["levels_right"], words)
    has_cat = bool(np.any(n_categories > 0))
    return replace(
        tree,
        n_categories=n_categories.copy() if has_cat else None,
        cat_left=cat_left if has_cat else None,
        cat_right=cat_right if has_cat else None,
        surrogate_feature=sf, surrogate_threshold=st, surrogate_left=sl,
        surrogate_agreement=sa, surrogate_adj=sj, surrogate_cat_left=scl,
        surrogate_cat_right=scr, majority_left=majority, rpart_left=rpart_left,
    )


def _rpart_left_first(y, codes, w, idx, ydir, crit, n_classes):
    """Whether rpart makes ``children_left`` its left son (printed first, id ``2k``).

    rpart orients a split on the rows the primary column routes: the side with the smaller
    mean response (``anova.c``: left unless the left centred sum is positive) or the smaller
    mean class index (``gini.c``: left when strictly smaller).
    """
    rows = idx[ydir != 0]
    left = ydir[ydir != 0] == LEFT
    ww = w[rows]
    if crit < GINI:
        yy = y[rows]
        centred = ww * (yy - np.dot(ww, yy) / ww.sum())
        return not centred[left].sum() > centred[~left].sum()
    k = np.arange(n_classes, dtype=np.float64)
    cl = np.bincount(codes[rows][left], weights=ww[left], minlength=n_classes)
    cr = np.bincount(codes[rows][~left], weights=ww[~left], minlength=n_classes)
    return bool(np.dot(cl / cl.sum(), k) < np.dot(cr / cr.sum(), k))
