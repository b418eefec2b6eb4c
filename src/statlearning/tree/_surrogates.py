"""rpart's surrogate splits of a numeric split on complete rows (compiled with numba).

For the split ``x_f < t`` of a node, every other column ``j`` gets the threshold that
reproduces the primary's partition best (rpart's ``choose_surg``,
:func:`._route.surrogate_scan`): ``agree`` the weight both send the same way, over the
node's weight, and ``adj = (agree - m) / (1 - m)`` its gain over sending every row the
majority's way (``m`` the majority's share). Columns with ``adj > 0`` are kept, best first
(ties to the earlier column), at most ``n_sur``; they route a row that misses the primary
column (at prediction time). The node's rows are read in increasing ``x_j`` (the presorted
lists, or a per-node sort), so the search costs one scan per column.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._categorical import categorical_surrogate, has_bit, set_bits
from ._route import LEFT, RIGHT, surrogate_scan
from ._sort import sort_node
from ._splitter import GINI, REL_TIE

#: ``adj`` at or below this is no gain over the majority rule.
_ADJ_MIN = REL_TIE


@njit(cache=True, nogil=True)
def node_surrogates(X, y, codes, w, samples, start, end, f, row_dir, presorted, use_pre,
                    xs, ids, xs2, ids2, counts, dirs, wbuf, crit, n_classes, lc, rc,
                    sur_f, sur_t, sur_l, sur_a, sur_j, node, n_cat, levels, mask, scl, scr):
    """Fill row ``node`` of the surrogate arrays (the split's row, which the caller keeps
    when a surrogate was found); return ``(majority_left, rpart_left)``.

    ``row_dir[r]`` is the primary's direction of row ``r`` (``LEFT``, ``RIGHT``, or 0 when it
    misses the primary column). ``majority_left`` is 1 when the left side has more weight, 0
    when the right has, -1 on a tie; ``rpart_left`` whether ``children_left`` is rpart's left
    son (smaller mean response, or smaller mean class index, as ``anova.c`` / ``gini.c``),
    both on the rows the primary routes. A candidate column is read on the rows where it is
    present; a categorical one (``n_cat[j] > 0``; ``n_cat`` is ``None`` on numeric data,
    and this code is then not compiled) sends each level to the side where more of
    its weight went (:func:`._categorical.categorical_surrogate`; level sets in ``scl`` /
    ``scr``, ``levels`` and ``mask`` are work buffers).
    """
    m = end - start
    n_sur = sur_f.shape[1]
    tleft = 0.0
    tright = 0.0
    sl = 0.0  # Σ w y on each side (regression), class weights (classification)
    sr = 0.0
    for k in range(n_classes):
        lc[k] = 0.0
        rc[k] = 0.0
    for i in range(start, end):
        r = samples[i]
        if row_dir[r] == 0:
            continue
        if row_dir[r] == LEFT:
            tleft += w[r]
            if crit >= GINI:
                lc[codes[r]] += w[r]
            else:
                sl += w[r] * y[r]
        else:
            tright += w[r]
            if crit >= GINI:
                rc[codes[r]] += w[r]
            else:
                sr += w[r] * y[r]
    total = tleft + tright
    if crit >= GINI:
        ml = 0.0
        mr = 0.0
        for k in range(n_classes):
            ml += k * lc[k]
            mr += k * rc[k]
        rpart_left = ml / tleft < mr / tright
    else:
        mean = (sl + sr) / total
        rpart_left = not (sl - mean * tleft > sr - mean * tright)
    majority_left = 1 if tleft > tright else (0 if tright > tleft else -1)
    for k in range(n_sur):
        sur_f[node, k] = -1
        sur_t[node, k] = np.nan
        sur_l[node, k] = True
        sur_a[node, k] = np.nan
        sur_j[node, k] = np.nan
        for b in range(scl.shape[2]):
            scl[node, k, b] = 0
            scr[node, k, b] = 0
    if n_sur == 0:
        return majority_left, rpart_left
    majority = max(tleft, tright) / total
    n_found = 0
    for j in range(X.shape[1]):
        if j == f:
            continue
        q = 0 if n_cat is None else n_cat[j]
        if use_pre:
            mj = m
            col = presorted[j]
            for i in range(m):
                r = col[start + i]
                xs[i] = X[r, j]
                ids[i] = r
        else:
            mj = np.int64(0)  # not a literal: one compiled sort_node (see _grow._ZERO)
            for i in range(m):
                r = samples[start + i]
                v = X[r, j]
                if not np.isnan(v):
                    xs[mj] = v
                    ids[mj] = r
                    mj += 1
            if q == 0:
                sort_node(xs, ids, mj, xs2, ids2, counts)
        for i in range(mj):
            r = ids[i]
            dirs[i] = row_dir[r]
            wbuf[i] = w[r]
        if n_cat is not None and q > 0:
            for i in range(mj):
                levels[i] = np.int64(xs[i])
            to_right = np.zeros(q, dtype=np.bool_)
            success, agree = categorical_surrogate(levels, dirs, wbuf, mj, q, mask, to_right)
            split = np.nan
            direction = LEFT
        else:
            success, agree, split, direction = surrogate_scan(xs[:mj], dirs[:mj], wbuf[:mj])
        if not success:
            continue
        agreement = agree / total
        adj = (agreement - majority) / (1.0 - majority)
        if adj <= _ADJ_MIN:
            continue
        pos = 0
        while pos < n_found and sur_a[node, pos] >= agreement:
            pos += 1
        if pos >= n_sur:
            continue
        last = min(n_found, n_sur - 1)
        for k in range(last, pos, -1):
            sur_f[node, k] = sur_f[node, k - 1]
            sur_t[node, k] = sur_t[node, k - 1]
            sur_l[node, k] = sur_l[node, k - 1]
            sur_a[node, k] = sur_a[node, k - 1]
            sur_j[node, k] = sur_j[node, k - 1]
            for b in range(scl.shape[2]):
                scl[node, k, b] = scl[node, k - 1, b]
                scr[node, k, b] = scr[node, k - 1, b]
        sur_f[node, pos] = j
        sur_t[node, pos] = split
        sur_l[node, pos] = direction == LEFT
        sur_a[node, pos] = agreement
        sur_j[node, pos] = adj
        if n_cat is not None and q > 0:
            set_bits(scl[node, pos], mask, q)
            set_bits(scr[node, pos], to_right, q)
        else:
            for b in range(scl.shape[2]):
                scl[node, pos, b] = 0
                scr[node, pos, b] = 0
        n_found = min(n_found + 1, n_sur)
    return majority_left, rpart_left


@njit(cache=True, nogil=True)
def route_missing(X, samples, start, end, row_dir, sur_f, sur_t, sur_l, node, majority_left,
                  n_cat, scl, scr):
    """Directions of the node's rows that miss the primary column: the first surrogate that
    decides for them (its column present, and for a categorical surrogate a level it has
    seen), else the side with more weight (rpart's ``usesurrogate = 2``); a row stays 0 (in
    neither child) when both sides weigh the same."""
    fallback = LEFT if majority_left == 1 else (RIGHT if majority_left == 0 else 0)
    for i in range(start, end):
        r = samples[i]
        if row_dir[r] != 0:
            continue
        d = 0
        for k in range(sur_f.shape[1]):
            sf = sur_f[node, k]
            if sf < 0:
                break
            v = X[r, sf]
            if np.isnan(v):
                continue
            if n_cat[sf] > 0:
                c = np.int64(v)
                if has_bit(scl[node, k], c):
                    d = LEFT
                elif has_bit(scr[node, k], c):
                    d = RIGHT
                else:
                    continue
            else:
                d = LEFT if (v < sur_t[node, k]) == sur_l[node, k] else RIGHT
            break
        row_dir[r] = d if d != 0 else fallback


# Storage of the surrogates of a growing tree: one row per split that has any.


@njit(cache=True, nogil=True)
def surrogate_storage(rows, n_sur, words):
    """Uninitialised surrogate arrays of ``rows`` splits (each row is written in full when
    its split is made): columns, thresholds, sides, agreements, adjusted agreements and the
    level sets of categorical surrogates (``words`` 64-bit words, none without a
    categorical column)."""
    return (np.empty((rows, n_sur), dtype=np.int32), np.empty((rows, n_sur)),
            np.empty((rows, n_sur), dtype=np.bool_), np.empty((rows, n_sur)),
            np.empty((rows, n_sur)), np.empty((rows, n_sur, words), dtype=np.uint64),
            np.empty((rows, n_sur, words), dtype=np.uint64))


@njit(cache=True, nogil=True)
def surrogate_storage_doubled(sur, max_rows):
    """The surrogate arrays with twice the rows, at most ``max_rows`` (the first rows
    copied); the work buffers are kept."""
    sur_f, sur_t, sur_l, sur_a, sur_j, scl, scr, dirs, wbuf = sur
    rows = sur_f.shape[0]
    f2, t2, l2, a2, j2, scl2, scr2 = surrogate_storage(min(max(2 * rows, 64), max_rows),
                                                     sur_f.shape[1], scl.shape[2])
    # element loops, not slice assignments (see _tables.node_tables_doubled)
    for i in range(rows):
        for k in range(sur_f.shape[1]):
            f2[i, k] = sur_f[i, k]
            t2[i, k] = sur_t[i, k]
            l2[i, k] = sur_l[i, k]
            a2[i, k] = sur_a[i, k]
            j2[i, k] = sur_j[i, k]
            for b in range(scl.shape[2]):
                scl2[i, k, b] = scl[i, k, b]
                scr2[i, k, b] = scr[i, k, b]
    return f2, t2, l2, a2, j2, scl2, scr2, dirs, wbuf
