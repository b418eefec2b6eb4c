"""Batched least squares for bootstrap resamples of an OLS fit.

A pairs-bootstrap resample with counts ``c`` (how often each row was drawn) has the normal
equations ``Aᵀdiag(c)A β = Aᵀdiag(c)y``. Both sides are linear in ``c``: with the row-wise
products ``P[i] = vech(aᵢaᵢᵀ)`` and ``Q[i] = aᵢyᵢ`` computed once, a block of resamples needs one
matrix product ``C @ [P, Q]`` (a single BLAS call) and a batched solve of small systems. The
columns are centred first (the intercept absorbs the shift), which keeps the Gram matrices well
conditioned.
"""

from __future__ import annotations

import numpy as np

#: Resamples per block: bounds the (block × n) count matrix.
BLOCK = 128


def design(X: np.ndarray, fit_intercept: bool):
    """Centred design ``A`` and the column means (zeros without intercept)."""
    if fit_intercept:
        mean = X.mean(axis=0)
        A = np.empty((X.shape[0], X.shape[1] + 1))
        A[:, 0] = 1.0
        np.subtract(X, mean, out=A[:, 1:])
    else:
        mean = np.zeros(X.shape[1])
        A = np.ascontiguousarray(X, dtype=np.float64)
    return A, mean


def well_conditioned(A: np.ndarray, limit: float = 1e10) -> bool:
    G = A.T @ A
    d = np.sqrt(np.diag(G))
    if np.any(d == 0):
        return False
    return bool(np.linalg.cond(G / np.outer(d, d)) < limit)


def counts_of(idx: np.ndarray, n: int) -> np.ndarray:
    """Row counts of each resample: ``(b, n)`` float array from ``(b, n)`` indices."""
    b = idx.shape[0]
    flat = (idx + (np.arange(b) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=b * n).reshape(b, n).astype(np.float64)


def _ill_conditioned(G: np.ndarray, limit: float = 1e10) -> np.ndarray:
    """Which of the Gram matrices ``G`` (``(b, k, k)``) are singular or nearly so.

    The condition number of the correlation-scaled matrix, as :func:`well_conditioned`: a
    resample that misses every row where a column varies has an aliased column, which a solve
    would turn into a huge coefficient rather than an error.
    """
    d = np.sqrt(np.einsum("bii->bi", G))
    bad = np.any(d <= 0, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = G / (d[:, :, None] * d[:, None, :])
    scaled[bad] = np.eye(G.shape[1])
    bad |= ~(np.linalg.cond(scaled) < limit)
    return bad


def pairs_coefficients(A: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of every resample ``idx[b]``: shape ``(B, k)``.

    Rows of resamples whose Gram matrix is singular or ill conditioned (an aliased column in
    that resample) are NaN: the caller refits them.
    """
    n, k = A.shape
    iu = np.triu_indices(k)
    PQ = np.concatenate([A[:, iu[0]] * A[:, iu[1]], A * y[:, None]], axis=1)
    m = iu[0].size
    out = np.empty((idx.shape[0], k))
    for start in range(0, idx.shape[0], BLOCK):
        C = counts_of(idx[start : start + BLOCK], n)
        S = C @ PQ
        G = np.empty((C.shape[0], k, k))
        G[:, iu[0], iu[1]] = S[:, :m]
        G[:, iu[1], iu[0]] = S[:, :m]
        bad = _ill_conditioned(G)
        G[bad] = np.eye(k)
        block = np.linalg.solve(G, S[:, m:, None])[:, :, 0]
        block[bad] = np.nan
        out[start : start + C.shape[0]] = block
    return out


def residual_coefficients(A: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Coefficients for ``y* = ŷ + e[idx[b]]`` (centred residuals ``e``): shape ``(B, k)``."""
    beta = np.linalg.lstsq(A, y, rcond=None)[0]
    fitted = A @ beta
    resid = y - fitted
    resid -= resid.mean()
    # β* = β + (AᵀA)⁻¹Aᵀ e*, with e* the resampled residuals
    proj = np.linalg.solve(A.T @ A, A.T)  # k × n
    out = np.empty((idx.shape[0], A.shape[1]))
    for start in range(0, idx.shape[0], BLOCK):
        E = resid[idx[start : start + BLOCK]]
        out[start : start + E.shape[0]] = beta + E @ proj.T
    return out


def jackknife_coefficients(A: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """Leave-one-out coefficients ``β − G⁻¹aᵢeᵢ/(1 − hᵢ)``; ``None`` if a leverage is 1."""
    G = A.T @ A
    beta = np.linalg.solve(G, A.T @ y)
    GinvAt = np.linalg.solve(G, A.T)  # k × n
    h = np.einsum("ij,ji->i", A, GinvAt)
    if np.any(h > 1 - 1e-8):
        return None
    e = y - A @ beta
    return beta - (GinvAt * (e / (1 - h))).T


def to_attribute(coefs: np.ndarray, mean: np.ndarray, fit_intercept: bool, attribute: str):
    """``coef_`` or ``intercept_`` replicates from centred-design coefficients."""
    if not fit_intercept:
        return coefs if attribute == "coef_" else np.zeros((coefs.shape[0], 1))
    slopes = coefs[:, 1:]
    if attribute == "coef_":
        return slopes
    return (coefs[:, 0] - slopes @ mean)[:, None]
