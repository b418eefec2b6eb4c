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
    for i in range(m):  # not a slice assignment: that compiles numba's shape-error path
        for j in range(m):
            stack[0, i, j] = A[i, j]
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
    # a stable insertion sort of the few variables by importance (NaN last, as numpy's); an
    # np.argsort here would compile numba's merge sort as well (a second of the first run)
    order = np.empty(k, dtype=np.int64)
    ranked = np.empty(k)
    for i in range(k):
        v = importance[i]
        j = i
        while j > 0 and (ranked[j - 1] > v or (np.isnan(ranked[j - 1]) and not np.isnan(v))):
            ranked[j] = ranked[j - 1]
            order[j] = order[j - 1]
            j -= 1
        ranked[j] = v
        order[j] = kept[i]
    C2 = np.empty((k + 1, k + 1))
    for i in range(k + 1):
        ri = order[i] if i < k else q
        for j in range(k + 1):
            C2[i, j] = C[ri, order[j] if j < k else q]
    A2 = sweep_columns(C2, np.arange(k), tol)[0]
    best, masks, n_nodes = subset_search(A2, C[q, q], max_size, prune)
    return A[q, q], swept, order, best, masks, n_nodes

