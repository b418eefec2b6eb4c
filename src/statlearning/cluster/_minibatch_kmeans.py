"""Mini-batch k-means (Sculley's algorithm), :class:`MiniBatchKMeans`: the full-batch
:class:`KMeans` of :mod:`._kmeans` with one sampled batch per step.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._core.compiled import kernel_array
from .._core.scaling import times
from .._validation import ArrayLike, Interval, NJobs, Options, RandomState, validate_data
from ..base import fit_context
from ..exceptions import warn_not_converged
from ._kmeans import KMeans, _check_results, _rescaled, absolute_tolerance

__all__ = ["MiniBatchKMeans"]


class MiniBatchKMeans(KMeans):
    """K-means on random mini-batches (Sculley, 2010), for data too large for Lloyd's passes.

    Parameters
    ----------
    n_clusters : int, default=8
    init : {"k-means++", "random"} or array-like of shape (n_clusters, n_features)
        Computed on a random subset of ``init_size`` rows.
    batch_size : int, default=1024
        Rows per mini-batch (drawn without replacement within a batch).
    max_iter : int, default=100
        Maximum number of passes over the data (epochs); the number of steps is
        ``ceil(max_iter · n_samples / batch_size)``.
    tol : float, default=0.0
        Stop when the total squared shift of the centres in one step is at most ``tol`` times
        the mean column variance (``0`` disables this test).
    max_no_improvement : int or None, default=10
        Stop when the smoothed mini-batch inertia has not improved for this many steps
        (``None`` disables this test).
    init_size : int or None, default=None
        Rows used by the initialisation; ``3 · batch_size`` by default (at least
        ``n_clusters``).
    n_init : "auto" or int, default="auto"
        Initialisations tried on the ``init_size`` subset (the best by inertia on it is kept);
        ``"auto"`` is 1 for ``"k-means++"``, 3 for ``"random"``.
    reassignment_ratio : float, default=0.01
        A centre that has received fewer than ``reassignment_ratio × max_j N_j`` rows (``N_j``
        the rows it has absorbed so far) is moved to a random row of the current batch, every
        ``10 · n_clusters`` steps; ``0`` disables this.
    random_state : None, int or RandomState, default=None
    n_jobs : int, default=None
        Threads of the compiled assignment steps (every batch, the final labels, ``predict``),
        as :class:`KMeans`: ``None`` is serial; the result does not depend on it.

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    labels_ : ndarray of shape (n_samples,)
        Nearest centre of every training row, computed after the last step.
    inertia_ : float
        Inertia of the training rows under the final centres.
    counts_ : ndarray of shape (n_clusters,)
        Rows each centre has absorbed (its learning-rate denominator).
    n_steps_ : int
        Mini-batch steps taken.
    n_iter_ : int
        Passes over the data started (``ceil(n_steps_ · batch_size / n_samples)``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Each step draws a batch :math:`B`, assigns its rows to the nearest centre and moves each
    centre to the running mean of every row it has ever absorbed,

    .. math:: c_j \\leftarrow \\frac{N_j c_j + \\sum_{i \\in B_j} x_i}{N_j + |B_j|},
        \\qquad N_j \\leftarrow N_j + |B_j|,

    i.e. a stochastic-gradient step on the k-means objective (seed 001 part 2, eq. 9.1) with
    per-centre learning rate :math:`|B_j| / (N_j + |B_j|)`. The result approximates
    :class:`KMeans`; ``inertia_`` is exact for the returned centres. :meth:`partial_fit`
    performs one step on the rows it is given (online use). R has no counterpart in base
    ``stats``; the algorithm is scikit-learn's ``MiniBatchKMeans`` up to the reassignment
    details.
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "init": [Options({"k-means++", "random"}), ArrayLike()],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_no_improvement": [None, Interval(Integral, 1, None, closed="left")],
        "init_size": [None, Interval(Integral, 1, None, closed="left")],
        "n_init": [Options({"auto"}), Interval(Integral, 1, None, closed="left")],
        "reassignment_ratio": [Interval(Real, 0, None, closed="left")],
        "random_state": [RandomState()],
        "n_jobs": [None, NJobs()],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        batch_size=1024,
        max_iter=100,
        tol=0.0,
        max_no_improvement=10,
        init_size=None,
        n_init="auto",
        reassignment_ratio=0.01,
        random_state=None,
        n_jobs=None,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.tol = tol
        self.max_no_improvement = max_no_improvement
        self.init_size = init_size
        self.n_init = n_init
        self.reassignment_ratio = reassignment_ratio
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _initialise(self, X, rng, scale=None):
        n = X.shape[0]
        if self.n_clusters > n:
            raise ValueError(
                f"{type(self).__name__}: n_samples={n} should be >= n_clusters="
                f"{self.n_clusters} (more clusters than samples)."
            )
        size = 3 * self.batch_size if self.init_size is None else self.init_size
        size = min(n, max(size, self.n_clusters))
        if not isinstance(self.init, str):
            n_init = 1
        elif self.n_init == "auto":
            n_init = 1 if self.init == "k-means++" else 3
        else:
            n_init = self.n_init
        best, best_inertia = None, np.inf
        for _ in range(n_init):
            subset = X[np.sort(rng.choice(n, size=size, replace=False))]
            centers = self._initial_centers(subset, rng, scale)
            inertia = self._assign(subset, centers)[1].sum()
            if best is None or inertia < best_inertia:  # the first also when inertia overflows
                best, best_inertia = centers, inertia
        self.cluster_centers_ = np.ascontiguousarray(best)
        self.counts_ = np.zeros(self.n_clusters)
        self.n_steps_ = 0
        self._rng = rng

    def _step(self, batch, rng) -> tuple[float, float]:
        """One mini-batch update; returns the batch inertia (per row) and the squared shift."""
        _, min_dist, sums, counts = self._assign(batch, self.cluster_centers_)
        old = self.cluster_centers_.copy()
        total = self.counts_ + counts
        hit = counts > 0
        self.cluster_centers_[hit] = (old[hit] * self.counts_[hit, None] + sums[hit]) / total[
            hit, None
        ]
        self.counts_ = total
        self.n_steps_ += 1
        if self.reassignment_ratio > 0 and self.n_steps_ % (10 * self.n_clusters) == 0:
            low = np.flatnonzero(self.counts_ < self.reassignment_ratio * self.counts_.max())
            if low.size:
                rows = rng.choice(batch.shape[0], size=min(low.size, batch.shape[0]), replace=False)
                low = low[: rows.size]
                self.cluster_centers_[low] = batch[rows]
                self.counts_[low] = self.counts_[self.counts_ > 0].min()
        return float(min_dist.sum()) / batch.shape[0], float(
            np.sum((self.cluster_centers_ - old) ** 2)
        )

    _fit_dask = None  # mini-batches do not fit on Dask collections (KMeans does)

    @fit_context
    def fit(self, X, y=None):
        """Cluster ``X`` by mini-batch steps.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=np.float64, order="C")
        X, s = _rescaled(kernel_array(X))
        n = X.shape[0]
        rng = check_random_state(self.random_state)
        self._initialise(X, rng, s)
        batch_size = min(self.batch_size, n)
        n_steps = math.ceil(self.max_iter * n / batch_size)
        tol_abs = absolute_tolerance(X, self.tol)
        smoothed, best, stale = None, np.inf, 0
        alpha = min(1.0, 2.0 * batch_size / (n + 1))
        converged = False
        for _ in range(n_steps):
            batch = X[rng.choice(n, size=batch_size, replace=False)]
            inertia, shift = self._step(batch, rng)
            if self.tol > 0 and shift <= tol_abs:
                converged = True
                break
            smoothed = inertia if smoothed is None else (1 - alpha) * smoothed + alpha * inertia
            if smoothed < best:
                best, stale = smoothed, 0
            else:
                stale += 1
            if self.max_no_improvement is not None and stale >= self.max_no_improvement:
                converged = True
                break
        if not converged and (self.tol > 0 or self.max_no_improvement is not None):
            warn_not_converged(self, "mini-batch k-means", max_iter=self.max_iter, unit="passes")
        labels, min_dist, _, _ = self._assign(X, self.cluster_centers_)
        self.labels_ = labels
        self.inertia_ = float(min_dist.sum())
        if s is not None:
            self.cluster_centers_ *= s
            self.inertia_ = times(self.inertia_, s, 2)
        self.n_iter_ = math.ceil(self.n_steps_ * batch_size / n)
        _check_results(self, X, s)
        return self

    def partial_fit(self, X, y=None):
        """One mini-batch step on ``X`` (initialising from ``X`` on the first call).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        first = not hasattr(self, "cluster_centers_")
        if first:
            self._validate_params()
        X = validate_data(self, X, dtype=np.float64, order="C", reset=first)
        X = kernel_array(X)
        if first:
            self._initialise(X, check_random_state(self.random_state))
        self._step(X, self._rng)
        labels, min_dist, _, _ = self._assign(X, self.cluster_centers_)
        self.labels_ = labels
        self.inertia_ = float(min_dist.sum())
        self.n_iter_ = self.n_steps_
        return self
