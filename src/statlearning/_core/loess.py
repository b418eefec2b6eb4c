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

__all__ = ["local_design", "local_fit", "robustness_weights"]

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


def local_fit(X, y, rw, Q, span, degree, *, leverages=False):
    """R's ``ehg127`` at every row of ``Q``: tricube-weighted least squares on the
    ``⌊n·span + 1e-5⌋`` nearest rows of ``X`` (radius widened by ``span`` when it exceeds 1),
    solved by the SVD of the column-equilibrated design with R's pseudo-inverse tolerance
    (``100·eps·σ₁``). Returns the fitted values at ``Q``; with ``leverages`` (``Q`` the rows
    of ``X`` themselves) also the diagonal of the smoother matrix, ``∂ŷ_i/∂y_i``."""
    n = X.shape[0]
    nf = min(n, math.floor(n * span + 1e-5))
    out = np.empty(Q.shape[0])
    lev = np.empty(Q.shape[0]) if leverages else None
    step = max(1, _BLOCK_CELLS // max(nf, 1))
    for start in range(0, Q.shape[0], step):
        q = Q[start : start + step]
        D2 = cdist(q, X, "sqeuclidean")
        idx = (
            np.argpartition(D2, nf - 1, axis=1)[:, :nf]
            if nf < n
            else np.tile(np.arange(n), (q.shape[0], 1))
        )
        dist = np.take_along_axis(D2, idx, axis=1)
        rho = dist.max(axis=1, keepdims=True) * max(1.0, span)
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.sqrt(dist / rho)
        u = np.where(rho > 0, u, 0.0)
        w = np.sqrt(rw[idx] * np.clip(1.0 - u**3, 0.0, None) ** 3)
        A = local_design(X[idx] - q[:, None, :], degree) * w[..., None]
        eta = w * y[idx]
        norms = np.sqrt(np.sum(A**2, axis=1))
        norms[norms == 0] = 1.0
        A = A / norms[:, None, :]
        U, s, Vt = np.linalg.svd(A, full_matrices=False)
        tol = s[:, :1] * (100 * np.finfo(float).eps)
        inv = np.where(s > tol, 1.0 / np.where(s > 0, s, 1.0), 0.0)
        gamma = np.einsum("bnk,bn->bk", U, eta) * inv
        coef0 = np.einsum("bk,bk->b", Vt[:, :, 0], gamma) / norms[:, 0]
        out[start : start + step] = coef0
        if leverages:
            # ŷ = Σ_j l_j y_j, l = (Σ_k V_0k s_k⁺ U_jk) w_j / norm_0; the entry of the row itself
            lrow = np.einsum("bk,bnk->bn", Vt[:, :, 0] * inv, U) * w / norms[:, :1]
            own = idx == np.arange(start, start + q.shape[0])[:, None]
            lev[start : start + step] = np.sum(np.where(own, lrow, 0.0), axis=1)
    return (out, lev) if leverages else out


def robustness_weights(resid) -> np.ndarray:
    """R's ``lowesw``: bisquare weights of the residuals over six times their median
    absolute value (1 below 0.001 of it, 0 above 0.999)."""
    r = np.abs(resid)
    cmad = 6.0 * np.median(r)
    if cmad < np.finfo(float).tiny:
        return np.ones_like(r)
    out = (1.0 - (r / cmad) ** 2) ** 2
    out[r > 0.999 * cmad] = 0.0
    out[r <= 0.001 * cmad] = 1.0
    return out
