"""Ridge regression in closed form, and its leave-one-out and generalised CV criteria.

The problem is ``min ‖√w (y − b0 − Xβ)‖² + alpha ‖β‖²`` with an unpenalised intercept. With the
weighted means ``x̄ = Σ w x / Σ w``, ``ȳ`` and the centred, row-weighted ``Z = √W (X − x̄)``,
``t = √W (y − ȳ)`` (no centring without intercept), the slopes solve

* primal (Cholesky): ``(ZᵀZ + alpha I) β = Zᵀt``;
* SVD: ``Z = U S Vᵀ``, ``β = V diag(s / (s² + alpha)) Uᵀ t``;
* dual (kernel) form: ``β = Zᵀ (ZZᵀ + alpha I)⁻¹ t`` — an ``n × n`` system, cheaper when
  ``p > n``;

and ``b0 = ȳ − x̄ᵀβ``. :func:`centred_cross_products` forms ``ZᵀZ`` and ``Zᵀt`` with the
package's one weighted Gram (:func:`statlearning._core.linalg.gram`): without a copy of ``X``,
guarded against the cancellation of ``XᵀX − n x̄x̄ᵀ``.

Leave-one-out. The fit is linear, ``ŷ = H y``; in the weighted space
``H = √w√wᵀ/Σw + U diag(s²/(s² + alpha)) Uᵀ`` (the first term is the unpenalised intercept). The
leave-one-out residual is exactly ``e_i / (1 − h_ii)`` (delete-one identity of penalised least
squares), and generalised cross-validation replaces ``h_ii`` by its average ``tr H / n``.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from .compiled import single_blas_thread
from .linalg import gram, symmetric_eigh

__all__ = [
    "centred_cross_products",
    "centred_design",
    "ridge_cholesky",
    "ridge_dual",
    "ridge_loo_gcv",
    "ridge_spectral",
    "ridge_svd",
    "weighted_means",
]

#: Largest condition number (estimated from the Cholesky factor) accepted by ridge_cholesky.
COND_LIMIT = 1e10


def weighted_means(X, y, w=None) -> tuple[np.ndarray, float]:
    """``(x̄, ȳ)``: column means and mean response, weighted by ``w`` when given."""
    if w is None:
        return X.mean(axis=0), float(y.mean())
    total = w.sum()
    return (w @ X) / total, float(w @ y) / total


def centred_cross_products(
    X, y, x_mean=None, y_mean=0.0, sqrt_w=None, block_rows=None
) -> tuple[np.ndarray, np.ndarray]:
    """``(ZᵀZ, Zᵀt)`` for ``Z = √W (X − x̄)``, ``t = √W (y − ȳ)``, without copying ``X``.

    ``x_mean`` and ``y_mean`` are the weighted means (``x_mean=None``: no centring). The
    blocks of :func:`statlearning._core.linalg.gram` with ``y`` as the extra column (one
    product and its cancellation guard when unweighted, blocks of ``block_rows`` rows
    otherwise).
    """
    p = X.shape[1]
    G = gram(
        X, sqrt_weights=sqrt_w, center=x_mean, extra=y, center_is_mean=True,
        extra_center=None if x_mean is None and not y_mean else y_mean, block_rows=block_rows,
    )  # fmt: skip
    return G[:p, :p].copy(), G[:p, p].copy()


def centred_design(X, y, x_mean=None, y_mean=0.0, sqrt_w=None) -> tuple[np.ndarray, np.ndarray]:
    """``(Z, t)`` as new arrays: ``Z = √W (X − x̄)``, ``t = √W (y − ȳ)``."""
    Z = np.array(X, dtype=np.float64, order="C", copy=True)
    if x_mean is not None:
        Z -= x_mean
    t = np.asarray(y, dtype=np.float64) - y_mean
    if sqrt_w is not None:
        Z *= sqrt_w[:, None]
        t = t * sqrt_w
    return Z, t


def ridge_cholesky(G, b, alpha: float) -> np.ndarray:
    """Solve ``(G + alpha I) β = b`` by Cholesky; ``LinAlgError`` if not positive definite."""
    A = np.array(G, dtype=np.float64, order="F", copy=True)
    A[np.diag_indices_from(A)] += alpha
    if A.shape[0] == 0:
        return np.zeros(0)
    U, info = lapack.dpotrf(A, lower=0, clean=1, overwrite_a=1)
    if info != 0:
        raise np.linalg.LinAlgError("matrix is not positive definite")
    # reject ill-conditioned systems (condition number above about 1e10) rather than lose
    # more than about six digits: the caller then solves by SVD
    d = np.diag(U)
    if d.min() <= COND_LIMIT**-0.5 * d.max():
        raise np.linalg.LinAlgError("matrix is ill-conditioned")
    return linalg.cho_solve((U, False), b, check_finite=False)


def _thin_svd(Z):
    """LAPACK ``gesdd`` of ``Z``, on one BLAS thread below ``n p min(n, p)`` = 2²⁷ (on a busy
    two-core machine the threaded SVD of 1,000 × 10 took ~20 ms against 0.2 ms)."""
    n, p = Z.shape
    with single_blas_thread(n * p * min(n, p)):
        return linalg.svd(Z, full_matrices=False, check_finite=False, lapack_driver="gesdd")


def ridge_svd(Z, t, alpha: float, rcond: float | None = None) -> tuple[np.ndarray, int]:
    """Slopes from the thin SVD of ``Z``; singular values below ``rcond·s_max`` count as zero.

    With ``alpha = 0`` this is the minimum-norm least-squares solution. Returns
    ``(β, numerical rank)``.
    """
    U, s, Vt = _thin_svd(Z)
    if rcond is None:
        rcond = max(Z.shape) * np.finfo(np.float64).eps
    keep = s > rcond * (s[0] if s.size else 0.0)
    f = np.zeros_like(s)
    f[keep] = s[keep] / (s[keep] ** 2 + alpha)
    return Vt.T @ (f * (U.T @ t)), int(keep.sum())


def ridge_dual(Z, t, alpha: float) -> np.ndarray:
    """Slopes from the dual (kernel) form ``β = Zᵀ (ZZᵀ + alpha I)⁻¹ t``; needs ``alpha > 0``."""
    K = Z @ Z.T
    c = ridge_cholesky(K, t, alpha)
    return Z.T @ c


#: ``mode="auto"`` of :func:`ridge_spectral` takes the eigendecomposition of ``ZᵀZ`` when its
#: eigenvalues span at most this ratio (``κ(Z) ≤ 100``, the condition of
#: :data:`~statlearning._core.linalg.CHOLESKY_FOR_QR_COND`): squaring the condition then costs
#: about ``κ² p ε ≈ 2e-10`` of the smallest eigenvalue, and far less of the fit.
GRAM_SPECTRUM_RATIO = 1e4


#: Rows per block when ``U = Z V / s`` overwrites ``Z``.
_SPECTRUM_BLOCK_ROWS = 1 << 15


def _gram_spectrum(Z, overwrite_z=False):
    """``(U, s, V)`` of ``Z`` from the eigendecomposition of ``ZᵀZ`` (``U = Z V / s``), or
    ``None`` when its eigenvalues span more than :data:`GRAM_SPECTRUM_RATIO`.

    ``overwrite_z``: ``U`` is written over ``Z``, a block of rows at a time (no second
    ``n × p`` array: 10⁶ × 100 is 800 MB)."""
    lam, V = symmetric_eigh(gram(Z), check_finite=False)
    lam, V = lam[::-1], np.ascontiguousarray(V[:, ::-1])
    if lam.size == 0 or not lam[-1] * GRAM_SPECTRUM_RATIO >= lam[0] > 0:
        return None
    s = np.sqrt(lam)
    if not (overwrite_z and Z.flags.c_contiguous):
        U = Z @ V
        U /= s
        return U, s, V
    for start in range(0, Z.shape[0], _SPECTRUM_BLOCK_ROWS):
        block = Z[start : start + _SPECTRUM_BLOCK_ROWS]
        block[...] = block @ V
        block /= s
    return Z, s, V


def ridge_spectral(Z, mode: str = "svd", rcond: float | None = None, overwrite_z=False):
    """``(U, s, V)`` with ``Z = U diag(s) Vᵀ`` restricted to the numerically non-zero ``s``.

    ``mode="svd"``: LAPACK ``gesdd`` of ``Z`` (``V`` returned). ``mode="eigen"``: symmetric
    eigendecomposition of the ``n × n`` Gram ``ZZᵀ`` (cheaper when ``p > n``; ``V`` is returned
    as ``None`` and the slopes are recovered as ``β = Zᵀ U diag(1/(s²+α)) Uᵀ t``).
    ``mode="auto"``: with ``n ≥ p``, the eigendecomposition of the ``p × p`` Gram ``ZᵀZ`` when
    ``Z`` is well conditioned (:data:`GRAM_SPECTRUM_RATIO`; one Gram product and one product
    by ``V`` instead of the SVD: 100,000 × 100 in 0.06 s against 0.36, 10⁶ × 100 in 0.51 s
    against 4.3), else ``"svd"``; with ``n < p``, ``"eigen"``. ``overwrite_z``: the Gram
    route may write ``U`` over ``Z`` (the caller no longer needs ``Z`` when ``V`` is returned).
    """
    eps = np.finfo(np.float64).eps
    if rcond is None:
        rcond = max(Z.shape) * eps
    if mode == "auto":
        if Z.shape[0] < Z.shape[1]:
            mode = "eigen"
        else:
            found = _gram_spectrum(Z, overwrite_z)
            if found is not None:
                return found
            mode = "svd"
    if mode == "svd":
        U, s, Vt = _thin_svd(Z)
        keep = s > rcond * (s[0] if s.size else 0.0)
        return U[:, keep], s[keep], Vt[keep].T
    lam, U = symmetric_eigh(Z @ Z.T, check_finite=False)
    lam = lam[::-1]
    U = U[:, ::-1]
    top = lam[0] if lam.size else 0.0
    keep = lam > rcond * top
    return U[:, keep], np.sqrt(lam[keep]), None


#: Entries of ``U`` per block of rows in :func:`ridge_loo_gcv` (1 MiB).
_LOO_BLOCK_ENTRIES = 1 << 17


def ridge_loo_gcv(U, s, t, sqrt_w, alphas, fit_intercept: bool, n_obs: int, Ut=None):
    """Leave-one-out and GCV criteria of ridge for every ``alpha`` (see the module docstring).

    Parameters
    ----------
    U, s : from :func:`ridge_spectral` of ``Z``
    t : ndarray of shape (n,)
        ``√W (y − ȳ)``.
    sqrt_w : ndarray of shape (n,) or None
    alphas : sequence of float
    fit_intercept : bool
    n_obs : int
        Number of observations with positive weight (``n`` in ``tr H / n``).
    Ut : ndarray of shape (r,), optional
        ``Uᵀt`` when the caller has it already (one pass over ``U`` fewer).

    Returns
    -------
    loo_sq : ndarray of shape (n, n_alphas)
        ``w_i · e_(i)²``: squared leave-one-out residuals in the weighted space (``0`` for
        rows with zero weight).
    gcv : ndarray of shape (n_alphas,)
        ``(RSS_w / Σw) / (1 − tr H / n)²``.
    loo_resid_w : ndarray of shape (n, n_alphas)
        ``√w_i · e_(i)`` (signed).
    """
    n = t.shape[0]
    w = np.ones(n) if sqrt_w is None else sqrt_w**2
    total = w.sum()
    base = w / total if fit_intercept else np.zeros(n)
    alphas = np.asarray(alphas, dtype=np.float64)
    if Ut is None:
        Ut = U.T @ t
    s2 = (s * s)[:, None]
    F = s2 / (s2 + alphas[None, :])  # the shrinkage of every direction, one column per alpha
    FU = F * Ut[:, None]
    trace = (1.0 if fit_intercept else 0.0) + F.sum(axis=0)
    loo = np.empty((n, alphas.size))
    rss = np.zeros(alphas.size)
    # every alpha from one read of U, a block of rows at a time (in cache): per alpha, two
    # matrix-vector products over all of U read it twice (14 reads of 800 MB at 10⁶ × 100)
    step = max(1024, _LOO_BLOCK_ENTRIES // max(U.shape[1], 1))
    with single_blas_thread():  # products of a few columns: threads cost more than they save
        for start in range(0, n, step):
            rows = slice(start, start + step)
            Ub = U[rows]
            resid = t[rows, None] - Ub @ FU  # √w e
            h = base[rows, None] + (Ub * Ub) @ F
            rss += np.einsum("ij,ij->j", resid, resid)
            with np.errstate(divide="ignore", invalid="ignore"):
                loo[rows] = resid / (1.0 - h)
    with np.errstate(divide="ignore", invalid="ignore"):
        gcv = (rss / total) / (1.0 - trace / n_obs) ** 2
    return loo * loo, gcv, loo
