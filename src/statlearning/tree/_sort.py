"""Sorting a node's values with their row ids, compiled with numba (the tree grower's sorts).

Every sort orders by the key ``(x, row)``: with increasing row ids this is a stable sort of
``x``, so the rows of a node are read in the order a stable sort would give.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_SMALL = 16
_RADIX_MIN = 1024


@njit(cache=True, nogil=True)
def _lt(x1, i1, x2, i2):
    return x1 < x2 or (x1 == x2 and i1 < i2)


@njit(cache=True, nogil=True)
def _swap(xs, ids, a, b):
    xs[a], xs[b] = xs[b], xs[a]
    ids[a], ids[b] = ids[b], ids[a]


@njit(cache=True, nogil=True)
def _insertion(xs, ids, lo, hi):
    for i in range(lo + 1, hi):
        x = xs[i]
        d = ids[i]
        j = i - 1
        while j >= lo and _lt(x, d, xs[j], ids[j]):
            xs[j + 1] = xs[j]
            ids[j + 1] = ids[j]
            j -= 1
        xs[j + 1] = x
        ids[j + 1] = d


@njit(cache=True, nogil=True)
def _sift(xs, ids, lo, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        a = lo + child
        if child + 1 < end and _lt(xs[a], ids[a], xs[a + 1], ids[a + 1]):
            child += 1
            a += 1
        b = lo + root
        if _lt(xs[b], ids[b], xs[a], ids[a]):
            _swap(xs, ids, a, b)
            root = child
        else:
            return


@njit(cache=True, nogil=True)
def _heapsort(xs, ids, lo, hi):
    n = hi - lo
    for s in range(n // 2 - 1, -1, -1):
        _sift(xs, ids, lo, s, n)
    for end in range(n - 1, 0, -1):
        _swap(xs, ids, lo, lo + end)
        _sift(xs, ids, lo, np.int64(0), end)  # not a literal 0: one compiled _sift


@njit(cache=True, nogil=True)
def sort_pairs(xs, ids, n):
    """Sort ``xs[:n]`` in place by the key ``(xs, ids)``, permuting ``ids`` alongside.

    Introsort: median-of-three quicksort, heapsort past ``2 log2 n`` levels, insertion sort
    on short ranges. With distinct ``ids`` the result equals a stable sort of ``xs`` when
    ``ids`` was increasing.
    """
    if n < 2:
        return
    st_lo = np.empty(128, dtype=np.int64)
    st_hi = np.empty(128, dtype=np.int64)
    st_d = np.empty(128, dtype=np.int64)
    sp = 1
    st_lo[0] = 0
    st_hi[0] = n
    st_d[0] = 2 * int(np.log2(n)) + 2
    while sp > 0:
        sp -= 1
        lo = st_lo[sp]
        hi = st_hi[sp]
        d = st_d[sp]
        while hi - lo > _SMALL:
            if d == 0:
                _heapsort(xs, ids, lo, hi)
                lo = hi
                break
            d -= 1
            mid = (lo + hi) // 2
            last = hi - 1
            if _lt(xs[mid], ids[mid], xs[lo], ids[lo]):
                _swap(xs, ids, mid, lo)
            if _lt(xs[last], ids[last], xs[mid], ids[mid]):
                _swap(xs, ids, last, mid)
                if _lt(xs[mid], ids[mid], xs[lo], ids[lo]):
                    _swap(xs, ids, mid, lo)
            piv = hi - 2
            _swap(xs, ids, mid, piv)
            px = xs[piv]
            pi = ids[piv]
            i = lo
            j = piv
            while True:
                i += 1
                while _lt(xs[i], ids[i], px, pi):
                    i += 1
                j -= 1
                while _lt(px, pi, xs[j], ids[j]):
                    j -= 1
                if i >= j:
                    break
                _swap(xs, ids, i, j)
            _swap(xs, ids, i, piv)
            # left part [lo, i), right part [i + 1, hi): push the larger, loop on the smaller
            if i - lo > hi - i - 1:
                st_lo[sp] = lo
                st_hi[sp] = i
                st_d[sp] = d
                sp += 1
                lo = i + 1
            else:
                st_lo[sp] = i + 1
                st_hi[sp] = hi
                st_d[sp] = d
                sp += 1
                hi = i
        if hi - lo > 1:
            _insertion(xs, ids, lo, hi)


@njit(cache=True, nogil=True)
def _key(u):
    """Order-preserving unsigned key of the float64 with bits ``u`` (``-0.0`` as ``+0.0``)."""
    if u == np.uint64(0x8000000000000000):
        u = np.uint64(0)
    if u >> np.uint64(63):
        return ~u
    return u | np.uint64(0x8000000000000000)


@njit(cache=True, nogil=True)
def radix_pairs(xs, ids, n, xs2, ids2, counts):
    """Stable LSD radix sort of ``xs[:n]`` by bytes of :func:`_key`, ``ids`` alongside.

    ``xs2``/``ids2`` (length >= ``n``) and ``counts`` (8, 256) are work buffers; byte
    positions where all keys agree are skipped. Faster than :func:`sort_pairs` from about a
    thousand values, and the same result when ``ids`` was increasing.
    """
    bits = xs.view(np.uint64)
    counts[:, :] = 0
    for i in range(n):
        k = _key(bits[i])
        for d in range(8):
            counts[d, (k >> np.uint64(8 * d)) & np.uint64(255)] += 1
    src_x, src_i, dst_x, dst_i = xs, ids, xs2, ids2
    swapped = False
    for d in range(8):
        c = counts[d]
        trivial = False
        for b in range(256):
            if c[b] != 0:
                trivial = c[b] == n
                break
        if trivial:
            continue
        tot = 0
        for b in range(256):
            t = c[b]
            c[b] = tot
            tot += t
        sb = src_x.view(np.uint64)
        shift = np.uint64(8 * d)
        for i in range(n):
            b = (_key(sb[i]) >> shift) & np.uint64(255)
            pos = c[b]
            c[b] = pos + 1
            dst_x[pos] = src_x[i]
            dst_i[pos] = src_i[i]
        src_x, dst_x = dst_x, src_x
        src_i, dst_i = dst_i, src_i
        swapped = not swapped
    if swapped:
        for i in range(n):
            xs[i] = src_x[i]
            ids[i] = src_i[i]


@njit(cache=True, nogil=True)
def sort_node(xs, ids, n, xs2, ids2, counts):
    """Sort ``xs[:n]`` by ``(xs, ids)``: radix sort for long, introsort for short arrays."""
    if n >= _RADIX_MIN:
        radix_pairs(xs, ids, n, xs2, ids2, counts)
    else:
        sort_pairs(xs, ids, n)
