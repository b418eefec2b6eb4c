"""Compiled pieces of the subset and stepwise searches (numba, ``cache=True``).

Everything here works on the ``(q+1) × (q+1)`` cross-product matrix of ``[X, y]`` (the response
in the last row and column), reduced once from the data; nothing depends on ``n``.

* :func:`sweep_inplace` is Goodnight's sweep operator on one pivot, :func:`sweep_columns` sweeps
  a list of pivots with R's aliasing rule. A stepwise move (adding or dropping a variable) is one
  sweep, ``O(q²)``, and :func:`greedy_path` runs a whole forward or backward path.
* :func:`subset_search` walks the tree of subsets of ``{0, …, q-1}`` obtained by *dropping*
  variables from the full model in increasing index order (every subset is reached exactly once;
  the children of a node drop one more variable with an index larger than the last one dropped).
  Each node holds the swept matrix of its model (upper triangle only), so a child costs one
  reverse sweep of the trailing block, at most ``O(q²)`` — never a fresh regression — and the
  residual sum of squares is the last diagonal entry.

With ``prune=True`` the search is the branch and bound of Furnival and Wilson (1974),
"Regressions by leaps and bounds", the algorithm of R's ``leaps``: every model below a node is a
subset of the node's model, so its RSS is a lower bound for them all; a subtree is skipped when
that bound is not below the best RSS found so far for every model size the subtree can still
reach. A skipped subtree holds no model strictly better than the best already recorded, so the
result is the one of the full enumeration (``prune=False``, kept as the reference). Children are
visited from the smallest subtree to the largest, so the large subtrees meet good bounds.
"""

from __future__ import annotations

import numba
import numpy as np

from .._core.sweep import greedy_path, move_rss, sweep_columns, sweep_inplace

__all__ = ["greedy_path", "move_rss", "subset_search", "sweep_columns", "sweep_inplace"]


@numba.njit(cache=True)
def _unsweep(src, dst, k):
    """``dst = RSW[k](src)`` on the trailing block (upper triangle): take variable ``k`` out.

    Only rows and columns after ``k`` (the variables the subtree may still drop, and the
    response) are written: below a node that dropped ``k`` nothing else is ever read, so a node
    costs ``O((q − k)²)``. Only the upper triangle (``i ≤ j``) is read or written.
    """
    m = src.shape[0]
    d = src[k, k]
    for i in range(k + 1, m):
        f = src[k, i] / d
        for j in range(i, m):
            dst[i, j] = src[i, j] - f * src[k, j]


@numba.njit(cache=True)
def subset_search(A, null_rss, max_size, prune):
    """Best RSS per model size (``0…q``) over subsets of the ``q`` swept-in variables.

    Returns ``(best_rss, best_mask, n_nodes)``; sizes above ``max_size`` are not recorded
    (``inf``) and ``best_mask`` holds the variable bitmask (bit ``j`` = variable ``j``).
    """
    m = A.shape[0]
    q = m - 1
    best = np.full(q + 1, np.inf)
    mask_best = np.zeros(q + 1, dtype=np.int64)
    best[0] = null_rss
    full_mask = (np.int64(1) << q) - 1
    if q <= max_size:
        best[q] = A[q, q]
        mask_best[q] = full_mask
    if q == 0:
        return best, mask_best, 1
    # stack[d] = swept matrix of the node at depth d; child pointer counts down from q-1.
    stack = np.empty((q + 1, m, m))
    stack[0, :, :] = A
    masks = np.empty(q + 1, dtype=np.int64)
    masks[0] = full_mask
    first = np.empty(q + 1, dtype=np.int64)  # removable variables of the node: first..q-1
    nxt = np.empty(q + 1, dtype=np.int64)  # next child to visit (counts down)
    first[0] = 0
    nxt[0] = q - 1
    depth = 0
    n_nodes = 1
    while depth >= 0:
        j = nxt[depth]
        if j < first[depth]:
            depth -= 1
            continue
        nxt[depth] = j - 1
        size = q - depth - 1  # size of the child
        child = depth + 1
        n_nodes += 1
        n_rem = q - 1 - j  # variables the child's subtree may still drop
        # sizes the child's subtree can still reach below the child itself
        lo = max(size - n_rem, 1)
        hi = min(size - 1, max_size)
        src = stack[depth]
        # the child's RSS in O(1) (the last entry of the reverse sweep); its matrix is formed
        # only when the search descends into it
        a = src[j, q]
        rss = src[q, q] - a * (a / src[j, j])
        cmask = masks[depth] & ~(np.int64(1) << j)
        if size <= max_size and rss < best[size]:
            best[size] = rss
            mask_best[size] = cmask
        if n_rem == 0 or lo > hi:  # nothing below the child
            continue
        if prune:
            alive = False
            for s in range(lo, hi + 1):
                if rss < best[s]:
                    alive = True
                    break
            if not alive:
                continue
        _unsweep(src, stack[child], j)
        masks[child] = cmask
        first[child] = j + 1
        nxt[child] = q - 1
        depth = child
    return best, mask_best, n_nodes


@numba.njit(cache=True)
def best_subsets_kernel(C, max_size, prune, tol):
    """The whole subset search from the scaled cross-product matrix ``C`` of ``[X, y]``.

    Sweeps every variable in (aliased ones are left out), orders the kept variables by
    importance — the RSS increase when each is dropped from the full model, largest first, so
    that the largest subtrees of the search drop important variables and are pruned — sweeps
    them in that order and runs :func:`subset_search`. Returns ``(rss_full, swept, order,
    best_rss, best_mask, n_nodes)``: ``swept`` flags the kept columns, bit ``j`` of a mask is
    variable ``order[j]``.
    """
    q = C.shape[0] - 1
    A, swept = sweep_columns(C, np.arange(q), tol)
    kept = np.flatnonzero(swept)
    k = kept.size
    importance = np.empty(k)
    for i in range(k):
        v = kept[i]
        b = A[v, q]
        importance[i] = -(b * b) / -A[v, v]
    order = kept[np.argsort(importance, kind="mergesort")]
    C2 = np.empty((k + 1, k + 1))
    for i in range(k + 1):
        ri = order[i] if i < k else q
        for j in range(k + 1):
            C2[i, j] = C[ri, order[j] if j < k else q]
    A2 = sweep_columns(C2, np.arange(k), tol)[0]
    best, masks, n_nodes = subset_search(A2, C[q, q], max_size, prune)
    return A[q, q], swept, order, best, masks, n_nodes
