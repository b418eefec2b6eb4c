"""k-means on Dask collections: k-means|| seeding and blockwise Lloyd iterations.

:meth:`KMeans.fit <statlearning.cluster.KMeans.fit>` hands a Dask collection here (through
:mod:`statlearning._dask`). Every Lloyd iteration is one pass over the row blocks: each block
runs the in-memory compiled assignment step
(:func:`statlearning.cluster._kmeans_kernels.assign_accumulate`) against the current centres
and returns its per-cluster sums and counts, its inertia, how many of its labels changed since
the previous iteration, and its rows farthest from their centres (the candidates of the
empty-cluster repair); the summaries are merged in a tree and the centres updated on the
client exactly as in memory (:func:`statlearning.cluster._kmeans.updated_centers`, the same
repair, convergence rule and ``n_iter_``). The labels of an iteration stay on the workers
(persisted, one integer per row) until the next iteration has compared its own with them.

Seeding: ``init="k-means++"`` is Bahmani et al.'s (2012) k-means||: a uniformly drawn row,
then :data:`ROUNDS` passes that each keep every row independently with probability
``min(1, ℓ d²(x) / φ)`` (``ℓ = OVERSAMPLING · k``, ``d²`` the squared distance to the
candidates so far, ``φ`` their sum), one pass weighting each candidate by the rows nearest to
it, and the library's weighted k-means++ (:func:`statlearning.cluster.kmeans_plusplus`) on the
candidates, on the client. ``init="random"`` draws the rows the in-memory fit draws, and an
array of centres is used as given: both give the in-memory fit.
"""

from __future__ import annotations

import numpy as np

from .. import _dask
from .._core.compiled import kernel_array
from ._kmeans import _repair_empty, distinct_rows, kmeans_plusplus, updated_centers
from ._kmeans_kernels import assign_accumulate

#: Rounds of k-means|| sampling (Bahmani et al. find 5 enough).
ROUNDS = 5
#: Oversampling factor ℓ of k-means|| in units of ``n_clusters`` (ℓ = 2k, as the paper's
#: experiments and dask-ml).
OVERSAMPLING = 2.0

_NO_LABEL = -1


def fit_kmeans(km, X):
    """Fit ``km`` (a :class:`~statlearning.cluster.KMeans`) on the Dask collection ``X``."""
    from ._kmeans import _check_results

    name = type(km).__name__
    if km.algorithm != "lloyd":
        raise ValueError(
            f"{name}: algorithm={km.algorithm!r} does not fit on Dask collections (its "
            "n × k distance bounds would have to live with the data); use algorithm='lloyd', "
            "which computes the same iterations."
        )
    rows = _dask.row_blocks(km, X)
    n = rows.n
    checks, (_, _, ss) = _dask.compute(_dask.check_blocks(rows), _dask.column_moments(rows))
    _dask.raise_for_bad_blocks(km, rows, checks)
    k = km.n_clusters
    if k > n:
        raise ValueError(
            f"{name}: n_samples={n} should be >= n_clusters={k} (more clusters than samples)."
        )
    tol_abs = km.tol * float(np.mean(ss / n))

    def run(rng):
        return lloyd(rows, _initial_centers(km, rows, rng), km.max_iter, tol_abs)

    centers, labels, inertia, path, n_iter, _ = km._best_run(run)
    km.labels_ = labels
    km.cluster_centers_, km.inertia_, km.inertia_path_ = centers, float(inertia), path
    km.n_iter_ = int(n_iter)
    _check_results(km, None, None, distinct_rows(centers))
    return km


def _initial_centers(km, rows, rng):
    k = km.n_clusters
    if not isinstance(km.init, str):
        return km._initial_centers(np.empty((0, rows.X.shape[1])), rng)
    if km.init == "random":  # the in-memory draw
        idx = rng.choice(rows.n, size=k, replace=False)
        return np.asarray(rows.X[idx].compute(), dtype=np.float64)
    return kmeans_parallel(rows, k, rng)


# ---------------------------------------------------------------------------------- k-means||


def _nearest(X, state, new, base):
    """Squared distance of every row to its nearest candidate and that candidate's index,
    updated with the candidates ``new`` (numbered from ``base``)."""
    labels, dist = assign_accumulate(kernel_array(X), np.empty(0), new)[:2]
    if state is None:
        return dist, labels + base
    d, nearest = state
    closer = dist < d  # ties stay with the earlier candidate
    return np.where(closer, dist, d), np.where(closer, labels + base, nearest)


def _state_total(state):
    return float(state[0].sum())


def _sample_block(X, state, phi, ell, seed):
    if phi <= 0:
        return np.empty((0, X.shape[1]))
    keep = np.random.default_rng(seed).random(X.shape[0]) < ell * state[0] / phi
    return np.asarray(X[keep], dtype=np.float64)


def _candidate_counts(state, n_candidates):
    return np.bincount(state[1], minlength=n_candidates).astype(np.float64)


def _add(a, b):
    return a + b


def _vstack(a, b):
    return np.vstack([a, b])


def kmeans_parallel(rows, k, rng):
    """k-means|| (Bahmani et al. 2012) seeding of ``k`` centres from the Dask row blocks.

    Every block keeps (persisted on the workers) each row's squared distance to its nearest
    candidate and that candidate's index, updated each round with the new candidates only; a
    round is one pass (update, ``φ``, sampling), and the candidates' weights are the counts of
    the final nearest indices.

    Parameters
    ----------
    rows : statlearning._dask.RowBlocks
    k : int
    rng : numpy.random.RandomState

    Returns
    -------
    ndarray of shape (k, n_features)
    """
    import dask

    blocks = list(rows.X.to_delayed().ravel())
    ell = OVERSAMPLING * k
    update = dask.delayed(_nearest, pure=True)
    sample = dask.delayed(_sample_block, pure=True)
    total = dask.delayed(_state_total, pure=True)
    new = np.asarray(rows.X[int(rng.randint(rows.n))].compute(), dtype=np.float64)[None]
    candidates = np.empty((0, new.shape[1]))
    states = [None] * len(blocks)
    for _ in range(ROUNDS):
        states = dask.persist(
            *[update(b, s, new, candidates.shape[0]) for b, s in zip(blocks, states, strict=True)]
        )
        candidates = np.vstack([candidates, new])
        seeds = rng.randint(np.iinfo(np.int32).max, size=len(blocks))
        phi = _dask.tree_reduce([total(s) for s in states], _add)
        picks = [
            sample(b, s, phi, ell, int(z)) for b, s, z in zip(blocks, states, seeds, strict=True)
        ]
        (new,) = _dask.compute(_dask.tree_reduce(picks, _vstack))
        if not new.shape[0]:
            break  # every row is a candidate already (φ = 0)
    if new.shape[0]:
        states = [
            update(b, s, new, candidates.shape[0]) for b, s in zip(blocks, states, strict=True)
        ]
        candidates = np.vstack([candidates, new])
    if candidates.shape[0] < k:  # tiny data: fill with uniformly drawn rows
        idx = rng.choice(rows.n, size=k - candidates.shape[0], replace=False)
        fill = np.asarray(rows.X[idx].compute(), np.float64)
        states = [
            update(b, s, fill, candidates.shape[0]) for b, s in zip(blocks, states, strict=True)
        ]
        candidates = np.vstack([candidates, fill])
    count = dask.delayed(_candidate_counts, pure=True)
    (weights,) = _dask.compute(
        _dask.tree_reduce([count(s, candidates.shape[0]) for s in states], _add)
    )
    return kmeans_plusplus(kernel_array(candidates), k, sample_weight=weights, random_state=rng)[0]


# ------------------------------------------------------------------------------- Lloyd passes


def _farthest(min_dist, m):
    """Indices of the ``m`` largest ``min_dist`` (ties to the lower index), in that order."""
    n = min_dist.size
    if n > m:
        t = np.partition(min_dist, n - m)[n - m]  # the m-th largest value
        above = np.flatnonzero(min_dist > t)
        sel = np.concatenate([above, np.flatnonzero(min_dist == t)[: m - above.size]])
    else:
        sel = np.arange(n)
    return sel[np.lexsort((sel, -min_dist[sel]))]


def _lloyd_block(X, previous, offset, centers, moved_rows, moved_labels, m):
    """One block's assignment step: its labels and the summary merged by :func:`_merge`."""
    X = kernel_array(X)
    labels, min_dist, sums, counts = assign_accumulate(X, np.empty(0), centers)
    n = X.shape[0]
    if previous is None:
        changed, previous = 0, np.full(n, _NO_LABEL)
    else:  # last iteration's labels after its repair of empty clusters
        previous = _with_moves(previous, offset, moved_rows, moved_labels)
        changed = int(np.count_nonzero(labels != previous))
    far = _farthest(min_dist, m)
    candidates = (min_dist[far], far + offset, labels[far], previous[far], X[far])
    return labels, (sums, counts, float(min_dist.sum()), changed, candidates)


def _merge(a, b):
    sa, ca, ia, cha, fa = a
    sb, cb, ib, chb, fb = b
    far = [np.concatenate([x, y]) for x, y in zip(fa, fb, strict=True)]
    m = max(fa[0].size, fb[0].size)
    order = np.lexsort((far[1], -far[0]))[:m]
    return sa + sb, ca + cb, ia + ib, cha + chb, tuple(x[order] for x in far)


def _first(pair):
    return pair[0]


def _second(pair):
    return pair[1]


def _with_moves(labels, offset, moved_rows, moved_labels):
    labels = labels.copy()
    mine = (moved_rows >= offset) & (moved_rows < offset + labels.size)
    labels[moved_rows[mine] - offset] = moved_labels[mine]
    return labels


def lloyd(rows, centers, max_iter, tol_abs):
    """Lloyd's iterations on Dask row blocks from ``centers``, as
    :func:`statlearning.cluster._kmeans._lloyd`: ``(centers, labels, inertia, path, n_iter,
    converged)`` with ``labels`` a lazy Dask array."""
    import dask

    blocks = list(rows.X.to_delayed().ravel())
    offsets = [int(o) for o in rows.offsets]
    k = centers.shape[0]
    m = 2 * k  # enough candidates for any repair: k empty clusters and k single-row ones
    step = dask.delayed(_lloyd_block, pure=True)
    centers = kernel_array(centers.copy())
    previous = None
    no_moves = (np.empty(0, np.int64), np.empty(0, np.int64))
    moves = no_moves
    path, strict, converged, n_iter = [], False, False, 0

    def assign(previous, moves):
        parts = [
            step(b, None if previous is None else previous[i], offsets[i], centers, *moves, m)
            for i, b in enumerate(blocks)
        ]
        labels = [dask.delayed(_first, pure=True)(x) for x in parts]
        summary = _dask.tree_reduce([dask.delayed(_second, pure=True)(x) for x in parts], _merge)
        labels, summary = dask.persist(labels, summary)
        (summary,) = _dask.compute(summary)
        return labels, summary

    for _ in range(max_iter):
        n_iter += 1
        labels, (sums, counts, inertia, changed, far) = assign(previous, moves)
        path.append(float(inertia))
        moves = no_moves
        if np.any(counts == 0):
            dist, idx, lab, prev, Xf = (x.copy() for x in far)
            moved = _repair_empty(Xf, lab, dist, sums, counts)
            if moved.size:
                # the label comparison counts the repaired labels, as in memory
                changed += int(np.sum(lab[moved] != prev[moved]))
                changed -= int(np.sum(far[2][moved] != prev[moved]))
                moves = (idx[moved], lab[moved])
        new, shift = updated_centers(centers, sums, counts)
        centers = kernel_array(new)
        if previous is not None and changed == 0:
            strict = converged = True
            break
        previous = labels
        if float(np.sum(shift**2)) <= tol_abs:
            converged = True
            break
    if strict:
        final = [
            dask.delayed(_with_moves, pure=True)(lab, offsets[i], *moves)
            for i, lab in enumerate(labels)
        ]
    else:
        final, (_, _, inertia, _, _) = assign(None, no_moves)
        path.append(float(inertia))
    labels = _dask.stack_blocks(final, rows.X.chunks[0], np.int64)
    return centers, labels, path[-1], np.array(path), n_iter, converged
