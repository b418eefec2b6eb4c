"""Splits of categorical columns and categorical surrogates (compiled with numba).

A categorical column holds level codes ``0 … q-1``; a split sends a set of levels left and
the other levels present in the node right (rpart 4.1, ``bsplit.c``, ``choose_surg.c``):

* regression and two-class classification order the levels present by mean response /
  proportion of the first class and scan the ``q - 1`` ordered cuts (optimal: Fisher 1958,
  Breiman et al. 1984 §9.4);
* more classes search all :math:`2^{k} - 1` partitions in rpart's Gray-code order when at
  most ``MAX_EXHAUSTIVE_LEVELS`` levels are present, and otherwise order the levels by the
  proportion of the node's most frequent class (a heuristic);
* a categorical surrogate sends each level to the side where most of its weight went.

Level sets are bitsets: level ``c`` is bit ``c & 63`` of word ``c >> 6``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._route import LEFT, RIGHT
from ._splitter import (
    ABSOLUTE_ERROR,
    GINI,
    REL_TIE,
    class_gain,
    obs,
    split_gain,
    weighted_median,
)

MAX_EXHAUSTIVE_LEVELS = 10


@njit(cache=True, nogil=True)
def set_bits(bits, mask, q):
    """Write the levels ``c < q`` with ``mask[c]`` into the bitset ``bits`` (cleared first)."""
    for k in range(bits.size):
        bits[k] = 0
    for c in range(q):
        if mask[c]:
            bits[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@njit(cache=True, nogil=True)
def has_bit(bits, c):
    return (bits[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) == 1


@njit(cache=True, nogil=True)
def _abs_dev(rows, m, y, w):
    """Σ w |y - weighted median| over ``rows[:m]``."""
    if m == 0:
        return 0.0
    med = weighted_median(y, w, rows, m)
    dev = 0.0
    for i in range(m):
        r = rows[i]
        dev += w[r] * abs(y[r] - med)
    return dev


@njit(cache=True, nogil=True)
def _mask_gain(mask, q, crit, n_classes, cls, total, parent, sums, sums_all, wl, wtot, ids,
               levels, mj, y, w, cl, cr, rows_l, rows_r):
    """The weighted impurity decrease of sending the levels in ``mask`` left."""
    if crit >= GINI:
        for k in range(n_classes):
            cl[k] = 0.0
        for c in range(q):
            if mask[c]:
                for k in range(n_classes):
                    cl[k] += cls[c, k]
        sl = 0.0
        sr = 0.0
        for k in range(n_classes):
            cr[k] = total[k] - cl[k]
            sl += cl[k]
            sr += cr[k]
        return split_gain(cl, cr, total, sl, sr, sl + sr, crit) - parent
    if crit == ABSOLUTE_ERROR:
        nl = np.int64(0)
        nr = np.int64(0)
        for i in range(mj):
            if mask[levels[i]]:
                rows_l[nl] = ids[i]
                nl += 1
            else:
                rows_r[nr] = ids[i]
                nr += 1
        return parent - _abs_dev(rows_l, nl, y, w) - _abs_dev(rows_r, nr, y, w)
    sl = 0.0
    wl_ = 0.0
    for c in range(q):
        if mask[c]:
            sl += sums[c]
            wl_ += wl[c]
    sr = sums_all - sl
    wr = wtot - wl_
    return sl * sl / wl_ + sr * sr / wr


@njit(cache=True, nogil=True)
def categorical_split(ids, levels, mj, q, y, codes, w, cnt, crit, n_classes, min_leaf,
                      min_wleaf, best_mask):
    """Best partition of the levels of the rows ``ids[:mj]`` (level codes ``levels[:mj]``).

    Returns ``(found, decrease)``; ``best_mask[c]`` marks the levels sent left.
    """
    wl = np.zeros(q)
    nl = np.zeros(q)
    seen = np.zeros(q, dtype=np.int64)
    for i in range(mj):
        r = ids[i]
        c = levels[i]
        wl[c] += w[r]
        nl[c] += obs(cnt, r)
        seen[c] += 1
    n_present = 0
    for c in range(q):
        if seen[c] > 0:
            n_present += 1
    if n_present < 2:
        return False, -np.inf
    present = np.empty(n_present, dtype=np.int64)
    k = 0
    for c in range(q):
        if seen[c] > 0:
            present[k] = c
            k += 1
    classification = crit >= GINI
    cls = np.zeros((q, max(n_classes, 1)))
    total = np.zeros(max(n_classes, 1))
    sums = np.zeros(q)
    ysums = np.zeros(q)
    parent = 0.0
    sums_all = 0.0
    wsub = 0.0
    if classification:
        for i in range(mj):
            cls[levels[i], codes[ids[i]]] += w[ids[i]]
        for c in range(q):
            for kk in range(n_classes):
                total[kk] += cls[c, kk]
        parent = class_gain(total, total.sum(), crit)
    else:
        wy = 0.0
        for i in range(mj):
            wsub += w[ids[i]]
            wy += w[ids[i]] * y[ids[i]]
        mean = wy / wsub
        for i in range(mj):
            r = ids[i]
            sums[levels[i]] += w[r] * (y[r] - mean)
            ysums[levels[i]] += w[r] * y[r]
        for c in range(q):
            sums_all += sums[c]
        if crit == ABSOLUTE_ERROR:
            parent = _abs_dev(ids, mj, y, w)
    wtot = 0.0
    ntot = 0.0
    for c in range(q):
        wtot += wl[c]
        ntot += nl[c]
    cl = np.zeros(max(n_classes, 1))
    cr = np.zeros(max(n_classes, 1))
    rows_l = np.empty(mj if crit == ABSOLUTE_ERROR else 0, dtype=np.int32)  # as ``ids``
    rows_r = np.empty(mj if crit == ABSOLUTE_ERROR else 0, dtype=np.int32)
    mask = np.zeros(q, dtype=np.bool_)
    found = False
    best_g = -np.inf
    exhaustive = classification and n_classes > 2 and n_present <= MAX_EXHAUSTIVE_LEVELS
    if exhaustive:
        # rpart's Gray-code walk: the column's last level never moves
        movable = np.empty(n_present, dtype=np.int64)
        n_mov = 0
        for c in present:
            if c != q - 1:
                movable[n_mov] = c
                n_mov += 1
        state = np.ones(n_mov, dtype=np.int64)
        n_steps = (1 << n_mov) - 1
    else:
        if classification:
            top = 0
            if n_classes > 2:
                for kk in range(1, n_classes):
                    if total[kk] > total[top]:
                        top = kk
            score = np.empty(n_present)
            for i in range(n_present):
                score[i] = cls[present[i], top] / wl[present[i]]
        else:
            score = np.empty(n_present)
            for i in range(n_present):
                score[i] = ysums[present[i]] / wl[present[i]]
        order = present[np.argsort(score, kind="mergesort")]
        n_steps = n_present - 1
    for step in range(n_steps):
        if exhaustive:
            for i in range(n_mov):
                if state[i] == 1:
                    state[i] = 2
                    mask[movable[i]] = not mask[movable[i]]
                    break
                state[i] = 1
        else:
            mask[order[step]] = True
        lw = 0.0
        ln = 0.0
        for c in range(q):
            if mask[c]:
                lw += wl[c]
                ln += nl[c]
        if (ln < min_leaf or ntot - ln < min_leaf or lw < min_wleaf or wtot - lw < min_wleaf
                or lw <= 0 or wtot - lw <= 0):
            continue
        g = _mask_gain(mask, q, crit, n_classes, cls, total, parent, sums, sums_all, wl, wtot,
                       ids, levels, mj, y, w, cl, cr, rows_l, rows_r)
        if not found or g > best_g + REL_TIE * abs(best_g):
            found = True
            best_g = g
            for c in range(q):
                best_mask[c] = mask[c]
    return found, best_g


@njit(cache=True, nogil=True)
def categorical_surrogate(levels, dirs, ws, mj, q, to_left, to_right):
    """rpart's categorical ``choose_surg``: each level to the side where more of its weight
    went (ties to the primary's heavier side). Returns ``(success, agree)``; ``to_left`` /
    ``to_right`` receive the level sets (levels absent from the node in neither)."""
    lwt = np.zeros(q)
    rwt = np.zeros(q)
    left_n = np.zeros(q, dtype=np.int64)
    right_n = np.zeros(q, dtype=np.int64)
    for i in range(mj):
        c = levels[i]
        if dirs[i] == LEFT:
            lwt[c] += ws[i]
            if ws[i] > 0:
                left_n[c] += 1
        elif dirs[i] == RIGHT:
            rwt[c] += ws[i]
            if ws[i] > 0:
                right_n[c] += 1
    defdir = LEFT if lwt.sum() > rwt.sum() else RIGHT
    agree = 0.0
    lcount = 0
    rcount = 0
    for c in range(q):
        seen = left_n[c] + right_n[c] > 0
        right = seen and (lwt[c] < rwt[c] or (lwt[c] == rwt[c] and defdir == RIGHT))
        to_right[c] = right
        to_left[c] = seen and not right
        if right:
            agree += rwt[c]
            lcount += left_n[c]
            rcount += right_n[c]
        elif seen:
            agree += lwt[c]
            lcount += right_n[c]
            rcount += left_n[c]
    return lcount > 1 and rcount > 1, agree
