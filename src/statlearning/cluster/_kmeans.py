"""k-means clustering by Lloyd's algorithm with greedy k-means++ seeding: :class:`KMeans`."""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import ClusterMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.compiled import core_is_free, kernel_array, numba_threads, single_blas_thread
from .._core.scaling import (
    column_variances,
    max_abs,
    scale_for,
    scale_for_magnitude,
    times,
    validated_magnitude,
)
from .._validation import ArrayLike, Interval, NJobs, Options, RandomState, validate_data
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import (
    ConvergenceWarning,
    external_stacklevel,
    warn_data_scale,
    warn_not_converged,
)
from ._elkan_kernels import elkan_assign, elkan_init
from ._kmeans_kernels import (
    CHUNK,
    SCREEN_WORK,
    assign_accumulate,
    assign_accumulate_parallel,
    assign_bounded,
    assign_bounded_parallel,
    candidate_potentials,
    centre_bounds,
    centre_distances,
    centre_distances_parallel,
    margin_norms,
    update_closest,
    update_closest_from,
    updated_centers,
)

__all__ = ["KMeans", "kmeans_plusplus"]


def kmeans_plusplus(
    X,
    n_clusters: int,
    *,
    sample_weight=None,
    random_state=None,
    n_local_trials=None,
    gram=False,
    order=None,
):
    """Greedy k-means++ seeding (D² sampling with local trials), as scikit-learn's.

    The first centre is a uniformly drawn row (drawn with probability proportional to its
    weight when ``sample_weight`` is given). Each further centre is chosen among
    ``n_local_trials`` rows drawn with probability proportional to their (weighted) squared
    distance to the nearest centre already chosen (D² sampling, seed 001 part 2, Algorithm 9):
    the trial that most reduces the potential ``Σ_i w_i min_s ‖x_i − c_s‖²`` wins.
    ``n_local_trials=1`` is the plain algorithm of the notes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        The data; with ``gram=True``, the Gram matrix of shape (n_samples, n_samples).
    n_clusters : int
        Number of centres to choose.
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        Non-negative weights of the potential (None: unit weights).
    random_state : None, int, RandomState or numpy.random.Generator
        A :class:`numpy.random.Generator` draws the first row with ``integers(n)`` and the
        trials with ``random()``; the other types go through scikit-learn's
        ``check_random_state`` and draw with ``randint`` and ``uniform``.
    n_local_trials : int, optional
        Default ``2 + floor(ln k)``.
    gram : bool, default=False
        ``X`` is a positive semi-definite Gram matrix ``K`` and distances are those of the
        feature space, ``‖φ(xᵢ) − φ(xⱼ)‖² = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ`` (kernel k-means++, as
        :class:`KernelKMeans` seeds).
    order : ndarray of shape (n_samples,) or None, default=None
        A permutation of the rows: the order in which the draws walk through them (None: the
        rows' own order). A draw ``u`` picks the first row, in this order, at which the
        cumulative (weighted) mass exceeds ``u`` times the total. With weights and an order
        that keeps repeated rows together, a row of weight ``w`` takes the same random numbers
        as ``w`` repeated rows (every draw goes through the cumulative weights, the first one
        included), and an order fixed by the points themselves (as :class:`KernelKMeans`'s)
        makes the seeding independent of the order of the rows.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
        The chosen rows of ``X`` (with ``gram=True``: the chosen rows of the Gram, each
        centre's kernel with every point).
    indices : ndarray of shape (n_clusters,)
        Rows of ``X`` chosen as centres.
    """
    X = kernel_array(X)
    original = X
    n = X.shape[0]
    if gram:
        if X.ndim != 2 or X.shape[1] != n:
            raise ValueError(f"gram=True needs a square Gram matrix; got shape {X.shape}.")
        diag = np.diag(X).copy()

        def update(row, closest, cumulative, w):
            d = diag + (diag[row] - 2.0 * X[row])
            np.minimum(closest, np.maximum(d, 0.0), out=closest)
            np.cumsum(w * closest, out=cumulative)
            return closest, cumulative

        def potentials(cand, closest, w):
            d = diag[:, None] + (diag[cand][None, :] - 2.0 * X[:, cand])
            np.maximum(d, 0.0, out=d)
            return w @ np.minimum(d, closest[:, None]), None

    else:
        X, _ = _rescaled(X)

        def update(row, closest, cumulative, w):
            return update_closest(X, row, closest, cumulative, w)

        def potentials(cand, closest, w):
            return candidate_potentials(X, cand, closest, w)  # and the distances

    if isinstance(random_state, np.random.Generator):
        randint, uniform = random_state.integers, random_state.random
    else:
        rng = check_random_state(random_state)
        randint, uniform = rng.randint, rng.uniform
    if order is not None:
        order = np.asarray(order, dtype=np.int64)
        if order.shape != (n,) or not np.array_equal(np.sort(order), np.arange(n)):
            raise ValueError(f"order must be a permutation of the {n} rows.")
    if sample_weight is None:
        w = np.ones(n)
        by_weight = None
    else:
        w = kernel_array(sample_weight)
        by_weight = np.cumsum(w if order is None else w[order])

    def walk(cumulative, draws, side="left"):
        """The rows at which the cumulative mass (in walk order) reaches the draws."""
        pos = np.minimum(np.searchsorted(cumulative, draws, side=side), n - 1)
        return pos.astype(np.int64) if order is None else order[pos]

    trials = 2 + int(math.log(n_clusters)) if n_local_trials is None else int(n_local_trials)
    indices = np.empty(n_clusters, dtype=np.int64)
    if by_weight is None:
        indices[0] = randint(n) if order is None else order[randint(n)]
    else:
        indices[0] = walk(by_weight, uniform() * by_weight[-1], side="right")
    closest, cumulative = update(indices[0], np.full(n, np.inf), np.empty(n), w)
    for c in range(1, n_clusters):
        mass = cumulative if order is None else np.cumsum((w * closest)[order])
        if mass[-1] <= 0:  # every row coincides with a chosen centre (duplicates)
            if by_weight is None:
                cand = walk(np.arange(1.0, n + 1.0), randint(n, size=trials), side="right")
            else:
                cand = walk(by_weight, uniform(size=trials) * by_weight[-1], side="right")
        else:
            cand = walk(mass, uniform(size=trials) * mass[-1])
        pots, dist = potentials(cand, closest, w)
        best = int(np.argmin(pots))
        indices[c] = cand[best]
        if dist is None:
            closest, cumulative = update(indices[c], closest, cumulative, w)
        else:
            closest, cumulative = update_closest_from(dist, best, closest, cumulative, w)
    return original[indices].copy(), indices


def _rescaled(X, centers=None):
    """``X`` (and ``centers``) divided by the power of two that keeps squared distances in range.

    Returns ``(X, s)`` or ``(X, centers, s)`` with ``s = None`` (and the inputs unchanged)
    when no rescaling is needed (see :mod:`statlearning._core.scaling`).
    """
    s = scale_for(X, centers)
    if s is not None:
        X = kernel_array(X / s)
        centers = None if centers is None else kernel_array(centers / s)
    return (X, s) if centers is None else (X, centers, s)


def distinct_rows(A) -> int:
    """Number of distinct rows of ``A`` (``np.unique(A, axis=0).shape[0]``, which costs 130 µs
    for ten centres against 17 by sorting the rows and comparing neighbours)."""
    if A.shape[0] < 2:
        return A.shape[0]
    ordered = A[np.lexsort(A.T[::-1])]
    return 1 + int(np.count_nonzero(np.any(ordered[1:] != ordered[:-1], axis=1)))


def _check_results(estimator, X, s, n_distinct=None):
    """The warnings of a fit: an inertia out of range, fewer distinct points than clusters."""
    inertia = estimator.inertia_
    if s is not None and (inertia == 0.0 or not np.isfinite(inertia)):
        warn_data_scale(estimator, ["inertia_"], float(max_abs(X)) * s)
    k = estimator.n_clusters
    if n_distinct is None:
        n_distinct = distinct_rows(estimator.cluster_centers_)
    if n_distinct < k:
        warnings.warn(
            f"{type(estimator).__name__}: only {n_distinct} distinct cluster(s) found for "
            f"n_clusters={k}: X has fewer distinct points than n_clusters (duplicate rows), so "
            "some cluster_centers_ coincide; lower n_clusters.",
            ConvergenceWarning,
            stacklevel=external_stacklevel(),
        )


def absolute_tolerance(X, tol) -> float:
    """The bound on the centres' total squared shift: ``tol`` times the mean variance of the
    columns (scikit-learn's convention); no pass over ``X`` when ``tol`` is 0."""
    return 0.0 if tol == 0 else tol * float(np.mean(column_variances(X)))


#: ``n_jobs=None`` runs an assignment step of at least this many multiply-adds (rows × features
#: × centres) on numba's threads whatever the machine's load: 100,000 × 100 rows with 10
#: centres (about 30 ms serially) gain from a second core, while a pass of a millisecond or two
#: on a busy machine would lose more to the threads' wake-up than it saves.
PARALLEL_WORK = 2**24

#: While another core is idle (:func:`~statlearning._core.compiled.core_is_free`), a step of
#: at least this many rows (four chunks of the kernels, so that two threads share them evenly
#: enough) runs on numba's threads too: on the idle two-core machine 8,000 × 3 rows with 3
#: centres take 0.035 ms against 0.041 serially, 8,000 × 80 with 30 centres 0.65 against 1.22;
#: with two or three chunks one thread does most of the work and the gain is lost.
QUIET_PARALLEL_ROWS = 3 * CHUNK + 1


def _threaded(n_jobs, n, work) -> bool:
    """Whether a pass over ``n`` rows of ``work`` multiply-adds runs on numba's threads: for
    ``n_jobs=None`` from :data:`PARALLEL_WORK`, or from :data:`QUIET_PARALLEL_ROWS` while
    another core is idle; always when ``n_jobs`` is set."""
    if n_jobs is not None or work >= PARALLEL_WORK:
        return True
    return n >= QUIET_PARALLEL_ROWS and core_is_free()


def _compiled_pass(n_jobs, X, centers, serial, parallel, *args):
    """``serial(X, *args)``, or ``parallel(X, *args)`` on ``n_jobs`` numba threads (BLAS on one
    thread inside them) when :func:`_threaded` says so for ``X`` against ``centers``."""
    n, p = X.shape
    if not _threaded(n_jobs, n, n * p * centers.shape[0]):
        return serial(X, *args)
    with numba_threads(n_jobs), single_blas_thread():
        return parallel(X, *args)


def _run_assignment(n_jobs, X, xnorm, centers, labels_only=False):
    """One assignment step of ``X`` (already rescaled) against ``centers``, serial or on
    ``n_jobs`` threads (BLAS on one thread inside them)."""
    return _compiled_pass(
        n_jobs, X, centers, assign_accumulate, assign_accumulate_parallel, xnorm, centers,
        labels_only,
    )  # fmt: skip


class _LloydSteps:
    """Lloyd's assignment step, compiled, serial or on numba's threads (``threaded``).

    With ``p · k ≥`` :data:`SCREEN_WORK` the rows are screened by a matrix product, and
    Hamerly's bounds settle the rows whose centre cannot have changed (:func:`assign_bounded`;
    most rows from the second step on): one lower bound per row carries over between steps.
    The labels, distances, sums and counts are those of screening every row.
    """

    def __init__(self, X, threaded=False):
        self.X = X
        self.xnorm = margin_norms(X)
        self.threaded = threaded
        self.labels = np.zeros(X.shape[0], dtype=np.int64)
        self.lower = np.zeros(X.shape[0], dtype=np.float64)
        self.shift = None
        self.screened = None  # rows the last bounded step screened

    def assign(self, centers):
        centers = kernel_array(centers)
        k = centers.shape[0]
        if self.X.shape[1] * k < SCREEN_WORK:
            kernel = assign_accumulate_parallel if self.threaded else assign_accumulate
            return kernel(self.X, self.xnorm, centers)
        drift, gap = centre_bounds(centers, np.zeros(k) if self.shift is None else self.shift)
        self.shift = None  # until the centres move again
        kernel = assign_bounded_parallel if self.threaded else assign_bounded
        min_dist, sums, counts, self.screened = kernel(
            self.X, self.xnorm, centers, self.labels, self.lower, drift, gap
        )
        return self.labels.copy(), min_dist, sums, counts

    def moved(self, rows, new_labels):
        self.labels[rows] = new_labels
        self.lower[rows] = 0.0  # screened at the next step

    def shifted(self, shift, labels):
        self.shift = shift


class _ElkanSteps:
    """Elkan's assignment step: the same labels, most distances skipped by the triangle
    inequality (upper bound per row, lower bound per row and centre: ``n × k`` memory)."""

    def __init__(self, X):
        self.X = X
        self.labels = None

    def assign(self, centers):
        if self.labels is None:
            self.labels, self.upper, self.lower = elkan_init(self.X, centers)
        labels, upper, _, sums, counts = elkan_assign(
            self.X, centers, self.labels, self.upper, self.lower
        )
        return labels.copy(), upper**2, sums, counts

    def moved(self, rows, new_labels):
        self.labels[rows] = new_labels
        self.upper[rows] = np.inf  # recomputed at the next assignment
        self.lower[rows, new_labels] = 0.0

    def shifted(self, shift, labels):
        self.upper += shift[self.labels]
        self.lower -= shift
        np.maximum(self.lower, 0.0, out=self.lower)


def _lloyd(X, centers, max_iter, tol_abs, algorithm="lloyd", threaded=False):
    """Lloyd's iterations from ``centers``; returns centres, labels, inertia, path, n_iter.

    Stops when the assignments no longer change, or when the total squared shift of the
    centres is ``≤ tol_abs``; then one more assignment step makes the labels consistent with
    the returned centres. An empty cluster is re-seeded at the row farthest from its centre.
    ``algorithm="elkan"`` computes the same assignment steps with Elkan's pruning.
    """
    steps = _ElkanSteps(X) if algorithm == "elkan" else _LloydSteps(X, threaded)
    centers = centers.copy()
    labels_old = None
    path = []
    strict = False
    converged = False
    n_iter = 0
    for _ in range(max_iter):
        n_iter += 1
        labels, min_dist, sums, counts = steps.assign(centers)
        path.append(float(min_dist.sum()))
        if np.any(counts == 0):
            rows = _repair_empty(X, labels, min_dist, sums, counts)
            steps.moved(rows, labels[rows])
        new, shift = updated_centers(centers, sums, counts)
        steps.shifted(shift, labels)
        centers = new
        if labels_old is not None and np.array_equal(labels, labels_old):
            strict = converged = True
            break
        labels_old = labels
        if float(np.sum(shift**2)) <= tol_abs:
            converged = True
            break
    if not strict:
        labels, min_dist, _, _ = steps.assign(centers)
        path.append(float(min_dist.sum()))
    return centers, labels, path[-1], np.array(path), n_iter, converged


def _repair_empty(X, labels, min_dist, sums, counts):
    """Move each empty cluster to one of the rows farthest from their centres (in place).

    The row leaves its cluster (sums and counts are updated), so the M-step that follows is
    the exact mean of the modified partition and the inertia cannot increase.
    """
    empty = np.flatnonzero(counts == 0)
    far = np.argsort(-min_dist, kind="stable")
    used = 0
    moved = []
    for j in empty:
        while used < far.size and counts[labels[far[used]]] <= 1:
            used += 1  # never empty another cluster
        if used == far.size:
            break
        i = far[used]
        used += 1
        donor = labels[i]
        sums[donor] -= X[i]
        counts[donor] -= 1
        sums[j] = X[i]
        counts[j] = 1
        labels[i] = j
        min_dist[i] = 0.0
        moved.append(i)
    return np.array(moved, dtype=np.int64)


class KMeans(ClusterMixin, TransformerMixin, StatBase):
    """K-means clustering: Lloyd's algorithm with (greedy) k-means++ seeding.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters ``k``; must not exceed the number of samples.
    init : {"k-means++", "random"} or array-like of shape (n_clusters, n_features)
        ``"k-means++"``: greedy D² seeding (:func:`kmeans_plusplus`); ``"random"``: ``k``
        distinct rows drawn uniformly; an array: these initial centres (R's ``kmeans(x,
        centers = matrix)``).
    n_init : "auto" or int, default="auto"
        Number of runs from different seeds; the run with the lowest inertia is kept. ``"auto"``
        is 1 for ``"k-means++"`` and 10 for ``"random"``. An explicit array runs once.
    max_iter : int, default=300
        Maximum Lloyd iterations per run; reaching it raises a ``ConvergenceWarning``.
    tol : float, default=1e-4
        Stop when the total squared shift of the centres is at most ``tol`` times the mean
        column variance of ``X`` (scikit-learn's rule). ``tol=0`` iterates until no assignment
        changes (R's ``kmeans(..., algorithm = "Lloyd")``).
    algorithm : {"lloyd", "elkan"}, default="lloyd"
        ``"lloyd"``: Lloyd's batch algorithm (the notes' Algorithm 8) with a compiled
        assignment step: rows are screened by a matrix product, and from the second step a row
        whose centre cannot have changed (Hamerly's 2010 bounds: one lower bound per row, with
        a slack for rounding) keeps it without the product; the iterations are exactly those
        of computing every distance. ``"elkan"``: the same iterations, with Elkan's (2003)
        triangle-inequality bounds skipping most distance computations; it keeps an ``n × k``
        array of lower bounds. Both give the same centres (up to floating-point ties).
    random_state : None, int or RandomState, default=None
        Seeds the initialisation.
    n_jobs : int, default=None
        Threads of the compiled assignment step of ``algorithm="lloyd"`` and of ``predict``,
        ``score`` (numba's thread count during the call, restored afterwards). ``None`` runs
        a step on numba's threads from about 1.7e7 rows × features × centres
        (``PARALLEL_WORK``), or from 6,145 rows while another core is idle, and serially
        otherwise (on a busy machine a small parallel region costs more in thread wake-ups
        than it saves); ``-1`` is every core, ``-2`` all but one. The result does not depend
        on it: rows are accumulated in fixed chunks added in a fixed order.

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    labels_ : ndarray of shape (n_samples,)
        Cluster of each training row (the Voronoi cell of its centre).
    inertia_ : float
        Within-cluster sum of squares ``Σ_i ‖x_i − c_{label(i)}‖²`` (R's ``tot.withinss``).
    inertia_path_ : ndarray
        Inertia after every assignment step of the kept run; never increasing.
    n_iter_ : int
        Lloyd iterations of the kept run.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    k-means minimises the within-cluster sum of squares (seed 001 part 2, eq. 9.1)

    .. math:: \\min_{c_1,\\dots,c_k,\\ \\ell} \\sum_{i=1}^n \\lVert x_i - c_{\\ell(i)} \\rVert^2 .

    Lloyd's algorithm alternates the assignment :math:`\\ell(i) = \\arg\\min_j \\lVert x_i -
    c_j\\rVert^2` (ties to the lowest index) and the update of each centre to the mean of its
    cluster; neither step can increase the objective, so ``inertia_path_`` is non-increasing.
    Only a local minimum is reached, hence ``n_init`` restarts.

    Empty clusters (which the notes leave open): a centre left without points is moved to the
    row farthest from its own centre (that row leaves its cluster, unless it is the cluster's
    only row), which lowers the objective; this is scikit-learn's repair.

    Mapping to R: ``KMeans(k, init=C, tol=0).fit(X)`` is ``kmeans(X, centers = C, algorithm =
    "Lloyd", iter.max = max_iter)``: ``cluster_centers_`` is ``centers``, ``labels_ + 1`` is
    ``cluster``, ``inertia_`` is ``tot.withinss``. R's default algorithm (Hartigan–Wong) can
    reach a different local minimum.

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` chunked by rows. Each Lloyd iteration is one
    pass (the compiled assignment step per block, per-cluster sums and counts merged), with the
    in-memory update, empty-cluster repair, convergence rule and ``n_iter_``: from the same
    initial centres (an ``init`` array, or ``init="random"`` with the same ``random_state``)
    the fit is the in-memory one. ``init="k-means++"`` seeds by k-means|| (Bahmani et al.,
    2012: five oversampling passes, then weighted k-means++ on the candidates), which needs
    far fewer passes than k sequential D² draws. ``labels_`` is then a lazy Dask array, as are
    ``predict`` and ``transform`` of a Dask collection. ``algorithm="elkan"`` is refused
    (its ``n × k`` bounds would have to stay with the data); ``n_jobs`` does not apply (Dask
    runs the blocks in parallel).
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "init": [Options({"k-means++", "random"}), ArrayLike()],
        "n_init": [Options({"auto"}), Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "algorithm": [Options({"lloyd", "elkan"})],
        "random_state": [RandomState()],
        "n_jobs": [None, NJobs()],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        n_init="auto",
        max_iter=300,
        tol=1e-4,
        algorithm="lloyd",
        random_state=None,
        n_jobs=None,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.algorithm = algorithm
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _initial_centers(self, X, rng, scale=None):
        """Initial centres for ``X`` (already divided by ``scale``, which divides ``init`` too)."""
        if isinstance(self.init, str):
            if self.init == "k-means++":
                return kmeans_plusplus(X, self.n_clusters, random_state=rng)[0]
            rows = rng.choice(X.shape[0], size=self.n_clusters, replace=False)
            return X[rows].copy()
        centers = np.array(self.init, dtype=np.float64)
        expected = (self.n_clusters, X.shape[1])
        if centers.shape != expected:
            raise ValueError(
                f"init: the initial centres must have shape {expected}; got {centers.shape}."
            )
        if not np.all(np.isfinite(centers)):
            raise ValueError("init: the initial centres contain NaN or infinite values.")
        return centers if scale is None else centers / scale

    @fit_context
    def fit(self, X, y=None):
        """Cluster ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        X, m = self._validated(X, reset=True)
        s = scale_for_magnitude(m)
        if s is not None:
            X = kernel_array(X / s)
        n = X.shape[0]
        if self.n_clusters > n:
            raise ValueError(
                f"KMeans: n_samples={n} should be >= n_clusters={self.n_clusters} (more "
                "clusters than samples)."
            )
        tol_abs = absolute_tolerance(X, self.tol)
        threaded = _threaded(self.n_jobs, n, n * X.shape[1] * self.n_clusters)

        def run(rng):
            centers = self._initial_centers(X, rng, s)
            # BLAS on one thread: the screening products are blocks of 256 rows, and inside
            # numba's threads a threaded BLAS oversubscribes the cores (8,000 × 80 with 30
            # centres: 44 ms per iteration against 0.7)
            with numba_threads(self.n_jobs), single_blas_thread():
                return _lloyd(X, centers, self.max_iter, tol_abs, self.algorithm, threaded)

        centers, labels, inertia, path, n_iter, _ = self._best_run(run)
        self.labels_ = labels
        if s is None:
            self.cluster_centers_, self.inertia_, self.inertia_path_ = centers, float(inertia), path
        else:
            self.cluster_centers_ = centers * s
            self.inertia_ = times(float(inertia), s, 2)
            self.inertia_path_ = times(path, s, 2)
        self.n_iter_ = int(n_iter)
        _check_results(self, X, s, distinct_rows(centers))
        return self

    def _best_run(self, run):
        """The run of lowest inertia among ``n_init`` runs ``run(rng)`` (each returning
        ``(centers, labels, inertia, path, n_iter, converged)``); warns if it did not converge."""
        rng = check_random_state(self.random_state)
        if not isinstance(self.init, str):
            n_init = 1
        elif self.n_init == "auto":
            n_init = 1 if self.init == "k-means++" else 10
        else:
            n_init = self.n_init
        best = None
        for _ in range(n_init):
            result = run(rng)
            if best is None or result[2] < best[2]:
                best = result
        if not best[5]:
            warn_not_converged(
                self,
                "Lloyd's algorithm",
                max_iter=self.max_iter,
                advice="increase max_iter or raise tol",
            )
        return best

    def _fit_dask(self, X, y=None):
        """:meth:`fit` on a Dask collection (:mod:`statlearning.cluster._kmeans_dask`)."""
        from ._kmeans_dask import fit_kmeans

        return fit_kmeans(self, X)

    def _validated(self, X, reset):
        """``(X, m)``: ``X`` validated, C-ordered and checked finite, and its largest magnitude
        (the finiteness check and the magnitude for rescaling take one read of ``X``)."""

        def validate(A, **params):
            A = validate_data(self, A, dtype=np.float64, order="C", reset=reset, **params)
            return kernel_array(A)

        X, m = validated_magnitude(validate, X, type(self).__name__)
        return X, m

    def _checked(self, X):
        """``(X, centres, s)``: ``X`` validated and C-ordered, and both divided by the factor
        ``s`` of :func:`_rescaled` (``None``: unchanged)."""
        check_is_fitted(self, "cluster_centers_")
        X, m = self._validated(X, reset=False)
        centers = self.cluster_centers_
        s = scale_for_magnitude(max(m, float(max_abs(centers))))
        if s is not None:
            X, centers = X / s, centers / s
        return X, kernel_array(centers), s

    def _assign(self, X, centers):
        """The compiled assignment step with ``n_jobs`` threads: labels, squared distances to
        the nearest centre, per-cluster sums and counts (computed on rescaled data when the
        squared distances would leave float64's range)."""
        X, centers, s = _rescaled(X, kernel_array(centers))
        labels, min_dist, sums, counts = _run_assignment(self.n_jobs, X, np.empty(0), centers)
        return labels, times(min_dist, s, 2), times(sums, s), counts

    def predict(self, X) -> np.ndarray:
        """Nearest centre of each row (its Voronoi cell; ties to the lowest index).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "cluster_centers_")
            return _dask.predict_blocks(self, X, "predict", dtype=np.int64)
        X, centers, _ = self._checked(X)
        return _run_assignment(self.n_jobs, X, np.empty(0), centers, labels_only=True)[0]

    def transform(self, X) -> np.ndarray:
        """Euclidean distance of each row to each centre.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_clusters)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "cluster_centers_")
            return _dask.predict_blocks(self, X, "transform", self.n_clusters)
        X, centers, s = self._checked(X)
        dist = _compiled_pass(
            self.n_jobs, X, centers, centre_distances, centre_distances_parallel, centers
        )
        return dist if s is None else dist * s

    def score(self, X, y=None) -> float:
        """Negative inertia of ``X`` under the fitted centres (higher is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        float
        """
        X, centers, s = self._checked(X)
        min_dist = _run_assignment(self.n_jobs, X, np.empty(0), centers)[1]
        return -float(times(min_dist.sum(), s, 2))

    @property
    def _n_features_out(self) -> int:
        return self.cluster_centers_.shape[0]

    def get_feature_names_out(self, input_features=None):
        """Output names ``kmeans0, kmeans1, …`` of :meth:`transform`.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Ignored: the names depend only on the class name and ``n_clusters``.

        Returns
        -------
        feature_names_out : ndarray of str objects of shape (n_clusters,)
            The lower-cased class name followed by the cluster index (``minibatchkmeans0, …``
            for :class:`MiniBatchKMeans`).
        """
        check_is_fitted(self, "cluster_centers_")
        prefix = type(self).__name__.lower()
        return np.array([f"{prefix}{j}" for j in range(self.n_clusters)], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
