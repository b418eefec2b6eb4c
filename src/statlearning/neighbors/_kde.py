"""Kernel density estimation (the Parzen window), normalised in any dimension."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from scipy import integrate, special
from scipy.spatial import cKDTree
from sklearn.base import clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import kernel_array
from .._core.scaling import log_scale, max_abs, scale_for, times
from .._core.selection import minimise_on_grid
from .._validation import CV, Interval, Options, check_sample_weight, validate_data
from ..base import StatBase, fit_context
from ..exceptions import warn_data_scale, warn_unrescaled_scale
from ..model_selection import cv_estimate
from ._kde_kernels import KERNEL_CODES, kde_log_sums, kernel_values

__all__ = ["KernelDensity"]

_COMPACT = ("tophat", "epanechnikov", "linear", "cosine")


def log_normaliser(kernel: str, D: int) -> float:
    """``log c`` with ``∫ c k(‖u‖) du = 1`` over ℝᴰ (``k(0) = 1``, bandwidth 1)."""
    log_ball = 0.5 * D * math.log(math.pi) - special.gammaln(0.5 * D + 1)  # unit-ball volume
    if kernel == "gaussian":
        return -0.5 * D * math.log(2 * math.pi)
    if kernel == "tophat":
        return -log_ball
    if kernel == "epanechnikov":  # ∫(1 − r²) = V·2/(D+2)
        return math.log((D + 2) / 2.0) - log_ball
    if kernel == "exponential":  # ∫e^{−r} = S·Γ(D) = V·D!
        return -log_ball - special.gammaln(D + 1)
    if kernel == "linear":  # ∫(1 − r) = S/(D(D+1)) = V/(D+1)
        return math.log(D + 1.0) - log_ball
    # cosine: S·∫₀¹ cos(πr/2) r^{D−1} dr, S = D·V the unit sphere's area
    radial, _ = integrate.quad(lambda r: math.cos(0.5 * math.pi * r) * r ** (D - 1), 0.0, 1.0)
    return -(math.log(D) + log_ball + math.log(radial))


def rule_of_thumb(X, rule: str, sample_weight=None) -> float:
    """Scott's ``n^(−1/(D+4))`` or Silverman's ``(n(D+2)/4)^(−1/(D+4))`` times the mean SD.

    With ``sample_weight`` a weight counts as that many copies of the point (``n = Σw``, the
    SD with ``Σw − 1`` in the denominator)."""
    D = X.shape[1]
    if sample_weight is None:
        n = X.shape[0]
        sd = float(np.mean(np.std(X, axis=0, ddof=1))) if n > 1 else 0.0
    else:
        n = float(sample_weight.sum())
        mean = sample_weight @ X / n
        var = sample_weight @ (X - mean) ** 2 / (n - 1) if n > 1 else np.zeros(D)
        sd = float(np.mean(np.sqrt(var)))
    if not sd > 0:
        raise ValueError(
            f"KernelDensity: bandwidth={rule!r} needs features with a positive standard "
            f"deviation and at least 2 samples (n_samples = {n}); give a numeric bandwidth."
        )
    factor = n ** (-1.0 / (D + 4)) if rule == "scott" else (n * (D + 2) / 4.0) ** (-1.0 / (D + 4))
    return factor * sd


def _mean_loglik(estimator, X, y=None, sample_weight=None):
    """Cross-validation score: (weighted) mean held-out log density."""
    if sample_weight is None:
        return estimator.score(X) / X.shape[0]
    keep = sample_weight > 0
    return float(sample_weight[keep] @ estimator.score_samples(X[keep]) / sample_weight.sum())


def _distinct_row_folds(X, n_folds):
    """K-fold splits over the distinct rows of ``X`` (in order of first appearance), so that
    copies of a row — and a row of integer weight k, its k copies — share a fold; without
    duplicates these are ``KFold(n_folds)``'s splits (at most one fold per distinct row)."""
    _, first, group = np.unique(X, axis=0, return_index=True, return_inverse=True)
    group = group.reshape(-1)
    n_groups = first.size
    if n_groups < 2:
        raise ValueError(
            f"KernelDensity: bandwidth='cv' needs at least 2 distinct points; got {n_groups}."
        )
    n_folds = min(n_folds, n_groups)
    rank = np.empty(n_groups, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(n_groups)
    sizes = np.full(n_folds, n_groups // n_folds)
    sizes[: n_groups % n_folds] += 1
    fold = np.repeat(np.arange(n_folds), sizes)[rank][group]
    rows = np.arange(X.shape[0])
    return [(rows[fold != k], rows[fold == k]) for k in range(n_folds)]


class KernelDensity(StatBase):
    """Kernel density estimation, normalised in D dimensions for every kernel.

    Parameters
    ----------
    bandwidth : float or {"scott", "silverman", "cv"}, default=1.0
        The bandwidth h > 0; ``"scott"`` and ``"silverman"`` are the rules of thumb
        ``n^(−1/(D+4))`` and ``(n(D+2)/4)^(−1/(D+4))`` times the mean standard deviation of the
        features; ``"cv"`` maximises the likelihood cross-validation score.
    kernel : {"gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine"}, \
default="gaussian"
        The smoothing kernel k(‖x − xᵢ‖/h).
    algorithm : {"auto", "brute", "kd_tree"}, default="auto"
        ``"brute"`` sums over every training point (exact); ``"kd_tree"`` sums over the
        training points within a radius found with a KD-tree (see Notes for its error bound);
        ``"auto"`` uses the tree when its radius (h for compact kernels; for the Gaussian and
        exponential kernels the cut-off set by ``atol > 0``) is at most half the mean standard
        deviation of the features, in at most 16 dimensions; brute force otherwise.
    atol : float, default=0.0
        Absolute error allowed on the density by the tree path of the Gaussian and
        exponential kernels (``0``: exact, i.e. brute force).
    leaf_size : int, default=40
        Leaf size of the KD-tree.
    cv : int, splitter or iterable, default=5
        Folds of the likelihood cross-validation of ``bandwidth="cv"``.

    Attributes
    ----------
    bandwidth_ : float
        The bandwidth used.
    algorithm_ : str
        The path used: ``"brute"`` or ``"kd_tree"``.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training points (the estimate is a sum over them).
    cv_bandwidths_ : ndarray
        Bandwidths tried by ``bandwidth="cv"`` (in the order tried).
    cv_scores_ : ndarray
        Their mean held-out log density (per point, averaged over folds).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    Notes
    -----
    The estimate is

    .. math:: \\hat p(x) = \\frac{1}{\\sum_i w_i} \\sum_i w_i\\, \\frac{c_D}{h^D}\\,
              k\\!\\left(\\frac{\\lVert x - x_i\\rVert}{h}\\right),

    with ``k(u)`` = e^{−u²/2} (gaussian), 1{u < 1} (tophat), (1 − u²)₊ (epanechnikov), e^{−u}
    (exponential), (1 − u)₊ (linear), cos(πu/2)1{u < 1} (cosine), and ``c_D`` the constant that
    makes ``c_D k(‖u‖)`` integrate to 1 over ℝᴰ, for every kernel and every D (scikit-learn's
    cosine kernel is normalised only for D = 1; ours is not). The notes' Gaussian Parzen
    estimator (seed 000 §1.19) is ``kernel="gaussian"`` with their h; its vector form needs the
    factor ``(2πh²)^(−D/2)`` (the notes' κ_h(‖x‖) does not integrate to 1 for D > 1).
    ``score_samples`` works in log space (log-sum-exp), so a query far from the data gets its
    true (very negative) log density, never ``log 0``.

    scikit-learn's ``bandwidth="scott"``/``"silverman"`` are the factors alone (they assume
    standardised data); ours multiply by the mean standard deviation (``ddof=1``) of the
    features, as scipy's ``gaussian_kde`` scales by the data (with ``sample_weight``, ``n`` and
    the SDs count a weight as that many copies of the point). ``bandwidth="cv"`` (the notes'
    "internal cross-validation") tries 16 bandwidths from 0.1 to 4 times Silverman's, then
    refines around the best by a bounded scalar search on log h; it maximises the mean
    held-out log density (weighted by ``sample_weight``). With ``cv`` an integer the folds are
    drawn over distinct points, so that copies of a point never sit on both sides of a split
    (a held-out copy would otherwise pull h towards 0), and a point of integer weight k is
    its k copies.

    Error bound of the tree path: compact kernels are exact (only points within h
    contribute). For the Gaussian and exponential kernels, points beyond the radius r with
    ``(c_D/h^D) k(r/h) = atol`` are left out, so ``p − atol ≤ p̂ ≤ p`` for every query; a query
    with no training point within r is summed exactly, and with ``atol = 0`` every query is
    summed exactly (brute force).

    Data whose largest ``|x|`` is beyond ``2^±200`` (about ``1e±60``) are summed on ``X``
    divided by a power of two ``s`` (exact), with the bandwidth in those units, and the log
    densities less ``D·log s``: the rules of thumb and ``"cv"`` then give the exactly scaled
    estimate. A fixed bandwidth far from the data's own scale (where ``1/h²`` on that scale
    would leave float64) keeps the sums on ``X`` as given, with a warning naming the scale.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.neighbors import KernelDensity
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> kde = KernelDensity(bandwidth=0.5).fit(X)
    >>> np.exp(kde.score_samples([[0.0], [10.0]])).round(4)
    array([0.302, 0.   ])
    """

    _parameter_constraints = {
        "bandwidth": [
            Interval(Real, 0, None, closed="neither"),
            Options({"scott", "silverman", "cv"}),
        ],
        "kernel": [Options(set(KERNEL_CODES))],
        "algorithm": [Options({"auto", "brute", "kd_tree"})],
        "atol": [Interval(Real, 0, None, closed="left")],
        "leaf_size": [Interval(Integral, 1, None, closed="left")],
        "cv": [CV()],
    }

    def __init__(
        self,
        bandwidth=1.0,
        *,
        kernel="gaussian",
        algorithm="auto",
        atol=0.0,
        leaf_size=40,
        cv=5,
    ):
        self.bandwidth = bandwidth
        self.kernel = kernel
        self.algorithm = algorithm
        self.atol = atol
        self.leaf_size = leaf_size
        self.cv = cv

    @fit_context
    def fit(self, X, y=None, sample_weight=None):
        """Store the sample and choose the bandwidth.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The sample.
        y : None
            Ignored.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the points.

        Returns
        -------
        self : KernelDensity
            The fitted estimator.
        """
        X = validate_data(self, X, dtype=np.float64)
        n = X.shape[0]
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, n, estimator_name="KernelDensity")
            if not w.sum() > 0:
                raise ValueError("KernelDensity: sample_weight sums to 0.")
        else:
            w = None
        # data near float64's ends: the estimate is computed on X / scale (a power of two,
        # exact) with the bandwidth in those units; densities are divided by scale^D
        scale = scale_for(X)
        rule = isinstance(self.bandwidth, str)
        if scale is not None and not rule:
            h = self.bandwidth / scale
            if not 0 < h < np.inf or scale_for(h) is not None:
                scale = None  # a fixed bandwidth far from the data's scale: 1/h² overflows
                warn_unrescaled_scale(self, X, "X")
        self._scale = scale
        self._X_scaled = None if scale is None else kernel_array(X / scale)
        Xs = X if scale is None else self._X_scaled
        if rule:
            self._h = self._cross_validate(Xs, w) if self.bandwidth == "cv" else None
            if self._h is None:
                self._h = rule_of_thumb(Xs, self.bandwidth, w)
            self.bandwidth_ = times(self._h, scale)
            if self.bandwidth == "cv":
                self.cv_bandwidths_ = times(self.cv_bandwidths_, scale)
            if not 0 < self.bandwidth_ < np.inf:
                warn_data_scale(self, ["bandwidth_"], float(max_abs(X)))
        else:
            self.bandwidth_ = float(self.bandwidth)
            self._h = self.bandwidth_ if scale is None else self.bandwidth_ / scale
        self.X_fit_ = kernel_array(X)
        self._w = None if w is None else w / w.sum()  # None: equal weights
        self.algorithm_ = self._choose_algorithm(Xs)
        self._tree = (
            cKDTree(self._data, leafsize=self.leaf_size) if self.algorithm_ == "kd_tree" else None
        )
        return self

    @property
    def _data(self):
        """The training points in the units of the computation (``X_fit_ / scale``)."""
        rescaled = getattr(self, "_X_scaled", None)
        return self.X_fit_ if rescaled is None else rescaled

    def _choose_algorithm(self, X):
        if self.algorithm != "auto":
            return self.algorithm
        if X.shape[1] > 16 or (self.kernel not in _COMPACT and self.atol == 0):
            return "brute"
        # the sums over neighbours pay only when the radius is small against the data
        sd = float(np.mean(np.std(X, axis=0))) if X.shape[0] > 1 else 0.0
        return "kd_tree" if self._radius() <= 0.5 * sd else "brute"

    def _radius(self):
        """Cut-off radius of the tree path: h for compact kernels, else c·k(r/h) = atol."""
        h = self._h
        if self.kernel in _COMPACT:
            return h
        u = max(self._log_norm() - math.log(self.atol), 0.0)
        return h * (math.sqrt(2.0 * u) if self.kernel == "gaussian" else u)

    def _cross_validate(self, X, w):
        h0 = rule_of_thumb(X, "silverman", w)
        cv = self.cv
        if isinstance(cv, Integral):
            if w is not None:  # a zero-weight point is no point: it joins no fold
                X, w = X[w > 0], w[w > 0]
            cv = _distinct_row_folds(X, int(cv))
        tried, scores = [], []

        def neg_score(log_h):
            h = float(np.exp(log_h))
            est = clone(self).set_params(bandwidth=h)
            mean = cv_estimate(est, X, None, cv=cv, scoring=_mean_loglik, sample_weight=w).mean
            tried.append(h)
            scores.append(mean)
            return -mean if np.isfinite(mean) else 1e300

        grid = np.log(h0) + np.log(np.geomspace(0.1, 4.0, 16))
        log_h, _ = minimise_on_grid(neg_score, grid, xatol=1e-3)
        self.cv_bandwidths_ = np.array(tried)
        self.cv_scores_ = np.array(scores)
        return float(np.exp(log_h))

    def _log_norm(self):
        D = self.X_fit_.shape[1]
        return log_normaliser(self.kernel, D) - D * (math.log(self._h) + log_scale(self._scale))

    def score_samples(self, X):
        """Log density at each point.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Query points.

        Returns
        -------
        ndarray of shape (n_samples,)
            log p̂(x) (−inf outside the support of a compact kernel).
        """
        check_is_fitted(self, "X_fit_")
        Q = kernel_array(validate_data(self, X, dtype=np.float64, reset=False))
        if self._scale is not None:
            Q = kernel_array(Q / self._scale)
        code = KERNEL_CODES[self.kernel]
        h = self._h
        exact_only = self.kernel not in _COMPACT and self.atol == 0  # no radius cuts nothing
        if self.algorithm_ == "brute" or Q.shape[0] == 0 or exact_only:
            out = np.empty(Q.shape[0])
            kde_log_sums(Q, self._data, *self._weights(), 1.0 / h, code, out)
        else:
            out = self._tree_log_sums(Q, code, h)
        return out + self._log_norm()

    def _weights(self):
        """Normalised weights and their logarithms."""
        n = self.X_fit_.shape[0]
        w = np.full(n, 1.0 / n) if self._w is None else self._w
        with np.errstate(divide="ignore"):
            return w, np.log(w)

    def _tree_log_sums(self, Q, code, h):
        compact = self.kernel in _COMPACT
        radius = self._radius()
        w, logw = self._weights()
        sums = np.empty(Q.shape[0])
        # queries in chunks sized from the pairs the previous chunk found, so that about 2²²
        # pairs are listed at once (also when the radius covers every training point)
        step, s = 256, 0
        while s < Q.shape[0]:
            chunk = Q[s : s + step]
            pairs = self._tree.sparse_distance_matrix(
                cKDTree(chunk, leafsize=self.leaf_size), radius, output_type="ndarray"
            )
            vals = np.empty(pairs.shape[0])
            kernel_values(np.ascontiguousarray(pairs["v"]) / h, code, vals)
            vals *= w[pairs["i"]]
            sums[s : s + step] = np.bincount(pairs["j"], weights=vals, minlength=chunk.shape[0])
            s += chunk.shape[0]
            per_query = pairs.shape[0] / chunk.shape[0]
            step = int(min(max((1 << 22) / (per_query + 1.0), 16), 1 << 16))
        with np.errstate(divide="ignore"):
            out = np.log(sums)
        if not compact:  # no neighbour within the radius: sum exactly
            rows = np.flatnonzero(sums <= 1e-250)
            if rows.size:
                sub = np.empty(rows.size)
                kde_log_sums(kernel_array(Q[rows]), self._data, w, logw, 1.0 / h, code, sub)
                out[rows] = sub
        return out

    def score(self, X, y=None):
        """Total log-likelihood of the points under the estimate.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.
        y : None
            Ignored.

        Returns
        -------
        float
            Σ log p̂(xᵢ).
        """
        return float(np.sum(self.score_samples(X)))

    def sample(self, n_samples=1, random_state=None):
        """Draw points from the estimated density.

        Parameters
        ----------
        n_samples : int, default=1
            Number of points.
        random_state : int, RandomState instance or None, default=None
            Seed of the draws.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            The points: a training point (chosen with its weight) plus h·(a draw from the
            normalised kernel).
        """
        check_is_fitted(self, "X_fit_")
        rng = check_random_state(random_state)
        n, D = self.X_fit_.shape
        idx = rng.choice(n, size=n_samples, p=self._w)  # uniform when unweighted
        h, points, scale = self._h, self._data, self._scale  # drawn on the fit's scale
        if self.kernel == "gaussian":
            return times(points[idx] + h * rng.standard_normal((n_samples, D)), scale)
        direction = rng.standard_normal((n_samples, D))
        direction /= np.linalg.norm(direction, axis=1)[:, None]
        if self.kernel == "exponential":  # radius density ∝ r^{D−1} e^{−r}
            radius = rng.gamma(D, 1.0, size=n_samples)
        else:  # uniform in the ball, accepted with probability k(r) (k(0) = 1)
            radius = np.empty(n_samples)
            todo = np.arange(n_samples)
            code = KERNEL_CODES[self.kernel]
            while todo.size:
                r = rng.uniform(size=todo.size) ** (1.0 / D)
                k = np.empty(todo.size)
                kernel_values(r, code, k)
                keep = rng.uniform(size=todo.size) < k
                radius[todo[keep]] = r[keep]
                todo = todo[~keep]
        return times(points[idx] + h * radius[:, None] * direction, scale)
