"""Class-conditional Gaussian log-densities of independent features: the hot loop of Gaussian
naive Bayes prediction.

For every sample ``i`` and class ``k``::

    out[i, k] = Σ_j −½ [ log(2π σ²_kj) + (x_ij − θ_kj)² / σ²_kj ]

summed over the features ``j`` where ``x_ij`` is not NaN (a missing value carries no
information, as in R's ``e1071::predict.naiveBayes``). One pass over ``X`` without
temporaries of size ``n × K × p``; rows are independent, so the loop runs in parallel.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .compiled import contiguous, either_layout, lazy_kernel, readonly

__all__ = ["gaussian_log_likelihood"]


@lazy_kernel(
    either_layout(readonly(2), readonly(2), readonly(2)), cache=True, nogil=True, parallel=True
)
def _loglik(X, theta, inv_var, log_norm):  # pragma: no cover - compiled
    n, p = X.shape
    K = theta.shape[0]
    out = np.zeros((n, K))
    for i in prange(n):
        for k in range(K):
            acc = 0.0
            for j in range(p):
                x = X[i, j]
                if x == x:
                    d = x - theta[k, j]
                    acc += log_norm[k, j] + d * d * inv_var[k, j]
            out[i, k] = -0.5 * acc
    return out


def gaussian_log_likelihood(X, theta, var):
    """``Σ_j log N(x_ij | θ_kj, σ²_kj)`` for every sample and class (NaN features skipped).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    theta, var : ndarray of shape (n_classes, n_features)
        Class means and (positive) variances.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    X = contiguous(np.asarray(X, dtype=np.float64))
    var = np.asarray(var, dtype=np.float64)
    theta = np.ascontiguousarray(theta, dtype=np.float64)
    inv_var = np.ascontiguousarray(1.0 / var)
    log_norm = np.ascontiguousarray(np.log(2.0 * np.pi * var))
    return _loglik(X, theta, inv_var, log_norm)
