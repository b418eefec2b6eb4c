"""Compiled inner loops of elastic-net coordinate descent (numba, ``cache=True``).

Both kernels run cyclic (or shuffled) sweeps over a *working set* of coordinates of the
problem, scaled by ``W = Σw``,

.. math:: \\tfrac12 \\lVert y_s - X_s\\beta\\rVert^2
          + \\sum_j \\left(a_j|\\beta_j| + \\tfrac12 b_j\\beta_j^2\\right),

where ``X_s, y_s`` are the centred data with rows scaled by ``√w`` and ``a_j, b_j`` the L1 and
L2 weights (already multiplied by ``W``, ``α`` and the penalty factors). The coordinate update
is the notes' soft-thresholding step (Artelt, *Introduction to Machine Learning*, §4.8.1.2
and §4.9, eq. 4.74 and 4.89):

.. math:: \\beta_j \\leftarrow \\frac{S(c_j + n_j\\beta_j,\\ a_j)}{n_j + b_j},
          \\qquad c = X_s^\\top(y_s - X_s\\beta),\\quad n_j = \\lVert X_{s,j}\\rVert^2 .

They stop after the first sweep whose largest coefficient change is small relative to the
largest coefficient, ``max_j |Δβ_j| ≤ thr · max_j |β_j|`` (scikit-learn's inner criterion;
also when every coefficient is zero), or after ``max_sweeps`` sweeps, and return
``(sweeps, max_j |Δβ_j| / max_j |β_j|)`` of the last sweep. The arrays ``beta`` and ``c``
(or ``r``) are updated in place; they are the solver's own working buffers, never the
caller's data. Shuffled orders (``seed ≥ 0``) come from a private xorshift generator, so no
global random state is touched.

* :func:`gram_sweeps` works on the Gram matrix ``G = X_sᵀX_s`` and keeps the gradient ``c``
  (covariance updates, glmnet's ``type.gaussian = "covariance"``): one update costs ``O(k)``
  for a working set of ``k`` coordinates, whatever ``n``. For small working sets (``k < p/3``)
  only the entries of ``c`` in the working set are kept current; the driver recomputes the
  others when it checks optimality.
* :func:`residual_sweeps` works on ``X_s`` itself (Fortran order) and keeps the residual
  ``r = y_s − X_sβ`` (glmnet's ``"naive"`` updates): one update costs ``O(n)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._core.compiled import F8, I8, lazy_kernel, readonly, writeable

__all__ = ["gram_sweeps", "residual_sweeps"]

# Reassociation lets LLVM vectorise the dot products; results stay deterministic.
_FASTMATH = {"reassoc", "contract", "nsz", "arcp"}


@njit(cache=True, nogil=True)
def _threshold(z, a, denom):
    if z > a:
        return (z - a) / denom
    if z < -a:
        return (z + a) / denom
    return 0.0


@njit(cache=True, nogil=True)
def _shuffle(order, state):
    """Fisher-Yates shuffle of ``order`` in place with xorshift64*; returns the new state."""
    for i in range(order.shape[0] - 1, 0, -1):
        state ^= state >> np.uint64(12)
        state ^= state << np.uint64(25)
        state ^= state >> np.uint64(27)
        r = (state * np.uint64(2685821657736338717)) >> np.uint64(33)
        j = np.int64(r % np.uint64(i + 1))
        order[i], order[j] = order[j], order[i]
    return state


# Explicit signatures: the data (G or X) and the penalty weights are read-only, so read-only
# inputs use the same compiled code (statlearning._core.compiled).
# (c or r, beta, nrm, a, b, working, max_sweeps, thr, seed)
_SWEEP_ARGS = (
    writeable(), writeable(), readonly(), readonly(), readonly(), readonly(dtype=I8), I8, F8, I8,
)  # fmt: skip


@lazy_kernel((readonly(2), *_SWEEP_ARGS), cache=True, nogil=True)
def gram_sweeps(G, c, beta, nrm, a, b, working, max_sweeps, thr, seed):
    """Coordinate descent on the Gram matrix over the coordinates ``working``.

    Parameters
    ----------
    G : ndarray of shape (p, p), C order
        ``X_sᵀX_s`` (symmetric).
    c : ndarray of shape (p,)
        ``X_sᵀ(y_s − X_sβ)`` at the current ``beta``; entries in ``working`` are kept current.
    beta : ndarray of shape (p,)
    nrm, a, b : ndarray of shape (p,)
        ``diag(G)`` (zero for columns to skip), L1 and L2 weights.
    working : ndarray of int64
        The coordinates to update, in order.
    max_sweeps : int
    thr : float
        Stop after a sweep with ``max_j |Δβ_j| ≤ thr · max_j |β_j|``.
    seed : int
        Negative: cyclic order. Otherwise the order is shuffled before every sweep by a
        generator seeded with ``seed`` (deterministic).

    Returns
    -------
    sweeps : int
    relative_change : float
    """
    k = working.shape[0]
    p = c.shape[0]
    order = working.copy()
    state = np.uint64(seed + 1) * np.uint64(0x9E3779B97F4A7C15)
    full = 3 * k >= p  # a contiguous update of all of c beats a gather beyond ~p/3
    change = 0.0
    for sweep in range(max_sweeps):
        if seed >= 0:
            state = _shuffle(order, state)
        dmax = 0.0
        wmax = 0.0
        for t in range(k):
            j = order[t]
            denom = nrm[j] + b[j]
            if denom <= 0.0:
                continue
            old = beta[j]
            new = _threshold(c[j] + nrm[j] * old, a[j], denom)
            delta = new - old
            if delta != 0.0:
                beta[j] = new
                Gj = G[j]
                if full:
                    for m in range(p):
                        c[m] -= delta * Gj[m]
                else:
                    for u in range(k):
                        m = working[u]
                        c[m] -= delta * Gj[m]
                dmax = max(dmax, abs(delta))
            wmax = max(wmax, abs(new))
        change = dmax / wmax if wmax > 0.0 else 0.0
        if change <= thr:
            return sweep + 1, change
    return max_sweeps, change


@njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _dot(x, r):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * r[i]
    return s


@njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _axpy(delta, x, r):
    for i in range(x.shape[0]):
        r[i] -= delta * x[i]


# X_s is Fortran-ordered; a single row or column is also C-contiguous, which numba types as "C"
@lazy_kernel(
    [(readonly(2, "F"), *_SWEEP_ARGS), (readonly(2, "C"), *_SWEEP_ARGS)], cache=True, nogil=True
)
def residual_sweeps(X, r, beta, nrm, a, b, working, max_sweeps, thr, seed):
    """Coordinate descent with residual updates over the coordinates ``working``.

    Parameters
    ----------
    X : ndarray of shape (n, p), Fortran order
        ``X_s``: centred, rows scaled by ``√w``.
    r : ndarray of shape (n,)
        ``y_s − X_sβ`` at the current ``beta`` (kept current).
    beta, nrm, a, b, working, max_sweeps, thr, seed
        As in :func:`gram_sweeps`.

    Returns
    -------
    sweeps : int
    relative_change : float
    """
    k = working.shape[0]
    order = working.copy()
    state = np.uint64(seed + 1) * np.uint64(0x9E3779B97F4A7C15)
    change = 0.0
    for sweep in range(max_sweeps):
        if seed >= 0:
            state = _shuffle(order, state)
        dmax = 0.0
        wmax = 0.0
        for t in range(k):
            j = order[t]
            denom = nrm[j] + b[j]
            if denom <= 0.0:
                continue
            xj = X[:, j]
            old = beta[j]
            new = _threshold(_dot(xj, r) + nrm[j] * old, a[j], denom)
            delta = new - old
            if delta != 0.0:
                beta[j] = new
                _axpy(delta, xj, r)
                dmax = max(dmax, abs(delta))
            wmax = max(wmax, abs(new))
        change = dmax / wmax if wmax > 0.0 else 0.0
        if change <= thr:
            return sweep + 1, change
    return max_sweeps, change
