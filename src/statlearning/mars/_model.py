"""MARS model building around the compiled forward pass: earth's pruning pass, term names, the
basis of new data and variable importance (``evimp``).

Everything here works on a fitted forward pass (``dirs``, ``cuts`` of the terms) and on small
``M × M`` matrices, except :func:`basis_matrix`, which evaluates the selected terms on data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from .._core.compiled import kernel_array, single_blas_thread
from .._core.linalg import qr_least_squares, triangular_inverse
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


def run_forward(X, Y, *, max_degree, nk, thresh, penalty, minspan, endspan):
    """earth's forward pass on ``X`` (n, p) and ``Y`` (n, r), then its removal of dependent terms.

    A single response is standardised first (earth's ``Scale.y``); several are used as given.
    """
    n = X.shape[0]
    Ys = Y
    if Y.shape[1] == 1:
        sd = Y[:, 0].std(ddof=1) if n > 1 else 0.0
        if sd > 0:  # not when y is constant
            Ys = (Y - Y.mean()) / sd
    # writeable C-ordered copies: one compiled signature whatever the caller passed
    xT = kernel_array(X.T)
    order = kernel_array(np.argsort(X, axis=0, kind="stable").T, dtype=np.int64)
    bx, dirs, cuts, used, _, termcond = forward_pass(
        xT, order, kernel_array(Ys.T),
        int(max_degree), int(nk), float(thresh), float(penalty), int(minspan), int(endspan),
        2.0, 20, 1.0, True,
    )  # fmt: skip
    terms = np.flatnonzero(used)
    B = np.ascontiguousarray(bx[terms].T)
    if B.shape[1] > 1:  # earth drops terms that are linearly dependent on earlier ones
        with single_blas_thread(n * B.shape[1] ** 2):
            kept = qr_least_squares(B[:, 1:], Ys[:, 0], fit_intercept=True, tol=FIX_TOL).kept
        terms, B = terms[kept], B[:, kept]
    return ForwardResult(dirs[terms], cuts[terms], B, int(termcond))


def _reduced(B, Y):
    """Triangular factor of the centred ``[B without its intercept, Y]`` (the intercept is
    forced into every subset by the centring): ``(R_x, R_y)`` with ``m + r`` rows."""
    n, m = B.shape
    q, r = m - 1, Y.shape[1]
    Z = np.empty((n, q + r))
    Z[:, :q] = B[:, 1:] - B[:, 1:].mean(axis=0)
    Z[:, q:] = Y - Y.mean(axis=0)
    R = linalg.qr(Z, mode="r", check_finite=False)[0][: q + r]
    return R[:, :q], R[:, q:]


def _subset_fit(Rx, Ry, cols):
    """``(Q, R, Z)`` of the least squares of ``Ry`` on ``Rx[:, cols]``; ``Z = Qᵀ Ry``."""
    Qs, Rs = linalg.qr(Rx[:, cols], mode="economic", check_finite=False)
    return Qs, Rs, Qs.T @ Ry


def _drop_increase(Rs, Z):
    """RSS increase (summed over responses) of dropping each column: ``Σ β² / [(RᵀR)⁻¹]_jj``."""
    beta = linalg.solve_triangular(Rs, Z, check_finite=False)
    Rinv = triangular_inverse(Rs, lower=False)
    return np.sum(beta**2, axis=1) / np.einsum("ij,ij->i", Rinv, Rinv)


def prune_path(B, Y):
    """earth's pruning pass. Returns ``(rss_per_subset, prune_terms)``.

    ``rss_per_subset[k]`` is the RSS (summed over the responses) of the subset of ``k + 1``
    terms that the pass keeps, ``prune_terms[k]`` the sorted indices of its terms (the
    intercept, 0, always in).

    One response: R's ``leaps.backward`` with the intercept forced in. leaps (Miller's
    ``BAKWRD``) keeps the variables in an order whose leading subsets are the candidate models:
    it starts from the forward pass's order (every leading subset is recorded), and at each size
    drops the variable whose removal increases the RSS least by moving it behind the model,
    recording the leading subsets that move changed; each size keeps the smallest RSS recorded.
    So a size's subset need not be nested in the next size's. Several responses: earth's own
    backward elimination (``EvalSubsetsUsingXtx``), dropping the term with the smallest summed
    increase. The data are reduced once to the triangular factor of the centred ``[B, Y]``;
    each step is a QR of at most ``M × M``.
    """
    m = B.shape[1]
    q = m - 1
    Rx, Ry = _reduced(B, Y)
    best = np.full(m, np.inf)
    best[0] = float(np.sum(Ry**2))
    best_sets = [np.zeros(0, dtype=np.int64) for _ in range(m)]
    order = np.arange(q)

    def record(npos, sizes):
        Qs, _, Z = _subset_fit(Rx, Ry, order[:npos])
        res = Ry - Qs @ Z
        tail = np.cumsum(np.sum(Z**2, axis=1)[::-1])[::-1]  # tail[k] = Σ_{l ≥ k} z_l²
        base = float(np.sum(res**2))
        for k in sizes:
            rss_k = base + (tail[k] if k < npos else 0.0)
            if rss_k < best[k]:
                best[k] = rss_k
                best_sets[k] = order[:k].copy()

    if Y.shape[1] == 1:
        record(q, range(1, q + 1))
        for npos in range(q, 1, -1):
            _, Rs, Z = _subset_fit(Rx, Ry, order[:npos])
            j = int(np.argmin(_drop_increase(Rs, Z)))  # the first of equal increases
            if j < npos - 1:
                order[j:npos] = np.r_[order[j + 1 : npos], order[j]]
                record(npos - 1, range(j + 1, npos))
    else:
        for npos in range(q, 0, -1):
            record(npos, [npos])
            _, Rs, Z = _subset_fit(Rx, Ry, order[:npos])
            j = int(np.argmin(_drop_increase(Rs, Z)))
            order[j:npos] = np.r_[order[j + 1 : npos], order[j]]
    subsets = [np.r_[0, np.sort(s) + 1].astype(np.int64) for s in best_sets]
    return best, subsets


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


def evimp(dirs, prune_terms, rss, gcvs, n_selected, feature_names, trim=True):
    """earth's ``evimp(trim=TRUE)``: per predictor, the number of pruning subsets (up to the
    selected size) that use it and the GCV and RSS decreases they account for (scaled to 100 as
    the square root of the share of the largest), ordered by nsubsets then GCV. With
    ``trim=False`` every predictor is listed, those not in the selected model (whose terms are
    ``prune_terms[n_selected - 1]``) suffixed ``-unused``, as summary(earth) prints them.
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
    for c in (1, 2) if p > 1 else ():  # earth leaves a single predictor's sums unscaled
        top = np.max(np.abs(imp[:, c]))
        if top != 0:
            imp[:, c] = 100 * np.sign(imp[:, c]) * np.sqrt(np.abs(imp[:, c]) / top)
            imp[imp[:, c] == 0, c] = 0.0
    keep = imp[:, 0] != 0 if trim else np.ones(p, dtype=bool)
    used = np.any(dirs[prune_terms[n_selected - 1]] != 0, axis=0)
    names = [feature_names[j] + ("" if used[j] or trim else "-unused") for j in order]
    return {
        "feature": [f for f, k in zip(names, keep, strict=True) if k],
        "nsubsets": imp[keep, 0].astype(np.int64),
        "gcv": imp[keep, 1],
        "rss": imp[keep, 2],
    }


def fit_mars(X, Y, *, max_degree, nk, thresh, penalty, minspan, endspan, prune):
    """Forward and pruning passes (earth.fit): ``(forward, rss, gcvs, prune_terms, selected)``."""
    fwd = run_forward(
        X, Y, max_degree=max_degree, nk=nk, thresh=thresh, penalty=penalty,
        minspan=minspan, endspan=endspan,
    )  # fmt: skip
    # the pruning works on M × M matrices after one n × M factorisation: one BLAS thread
    # (waking a threaded BLAS costs more than these products)
    with single_blas_thread(X.shape[0] * fwd.bx.shape[1] ** 2):
        rss, subsets = prune_path(fwd.bx, Y)
    gcvs = gcv_per_subset(rss, penalty, X.shape[0])
    n_selected = int(np.argmin(gcvs)) + 1 if prune else fwd.bx.shape[1]
    return fwd, rss, gcvs, subsets, subsets[n_selected - 1]
