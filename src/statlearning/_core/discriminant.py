"""Gaussian discriminant analysis on ndarrays: class moments, covariance estimates, Fisher's
discriminant directions and the linear and quadratic discriminant functions.

Every pass over the data works on blocks of rows (a few MiB each), so no copy of ``X`` is ever
made: the centred residuals ``x_i − μ_{y_i}`` are formed one block at a time and folded into

* the within-class scatter ``W = Σ_i (x_i − μ_{y_i})(x_i − μ_{y_i})ᵀ`` by block products
  (:func:`within_scatter`), or into its triangular factor ``R`` (``RᵀR = W``) by a
  blocked ("tall-skinny") Householder QR (:func:`within_r_factor`), which is what MASS's
  ``lda`` gets from its SVD of the centred data, without squaring the condition number;
* the per-class scatters ``S_k`` of quadratic discriminant analysis (:func:`class_scatters`).

Conventions (MASS, Venables & Ripley 2002, §12.1):

* LDA's within-class covariance divides by ``n − K`` ("moment" estimate), its total covariance
  by ``n − 1``; QDA's class covariances by ``n_k − 1``.
* :func:`lda_whitener_from_r` reproduces ``MASS::lda``: columns scaled by their within-class
  standard deviation (divisor ``n − 1``), rank decided by singular values ``> tol``.
* :func:`fisher_directions` is MASS's second SVD: group means centred at the prior-weighted
  mean ``x̄ = Σ π_k μ_k``, weighted by ``sqrt(n π_k / (K − 1))``; its singular values are MASS's
  ``svd`` and the directions are normalised so that the within-class covariance of the scores
  is the identity.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from .compiled import single_blas_thread
from .grouped_moments import grouped_sums
from .linalg import symmetric_eigh, triangular_inverse

__all__ = [
    "cholesky_rank_ok",
    "class_means",
    "class_scatters",
    "fisher_directions",
    "fisher_directions_eigen",
    "lda_whitener_from_r",
    "ledoit_wolf_shrinkage",
    "linear_discriminants",
    "quadratic_discriminants",
    "shrink_covariance",
    "stacked_r_factor",
    "standardised_fourth_moment_sum",
    "within_r_factor",
    "within_r_from_blocks",
    "within_scatter",
]

_CHUNK_BYTES = 8 * 2**20


def _chunks(n: int, p: int):
    rows = max(256, _CHUNK_BYTES // (8 * max(p, 1)))
    for start in range(0, n, rows):
        yield start, min(n, start + rows)


def class_means(X, codes, n_classes):
    """Class sizes and class means (unweighted).

    Returns
    -------
    counts : ndarray of shape (n_classes,)
    means : ndarray of shape (n_classes, n_features)
    """
    counts = np.bincount(codes, minlength=n_classes).astype(np.float64)
    _, sums = grouped_sums(X, codes, n_classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        return counts, sums / counts[:, None]


def within_scatter(X, codes, means):
    """``W = Σ_i (x_i − μ_{y_i})(x_i − μ_{y_i})ᵀ``, accumulated over blocks of rows.

    Each block's ``DᵀD`` is a BLAS matrix product (faster than OpenBLAS's ``syrk`` for these
    tall, thin blocks); the result is symmetrised at the end.
    """
    n, p = X.shape
    W = np.zeros((p, p))
    for s, e in _chunks(n, p):
        D = X[s:e] - means[codes[s:e]]
        W += D.T @ D
    return 0.5 * (W + W.T)


def _r_of(M):
    """Upper-triangular ``R`` of ``M = QR`` (``M`` Fortran ordered, overwritten); on one BLAS
    thread below 2²⁷ multiply-adds (on a busy two-core machine the threaded QR of the
    blocks of 1,000 × 100 took ~400 ms against a few ms)."""
    work, info = lapack.dgeqrf_lwork(*M.shape)
    lwork = max(int(work), M.shape[1], 1) if info == 0 else max(64 * M.shape[1], 1)
    with single_blas_thread(M.shape[0] * M.shape[1] ** 2):
        qr, _tau, _work, info = lapack.dgeqrf(M, lwork=lwork, overwrite_a=1)  # blocked QR
    if info != 0:  # pragma: no cover - LAPACK argument error
        raise np.linalg.LinAlgError(f"dgeqrf failed with info={info}")
    k = min(M.shape)
    return np.triu(qr[:k])


def within_r_factor(X, codes, means, extra_rows=None):
    """Triangular ``R`` (p × p) with ``RᵀR = Σ_i (x_i − μ_{y_i})(x_i − μ_{y_i})ᵀ + EᵀE``.

    A blocked Householder QR of the centred rows (``E = extra_rows`` are appended last):
    each block is stacked under the current ``R`` and refactorised, so memory stays at one
    block. The singular values of ``R`` are those of the centred data matrix.
    """
    n, p = X.shape
    R = np.zeros((0, p))
    for s, e in _chunks(n, p):
        m = e - s
        M = np.empty((R.shape[0] + m, p), order="F")
        M[: R.shape[0]] = R
        np.subtract(X[s:e], means[codes[s:e]], out=M[R.shape[0] :])
        R = _r_of(M)
    return within_r_from_blocks(R, extra_rows)


def stacked_r_factor(a, b):
    """The triangular factor of two stacked blocks from theirs (blocks of rows, any order)."""
    return _r_of(np.asfortranarray(np.vstack([a, b])))


def within_r_from_blocks(R, extra_rows=None):
    """:func:`within_r_factor` from the triangular factor ``R`` of the centred rows (merged
    over blocks with :func:`stacked_r_factor`): the extra rows appended, padded to p rows."""
    p = R.shape[1]
    if extra_rows is not None and len(extra_rows):
        R = stacked_r_factor(R, extra_rows)
    if R.shape[0] < p:  # fewer rows than columns: pad (the scatter is singular)
        R = np.vstack([R, np.zeros((p - R.shape[0], p))])
    return R


def class_scatters(X, codes, means):
    """Per-class scatter matrices ``S_k = Σ_{i∈k} (x_i − μ_k)(x_i − μ_k)ᵀ``, shape (K, p, p)."""
    n, p = X.shape
    K = means.shape[0]
    S = np.zeros((K, p, p))
    for s, e in _chunks(n, p):
        c = codes[s:e]
        for k in range(K):
            mask = c == k
            if not mask.any():
                continue
            D = X[s:e][mask] - means[k]
            S[k] += D.T @ D
    return 0.5 * (S + S.transpose(0, 2, 1))


def standardised_fourth_moment_sum(X, codes, means, scale):
    """``Σ_i ‖(x_i − μ_{y_i}) / scale‖⁴``, the data term of the Ledoit–Wolf intensity."""
    n, p = X.shape
    total = 0.0
    for s, e in _chunks(n, p):
        Z = (X[s:e] - means[codes[s:e]]) / scale
        q = np.einsum("ij,ij->i", Z, Z)
        total += float(q @ q)
    return total


def ledoit_wolf_shrinkage(S, fourth_moment_sum, n):
    """Ledoit & Wolf's (2004) optimal shrinkage intensity toward ``μI``, ``μ = tr(S)/p``.

    Parameters
    ----------
    S : ndarray of shape (p, p)
        ``(1/n) Σ z_i z_iᵀ`` of centred observations ``z_i``.
    fourth_moment_sum : float
        ``Σ_i ‖z_i‖⁴``.
    n : int
        Number of observations.

    Returns
    -------
    float in [0, 1]
        ``δ = min(b̄², d²)/d²`` with ``d² = ‖S − μI‖²_F / p`` and
        ``b̄² = (Σ_i ‖z_i z_iᵀ − S‖²_F / n²) / p = (Σ_i ‖z_i‖⁴/n − ‖S‖²_F) / (n p)``.
    """
    p = S.shape[0]
    if p == 1:
        return 0.0
    mu = np.trace(S) / p
    fro2 = float(np.sum(S * S))
    b2 = (fourth_moment_sum / n - fro2) / (n * p)
    d2 = (fro2 - 2.0 * mu * np.trace(S) + p * mu**2) / p
    b2 = min(b2, d2)
    return 0.0 if b2 <= 0 else float(b2 / d2)


def shrink_covariance(S, alpha):
    """``(1 − α) S + α (tr(S)/p) I``."""
    p = S.shape[0]
    out = (1.0 - alpha) * S
    out[np.diag_indices(p)] += alpha * np.trace(S) / p
    return out


def lda_whitener_from_r(R, n, divisor, tol):
    """MASS's within-class whitening from ``R`` (``RᵀR`` = the scatter).

    Returns
    -------
    whitener : ndarray of shape (p, p) or None
        ``S`` with ``Sᵀ Σ S = I`` for ``Σ = RᵀR / divisor`` (``Σ⁻¹ = S Sᵀ``); ``None`` when the
        numerical rank is below ``p``.
    sd : ndarray of shape (p,)
        Within-class standard deviations with divisor ``n − 1`` (MASS's constant check).
    singular_values : ndarray of shape (p,)
        Of ``R diag(1/sd) / sqrt(divisor)``; the rank is the number above ``tol``.
    """
    sd = np.sqrt(np.einsum("ij,ij->j", R, R) / (n - 1))
    safe = np.where(sd > 0, sd, 1.0)
    A = R / safe / np.sqrt(divisor)
    with single_blas_thread(A.shape[0] * A.shape[1] ** 2):
        _, d, Vt = linalg.svd(A, full_matrices=False, check_finite=False)
    if np.sum(d > tol) < R.shape[1]:
        return None, sd, d
    return (Vt.T / d) / safe[:, None], sd, d


def fisher_directions(whitener, means, priors, n, tol):
    """MASS's between-class step: Fisher's discriminant directions from a whitener.

    Returns
    -------
    scalings : ndarray of shape (p, r)
        ``whitener @ V_b`` for the ``r`` between-class singular values ``> tol · d_1``.
    singular_values : ndarray of shape (r,)
        MASS's ``svd``: ratios of between- to within-group standard deviations.
    """
    K = means.shape[0]
    xbar = priors @ means
    weights = np.sqrt(n * priors / max(K - 1, 1))
    Xb = (weights[:, None] * (means - xbar)) @ whitener
    _, d, Vt = linalg.svd(Xb, full_matrices=False, check_finite=False)
    rank = int(np.sum(d > tol * d[0])) if d.size and d[0] > 0 else 0
    return whitener @ Vt[:rank].T, d[:rank]


def fisher_directions_eigen(covariance, means, priors, n, tol):
    """Fisher's directions as the generalised eigenproblem ``B v = λ Σ v`` (``vᵀΣv = 1``).

    ``B = Σ_k (n π_k / (K − 1)) (μ_k − x̄)(μ_k − x̄)ᵀ``; the eigenvalues are the squares of
    MASS's ``svd``.
    """
    K = means.shape[0]
    xbar = priors @ means
    C = np.sqrt(n * priors / max(K - 1, 1))[:, None] * (means - xbar)
    B = C.T @ C
    lam, V = symmetric_eigh(B, covariance, check_finite=False)
    order = np.argsort(lam)[::-1]
    lam, V = np.clip(lam[order], 0.0, None), V[:, order]
    d = np.sqrt(lam)
    rank = int(np.sum(d > tol * d[0])) if d.size and d[0] > 0 else 0
    return V[:, :rank], d[:rank]


def linear_discriminants(precision_times, means, priors, centre):
    """Linear discriminant functions ``δ_k(x) = c_k0 + c_kᵀx`` and their centred form.

    Parameters
    ----------
    precision_times : callable
        ``B ↦ Σ⁻¹ B`` for a (p, m) array.
    means : ndarray of shape (K, p)
    priors : ndarray of shape (K,)
    centre : ndarray of shape (p,)
        Where the centred form is expanded (MASS: the prior-weighted mean of the means).

    Returns
    -------
    functions : ndarray of shape (K, p + 1)
        Rows ``[c_k0, c_k]`` with ``c_k = Σ⁻¹μ_k`` and ``c_k0 = −½ μ_kᵀΣ⁻¹μ_k + log π_k``.
    coef_centred : ndarray of shape (p, K)
        ``Σ⁻¹(μ_k − centre)``.
    intercept_centred : ndarray of shape (K,)
        ``−½ (μ_k − centre)ᵀΣ⁻¹(μ_k − centre) + log π_k``: ``δ_k`` evaluated as
        ``(x − centre)ᵀ coef + intercept`` differs from the textbook form by a term common
        to all classes, and does not suffer cancellation when the means are far from 0.
    """
    with np.errstate(divide="ignore"):
        log_prior = np.log(priors)
    C = precision_times(means.T)
    c0 = -0.5 * np.einsum("kj,jk->k", means, C) + log_prior
    Mc = means - centre
    A = precision_times(Mc.T)
    b = -0.5 * np.einsum("kj,jk->k", Mc, A) + log_prior
    return np.column_stack([c0, C.T]), A, b


def cholesky_rank_ok(cov, tol=1e-7):
    """R's rule for a full-rank covariance: every column's residual after projecting on the
    earlier ones keeps more than ``tol`` of its norm (``dqrdc2``, applied to ``Σ``).

    Returns ``(ok, bad_column)``; ``bad_column`` is the first failing column or ``None``.
    """
    d = np.sqrt(np.diag(cov))
    zero = np.flatnonzero(~(d > 0))
    if zero.size:
        return False, int(zero[0])
    C = cov / np.outer(d, d)
    L, info = lapack.dpotrf(C, lower=1, clean=1)
    if info > 0:
        return False, int(info - 1)
    diag = np.diag(L)
    bad = np.flatnonzero(diag < tol)
    return (False, int(bad[0])) if bad.size else (True, None)


def quadratic_discriminants(means, covariances, priors, include_log_det=True):
    """Quadratic discriminant functions ``δ_k(x) = xᵀQ_k x + l_kᵀx + c_k``.

    ``Q_k = −½Σ_k⁻¹``, ``l_k = Σ_k⁻¹μ_k``, ``c_k = −½μ_kᵀΣ_k⁻¹μ_k − ½ log|Σ_k| + log π_k``
    (the log-determinant only when ``include_log_det``).

    Returns
    -------
    quadratic : ndarray (K, p, p)
    linear : ndarray (K, p)
    constant : ndarray (K,)
    log_det : ndarray (K,)
        ``log|Σ_k|``.
    whiteners : ndarray (K, p, p)
        ``U_k⁻¹`` for the Cholesky factor ``Σ_k = U_kᵀU_k``, so that
        ``(x − μ_k)ᵀΣ_k⁻¹(x − μ_k) = ‖(x − μ_k) U_k⁻¹‖²`` (MASS's ``scaling``).
    """
    K, p = means.shape
    quadratic = np.empty((K, p, p))
    linear = np.empty((K, p))
    constant = np.empty(K)
    log_det = np.empty(K)
    whiteners = np.empty((K, p, p))
    with np.errstate(divide="ignore"):
        log_prior = np.log(priors)
    for k in range(K):
        with single_blas_thread(p**3):  # p × p: threaded LAPACK only waits for its threads
            U = linalg.cholesky(covariances[k], lower=False, check_finite=False)
            Uinv = triangular_inverse(U, lower=False)
        prec = Uinv @ Uinv.T
        prec = 0.5 * (prec + prec.T)
        log_det[k] = 2.0 * np.sum(np.log(np.diag(U)))
        quadratic[k] = -0.5 * prec
        linear[k] = prec @ means[k]
        constant[k] = -0.5 * means[k] @ linear[k] + log_prior[k]
        if include_log_det:
            constant[k] -= 0.5 * log_det[k]
        whiteners[k] = Uinv
    return quadratic, linear, constant, log_det, whiteners
