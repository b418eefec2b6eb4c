"""Local polynomial regression as R's ``loess`` computes it (private maths on ndarrays).

At each query point, tricube-weighted least squares on the nearest rows (R's ``ehg127``, its
``surface = "direct"`` computation), and the bisquare robustness weights of the
``"symmetric"`` family (R's ``lowesw``). :class:`statlearning.smoothing.LocalRegression` and
the ``lo()`` terms of the additive models fitted by backfitting are built on these.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial.distance import cdist

__all__ = [
    "hermite_rows",
    "kd_vertices",
    "local_design",
    "local_fit",
    "local_operator",
    "neighbourhood_size",
    "repeated_median",
    "robustness_weights",
    "trimmed_sd",
]

#: Residuals within this multiple of the response's size are rounding (robustness weights).
_ROUNDING = 1000 * np.finfo(float).eps
#: Neighbour cells (query points × neighbours) per block of local fits.
_BLOCK_CELLS = 1 << 19


def local_design(Z, degree):
    """Local polynomial columns of centred coordinates ``Z`` (…, nf, d), in R's order:
    1, the linear terms, then per variable its square and its products with later ones."""
    cols = [np.ones(Z.shape[:-1])]
    d = Z.shape[-1]
    if degree >= 1:
        cols += [Z[..., j] for j in range(d)]
    if degree >= 2:
        for j in range(d):
            cols.append(Z[..., j] ** 2)
            cols += [Z[..., j] * Z[..., jj] for jj in range(j + 1, d)]
    return np.stack(cols, axis=-1)


def neighbourhood_size(total, span) -> int:
    """R's ``⌊n·span + 1e-5⌋``: the observations in a neighbourhood (``total`` the number of
    rows, or of observations counted by frequency weights), at most ``total``."""
    return int(min(math.floor(total), math.floor(total * span + 1e-5)))


def _neighbours(D2, nf, n, counts, q_count):
    """Indices of each query's neighbourhood (rows of ``D2``), a mask of the rows taking
    part (padding excluded) and the squared radius: the ``nf`` nearest rows, or with
    ``counts`` the nearest rows up to the first whose cumulative count reaches ``q_count``
    (the ``q_count``-th nearest observation when a row of count ``c`` is ``c`` repeated rows)."""
    b = D2.shape[0]
    if counts is None:
        if nf < n:
            idx = np.argpartition(D2, nf - 1, axis=1)[:, :nf]
        else:
            idx = np.tile(np.arange(n), (b, 1))
        dist = np.take_along_axis(D2, idx, axis=1)
        return idx, np.ones(idx.shape, bool), dist, dist.max(axis=1, keepdims=True)
    if q_count >= counts.sum() * (1.0 - 1e-12):
        idx = np.tile(np.arange(n), (b, 1))
        dist = D2
        return idx, np.ones(idx.shape, bool), dist, dist.max(axis=1, keepdims=True)
    order = np.argsort(D2, axis=1, kind="stable")
    cum = np.cumsum(counts[order], axis=1)
    last = np.sum(cum < q_count * (1.0 - 1e-12), axis=1)  # first position reaching q_count
    width = int(last.max()) + 1
    idx = order[:, :width]
    inside = np.arange(width) <= last[:, None]
    dist = np.take_along_axis(D2, idx, axis=1)
    radius = np.take_along_axis(dist, last[:, None], axis=1)
    return idx, inside, dist, radius


def _local_blocks(X, rw, Q, span, degree, counts, nf=None):
    """The local least-squares problems of the rows of ``Q``, a block at a time: ``(start,
    idx, w, U, inv, Vt, norms)`` with ``w`` the square-root weights of the neighbours
    ``idx``, ``U diag(1/inv) Vt`` the SVD of the column-equilibrated weighted design
    (``inv`` the pseudo-inverse's reciprocals, 0 below R's tolerance) and ``norms`` the
    column norms."""
    n = X.shape[0]
    nf = neighbourhood_size(n, span) if nf is None else nf
    q_count = None if counts is None else neighbourhood_size(float(counts.sum()), span)
    step = max(1, _BLOCK_CELLS // max(nf if counts is None else n, 1))
    for start in range(0, Q.shape[0], step):
        q = Q[start : start + step]
        D2 = cdist(q, X, "sqeuclidean")
        idx, inside, dist, radius = _neighbours(D2, nf, n, counts, q_count)
        rho = radius * max(1.0, span)
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.sqrt(dist / rho)
        u = np.where(rho > 0, u, 0.0)
        w = np.sqrt(np.where(inside, rw[idx], 0.0) * np.clip(1.0 - u**3, 0.0, None) ** 3)
        A = local_design(X[idx] - q[:, None, :], degree) * w[..., None]
        norms = np.sqrt(np.sum(A**2, axis=1))
        norms[norms == 0] = 1.0
        A = A / norms[:, None, :]
        U, s, Vt = np.linalg.svd(A, full_matrices=False)
        tol = s[:, :1] * (100 * np.finfo(float).eps)
        inv = np.where(s > tol, 1.0 / np.where(s > 0, s, 1.0), 0.0)
        yield start, idx, w, U, inv, Vt, norms


def local_fit(X, y, rw, Q, span, degree, *, counts=None, leverages=False):
    """R's ``ehg127`` at every row of ``Q``: tricube-weighted least squares on the
    ``⌊n·span + 1e-5⌋`` nearest rows of ``X`` (radius widened by ``span`` when it exceeds 1),
    solved by the SVD of the column-equilibrated design with R's pseudo-inverse tolerance
    (``100·eps·σ₁``). Returns the fitted values at ``Q``.

    ``rw`` are the weights of the local least squares. With ``counts`` (frequency weights) the
    neighbourhood holds ``⌊span·Σ counts + 1e-5⌋`` observations, a row of count ``c`` standing
    for ``c`` repeated rows; the fit is then R's on the repeated rows. With ``leverages``
    (``Q`` the rows of ``X`` themselves) also the diagonal of the smoother matrix,
    ``∂ŷ_i/∂y_i``."""
    out = np.empty(Q.shape[0])
    lev = np.empty(Q.shape[0]) if leverages else None
    for start, idx, w, U, inv, Vt, norms in _local_blocks(X, rw, Q, span, degree, counts):
        stop = start + idx.shape[0]
        gamma = np.einsum("bnk,bn->bk", U, w * y[idx]) * inv
        out[start:stop] = np.einsum("bk,bk->b", Vt[:, :, 0], gamma) / norms[:, 0]
        if leverages:
            # ŷ = Σ_j l_j y_j, l = (Σ_k V_0k s_k⁺ U_jk) w_j / norm_0; the entry of the row itself
            lrow = np.einsum("bk,bnk->bn", Vt[:, :, 0] * inv, U) * w / norms[:, :1]
            own = idx == np.arange(start, stop)[:, None]
            lev[start:stop] = np.sum(np.where(own, lrow, 0.0), axis=1)
    return (out, lev) if leverages else out


def local_operator(X, rw, Q, span, degree, *, n_coef=2, nf=None):
    """The local fits at the rows of ``Q`` as linear maps of the responses: ``(idx, L)`` with
    coefficient ``c`` of the fit at ``Q[i]`` equal to ``L[i, c] @ y[idx[i]]`` (coefficient 0
    the value, 1 … d the gradient at the point). ``nf`` overrides the neighbourhood size."""
    nf_used = neighbourhood_size(X.shape[0], span) if nf is None else nf
    idx_all = np.empty((Q.shape[0], nf_used), dtype=np.int64)
    L = np.empty((Q.shape[0], n_coef, nf_used))
    for start, idx, w, U, inv, Vt, norms in _local_blocks(X, rw, Q, span, degree, None, nf):
        stop = start + idx.shape[0]
        idx_all[start:stop] = idx
        for c in range(n_coef):
            L[start:stop, c] = (
                np.einsum("bk,bnk->bn", Vt[:, :, c] * inv, U) * w / norms[:, c : c + 1]
            )
    return idx_all, L


def kd_vertices(x, span, nvmax, cell=0.2):
    """The vertices of R's loess k-d tree on one predictor (``ehg126``, ``ehg124``): the range
    of ``x`` widened by 0.5 % at both ends, cut at the median point of every cell holding more
    than ``⌊n·span·cell⌋`` points (ties go to the upper cell), while the cells and vertices
    fit in ``nvmax``. Returns the sorted vertices."""
    x = np.sort(np.asarray(x, dtype=np.float64))
    n = x.size
    fc = math.floor(n * span * cell)
    lo_x, hi_x = float(x[0]), float(x[-1])
    mu = 0.005 * max(hi_x - lo_x, 1e-10 * max(abs(lo_x), abs(hi_x)) + 1e-30)
    vertices = [lo_x - mu, hi_x + mu]
    cells = [(1, n, lo_x - mu, hi_x + mu)]  # processed in order of creation, as R
    nc, p = 1, 0
    while p < len(cells):
        lo_i, hi_i, v_lo, v_hi = cells[p]
        p += 1
        if hi_i - lo_i + 1 <= fc or nvmax < nc + 2 or nvmax < len(vertices) + 1:
            continue
        m = (lo_i + hi_i) // 2
        while m > 1 and x[m - 2] == x[m - 1]:  # all ties go with the upper cell
            m -= 1
        cut = float(x[m - 1])
        if cut in (v_lo, v_hi):
            continue
        vertices.append(cut)
        cells += [(lo_i, m, v_lo, cut), (m + 1, hi_i, cut, v_hi)]
        nc += 2
    return np.unique(vertices)


def hermite_rows(vertices, z):
    """Cubic Hermite interpolation between the vertices (R's ``ehg128`` on one predictor):
    the cell ``k`` of each ``z`` and weights ``H`` such that the surface is
    ``H[:, 0] g[k] + H[:, 1] g[k + 1] + H[:, 2] g'[k] + H[:, 3] g'[k + 1]`` from the values
    ``g`` and slopes ``g'`` at the vertices. Beyond the outer vertices the surface continues
    along the end vertex's tangent (R's loess gives ``NA`` there)."""
    z = np.asarray(z, dtype=np.float64)
    k = np.clip(np.searchsorted(vertices, z, side="right") - 1, 0, vertices.size - 2)
    width = vertices[k + 1] - vertices[k]
    h = (z - vertices[k]) / width
    H = np.column_stack([
        (1 - h) ** 2 * (1 + 2 * h), h**2 * (3 - 2 * h), h * (1 - h) ** 2 * width,
        h**2 * (h - 1) * width,
    ])  # fmt: skip
    below, above = z < vertices[0], z > vertices[-1]
    H[below] = np.column_stack([np.ones(below.sum()), np.zeros(below.sum()),
                                z[below] - vertices[0], np.zeros(below.sum())])  # fmt: skip
    H[above] = np.column_stack([np.zeros(above.sum()), np.ones(above.sum()),
                                np.zeros(above.sum()), z[above] - vertices[-1]])  # fmt: skip
    return k, H


def repeated_median(values, counts=None) -> float:
    """The median of ``values`` with each repeated ``counts`` times (R's ``median`` of the
    repeated sample: the mean of the two middle observations for an even total); any
    non-negative ``counts`` are accepted."""
    if counts is None:
        return float(np.median(values))
    order = np.argsort(values, kind="stable")
    v, cum = values[order], np.cumsum(counts[order])
    total = cum[-1]
    upper = math.floor(total / 2.0) + 1.0  # R's nh

    def at(position):  # the observation at a (1-based) position of the repeated sample
        return v[min(int(np.searchsorted(cum, position * (1.0 - 1e-12))), v.size - 1)]

    if total - upper + 1.0 < upper:  # an even total
        return 0.5 * float(at(upper) + at(upper - 1.0))
    return float(at(upper))


def trimmed_sd(X, counts=None, fraction=0.1) -> np.ndarray:
    """Per column, the standard deviation (``ddof=1``) of the values left after removing
    ``⌈fraction·n⌉`` from each end (R's loess normalisation), ``n`` counting a row of count ``c``
    as ``c`` observations; 0 where fewer than two remain."""
    n, d = X.shape
    if counts is None:
        trim = math.ceil(fraction * n)
        core = np.sort(X, axis=0)[trim : n - trim]
        return np.std(core, axis=0, ddof=1) if core.shape[0] > 1 else np.zeros(d)
    total = float(counts.sum())
    trim = math.ceil(fraction * total)
    out = np.zeros(d)
    for j in range(d):
        order = np.argsort(X[:, j], kind="stable")
        x, cum = X[order, j], np.cumsum(counts[order])
        lo = np.concatenate([[0.0], cum[:-1]])
        kept = np.clip(np.minimum(cum, total - trim) - np.maximum(lo, trim), 0.0, None)
        m = kept.sum()
        if m > 1:
            mean = kept @ x / m
            out[j] = math.sqrt(kept @ (x - mean) ** 2 / (m - 1))
    return out


def robustness_weights(resid, counts=None, reference=None) -> np.ndarray:
    """R's ``lowesw``: bisquare weights of the residuals over six times their median
    absolute value (1 below 0.001 of it, 0 above 0.999); the median of the repeated sample
    with ``counts``. Residuals within ``1000·eps·reference`` (the size of the response and
    the fit, elementwise) are rounding and count as zero: a fit that interpolates more than
    half the points gives every point weight 1 instead of weights drawn from rounding noise."""
    r = np.abs(resid)
    if reference is not None:
        r = np.where(r <= _ROUNDING * np.abs(reference), 0.0, r)
    cmad = 6.0 * repeated_median(r, counts)
    if cmad < np.finfo(float).tiny:
        return np.ones_like(r)
    out = (1.0 - (r / cmad) ** 2) ** 2
    out[r > 0.999 * cmad] = 0.0
    out[r <= 0.001 * cmad] = 1.0
    return out
