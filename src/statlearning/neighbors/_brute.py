"""Brute-force k-nearest-neighbour search: blocked distances fused with selection (numba).

The hot loop of the neighbour searches. Queries are split into blocks of ``block_rows`` rows,
processed in parallel (one block per thread); each block scans the training rows in tiles of
``block_cols`` columns, so that the only distance storage is one ``block_rows × block_cols``
tile per thread (256 × 256 doubles = 0.5 MB by default): memory stays bounded whatever the
sizes.

* Squared Euclidean and cosine tiles come from one small matrix product per tile (BLAS, through
  ``np.dot``): ``‖y‖² − 2 xᵀy`` (the query's own ``‖x‖²`` is constant along the row and left
  out) or ``−x̂ᵀŷ``. The product is fast but rounds differently from the direct sum, so it only
  *screens*: every training row whose screened value is within ``slack`` of the running ``k``-th
  smallest is kept as a candidate, where ``slack`` bounds twice the rounding error of the
  product. The candidates are then re-evaluated exactly (:func:`~._exact.pair_value`) and
  ordered by ``(exact value, index)``; no neighbour can be missed or misordered by rounding.
* Manhattan, Chebyshev and Minkowski tiles are computed directly with
  :func:`~._exact.pair_value`, so screening is exact (``slack = 0``).

Selection keeps, per query, a max-heap of the ``k`` smallest screened values and a buffer of
candidates (in increasing training index). A query whose buffer overflows (many training rows
within ``slack`` of one another, e.g. duplicated rows) is flagged and recomputed by the full
exact scan :func:`~._exact.exact_select`.

BLAS must run single-threaded inside the parallel blocks: the caller wraps the call in a thread
limit (nested BLAS threads oversubscribe the cores).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._exact import COSINE, SQEUCLIDEAN, pair_value, sift_down

__all__ = ["brute_knn"]


@njit(cache=True)
def _scan_tile(row, yn, offset, sl, rel, qn, h, bv, bj, c, first):
    """Feed one tile row to a query's heap ``h`` and candidate buffer; new count, -1: overflow."""
    k = h.shape[0]
    cap = bv.shape[0]
    n = row.shape[0]
    start = 0
    if first:
        for j in range(k):
            v = row[j] + yn[j]
            h[j] = v
            bv[j] = v
            bj[j] = j + offset
        c = k
        for s in range(k // 2 - 1, -1, -1):
            sift_down(h, s, k)
        start = k
    top = h[0]
    lim = top + rel * (top + qn) + sl
    for j in range(start, n):
        v = row[j] + yn[j]
        if v <= lim:
            if v < top:
                h[0] = v
                sift_down(h, 0, k)
                top = h[0]
                lim = top + rel * (top + qn) + sl
            if c == cap:  # compact: drop candidates that the heap has since outgrown
                c2 = 0
                for a in range(c):
                    if bv[a] <= lim:
                        bv[c2] = bv[a]
                        bj[c2] = bj[a]
                        c2 += 1
                c = c2
                if c == cap:
                    return -1
            bv[c] = v
            bj[c] = j + offset
            c += 1
    return c


@njit(parallel=True, cache=True)
def brute_knn(Q, X, yn, qn, slack, rel, k, code, power, block_rows, block_cols, cap):
    """The ``k`` nearest training rows of every query, in ``(exact value, index)`` order.

    Parameters
    ----------
    Q : ndarray (m, p)
        Queries (prepared by the metric). The screening product uses ``−2 Q`` (squared
        Euclidean) or ``−Q`` (cosine, unit rows), formed one block at a time.
    X : ndarray (n, p)
        Training rows (prepared by the metric).
    yn : ndarray (n,)
        Added to each tile column: ``‖x_j‖²`` for squared Euclidean, zeros otherwise.
    qn : ndarray (m,)
        What the screened values lack: ``‖q‖²`` for squared Euclidean, zeros otherwise.
    slack : ndarray (m,)
        Screening tolerance per query (0 for the direct metrics).
    rel : float
        Relative tie tolerance: candidates are kept up to ``(1 + rel)`` times the ``k``-th
        value and ``n_tied`` counts those beyond the ``k``-th (0: exact ties only).
    k : int
        Neighbours per query, ``1 ≤ k ≤ n``.
    code : int
        Kernel code of the metric; ``power``: Minkowski exponent.
    block_rows, block_cols : int
        Tile shape; ``block_cols ≥ k``.
    cap : int
        Candidate buffer size per query (``> k``).

    Returns
    -------
    vals : ndarray (m, k)
        Exact reduced values, ascending.
    idx : int64 ndarray (m, k)
        Training indices; equal values in increasing index order.
    n_tied : int64 ndarray (m,)
        How many further training rows have a value within ``(1 + rel)`` times the ``k``-th
        (exact: screening keeps every row that can tie); meaningless for overflowed rows.
    overflow : bool ndarray (m,)
        Rows to recompute with :func:`~._exact.exact_select`.
    """
    m = Q.shape[0]
    vals = np.empty((m, k))
    idx = np.empty((m, k), np.int64)
    n_tied = np.zeros(m, np.int64)
    overflow = np.zeros(m, np.bool_)
    n_blocks = (m + block_rows - 1) // block_rows
    for b in prange(n_blocks):
        i0 = b * block_rows
        i1 = min(m, i0 + block_rows)
        _search_block(
            Q[i0:i1],
            X,
            yn,
            qn[i0:i1],
            slack[i0:i1],
            rel,
            k,
            code,
            power,
            block_cols,
            cap,
            vals[i0:i1],
            idx[i0:i1],
            n_tied[i0:i1],
            overflow[i0:i1],
        )
    return vals, idx, n_tied, overflow


@njit(cache=True)
def _search_block(
    Q, X, yn, qn, slack, rel, k, code, power, block_cols, cap, vals, idx, n_tied, overflow
):
    """One block of queries (one thread): scan every tile, then re-evaluate the candidates."""
    mb = Q.shape[0]
    n = X.shape[0]
    gemm = code == SQEUCLIDEAN or code == COSINE
    A = (-2.0 if code == SQEUCLIDEAN else -1.0) * Q
    D = np.empty((mb, block_cols))
    H = np.empty((mb, k))
    BV = np.empty((mb, cap))
    BJ = np.empty((mb, cap), np.int64)
    cnt = np.zeros(mb, np.int64)
    for t0 in range(0, n, block_cols):
        nb = min(block_cols, n - t0)
        if not gemm:
            Dv = D
            for i in range(mb):
                for j in range(nb):
                    Dv[i, j] = pair_value(Q[i], X[t0 + j], code, power)
        elif nb == block_cols:
            Dv = D
            np.dot(A, X[t0 : t0 + nb].T, Dv)
        else:
            Dv = np.dot(A, X[t0 : t0 + nb].T)
        ynt = yn[t0 : t0 + nb]
        for i in range(mb):
            if cnt[i] >= 0:
                cnt[i] = _scan_tile(
                    Dv[i, :nb], ynt, t0, slack[i], rel, qn[i], H[i], BV[i], BJ[i], cnt[i], t0 == 0
                )
    for i in range(mb):
        c = cnt[i]
        if c < 0:
            overflow[i] = True
            continue
        lim = H[i, 0] + rel * (H[i, 0] + qn[i]) + slack[i]
        cc = 0
        for a in range(c):
            if BV[i, a] <= lim:
                BJ[i, cc] = BJ[i, a]
                cc += 1
        if cc < k:
            # fewer candidates than neighbours: only possible when the screening values are
            # not finite (NaN from an overflowing ‖q‖² + ‖x‖² − 2qᵀx); the exact scan decides
            overflow[i] = True
            continue
        d = np.empty(cc)
        for a in range(cc):
            d[a] = pair_value(Q[i], X[BJ[i, a]], code, power)
        order = np.argsort(d, kind="mergesort")  # candidates are in index order: stable
        for a in range(k):
            vals[i, a] = d[order[a]]
            idx[i, a] = BJ[i, order[a]]
        last = d[order[k - 1]] * (1.0 + rel)
        e = 0
        for a in range(k, cc):
            if d[order[a]] <= last:
                e += 1
        n_tied[i] = e
