"""Class-conditional Gaussian log-densities of independent features: the hot loop of Gaussian
naive Bayes prediction.

For every sample ``i`` and class ``k``::

    out[i, k] = Σ_j −½ [ log(2π σ²_kj) + (x_ij − θ_kj)² / σ²_kj ]

summed over the features ``j`` where ``x_ij`` is not NaN (a missing value carries no
information, as in R's ``e1071::predict.naiveBayes``). One pass over ``X`` without
temporaries of size ``n × K × p``; rows are independent, so the loop runs in parallel, but
only above :data:`PARALLEL_WORK` terms ``n·K·p``: below it waking the threads costs more than
the whole sum (200 rows, 10 features and 3 classes took 20 ms on numba's threads on a busy
two-core machine, 0.1 ms in one), and a serial kernel computes the same numbers.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from .compiled import contiguous, either_layout, lazy_kernel, readonly

__all__ = ["PARALLEL_WORK", "gaussian_log_likelihood"]

#: Terms ``n·K·p`` from which the sum runs on numba's threads.
PARALLEL_WORK = 1_000_000

_SIGNATURES = either_layout(readonly(2), readonly(2), readonly(2))


@numba.njit(cache=True, nogil=True, inline="always")
def _row(X, i, theta, inv_var, log_norm, out):  # pragma: no cover - compiled
    for k in range(theta.shape[0]):
        acc = 0.0
        for j in range(X.shape[1]):
            x = X[i, j]
            if x == x:
                d = x - theta[k, j]
                acc += log_norm[k, j] + d * d * inv_var[k, j]
        out[i, k] = -0.5 * acc


@lazy_kernel(_SIGNATURES, cache=True, nogil=True, parallel=True)
def _loglik(X, theta, inv_var, log_norm):  # pragma: no cover - compiled
    out = np.zeros((X.shape[0], theta.shape[0]))
    for i in prange(X.shape[0]):
        _row(X, i, theta, inv_var, log_norm, out)
    return out


@lazy_kernel(_SIGNATURES, cache=True, nogil=True)
def _loglik_serial(X, theta, inv_var, log_norm):  # pragma: no cover - compiled
    out = np.zeros((X.shape[0], theta.shape[0]))
    for i in range(X.shape[0]):
        _row(X, i, theta, inv_var, log_norm, out)
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
    kernel = _loglik if X.size * theta.shape[0] >= PARALLEL_WORK else _loglik_serial
    return kernel(X, theta, inv_var, log_norm)
