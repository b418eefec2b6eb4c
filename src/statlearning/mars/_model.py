"""MARS model building around the compiled forward pass: earth's pruning pass, term names, the
basis of new data and variable importance (``evimp``).

Everything here works on a fitted forward pass (``dirs``, ``cuts`` of the terms) and on small
``M × M`` matrices, except :func:`basis_matrix`, which evaluates the selected terms on data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from .._core.linalg import qr_least_squares
from ._forward import forward_pass, gcv

FIX_TOL = 1e-8  # earth's QR tolerance when it drops linearly dependent forward-pass terms


@dataclass
class ForwardResult:
    """The forward pass's terms (the rows earth keeps in ``dirs``) and its basis on the data."""

    dirs: np.ndarray  # (M, p) int
    cuts: np.ndarray  # (M, p)
    bx: np.ndarray  # (n, M)
    termcond: int


def default_max_terms(n_features: int) -> int:
    """earth's default ``nk``: ``min(200, max(20, 2 p)) + 1``."""
    return min(200, max(20, 2 * n_features)) + 1


def run_forward(X, y, *, max_degree, nk, thresh, penalty, minspan, endspan):
    """earth's forward pass on ``X`` (n, p) and ``y`` (n,) then its removal of dependent terms."""
    n = X.shape[0]
    sd = y.std(ddof=1) if n > 1 else 0.0
    ys = (y - y.mean()) / sd if sd > 0 else y  # earth's Scale.y (not when y is constant)
    xT = np.ascontiguousarray(X.T, dtype=np.float64)
    order = np.ascontiguousarray(np.argsort(X, axis=0, kind="stable").T, dtype=np.int64)
    bx, dirs, cuts, used, _, termcond = forward_pass(
        xT, order, np.ascontiguousarray(ys[None, :], dtype=np.float64),
        int(max_degree), int(nk), float(thresh), float(penalty), int(minspan), int(endspan),
        2.0, 20, 1.0, True,
    )  # fmt: skip
    terms = np.flatnonzero(used)
    B = np.ascontiguousarray(bx[terms].T)
    if B.shape[1] > 1:  # earth drops terms that are linearly dependent on earlier ones
        kept = qr_least_squares(B[:, 1:], ys, fit_intercept=True, tol=FIX_TOL).kept
        terms, B = terms[kept], B[:, kept]
    return ForwardResult(dirs[terms], cuts[terms], B, int(termcond))


def prune_path(B, y):
    """earth's pruning pass: R's ``leaps.backward`` with the intercept forced in.

    Returns ``(rss_per_subset, prune_terms)``: for each size ``1…M`` the smallest RSS among the
    subsets the backward search met and, per size, the sorted indices of that subset's terms.

    leaps (Miller's ``BAKWRD``) keeps the variables in an order whose leading subsets are the
    candidate models: it starts from the forward pass's order (every leading subset is
    recorded), and at each size drops the variable whose removal increases the RSS least by
    moving it behind the model, recording the leading subsets that move changed. So a size's
    best subset need not be nested in the next size's, unlike plain backward elimination.
    Here the data are reduced once to the triangular factor of the centred ``[B, y]`` (the
    intercept forced in by centring), and each step is a QR of at most ``M × M``.
    """
    n, m = B.shape
    q = m - 1
    Z = np.empty((n, m))
    Z[:, :q] = B[:, 1:] - B[:, 1:].mean(axis=0)
    Z[:, q] = y - y.mean()
    R = linalg.qr(Z, mode="r", check_finite=False)[0][:m]
    r = R[:, q]
    best = np.full(m, np.inf)
    best[0] = float(r @ r)
    best_sets = [np.zeros(0, dtype=np.int64) for _ in range(m)]
    order = np.arange(q)

    def prefixes(npos, sizes):
        """Record the RSS of the leading subsets of ``order`` with ``sizes`` variables."""
        Qs = linalg.qr(R[:, order[:npos]], mode="economic", check_finite=False)[0]
        z = Qs.T @ r
        res = r - Qs @ z
        tail = np.cumsum((z**2)[::-1])[::-1]  # tail[k] = Σ_{l ≥ k} z_l²
        base = float(res @ res)
        for k in sizes:
            rss_k = base + (tail[k] if k < npos else 0.0)
            if rss_k < best[k]:
                best[k] = rss_k
                best_sets[k] = order[:k].copy()

    prefixes(q, range(1, q + 1))
    for npos in range(q, 1, -1):
        Qs, Rs = linalg.qr(R[:, order[:npos]], mode="economic", check_finite=False)
        z = Qs.T @ r
        beta = linalg.solve_triangular(Rs, z, check_finite=False)
        Rinv = linalg.solve_triangular(Rs, np.eye(npos), check_finite=False)
        increase = beta**2 / np.einsum("ij,ij->i", Rinv, Rinv)
        j = int(np.argmin(increase))  # the first of equal increases, as leaps
        if j < npos - 1:
            order[j:npos] = np.r_[order[j + 1 : npos], order[j]]
            prefixes(npos - 1, range(j + 1, npos))
    rss = best
    subsets = [np.r_[0, np.sort(s) + 1].astype(np.int64) for s in best_sets]
    return rss, subsets


def gcv_per_subset(rss, penalty, n):
    """GCV of each subset size ``1…M`` (earth's ``get.gcv``)."""
    return np.array([gcv(k + 1, n, r, penalty) for k, r in enumerate(rss)])


def basis_matrix(X, dirs, cuts):
    """The MARS basis of ``X`` for terms ``dirs``/``cuts`` (first row the intercept): (n, M)."""
    n = X.shape[0]
    B = np.ones((n, dirs.shape[0]))
    for k in range(dirs.shape[0]):
        for j in np.flatnonzero(dirs[k]):
            d = dirs[k, j]
            if d == 2:
                B[:, k] *= X[:, j]
            elif d == 1:
                B[:, k] *= np.maximum(X[:, j] - cuts[k, j], 0.0)
            else:
                B[:, k] *= np.maximum(cuts[k, j] - X[:, j], 0.0)
    return B


def term_names(dirs, cuts, feature_names, X=None):
    """earth's term labels: ``(Intercept)``, ``h(x-3.2)``, ``h(3.2-x)``, ``x``, products with ``*``.

    Cut points are printed with C's ``%g`` as earth does; ``h(x-0)`` on a predictor of small
    non-negative integers from 0 is printed ``x`` (earth's simplification for 0/1 factors).
    """
    simple = np.zeros(dirs.shape[1], dtype=bool)
    if X is not None and X.shape[0]:
        lo, hi = X.min(axis=0), X.max(axis=0)
        simple = (lo == 0) & (hi < 100) & np.all(X == np.floor(X), axis=0)
    names = []
    for k in range(dirs.shape[0]):
        used = np.flatnonzero(dirs[k])
        if used.size == 0:
            names.append("(Intercept)")
            continue
        parts = []
        for j in used:
            f, c, d = feature_names[j], cuts[k, j], dirs[k, j]
            if d == 2 or (d == 1 and c == 0 and simple[j]):
                parts.append(f"{f}")
            elif d == 1:
                parts.append(f"h({f}-{c:g})")
            else:
                parts.append(f"h({c:g}-{f})")
        names.append("*".join(parts))
    return names


def anova_order(dirs, cuts):
    """earth's ``reorder_terms_anova``: by degree, linear factors first, predictors, cut, pair."""
    m = dirs.shape[0]
    keys = []
    for i in range(m):
        used = np.flatnonzero(dirs[i])
        if used.size == 0:
            keys.append((0, 0, 0.0, 0.0, 0, i))
            continue
        key_x = 1e6 * (used[0] + 1)
        if used.size > 1:
            key_x += 1e3 * (used[1] + 1)
            if used.size > 2:
                key_x += used[2] + 1
        keys.append(
            (
                used.size,
                -int(np.sum(dirs[i] == 2)),
                key_x,
                float(cuts[i, used[0]]),
                int(dirs[i, used[0]] == 1),
                i,
            )
        )
    return np.array([k[-1] for k in sorted(keys)], dtype=np.int64)


def evimp(dirs, prune_terms, rss, gcvs, n_selected, feature_names):
    """earth's ``evimp(trim=TRUE)``: per predictor, the number of pruning subsets (up to the
    selected size) that use it and the GCV and RSS decreases they account for (scaled to 100 as
    the square root of the share of the largest), ordered by nsubsets then GCV.
    """
    p = dirs.shape[1]
    imp = np.zeros((p, 3))
    for size in range(2, n_selected + 1):
        terms = prune_terms[size - 1][1:]
        preds = np.flatnonzero(np.any(dirs[terms] != 0, axis=0))
        imp[preds, 0] += 1
        imp[preds, 1] += gcvs[size - 2] - gcvs[size - 1]
        imp[preds, 2] += rss[size - 2] - rss[size - 1]
    order = sorted(range(p), key=lambda j: (-imp[j, 0], -imp[j, 1], j))
    imp = imp[order]
    for c in (1, 2):
        top = np.max(np.abs(imp[:, c])) if p else 0.0
        if top != 0:
            imp[:, c] = 100 * np.sign(imp[:, c]) * np.sqrt(np.abs(imp[:, c]) / top)
            imp[imp[:, c] == 0, c] = 0.0
    keep = imp[:, 0] != 0
    return {
        "feature": [feature_names[j] for j, k in zip(order, keep, strict=True) if k],
        "nsubsets": imp[keep, 0].astype(np.int64),
        "gcv": imp[keep, 1],
        "rss": imp[keep, 2],
    }


def fit_mars(X, y, *, max_degree, nk, thresh, penalty, minspan, endspan, prune):
    """Forward pass, pruning and the least-squares fit of the selected terms (earth.fit)."""
    fwd = run_forward(
        X, y, max_degree=max_degree, nk=nk, thresh=thresh, penalty=penalty,
        minspan=minspan, endspan=endspan,
    )  # fmt: skip
    n = X.shape[0]
    rss, subsets = prune_path(fwd.bx, y)
    gcvs = gcv_per_subset(rss, penalty, n)
    m = fwd.bx.shape[1]
    n_selected = int(np.argmin(gcvs)) + 1 if prune else m
    selected = subsets[n_selected - 1]
    B = fwd.bx[:, selected]
    coef = qr_least_squares(B[:, 1:], y, fit_intercept=True).coef
    return fwd, rss, gcvs, subsets, selected, coef
