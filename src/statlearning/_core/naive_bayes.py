"""Naive Bayes on ndarrays: frequency tables, smoothed log-probabilities and joint
log-likelihoods, all in log space with zero probabilities kept exact (``log 0 = −inf``).

Multiplying a ``−inf`` log-probability by a zero count would give ``NaN`` in a matrix product
(``0 · −inf``); the functions here therefore split every product into its finite part and an
explicit "impossible" indicator, so that a class with zero likelihood gets exactly ``−inf``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "categorical_log_likelihood",
    "categorical_tables",
    "count_log_likelihood",
    "smoothed_log_prob",
]


def smoothed_log_prob(counts, totals, alpha, n_categories):
    """``log((count + α) / (total + α V))`` with ``log 0 = −inf`` (Lidstone smoothing).

    Parameters
    ----------
    counts : ndarray of shape (K, L)
    totals : ndarray of shape (K,)
        Denominator counts (the class totals).
    alpha : float
        Pseudo-count added to every cell (``0``: maximum likelihood).
    n_categories : float
        ``V``, the number of possible values.
    """
    num = counts + alpha
    den = totals + alpha * n_categories
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num) - np.log(den)[:, None]
    out[num == 0] = -np.inf
    return out


def count_log_likelihood(X, log_prob):
    """``Σ_j x_ij log p_kj`` for non-negative ``X`` with ``0 · log 0 = 0`` and ``x · log 0 = −inf``.

    Parameters
    ----------
    X : ndarray of shape (n, p), non-negative
    log_prob : ndarray of shape (K, p), entries in ``[−inf, 0]``

    Returns
    -------
    ndarray of shape (n, K)
    """
    zero = np.isneginf(log_prob)
    out = X @ np.where(zero, 0.0, log_prob).T
    if zero.any():
        impossible = (X > 0).astype(np.float64) @ zero.T.astype(np.float64)
        out[impossible > 0] = -np.inf
    return out


def categorical_tables(X, codes, n_classes, sample_weight=None):
    """Per-feature class-by-level frequency tables; ``NaN`` is excluded from its feature.

    Rows with zero weight are ignored entirely (their values are not levels), so that integer
    weights are equivalent to repeated rows.

    Returns
    -------
    levels : list of ndarray
        Sorted distinct non-missing values of each feature.
    counts : list of ndarray of shape (K, n_levels_j)
        Weighted counts of each level in each class.
    observed : ndarray of shape (K, p)
        Weighted number of non-missing values of each feature in each class.
    """
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    levels, counts = [], []
    observed = np.empty((n_classes, p))
    present = w > 0  # a row with zero weight is absent: its values are not levels
    for j in range(p):
        col = X[:, j]
        seen = present & ~np.isnan(col)
        lev, inv = np.unique(col[seen], return_inverse=True)
        L = lev.size
        table = np.bincount(
            codes[seen] * L + inv.reshape(-1), weights=w[seen], minlength=n_classes * L
        ).reshape(n_classes, L)
        levels.append(lev)
        counts.append(table)
        observed[:, j] = table.sum(axis=1)
    return levels, counts, observed


def level_codes(column, levels):
    """Index of each value of ``column`` in ``levels``: ``-1`` for NaN, ``-2`` for unseen."""
    idx = np.searchsorted(levels, column)
    idx = np.minimum(idx, max(levels.size - 1, 0))
    found = levels.size > 0
    match = (levels[idx] == column) if found else np.zeros(column.shape, bool)
    out = np.where(match, idx, -2)
    out[np.isnan(column)] = -1
    return out


def categorical_log_likelihood(X, levels, log_probs):
    """``Σ_j log P(x_ij | class k)`` over the features where ``x_ij`` is a fitted level.

    Missing values (NaN) and values that are not among the feature's fitted levels contribute
    nothing; the latter are reported so that the caller can raise or warn.

    Returns
    -------
    loglik : ndarray of shape (n, K)
    unseen : list of (feature index, first unseen value, number of unseen values)
    """
    n, p = X.shape
    K = log_probs[0].shape[0] if log_probs else 0
    out = np.zeros((n, K))
    unseen = []
    for j in range(p):
        idx = level_codes(X[:, j], levels[j])
        bad = np.flatnonzero(idx == -2)
        if bad.size:
            unseen.append((j, X[bad[0], j], bad.size))
        use = idx >= 0
        if use.any():
            out[use] += log_probs[j][:, idx[use]].T
    return out, unseen
