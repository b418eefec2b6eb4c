"""Routing samples through a tree with missing values and categorical splits (numba kernel).

Array in, array out. At an internal node the primary split decides when it can: a numeric
column sends ``x < threshold`` to the left child, a categorical column sends the levels of the
node's left set left and those of its right set right. A row whose primary value is missing
(or whose level did not reach the node at fit time) follows the first surrogate that decides
for it, then the node's default direction: at prediction time the child holding more training
rows (rpart's ``usesurrogate = 2`` in ``predict``; when both children hold as many rows the
row stops at the internal node, whose value is then its prediction, as rpart), in rpart's
cross-validation the side the primary sent more weight to (``lastsurrogate``; right on a
tie).

Categorical level sets are bitsets: level ``c`` is bit ``c & 63`` of word ``c >> 6``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LEFT = -1
RIGHT = 1


@njit(cache=True)
def _in_set(bits, code):
    return (bits[code >> 6] >> np.uint64(code & 63)) & np.uint64(1)


@njit(cache=True)
def _direction(v, is_cat, threshold, lt_left, left_bits, right_bits):
    """-1 (left), +1 (right) or 0 (undecided: missing value or level absent at fit)."""
    if np.isnan(v):
        return 0
    if is_cat:
        code = np.int64(v)
        if code < 0 or (code >> 6) >= left_bits.size:
            return 0
        if _in_set(left_bits, code):
            return LEFT
        if _in_set(right_bits, code):
            return RIGHT
        return 0
    if (v < threshold) == lt_left:
        return LEFT
    return RIGHT


@njit(cache=True)
def route_kernel(children_left, children_right, feature, threshold, default_dir, n_levels,
                 cat_left, cat_right, sur_index, sur_feature, sur_threshold, sur_left,
                 sur_cat_left, sur_cat_right, X):
    """Final node of every row of ``X`` (a leaf, or an internal node whose ``default_dir``,
    the direction of a row no split decides, is 0).

    The surrogates of node ``t`` are row ``sur_index[t]`` of the ``sur_*`` arrays (none when
    ``-1``); the level sets are read only for categorical columns (``n_levels > 0``).
    """
    n = X.shape[0]
    n_sur = sur_feature.shape[1]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        node = 0
        while children_left[node] != -1:
            f = feature[node]
            d = _direction(X[i, f], n_levels[f] > 0, threshold[node], np.bool_(True),
                           cat_left[node], cat_right[node])  # not a literal: one _direction
            row = sur_index[node]
            if d == 0 and row >= 0:
                for k in range(n_sur):
                    sf = sur_feature[row, k]
                    if sf < 0:
                        break
                    d = _direction(X[i, sf], n_levels[sf] > 0, sur_threshold[row, k],
                                   sur_left[row, k], sur_cat_left[row, k],
                                   sur_cat_right[row, k])
                    if d != 0:
                        break
            if d == 0:
                d = default_dir[node]
                if d == 0:
                    break
            node = children_left[node] if d == LEFT else children_right[node]
        out[i] = node
    return out


@njit(cache=True)
def surrogate_scan(x, ydir, w):
    """rpart's ``choose_surg`` for a numeric surrogate column (rows sorted by ``x``).

    ``x`` ascending (non-missing values of the candidate column in the node), ``ydir`` the
    primary's direction of each row (-1 left, +1 right, 0 primary missing), ``w`` weights.
    Returns ``(success, agree, split, direction)``: the weight of rows both splits send the
    same way, the threshold (midpoint), and -1 when ``x < split`` goes left, +1 when it goes
    right. The first (smallest) threshold wins ties; at least two positive-weight rows must
    go each way, and the split must beat sending every row the majority's way.
    """
    n = x.size
    ll = 0
    rl = 0
    llwt = 0.0
    rlwt = 0.0
    lastx = 0.0
    for i in range(n - 1, -1, -1):
        lastx = x[i]
        if ydir[i] == LEFT:
            if w[i] > 0:
                ll += 1
            llwt += w[i]
        elif ydir[i] == RIGHT:
            if w[i] > 0:
                rl += 1
            rlwt += w[i]
    agree = llwt if llwt > rlwt else rlwt
    lr = 0
    rr = 0
    lrwt = 0.0
    rrwt = 0.0
    direction = LEFT
    split = lastx
    success = False
    i = 0
    while ll + rl >= 2 and i < n:
        if lr + rr >= 2 and x[i] != lastx:
            if llwt + rrwt > agree:
                success = True
                agree = llwt + rrwt
                direction = RIGHT
                split = (x[i] + lastx) / 2
            elif lrwt + rlwt > agree:
                success = True
                agree = lrwt + rlwt
                direction = LEFT
                split = (x[i] + lastx) / 2
        if ydir[i] == LEFT:
            if w[i] > 0:
                ll -= 1
                lr += 1
            llwt -= w[i]
            lrwt += w[i]
        elif ydir[i] == RIGHT:
            if w[i] > 0:
                rl -= 1
                rr += 1
            rlwt -= w[i]
            rrwt += w[i]
        lastx = x[i]
        i += 1
    return success, agree, split, direction
