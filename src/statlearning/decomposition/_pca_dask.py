"""PCA on Dask collections: the spectrum of the centred data from per-block summaries.

:meth:`PCA.fit <statlearning.decomposition.PCA.fit>` hands a Dask collection here (through
:mod:`statlearning._dask`). The solver is chosen by the in-memory rule and recorded in
``solver_`` as in memory; each gives the in-memory result up to rounding:

* ``"gram"`` (``n ≥ p``, ``p ≤ 1000``): one pass of per-block centred cross-products merged by
  Chan's update (:func:`statlearning._core.linalg.merge_cross_moments`), whose means and Gram
  matrix enter the in-memory eigendecomposition. Each block is centred at its own mean, so the
  cancellation of ``XᵀX − n x̄x̄ᵀ`` never arises (the in-memory guard's concern);
* ``"full"``: one pass of TSQR of the centred blocks (each block's triangular factor about its
  mean, merged with a mean-shift row: :func:`statlearning._core.linalg.merge_centred_r`), then
  the SVD of that ``p × p`` factor, whose singular values and right vectors are those of the
  centred data without squaring its condition number;
* ``"randomized"``: one pass of column means and sums of squares, then Halko, Martinsson &
  Tropp's range finder with the in-memory random matrix and power iterations: the products
  ``A B`` stay lazy on the workers, ``Aᵀ C`` comes back (``p × size``), and the tall bases are
  orthonormalised by Dask's TSQR where the in-memory finder uses an LU step (the same subspaces).

Only ``p``-sized summaries reach the client; the means come from the first pass.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg
from sklearn.utils import check_random_state

from .. import _dask
from .._core.linalg import (
    block_centred_r,
    block_cross_moments,
    merge_centred_r,
    merge_cross_moments,
)
from ._pca import _gram_spectrum


def _cross_block(X, offset):
    return block_cross_moments(X)


def _r_block(X, offset):
    return block_centred_r(X)


_PASSES = {"gram": (_cross_block, merge_cross_moments), "full": (_r_block, merge_centred_r)}


def fit_pca(pca, X):
    """Fit ``pca`` (a :class:`~statlearning.decomposition.PCA`) on the Dask collection ``X``."""
    rows = _dask.row_blocks(pca, X)
    n, p = rows.n, rows.X.shape[1]
    if n < 2:
        raise ValueError(
            f"Found array with {n} sample(s) (shape=({n}, {p})) while a minimum of 2 is "
            f"required by {type(pca).__name__}."
        )
    n_max = min(n, p)
    nc = pca._check_n_components(n_max)
    solver = pca._choose_solver(n, p, nc)
    if solver == "randomized":
        stat = _dask.column_moments(rows)
    else:
        stat = _dask.map_reduce(*_PASSES[solver], [rows.X], rows.offsets)
    checks, stat = _dask.compute(_dask.check_blocks(rows), stat)
    _dask.raise_for_bad_blocks(pca, rows, checks)
    if solver == "gram":
        _, mean, gram = stat
        scale = pca._column_scale(np.diag(gram).copy(), n, mean)
        gram = gram / np.outer(scale, scale)
        total_ss = float(np.trace(gram))
        sv_sq, vt = _gram_spectrum(gram, nc, n_max)
    elif solver == "full":
        _, mean, R = stat
        scale = pca._column_scale(np.einsum("ij,ij->j", R, R), n, mean)
        R = R / scale
        total_ss = float(np.einsum("ij,ij->", R, R))
        _, s, vt = linalg.svd(R, full_matrices=False, check_finite=False)
        sv_sq, vt = s[:n_max] ** 2, vt[:n_max]
    else:
        _, mean, col_ss = stat
        scale = pca._column_scale(col_ss, n, mean)
        total_ss = float(np.sum(col_ss / scale**2))
        rng = check_random_state(pca.random_state)
        s, vt = _randomized_svd(rows.X, mean, scale, nc, pca.n_oversamples, pca.iterated_power, rng)
        sv_sq = s**2
    pca._store(n, nc, solver, mean, scale, sv_sq, vt, total_ss)
    pca._warn_null_components()
    return pca


def _times_block(X, B, shift):
    return X @ B - shift


def _randomized_svd(X, mean, scale, k, n_oversamples, n_iter, rng):
    """Top-``k`` SVD of ``(X − 1μᵀ) D⁻¹`` for a Dask array ``X`` (centring and scaling implicit,
    as :func:`statlearning.decomposition._pca._randomized_svd`, with the same draws)."""
    import dask.array as da

    import dask

    inv = 1.0 / scale
    shift = mean * inv
    p = X.shape[1]

    def matmul(B):  # A B, lazy
        return X.map_blocks(
            _times_block,
            B * inv[:, None],
            shift @ B,
            chunks=(X.chunks[0], (B.shape[1],)),
            dtype=np.float64,
        )

    def rmatmul(Q):  # Aᵀ Q, on the client
        XtQ, sums = dask.compute(X.T @ Q, Q.sum(axis=0))
        return (XtQ - np.outer(mean, sums)) * inv[:, None]

    def orthonormal(Y):
        return da.linalg.tsqr(Y)[0]

    size = min(k + n_oversamples, min(X.shape))
    Q = matmul(rng.standard_normal((p, size)))
    for _ in range(n_iter):
        Z, _ = linalg.lu(rmatmul(orthonormal(Q)), permute_l=True, check_finite=False)
        Q = matmul(Z)
    B = rmatmul(orthonormal(Q)).T
    _, s, vt = linalg.svd(B, full_matrices=False, check_finite=False)
    return s[:k], vt[:k]
