"""One column of a built-in kernel's Gram matrix at a time, inside compiled code.

The SMO solver (:mod:`statlearning._solvers.smo`) needs the kernel column ``K[:, i]`` of the
variable it is about to move, and nothing else: the full ``n × n`` Gram of a large problem does
not fit in memory. These compiled functions evaluate one column from the data matrix with the
same formulas as :func:`statlearning._core.kernel_gram.gram` (the one Gram implementation, which
the tests hold these columns equal to):

==========  ==========  ====================================================
code        kernel      ``K(x_i, x_t)``
==========  ==========  ====================================================
0           linear      ``x_iᵀx_t``
1           poly        ``(γ x_iᵀx_t + r)^d``
2           rbf         ``exp(−γ max(‖x_i‖² + ‖x_t‖² − 2x_iᵀx_t, 0))`` (0 at ``t = i``)
3           sigmoid     ``tanh(γ x_iᵀx_t + r)``
4           laplacian   ``exp(−γ ‖x_i − x_t‖₁)``
5           precomputed the column of the given Gram matrix
==========  ==========  ====================================================

The ARD Gaussian (one γ per feature) is the ``rbf`` code on columns pre-scaled by ``√γ_j`` with
γ = 1, and the cosine kernel is the ``linear`` code on rows scaled to unit norm (zero rows stay
zero): the callers prepare the data with :func:`prepare_columns`, which also stores it
transposed, so that a column accumulates one feature at a time over contiguous memory (the
order of the sums is the same).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["KERNEL_CODES", "PRECOMPUTED", "kernel_column", "kernel_diagonal", "prepare_columns"]

LINEAR, POLY, RBF, SIGMOID, LAPLACIAN, PRECOMPUTED = 0, 1, 2, 3, 4, 5

#: Code of each kernel name the compiled columns evaluate.
KERNEL_CODES = {
    "linear": LINEAR,
    "poly": POLY,
    "rbf": RBF,
    "sigmoid": SIGMOID,
    "laplacian": LAPLACIAN,
    "cosine": LINEAR,
    "precomputed": PRECOMPUTED,
}


def prepare_columns(X, kernel: str, gamma):
    """The data, code and scalar γ with which the compiled columns evaluate ``kernel``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training data (or the Gram matrix for ``"precomputed"``).
    kernel : str
        A key of :data:`KERNEL_CODES`.
    gamma : float or ndarray of shape (n_features,)
        A vector only for ``"rbf"`` (ARD).

    Returns
    -------
    data : ndarray, C-ordered float64
        The data transposed, shape (n_features, n_samples) — rescaled for the ARD Gaussian
        (columns by ``√γ_j``) and the cosine kernel (rows to unit norm) — so that a column is
        accumulated one feature at a time over contiguous memory; for ``"precomputed"`` the
        (symmetric) Gram matrix itself.
    sqnorm : ndarray of shape (n_samples,)
        Squared norms of the samples in ``data`` (used by ``rbf``).
    code : int
    gamma : float
    """
    X = np.asarray(X, dtype=np.float64)
    g = np.asarray(gamma if gamma is not None else 1.0, dtype=np.float64)
    if kernel == "precomputed":
        return np.ascontiguousarray(X), np.zeros(X.shape[0]), PRECOMPUTED, 1.0
    if kernel == "rbf" and g.ndim == 1:
        X = X * np.sqrt(g)
        g = np.float64(1.0)
    elif kernel == "cosine":
        norms = np.sqrt(np.einsum("ij,ij->i", X, X))
        inv = np.zeros_like(norms)
        np.divide(1.0, norms, out=inv, where=norms > 0)
        X = X * inv[:, None]
    sqnorm = np.einsum("ij,ij->i", X, X)
    return np.ascontiguousarray(X.T), sqnorm, KERNEL_CODES[kernel], float(g)


@njit(cache=True, nogil=True)
def kernel_column(data, sqnorm, code, gamma, degree, coef0, i, out):  # pragma: no cover - compiled
    """Fill ``out[t] = K(x_i, x_t)`` for every sample ``t`` (``data`` from
    :func:`prepare_columns`)."""
    if code == PRECOMPUTED:
        n = data.shape[0]
        for t in range(n):
            out[t] = data[i, t]
        return
    p, n = data.shape
    for t in range(n):
        out[t] = 0.0
    if code == LAPLACIAN:
        for k in range(p):
            a = data[k, i]
            row = data[k]
            for t in range(n):
                out[t] += abs(a - row[t])
        for t in range(n):
            out[t] = math.exp(-gamma * out[t])
        return
    for k in range(p):
        a = data[k, i]
        row = data[k]
        for t in range(n):
            out[t] += a * row[t]
    if code == LINEAR:
        return
    if code == RBF:
        c = sqnorm[i]
        for t in range(n):
            d2 = c + sqnorm[t] - 2.0 * out[t]
            out[t] = math.exp(-gamma * d2) if d2 > 0.0 else 1.0
        out[i] = 1.0
    elif code == POLY:
        for t in range(n):
            out[t] = (gamma * out[t] + coef0) ** degree
    else:
        for t in range(n):
            out[t] = math.tanh(gamma * out[t] + coef0)


@njit(cache=True, nogil=True)
def kernel_diagonal(data, sqnorm, code, gamma, degree, coef0, out):  # pragma: no cover - compiled
    """Fill ``out[t] = K(X[t], X[t])``."""
    n = sqnorm.shape[0]
    for t in range(n):
        if code == PRECOMPUTED:
            out[t] = data[t, t]
        elif code == RBF or code == LAPLACIAN:
            out[t] = 1.0
        elif code == LINEAR:
            out[t] = sqnorm[t]
        elif code == POLY:
            out[t] = (gamma * sqnorm[t] + coef0) ** degree
        else:
            out[t] = math.tanh(gamma * sqnorm[t] + coef0)
