"""Compiled hot loops of k-means: the assignment step (Lloyd's E-step fused with the
accumulation of the M-step), squared distances, and the k-means++ candidate potentials.

Array in, array out; compiled by numba with ``cache=True``. :func:`assign_accumulate` is
serial: on a busy machine a parallel region costs more in thread wake-ups than it saves on
small steps, so the estimator chooses between it and :func:`assign_accumulate_parallel` by
the step's size and the machine's load. Rows are accumulated in chunks, so the partial sums
are added in a fixed order (deterministic results); that also lets
:func:`assign_accumulate_parallel` run the chunks on several threads and return exactly the
same numbers.

The assignment step ranks the centres of a block of rows by one matrix product (BLAS), as
scikit-learn's Lloyd does, then compares the few centres within the product's rounding margin
of the best by their direct sums: the labels, and so the sums and counts, are bit for bit
those of the direct distances (R's ``kmeans``). The scores are laid out a centre per row, so
that the smallest and second smallest of each row are found by vector loops across the rows
(:func:`_rank_two`); a row whose runner-up clears the margin needs only its winner's distance,
summed in vector order (:func:`_winner_distance`: within ``2 (p − 1) ε`` relative of the
feature-order sum). With few features and centres, below :data:`SCREEN_WORK`, the direct
distances of every centre are the faster and are kept; they are computed for a block of rows
at a time, as vectors across the rows (:func:`_block_distances`).

Within a fit (:func:`assign_bounded`), Hamerly's bounds carry over from step to step: a row
whose distance to its previous centre stays below a lower bound on its distance to every other
centre keeps it without the product, and only the other rows are screened. The bounds carry a
relative slack far above the rounding of the distances, so the iterations are the same.
"""

from __future__ import annotations

import numba
import numpy as np

#: Rows per chunk: each chunk accumulates its own partial sums, added in chunk order.
CHUNK = 2048
_BLOCK = 256
#: Features × centres from which the assignment step screens by a matrix product: below it
#: the direct distances are cheaper than the product's call and the second pass over the rows.
SCREEN_WORK = 200
#: Entries of ``X`` up to which the k-means++ candidates' distances are computed by blocks of
#: rows (:func:`_block_distances`) rather than a row at a time: with ``X`` in cache, 1,000 ×
#: 100 with four candidates takes 0.058 ms against 0.096; streamed from memory, 100,000 × 100
#: takes 15 ms against 9.6.
CANDIDATE_BLOCKS_MAX = 2**20
#: Padding of the transposed block's rows: with rows exactly ``_BLOCK`` doubles (2 KiB) apart,
#: the transposition's writes to one column fall into two sets of the L1 cache, and from about
#: 24 features they evict each other (the direct distances ran 2–5× slower).
_PAD = 8
_EPS = 2.220446049250313e-16


@numba.njit(cache=True, inline="always")
def _margin_gamma(p):
    """``γ = 8 (p + 4) ε``: the screening margin's relative rounding allowance."""
    return 8.0 * (p + 4) * _EPS


@numba.njit(cache=True, inline="always")
def _slack(p):
    """``κ = 1 + 16 (p + 4) ε``: the relative slack of every bound of :func:`_bounded_chunk`."""
    return 1.0 + 16.0 * (p + 4) * _EPS


@numba.njit(cache=True, inline="always")
def _sq_dist(X, i, centers, j):
    """``Σ_f (X[i, f] − centers[j, f])²`` summed in feature order (the direct distance)."""
    d = 0.0
    for f in range(X.shape[1]):
        diff = X[i, f] - centers[j, f]
        d += diff * diff
    return d


@numba.njit(cache=True, inline="always")
def _record(X, i, best, best_d, c, labels, min_dist, part_sums, part_counts):
    """Row ``i`` goes to centre ``best`` at squared distance ``best_d``: chunk ``c``'s slots."""
    labels[i] = best
    min_dist[i] = best_d
    part_counts[c, best] += 1.0
    for f in range(X.shape[1]):
        part_sums[c, best, f] += X[i, f]


@numba.njit(cache=True, inline="always")
def _row_distances(X, i, ct, d):
    """``d[j] = Σ_f (X[i, f] − ct[f, j])²`` for every column ``j`` of ``ct`` (points
    transposed): each sum in feature order, as :func:`_sq_dist` (the same numbers), the
    ``j`` sums side by side, so that the loop vectorises instead of waiting on one chain of
    additions."""
    p, k = ct.shape
    j = 0
    while j + 4 <= k:  # four sums in registers (an array in memory would chain them again)
        s0 = s1 = s2 = s3 = 0.0
        for f in range(p):
            x = X[i, f]
            a0 = x - ct[f, j]
            a1 = x - ct[f, j + 1]
            a2 = x - ct[f, j + 2]
            a3 = x - ct[f, j + 3]
            s0 += a0 * a0
            s1 += a1 * a1
            s2 += a2 * a2
            s3 += a3 * a3
        d[j], d[j + 1], d[j + 2], d[j + 3] = s0, s1, s2, s3
        j += 4
    while j < k:
        s0 = 0.0
        for f in range(p):
            a0 = X[i, f] - ct[f, j]
            s0 += a0 * a0
        d[j] = s0
        j += 1


@numba.njit(cache=True, inline="always")
def _block_distances(X, b0, m, ct, xt, D):
    """``D[j, r] = Σ_f (X[b0 + r, f] − ct[f, j])²`` for the ``m ≤ _BLOCK`` rows from ``b0``
    and every column ``j`` of ``ct`` (points transposed); ``xt`` is a ``p × _BLOCK`` buffer.

    The rows are transposed into ``xt`` and the distances of the block to one point are
    accumulated feature by feature over contiguous runs of rows, a loop the compiler turns
    into vector instructions; each distance is still the sum in feature order (the numbers of
    :func:`_sq_dist`). Computed a row at a time (:func:`_row_distances`), a row's distances
    are short chains of additions that wait on each other: the assignment step with ten
    features and ten centres is 2.5 × faster by blocks, with three features and twenty
    centres 2 ×. (For the few candidates of k-means++ with many features the row at a time
    is the faster: 10 ms against 43 ms for 10,000 × 100.)
    """
    p, k = ct.shape
    r = 0
    while r + 8 <= m:  # eight rows at a time: each line of ``xt`` is written whole
        for f in range(p):
            for q in range(8):
                xt[f, r + q] = X[b0 + r + q, f]
        r += 8
    for rest in range(r, m):
        for f in range(p):
            xt[f, rest] = X[b0 + rest, f]
    for j in range(k):
        dj = D[j]
        for r in range(m):
            dj[r] = 0.0
        for f in range(p):
            cf = ct[f, j]
            xf = xt[f]
            for r in range(m):
                e = xf[r] - cf
                dj[r] += e * e


@numba.njit(cache=True, inline="always")
def _assign_direct(X, ct, start, stop, c, labels, min_dist, part_sums, part_counts, labels_only):
    """Rows ``start:stop`` by their direct distances to every centre (few features and centres;
    ``ct`` the centres transposed), a block of rows at a time (:func:`_block_distances`);
    ``labels_only``: the labels alone."""
    p, k = ct.shape
    xt = np.empty((p, _BLOCK + _PAD), dtype=np.float64)
    D = np.empty((k, _BLOCK), dtype=np.float64)
    best_d = np.empty(_BLOCK, dtype=np.float64)
    best = np.empty(_BLOCK, dtype=np.int64)
    for b0 in range(start, stop, _BLOCK):
        m = min(_BLOCK, stop - b0)
        _block_distances(X, b0, m, ct, xt, D)
        for r in range(m):  # ties go to the lowest index, as with one row at a time
            best_d[r] = D[0, r]
            best[r] = 0
        for j in range(1, k):
            dj = D[j]
            for r in range(m):
                if dj[r] < best_d[r]:
                    best_d[r] = dj[r]
                    best[r] = j
        if labels_only:
            labels[b0 : b0 + m] = best[:m]
            continue
        for r in range(m):
            _record(X, b0 + r, best[r], best_d[r], c, labels, min_dist, part_sums, part_counts)


@numba.njit(cache=True, inline="always")
def _block_scores(c2, X, b0, b1, G):
    """``G[j, r] = −2 c_j · x_{b0+r}`` for the rows ``b0:b1``: one matrix product (BLAS) of the
    centres times two (``c2``, exact) by the block transposed, so that a centre's scores lie
    along the rows for the vector loops that rank them. ``G`` is the full block's buffer."""
    if b1 - b0 == G.shape[1]:
        np.dot(c2, X[b0:b1].T, G)
        return G
    return np.dot(c2, X[b0:b1].T)


@numba.njit(cache=True, inline="always")
def _rank_two(g, cnorm, m, first, second, best):
    """Smallest and second smallest score ``a_j = ‖c_j‖² + g[j, r]`` of each of ``m`` rows and
    the index of the smallest (ties to the lowest index), a centre at a time across the rows:
    selects without branches, which the compiler turns into vector instructions."""
    for r in range(m):
        first[r] = np.inf
        second[r] = np.inf
        best[r] = 0
    for j in range(g.shape[0]):
        cj = cnorm[j]
        gj = g[j]
        for r in range(m):
            a = gj[r] + cj
            lower = a < first[r]
            second[r] = first[r] if lower else min(second[r], a)
            best[r] = j if lower else best[r]
            first[r] = a if lower else first[r]


@numba.njit(cache=True, inline="always")
def _screen_block(A, b0, m, norms, centers, terms, G, first, second, best_of):
    """Nearest centre ``best_of[r]`` of the ``m`` rows of ``A`` from ``b0``, exact, screened by
    one matrix product; ``norms[r]``: the rows' ``‖x‖²`` for the margin (:func:`_margin_norm`).

    The score ``a_j = ‖c_j‖² − 2 x·c_j`` ranks the centres of a row up to a rounding error
    bounded by ``γ (2‖x‖² + ‖c_j‖² + ‖c_b‖²)``, with ``γ = 8 (p + 4) ε`` (a single score is
    within ``γ (‖x‖² + ‖c_j‖²)``), which also covers the rounding of the direct sums. When the
    second smallest score ``second[r]`` clears the best's by that margin (with the largest
    ``‖c_j‖²``), the best is the row's nearest centre; otherwise the centres within the margin
    are compared by their direct sums ``Σ_f (x_f − c_jf)²`` (ties to the lowest index), and
    ``second[r]`` is set to ``−∞`` (no bound on the other centres' distances).
    """
    c2, _, cnorm, widest = terms
    k, p = centers.shape
    gamma = _margin_gamma(p)
    g = _block_scores(c2, A, b0, b0 + m, G)
    _rank_two(g, cnorm, m, first, second, best_of)
    for r in range(m):
        best = best_of[r]
        limit = first[r] + gamma * (2.0 * norms[r] + cnorm[best])
        if second[r] > limit + gamma * widest:  # every other centre clears the margin
            continue
        second[r] = -np.inf
        best_d = np.inf
        for j in range(k):
            if j != best and g[j, r] + cnorm[j] > limit + gamma * cnorm[j]:
                continue
            d = _sq_dist(A, b0 + r, centers, j)
            if d < best_d:
                best_d = d
                best_of[r] = j


@numba.njit(cache=True, inline="always")
def _assign_chunk(
    X, xnorm, centers, terms, c, labels, min_dist, part_sums, part_counts, labels_only
):
    """Assignment and accumulation of the rows of chunk ``c`` (writes only that chunk's slots).

    Each block of rows is screened by one matrix product (:func:`_screen_block`): labels and
    partial sums are exactly those of computing every distance directly (ties to the lowest
    index); each row's distance to its centre is :func:`_winner_distance`. Below
    :data:`SCREEN_WORK` features × centres the distances are all computed directly (in
    feature order). ``labels_only``: the labels alone (no distance, no accumulation:
    ``predict``). ``terms``: the centres' :func:`_centre_terms`.
    """
    n, p = X.shape
    k = centers.shape[0]
    start = c * CHUNK
    stop = min(start + CHUNK, n)
    if p * k < SCREEN_WORK:
        _assign_direct(
            X, terms[1], start, stop, c, labels, min_dist, part_sums, part_counts, labels_only
        )
        return
    G = np.empty((k, _BLOCK), dtype=np.float64)
    first = np.empty(_BLOCK, dtype=np.float64)
    second = np.empty(_BLOCK, dtype=np.float64)
    best_of = np.empty(_BLOCK, dtype=np.int64)
    computed = np.empty(_BLOCK, dtype=np.float64)
    for b0 in range(start, stop, _BLOCK):
        m = min(_BLOCK, stop - b0)
        if xnorm.shape[0]:
            norms = xnorm[b0 : b0 + m]
        else:  # the margin's ‖x‖², read before the product reads the rows
            norms = computed
            for r in range(m):
                norms[r] = _margin_norm(X[b0 + r])
        _screen_block(X, b0, m, norms, centers, terms, G, first, second, best_of)
        if labels_only:
            labels[b0 : b0 + m] = best_of[:m]
            continue
        for r in range(m):
            i = b0 + r
            best = best_of[r]
            d = _winner_distance(X[i], centers[best])
            _record(X, i, best, d, c, labels, min_dist, part_sums, part_counts)


@numba.njit(cache=True, inline="always")
def _bounded_chunk(X, xnorm, centers, terms, bounds, c, labels, min_dist, part_sums, part_counts):
    """:func:`_assign_chunk` with Hamerly's bounds: a row is screened only when its previous
    centre might no longer be its nearest (the labels, distances and sums are the same).

    ``labels`` holds each row's previous centre on entry and ``lower`` (``bounds[0]``) a lower
    bound on its distance to every other centre before they moved. With ``u`` the distance to
    the previous centre ``a`` (computed: it is needed anyway), the row keeps ``a`` when ``u``
    is below both ``lower − drift[a]`` (the other centres moved by at most ``drift[a]``) and
    ``gap[a]``, half the distance from ``a`` to its nearest other centre (triangle
    inequality), with a relative slack ``κ = 1 + 16 (p + 4) ε`` on every bound, ample for the
    rounding of the computed distances: a row kept has a nearest centre clear of the others by
    far more than the rounding of the direct sums, so it is the direct sums' nearest too.
    Screened rows get their lower bound from the runner-up's score, less its margin.
    """
    lower, drift, gap, screened = bounds
    n, p = X.shape
    k = centers.shape[0]
    start = c * CHUNK
    stop = min(start + CHUNK, n)
    kappa = _slack(p)
    gamma = _margin_gamma(p)
    widest = terms[3]
    G = np.empty((k, _BLOCK), dtype=np.float64)
    first = np.empty(_BLOCK, dtype=np.float64)
    second = np.empty(_BLOCK, dtype=np.float64)
    best_of = np.empty(_BLOCK, dtype=np.int64)
    rows = np.empty((_BLOCK, p), dtype=np.float64)  # the rows to screen, gathered
    norms = np.empty(_BLOCK, dtype=np.float64)
    which = np.empty(_BLOCK, dtype=np.int64)
    dist = np.empty(_BLOCK, dtype=np.float64)
    for b0 in range(start, stop, _BLOCK):
        m = min(_BLOCK, stop - b0)
        q = 0
        for r in range(m):
            i = b0 + r
            a = labels[i]
            d = _winner_distance(X[i], centers[a])
            dist[r] = d
            low = max(lower[i] - drift[a], 0.0) / kappa
            lower[i] = low
            if np.sqrt(d) * kappa >= max(low, gap[a]):
                which[q] = r
                q += 1
        if q == 0:
            pass
        elif 2 * q > m:  # most rows: the whole block in place rather than gathered
            _screen_block(X, b0, m, xnorm[b0 : b0 + m], centers, terms, G, first, second, best_of)
            for r in range(m):
                which[r] = r
            q = m
        else:
            for t in range(q):
                i = b0 + which[t]
                norms[t] = xnorm[i]
                rows[t] = X[i]
            _screen_block(rows, 0, q, norms, centers, terms, G, first, second, best_of)
        for t in range(q):
            r = which[t]
            i = b0 + r
            best = best_of[t]
            if best != labels[i]:
                labels[i] = best
                dist[r] = _winner_distance(X[i], centers[best])
            floor = xnorm[i] + second[t] - gamma * (2.0 * xnorm[i] + widest)
            lower[i] = np.sqrt(floor) / kappa if floor > 0.0 else 0.0
        screened[c] += q
        for r in range(m):
            i = b0 + r
            _record(X, i, labels[i], dist[r], c, labels, min_dist, part_sums, part_counts)


@numba.njit(cache=True)
def centre_bounds(centers, shift):
    """What :func:`assign_bounded` needs of the centres: ``drift[a]``, the largest shift of the
    centres other than ``a`` (``shift`` from :func:`updated_centers`), and ``gap[a]``, half
    the distance from centre ``a`` to its nearest other, each with the slack ``κ``."""
    k, p = centers.shape
    kappa = _slack(p)
    top = 0  # the largest shift and the largest of the others
    for j in range(1, k):
        if shift[j] > shift[top]:
            top = j
    runner_up = 0.0
    for j in range(k):
        if j != top:
            runner_up = max(runner_up, shift[j])
    drift = np.full(k, shift[top] * kappa)
    drift[top] = runner_up * kappa
    between = centre_distances(centers, centers, True)
    gap = np.empty(k, dtype=np.float64)
    for a in range(k):
        near = np.inf
        for j in range(k):
            if j != a:
                near = min(near, between[a, j])
        gap[a] = 0.5 * near / kappa if k > 1 else np.inf
    return drift, gap


# The two sums below are compiled as functions of their own, not inlined: numba inlines at
# the level of its own IR, and an inlined body is compiled with the caller's flags, losing
# ``fastmath`` (the sums then run in feature order, one dependent addition after another).


@numba.njit(cache=True, fastmath={"reassoc", "contract"})
def _winner_distance(x, c):
    """``‖x − c‖²`` of a row and the centre the screen assigned it, summed in whatever order
    vectorises: sums of non-negative terms, so any order is within ``2 (p − 1) ε`` relative of
    the feature-order sum (labels never depend on it). 8,000 × 80 with 10 centres: the
    assignment step takes 0.64 ms against 0.76 with the sum in feature order."""
    s = 0.0
    for f in range(x.shape[0]):
        e = x[f] - c[f]
        s += e * e
    return s


@numba.njit(cache=True, fastmath={"reassoc", "contract"})
def _margin_norm(x):
    """``‖x‖²`` for the screening margin alone, summed in whatever order vectorises (the margin
    has room for its rounding; labels and distances never depend on it): three times faster
    than the feature-order sum with 80 features."""
    s = 0.0
    for f in range(x.shape[0]):
        s += x[f] * x[f]
    return s


@numba.njit(cache=True)
def margin_norms(X):
    """:func:`_margin_norm` of every row: the ``xnorm`` of :func:`assign_accumulate` (computed
    once per fit: the rows do not move) and the centres' norms in the screening scores."""
    out = np.empty(X.shape[0], dtype=np.float64)
    for i in range(X.shape[0]):
        out[i] = _margin_norm(X[i])
    return out


@numba.njit(cache=True, inline="always")
def _centre_terms(centers):
    """The centres times −2 (for the screening product), transposed (for the direct distances
    by blocks), their squared norms (:func:`margin_norms`: the margin covers their rounding in
    any order) and the largest of these."""
    cnorm = margin_norms(centers)
    widest = cnorm.max() if cnorm.size else 0.0
    return -2.0 * centers, np.ascontiguousarray(centers.T), cnorm, widest


@numba.njit(cache=True, inline="always")
def _workspace(X, centers):
    """Outputs of the assignment step and one partial-sum slot per chunk of rows."""
    n, p = X.shape
    k = centers.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    labels = np.empty(n, dtype=np.int64)
    min_dist = np.empty(n, dtype=np.float64)
    part_sums = np.zeros((n_chunks, k, p), dtype=np.float64)
    part_counts = np.zeros((n_chunks, k), dtype=np.float64)
    return n_chunks, labels, min_dist, part_sums, part_counts


@numba.njit(cache=True, inline="always")
def _reduce_chunks(part_sums, part_counts):
    """Per-cluster sums and counts: the chunks' partial sums added in chunk order."""
    n_chunks, k, p = part_sums.shape
    sums = np.zeros((k, p), dtype=np.float64)
    counts = np.zeros(k, dtype=np.float64)
    for c in range(n_chunks):
        for j in range(k):
            counts[j] += part_counts[c, j]
            for f in range(p):
                sums[j, f] += part_sums[c, j, f]
    return sums, counts


@numba.njit(cache=True)
def assign_accumulate(X, xnorm, centers, labels_only=False):
    """Nearest centre of every row, its squared distance, and the per-cluster sums and counts.

    Parameters
    ----------
    X : ndarray (n, p), float64, C-contiguous
    xnorm : ndarray (n,) or (0,), float64
        Squared norms of the rows for the screening margin (:func:`margin_norms`), or empty
        to compute them on the way (a single pass, as in ``predict``).
    centers : ndarray (k, p), float64, C-contiguous
    labels_only : bool, default=False
        Only ``labels`` is wanted (``predict``): the other outputs are then incomplete.

    Returns
    -------
    labels : ndarray (n,), int64
        Index of the nearest centre (ties to the lowest index).
    min_dist : ndarray (n,), float64
        Squared distance to it: the feature-order sum below :data:`SCREEN_WORK`, else
        :func:`_winner_distance` (within ``2 (p − 1) ε`` relative of it).
    sums : ndarray (k, p), float64
        Sum of the rows assigned to each centre.
    counts : ndarray (k,), float64
        Number of rows assigned to each centre.
    """
    n_chunks, labels, min_dist, part_sums, part_counts = _workspace(X, centers)
    terms = _centre_terms(centers)
    for c in range(n_chunks):
        _assign_chunk(
            X, xnorm, centers, terms, c, labels, min_dist, part_sums, part_counts, labels_only
        )
    sums, counts = _reduce_chunks(part_sums, part_counts)
    return labels, min_dist, sums, counts


@numba.njit(cache=True, parallel=True)
def assign_accumulate_parallel(X, xnorm, centers, labels_only=False):
    """:func:`assign_accumulate` with the chunks on numba's threads: the same numbers (each
    chunk is accumulated alone, the chunks are then added in order)."""
    n_chunks, labels, min_dist, part_sums, part_counts = _workspace(X, centers)
    terms = _centre_terms(centers)
    for c in numba.prange(n_chunks):
        _assign_chunk(
            X, xnorm, centers, terms, c, labels, min_dist, part_sums, part_counts, labels_only
        )
    sums, counts = _reduce_chunks(part_sums, part_counts)
    return labels, min_dist, sums, counts


@numba.njit(cache=True)
def assign_bounded(X, xnorm, centers, labels, lower, drift, gap):
    """:func:`assign_accumulate` for Lloyd's iterations, the rows whose centre cannot have
    changed settled by Hamerly's bounds (:func:`_bounded_chunk`): the same labels, distances,
    sums and counts.

    ``labels`` (the previous labels, updated in place) and ``lower`` (updated in place) carry
    over from the previous step; start from zeros. ``xnorm`` is :func:`margin_norms` of ``X``
    (not empty); ``drift`` and ``gap`` come from :func:`centre_bounds`. Returns ``(min_dist,
    sums, counts, screened)``, ``screened`` the number of rows the bounds left to the matrix
    product (whole blocks are screened in place when most of their rows need it). Needs
    ``p · k ≥`` :data:`SCREEN_WORK`.
    """
    n_chunks, _, min_dist, part_sums, part_counts = _workspace(X, centers)
    terms = _centre_terms(centers)
    bounds = (lower, drift, gap, np.zeros(n_chunks, dtype=np.int64))
    for c in range(n_chunks):
        _bounded_chunk(
            X, xnorm, centers, terms, bounds, c, labels, min_dist, part_sums, part_counts
        )
    sums, counts = _reduce_chunks(part_sums, part_counts)
    return min_dist, sums, counts, bounds[3].sum()


@numba.njit(cache=True, parallel=True)
def assign_bounded_parallel(X, xnorm, centers, labels, lower, drift, gap):
    """:func:`assign_bounded` with the chunks on numba's threads (the same numbers)."""
    n_chunks, _, min_dist, part_sums, part_counts = _workspace(X, centers)
    terms = _centre_terms(centers)
    bounds = (lower, drift, gap, np.zeros(n_chunks, dtype=np.int64))
    for c in numba.prange(n_chunks):
        _bounded_chunk(
            X, xnorm, centers, terms, bounds, c, labels, min_dist, part_sums, part_counts
        )
    sums, counts = _reduce_chunks(part_sums, part_counts)
    return min_dist, sums, counts, bounds[3].sum()


@numba.njit(cache=True)
def updated_centers(centers, sums, counts):
    """Lloyd's update: each centre to the mean of its cluster (an empty one stays); returns
    the new centres and each centre's shift (Euclidean). Compiled: called every iteration,
    it costs 2 µs where the same NumPy expressions cost 8."""
    k, p = centers.shape
    new = centers.copy()
    shift = np.zeros(k, dtype=np.float64)
    for j in range(k):
        if counts[j] > 0:
            s = 0.0
            for f in range(p):
                mean = sums[j, f] / counts[j]
                step = mean - centers[j, f]
                new[j, f] = mean
                s += step * step
            shift[j] = np.sqrt(s)
    return new, shift


@numba.njit(cache=True, inline="always")
def _distance_block(X, b, ct, out, root):
    """Rows of block ``b`` (``_BLOCK`` rows) of :func:`centre_distances`."""
    n, p = X.shape
    k = ct.shape[1]
    b0 = b * _BLOCK
    m = min(_BLOCK, n - b0)
    xt = np.empty((p, _BLOCK + _PAD), dtype=np.float64)
    D = np.empty((k, _BLOCK), dtype=np.float64)
    _block_distances(X, b0, m, ct, xt, D)
    for r in range(m):
        for j in range(k):
            out[b0 + r, j] = np.sqrt(D[j, r]) if root else D[j, r]


@numba.njit(cache=True)
def centre_distances(X, centers, root=True):
    """``D[i, j] = ‖X[i] − centers[j]‖`` (``root=False``: squared), computed exactly (no
    expansion): each sum in feature order, a block of rows at a time as vectors across the
    rows (:func:`_block_distances`; 3× faster than a row at a time with 100 features)."""
    n = X.shape[0]
    out = np.empty((n, centers.shape[0]), dtype=np.float64)
    ct = np.ascontiguousarray(centers.T)
    for b in range((n + _BLOCK - 1) // _BLOCK):
        _distance_block(X, b, ct, out, root)
    return out


@numba.njit(cache=True, parallel=True)
def centre_distances_parallel(X, centers, root=True):
    """:func:`centre_distances` with the blocks on numba's threads (the same numbers)."""
    n = X.shape[0]
    out = np.empty((n, centers.shape[0]), dtype=np.float64)
    ct = np.ascontiguousarray(centers.T)
    for b in numba.prange((n + _BLOCK - 1) // _BLOCK):
        _distance_block(X, b, ct, out, root)
    return out


@numba.njit(cache=True)
def candidate_potentials(X, candidates, closest, weights):
    """k-means++ trial: ``Σ_i w_i min(closest[i], ‖X[i] − X[c]‖²)`` for each candidate row ``c``.

    Parameters
    ----------
    X : ndarray (n, p)
    candidates : ndarray (t,), int64
        Row indices of the candidate centres.
    closest : ndarray (n,)
        Current squared distance of every row to its nearest chosen centre.
    weights : ndarray (n,)
        Sample weights.

    Returns
    -------
    potentials : ndarray (t,)
    distances : ndarray (n, t)
        ``‖X[i] − X[c]‖²``: the winner's column updates ``closest`` without another pass over
        ``X`` (:func:`update_closest_from`).
    """
    n, p = X.shape
    t = candidates.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    part = np.zeros((n_chunks, t), dtype=np.float64)
    dist = np.empty((n, t), dtype=np.float64)
    ct = np.empty((p, t), dtype=np.float64)  # the candidates transposed
    for m in range(t):
        for f in range(p):
            ct[f, m] = X[candidates[m], f]
    xt = np.empty((p, _BLOCK + _PAD), dtype=np.float64)
    D = np.empty((t, _BLOCK), dtype=np.float64)
    d = np.empty(t, dtype=np.float64)
    by_blocks = n * p <= CANDIDATE_BLOCKS_MAX
    for c in range(n_chunks):
        start = c * CHUNK
        stop = min(start + CHUNK, n)
        for b0 in range(start, stop, _BLOCK):
            size = min(_BLOCK, stop - b0)
            if by_blocks:
                _block_distances(X, b0, size, ct, xt, D)
            for r in range(size):
                i = b0 + r
                if not by_blocks:
                    _row_distances(X, i, ct, d)
                for m in range(t):
                    dm = D[m, r] if by_blocks else d[m]
                    dist[i, m] = dm
                    part[c, m] += weights[i] * min(dm, closest[i])
    out = np.zeros(t, dtype=np.float64)
    for c in range(n_chunks):
        for m in range(t):
            out[m] += part[c, m]
    return out, dist


@numba.njit(cache=True)
def update_closest_from(dist, m, closest, cumulative, weights):
    """:func:`update_closest` for candidate ``m`` of :func:`candidate_potentials`, from its
    column of ``dist`` (the same numbers, without reading ``X`` again)."""
    total = 0.0
    for i in range(closest.shape[0]):
        d = dist[i, m]
        if d < closest[i]:
            closest[i] = d
        total += weights[i] * closest[i]
        cumulative[i] = total
    return closest, cumulative


@numba.njit(cache=True)
def update_closest(X, row, closest, cumulative, weights):
    """``closest[i] ← min(closest[i], ‖X[i] − X[row]‖²)`` and the running sum of
    ``weights[i] · closest[i]``, in place.

    Returns ``(closest, cumulative)``; ``cumulative[-1]`` is the potential ``Σ_i w_i closest[i]``
    and ``cumulative`` is what D² sampling searches.
    """
    n, p = X.shape
    total = 0.0
    d = np.empty(4, dtype=np.float64)
    for b0 in range(0, n, 4):
        if b0 + 4 <= n:  # four rows' sums side by side (in registers), each in feature order
            s0 = s1 = s2 = s3 = 0.0
            for f in range(p):
                y = X[row, f]
                a0 = X[b0, f] - y
                a1 = X[b0 + 1, f] - y
                a2 = X[b0 + 2, f] - y
                a3 = X[b0 + 3, f] - y
                s0 += a0 * a0
                s1 += a1 * a1
                s2 += a2 * a2
                s3 += a3 * a3
            d[0], d[1], d[2], d[3] = s0, s1, s2, s3
            m = 4
        else:
            m = n - b0
            for r in range(m):
                d[r] = _sq_dist_rows(X, b0 + r, row)
        for r in range(m):
            i = b0 + r
            if d[r] < closest[i]:
                closest[i] = d[r]
            total += weights[i] * closest[i]
            cumulative[i] = total
    return closest, cumulative


@numba.njit(cache=True, inline="always")
def _sq_dist_rows(X, i, r):
    """``Σ_f (X[i, f] − X[r, f])²`` in feature order."""
    d = 0.0
    for f in range(X.shape[1]):
        diff = X[i, f] - X[r, f]
        d += diff * diff
    return d
