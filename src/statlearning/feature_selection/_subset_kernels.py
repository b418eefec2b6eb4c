"""Compiled search over subsets of regressors (numba, ``cache=True``).

:func:`subset_search` walks the tree of subsets of ``{0, …, q-1}`` obtained by *dropping*
variables from the full model in increasing index order (every subset is reached exactly once;
the children of a node drop one more variable with an index larger than the last one dropped).
Each node holds the reversibly swept ``(q+1) × (q+1)`` cross-product matrix of its model
(Goodnight's sweep operator, the response in the last row/column), so a child costs one reverse
sweep of the trailing block, at most ``O(q²)`` — never a fresh regression — and the residual
sum of squares is the last diagonal entry.

With ``prune=True`` it is the branch-and-bound search of Furnival and Wilson (1974), "Regressions
by leaps and bounds", the algorithm of R's ``leaps``: every model below a node is a subset of the
node's model, so its RSS is a lower bound for them all; a subtree is skipped when that bound is
not below the best RSS found so far for every model size the subtree can still reach. Children
are visited from the smallest subtree to the largest, so the large subtrees meet good bounds.

Array in, array out: ``A`` is the fully swept matrix of the full model (every variable in) and
is not modified; the result is the best RSS and its variable bitmask for each size ``0…q``.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _unsweep(src, dst, k):
    """``dst = RSW[k](src)`` on the trailing block: take variable ``k`` out of ``src``.

    Only rows and columns after ``k`` (the variables the subtree may still drop, and the
    response) are written: below a node that dropped ``k`` nothing else is ever read, so a node
    costs ``O((q − k)²)``.
    """
    m = src.shape[0]
    d = src[k, k]
    for i in range(k + 1, m):
        f = src[i, k] / d
        for j in range(i, m):
            v = src[i, j] - f * src[k, j]
            dst[i, j] = v
            dst[j, i] = v


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
        _unsweep(stack[depth], stack[child], j)
        n_nodes += 1
        rss = stack[child, q, q]
        cmask = masks[depth] & ~(np.int64(1) << j)
        if size <= max_size and rss < best[size]:
            best[size] = rss
            mask_best[size] = cmask
        n_rem = q - 1 - j  # variables the child's subtree may still drop
        if n_rem == 0 or size <= 1:
            continue
        lo = size - n_rem
        if lo < 1:
            lo = 1
        hi = size - 1
        if hi > max_size:
            hi = max_size
        if lo > hi:
            continue
        if prune:
            alive = False
            for s in range(lo, hi + 1):
                if rss < best[s]:
                    alive = True
                    break
            if not alive:
                continue
        masks[child] = cmask
        first[child] = j + 1
        nxt[child] = q - 1
        depth = child
    return best, mask_best, n_nodes
