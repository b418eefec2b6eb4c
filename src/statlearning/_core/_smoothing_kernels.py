"""Compiled kernel of the smoothing spline: the band of the inverse of a banded SPD matrix.

Hutchinson and de Hoog (1985): from the upper Cholesky factor ``U`` (``M = UᵀU``) with three
super-diagonals, the entries ``Σ_ij = (M⁻¹)_ij`` with ``|i − j| ≤ 3`` follow backwards from
``UΣ = U⁻ᵀ`` in ``O(n)`` operations, without forming ``M⁻¹`` (R's ``sinerp``).
"""

from __future__ import annotations

from .compiled import lazy_kernel, readonly, writeable


@lazy_kernel((readonly(2), writeable(2)), cache=True, nogil=True)
def banded_inverse(ab, out):  # pragma: no cover - compiled
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
    for i in range(n - 1, -1, -1):
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
