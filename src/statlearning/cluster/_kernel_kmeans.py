"""Kernel k-means: Lloyd's iterations in the feature space of a kernel (seed 002 (11.4–11.12)),
with kernel k-means++ seeding and sample weights."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import ClusterMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import numba_threads
from .._validation import ArrayLike, Interval, NJobs, Options, RandomState, check_sample_weight
from ..base import StatBase, fit_context
from ..exceptions import warn_not_converged, warn_unrescaled_scale
from ..kernels import (
    KERNEL_CONSTRAINTS,
    gram_times,
    is_precomputed,
    pairwise_tags,
    read_X,
    training_gram,
)
from ._kernel_kmeans_kernels import cluster_sums, move_points
from ._kmeans import kmeans_plusplus

__all__ = ["KernelKMeans"]

#: Above this fraction of points changing cluster, the kernel sums are recomputed from scratch.
_FULL_PASS = 0.25


class _Partition:
    """A weighted partition of the points and the kernel sums its Lloyd step needs."""

    def __init__(self, K, diag, weights, n_clusters):
        self.K, self.diag, self.w, self.k = K, diag, weights, n_clusters
        self.labels = None
        self.S = None

    def set(self, labels):
        """Move to the partition ``labels``: recompute or update the kernel sums."""
        if self.labels is None:
            self.S = cluster_sums(self.K, labels, self.w, self.k)
        else:
            rows = np.flatnonzero(labels != self.labels)
            if rows.size > _FULL_PASS * labels.size:
                self.S = cluster_sums(self.K, labels, self.w, self.k)
            elif rows.size:
                move_points(self.K, self.S, rows, self.labels[rows], labels[rows], self.w)
        self.labels = labels.copy()

    def cluster_terms(self):
        """Cluster weights ``W_c`` and squared norms of the means,
        ``‖μ_c‖² = Σ_{j,l∈C} w_j w_l K_jl / W_c²``."""
        W = np.bincount(self.labels, weights=self.w, minlength=self.k)
        own = self.S[np.arange(self.labels.size), self.labels]
        total = np.bincount(self.labels, weights=self.w * own, minlength=self.k)
        filled = W > 0
        norms = np.zeros(self.k)
        norms[filled] = total[filled] / W[filled] ** 2
        return W, norms

    def distances(self):
        """``‖φ(x_i) − μ_c‖²`` for every point and cluster (``inf`` for an empty cluster)."""
        W, norms = self.cluster_terms()
        filled = W > 0
        D = np.full((self.labels.size, self.k), np.inf)
        D[:, filled] = self.diag[:, None] - 2.0 * self.S[:, filled] / W[filled] + norms[filled]
        np.maximum(D, 0.0, out=D)
        return D


def _repair_empty(labels, min_dist, weights, n_clusters):
    """Move each empty cluster to one of the points farthest from their centres (in place),
    never emptying another cluster (scikit-learn's and :class:`KMeans`'s repair)."""
    counts = np.bincount(labels[weights > 0], minlength=n_clusters)
    empty = np.flatnonzero(counts == 0)
    far = np.argsort(-min_dist, kind="stable")
    used = 0
    for j in empty:
        while used < far.size and (weights[far[used]] <= 0 or counts[labels[far[used]]] <= 1):
            used += 1
        if used == far.size:
            break
        i = far[used]
        used += 1
        counts[labels[i]] -= 1
        counts[j] = 1
        labels[i] = j
        min_dist[i] = 0.0


def _canonical_order(K, diag, w):
    """The points sorted by ``K_ii``, then by ``Σ_j w_j K_ij``: an order fixed by the points
    themselves, not by the order of the rows, in which a point of weight ``w`` stands where
    its ``w`` repeated rows stand (together: they share both keys)."""
    return np.lexsort((K @ w, diag))


def _distinct_draws(K, diag, w, n_clusters, order, rng):
    """``n_clusters`` points drawn one at a time with probability proportional to their
    weight among the points that do not coincide in feature space with one drawn before (all
    points once fewer distinct ones remain), walking through the points in ``order``; one
    uniform number per draw, so that a point of weight ``w`` draws as ``w`` repeated rows."""
    n = K.shape[0]
    apart = np.ones(n, dtype=bool)
    seeds = np.empty(n_clusters, dtype=np.int64)
    for c in range(n_clusters):
        mass = np.cumsum(np.where(apart, w, 0.0)[order])
        if mass[-1] <= 0:
            mass = np.cumsum(w[order])
        pos = np.searchsorted(mass, rng.uniform() * mass[-1], side="right")
        i = seeds[c] = order[min(int(pos), n - 1)]
        d = diag + (diag[i] - 2.0 * K[i])
        apart &= d > 1e-12 * (np.abs(diag) + abs(diag[i]))
    return seeds


def _lloyd(part, labels, path, max_iter, tol):
    """Lloyd's iterations from the partition ``labels`` (``path``: the inertia of the seeding
    assignment, if any); returns labels, inertia, path, n_iter, converged. Each step assigns
    every point to the nearest cluster mean in feature space."""
    w = part.w
    path = list(path)
    converged = False
    n_iter = len(path)
    while n_iter < max_iter:
        n_iter += 1
        part.set(labels)
        D = part.distances()
        new = np.argmin(D, axis=1)
        min_dist = D[np.arange(new.size), new]
        path.append(float(w @ min_dist))
        _repair_empty(new, min_dist, w, part.k)
        if np.array_equal(new, labels):
            converged = True
            break
        labels = new
        if tol > 0 and len(path) > 1 and path[-2] - path[-1] <= tol * path[-2]:
            converged = True
            break
    if not converged or not np.array_equal(part.labels, labels):
        # the inertia of the returned partition about its own means
        part.set(labels)
        D = part.distances()
        path[-1] = float(w @ D[np.arange(labels.size), labels])
    return labels, path[-1], np.array(path), n_iter, converged


class KernelKMeans(ClusterMixin, StatBase):
    """Kernel k-means: k-means on the feature vectors φ(x) of a kernel, through its Gram matrix.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters; must not exceed the number of samples.
    kernel : str, Kernel or callable, default="rbf"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``,
        ``"precomputed"`` (``X`` is then the Gram matrix), a kernel object of
        :mod:`statlearning.kernels` or a callable ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default=None
        γ of the named kernels; None and ``"auto"`` mean ``1 / n_features``, ``"scale"``
        ``1 / (n_features · X.var())``.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    init : {"k-means++", "random"} or array-like of shape (n_samples,), default="k-means++"
        ``"k-means++"``: greedy D² seeding with feature-space distances
        (:func:`~statlearning.cluster.kmeans_plusplus` with ``gram=True``); ``"random"``:
        ``n_clusters`` distinct points drawn with probability proportional to their weight
        (uniformly for unit weights) as the first centres; an array: the initial cluster of
        every point (labels ``0 … n_clusters − 1``; run once).
    n_init : int, default=10
        Runs from different seeds; the run with the lowest inertia is kept.
    max_iter : int, default=300
        Maximum Lloyd iterations per run; reaching it raises a ``ConvergenceWarning``.
    tol : float, default=0.0
        ``0`` iterates until no point changes cluster; ``tol > 0`` also stops when an
        iteration lowers the inertia by at most ``tol`` times its value.
    random_state : None, int or RandomState, default=None
        Seeds the initialisation.
    n_jobs : int, default=None
        Threads of the compiled passes over the Gram (numba's threads during the call);
        ``None`` runs them serially, ``-1`` is every core. The result does not depend on it.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each training point.
    inertia_ : float
        Feature-space within-cluster sum of squares ``Σᵢ wᵢ ‖φ(xᵢ) − μ_{label(i)}‖²``.
    inertia_path_ : ndarray
        Inertia after every assignment step of the kept run; never increasing.
    n_iter_ : int
        Lloyd iterations of the kept run.
    dual_coef_ : ndarray of shape (n_samples, n_clusters)
        The cluster means as combinations of the training features:
        ``μ_c = Σⱼ dual_coef_[j, c] φ(xⱼ)`` (``wⱼ / W_c`` for the points of cluster c, else 0).
    cluster_norms_ : ndarray of shape (n_clusters,)
        Squared norms ``‖μ_c‖²`` of the cluster means.
    cluster_weights_ : ndarray of shape (n_clusters,)
        Total sample weight ``W_c`` of each cluster (its size for unit weights).
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        The training points (needed by :meth:`predict`; None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    See Also
    --------
    statlearning.cluster.KMeans : The linear-kernel special case.
    statlearning.cluster.SpectralClustering : The spectral relaxation of the same objective
        (``laplacian="kernel"``).

    Notes
    -----
    Kernel k-means minimises the within-cluster sum of squares in feature space (seed 002
    (11.4); weights wᵢ ≥ 0)

    .. math:: \\min_{z} \\sum_i w_i \\lVert \\varphi(x_i) - \\mu_{z_i} \\rVert^2 ,
        \\qquad \\mu_c = \\frac{\\sum_{j \\in C_c} w_j \\varphi(x_j)}{W_c} ,

    equivalently ``tr K − Σ_c (1/W_c) Σ_{j,l∈C_c} w_j w_l K_jl`` ((11.7–11.10) for unit
    weights). The notes write no algorithm; Lloyd's (their M12) kernelises through

    .. math:: \\lVert \\varphi(x_i) - \\mu_c \\rVert^2 = K_{ii} - \\frac{2}{W_c}
        \\sum_{j \\in C_c} w_j K_{ij} + \\frac{1}{W_c^2} \\sum_{j,l \\in C_c} w_j w_l K_{jl},

    the "obvious kernelisation" the catalogue flags as an extrapolation. Each iteration
    assigns every point to the nearest mean (ties to the lowest index), which cannot increase
    the objective; an empty cluster takes the point farthest from its mean, as in
    :class:`KMeans`. With the linear kernel the iterations are those of
    :class:`~statlearning.cluster.KMeans` from the same start.

    The seeding walks through the points in an order fixed by the points themselves (by
    ``K_ii``, then by ``Σⱼ wⱼ K_ij``) and draws every seed through the cumulative weights, so
    for a given ``random_state`` the fit does not depend on the order of the rows, and a
    weight of ``w`` fits as ``w`` repeated rows (unless there are fewer distinct points of
    positive weight than clusters). Of several runs with the same inertia up to rounding,
    the first is kept.

    Cost: the Gram matrix (``8n²`` bytes: about 55,000 points in 24 GiB) and one ``n²`` pass
    per iteration, less once few points move (only their Gram rows are read again).
    :meth:`predict` assigns new points to the nearest training-cluster mean,
    ``argmin_c −2 Σⱼ dual_coef_[j, c] k(x, xⱼ) + ‖μ_c‖²``. R's ``kernlab::kkmeans`` runs a
    different (weighted, spectral-initialised) algorithm and is not reproduced.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cluster import KernelKMeans
    >>> t = np.linspace(0, 2 * np.pi, 60, endpoint=False)
    >>> X = np.r_[np.c_[np.cos(t), np.sin(t)], 4 * np.c_[np.cos(t), np.sin(t)]]
    >>> km = KernelKMeans(2, kernel="rbf", gamma=0.5, random_state=0).fit(X)
    >>> bool(np.all(km.labels_[:60] == km.labels_[0]) and km.labels_[0] != km.labels_[60])
    True
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_CONSTRAINTS,
        "init": [Options({"k-means++", "random"}), ArrayLike()],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": [RandomState()],
        "n_jobs": [None, NJobs()],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        kernel="rbf",
        gamma=None,
        degree=3,
        coef0=1.0,
        init="k-means++",
        n_init=10,
        max_iter=300,
        tol=0.0,
        random_state=None,
        n_jobs=None,
    ):
        self.n_clusters = n_clusters
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _initial_labels(self, K, diag, w, order, rng):
        """The first partition, every point assigned to the nearest seed (or ``init``), and
        the inertia of that assignment (none for given labels); the seeds are drawn walking
        through the points in ``order``."""
        k = self.n_clusters
        if not isinstance(self.init, str):
            labels = np.asarray(self.init)
            n = K.shape[0]
            if labels.shape != (n,):
                raise ValueError(
                    f"init: initial labels must have shape ({n},) (one cluster per sample); "
                    f"got {labels.shape}."
                )
            if not np.issubdtype(labels.dtype, np.integer) or labels.min() < 0 or labels.max() >= k:
                raise ValueError(
                    f"init: initial labels must be integers in 0 … {k - 1} (n_clusters={k})."
                )
            return labels.astype(np.int64), []
        if self.init == "k-means++":
            seeds = kmeans_plusplus(
                K, k, sample_weight=w, random_state=rng, gram=True, order=order
            )[1]
        else:
            seeds = _distinct_draws(K, diag, w, k, order, rng)
        D = diag[:, None] - 2.0 * K[:, seeds] + diag[seeds][None, :]
        np.maximum(D, 0.0, out=D)
        labels = np.argmin(D, axis=1).astype(np.int64)
        min_dist = D[np.arange(labels.size), labels]
        path = [float(w @ min_dist)]
        _repair_empty(labels, min_dist, w, k)
        return labels, path

    @fit_context
    def fit(self, X, y=None, sample_weight=None):
        """Cluster ``X`` in feature space.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : None
            Ignored.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (a weight is a repetition count).

        Returns
        -------
        self : KernelKMeans
            The fitted model.
        """
        name = type(self).__name__
        X = read_X(self, X)
        n = X.shape[0]
        if self.n_clusters > n:
            raise ValueError(
                f"{name}: n_samples={n} should be >= n_clusters={self.n_clusters} (more "
                "clusters than samples)."
            )
        w = check_sample_weight(sample_weight, n, estimator_name=name)
        if not is_precomputed(self):  # the kernels compute with squares of X
            warn_unrescaled_scale(self, X, "X")
        K = np.ascontiguousarray(training_gram(self, X, w))
        diag = np.diag(K).copy()
        rng = check_random_state(self.random_state)
        n_init = 1 if not isinstance(self.init, str) else self.n_init
        order = _canonical_order(K, diag, w)
        best = None
        with numba_threads(1 if self.n_jobs is None else self.n_jobs):
            for _ in range(n_init):
                part = _Partition(K, diag, w, self.n_clusters)
                labels, path = self._initial_labels(K, diag, w, order, rng)
                run = _lloyd(part, labels, path, self.max_iter, float(self.tol))
                # a run replaces the kept one only by a lower inertia beyond rounding (the
                # same partition found again keeps the first run's labels)
                if best is None or run[1] < best[1] - 1e-12 * abs(best[1]):
                    best = (*run, part)
            labels, inertia, path, n_iter, converged, part = best
            part.set(labels)
            W, norms = part.cluster_terms()
        if not converged:
            warn_not_converged(
                self, "kernel k-means (Lloyd)", max_iter=self.max_iter, advice="increase max_iter"
            )
        coef = np.zeros((n, self.n_clusters))
        filled = W[labels] > 0
        coef[np.flatnonzero(filled), labels[filled]] = w[filled] / W[labels[filled]]
        self.labels_ = labels
        self.inertia_ = float(inertia)
        self.inertia_path_ = path
        self.n_iter_ = int(n_iter)
        self.dual_coef_ = coef
        self.cluster_norms_ = norms
        self.cluster_weights_ = W
        return self

    def predict(self, X):
        """Nearest cluster mean in feature space of each point (ties to the lowest index).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            New points, or their Gram matrix against the training points (shape
            (n_samples, n_train)) for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
            Cluster labels.
        """
        check_is_fitted(self, "dual_coef_")
        scores = -2.0 * gram_times(self, X, self.dual_coef_) + self.cluster_norms_
        scores[:, self.cluster_weights_ <= 0] = np.inf
        return np.argmin(scores, axis=1)

    def fit_predict(self, X, y=None, sample_weight=None):
        """Cluster ``X`` and return the training labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : None
            Ignored.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``labels_``.
        """
        return self.fit(X, sample_weight=sample_weight).labels_

    def __sklearn_tags__(self):
        return pairwise_tags(self, super().__sklearn_tags__())
