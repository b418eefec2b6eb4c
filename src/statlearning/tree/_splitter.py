"""Exhaustive best-split search for one tree node (the hot loop, compiled with numba).

Array in, array out: the caller passes the data, the node's sample indices and the candidate
features; :func:`best_split` returns the best (feature, threshold, gain). Thresholds are the
midpoints between consecutive distinct values and ``x < threshold`` goes to the left child.

Gains are in "weighted impurity" units, larger is better, comparable within one node only:

* squared error (``y`` centred at the node mean): ``S_L²/W_L + S_R²/W_R``;
* absolute error: ``-(Σ_L w|y - med_L| + Σ_R w|y - med_R|)``;
* gini: ``Σ_k c_Lk²/W_L + Σ_k c_Rk²/W_R``;
* entropy: ``Σ_k c_Lk log(c_Lk/W_L) + Σ_k c_Rk log(c_Rk/W_R)`` (``0 log 0 = 0``);
* misclassification: ``max_k c_Lk + max_k c_Rk``.

Ties (gains equal within a relative 1e-10) keep the earlier feature, then the smaller
threshold: features are scanned in the order given and thresholds in increasing order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SQUARED_ERROR = 0
ABSOLUTE_ERROR = 1
GINI = 2
ENTROPY = 3
MISCLASSIFICATION = 4

#: Gains within this relative distance are ties (the earlier column, then the smaller
#: threshold wins); the one tie tolerance of every split and surrogate search.
REL_TIE = 1e-10
#: A node of impurity at or below this is pure (not split); also the slack of the
#: ``min_impurity_decrease`` comparison.
PURE_TOL = 1e-14


@njit(cache=True)
def class_gain(counts, wtot, crit):
    """Σ_k c_k²/W (gini), Σ_k c_k log(c_k/W) (entropy) or max_k c_k: larger is purer."""
    if wtot <= 0.0:
        return 0.0
    g = 0.0
    if crit == GINI:
        for c in counts:
            g += c * c
        return g / wtot
    if crit == ENTROPY:
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
def abs_gain(yo, wo, n, lo):
    """-(absolute deviation of yo[:lo] + of yo[lo:n]) about their weighted medians."""
    ly = np.sort(yo[:lo])
    lw = wo[:lo][np.argsort(yo[:lo], kind="mergesort")]
    ry = np.sort(yo[lo:n])
    rw = wo[lo:n][np.argsort(yo[lo:n], kind="mergesort")]
    return -(_weighted_abs_dev(ly, lw, lo) + _weighted_abs_dev(ry, rw, n - lo))


@njit(cache=True)
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
        value = counts / wn
        top = counts.max()
        if crit == GINI:
            imp = 1.0 - np.sum(value * value)
        elif crit == ENTROPY:
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
        med = weighted_median(y[idx], w[idx])
        dev = 0.0
        for i in range(m):
            r = idx[i]
            dev += w[r] * abs(y[r] - med)
        value[0] = med
        return value, wn, dev / wn, sse
    value[0] = mean
    return value, wn, sse / wn, sse


@njit(cache=True)
def weighted_median(y, w):
    """Weighted median; the midpoint of the two middle values when the weight splits exactly."""
    order = np.argsort(y, kind="mergesort")
    ys = y[order]
    cw = np.cumsum(w[order])
    half = 0.5 * cw[-1]
    k = min(np.searchsorted(cw, half), y.size - 1)
    if cw[k] == half and k + 1 < y.size:
        return 0.5 * (ys[k] + ys[k + 1])
    return ys[k]
