"""Depth-first tree growth compiled end to end with numba (the fit hot loop).

:func:`grow_tree` grows the same tree as :func:`._builder.build_tree` (same stopping rules,
node statistics, tie-breaking and pre-order node ids) without a Python step per node:

* the rows of the current node are ``samples[start:end]``, kept in increasing row order by a
  stable in-place partition after each split (so node sums are accumulated in the same order
  as the Python builder and the node statistics agree to the last bit);
* with every feature a candidate (``max_features`` ``None``) and a depth limit of at least
  ``_PRESORT_MIN_DEPTH`` (or none), the rows are sorted once per feature at the root by the
  key ``(x, row)`` (the order of a stable sort) and each split partitions these lists
  stably as well, so every node reads its rows in sorted order in
  O(rows) per feature instead of sorting them (features constant in a node are skipped and
  their lists left alone; the lists take 4 bytes per row and feature). Above
  ``_PRESORT_CAP`` list entries, or with random feature subsets, the drawn feature's node
  values are copied into a preallocated buffer and sorted with their row ids on the same key
  (a stable byte-wise radix sort of an order-preserving integer image of the values for long
  arrays, introsort on ``(x, row)`` for short ones);
* ``X`` is read in place in row-major order (no copy: a column-major copy costs 8 bytes per
  entry and measured no faster, since rows are visited in sorted, not memory, order);
* nodes are stored in arrays grown by doubling, the pending nodes in an explicit stack;
* the compiled entry point releases the GIL, so several trees can grow in threads.

Random feature subsets (``max_features < n_features``) follow scikit-learn's rule: features
are drawn without replacement by a partial Fisher-Yates shuffle and the node keeps drawing
until ``max_features`` features that are not constant in the node were evaluated (or every
feature was drawn). The Python builder instead draws exactly ``max_features`` features and
skips the constant ones, so the two agree only when ``max_features`` is ``None`` (all
features, scanned in column order).

Two cases stay on the Python builder, which :func:`grow_tree` calls: best-first growth
(``max_leaf_nodes``), and the absolute-error criterion, whose split search re-sorts both
children at every candidate threshold (its cost is that search, not the per-node Python
step; leaving it out also halves the one-time compilation of this module).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._builder import build_tree
from ._inputs import kernel_array
from ._splitter import ABSOLUTE_ERROR, GINI, PURE_TOL, REL_TIE, class_gain, node_summary
from ._structure import Tree

_SMALL = 16
_RADIX_MIN = 1024
_PRESORT_CAP = 2**26  # entries of the presorted row lists (int32): 256 MB
#: Shallower trees sort per node: a few levels of per-node sorts cost less memory (boosting's
#: depth-3 trees: 5.5 instead of 9.3 MiB on 50,000 × 20) for a modest time (8.4 s instead of
#: 5.4 s for 100 stages, scikit-learn 24.8 s).
_PRESORT_MIN_DEPTH = 5


@njit(cache=True, nogil=True)
def _lt(x1, i1, x2, i2):
    return x1 < x2 or (x1 == x2 and i1 < i2)


@njit(cache=True, nogil=True)
def _swap(xs, ids, a, b):
    xs[a], xs[b] = xs[b], xs[a]
    ids[a], ids[b] = ids[b], ids[a]


@njit(cache=True, nogil=True)
def _insertion(xs, ids, lo, hi):
    for i in range(lo + 1, hi):
        x = xs[i]
        d = ids[i]
        j = i - 1
        while j >= lo and _lt(x, d, xs[j], ids[j]):
            xs[j + 1] = xs[j]
            ids[j + 1] = ids[j]
            j -= 1
        xs[j + 1] = x
        ids[j + 1] = d


@njit(cache=True, nogil=True)
def _sift(xs, ids, lo, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        a = lo + child
        if child + 1 < end and _lt(xs[a], ids[a], xs[a + 1], ids[a + 1]):
            child += 1
            a += 1
        b = lo + root
        if _lt(xs[b], ids[b], xs[a], ids[a]):
            _swap(xs, ids, a, b)
            root = child
        else:
            return


@njit(cache=True, nogil=True)
def _heapsort(xs, ids, lo, hi):
    n = hi - lo
    for s in range(n // 2 - 1, -1, -1):
        _sift(xs, ids, lo, s, n)
    for end in range(n - 1, 0, -1):
        _swap(xs, ids, lo, lo + end)
        _sift(xs, ids, lo, 0, end)


@njit(cache=True, nogil=True)
def sort_pairs(xs, ids, n):
    """Sort ``xs[:n]`` in place by the key ``(xs, ids)``, permuting ``ids`` alongside.

    Introsort: median-of-three quicksort, heapsort past ``2 log2 n`` levels, insertion sort
    on short ranges. With distinct ``ids`` the result equals a stable sort of ``xs`` when
    ``ids`` was increasing.
    """
    if n < 2:
        return
    st_lo = np.empty(128, dtype=np.int64)
    st_hi = np.empty(128, dtype=np.int64)
    st_d = np.empty(128, dtype=np.int64)
    sp = 1
    st_lo[0] = 0
    st_hi[0] = n
    st_d[0] = 2 * int(np.log2(n)) + 2
    while sp > 0:
        sp -= 1
        lo = st_lo[sp]
        hi = st_hi[sp]
        d = st_d[sp]
        while hi - lo > _SMALL:
            if d == 0:
                _heapsort(xs, ids, lo, hi)
                lo = hi
                break
            d -= 1
            mid = (lo + hi) // 2
            last = hi - 1
            if _lt(xs[mid], ids[mid], xs[lo], ids[lo]):
                _swap(xs, ids, mid, lo)
            if _lt(xs[last], ids[last], xs[mid], ids[mid]):
                _swap(xs, ids, last, mid)
                if _lt(xs[mid], ids[mid], xs[lo], ids[lo]):
                    _swap(xs, ids, mid, lo)
            piv = hi - 2
            _swap(xs, ids, mid, piv)
            px = xs[piv]
            pi = ids[piv]
            i = lo
            j = piv
            while True:
                i += 1
                while _lt(xs[i], ids[i], px, pi):
                    i += 1
                j -= 1
                while _lt(px, pi, xs[j], ids[j]):
                    j -= 1
                if i >= j:
                    break
                _swap(xs, ids, i, j)
            _swap(xs, ids, i, piv)
            # left part [lo, i), right part [i + 1, hi): push the larger, loop on the smaller
            if i - lo > hi - i - 1:
                st_lo[sp] = lo
                st_hi[sp] = i
                st_d[sp] = d
                sp += 1
                lo = i + 1
            else:
                st_lo[sp] = i + 1
                st_hi[sp] = hi
                st_d[sp] = d
                sp += 1
                hi = i
        if hi - lo > 1:
            _insertion(xs, ids, lo, hi)


@njit(cache=True, nogil=True)
def _key(u):
    """Order-preserving unsigned key of the float64 with bits ``u`` (``-0.0`` as ``+0.0``)."""
    if u == np.uint64(0x8000000000000000):
        u = np.uint64(0)
    if u >> np.uint64(63):
        return ~u
    return u | np.uint64(0x8000000000000000)


@njit(cache=True, nogil=True)
def radix_pairs(xs, ids, n, xs2, ids2, counts):
    """Stable LSD radix sort of ``xs[:n]`` by bytes of :func:`_key`, ``ids`` alongside.

    ``xs2``/``ids2`` (length >= ``n``) and ``counts`` (8, 256) are work buffers; byte
    positions where all keys agree are skipped. Faster than :func:`sort_pairs` from about a
    thousand values, and the same result when ``ids`` was increasing.
    """
    bits = xs.view(np.uint64)
    counts[:, :] = 0
    for i in range(n):
        k = _key(bits[i])
        for d in range(8):
            counts[d, (k >> np.uint64(8 * d)) & np.uint64(255)] += 1
    src_x, src_i, dst_x, dst_i = xs, ids, xs2, ids2
    swapped = False
    for d in range(8):
        c = counts[d]
        trivial = False
        for b in range(256):
            if c[b] != 0:
                trivial = c[b] == n
                break
        if trivial:
            continue
        tot = 0
        for b in range(256):
            t = c[b]
            c[b] = tot
            tot += t
        sb = src_x.view(np.uint64)
        shift = np.uint64(8 * d)
        for i in range(n):
            b = (_key(sb[i]) >> shift) & np.uint64(255)
            pos = c[b]
            c[b] = pos + 1
            dst_x[pos] = src_x[i]
            dst_i[pos] = src_i[i]
        src_x, dst_x = dst_x, src_x
        src_i, dst_i = dst_i, src_i
        swapped = not swapped
    if swapped:
        for i in range(n):
            xs[i] = src_x[i]
            ids[i] = src_i[i]


@njit(cache=True, nogil=True)
def sort_node(xs, ids, n, xs2, ids2, counts):
    """Sort ``xs[:n]`` by ``(xs, ids)``: radix sort for long, introsort for short arrays."""
    if n >= _RADIX_MIN:
        radix_pairs(xs, ids, n, xs2, ids2, counts)
    else:
        sort_pairs(xs, ids, n)


@njit(cache=True, nogil=True)
def _node_split(X, y, codes, w, cnt, samples, start, end, features, max_features, use_rng, crit,
                n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2, counts, lc, rc, tot, presorted,
                use_pre, is_const):
    """Best split of ``samples[start:end]``: ``(feature, threshold, gain, parent gain)``.

    The arithmetic (sums in row order, then in sorted order) is the one of
    :func:`._splitter.best_split`; ``features`` is permuted in place when ``use_rng``. With
    ``use_pre`` the node's rows sorted by feature ``j`` are read from ``presorted[j]`` instead
    of being sorted; ``is_const[j]`` records whether feature ``j`` is constant in the node.
    A child needs ``min_leaf`` observations (the sum of ``cnt``) and ``min_wleaf`` weight.
    """
    m = end - start
    n_features = features.size
    classification = crit >= GINI
    wtot = 0.0
    ntot = 0.0
    ysum = 0.0
    for k in range(n_classes):
        tot[k] = 0.0
    for i in range(start, end):
        r = samples[i]
        wtot += w[r]
        ntot += cnt[r]
        if classification:
            tot[codes[r]] += w[r]
        else:
            ysum += w[r] * y[r]
    ymean = ysum / wtot if wtot > 0 else 0.0
    if classification:
        parent_g = class_gain(tot, wtot, crit)
    else:
        s = 0.0
        for i in range(start, end):
            r = samples[i]
            s += w[r] * (y[r] - ymean)
        parent_g = s * s / wtot
    best_f = -1
    best_t = 0.0
    best_g = -np.inf
    if ntot < 2 * min_leaf or wtot < 2 * min_wleaf:
        return best_f, best_t, best_g, parent_g
    visited = 0
    found = 0
    while visited < n_features and found < max_features:
        if use_rng:
            k = visited + np.random.randint(0, n_features - visited)  # noqa: NPY002
            features[visited], features[k] = features[k], features[visited]
        j = features[visited]
        visited += 1
        if use_pre:
            col = presorted[j]
            if X[col[start], j] == X[col[end - 1], j]:
                is_const[j] = True
                continue
            is_const[j] = False
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
        lw = 0.0
        ln = 0.0
        ls = 0.0
        for k in range(n_classes):
            lc[k] = 0.0
        for i in range(m - 1):
            r = ids[i]
            wi = w[r]
            lw += wi
            ln += cnt[r]
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
            if classification:
                for k in range(n_classes):
                    rc[k] = tot[k] - lc[k]
                g = class_gain(lc, lw, crit) + class_gain(rc, rw, crit)
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
    return best_f, best_t, best_g, parent_g


@njit(cache=True, nogil=True)
def _grow_kernel(X, y, codes, w, cnt, samples, w_total, crit, n_classes, max_depth, min_split,
                 min_leaf, min_wleaf, min_decrease, max_features, seed, use_pre):
    """Node arrays ``(ints, floats, values, count)`` of the depth-first tree.

    ``ints[:, k]``: left, right, feature, n, depth; ``floats[:, k]``: threshold, wn,
    impurity, risk; ``values``: node values. Rows ``[0, count)`` are used.
    """
    n_features = X.shape[1]
    m0 = samples.size
    n_values = n_classes if crit >= GINI else 1
    use_rng = seed >= 0
    if use_rng:
        np.random.seed(seed)  # noqa: NPY002 (numba's per-thread generator)
    cap = 64
    ints = np.empty((cap, 5), dtype=np.int64)
    floats = np.empty((cap, 4))
    values = np.empty((cap, n_values))
    xs = np.empty(m0)
    ids = np.empty(m0, dtype=np.int64)
    xs2 = np.empty(m0)
    ids2 = np.empty(m0, dtype=np.int64)
    counts = np.zeros((8, 256), dtype=np.int64)
    tmp = np.empty(m0, dtype=np.int64)
    lc = np.zeros(n_classes)
    rc = np.zeros(n_classes)
    tot = np.zeros(n_classes)
    features = np.arange(n_features)
    is_const = np.zeros(n_features, dtype=np.bool_)
    if use_pre:
        # rows of the root sorted by (x_j, row), feature by feature
        presorted = np.empty((n_features, m0), dtype=np.int32)
        for j in range(n_features):
            for i in range(m0):
                xs[i] = X[samples[i], j]
                ids[i] = samples[i]
            sort_node(xs, ids, m0, xs2, ids2, counts)
            presorted[j] = ids
        # the radix buffers serve only per-node sorts, which the presorted lists replace
        xs2 = np.empty(0)
        ids2 = np.empty(0, dtype=np.int64)
        goes_left = np.zeros(X.shape[0], dtype=np.bool_)
    else:
        presorted = np.empty((0, 0), dtype=np.int32)
        goes_left = np.zeros(0, dtype=np.bool_)
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
    count = 0
    while sp > 0:
        sp -= 1
        start = st_start[sp]
        end = st_end[sp]
        depth = st_depth[sp]
        parent = st_parent[sp]
        is_left = st_left[sp]
        idx = samples[start:end]
        value, wn, imp, risk = node_summary(y, codes, w, idx, crit, n_classes)
        if count == cap:
            ints2 = np.empty((2 * cap, 5), dtype=np.int64)
            floats2 = np.empty((2 * cap, 4))
            values2 = np.empty((2 * cap, n_values))
            ints2[:cap] = ints
            floats2[:cap] = floats
            values2[:cap] = values
            ints, floats, values = ints2, floats2, values2
            cap *= 2
        node = count
        count += 1
        ints[node, 0] = -1
        ints[node, 1] = -1
        ints[node, 2] = -2
        ints[node, 3] = end - start
        ints[node, 4] = depth
        floats[node, 0] = -2.0
        floats[node, 1] = wn
        floats[node, 2] = imp
        floats[node, 3] = risk
        for k in range(n_values):
            values[node, k] = value[k]
        if parent >= 0:
            ints[parent, 0 if is_left else 1] = node
        nobs = 0.0
        for i in range(start, end):
            nobs += cnt[samples[i]]
        if (depth >= max_depth or nobs < min_split or nobs < 2 * min_leaf
                or wn < 2 * min_wleaf or imp <= PURE_TOL):
            continue
        f, t, g, parent_g = _node_split(
            X, y, codes, w, cnt, samples, start, end, features, max_features, use_rng, crit,
            n_classes, min_leaf, min_wleaf, xs, ids, xs2, ids2, counts, lc, rc, tot, presorted,
            use_pre, is_const,
        )
        if f < 0:
            continue
        decrease = max(g - parent_g, 0.0)
        if decrease / w_total + PURE_TOL < min_decrease:
            continue
        ints[node, 2] = f
        floats[node, 0] = t
        # stable partition: rows with x < t first, both sides in increasing row order
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
        if use_pre:
            # the same stable partition of every presorted list (constant features in the
            # node stay constant below: their lists need no update)
            for i in range(start, start + nl):
                goes_left[samples[i]] = True
            for i in range(start + nl, end):
                goes_left[samples[i]] = False
            for j in range(n_features):
                if is_const[j]:
                    continue
                col = presorted[j]
                kl = start
                kr = 0
                for i in range(start, end):
                    r = col[i]
                    if goes_left[r]:
                        col[kl] = r
                        kl += 1
                    else:
                        tmp[kr] = r
                        kr += 1
                for i in range(kr):
                    col[kl + i] = tmp[i]
        mid = start + nl
        st_start[sp] = mid
        st_end[sp] = end
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
    return ints, floats, values, count


def _draw_seed(rng) -> int:
    if hasattr(rng, "integers"):
        return int(rng.integers(0, 2**31 - 1))
    return int(rng.randint(0, 2**31 - 1))


def grow_tree(X, y, codes, w, *, crit, n_classes, max_depth, min_samples_split,
              min_samples_leaf, min_impurity_decrease, max_leaf_nodes, max_features, rng,
              tie_break="first", n_obs=None, min_weight_leaf=0.0):
    """Grow the tree on the rows with positive weight and return its :class:`Tree`.

    Parameters are those of :func:`._builder.build_tree`: ``X`` float (n, p) without NaN,
    ``y`` float (n,), ``codes`` int (n,) class codes, ``w`` float (n,) case weights (the split
    criterion and the node values), ``n_obs`` float (n,) the observations each row stands for
    in ``min_samples_split``/``min_samples_leaf`` (default: one per row of positive weight),
    ``min_weight_leaf`` the least weight of a child, ``crit`` a criterion code,
    ``max_features`` an int (or ``None`` for all features) and ``rng`` a ``numpy`` random
    state or generator, from which one seed is drawn when ``max_features < n_features`` or
    ``tie_break="random"`` (the candidate columns are then scanned in a random order at every
    node, so ties between columns are broken at random). With ``max_leaf_nodes`` set
    (best-first growth) or the absolute-error criterion, the Python builder grows the tree.
    """
    n_features = X.shape[1]
    max_features = n_features if max_features is None else min(int(max_features), n_features)
    w = kernel_array(w, np.float64)
    n_obs = (w > 0).astype(np.float64) if n_obs is None else kernel_array(n_obs, np.float64)
    if max_leaf_nodes is not None or crit == ABSOLUTE_ERROR:
        return build_tree(
            X, y, codes, w, crit=crit, n_classes=n_classes, max_depth=max_depth,
            min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
            min_impurity_decrease=min_impurity_decrease, max_leaf_nodes=max_leaf_nodes,
            max_features=max_features, rng=rng, tie_break=tie_break, n_obs=n_obs,
            min_weight_leaf=min_weight_leaf,
        )
    X = kernel_array(X, np.float64)
    y = kernel_array(y, np.float64)
    codes = kernel_array(codes, np.int64)
    shuffle = max_features < n_features or tie_break == "random"
    seed = _draw_seed(rng) if shuffle else -1
    samples = np.flatnonzero(w > 0).astype(np.int64)
    w_total = float(w[samples].sum())
    max_depth = np.iinfo(np.int64).max if max_depth is None else int(max_depth)
    presort = (max_features == n_features and n_features * samples.size <= _PRESORT_CAP
               and X.shape[0] < 2**31 and max_depth >= _PRESORT_MIN_DEPTH)
    ints, floats, values, k = _grow_kernel(
        X, y, codes, w, n_obs, samples, w_total, int(crit), int(n_classes), max_depth,
        float(min_samples_split), float(min_samples_leaf), float(min_weight_leaf),
        float(min_impurity_decrease), int(max_features), seed, presort,
    )
    return Tree(
        ints[:k, 0].copy(), ints[:k, 1].copy(), ints[:k, 2].copy(), floats[:k, 0].copy(),
        values[:k].copy(), ints[:k, 3].copy(), floats[:k, 1].copy(), floats[:k, 2].copy(),
        floats[:k, 3].copy(), ints[:k, 4].copy(),
    )
