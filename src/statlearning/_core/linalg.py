"""Least-squares factorisations with R's treatment of rank deficiency.

R's ``lm`` factorises the design with LINPACK's ``dqrdc2``: Householder QR with *limited* column
pivoting. Columns are visited left to right; a column whose norm, after removing its projection on
the columns already accepted, falls below ``tol`` times its original norm (``tol = 1e-7``) is
*aliased*: moved to the end and given an ``NA`` coefficient. Accepted columns keep their order.

:func:`qr_least_squares` reproduces that decision exactly. Its fast path is one blocked LAPACK
``geqrf`` on the augmented matrix ``[A | y]``: when no column is aliased, an unpivoted QR makes the
same decisions as ``dqrdc2`` (``|R_jj|`` is the norm of the reduced column ``j``). When some column
is aliased (or ``k > n``) it falls back to a NumPy transcription of the ``dqrdc2`` strategy.

:func:`cholesky_factor` makes the same decision on the Gram matrix ``AᵀA`` (the reduced squared
norm of column ``j`` is the Schur complement ``d_j``; aliased if ``d_j < tol² G_jj``), for the
normal-equations solver. :func:`svd_least_squares` gives the minimum-norm solution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

R_TOL = 1e-7  # R's lm() default tolerance for aliasing (lm.fit's `tol`)


@dataclass
class Factorisation:
    """Result of a least-squares factorisation of a design ``A`` (k columns).

    Attributes
    ----------
    coef : ndarray of shape (k,)
        Solution, ``NaN`` at aliased columns.
    kept : ndarray of bool, shape (k,)
        Columns that are not aliased.
    unscaled_cov : ndarray of shape (rank, rank)
        ``(A_keptᵀ A_kept)⁻¹`` for the kept columns (for the SVD solver: the pseudo-inverse).
    rank : int
        Number of kept columns (numerical rank for the SVD solver).
    """

    coef: np.ndarray
    kept: np.ndarray
    unscaled_cov: np.ndarray
    rank: int


def augmented_design(X, y, sqrt_w=None, fit_intercept=True) -> np.ndarray:
    """Return ``[A | y]`` as a new Fortran-ordered float64 array, rows scaled by ``sqrt_w``.

    ``A`` is ``X`` with a leading column of ones when ``fit_intercept``. One allocation, no
    intermediate copies; ``X`` and ``y`` are not modified.
    """
    n, p = X.shape
    off = 1 if fit_intercept else 0
    M = np.empty((n, p + off + 1), dtype=np.float64, order="F")
    if fit_intercept:
        M[:, 0] = 1.0 if sqrt_w is None else sqrt_w
    if sqrt_w is None:
        M[:, off : off + p] = X
        M[:, -1] = y
    else:
        np.multiply(X, sqrt_w[:, None], out=M[:, off : off + p])
        np.multiply(y, sqrt_w, out=M[:, -1])
    return M


def _column_norms(A: np.ndarray) -> np.ndarray:
    """Euclidean norm of every column without a temporary copy of ``A``."""
    return np.sqrt(np.einsum("ij,ij->j", A, A))


def _inverse_from_r(R: np.ndarray) -> np.ndarray:
    """``(RᵀR)⁻¹ = R⁻¹R⁻ᵀ`` for upper-triangular ``R``."""
    if R.shape[0] == 0:
        return np.zeros((0, 0))
    Rinv, info = lapack.dtrtri(R, lower=0)
    if info != 0:  # exactly singular: cannot happen for kept columns, but never hide it
        raise np.linalg.LinAlgError("singular triangular factor")
    Rinv = np.triu(Rinv)
    return Rinv @ Rinv.T


def _solve_upper(R, b):
    if R.shape[0] == 0:
        return np.zeros(0)
    return linalg.solve_triangular(R, b, lower=False, check_finite=False)


def _qr_unpivoted(M: np.ndarray, ref: np.ndarray, tol: float) -> Factorisation | None:
    """Blocked LAPACK QR of ``M = [A | y]`` (overwritten); ``None`` if some column is aliased.

    With no aliased column, an unpivoted QR makes exactly ``dqrdc2``'s decisions, because
    ``|R_jj|`` is then the norm of column ``j`` reduced by the accepted columns before it.
    """
    k = M.shape[1] - 1
    qr, _tau, _work, info = lapack.dgeqrf(M, overwrite_a=True)
    if info != 0:  # pragma: no cover - LAPACK argument error
        raise np.linalg.LinAlgError(f"dgeqrf failed with info={info}")
    if np.any(np.abs(np.diagonal(qr)[:k]) < tol * ref):
        return None
    R = np.triu(qr[:k, :k])
    coef = _solve_upper(R, qr[:k, k])
    return Factorisation(coef, np.ones(k, bool), _inverse_from_r(R), k)


def qr_least_squares(X, y, sqrt_w=None, fit_intercept=True, tol=R_TOL) -> Factorisation:
    """R-compatible QR least squares of ``y`` on ``[1, X]`` (rows weighted by ``sqrt_w``)."""
    M = augmented_design(X, y, sqrt_w, fit_intercept)
    n, k = M.shape[0], M.shape[1] - 1
    norms = _column_norms(M[:, :k])
    ref = np.where(norms == 0.0, 1.0, norms)  # dqrdc2 compares a zero column with 1
    if 0 < k <= n:
        result = _qr_unpivoted(M, ref, tol)
        if result is not None:
            return result
        M = augmented_design(X, y, sqrt_w, fit_intercept)  # the fast path consumed the buffer
    return _dqrdc2(M, k, ref, tol)


def _dqrdc2(M: np.ndarray, k: int, ref_norms: np.ndarray, tol: float) -> Factorisation:
    """Householder QR with R's limited column pivoting; the last column of ``M`` is ``y``.

    A NumPy transcription of the strategy of R's ``dqrdc2`` (vectorised over columns), used
    only when some column is aliased or ``k > n``.
    """
    n = M.shape[0]
    cur = _column_norms(M[:, :k])  # norms of the reduced columns (qraux)
    work1 = cur.copy()
    ref = ref_norms.copy()
    order = np.arange(k)
    active = k  # columns [active:k) have been moved to the end as aliased
    for l in range(min(n, k)):
        while l < active and cur[l] < ref[l] * tol:
            # move column l to the end (keep the relative order of everything else)
            perm = np.r_[np.arange(l), np.arange(l + 1, k), l, k]
            M[:, :] = M[:, perm]
            order, cur, work1, ref = order[perm[:k]], cur[perm[:k]], work1[perm[:k]], ref[perm[:k]]
            active -= 1
        if l >= active or l == n - 1:
            continue
        v = M[l:, l]
        nrm = np.linalg.norm(v)
        if nrm == 0.0:
            continue
        if v[0] != 0.0:
            nrm = np.copysign(nrm, v[0])
        v /= nrm
        v[0] += 1.0
        rest = M[l:, l + 1 :]
        t = -(v @ rest) / v[0]
        rest += np.outer(v, t)
        # downdate the reduced norms of the remaining candidate columns
        cols = np.arange(l + 1, k)
        nz = cur[cols] != 0.0
        ratio = np.zeros_like(cur[cols])
        ratio[nz] = np.maximum(1.0 - (np.abs(M[l, cols][nz]) / cur[cols][nz]) ** 2, 0.0)
        small = nz & (ratio < 1e-6)
        upd = nz & ~small
        cur[cols[upd]] *= np.sqrt(ratio[upd])
        if small.any():
            recompute = np.linalg.norm(M[l + 1 :, cols[small]], axis=0)
            cur[cols[small]] = recompute
            work1[cols[small]] = recompute
        M[l, l] = -nrm
    rank = min(active, n)
    R = np.triu(M[:rank, :rank])
    kept_idx = order[:rank]
    coef = np.full(k, np.nan)
    coef_kept = _solve_upper(R, M[:rank, k])
    # kept columns keep their original relative order, so kept_idx is increasing
    coef[kept_idx] = coef_kept
    kept = np.zeros(k, bool)
    kept[kept_idx] = True
    return Factorisation(coef, kept, _inverse_from_r(R), rank)


def gram(A: np.ndarray) -> np.ndarray:
    """``AᵀA`` with a symmetric rank-k update (half the flops of a general product)."""
    from scipy.linalg import blas

    A = np.asarray(A, dtype=np.float64)
    if A.flags.f_contiguous:
        G = blas.dsyrk(1.0, A, trans=1)
    else:  # C-contiguous A is the Fortran layout of Aᵀ: syrk on it without a copy
        G = blas.dsyrk(1.0, np.ascontiguousarray(A).T, trans=0)
    return np.triu(G) + np.triu(G, 1).T


def cholesky_factor(G: np.ndarray, b: np.ndarray, tol: float = R_TOL) -> Factorisation:
    """Solve the normal equations ``G coef = b`` (``G = AᵀA``) with R's aliasing rule.

    Column ``j`` is aliased when its Schur complement ``d_j`` (the squared norm of column ``j``
    after projecting out the kept earlier columns) is below ``tol² · G_jj``.
    """
    k = G.shape[0]
    ref = np.where(np.diag(G) > 0, np.diag(G), 1.0)
    U, info = lapack.dpotrf(G, lower=0, clean=1)
    if info == 0 and np.all(np.diag(U) ** 2 >= tol**2 * ref):
        kept = np.ones(k, bool)
    else:
        kept = _sequential_kept(G, ref, tol)
        U, info = lapack.dpotrf(G[np.ix_(kept, kept)], lower=0, clean=1)
        if info != 0:  # pragma: no cover - kept columns are positive definite by construction
            raise np.linalg.LinAlgError("Cholesky factorisation failed on the kept columns")
    U = np.triu(U)
    z = linalg.solve_triangular(U, b[kept], trans="T", lower=False, check_finite=False)
    coef = np.full(k, np.nan)
    coef[kept] = _solve_upper(U, z)
    return Factorisation(coef, kept, _inverse_from_r(U), int(kept.sum()))


def _sequential_kept(G, ref, tol) -> np.ndarray:
    """Left-to-right scan of ``G`` deciding which columns are linearly independent."""
    k = G.shape[0]
    kept = np.zeros(k, bool)
    L = np.zeros((k, k))  # lower Cholesky factor of the kept block, grown row by row
    r = 0
    idx = []
    for j in range(k):
        if r:
            z = linalg.solve_triangular(L[:r, :r], G[idx, j], lower=True, check_finite=False)
            d = G[j, j] - z @ z
        else:
            z = np.zeros(0)
            d = G[j, j]
        if d >= tol**2 * ref[j] and d > 0:
            L[r, :r] = z
            L[r, r] = np.sqrt(d)
            idx.append(j)
            kept[j] = True
            r += 1
    return kept


def svd_least_squares(M: np.ndarray, rcond: float | None = None) -> Factorisation:
    """Minimum-norm least squares through the SVD (LAPACK ``gesdd``) of ``M = [A | y]``.

    ``M`` (Fortran order, float64) may be overwritten. Tall inputs are first reduced by a QR
    factorisation so that the SVD is of a ``k × k`` matrix. Singular values below
    ``rcond · s_max`` (default ``max(n, k) · eps``) count as zero; ``unscaled_cov`` is the
    pseudo-inverse ``V S⁻² Vᵀ``.
    """
    n, k = M.shape[0], M.shape[1] - 1
    if rcond is None:
        rcond = max(n, k) * np.finfo(np.float64).eps
    if n >= 2 * k and k > 0:
        Rfull = linalg.qr(M, mode="r", overwrite_a=True, check_finite=False)[0]
        B, rhs = np.triu(Rfull[:k, :k]), Rfull[:k, k]
    else:
        B, rhs = M[:, :k], M[:, k]
    U, s, Vt = linalg.svd(B, full_matrices=False, check_finite=False, lapack_driver="gesdd")
    cutoff = rcond * (s[0] if s.size else 0.0)
    keep = s > cutoff
    inv_s = np.zeros_like(s)
    inv_s[keep] = 1.0 / s[keep]
    coef = Vt.T @ (inv_s * (U.T @ rhs))
    V = Vt.T * inv_s
    return Factorisation(coef, np.ones(k, bool), V @ V.T, int(keep.sum()))


def weighted_gram(X, y, sqrt_w=None, fit_intercept=True) -> tuple[np.ndarray, np.ndarray]:
    """``(AᵀA, Aᵀy)`` for the design ``A = diag(sqrt_w) [1, X]``.

    Unweighted inputs need no copy of ``X``: the intercept row and column of the Gram matrix are
    the column sums.
    """
    if sqrt_w is not None:
        M = augmented_design(X, y, sqrt_w, fit_intercept)
        A, yw = M[:, :-1], M[:, -1]
        return gram(A), A.T @ yw
    XtX = gram(X) if X.shape[1] else np.zeros((0, 0))
    Xty = X.T @ y
    if not fit_intercept:
        return XtX, Xty
    p = X.shape[1]
    G = np.empty((p + 1, p + 1))
    G[0, 0] = X.shape[0]
    G[0, 1:] = G[1:, 0] = X.sum(axis=0)
    G[1:, 1:] = XtX
    return G, np.concatenate([[y.sum()], Xty])
