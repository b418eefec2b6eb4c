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

__all__ = [
    "block_class_moments",
    "grouped_centred_squares",
    "grouped_sums",
    "merge_class_moments",
]


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


def block_class_moments(X, labels, sample_weight=None):
    """Per-class weights, means and centred sums of squares of one block of rows.

    Returns ``(classes, wsum, means, ss)``: the block's sorted distinct labels and arrays of
    shape ``(K_block, p)`` (means 0 where a class has no weight). Blocks merge with
    :func:`merge_class_moments` in any order, so data held in blocks give the moments of the
    whole.
    """
    classes, codes = np.unique(labels, return_inverse=True)
    codes = codes.astype(np.int64).ravel()
    wsum, sums = grouped_sums(X, codes, classes.size, sample_weight)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(wsum > 0, sums / np.where(wsum > 0, wsum, 1.0), 0.0)
    ss = grouped_centred_squares(X, codes, means, sample_weight)
    return classes, wsum, means, ss


def merge_class_moments(a, b):
    """Merge two :func:`block_class_moments` results (Chan et al.'s pairwise update per class).

    The merged sum of squares adds ``δ² W_a W_b / W`` for the difference ``δ`` of the two
    means instead of subtracting large sums, so no digits cancel.
    """
    classes = np.union1d(a[0], b[0])
    p = a[1].shape[1]
    out = []
    for part in (a, b):
        idx = np.searchsorted(classes, part[0])
        full = [np.zeros((classes.size, p)) for _ in range(3)]
        for dest, src in zip(full, part[1:], strict=True):
            dest[idx] = src
        out.append(full)
    (wa, ma, sa), (wb, mb, sb) = out
    w = wa + wb
    delta = mb - ma
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(w > 0, wb / np.where(w > 0, w, 1.0), 0.0)
    return classes, w, ma + delta * share, sa + sb + delta * delta * wa * share
