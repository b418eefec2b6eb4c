"""Tree growth compiled end to end with numba: the package's one tree engine.

:func:`grow_tree` grows every tree of the package (single trees, forests, boosting) without a
Python step per node: depth-first (pre-order ids) or best-first (``max_leaf_nodes``), every
criterion, case weights with observation counts for the stopping rules, rpart's surrogate
splits (:mod:`._surrogates`), missing values and categorical columns
(:mod:`._categorical`). The tests compare it with a slow Python reference implementation
(``tests/tree/reference_builder.py``) on random data: same nodes, values and surrogates.

* the rows of the current node are ``samples[start:end]``, kept in increasing row order by a
  stable in-place partition after each split (so node sums are accumulated in a fixed order
  and the node statistics agree with the reference to the last bit);
* with every feature a candidate (``max_features`` ``None``), complete numeric data and a
  depth limit of at least ``_PRESORT_MIN_DEPTH`` (or none), the rows are sorted once per
  feature at the root by the key ``(x, row)`` (the order of a stable sort) and each split
  partitions these lists stably as well, so every node reads its rows in sorted order in
  O(rows) per feature instead of sorting them, in the split search and in the surrogate
  search (features constant in a node are skipped and their lists left alone; the lists take
  4 bytes per row and feature). Otherwise the feature's node values are copied into a
  preallocated buffer and sorted with their row ids on the same key (:mod:`._sort`);
* ``X`` is read in place in row-major order (no copy: a column-major copy costs 8 bytes per
  entry and measured no faster, since rows are visited in sorted, not memory, order);
* nodes are stored in arrays reserved for every node the tree can have (up to
  ``_RESERVED_NODES``, then grown by doubling; a row is resident only once written, so no
  table is copied while growing; 32-bit integers, 28 + 8 × (4 + values) bytes a node: no
  scratch column beyond the node's row range and its pending split), the
  pending nodes in an explicit stack (depth-first) or a heap keyed by the weighted impurity
  decrease (best-first); surrogate splits take a row of their own arrays (grown apart) only
  for a split that has some, and the arrays are written as nodes are made (no fill of the
  spare capacity), then trimmed one at a time (``Tree.surrogate_index``: on 100,000 × 20
  Gaussian rows, about half the nodes splits and two thirds of those without a surrogate,
  the tree's arrays take 22 instead of 64 MiB);
* the compiled entry point releases the GIL, so several trees can grow in threads.

Random feature subsets (``max_features < n_features``) follow scikit-learn's rule: features
are drawn without replacement by a partial Fisher-Yates shuffle and the node keeps drawing
until ``max_features`` features that are not constant in the node were evaluated (or every
feature was drawn), whatever the growth order.

With missing values or categorical columns (the "general" mode) each column is scored on
the node's rows where it is present, against their own totals (rpart), and the column of
largest impurity decrease wins; on complete numeric data the columns compare their child
gains directly (the same ranking). The general mode is a compile-time choice: on complete
numeric data the kernels get ``n_cat=None``, and numba drops every branch under
``n_cat is not None`` (the general mode's code, categorical surrogates, routing of missing
values) from that compilation: a first fit on numeric data compiles only what it runs.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np
from numba import njit

from .._core.compiled import kernel_array
from ._categorical import categorical_split, has_bit, set_bits
from ._route import LEFT, RIGHT
from ._sort import sort_node
from ._splitter import (
    ABSOLUTE_ERROR,
    GINI,
    PURE_TOL,
    REL_TIE,
    abs_gain,
    class_gain,
    node_summary,
    obs,
    split_gain,
)
from ._structure import Tree
from ._surrogates import (
    node_surrogates,
    route_missing,
    surrogate_storage,
    surrogate_storage_doubled,
)
from ._tables import node_tables_doubled

#: rpart's ``bsplit.c``: a split must improve by more than this fraction of the largest
#: improvement seen so far.
RPART_MIN_IMPROVEMENT = 1e-10
#: Node-table rows reserved at the start of growth (address space only until written).
_RESERVED_NODES = 2**20
_PRESORT_CAP = 2**26  # entries of the presorted row lists (int32): 256 MB
#: Shallower trees sort per node: a few levels of per-node sorts cost less memory (boosting's
#: depth-3 trees: 5.5 instead of 9.3 MiB on 50,000 × 20) for a modest time (8.4 s instead of
#: 5.4 s for 100 stages, scikit-learn 24.8 s).
_PRESORT_MIN_DEPTH = 5
# Integer and boolean arguments of the compiled helpers: numba types a literal (``0``, ``-1``,
# ``True``) and a variable initialised by one as a constant of its own, compiling the callee
# once more for it (seconds each, and again for every helper it calls); these are typed
# ``int64`` and ``bool``, so each helper compiles once.
_ZERO = np.int64(0)
_NONE = np.int64(-1)
_TRUE = np.bool_(True)


@njit(cache=True, nogil=True)
def _next_feature(features, visited, use_rng):
    """The ``visited``-th candidate column: drawn at random among those not yet drawn (a step of
    a Fisher-Yates shuffle of ``features``, in place) or, without ``use_rng``, in order."""
    if use_rng:
        k = visited + np.random.randint(0, features.size - visited)  # noqa: NPY002
        features[visited], features[k] = features[k], features[visited]
    return features[visited]


@njit(cache=True, nogil=True)
def _scan(xs, ids, m, j, y, codes, w, cnt, crit, n_classes, min_leaf, min_wleaf, wtot, ntot,
          tot, ymean, lc, rc, yo, wo, best_f, best_t, best_g):
    """Scan the thresholds of column ``j`` (rows ``ids[:m]`` sorted by their values ``xs``)
    and return the updated best ``(feature, threshold, gain)``.

    ``wtot``, ``ntot``, ``tot`` and ``ymean`` are the totals of these rows; a candidate
    replaces the best when its gain exceeds it by more than the relative tie tolerance, so
    ties keep the earlier column, then the smaller threshold.
    """
    classification = crit >= GINI
    binary_gini = crit == GINI and n_classes == 2
    if crit == ABSOLUTE_ERROR:
        for i in range(m):
            yo[i] = y[ids[i]] - ymean
            wo[i] = w[ids[i]]
    lw = 0.0
    ln = 0.0
    ls = 0.0
    for k in range(n_classes):
        lc[k] = 0.0
    for i in range(m - 1):
        r = ids[i]
        wi = w[r]
        lw += wi
        ln += obs(cnt, r)
        if classification:
            lc[codes[r]] += wi
        else:
            ls += wi * (y[r] - ymean)
        a = xs[i]
        b = xs[i + 1]
        if a == b:
            continue
        rw = wtot - lw
        if ln < min_leaf or lw < min_wleaf or lw <= 0.0:
            continue
        if ntot - ln < min_leaf or rw < min_wleaf or rw <= 0.0:
            break
        if binary_gini:
            # class_gain's arithmetic for two classes, without its loops
            l0 = lc[0]
            l1 = lc[1]
            r0 = tot[0] - l0
            r1 = tot[1] - l1
            g = (l0 * l0 + l1 * l1) / lw + (r0 * r0 + r1 * r1) / rw
        elif classification:
            for k in range(n_classes):
                rc[k] = tot[k] - lc[k]
            g = split_gain(lc, rc, tot, lw, rw, wtot, crit)
        elif crit == ABSOLUTE_ERROR:
            g = abs_gain(yo, wo, m, i + 1)
        else:
            rs = -ls
            g = ls * ls / lw + rs * rs / rw
        if best_f < 0 or g > best_g + REL_TIE * abs(best_g):
            best_g = g
            best_f = j
            t = 0.5 * (a + b)
            if t <= a or t > b:
                t = b
            best_t = t
    return best_f, best_t, best_g


@njit(cache=True, nogil=True)
def _totals(rows, m, y, codes, w, cnt, crit, n_classes, tot, yo, wo):
    """``(wtot, ntot, ymean, parent gain)`` of ``rows[:m]`` (sums in that order); ``tot``
    receives the class weights."""
    classification = crit >= GINI
    wtot = 0.0
    ntot = 0.0
    ysum = 0.0
    for k in range(n_classes):
        tot[k] = 0.0
    for i in range(m):
        r = rows[i]
        wtot += w[r]
        ntot += obs(cnt, r)
        if classification:
            tot[codes[r]] += w[r]
        else:
            ysum += w[r] * y[r]
    ymean = ysum / wtot if wtot > 0 else 0.0
    if classification:
        parent_g = class_gain(tot, wtot, crit)
    elif crit == ABSOLUTE_ERROR:
        for i in range(m):
            yo[i] = y[rows[i]]
            wo[i] = w[rows[i]]
        parent_g = abs_gain(yo, wo, m, m)
    else:
        s = 0.0
        for i in range(m):
            r = rows[i]
            s += w[r] * (y[r] - ymean)
        parent_g = s * s / wtot
    return wtot, ntot, ymean, parent_g


@njit(cache=True, nogil=True)
def _node_split(X, y, codes, w, cnt, samples, start, end, features, max_features, use_rng, crit,
                n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2, counts, lc, rc, tot, presorted,
                use_pre, yo, wo):
    """Best split of ``samples[start:end]``: ``(feature, threshold, gain, parent gain)``.

    Sums in row order, then in sorted order; ``features`` is permuted in place when
    ``use_rng``. With
    ``use_pre`` the node's rows sorted by feature ``j`` are read from ``presorted[j]`` instead
    of being sorted. A child needs ``min_leaf`` observations (the sum of ``cnt``) and
    ``min_wleaf`` weight. ``yo``/``wo`` are work buffers of the absolute-error search, which
    re-sorts both children's responses at every candidate threshold.
    """
    m = end - start
    n_features = features.size
    wtot, ntot, ymean, parent_g = _totals(samples[start:end], m, y, codes, w, cnt, crit,
                                          n_classes, tot, yo, wo)
    best_f = _NONE
    best_t = 0.0
    best_g = -np.inf
    if ntot < 2 * min_leaf or wtot < 2 * min_wleaf:
        return best_f, best_t, best_g, parent_g
    visited = _ZERO
    found = 0
    while visited < n_features and found < max_features:
        j = _next_feature(features, visited, use_rng)
        visited += 1
        if use_pre:
            col = presorted[j]
            if X[col[start], j] == X[col[end - 1], j]:
                continue
            found += 1
            for i in range(m):
                r = col[start + i]
                ids[i] = r
                xs[i] = X[r, j]
        else:
            r0 = samples[start]
            xmin = X[r0, j]
            xmax = xmin
            for i in range(m):
                r = samples[start + i]
                v = X[r, j]
                xs[i] = v
                ids[i] = r
                if v < xmin:
                    xmin = v
                elif v > xmax:
                    xmax = v
            if xmin == xmax:
                continue
            found += 1
            sort_node(xs, ids, m, xs2, ids2, counts)
        best_f, best_t, best_g = _scan(xs, ids, m, j, y, codes, w, cnt, crit, n_classes,
                                       min_leaf, min_wleaf, wtot, ntot, tot, ymean, lc, rc,
                                       yo, wo, best_f, best_t, best_g)
    return best_f, best_t, best_g, parent_g


@njit(cache=True, nogil=True)
def _node_split_general(X, y, codes, w, cnt, samples, start, end, features, max_features,
                        use_rng, crit, n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2,
                        counts, lc, rc, tot, yo, wo, n_cat, levels, mask, best_mask):
    """Best split of ``samples[start:end]`` when ``X`` has missing values or categorical
    columns (rpart's rule): ``(feature, threshold, decrease, 0.0)``.

    Each column is scored on the node's rows where it is present, against their own totals:
    its best weighted impurity decrease on that subset (a partition of its levels for a
    categorical column, :func:`._categorical.categorical_split`, the threshold then ``NaN``
    and ``best_mask`` the levels sent left); the column of largest decrease wins (ties to the
    earlier column). A column counts towards ``max_features`` when it has two distinct
    present values.
    """
    n_features = features.size
    best_f = _NONE
    best_t = 0.0
    best_dec = -np.inf
    visited = _ZERO
    found = 0
    while visited < n_features and found < max_features:
        j = _next_feature(features, visited, use_rng)
        visited += 1
        mj = _ZERO
        for i in range(start, end):
            r = samples[i]
            v = X[r, j]
            if not np.isnan(v):
                xs[mj] = v
                ids[mj] = r
                mj += 1
        if mj < 2:
            continue
        constant = True
        for i in range(1, mj):
            if xs[i] != xs[0]:
                constant = False
                break
        if constant:
            continue
        found += 1
        q = n_cat[j]
        if q > 0:
            for i in range(mj):
                levels[i] = np.int64(xs[i])
            ok, dec = categorical_split(ids, levels, mj, q, y, codes, w, cnt, crit, n_classes,
                                        min_leaf, min_wleaf, mask)
            if not ok:
                continue
            t = np.nan
        else:
            wtot, ntot, ymean, parent_g = _totals(ids, mj, y, codes, w, cnt, crit, n_classes,
                                                  tot, yo, wo)
            if ntot < 2 * min_leaf or wtot < 2 * min_wleaf:
                continue
            sort_node(xs, ids, mj, xs2, ids2, counts)
            f, t, g = _scan(xs, ids, mj, j, y, codes, w, cnt, crit, n_classes, min_leaf,
                            min_wleaf, wtot, ntot, tot, ymean, lc, rc, yo, wo, _NONE, 0.0,
                            -np.inf)
            if f < 0:
                continue
            dec = g - parent_g
        if best_f < 0 or dec > best_dec + REL_TIE * abs(best_dec):
            best_f = j
            best_t = t
            best_dec = dec
            if q > 0:
                for c in range(q):
                    best_mask[c] = mask[c]
    return best_f, best_t, best_dec, 0.0


# node table columns: integers (int32) and floats; a node's rows are ``samples[start:start +
# n]``; until a node is split, ``_FEATURE`` and ``_THRESHOLD`` hold its pending split (feature
# ``-2`` when it stays a leaf) and the leaves' are reset to ``-2`` when the tree is trimmed
_LEFT, _RIGHT, _FEATURE, _N, _DEPTH, _START, _SUR = range(7)
_THRESHOLD, _WN, _IMPURITY, _RISK = range(4)
_N_INTS, _N_FLOATS = 7, 4


@njit(cache=True, nogil=True)
def _add_node(ints, floats, values, count, start, end, depth, parent, is_left, ws, nodex,
              n_cat):
    """Append the node of rows ``samples[start:end]``, search its split (kept pending in the
    ``_FEATURE`` and ``_THRESHOLD`` columns, feature ``-2`` when the node stays a leaf, its
    impurity decrease in ``scale[2]``) and link it to ``parent``.

    ``ws`` bundles the grower's data, rules and work buffers (see :func:`_grow_kernel`),
    ``nodex`` the per-node arrays of the missing-value rules (majority side, rpart's child
    order, level sets of categorical splits), written only when they are recorded; the
    arrays have room for the node. Returns the new node count.
    """
    (X, y, codes, w, cnt, samples, w_total, crit, n_classes, max_depth, min_split, min_leaf,
     min_wleaf, min_decrease, max_features, use_rng, use_pre, features, presorted, xs, ids,
     xs2, ids2, counts, lc, rc, tot, yo, wo, extras, cat, obs_w) = ws
    levels, mask, best_mask, scale = cat
    node = count
    idx = samples[start:end]
    value, wn, imp, risk = node_summary(y, codes, w, idx, crit, n_classes)
    ints[node, _LEFT] = -1
    ints[node, _RIGHT] = -1
    ints[node, _FEATURE] = -2
    ints[node, _N] = end - start
    ints[node, _DEPTH] = depth
    ints[node, _START] = start
    ints[node, _SUR] = -1
    if extras:
        majority, rpart_left, cat_l, cat_r = nodex
        majority[node] = -1
        rpart_left[node] = True
        for k in range(cat_l.shape[1]):
            cat_l[node, k] = 0
            cat_r[node, k] = 0
    floats[node, _THRESHOLD] = -2.0
    floats[node, _WN] = wn
    floats[node, _IMPURITY] = imp
    floats[node, _RISK] = risk
    scale[2] = 0.0
    for k in range(values.shape[1]):
        values[node, k] = value[k]
    if parent >= 0:
        ints[parent, _LEFT if is_left else _RIGHT] = node
    if cnt.size == 0:
        nobs = float(end - start)
    elif obs_w:
        nobs = wn  # the observations are the weights, summed in the same order
    else:
        nobs = 0.0
        for i in range(start, end):
            nobs += cnt[samples[i]]
    if (depth >= max_depth or nobs < min_split or nobs < 2 * min_leaf
            or wn < 2 * min_wleaf or imp <= PURE_TOL):
        return count + 1
    if n_cat is not None:
        f, t, g, parent_g = _node_split_general(
            X, y, codes, w, cnt, samples, start, end, features, max_features, use_rng, crit,
            n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2, counts, lc, rc, tot, yo, wo,
            n_cat, levels, mask, best_mask)
    else:
        f, t, g, parent_g = _node_split(
            X, y, codes, w, cnt, samples, start, end, features, max_features, use_rng, crit,
            n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2, counts, lc, rc, tot, presorted,
            use_pre, yo, wo,
        )
    if f >= 0:
        decrease = max(g - parent_g, 0.0)
        rel_min = scale[0]
        if rel_min > 0.0:
            # rpart's bsplit: a split must improve by more than rel_min times the largest
            # improvement seen so far (a useless split is no split)
            scale[1] = max(scale[1], decrease)
            useful = decrease > rel_min * scale[1]
        else:
            useful = True
        if useful and not decrease / w_total + PURE_TOL < min_decrease:
            ints[node, _FEATURE] = f
            floats[node, _THRESHOLD] = t
            scale[2] = decrease
            if n_cat is not None and n_cat[f] > 0:
                set_bits(nodex[2][node], best_mask, n_cat[f])  # pending until the split
    return count + 1


@njit(cache=True, nogil=True)
def _split_node(ints, floats, node, srow, max_splits, X, samples, presorted, use_pre, row_dir,
                tmp, nodex, sur, ws, n_cat):
    """Apply the pending split of ``node``; returns ``(mid, right_end, sur, n_rows)``: the
    children's ranges, the surrogate arrays (grown when full) and the rows of these in use.

    The primary sends ``x < threshold`` left; with ``extras`` (surrogates wanted, or missing
    values) the node's surrogates (row ``srow`` of the arrays ``sur``, kept when it has any:
    the rows in use are then ``srow + 1``),
    majority side and rpart child order (``nodex``) are recorded and rows
    missing the primary column are routed by them (:func:`._surrogates.route_missing`; a row
    routed to neither side leaves the tree). The partition is stable (and so is that of every
    presorted list that is not constant in the node).
    """
    (_, y, codes, w, _, _, _, crit, n_classes, _, _, _, _, _, _, _, _, _, _, xs, ids, xs2,
     ids2, counts, lc, rc, _, _, _, extras, cat, _) = ws
    levels, mask, _, _ = cat
    if extras and srow == sur[0].shape[0]:
        sur = surrogate_storage_doubled(sur, max_splits)
    f = ints[node, _FEATURE]
    t = floats[node, _THRESHOLD]
    start = ints[node, _START]
    end = start + ints[node, _N]
    majority, rpart_left, cat_l, cat_r = nodex
    sur_f, sur_t, sur_l, sur_a, sur_j, scl, scr, dirs, wbuf = sur
    if not extras and not use_pre:
        # complete numeric data and no surrogates: one stable pass, rows with x < t first
        nl = 0
        nr = 0
        for i in range(start, end):
            r = samples[i]
            if X[r, f] < t:
                samples[start + nl] = r
                nl += 1
            else:
                tmp[nr] = r
                nr += 1
        for i in range(nr):
            samples[start + nl + i] = tmp[i]
        return start + nl, end, sur, srow
    # ``n_cat is not None`` in each test: numba leaves the categorical code out on numeric data
    q = 0 if n_cat is None else n_cat[f]
    if n_cat is not None and q > 0:
        for c in range(q):
            mask[c] = False  # the levels present in the node
    for i in range(start, end):
        r = samples[i]
        v = X[r, f]
        if np.isnan(v):
            row_dir[r] = 0
        elif n_cat is not None and q > 0:
            c = np.int64(v)
            mask[c] = True
            row_dir[r] = LEFT if has_bit(cat_l[node], c) else RIGHT
        else:
            row_dir[r] = LEFT if v < t else RIGHT
    if n_cat is not None and q > 0:
        for c in range(q):
            mask[c] = mask[c] and not has_bit(cat_l[node], c)
        set_bits(cat_r[node], mask, q)
    if extras:
        majority[node], rpart_left[node] = node_surrogates(
            X, y, codes, w, samples, start, end, f, row_dir, presorted, use_pre, xs, ids, xs2,
            ids2, counts, dirs, wbuf, crit, n_classes, lc, rc, sur_f, sur_t, sur_l, sur_a,
            sur_j, srow, n_cat, levels, mask, scl, scr)
        if n_cat is not None:
            route_missing(X, samples, start, end, row_dir, sur_f, sur_t, sur_l, srow,
                          majority[node], n_cat, scl, scr)
        if sur_f.shape[1] > 0 and sur_f[srow, 0] >= 0:
            ints[node, _SUR] = srow  # kept; a split without surrogates leaves its row free
    nl = 0
    nr = 0
    for i in range(start, end):
        r = samples[i]
        if row_dir[r] == LEFT:
            samples[start + nl] = r
            nl += 1
        elif row_dir[r] == RIGHT:
            tmp[nr] = r
            nr += 1
    for i in range(nr):
        samples[start + nl + i] = tmp[i]
    if use_pre:
        for j in range(X.shape[1]):
            col = presorted[j]
            if X[col[start], j] == X[col[end - 1], j]:
                continue  # constant in the node, and so in its children: never read again
            kl = start
            kr = 0
            for i in range(start, end):
                r = col[i]
                if row_dir[r] == LEFT:
                    col[kl] = r
                    kl += 1
                else:
                    tmp[kr] = r
                    kr += 1
            for i in range(kr):
                col[kl + i] = tmp[i]
    return start + nl, start + nl + nr, sur, srow + 1 if ints[node, _SUR] >= 0 else srow


@njit(cache=True, nogil=True)
def _grow_kernel(X, y, codes, w, cnt, samples, w_total, crit, n_classes, max_depth, min_split,
                 min_leaf, min_wleaf, min_decrease, max_features, seed, use_pre, max_leaves,
                 n_sur, n_cat, rel_min, obs_w):
    """Node arrays ``(ints, floats, values, nodex, sur, count, n_rows)`` of the tree.

    Depth-first (pre-order ids) when ``max_leaves <= 0``; otherwise best-first: the leaf whose
    split decreases the weighted impurity most is split next (ties to the older node), until
    ``max_leaves`` leaves, children numbered as they are made. With ``n_sur > 0`` every
    split gets up to ``n_sur`` surrogate splits (``sur``: their arrays, one row per split
    that has surrogates, the row in the ``_SUR`` column of ``ints``, else ``-1``;
    ``nodex``: the majority side and rpart's child order per node; see
    :func:`._surrogates.node_surrogates`). ``n_cat`` not ``None`` (the general mode): ``X``
    has missing values or categorical columns (``n_cat[j] > 0`` levels), so every column is
    scored on its present
    rows and rows missing the primary column follow the surrogates (the majority side, the
    arrays are then recorded even without surrogates); ``obs_w``: ``cnt`` is ``w`` (a
    bootstrap sample's counts are both), so a node's observations are its weight; ``nodex`` and
    ``sur`` then also hold the level sets of categorical splits and surrogates (no words
    without a categorical column). Rows ``[0, count)`` of the node arrays and ``[0,
    n_rows)`` of the surrogate arrays are used.
    """
    n_features = X.shape[1]
    m0 = samples.size
    n_values = n_classes if crit >= GINI else 1
    general = n_cat is not None
    # int64 either way (a literal would compile the helpers taking them once more)
    q_max = np.int64(1) if n_cat is None else max(n_cat.max(), 1)
    words = np.int64(0) if n_cat is None else (n_cat.max() + 63) // 64
    use_rng = seed >= 0
    if use_rng:
        np.random.seed(seed)  # noqa: NPY002 (numba's per-thread generator)
    # every leaf holds a row: at most 2 m0 - 1 nodes and m0 - 1 splits
    cap_max = max(2 * m0 - 1, 1)
    max_splits = max(m0 - 1, 1)
    # room for every node up front (reserved, not touched: a row becomes resident when its
    # node is written), so the tables are not copied as they grow; huge trees double past
    # _RESERVED_NODES
    cap = min(_RESERVED_NODES, cap_max)
    ints = np.empty((cap, _N_INTS), dtype=np.int32)
    floats = np.empty((cap, _N_FLOATS))
    values = np.empty((cap, n_values))
    xs = np.empty(m0)
    # row ids are 32-bit (at most 2**30 rows): the work buffers take 4 bytes a row
    ids = np.empty(m0, dtype=np.int32)
    xs2 = np.empty(m0)
    ids2 = np.empty(m0, dtype=np.int32)
    counts = np.zeros((8, 256), dtype=np.int64)
    tmp = np.empty(m0, dtype=np.int32)
    n_work = m0 if crit == ABSOLUTE_ERROR else 0
    yo = np.empty(n_work)
    wo = np.empty(n_work)
    lc = np.zeros(n_classes)
    rc = np.zeros(n_classes)
    tot = np.zeros(n_classes)
    features = np.arange(n_features)
    if use_pre:
        # rows of the root sorted by (x_j, row), feature by feature
        presorted = np.empty((n_features, m0), dtype=np.int32)
        for j in range(n_features):
            for i in range(m0):
                xs[i] = X[samples[i], j]
                ids[i] = samples[i]
            sort_node(xs, ids, m0, xs2, ids2, counts)
            for i in range(m0):
                presorted[j, i] = ids[i]
        # the radix buffers serve only per-node sorts, which the presorted lists replace
        xs2 = np.empty(0)
        ids2 = np.empty(0, dtype=np.int32)
    else:
        presorted = np.empty((0, 0), dtype=np.int32)
    row_dir = np.zeros(X.shape[0], dtype=np.int8)
    extras = general or n_sur > 0
    scale = np.zeros(3)  # rel_min, the largest decrease so far, the last node's decrease
    scale[0] = rel_min
    cat = (np.empty(m0 if general else 0, dtype=np.int64),
           np.zeros(q_max, dtype=np.bool_), np.zeros(q_max, dtype=np.bool_), scale)
    ws = (X, y, codes, w, cnt, samples, w_total, crit, n_classes, max_depth, min_split,
          min_leaf, min_wleaf, min_decrease, max_features, use_rng, use_pre, features,
          presorted, xs, ids, xs2, ids2, counts, lc, rc, tot, yo, wo, extras, cat,
          obs_w)
    n_buf = m0 if n_sur > 0 else 0
    rows = cap if extras else 0
    nodex = (np.empty(rows, dtype=np.int8), np.empty(rows, dtype=np.bool_),
             np.empty((rows, words), dtype=np.uint64), np.empty((rows, words), dtype=np.uint64))
    sur_f, sur_t, sur_l, sur_a, sur_j, scl, scr = surrogate_storage(
        min(_RESERVED_NODES, max_splits) if n_sur > 0 else 0, n_sur, words)
    sur = (sur_f, sur_t, sur_l, sur_a, sur_j, scl, scr, np.empty(n_buf, dtype=np.int8),
           np.empty(n_buf))
    n_rows = _ZERO
    if max_leaves > 0:
        count = _add_node(ints, floats, values, _ZERO, _ZERO, m0, _ZERO, _NONE, _TRUE, ws, nodex,
                          n_cat)
        heap = [(-scale[2], np.int64(0))]
        if ints[0, _FEATURE] < 0:
            heap.pop()
        n_leaves = 1
        while len(heap) > 0 and n_leaves < max_leaves:
            node = heapq.heappop(heap)[1]
            mid, right_end, sur, n_rows = _split_node(
                ints, floats, node, n_rows, max_splits, X, samples, presorted, use_pre,
                row_dir, tmp, nodex, sur, ws, n_cat)
            depth = ints[node, _DEPTH] + 1
            for is_left in (True, False):
                lo = ints[node, _START] if is_left else mid
                hi = mid if is_left else right_end
                if count == ints.shape[0]:
                    ints, floats, values, nodex = node_tables_doubled(ints, floats, values,
                                                                      nodex, cap_max)
                count = _add_node(ints, floats, values, count, lo, hi, depth, node, is_left, ws,
                                  nodex, n_cat)
                child = count - 1
                if ints[child, _FEATURE] >= 0:
                    heapq.heappush(heap, (-scale[2], child))
            n_leaves += 1
        return ints, floats, values, nodex, sur, count, n_rows
    st_cap = min(max_depth, m0) + 3
    st_start = np.empty(st_cap, dtype=np.int64)
    st_end = np.empty(st_cap, dtype=np.int64)
    st_depth = np.empty(st_cap, dtype=np.int64)
    st_parent = np.empty(st_cap, dtype=np.int64)
    st_left = np.empty(st_cap, dtype=np.bool_)
    sp = 1
    st_start[0] = 0
    st_end[0] = m0
    st_depth[0] = 0
    st_parent[0] = -1
    st_left[0] = True
    count = _ZERO
    while sp > 0:
        sp -= 1
        start = st_start[sp]
        end = st_end[sp]
        depth = st_depth[sp]
        if count == ints.shape[0]:
            ints, floats, values, nodex = node_tables_doubled(ints, floats, values, nodex, cap_max)
        count = _add_node(ints, floats, values, count, start, end, depth, st_parent[sp],
                          st_left[sp], ws, nodex, n_cat)
        node = count - 1
        if ints[node, _FEATURE] < 0:
            continue
        mid, right_end, sur, n_rows = _split_node(
            ints, floats, node, n_rows, max_splits, X, samples, presorted, use_pre, row_dir,
            tmp, nodex, sur, ws, n_cat)
        st_start[sp] = mid
        st_end[sp] = right_end
        st_depth[sp] = depth + 1
        st_parent[sp] = node
        st_left[sp] = False
        sp += 1
        st_start[sp] = start
        st_end[sp] = mid
        st_depth[sp] = depth + 1
        st_parent[sp] = node
        st_left[sp] = True
        sp += 1
    return ints, floats, values, nodex, sur, count, n_rows


def _draw_seed(rng) -> int:
    if hasattr(rng, "integers"):
        return int(rng.integers(0, 2**31 - 1))
    return int(rng.randint(0, 2**31 - 1))


def grow_tree(X, y, codes, w, *, crit, n_classes, max_depth, min_samples_split,
              min_samples_leaf, min_impurity_decrease, max_leaf_nodes, max_features, rng,
              tie_break="first", n_obs=None, min_weight_leaf=0.0, max_surrogates=0,
              n_categories=None, min_relative_improvement=0.0):
    """Grow the tree on the rows with positive weight and return its :class:`Tree`.

    ``X`` float (n, p), ``y`` float (n,), ``codes`` int (n,) class codes, ``w`` float (n,)
    case weights (the split criterion and the node values), ``n_obs`` float (n,) the
    observations each row stands for in ``min_samples_split``/``min_samples_leaf`` (default:
    one per row of positive weight), ``min_weight_leaf`` the least weight of a child, ``crit``
    a criterion code, ``max_features`` an int (or ``None`` for all features) and ``rng`` a
    ``numpy`` random state or generator, from which one seed is drawn when
    ``max_features < n_features`` or ``tie_break="random"`` (the candidate columns are then
    scanned in a random order at every node, so ties between columns are broken at random).
    ``max_leaf_nodes`` grows best-first up to that many leaves. With ``max_surrogates > 0``
    every split
    gets rpart's surrogate splits (see :mod:`._surrogates`) and the tree its ``surrogate_*``,
    ``majority_left`` and ``rpart_left`` arrays. ``X`` may hold ``NaN``, and level codes
    ``0 … q-1`` in the columns with ``n_categories[j] = q > 0``: each column is then scored
    on its present rows (a categorical one by a partition of its levels) and rows missing a
    split column follow the surrogates, then the heavier side (rpart; the tree then always
    carries these arrays, and the level sets of categorical splits).
    ``min_relative_improvement > 0`` (rpart's rule, ``1e-10`` in ``bsplit.c``) refuses a
    split whose impurity decrease does not exceed that fraction of the largest decrease seen
    so far in the growth order, so that a split improving nothing is not made (scikit-learn,
    and the default ``0``, make it when no other split is admissible).
    """
    n_features = X.shape[1]
    max_features = n_features if max_features is None else min(int(max_features), n_features)
    w = kernel_array(w, np.float64)
    # no array: every row of positive weight is one observation
    n_obs = np.empty(0) if n_obs is None else kernel_array(n_obs, np.float64)
    # a bootstrap sample's counts are its weights and its observations: read one array
    obs_w = n_obs.size > 0 and bool(np.array_equal(n_obs, w))
    if obs_w:
        n_obs = w
    X = kernel_array(X, np.float64)
    y = kernel_array(y, np.float64)
    codes = kernel_array(codes, np.int64)
    shuffle = max_features < n_features or tie_break == "random"
    seed = _draw_seed(rng) if shuffle else -1
    samples = np.flatnonzero(w > 0).astype(np.int32)
    if samples.size > 2**30:
        raise ValueError(f"a tree grows on at most 2**30 rows of positive weight (node ids are "
                         f"32-bit during growth), got {samples.size}")
    w_total = float(w[samples].sum())
    max_depth = np.iinfo(np.int64).max if max_depth is None else int(max_depth)
    n_cat = (np.zeros(n_features, dtype=np.int64) if n_categories is None
             else kernel_array(n_categories, np.int64))
    has_cat = bool(np.any(n_cat > 0))
    general = has_cat or bool(np.isnan(X).any())
    n_sur = int(max_surrogates)
    # the presorted lists pay when every column is read at every split: all columns are
    # candidates, or the surrogate search scans them all anyway
    presort = (not general and (max_features == n_features or n_sur > 0)
               and n_features * samples.size <= _PRESORT_CAP and X.shape[0] < 2**31
               and max_depth >= _PRESORT_MIN_DEPTH)
    grown = list(_grow_kernel(
        X, y, codes, w, n_obs, samples, w_total, int(crit), int(n_classes), max_depth,
        float(min_samples_split), float(min_samples_leaf), float(min_weight_leaf),
        float(min_impurity_decrease), int(max_features), seed, presort,
        0 if max_leaf_nodes is None else int(max_leaf_nodes), n_sur,
        n_cat if general else None,
        float(min_relative_improvement), obs_w,
    ))
    ints, floats, values, nodex, sur, k, n_rows = grown
    del grown
    # each growth table is released as soon as its columns are copied out
    left, right, feature, n_node, depth = (ints[:k, c].astype(np.int64)
                                           for c in (_LEFT, _RIGHT, _FEATURE, _N, _DEPTH))
    index = ints[:k, _SUR].copy() if n_sur > 0 or general else None
    del ints
    threshold, wn, impurity, risk = (floats[:k, c].copy()
                                     for c in (_THRESHOLD, _WN, _IMPURITY, _RISK))
    del floats
    leaves = left == -1
    feature[leaves] = -2  # a pending split that best-first growth never made
    threshold[leaves] = -2.0
    values = values if values.shape[0] == k else values[:k].copy()
    tree = Tree(left, right, feature, threshold, values, n_node, wn, impurity, risk, depth)
    if index is None:
        return tree
    # trimmed copies one array at a time, each capacity array released before the next copy
    nodex = list(nodex)
    for i in range(len(nodex)):
        nodex[i] = nodex[i][:k].copy()
    sur = list(sur[:7])
    for i in range(len(sur)):
        sur[i] = sur[i][:n_rows].copy()
    majority, rpart_left, cat_l, cat_r = nodex
    sur_f, sur_t, sur_l, sur_a, sur_j, scl, scr = sur
    del nodex, sur
    if has_cat:
        cat_l[leaves] = 0  # a pending categorical split that best-first growth never made
    return replace(tree, n_categories=n_cat.copy() if has_cat else None,
                   cat_left=cat_l if has_cat else None, cat_right=cat_r if has_cat else None,
                   surrogate_index=index, surrogate_feature=sur_f, surrogate_threshold=sur_t,
                   surrogate_left=sur_l, surrogate_agreement=sur_a, surrogate_adj=sur_j,
                   surrogate_cat_left=scl if has_cat else None,
                   surrogate_cat_right=scr if has_cat else None,
                   majority_left=majority, rpart_left=rpart_left)
