"""Goodnight's sweep operator and greedy (forward/backward) least-squares paths on a
cross-product matrix (numba, ``cache=True``).

The matrix is the ``(q+1) × (q+1)`` cross product of ``[X, y]`` (the response in the last row and
column); after sweeping a set of columns in, its last diagonal entry is the residual sum of
squares of ``y`` on them. One sweep adds or drops a variable in ``O(q²)``, so a whole stepwise
path costs ``O(q³)`` and nothing depends on ``n``. Used by the subset and stepwise selectors and
by the MARS backward pass.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def sweep_inplace(A, k):
    """Goodnight's sweep of the symmetric matrix ``A`` on pivot ``k``, in place.

    ``A ← A − a aᵀ / d`` with ``a = A[:, k]`` and ``d = A[k, k]``, then row and column ``k`` set to
    ``a / d`` and ``A[k, k] = −1/d``. Sweeping a swept pivot again takes it out (up to the sign
    of row and column ``k``, which no residual sum of squares sees).
    """
    m = A.shape[0]
    d = A[k, k]
    col = A[:, k].copy()
    for i in range(m):
        ci = col[i]
        for j in range(m):
            A[i, j] = A[i, j] - (ci * col[j]) / d
    for i in range(m):
        v = col[i] / d
        A[i, k] = v
        A[k, i] = v
    A[k, k] = -1.0 / d


@numba.njit(cache=True)
def sweep_columns(C, columns, tol):
    """Sweep ``columns`` of ``C`` in order, skipping aliased ones.

    A column is aliased (linearly dependent on the columns swept before it) when its pivot is at
    most ``tol`` times its original diagonal, or that diagonal is not positive. Returns the
    swept copy of ``C`` and a boolean array, ``True`` where ``columns[i]`` was swept.
    """
    A = C.copy()
    swept = np.zeros(columns.shape[0], dtype=np.bool_)
    for i in range(columns.shape[0]):
        k = columns[i]
        if C[k, k] > 0.0 and A[k, k] > tol * C[k, k]:
            sweep_inplace(A, k)
            swept[i] = True
    return A, swept


@numba.njit(cache=True)
def move_rss(A, C, in_model, allow_add, allow_drop, tol, out):
    """RSS after each single move from the model swept into ``A`` (``nan``: move not allowed).

    Dropping ``j`` gives ``RSS + a_j² / (−A_jj)``, adding it ``RSS − a_j² / A_jj`` with
    ``a_j = A[j, -1]``; a column whose pivot fails the aliasing rule cannot be added.
    """
    m = A.shape[0]
    ryy = A[m - 1, m - 1]
    for j in range(m - 1):
        out[j] = np.nan
        a = A[j, m - 1]
        if in_model[j]:
            if allow_drop:
                out[j] = ryy + a * a / -A[j, j]
        elif allow_add and A[j, j] > tol * C[j, j] and C[j, j] > 0:
            out[j] = ryy - a * a / A[j, j]


@numba.njit(cache=True)
def greedy_path(A, C, in_model, forward, max_size, tol):
    """Forward (add while fewer than ``max_size``) or backward (drop) path by smallest RSS.

    ``A`` (swept for the start model, flagged in ``in_model``) and ``in_model`` are updated in
    place. Returns the variable moved at each step and the RSS after it; ties go to the smaller
    column index.
    """
    q = A.shape[0] - 1
    moved = np.empty(q, dtype=np.int64)
    rss = np.empty(q)
    cand = np.empty(q)
    size = 0
    for j in range(q):
        size += in_model[j]
    n_steps = 0
    while True:
        move_rss(A, C, in_model, forward and size < max_size, not forward, tol, cand)
        best_j = -1
        best = np.inf
        for j in range(q):
            if cand[j] < best:  # nan never wins
                best = cand[j]
                best_j = j
        if best_j < 0:
            break
        sweep_inplace(A, best_j)
        in_model[best_j] = not in_model[best_j]
        size += 1 if forward else -1
        moved[n_steps] = best_j
        rss[n_steps] = A[q, q]
        n_steps += 1
    return moved[:n_steps], rss[:n_steps]
