"""Per-class weighted sums and centred sums of squares: the hot loop of naive Bayes and
discriminant-analysis fits.

Two single passes over the rows of ``X`` (compiled with numba, no copy of ``X``):
:func:`grouped_sums` accumulates, for every class ``g`` and feature ``j``, the weight
``Σ w_i`` and the weighted sum ``Σ w_i x_ij`` over the rows of that class; and
:func:`grouped_centred_squares` the weighted sum of squared deviations from given class
means, ``Σ w_i (x_ij − m_gj)²``. Two passes (means first) avoid the cancellation of the
one-pass ``Σx² − n x̄²`` formula. ``NaN`` entries are skipped, per feature, so the same loops
serve features with missing values (they then count only the rows where the feature is
observed).
"""

from __future__ import annotations

import numpy as np

from .compiled import I8, contiguous, either_layout, lazy_kernel, readonly

__all__ = ["grouped_centred_squares", "grouped_sums"]


@lazy_kernel(either_layout(readonly(dtype=I8), readonly(), I8), cache=True, nogil=True)
def _sums(X, codes, w, n_groups):  # pragma: no cover - compiled
    n, p = X.shape
    wsum = np.zeros((n_groups, p))
    sums = np.zeros((n_groups, p))
    for i in range(n):
        g = codes[i]
        wi = w[i]
        for j in range(p):
            x = X[i, j]
            if x == x:  # not NaN
                wsum[g, j] += wi
                sums[g, j] += wi * x
    return wsum, sums


@lazy_kernel(either_layout(readonly(dtype=I8), readonly(), readonly(2)), cache=True, nogil=True)
def _centred_squares(X, codes, w, means):  # pragma: no cover - compiled
    n, p = X.shape
    out = np.zeros(means.shape)
    for i in range(n):
        g = codes[i]
        wi = w[i]
        for j in range(p):
            x = X[i, j]
            if x == x:
                d = x - means[g, j]
                out[g, j] += wi * d * d
    return out


def _prepare(X, codes, w):
    X = contiguous(np.asarray(X, dtype=np.float64))
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    w = np.ones(X.shape[0]) if w is None else np.ascontiguousarray(w, dtype=np.float64)
    return X, codes, w


def grouped_sums(X, codes, n_groups, sample_weight=None):
    """Per-class weights and weighted sums of every feature, skipping NaN.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of int, shape (n_samples,)
        Class of each row, in ``0 … n_groups−1``.
    n_groups : int
    sample_weight : ndarray of shape (n_samples,), optional
        Default: unit weights.

    Returns
    -------
    weight : ndarray of shape (n_groups, n_features)
        ``Σ w_i`` over the rows of the class where the feature is not NaN.
    sums : ndarray of shape (n_groups, n_features)
        ``Σ w_i x_ij`` over the same rows.
    """
    X, codes, w = _prepare(X, codes, sample_weight)
    return _sums(X, codes, w, int(n_groups))


def grouped_centred_squares(X, codes, means, sample_weight=None):
    """Per-class weighted sums of squared deviations ``Σ w_i (x_ij − means[g, j])²``, NaN skipped.

    Returns
    -------
    ndarray of shape (n_groups, n_features)
    """
    X, codes, w = _prepare(X, codes, sample_weight)
    return _centred_squares(X, codes, w, np.ascontiguousarray(means, dtype=np.float64))
