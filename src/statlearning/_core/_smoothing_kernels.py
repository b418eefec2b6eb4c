"""Compiled kernel of the smoothing spline: the band of the inverse of a banded SPD matrix.

Hutchinson and de Hoog (1985): from the upper Cholesky factor ``U`` (``M = UᵀU``) with three
super-diagonals, the entries ``Σ_ij = (M⁻¹)_ij`` with ``|i − j| ≤ 3`` follow backwards from
``UΣ = U⁻ᵀ`` in ``O(n)`` operations, without forming ``M⁻¹`` (R's ``sinerp``).
"""

from __future__ import annotations

import numba

from .compiled import I8, lazy_kernel, readonly, writeable


@numba.njit(cache=True, nogil=True)
def _banded_inverse(ab, out):  # pragma: no cover - compiled
    """Band of ``M⁻¹`` from the upper Cholesky factor in LAPACK band storage.

    Parameters
    ----------
    ab : ndarray of shape (4, n)
        ``U[i, i + d] = ab[3 - d, i + d]`` (SciPy's ``cholesky_banded(..., lower=False)``).
    out : ndarray of shape (4, n)
        Receives ``Σ[i, i + d]`` in ``out[d, i]`` (zero beyond the last row).
    """
    n = ab.shape[1]
    for d in range(4):
        for i in range(n):
            out[d, i] = 0.0
    for i in range(n - 1, max(n - 4, -1), -1):  # the last rows: the band is cut short
        uii = ab[3, i]
        # off-diagonal entries Σ[i, i+d], d = 3, 2, 1: −Σ_k U[i, k] Σ[k, i+d] / U[i, i]
        for d in range(3, 0, -1):
            j = i + d
            if j >= n:
                continue
            s = 0.0
            for e in range(1, 4):
                k = i + e
                if k >= n:
                    break
                # Σ[k, j] with |k − j| ≤ 2 lies in the band
                if k <= j:
                    s += ab[3 - e, k] * out[j - k, k]
                else:
                    s += ab[3 - e, k] * out[k - j, j]
            out[d, i] = -s / uii
        s = 0.0
        for e in range(1, 4):
            k = i + e
            if k >= n:
                break
            s += ab[3 - e, k] * out[e, i]
        out[0, i] = (1.0 / uii - s) / uii
    for i in range(n - 4, -1, -1):  # the same recursion written out for a full band
        r = 1.0 / ab[3, i]
        a1, a2, a3 = ab[2, i + 1], ab[1, i + 2], ab[0, i + 3]
        s3 = -(a1 * out[2, i + 1] + a2 * out[1, i + 2] + a3 * out[0, i + 3]) * r
        s2 = -(a1 * out[1, i + 1] + a2 * out[0, i + 2] + a3 * out[1, i + 2]) * r
        s1 = -(a1 * out[0, i + 1] + a2 * out[1, i + 1] + a3 * out[2, i + 1]) * r
        out[3, i], out[2, i], out[1, i] = s3, s2, s1
        out[0, i] = (r - (a1 * s1 + a2 * s2 + a3 * s3)) * r


@numba.njit(cache=True, nogil=True)
def _banded_cholesky_solve(ab, rhs, U, coef):  # pragma: no cover - compiled
    """Cholesky factor ``M = UᵀU`` of a banded SPD matrix with three super-diagonals and the
    solution of ``M c = rhs`` (LAPACK's ``pbtrf``/``pbtrs`` for this one bandwidth, without
    their per-call overhead, which dominates at this bandwidth).

    Parameters
    ----------
    ab : ndarray of shape (4, n)
        ``M[i, i + d]`` in ``ab[3 - d, i + d]`` (upper band storage).
    rhs : ndarray of shape (n,)
    U : ndarray of shape (4, n)
        Receives the factor in the same storage.
    coef : ndarray of shape (n,)
        Receives the solution.

    Returns
    -------
    int
        0, or ``j + 1`` when the leading minor of order ``j + 1`` is not positive.
    """
    n = ab.shape[1]
    # left-looking, column by column: U[j-d, j] (d = 3, 2, 1) from the columns before, then
    # the diagonal; everything stays inside the band. r1, r2, r3: 1/U[j-1, j-1], ... (one
    # division per column)
    r1 = r2 = r3 = 0.0
    for j in range(n):
        u3 = ab[0, j] * r3 if j >= 3 else 0.0
        u2 = 0.0
        if j >= 2:
            u2 = (ab[1, j] - U[2, j - 2] * u3) * r2 if j >= 3 else ab[1, j] * r2
        u1 = 0.0
        if j >= 1:
            t = ab[2, j] - U[2, j - 1] * u2
            if j >= 3:
                t -= U[1, j - 1] * u3
            u1 = t * r1
        s = ab[3, j] - u3 * u3 - u2 * u2 - u1 * u1
        if not s > 0.0:
            return j + 1
        d = s**0.5
        U[0, j], U[1, j], U[2, j], U[3, j] = u3, u2, u1, d
        r3, r2, r1 = r2, r1, 1.0 / d
    for i in range(min(n, 3)):  # Uᵀ z = rhs
        t = rhs[i]
        for k in range(0, i):
            t -= U[3 + k - i, i] * coef[k]
        coef[i] = t / U[3, i]
    for i in range(3, n):
        t = rhs[i] - U[2, i] * coef[i - 1] - U[1, i] * coef[i - 2] - U[0, i] * coef[i - 3]
        coef[i] = t / U[3, i]
    for i in range(n - 1, max(n - 4, -1), -1):  # U c = z
        t = coef[i]
        for k in range(i + 1, n):
            t -= U[3 + i - k, k] * coef[k]
        coef[i] = t / U[3, i]
    for i in range(n - 4, -1, -1):
        t = coef[i] - U[2, i + 1] * coef[i + 1] - U[1, i + 2] * coef[i + 2]
        coef[i] = (t - U[0, i + 3] * coef[i + 3]) / U[3, i]
    return 0


@lazy_kernel(
    (readonly(2), readonly(2), readonly(1, dtype=I8), writeable(1)), cache=True, nogil=True
)
def band_quadratic_forms(inv, vals, first, out):  # pragma: no cover - compiled
    """``out[i] = bᵢᵀ Σ bᵢ`` for rows with four non-zero entries ``vals[i]`` from column
    ``first[i]``, ``Σ`` given by its band (``Σ[j, j + d]`` in ``inv[d, j]``)."""
    for i in range(vals.shape[0]):
        f = first[i]
        s = 0.0
        for a in range(4):
            va = vals[i, a]
            s += va * va * inv[0, f + a]
            for b in range(a + 1, 4):
                s += 2.0 * va * vals[i, b] * inv[b - a, f + a]
        out[i] = s


@lazy_kernel(
    (
        readonly(2),
        readonly(1),
        readonly(2),
        readonly(2),
        readonly(1, dtype=I8),
        readonly(1),
        readonly(1),
        writeable(2),
        writeable(1),
        writeable(2),
        writeable(1),
    ),
    cache=True,
    nogil=True,
)
def fit_summary(ab, rhs, gram, vals, first, w, y, U, coef, inv, out):  # pragma: no cover
    """One smoothing-spline fit reduced to what the λ search needs, in one call.

    Solves ``M c = rhs`` (:func:`banded_cholesky_solve`), forms the band of ``M⁻¹``
    (:func:`banded_inverse`) and writes ``out[0] = tr S = tr(BᵀWB · M⁻¹)`` (``gram`` is the
    band of ``BᵀWB``, so only the band of ``M⁻¹`` enters) and ``out[1] = Σ w (y − ŷ)²`` at the
    rows ``vals``/``first``. Returns the Cholesky status (0: positive definite).
    """
    info = _banded_cholesky_solve(ab, rhs, U, coef)
    if info:
        return info
    _banded_inverse(U, inv)
    n = gram.shape[1]
    tr = 0.0
    for j in range(n):
        tr += gram[3, j] * inv[0, j]
        for d in range(1, min(j, 3) + 1):
            tr += 2.0 * gram[3 - d, j] * inv[d, j - d]
    rss = 0.0
    for i in range(vals.shape[0]):
        f = first[i]
        fit = vals[i, 0] * coef[f] + vals[i, 1] * coef[f + 1]
        fit += vals[i, 2] * coef[f + 2] + vals[i, 3] * coef[f + 3]
        r = y[i] - fit
        rss += w[i] * r * r
    out[0] = tr
    out[1] = rss
    return 0


@lazy_kernel((readonly(2), writeable(2)), cache=True, nogil=True)
def banded_inverse(ab, out):  # pragma: no cover - compiled
    """Band of ``M⁻¹`` from its upper Cholesky factor (see :func:`_banded_inverse`)."""
    _banded_inverse(ab, out)


@lazy_kernel((readonly(2), readonly(1), writeable(2), writeable(1)), cache=True, nogil=True)
def banded_cholesky_solve(ab, rhs, U, coef):  # pragma: no cover - compiled
    """Factor and solve (see :func:`_banded_cholesky_solve`); returns its status."""
    return _banded_cholesky_solve(ab, rhs, U, coef)
