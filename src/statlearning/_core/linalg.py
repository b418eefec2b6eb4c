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

:func:`gram` is the one weighted Gram matrix of the package: ``MᵀM`` for a design with an
optional intercept column, centred columns, extra columns (a response) and row weights, formed
without copying the data (one product with a cancellation guard, or blocks of rows). The
least-squares, ridge, GLM, robust, coordinate-descent and PCA solvers all build their normal
equations with it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from .compiled import CORES, PRODUCT_THREADS_FROM, core_is_free, single_blas_thread

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


def triangular_factor_in_place(M: np.ndarray) -> np.ndarray:
    """The ``min(n, k) × k`` upper-triangular factor of the QR decomposition of ``M``,
    overwriting ``M`` (a Fortran-ordered float64 array of shape ``(n, k)``).

    LAPACK's ``dgeqrf`` in place: NumPy's ``qr`` would copy ``M`` again (a block of
    500,000 × 20 then needs 170 MB instead of 85); the same routine, the same ``R``.
    """
    if M.shape[0] == 0:
        return np.zeros((0, M.shape[1]))
    lwork = int(lapack.dgeqrf_lwork(*M.shape)[0])
    qr, _, _, info = lapack.dgeqrf(M, lwork=max(lwork, 1), overwrite_a=1)
    if info != 0:  # pragma: no cover - LAPACK reports an illegal argument only
        raise np.linalg.LinAlgError(f"dgeqrf failed (info = {info})")
    return np.triu(qr[: min(M.shape)])


def _column_norms(A: np.ndarray) -> np.ndarray:
    """Euclidean norm of every column without a temporary copy of ``A``."""
    return np.sqrt(np.einsum("ij,ij->j", A, A))


def triangular_inverse(T: np.ndarray, lower: bool) -> np.ndarray:
    """``T⁻¹`` of a triangular matrix by LAPACK's ``trtri`` (the other triangle zero).

    Rather than a triangular solve against the identity: in a loop that alternates NumPy's
    matrix products with SciPy's calls, the solve's threaded BLAS meets NumPy's BLAS threads
    still spinning (two OpenBLAS libraries in one process) and a 100 × 100 inverse took 3 ms,
    against 0.1 ms for ``trtri``. ``np.linalg.LinAlgError`` if ``T`` is exactly singular.
    """
    if T.shape[0] == 0:
        return np.zeros((0, 0))
    inverse, info = lapack.dtrtri(T, lower=int(lower))
    if info != 0:  # exactly singular: never hide it
        raise np.linalg.LinAlgError("singular triangular factor")
    return np.tril(inverse) if lower else np.triu(inverse)


def inverse_from_r(R: np.ndarray) -> np.ndarray:
    """``(RᵀR)⁻¹ = R⁻¹R⁻ᵀ`` for upper-triangular ``R``."""
    Rinv = triangular_inverse(R, lower=False)
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
    diag = np.abs(np.diagonal(qr)[:k])
    if np.any((diag < tol * ref) | (diag == 0.0)):  # an exact zero aliases even at tol = 0
        return None
    R = np.triu(qr[:k, :k])
    coef = _solve_upper(R, qr[:k, k])
    return Factorisation(coef, np.ones(k, bool), inverse_from_r(R), k)


def qr_least_squares(X, y, sqrt_w=None, fit_intercept=True, tol=R_TOL) -> Factorisation:
    """R-compatible QR least squares of ``y`` on ``[1, X]`` (rows weighted by ``sqrt_w``).

    On one BLAS thread below ``n k²`` = 2²⁷ (:func:`single_blas_thread`'s rule): LAPACK's
    threaded QR of a 1,000 × 101 design took 0.9–1.6 s on a busy two-core machine against
    2–10 ms on one thread.
    """
    with single_blas_thread(np.shape(X)[0] * (np.shape(X)[1] + 2) ** 2):
        return _qr_least_squares(X, y, sqrt_w, fit_intercept, tol)


def _qr_least_squares(X, y, sqrt_w, fit_intercept, tol) -> Factorisation:
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
        while l < active and (cur[l] < ref[l] * tol or cur[l] == 0.0):
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
    return Factorisation(coef, kept, inverse_from_r(R), rank)


#: One product ``XᵀX − n x̄x̄ᵀ`` centres the Gram matrix only when every diagonal entry keeps at
#: least this fraction of its uncentred value (the subtraction loses ``log10(raw / centred)``
#: digits: at most four); otherwise the rows are centred block by block before the product.
CANCELLATION_LIMIT = 1e-4
#: Rows per block of the blocked Gram (fewer for wide matrices: the buffer is about 32 MiB at most).
BLOCK_ROWS = 4096
#: The blocked Gram splits its rows between the cores from this cost, ``n k (k + 64)`` (its
#: multiply-adds, and a pass over the rows that costs about 64 of them per element read):
#: 100,000 × 102 and 10,000 × 302 are split, 40,000 × 102 and 1,000,000 × 12 are not. A
#: threaded BLAS call just before leaves a worker spinning for about 0.1 s, and the parts then
#: share one core: smaller Gram matrices lose more in that case than they gain.
GRAM_SPLIT_FROM = 2**30


def gram(
    X,
    *,
    sqrt_weights=None,
    center=None,
    intercept=False,
    extra=None,
    extra_center=None,
    center_is_mean=False,
    block_rows=None,
) -> np.ndarray:
    """The weighted, centred Gram matrix ``MᵀM`` of the columns of a design, without copying it.

    ``M = diag(s) [1 | X − 1cᵀ | E − 1c_Eᵀ]``: an optional leading column of ones
    (``intercept``), the columns of ``X`` shifted by ``center`` and extra columns ``E`` (a
    response, a working response) shifted by ``extra_center``, every row scaled by
    ``s = sqrt_weights``. The blocks of the result are what the least-squares solvers need:
    ``AᵀWA`` (with ``A = [1, X − c]``) in the leading ``k × k`` block and ``AᵀWy`` next to it.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    sqrt_weights : ndarray of shape (n,), optional
        Square roots of the row weights (default: unweighted).
    center : ndarray of shape (p,), optional
        Subtracted from every row of ``X`` (default: no centring).
    intercept : bool, default=False
        Put a column of ones (scaled by ``s``) first.
    extra : ndarray of shape (n,) or (n, m), optional
        Columns appended after ``X``.
    extra_center : float or ndarray of shape (m,), optional
        Subtracted from the extra columns.
    center_is_mean : bool, default=False
        The centres given are the column means (weighted by ``sqrt_weights²`` when
        weighted): the column sums are then ``n`` times them, which saves a pass over ``X``.
    block_rows : int, optional
        Rows per block of the blocked product (default :data:`BLOCK_ROWS`, fewer when ``M`` is
        wide); passing it forces the blocked product.

    Returns
    -------
    ndarray of shape (k, k), symmetric
        ``k = intercept + p + m``.

    Notes
    -----
    Unweighted, with no ``block_rows``: one BLAS product per block of ``M`` (``XᵀX``, ``XᵀE``,
    ``EᵀE``; NumPy calls ``dsyrk`` for ``XᵀX``), centred afterwards with the column sums
    ``S``: ``(X − 1cᵀ)ᵀ(X − 1cᵀ) = XᵀX − c Sᵀ − S cᵀ + n c cᵀ`` (``= XᵀX − n c cᵀ`` at the
    means). That subtraction cancels
    digits when a column's shift is large against its spread, so when any diagonal entry
    falls below :data:`CANCELLATION_LIMIT` times its uncentred value (the one cancellation
    guard), and always when weighted, the matrix is accumulated over blocks of rows instead:
    each block of ``M`` is formed (shifted and scaled) in a small buffer that stays in cache
    and added as ``BᵀB``. NumPy's ``BᵀB`` was measured against SciPy's ``dsyrk`` (both call
    their own OpenBLAS): it is as fast or faster from 50 to 300 columns and 2,000 to
    500,000 rows, and returns both triangles.
    """
    X = np.asarray(X, dtype=np.float64)
    p = X.shape[1]
    E = None
    if extra is not None:
        E = np.asarray(extra, dtype=np.float64)
        E = E[:, None] if E.ndim == 1 else E
    m = 0 if E is None else E.shape[1]
    c = None if center is None else np.broadcast_to(np.asarray(center, dtype=np.float64), (p,))
    cE = None
    if E is not None and extra_center is not None:
        cE = np.broadcast_to(np.asarray(extra_center, dtype=np.float64), (m,))
    k = int(bool(intercept)) + p + m
    # one BLAS thread below 2**27 multiply-adds on a busy machine (single_blas_thread's rule: the
    # threaded XᵀX of 1,000 × 100 took ~12 ms against ~1 ms on one thread), from 2**23 when a
    # core is free
    with single_blas_thread(X.shape[0] * k * k, quiet_above=PRODUCT_THREADS_FROM):
        if sqrt_weights is None and block_rows is None:
            G = _gram_one_product(X, E, c, cE, bool(intercept), bool(center_is_mean))
            if G is not None:
                return G
        return _gram_blocked(X, E, c, cE, sqrt_weights, bool(intercept), block_rows)


def _gram_one_product(X, E, c, cE, intercept, at_means):
    """Unweighted ``MᵀM`` from the raw products, or ``None`` when centring would cancel."""
    n, p = X.shape
    m = 0 if E is None else E.shape[1]
    off = int(intercept)
    k = off + p + m
    G = np.empty((k, k))
    xs = slice(off, off + p)
    es = slice(off + p, k)
    G[xs, xs] = X.T @ X if p else np.zeros((0, 0))
    if m:
        G[xs, es] = X.T @ E
        G[es, xs] = G[xs, es].T
        G[es, es] = E.T @ E
    shift = np.zeros(p + m)
    if c is not None:
        shift[:p] = c
    if cE is not None:
        shift[p:] = cE
    if not intercept and not shift.any():
        return G
    # column sums: n times the centres when they are the means (no pass over X)
    sums = np.concatenate([
        n * shift[:p] if at_means and c is not None else X.sum(axis=0),
        n * shift[p:] if at_means and cE is not None else (E.sum(axis=0) if m else []),
    ])  # fmt: skip
    if shift.any():
        raw_diag = np.diag(G)[off:].copy()
        C = G[off:, off:]
        C -= np.outer(shift, sums)
        C -= np.outer(sums, shift)
        C += n * np.outer(shift, shift)
        if not np.all(np.diag(C) >= CANCELLATION_LIMIT * raw_diag):
            return None
        sums = sums - n * shift
    if intercept:
        G[0, 0] = n
        G[0, 1:] = G[1:, 0] = sums
    return G


def _gram_blocked(X, E, c, cE, sqrt_w, intercept, block_rows):
    """``MᵀM`` accumulated over row blocks formed in a small buffer.

    From the cost :data:`GRAM_SPLIT_FROM` on, the rows are cut into one contiguous part per
    core and the parts' sums are added in order, so the result does not depend on how they
    ran: side by side, each on one BLAS thread, while a core is free (:func:`core_is_free`),
    one after the other otherwise. A threaded BLAS synchronises its workers on every block
    and gains little here (the weighted Gram of 100,000 × 102: 26 ms on two BLAS threads,
    36 ms on one, 18.5 ms as two parts side by side).
    """
    n, p = X.shape
    m = 0 if E is None else E.shape[1]
    k = int(intercept) + p + m
    block_rows = _block_rows(k) if block_rows is None else block_rows
    parts = gram_parts(n, k, block_rows)
    if parts < 2:
        return _gram_rows(X, E, c, cE, sqrt_w, intercept, block_rows, 0, n)
    edges = np.linspace(0, n, parts + 1).astype(int)
    bounds = itertools.pairwise(edges)
    args = [(X, E, c, cE, sqrt_w, intercept, block_rows, a, b) for a, b in bounds]
    if core_is_free():
        with single_blas_thread():
            sums = list(_gram_pool().map(lambda a: _gram_rows(*a), args))
    else:
        sums = [_gram_rows(*a) for a in args]
    G = sums[0]
    for other in sums[1:]:
        G += other
    return G


def gram_parts(n: int, k: int, block_rows: int | None = None) -> int:
    """Into how many parts :func:`_gram_blocked` cuts ``n`` rows of ``k`` columns (1: none).

    A caller that computes such Gram matrices in a loop (IRLS) runs the loop on one BLAS
    thread when this exceeds 1: a threaded product or matrix–vector product between two Gram
    matrices leaves BLAS's workers spinning, and they took the cores from the parts (19 →
    38 ms for 100,000 × 102).
    """
    if n * k * (k + 64) < GRAM_SPLIT_FROM:
        return 1
    return max(1, min(CORES, n // (_block_rows(k) if block_rows is None else block_rows)))


def one_blas_thread_for_gram_parts(n: int, k: int, applies: bool = True):
    """One BLAS thread for a whole computation on weighted Gram matrices of ``n`` rows and
    ``k`` columns when they run in parts (:func:`gram_parts`), else no limit.

    A fit built on such Gram matrices (IRLS) is faster on one BLAS thread from end to end: a
    single threaded product anywhere in it, or in the fit before it, leaves BLAS's workers
    spinning for about 0.1 s on the cores the parts need. Binary logistic fits against the
    unsplit Gram on BLAS's threads (interleaved): 100,000 × 100 0.87, 200,000 × 50 0.94,
    40,000 × 150 0.28, 1,000,000 × 30 0.88; gamma GLM 1,000,000 × 30 0.76.
    """
    if applies and gram_parts(n, k) > 1:
        return single_blas_thread()
    return contextlib.nullcontext()


def _block_rows(k: int) -> int:
    """Rows per block of ``k`` columns: :data:`BLOCK_ROWS`, fewer when wide (32 MiB at most)."""
    return int(max(64, min(BLOCK_ROWS, 2**22 // max(k, 1))))


def _gram_rows(X, E, c, cE, sqrt_w, intercept, block_rows, start, stop):
    """``MᵀM`` of rows ``start:stop`` (:func:`_gram_blocked`)."""
    p = X.shape[1]
    m = 0 if E is None else E.shape[1]
    off = int(intercept)
    k = off + p + m
    buf = np.empty((max(min(block_rows, stop - start), 0), k))
    G = np.zeros((k, k))
    for a in range(start, stop, block_rows):
        b = min(stop, a + block_rows)
        B = buf[: b - a]
        if off:
            B[:, 0] = 1.0 if sqrt_w is None else sqrt_w[a:b]
        if c is None:
            B[:, off : off + p] = X[a:b]
        else:
            np.subtract(X[a:b], c, out=B[:, off : off + p])
        if m:
            if cE is None:
                B[:, off + p :] = E[a:b]
            else:
                np.subtract(E[a:b], cE, out=B[:, off + p :])
        if sqrt_w is not None:
            B[:, off:] *= sqrt_w[a:b, None]
        G += B.T @ B
    return G


@functools.cache
def _gram_pool() -> ThreadPoolExecutor:
    """The threads of :func:`_gram_blocked`'s parts (NumPy releases the GIL in BLAS and ufuncs).

    A forked child starts without the parent's threads, so it makes a pool of its own (an
    inherited executor would count the parent's idle threads and never start one).
    """
    return ThreadPoolExecutor(CORES, thread_name_prefix="statlearning-gram")


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_gram_pool.cache_clear)


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
        if info != 0:  # only with tol = 0: nearly dependent columns are then all kept
            raise ValueError(
                "the design is numerically singular and rank_tol=0 aliases only exactly "
                "dependent columns; give rank_tol > 0 (R's default is 1e-7)"
            )
    U = np.triu(U)
    z = linalg.solve_triangular(U, b[kept], trans="T", lower=False, check_finite=False)
    coef = np.full(k, np.nan)
    coef[kept] = _solve_upper(U, z)
    return Factorisation(coef, kept, inverse_from_r(U), int(kept.sum()))


#: A Cholesky factor ``U`` of ``AᵀWA`` stands for R's QR of ``√W A`` when ``κ₂`` of ``U`` with
#: unit column norms (that of ``√W A`` with unit column norms) stays below this: the normal
#: equations then lose at most about ``κ² ε ≈ 2e-12`` relative to the QR solution (measured
#: agreement: 1e-13 and better), and no column can be aliased.
CHOLESKY_FOR_QR_COND = 1e2


def cholesky_stands_for_qr(U, rank_tol) -> bool:
    """Whether the Cholesky factor ``U`` of ``AᵀWA`` may stand for R's QR of ``√W A``:
    ``κ₂`` of ``U`` with unit column norms below :data:`CHOLESKY_FOR_QR_COND`, and far enough
    from ``rank_tol`` that the QR could alias no column.

    LAPACK's ``dtrcon`` estimate of ``κ₁`` decides first (O(k²)): ``rcond₁ > 1/COND`` (with
    ``rcond₁/√k`` clear of ``rank_tol``) accepts. ``κ₁`` may exceed ``κ₂`` by a factor up to
    ``k`` (a well-conditioned design of 100 columns with concentrated weights: ``κ₁ ≈ 655``,
    ``κ₂ ≈ 18``), so where the estimate alone cannot decide, the singular values of ``U``
    (O(k³), below the cost of the QR they may save) do: ``σ_min > σ_max/COND`` and
    ``σ_min > 10 rank_tol``. Every column's reduced norm keeps at least ``σ_min`` of its norm,
    so the QR, which aliases below ``rank_tol``, would keep every column.
    """
    if U is None:
        return False
    norms = np.sqrt(np.einsum("ij,ij->j", U, U))  # column norms of A√W, the scale of U
    if not np.all(norms > 0):
        return False
    scaled = U / norms
    rcond, info = lapack.dtrcon(scaled, norm="1", uplo="U", diag="N")
    if info != 0:
        return False
    k = U.shape[0]
    if rcond > max(1.0 / CHOLESKY_FOR_QR_COND, 10.0 * np.sqrt(k) * rank_tol):
        return True
    if k * rcond <= 1.0 / CHOLESKY_FOR_QR_COND:  # κ₂ ≥ κ₁/k ≥ COND: the QR is needed
        return False
    _, s, _, info = lapack.dgesdd(scaled, compute_uv=0)
    return bool(info == 0 and s[-1] > max(s[0] / CHOLESKY_FOR_QR_COND, 10.0 * rank_tol))


def least_squares_columns(X, Y, sqrt_w=None, fit_intercept=True, tol=R_TOL):
    """Least-squares coefficients of every column of ``Y`` on ``[1, X]`` (rows weighted by
    ``sqrt_w``), with :func:`qr_least_squares`'s answers (R's aliasing rule).

    One weighted Gram matrix of ``[A | Y]`` (:func:`gram`) and one Cholesky factorisation
    serve every column when the factor may stand for the QR (:func:`cholesky_stands_for_qr`:
    the answers then agree with the QR's to about 1e-12 relative, at half the QR's operations
    and one pass for all columns); otherwise one :func:`qr_least_squares` per column.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    Y : ndarray of shape (n,) or (n, m)
    sqrt_w : ndarray of shape (n,), optional
    fit_intercept : bool, default=True
    tol : float, default=R_TOL

    Returns
    -------
    coef : ndarray of shape (k, m)
        ``k = fit_intercept + p``; ``NaN`` rows for aliased columns.
    kept : ndarray of bool, shape (k,)
    """
    Y = np.asarray(Y, dtype=np.float64)
    Y = Y[:, None] if Y.ndim == 1 else Y
    m = Y.shape[1]
    k = int(bool(fit_intercept)) + X.shape[1]
    if X.shape[0] > k:
        G = gram(X, sqrt_weights=sqrt_w, intercept=fit_intercept, extra=Y)
        U, info = lapack.dpotrf(G[:k, :k], lower=0, clean=1)
        if info == 0 and cholesky_stands_for_qr(U, tol):
            coef = linalg.cho_solve((U, False), G[:k, k:], check_finite=False)
            return coef, np.ones(k, bool)
    facs = [qr_least_squares(X, Y[:, j], sqrt_w, fit_intercept, tol) for j in range(m)]
    return np.column_stack([f.coef for f in facs]), facs[0].kept


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


#: :func:`symmetric_eigh` runs on one BLAS thread up to p³ of this (p ≈ 320): LAPACK's symmetric
#: eigensolvers on small matrices are several times slower on two BLAS threads than on one, and
#: on a shared machine far slower (measured: p = 100, 4 ms against 0.25 ms; medians of 7 with the
#: other core busy: p = 100, 248 ms against 0.7 ms; the top eigenvector at p = 300, 10 ms against
#: 1.9 ms); from p ≈ 400 on, the threads pay.
EIGH_ONE_THREAD_FLOPS = 2**25


def symmetric_eigh(A, b=None, **kwargs):
    """``scipy.linalg.eigh(A, b, **kwargs)``, on one BLAS thread when ``A`` is small.

    Every dense symmetric (or symmetric-definite) eigenproblem of the package goes through
    here, so that the thread rule (:data:`EIGH_ONE_THREAD_FLOPS`) holds everywhere.

    Parameters
    ----------
    A : ndarray of shape (p, p)
        Symmetric.
    b : ndarray of shape (p, p) or None, default=None
        Symmetric positive definite: the generalised problem ``A v = λ b v``.
    **kwargs
        Passed to :func:`scipy.linalg.eigh` (``subset_by_index``, ``eigvals_only``, ``driver``,
        ``overwrite_a``, ``check_finite``, ...). ``driver="evd"`` is LAPACK's ``syevd``, the
        routine of :func:`numpy.linalg.eigh`.

    Returns
    -------
    The result of :func:`scipy.linalg.eigh`.
    """
    with single_blas_thread(A.shape[0] ** 3, above=EIGH_ONE_THREAD_FLOPS):
        return linalg.eigh(A, b, **kwargs)


def weighted_gram(X, y, sqrt_w=None, fit_intercept=True) -> tuple[np.ndarray, np.ndarray]:
    """``(AᵀA, Aᵀy)`` for the design ``A = diag(sqrt_w) [1, X]`` (through :func:`gram`)."""
    G = gram(X, sqrt_weights=sqrt_w, intercept=fit_intercept, extra=y)
    return G[:-1, :-1].copy(), G[:-1, -1].copy()


def block_cross_moments(Z, w=None, *, centred=True):
    """``(W, mean, C)`` of one block of rows ``Z``: total weight, weighted column means and
    ``C = Σ w (z − mean)(z − mean)ᵀ`` (``centred=False``: ``Σ w z zᵀ`` and a zero mean).

    Blocks merge with :func:`merge_cross_moments` in any order (data held in blocks).
    """
    Z = np.asarray(Z, dtype=np.float64)
    total = float(Z.shape[0] if w is None else w.sum())
    k = Z.shape[1]
    if not centred or total == 0:
        mean = np.zeros(k)
    else:
        mean = (Z.sum(axis=0) if w is None else w @ Z) / total
    sqrt_w = None if w is None else np.sqrt(w)
    C = gram(Z, sqrt_weights=sqrt_w, center=mean if centred else None)
    return total, mean, C


def merge_cross_moments(a, b):
    """Merge two :func:`block_cross_moments` (the matrix form of Chan et al.'s update:
    ``C = C_a + C_b + δδᵀ W_a W_b / W``; uncentred moments, whose means are zero, add)."""
    wa, ma, ca = a
    wb, mb, cb = b
    w = wa + wb
    if wa == 0 or wb == 0:
        return w, ma if wb == 0 else mb, ca + cb
    delta = mb - ma
    return w, ma + delta * (wb / w), ca + cb + np.outer(delta, delta) * (wa * wb / w)


def block_centred_r(Z):
    """``(n, mean, R)`` of one block of rows ``Z``: its row count, column means and the
    triangular factor of the centred rows (``RᵀR = (Z − 1 meanᵀ)ᵀ(Z − 1 meanᵀ)``).

    Blocks merge with :func:`merge_centred_r` in any order (data held in blocks).
    """
    Z = np.asarray(Z, dtype=np.float64)
    n = Z.shape[0]
    if n == 0:
        return 0, np.zeros(Z.shape[1]), np.zeros((0, Z.shape[1]))
    mean = Z.mean(axis=0)
    centred = np.empty(Z.shape, order="F")  # the block's one copy, factored in place
    np.subtract(Z, mean, out=centred)
    return n, mean, triangular_factor_in_place(centred)


def merge_centred_r(a, b):
    """Merge two :func:`block_centred_r` (the triangular form of Chan et al.'s update).

    The centred rows of the union are those of each part shifted by its mean's offset from
    the merged mean, so ``RᵀR = R_aᵀR_a + R_bᵀR_b + δδᵀ n_a n_b / n`` with ``δ = mean_b −
    mean_a``: the factor of the stacked ``[R_a; R_b; √(n_a n_b / n) δᵀ]``. No cross products
    are formed, so the condition number is not squared.
    """
    na, ma, ra = a
    nb, mb, rb = b
    n = na + nb
    if na == 0 or nb == 0:
        return n, ma if nb == 0 else mb, ra if nb == 0 else rb
    delta = mb - ma
    stacked = np.vstack([ra, rb, np.sqrt(na * nb / n) * delta[None, :]])
    return n, ma + delta * (nb / n), np.linalg.qr(stacked, mode="r")
