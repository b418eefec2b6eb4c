"""A slow reference implementation of tree growth: the oracle of the compiled grower.

This is the Python tree builder that grew the package's trees before the compiled grower
(``statlearning.tree._grow``) did all of it: depth-first and best-first growth, the numeric
split search (:func:`best_split`, one node at a time), the split search with missing values and
categorical columns, rpart's surrogate splits and the routing of rows missing a split column
(rpart 4.1: ``bsplit.c``, ``anova.c``, ``gini.c``, ``surrogate.c``, ``choose_surg.c``,
``nodesplit.c``). The tests grow random trees with both and require the same nodes, values,
surrogates and level sets.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np
from numba import njit

from statlearning.tree._route import LEFT, RIGHT, surrogate_scan
from statlearning.tree._splitter import (
    GINI,
    PURE_TOL,
    REL_TIE,
    SQUARED_ERROR,
    abs_gain,
    class_gain,
    node_summary,
    weighted_median,
)
from statlearning.tree._structure import TREE_LEAF, Tree

MAX_EXHAUSTIVE_LEVELS = 10


@njit
def best_split(X, y, codes, w, cnt, idx, features, max_features, crit, n_classes, min_leaf,
               min_wleaf):
    """Best split of the node holding rows ``idx``.

    Parameters
    ----------
    X : float64 (n, p); y : float64 (n,) regression target (unused for classification);
    codes : int64 (n,) class codes (unused for regression); w : float64 (n,) weights;
    cnt : float64 (n,) observations per row (for ``min_leaf``);
    idx : int64 (m,) rows of the node; features : int64 candidate columns (in scan order);
    max_features : the scan stops after this many columns not constant in the node;
    crit : criterion code; n_classes : int; min_leaf : minimum observations (sum of ``cnt``)
    in each child; min_wleaf : minimum weight in each child.

    Returns
    -------
    feature (-1 if no valid split), threshold, gain, parent gain (the gain of no split).
    """
    m = idx.size
    best_f = -1
    best_t = 0.0
    best_g = -np.inf
    classification = crit >= GINI
    # node totals
    wtot = 0.0
    ntot = 0.0
    ysum = 0.0
    tot_counts = np.zeros(n_classes)
    for i in range(m):
        r = idx[i]
        wtot += w[r]
        ntot += cnt[r]
        if classification:
            tot_counts[codes[r]] += w[r]
        else:
            ysum += w[r] * y[r]
    ymean = ysum / wtot if wtot > 0 else 0.0
    if classification:
        parent_g = class_gain(tot_counts, wtot, crit)
    elif crit == SQUARED_ERROR:
        s = 0.0
        for i in range(m):
            s += w[idx[i]] * (y[idx[i]] - ymean)
        parent_g = s * s / wtot
    else:
        yo = np.empty(m)
        wo = np.empty(m)
        for i in range(m):
            yo[i] = y[idx[i]]
            wo[i] = w[idx[i]]
        parent_g = abs_gain(yo, wo, m, m) if m > 0 else 0.0
    if ntot < 2 * min_leaf or wtot < 2 * min_wleaf:
        return best_f, best_t, best_g, parent_g
    xs = np.empty(m)
    yo = np.empty(m)
    wo = np.empty(m)
    no = np.empty(m)
    co = np.empty(m, dtype=np.int64)
    lc = np.zeros(n_classes)
    rc = np.zeros(n_classes)
    found = 0
    for jj in range(features.size):
        if found >= max_features:
            break
        j = features[jj]
        for i in range(m):
            xs[i] = X[idx[i], j]
        order = np.argsort(xs, kind="mergesort")
        if xs[order[0]] == xs[order[m - 1]]:
            continue
        found += 1
        for i in range(m):
            r = idx[order[i]]
            yo[i] = y[r] - ymean
            wo[i] = w[r]
            no[i] = cnt[r]
            co[i] = codes[r]
        lw = 0.0
        ln = 0.0
        ls = 0.0
        for k in range(n_classes):
            lc[k] = 0.0
        for i in range(m - 1):
            lw += wo[i]
            ln += no[i]
            if classification:
                lc[co[i]] += wo[i]
            else:
                ls += wo[i] * yo[i]
            a = xs[order[i]]
            b = xs[order[i + 1]]
            if a == b:
                continue
            nl = i + 1
            rw = wtot - lw
            if ln < min_leaf or lw < min_wleaf or lw <= 0.0:
                continue
            if ntot - ln < min_leaf or rw < min_wleaf or rw <= 0.0:
                break
            if classification:
                for k in range(n_classes):
                    rc[k] = tot_counts[k] - lc[k]
                g = class_gain(lc, lw, crit) + class_gain(rc, rw, crit)
            elif crit == SQUARED_ERROR:
                rs = -ls  # y is centred: the right sum is minus the left sum
                g = ls * ls / lw + rs * rs / rw
            else:
                g = abs_gain(yo, wo, m, nl)
            if best_f < 0 or g > best_g + REL_TIE * abs(best_g):
                best_g = g
                best_f = j
                t = 0.5 * (a + b)
                if t <= a or t > b:
                    t = b
                best_t = t
    return best_f, best_t, best_g, parent_g


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
    # one row of surrogates per split that has surrogates, in node order
    split = (tree.children_left != TREE_LEAF) & (sf[:, 0] >= 0 if s else False)
    index = np.full(k, -1, np.int32)
    index[split] = np.arange(int(split.sum()), dtype=np.int32)
    return replace(
        tree,
        n_categories=n_categories.copy() if has_cat else None,
        cat_left=cat_left if has_cat else None,
        cat_right=cat_right if has_cat else None,
        surrogate_index=index, surrogate_feature=sf[split], surrogate_threshold=st[split],
        surrogate_left=sl[split], surrogate_agreement=sa[split], surrogate_adj=sj[split],
        surrogate_cat_left=scl[split] if has_cat else None,
        surrogate_cat_right=scr[split] if has_cat else None,
        majority_left=majority, rpart_left=rpart_left,
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




def n_words(n_categories) -> int:
    """Number of 64-bit words holding a bitset over the largest column's levels."""
    return max(1, (int(np.max(n_categories, initial=0)) + 63) // 64)


def to_bitset(levels, words: int) -> np.ndarray:
    bits = np.zeros(words, dtype=np.uint64)
    for c in np.asarray(levels, dtype=np.int64):
        bits[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return bits


def _abs_dev(y, w):
    if y.size == 0:
        return 0.0
    med = weighted_median(y, w, np.arange(y.size, dtype=np.int32), y.size)
    return float(np.dot(w, np.abs(y - med)))


def _gray_partitions(present, last):
    """rpart's Gray-code walk (``graycode_init1``): yields the level flipped at each step.

    The levels ``present`` start on the right; the category ``last`` (the column's last
    level) never moves, so each of the :math:`2^{k} - 1` partitions is visited once.
    """
    movable = [c for c in present if c != last]
    state = {c: 1 for c in movable}
    while True:
        for c in movable:
            if state[c] == 1:
                state[c] = 2
                yield c
                break
            state[c] = 1
        else:
            return


def categorical_split(xc, y, codes, w, cnt, q, crit, n_classes, min_leaf, min_wleaf):
    """Best partition of the levels ``xc`` (int codes, no missing) of one node.

    Returns ``(gain, left_levels)``, with ``gain`` the weighted impurity decrease (``-inf``
    when no admissible split), ``left_levels`` the codes sent left.
    """
    wl = np.bincount(xc, weights=w, minlength=q)
    nl = np.bincount(xc, weights=cnt, minlength=q)
    present = np.flatnonzero(np.bincount(xc, minlength=q) > 0)
    if present.size < 2:
        return -np.inf, None
    classification = crit >= GINI
    if classification:
        cnt = np.zeros((q, n_classes))
        np.add.at(cnt, (xc, codes), w)
        total = cnt.sum(axis=0)
        parent = class_gain(total, total.sum(), crit)

        def gain(left_mask):
            cl = cnt[left_mask].sum(axis=0)
            cr = total - cl
            return (class_gain(cl, cl.sum(), crit) + class_gain(cr, cr.sum(), crit)
                    - parent)
    elif crit == SQUARED_ERROR:
        wtot = w.sum()
        mean = np.dot(w, y) / wtot
        sums = np.bincount(xc, weights=w * (y - mean), minlength=q)

        def gain(left_mask):
            sl, wl_ = sums[left_mask].sum(), wl[left_mask].sum()
            sr, wr = sums.sum() - sl, wtot - wl_
            return sl * sl / wl_ + sr * sr / wr
    else:
        parent = _abs_dev(y, w)

        def gain(left_mask):
            rows = left_mask[xc]
            return parent - _abs_dev(y[rows], w[rows]) - _abs_dev(y[~rows], w[~rows])

    wtot = wl.sum()
    ntot = nl.sum()
    best_g, best_left = -np.inf, None

    def consider(left_mask):
        nonlocal best_g, best_left
        lw = wl[left_mask].sum()
        ln = nl[left_mask].sum()
        if (ln < min_leaf or ntot - ln < min_leaf or lw < min_wleaf or wtot - lw < min_wleaf
                or lw <= 0 or wtot - lw <= 0):
            return
        g = gain(left_mask)
        if best_left is None or g > best_g + REL_TIE * abs(best_g):
            best_g, best_left = g, np.flatnonzero(left_mask)

    if classification and n_classes > 2 and present.size <= MAX_EXHAUSTIVE_LEVELS:
        left_mask = np.zeros(q, dtype=bool)
        for c in _gray_partitions(present, q - 1):
            left_mask[c] = ~left_mask[c]
            consider(left_mask.copy())
        return best_g, best_left
    if classification:
        k = 0 if n_classes == 2 else int(np.argmax(total))
        score = cnt[present, k] / wl[present]
    else:
        score = np.bincount(xc, weights=w * y, minlength=q)[present] / wl[present]
    order = present[np.argsort(score, kind="stable")]
    left_mask = np.zeros(q, dtype=bool)
    for c in order[:-1]:
        left_mask[c] = True
        consider(left_mask.copy())
    return best_g, best_left


def best_split_general(X, y, codes, w, cnt, idx, features, max_features, n_categories, crit,
                       n_classes, min_leaf, min_wleaf):
    """Best primary split of the node ``idx``: ``(feature, threshold, left_levels, gain)``.

    ``feature = -1`` when no column has an admissible split; ``left_levels`` is ``None`` for
    numeric columns and ``threshold`` is ``NaN`` for categorical ones.
    """
    best = (-1, np.nan, None, -np.inf)
    found = 0
    for j in features:
        if found >= max_features:
            break
        xj = X[idx, j]
        ok = ~np.isnan(xj)
        sub = idx[ok] if not ok.all() else idx
        if sub.size < 2 or np.all(xj[ok] == xj[ok][0]):
            continue
        found += 1
        if n_categories[j] > 0:
            g, left = categorical_split(xj[ok].astype(np.int64), y[sub], codes[sub], w[sub],
                                        cnt[sub], int(n_categories[j]), crit, n_classes,
                                        min_leaf, min_wleaf)
            t = np.nan
            if left is None:
                continue
        else:
            f, t, g, pg = best_split(X, y, codes, w, cnt, sub, np.array([j], dtype=np.int64),
                                     1, crit, n_classes, min_leaf, min_wleaf)
            if f < 0:
                continue
            g = g - pg
            left = None
        if best[0] < 0 or g > best[3] + REL_TIE * abs(best[3]):
            best = (int(j), float(t), left, float(g))
    return best


def primary_directions(X, idx, feature, threshold, left_levels):
    """-1 (left), +1 (right) or 0 (missing) for every row of the node under the primary."""
    x = X[idx, feature]
    d = np.zeros(idx.size, dtype=np.int8)
    ok = ~np.isnan(x)
    if left_levels is None:
        d[ok] = np.where(x[ok] < threshold, LEFT, RIGHT)
    else:
        d[ok] = np.where(np.isin(x[ok].astype(np.int64), left_levels), LEFT, RIGHT)
    return d


def _categorical_surrogate(xc, ydir, w, q):
    """rpart's categorical ``choose_surg``: each level to its better side."""
    lwt = np.bincount(xc, weights=w * (ydir == LEFT), minlength=q)
    rwt = np.bincount(xc, weights=w * (ydir == RIGHT), minlength=q)
    pos = w > 0
    left_n = np.bincount(xc[pos & (ydir == LEFT)], minlength=q)
    right_n = np.bincount(xc[pos & (ydir == RIGHT)], minlength=q)
    defdir = LEFT if lwt.sum() > rwt.sum() else RIGHT
    seen = (left_n + right_n) > 0
    to_right = seen & ((lwt < rwt) | ((lwt == rwt) & (defdir == RIGHT)))
    to_left = seen & ~to_right
    agree = rwt[to_right].sum() + lwt[to_left].sum()
    lcount = left_n[to_right].sum() + right_n[to_left].sum()
    rcount = right_n[to_right].sum() + left_n[to_left].sum()
    return lcount > 1 and rcount > 1, agree, np.flatnonzero(to_left), np.flatnonzero(to_right)


def find_surrogates(X, w, idx, primary, ydir, n_categories, max_surrogates):
    """The surrogate splits of one node, best first: list of dicts (rpart's ``surrogate``)."""
    tleft = float(w[idx][ydir == LEFT].sum())
    tright = float(w[idx][ydir == RIGHT].sum())
    total = tleft + tright
    majority = max(tleft, tright) / total
    found = []
    for j in range(X.shape[1]):
        if j == primary:
            continue
        x = X[idx, j]
        ok = ~np.isnan(x)
        if n_categories[j] > 0:
            success, agree, lev_l, lev_r = _categorical_surrogate(
                x[ok].astype(np.int64), ydir[ok], w[idx][ok], int(n_categories[j]))
            t, lt_left = np.nan, True
        else:
            order = np.argsort(x[ok], kind="mergesort")
            success, agree, t, direction = surrogate_scan(
                x[ok][order], ydir[ok][order], w[idx][ok][order])
            lt_left, lev_l, lev_r = direction == LEFT, None, None
        if not success:
            continue
        agreement = agree / total
        adj = (agreement - majority) / (1.0 - majority)
        if adj <= 1e-10:
            continue
        # insert after the ties (earlier column first); keep at most max_surrogates
        pos = 0
        while pos < len(found) and found[pos]["agreement"] >= agreement:
            pos += 1
        if pos < max_surrogates:
            found.insert(pos, {"feature": j, "threshold": float(t), "lt_left": bool(lt_left),
                               "agreement": float(agreement), "adj": float(adj),
                               "levels_left": lev_l, "levels_right": lev_r})
            del found[max_surrogates:]
    return found


def route_missing(X, idx, ydir, surrogates, majority):
    """Directions of the node's rows after surrogates and the majority fallback (in place)."""
    miss = np.flatnonzero(ydir == 0)
    for s in surrogates:
        if miss.size == 0:
            break
        x = X[idx[miss], s["feature"]]
        ok = ~np.isnan(x)
        d = np.zeros(miss.size, dtype=np.int8)
        if s["levels_left"] is None:
            lt = x[ok] < s["threshold"]
            d[ok] = np.where(lt == s["lt_left"], LEFT, RIGHT)
        else:
            xc = x[ok].astype(np.int64)
            d[ok] = np.where(np.isin(xc, s["levels_left"]), LEFT,
                             np.where(np.isin(xc, s["levels_right"]), RIGHT, 0))
        ydir[miss] = d
        miss = miss[d == 0]
    if miss.size and majority != 0:
        ydir[miss] = majority
    return ydir
