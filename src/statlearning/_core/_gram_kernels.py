"""Compiled passes of the shared Gram matrix (:mod:`statlearning._core.kernel_gram`).

A large Gram is one BLAS product (``syrk`` for the symmetric Gram: its lower triangle only),
then one parallel pass in place that turns each inner product into the argument of the
kernel's elementwise function (``−γ·max(‖x‖² + ‖y‖² − 2xᵀy, 0)`` for the RBF, ``γxᵀy + r``
for the polynomial and sigmoid kernels, ``xᵀy / (‖x‖‖y‖)`` for the cosine) and, for a
symmetric Gram, mirrors the lower triangle into the upper one tile by tile. NumPy's vectorised
``exp``/``tanh``/``power`` then finish the matrix (numba's scalar ``exp`` is several times
slower than NumPy's SIMD loop).
"""

from __future__ import annotations

import numba
from numba import prange

from .compiled import F8, I8, lazy_kernel, readonly, writeable

__all__ = ["COSINE", "LINEAR", "POLY", "RBF", "SIGMOID", "finish_rect", "finish_symmetric"]

LINEAR, POLY, RBF, SIGMOID, COSINE = 0, 1, 2, 3, 4

#: Side of the square tiles of the symmetric pass (a 64 × 64 tile of doubles is 32 KB).
_TILE = 64


@numba.njit(cache=True, inline="always")
def _argument(g, a, b, code, gamma, coef0):
    """The kernel's argument from the inner product ``g`` and the row terms ``a``, ``b``
    (squared norms for the RBF, inverse norms for the cosine). A zero distance or inner
    product stays exact when γ is infinite (γs² overflowed on rescaled data)."""
    if code == RBF:
        d = a + b - 2.0 * g
        if d <= 0.0:
            return 0.0
        return -gamma * d
    if code == POLY or code == SIGMOID:
        if g == 0.0:
            return coef0
        return gamma * g + coef0
    if code == COSINE:
        return g * a * b
    return g


@lazy_kernel((writeable(2), readonly(1), I8, F8, F8), cache=True, parallel=True)
def finish_symmetric(A, rows, code, gamma, coef0):
    """In place: the argument of the kernel on the lower triangle of ``A`` (inner products
    there), mirrored into the upper triangle; the RBF's diagonal distance is exactly 0."""
    n = A.shape[0]
    n_tiles = (n + _TILE - 1) // _TILE
    # tile row I has I + 1 tiles: pairing rows t and n_tiles − 1 − t balances the threads
    for t in prange((n_tiles + 1) // 2):
        for half in range(2):
            tile = t if half == 0 else n_tiles - 1 - t
            if half == 1 and tile == t:
                continue
            i0 = tile * _TILE
            i1 = min(i0 + _TILE, n)
            for other in range(tile + 1):
                j0 = other * _TILE
                for i in range(i0, i1):
                    j1 = min(j0 + _TILE, i + 1)
                    for j in range(j0, j1):
                        if i == j and code == RBF:
                            v = 0.0
                        else:
                            v = _argument(A[i, j], rows[i], rows[j], code, gamma, coef0)
                        A[i, j] = v
                        A[j, i] = v


@lazy_kernel((writeable(2), readonly(1), readonly(1), I8, F8, F8), cache=True, parallel=True)
def finish_rect(A, rows, cols, code, gamma, coef0):
    """In place: the argument of the kernel for every inner product of ``A``."""
    n, m = A.shape
    for i in prange(n):
        a = rows[i]
        for j in range(m):
            A[i, j] = _argument(A[i, j], a, cols[j], code, gamma, coef0)
