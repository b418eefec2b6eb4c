"""Criterion codes, split gains and node statistics of the compiled tree grower.

Gains are in "weighted impurity" units, larger is better, comparable within one node only:

* squared error (``y`` centred at the node mean): ``S_L²/W_L + S_R²/W_R``;
* absolute error: ``-(Σ_L w|y - med_L| + Σ_R w|y - med_R|)``;
* gini: ``Σ_k c_Lk²/W_L + Σ_k c_Rk²/W_R``;
* entropy: ``Σ_k c_Lk log(c_Lk/W_L) + Σ_k c_Rk log(c_Rk/W_R)`` (``0 log 0 = 0``);
* misclassification: ``max_k c_Lk + max_k c_Rk``;
* gain ratio (C4.5): the entropy parent gain plus ``(G_L + G_R − G) / SI``, ``G`` the entropy
  gains above and ``SI = −Σ_s (W_s/W) log(W_s/W)`` the split information, so that the decrease
  is ``W`` × information gain / split information;
* chi2: ``W Σ_k (c_Lk²/W_L + c_Rk²/W_R) / c_k`` (``c_k`` the parent's class weights), whose
  decrease over the parent's ``W`` is Pearson's χ² of the class × side table.

:func:`split_gain` scores a split for every classification criterion; :func:`class_gain` is
the parent's term (the decrease is the difference).

Ties (gains equal within a relative :data:`REL_TIE`) keep the earlier feature, then the
smaller threshold: features are scanned in the order given and thresholds in increasing
order (:mod:`._grow`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._sort import sort_pairs

SQUARED_ERROR = 0
ABSOLUTE_ERROR = 1
GINI = 2
ENTROPY = 3
MISCLASSIFICATION = 4
GAIN_RATIO = 5
CHI2 = 6

#: Gains within this relative distance are ties (the earlier column, then the smaller
#: threshold wins); the one tie tolerance of every split and surrogate search.
REL_TIE = 1e-10
#: A node of impurity at or below this is pure (not split); also the slack of the
#: ``min_impurity_decrease`` comparison.
PURE_TOL = 1e-14
_ZERO = np.int64(0)  # not a literal: one compiled _stable_sorted


@njit(cache=True)
def class_gain(counts, wtot, crit):
    """Σ_k c_k²/W (gini), Σ_k c_k log(c_k/W) (entropy and gain ratio) or max_k c_k: larger
    is purer; for chi2 the parent term ``W`` of :func:`split_gain` (``Σ_k c_k``)."""
    if wtot <= 0.0:
        return 0.0
    g = 0.0
    if crit == CHI2:
        for c in counts:
            g += c
        return g
    if crit == GINI:
        for c in counts:
            g += c * c
        return g / wtot
    if crit == ENTROPY or crit == GAIN_RATIO:
        for c in counts:
            if c > 0.0:
                g += c * np.log(c / wtot)
        return g
    m = 0.0
    for c in counts:
        if c > m:
            m = c
    return m


@njit(cache=True)
def split_gain(lc, rc, tot, lw, rw, wtot, crit):
    """Gain of the split sending class weights ``lc`` (total ``lw``) left and ``rc`` (``rw``)
    right, out of the parent's ``tot`` (``wtot``); larger is better, and the split's decrease
    is this minus ``class_gain(tot, wtot, crit)``. Both sides need positive weight."""
    if crit == CHI2:
        g = 0.0
        for k in range(tot.size):
            if tot[k] > 0.0:
                g += (lc[k] * lc[k] / lw + rc[k] * rc[k] / rw) / tot[k]
        return g * wtot
    g = class_gain(lc, lw, crit) + class_gain(rc, rw, crit)
    if crit != GAIN_RATIO:
        return g
    parent = class_gain(tot, wtot, crit)
    pl = lw / wtot
    pr = rw / wtot
    split_info = -(pl * np.log(pl) + pr * np.log(pr))
    return parent + (g - parent) / split_info


@njit(cache=True)
def _weighted_abs_dev(ys, ws, m):
    """Σ w|y - median| of the first ``m`` entries of ``ys`` (sorted) with weights ``ws``."""
    if m == 0:
        return 0.0
    tot = 0.0
    for i in range(m):
        tot += ws[i]
    half = 0.5 * tot
    acc = 0.0
    med = ys[0]
    for i in range(m):
        acc += ws[i]
        if acc >= half:
            med = ys[i]
            break
    dev = 0.0
    for i in range(m):
        dev += ws[i] * abs(ys[i] - med)
    return dev


@njit(cache=True)
def _stable_sorted(y, w, lo, hi):
    """``y[lo:hi]`` sorted, and ``w[lo:hi]`` in the same order (a stable sort: ties keep
    their order). The grower's own sort, not numpy's: ``np.sort``/``np.argsort`` would
    compile numba's sorting kernels as well (seconds of the first run)."""
    m = hi - lo
    ys = np.empty(m)
    order = np.empty(m, dtype=np.int32)
    for i in range(m):
        ys[i] = y[lo + i]
        order[i] = i
    sort_pairs(ys, order, m)
    ws = np.empty(m)
    for i in range(m):
        ws[i] = w[lo + order[i]]
    return ys, ws


@njit(cache=True)
def abs_gain(yo, wo, n, lo):
    """-(absolute deviation of yo[:lo] + of yo[lo:n]) about their weighted medians."""
    ly, lw = _stable_sorted(yo, wo, _ZERO, lo)
    ry, rw = _stable_sorted(yo, wo, lo, n)
    return -(_weighted_abs_dev(ly, lw, lo) + _weighted_abs_dev(ry, rw, n - lo))


@njit(cache=True)
def node_summary(y, codes, w, idx, crit, n_classes):
    """``(value, weighted_n, impurity, risk)`` of the node holding rows ``idx``.

    ``value``: the weighted mean or (absolute error) the weighted median, or the class
    proportions. ``impurity`` per unit weight: variance, mean absolute deviation about the
    median, gini, entropy or error rate. ``risk``: weighted SSE or weighted
    misclassification count.
    """
    m = idx.size
    wn = 0.0
    if crit >= GINI:
        counts = np.zeros(n_classes)
        for i in range(m):
            r = idx[i]
            counts[codes[r]] += w[r]
            wn += w[r]
        # loops, not array expressions: the same sums, without compiling numpy's kernels
        value = np.empty(n_classes)
        top = counts[0]
        for k in range(n_classes):
            value[k] = counts[k] / wn
            top = max(top, counts[k])
        if crit == GINI or crit == CHI2:
            sq = 0.0
            for p in value:
                sq += p * p
            imp = 1.0 - sq
        elif crit == ENTROPY or crit == GAIN_RATIO:
            imp = 0.0
            for p in value:
                if p > 0.0:
                    imp -= p * np.log(p)
        else:
            imp = 1.0 - top / wn
        return value, wn, max(imp, 0.0), wn - top
    s = 0.0
    for i in range(m):
        r = idx[i]
        wn += w[r]
        s += w[r] * y[r]
    mean = s / wn
    sse = 0.0
    for i in range(m):
        r = idx[i]
        sse += w[r] * (y[r] - mean) ** 2
    value = np.empty(1)
    if crit == ABSOLUTE_ERROR:
        med = weighted_median(y, w, idx, m)
        dev = 0.0
        for i in range(m):
            r = idx[i]
            dev += w[r] * abs(y[r] - med)
        value[0] = med
        return value, wn, dev / wn, sse
    value[0] = mean
    return value, wn, sse / wn, sse


@njit(cache=True)
def weighted_median(y, w, rows, m):
    """Weighted median of ``y[rows[:m]]`` (weights ``w[rows[:m]]``); the midpoint of the two
    middle values when the weight splits exactly."""
    yy = np.empty(m)
    ww = np.empty(m)
    for i in range(m):
        yy[i] = y[rows[i]]
        ww[i] = w[rows[i]]
    ys, ws = _stable_sorted(yy, ww, _ZERO, m)
    total = 0.0
    for i in range(m):
        total += ws[i]
    half = 0.5 * total
    # the first cumulative weight reaching half (the cumulative sums in the sorted order)
    k = m - 1
    acc = 0.0
    for i in range(m):
        acc += ws[i]
        if acc >= half:
            k = i
            break
    if acc == half and k + 1 < m:
        return 0.5 * (ys[k] + ys[k + 1])
    return ys[k]


@njit(cache=True, inline="always")
def obs(cnt, r):
    """Observations row ``r`` stands for: ``cnt[r]``, or one when ``cnt`` is empty (every row
    of positive weight is one observation, the common case, without reading an array)."""
    return cnt[r] if cnt.size > 0 else 1.0
