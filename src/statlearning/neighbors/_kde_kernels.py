"""Kernel density sums (numba): the hot loop of :class:`~statlearning.neighbors.KernelDensity`.

For every query ``q`` the weighted sum ``s(q) = Σⱼ wⱼ k(‖q − xⱼ‖ / h)`` of the unnormalised
kernel (``k(0) = 1``) over the training points, returned as ``log s(q)``. Queries run in
parallel; the distance is summed directly over the features (no Gram trick, so a query far from
the data loses no digits). When the sum underflows (a Gaussian or exponential kernel at a query
far from every training point) the row is recomputed in log space by log-sum-exp (the largest
term factored out), so ``log s`` is accurate for any finite query.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .._core.compiled import F8, I8, lazy_kernel, readonly, writeable

__all__ = ["KERNEL_CODES", "kde_log_sums", "kernel_values", "log_kernel_values"]

#: Kernel names → codes of the compiled loop.
KERNEL_CODES = {
    "gaussian": 0,
    "tophat": 1,
    "epanechnikov": 2,
    "exponential": 3,
    "linear": 4,
    "cosine": 5,
}

_TINY = 1e-250  # below this a Gaussian/exponential sum is redone in log space


@njit(cache=True, inline="always")
def _value(u2, code):
    """``k(u)`` from ``u² = (d/h)²``."""
    if code == 0:
        return math.exp(-0.5 * u2)
    if code == 3:
        return math.exp(-math.sqrt(u2))
    if u2 >= 1.0:
        return 0.0
    if code == 1:
        return 1.0
    if code == 2:
        return 1.0 - u2
    if code == 4:
        return 1.0 - math.sqrt(u2)
    return math.cos(0.5 * math.pi * math.sqrt(u2))


@njit(cache=True, inline="always")
def _log_value(u2, code):
    """``log k(u)`` (−inf outside a compact support)."""
    if code == 0:
        return -0.5 * u2
    if code == 3:
        return -math.sqrt(u2)
    v = _value(u2, code)
    return math.log(v) if v > 0.0 else -np.inf


# compiled at the first call (lazy_kernel), not when the package is imported
@lazy_kernel(
    (readonly(2), readonly(2), readonly(1), readonly(1), F8, I8, writeable(1)),
    parallel=True,
    cache=True,
)
def kde_log_sums(Q, X, w, logw, inv_h, code, out):
    """``out[i] = log Σⱼ w[j] k(‖Q[i] − X[j]‖ · inv_h)`` (−inf when every term is 0)."""
    m, p = Q.shape
    n = X.shape[0]
    scale = inv_h * inv_h
    for i in prange(m):
        s = 0.0
        if code == 0:  # the common case, without the kernel switch in the inner loop
            for j in range(n):
                d2 = 0.0
                for k in range(p):
                    t = Q[i, k] - X[j, k]
                    d2 += t * t
                s += w[j] * math.exp(-0.5 * d2 * scale)
        else:
            for j in range(n):
                d2 = 0.0
                for k in range(p):
                    t = Q[i, k] - X[j, k]
                    d2 += t * t
                s += w[j] * _value(d2 * scale, code)
        if s > _TINY or ((code != 0 and code != 3) and s > 0.0):
            out[i] = math.log(s)
        elif code != 0 and code != 3:
            out[i] = -np.inf
        else:  # underflow: log-sum-exp with the largest term factored out
            top = -np.inf
            for j in range(n):
                d2 = 0.0
                for k in range(p):
                    t = Q[i, k] - X[j, k]
                    d2 += t * t
                v = logw[j] + _log_value(d2 * scale, code)
                if v > top:
                    top = v
            if top == -np.inf:
                out[i] = -np.inf
                continue
            acc = 0.0
            for j in range(n):
                d2 = 0.0
                for k in range(p):
                    t = Q[i, k] - X[j, k]
                    d2 += t * t
                acc += math.exp(logw[j] + _log_value(d2 * scale, code) - top)
            out[i] = top + math.log(acc)


@lazy_kernel((readonly(1), I8, writeable(1)), cache=True)
def kernel_values(u, code, out):
    """``out = k(u)`` elementwise for scaled distances ``u = d/h``."""
    for i in range(u.shape[0]):
        out[i] = _value(u[i] * u[i], code)


@lazy_kernel((readonly(1), I8, writeable(1)), cache=True)
def log_kernel_values(u, code, out):
    """``out = log k(u)`` elementwise for scaled distances ``u = d/h``."""
    for i in range(u.shape[0]):
        out[i] = _log_value(u[i] * u[i], code)
