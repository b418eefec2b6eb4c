"""Split search with missing values and categorical columns, and rpart's surrogate splits.

The general growth path (:func:`._builder.build_tree` calls it when ``X`` holds ``NaN`` or
categorical columns). Everything follows rpart 4.1 (``bsplit.c``, ``anova.c``, ``gini.c``,
``surrogate.c``, ``choose_surg.c``, ``nodesplit.c``):

* each column is scored on the node's rows where it is not missing, against the totals of
  those rows, without rescaling: the weighted impurity decrease of that subset (rpart divides
  every column's improvement by the same node risk, which does not change the ranking); the
  best column wins, ties to the earlier column;
* a categorical column with ``q`` levels present in the node: regression and two-class
  classification order the levels by mean response / proportion of the first class and scan
  the ``q - 1`` ordered cuts (optimal: Fisher 1958, Breiman et al. 1984 §9.4); more than two
  classes search all :math:`2^{q-1} - 1` partitions in rpart's Gray-code order when
  ``q <= MAX_EXHAUSTIVE_LEVELS`` and otherwise order the levels by the proportion of the
  node's most frequent class (a heuristic);
* surrogates: for every other column, the split that reproduces the primary's partition best
  on the rows where both are present (weighted count of agreeing rows); ``agree`` is that
  count over the weight the primary routes and ``adj`` its gain over the majority rule; a
  surrogate is kept when ``adj > 0`` (at most ``max_surrogates``, best first, ties to the
  earlier column);
* a row missing the primary follows its first usable surrogate, else the direction that
  received more primary weight, else it stays out of both children (rpart).
"""

from __future__ import annotations

import numpy as np

from ._route import LEFT, RIGHT, surrogate_scan
from ._splitter import GINI, REL_TIE, SQUARED_ERROR, best_split, class_gain, weighted_median

MAX_EXHAUSTIVE_LEVELS = 10


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
    return float(np.dot(w, np.abs(y - weighted_median(y, w))))


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
