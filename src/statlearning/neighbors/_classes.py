"""k-nearest-neighbour classification and regression: the estimators.

The searches live in :mod:`._search` (brute force and KD-tree) and :mod:`._brute` (the compiled
hot loop); the metrics in :mod:`._metrics`. This module validates, stores the index and turns
neighbours into votes or averages.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import check_binary_threshold, encode_class_labels
from .._validation import (
    DEPRECATED,
    Callable,
    InstanceOf,
    Interval,
    NJobs,
    Options,
    renamed_parameter,
    validate_data,
)
from ..base import ClassifierMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning
from ..kernels import Kernel, Precomputed, resolve_kernel
from ._metrics import METRICS, resolve_metric
from ._search import ALGORITHMS, NeighborSearch, resolve_algorithm

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor"]


class _KNeighborsBase(StatBase):
    """Shared parameters, fit and ``kneighbors`` of the kNN estimators."""

    _parameter_constraints = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "weights": [Options({"uniform", "distance"}), Callable()],
        "algorithm": [Options(set(ALGORITHMS))],
        "metric": [Options(set(METRICS))],
        "p": [Interval(Real, 0, None, closed="neither")],
        "metric_params": [InstanceOf(dict), None],
        "tie_break": [Options({"index", "all"})],
        "ties": [Options({"index", "all", DEPRECATED})],
        "n_jobs": [None, NJobs()],
    }

    def _fit_index(self, X) -> None:
        """Check ``n_neighbors`` against ``X`` and build the search index."""
        name = type(self).__name__
        n, p = X.shape
        if self.n_neighbors > n:
            raise ValueError(
                f"{name}: n_neighbors={self.n_neighbors} is larger than the number of training "
                f"samples (n_samples = {n}); use n_neighbors <= {n}."
            )
        spec = resolve_metric(self.metric, self.p, self.metric_params, p, owner=name)
        algorithm = resolve_algorithm(self.algorithm, spec, n, p, self.n_neighbors, owner=name)
        self._tie_break = renamed_parameter(self, "ties", "tie_break")
        self._search = NeighborSearch(X, spec, algorithm)
        self.n_samples_fit_ = n
        self.effective_metric_ = spec.name
        self.effective_metric_params_ = dict(spec.params)
        self.algorithm_ = algorithm

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """The ``n_neighbors`` nearest training samples of each query.

        Neighbours are in increasing distance; equidistant ones in increasing training index.
        Exactly ``n_neighbors`` are returned whatever ``tie_break`` is (with ``"all"``,
        :meth:`predict` additionally uses the training samples tied with the last one).

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), default=None
            Queries. ``None`` queries every training sample, each excluding itself (as
            scikit-learn: the sample's own row is removed; if duplicates push it out of the
            list, the farthest neighbour is dropped instead).
        n_neighbors : int, default=None
            Defaults to the constructor's ``n_neighbors``.
        return_distance : bool, default=True

        Returns
        -------
        dist : ndarray of shape (n_queries, n_neighbors)
            Only when ``return_distance=True``.
        ind : ndarray of shape (n_queries, n_neighbors)
            Indices of the training samples.
        """
        check_is_fitted(self, "n_samples_fit_")
        name = type(self).__name__
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not isinstance(k, Integral) or isinstance(k, bool) or k < 1:
            raise ValueError(f"{name}.kneighbors: n_neighbors must be an int >= 1; got {k!r}")
        n = self.n_samples_fit_
        if X is None:
            if k + 1 > n:
                raise ValueError(
                    f"{name}.kneighbors: n_neighbors={k} must be smaller than the number of "
                    f"training samples (n_samples = {n}) when X is None (each sample is "
                    "excluded from its own neighbours)."
                )
            dist, ind = self._self_neighbors(k)
        else:
            if k > n:
                raise ValueError(
                    f"{name}.kneighbors: n_neighbors={k} is larger than the number of "
                    f"training samples (n_samples = {n})."
                )
            X = validate_data(self, X, reset=False, dtype=np.float64)
            dist, ind, _ = self._search.query(X, k, n_jobs=self.n_jobs)
        return (dist, ind) if return_distance else ind

    def _self_neighbors(self, k):
        search = self._search
        n = search.n_samples
        dist, ind, _ = search.query(search.X, k + 1, prepared=True, n_jobs=self.n_jobs)
        is_self = ind == np.arange(n)[:, None]
        drop = np.where(is_self.any(axis=1), is_self.argmax(axis=1), k)
        keep = np.ones_like(ind, dtype=bool)
        keep[np.arange(n), drop] = False
        return dist[keep].reshape(n, k), ind[keep].reshape(n, k)

    def _neighbors(self, X):
        """Validated queries → distances, indices and a validity mask (None: no padding)."""
        check_is_fitted(self, "n_samples_fit_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        dist, ind, lengths = self._search.query(
            X, self.n_neighbors, all_ties=self._tie_break == "all", n_jobs=self.n_jobs
        )
        if ind.shape[1] == self.n_neighbors:
            return dist, ind, None
        return dist, ind, np.arange(ind.shape[1]) < lengths[:, None]

    def _weights(self, dist, mask):
        """Neighbour weights, zero on padding (None: unit weights, no padding).

        Rows whose weights sum to 0 fall back to unit weights, with a warning.
        """
        name = type(self).__name__
        valid = np.ones(dist.shape, dtype=bool) if mask is None else mask
        if self.weights == "uniform":
            return None if mask is None else mask.astype(np.float64)
        if self.weights == "distance":
            with np.errstate(divide="ignore"):
                w = 1.0 / dist
            exact = (dist == 0.0) & valid
            rows = exact.any(axis=1)
            w[rows] = exact[rows]  # a query on training points: only those points count
            w[~valid] = 0.0
        else:
            w = np.asarray(self.weights(np.where(valid, dist, np.inf)), dtype=np.float64)
            if w.shape != dist.shape:
                raise ValueError(
                    f"{name}: the weights callable must return an array of the shape of its "
                    f"input {dist.shape}; got shape {w.shape}"
                )
            w = np.where(valid, w, 0.0)
            if not np.all(np.isfinite(w)) or np.any(w < 0):
                raise ValueError(
                    f"{name}: the weights callable returned negative, NaN or infinite weights"
                )
        zero = ~(w.sum(axis=1) > 0)
        if zero.any():
            warnings.warn(
                f"{name}: the weights of the neighbours of {int(zero.sum())} queries sum to 0; "
                "those queries use uniform weights.",
                NumericalWarning,
            )
            w[zero] = valid[zero]
        return w


class KNeighborsClassifier(ClassifierMixin, _KNeighborsBase):
    """Classification by a (weighted) vote of the k nearest training samples.

    Parameters
    ----------
    n_neighbors : int, default=5
        ``k``, the number of neighbours that vote; at most the number of training samples.
    weights : {"uniform", "distance", "kernel"} or callable, default="uniform"
        ``"uniform"``: one vote each. ``"distance"``: votes weighted by ``1/d``; a query that
        coincides with training samples (``d = 0``) takes only those samples, with equal
        weights (as scikit-learn). A callable maps the ``(n_queries, n_neighbors)`` distance
        array to non-negative weights of the same shape. ``"kernel"``: the notes'
        similarity-weighted rule (seed 002 eq. 5.1–5.2): the ``k`` training samples most
        *similar* under ``kernel`` vote with weight ``K(x, x_n)`` (``metric`` and
        ``algorithm`` are then not used).
    kernel : str, kernel object or callable, default="rbf"
        The similarity of ``weights="kernel"``: a name of :func:`statlearning.kernels.
        resolve_kernel` (with its defaults, e.g. ``"rbf"`` with γ = 1/n_features), a kernel
        object such as ``RBF(gamma=0.5)``, or a callable ``f(X, Y)`` returning the Gram
        matrix. Ignored for the other weights.
    algorithm : {"auto", "brute", "kd_tree"}, default="auto"
        Neighbour search; every choice gives the same neighbours and distances.
        ``"auto"`` uses the KD-tree when the metric allows it, ``n_features <= 8`` and
        ``n_neighbors < n_samples / 2``, brute force otherwise; the choice is ``algorithm_``.
    metric : {"euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "mahalanobis"}, \
default="euclidean"
        ``"minkowski"`` uses ``p``; ``"mahalanobis"`` needs ``metric_params``.
    p : float, default=2
        Minkowski exponent, ``p > 0`` (``float("inf")`` is Chebyshev). Only used with
        ``metric="minkowski"``; ``p < 1`` is not a metric and needs brute force.
    metric_params : dict, default=None
        ``{"VI": VI}`` (inverse covariance, positive semi-definite) or ``{"V": V}``
        (covariance, positive definite), of shape ``(n_features, n_features)``, for
        ``metric="mahalanobis"``.
    tie_break : {"index", "all"}, default="index"
        ``"index"``: exactly ``k`` neighbours; among training samples equidistant with the
        ``k``-th, the earlier rows are taken. ``"all"``: every training sample tied with the
        ``k``-th neighbour votes too, as R's ``class::knn`` (``use.all = TRUE``); as there,
        "tied" means a squared distance (for other metrics: the distance) within a relative
        ``1e-4`` of the ``k``-th, so that distances equal but for rounding count as ties.
    ties : {"index", "all"}, default="deprecated"
        Deprecated name of ``tie_break`` (a ``FutureWarning`` says so); it will be removed.
    n_jobs : int, default=None
        Threads of the compiled neighbour search (numba's thread count during ``predict``,
        ``predict_proba`` and ``kneighbors``, restored afterwards; also the KD-tree query's
        ``workers``). ``None`` keeps numba's setting (every core unless ``NUMBA_NUM_THREADS``
        or :func:`numba.set_num_threads` says otherwise); ``-1`` is every core, ``-2`` all but
        one. The result does not depend on it.
    decision_threshold : float in [0, 1], default=None
        Binary problems only: predict ``classes_[1]`` when its vote fraction is strictly
        greater than the threshold (the notes' rule, seed 001 eq. 3.3), else ``classes_[0]``.
        ``None`` predicts the class with the most votes.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted class labels (any type).
    n_samples_fit_ : int
    effective_metric_ : str
        The metric after simplification (``"minkowski"`` with ``p=2`` is ``"euclidean"``).
    effective_metric_params_ : dict
    algorithm_ : {"brute", "kd_tree"}
        The search chosen by ``algorithm``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    KNeighborsRegressor : The k-nearest-neighbour average for a numeric response.
    BayesClassifier : The Bayes-optimal rule that kNN approximates, for known densities.

    Notes
    -----
    With ``N_k(x)`` the ``k`` nearest training samples of ``x`` and weights ``w_j``, the
    estimated class probabilities are the weighted vote fractions

    .. math:: \\hat p_c(x) = \\frac{\\sum_{j \\in N_k(x)} w_j\\, 1(y_j = c)}
              {\\sum_{j \\in N_k(x)} w_j},

    and the prediction is :math:`\\hat h(x) = \\arg\\max_c \\hat p_c(x)` or, for two classes
    with a threshold ``t``, :math:`\\hat h(x) = c_1` iff :math:`\\hat p_{c_1}(x) > t`. This is
    seed 001's kNN (eq. 3.1–3.4: the neighbourhood ``E(x, D, k)``, the class probability as a
    vote fraction, the strict threshold, often ``t = 0.5``, so that a 1:1 vote with ``k = 2``
    gives class 0) and seed 004's (majority vote; ``N/k`` effective parameters). The notes'
    weighted variant "proportional to the distance" is a misprint for inverse-distance weights.

    With ``weights="kernel"`` (seed 002 §5, M1) the neighbourhood :math:`S_k(x)` is the ``k``
    training samples with the largest :math:`K(x, x_n)` and the class scores are
    :math:`\\sum_{n \\in S_k(x)} K(x, x_n)\\, 1(y_n = c)`; for labels in {0, 1} the prediction
    is the notes' :math:`1\\{\\sum_{n \\in S} K(x, x_n)(2y_n - 1) > 0\\}`. For a kernel
    decreasing in distance (RBF, Laplacian) :math:`S_k(x)` is the nearest-neighbour set of
    the corresponding metric; for others (linear, polynomial) it is not, and
    :meth:`kneighbors`, which reports ``metric`` neighbours, differs from the voting set. A
    kernel with negative values (sigmoid, linear) can give negative scores: ``predict`` uses
    them as the notes do, ``predict_proba`` then raises (no vote fraction exists). The notes
    break an exactly zero score by a coin flip; here, as for every tie, the first class wins.

    Deterministic ties: equidistant neighbours are ordered by training index; a tied vote goes
    to the first class in ``classes_``. Extremes (the notes): ``k = 1`` reproduces every
    training label when the training points are distinct; ``k = n`` predicts the majority
    class everywhere.

    Mapping to R: ``KNeighborsClassifier(k, tie_break="all").fit(train, cl).predict(test)`` is
    ``class::knn(train, test, cl, k, use.all = TRUE)`` except that R breaks tied votes at
    random; ``predict_proba(test).max(axis=1)`` is R's ``attr(, "prob")``.
    Mapping to scikit-learn: the same names; scikit-learn's default ``metric="minkowski",
    p=2`` is our ``"euclidean"``, and scikit-learn leaves the order of equidistant neighbours
    to the search algorithm.

    Standardisation: kNN is not scale invariant, a feature in large units dominates the
    distance. Standardise first, e.g. ``make_pipeline(StandardScaler(), KNeighborsClassifier())``.
    The notes standardise with the population standard deviation (1/n, seed 001 eq. 3.6),
    which is what :class:`~sklearn.preprocessing.StandardScaler` does; R's ``scale()`` divides
    by ``n − 1``. The choice does not change the neighbours: both rescale every feature by the
    same factor ``sqrt((n − 1)/n)``, hence every distance too.

    Examples
    --------
    >>> from statlearning.neighbors import KNeighborsClassifier
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> y = ["a", "a", "b", "b"]
    >>> clf = KNeighborsClassifier(n_neighbors=3).fit(X, y)
    >>> clf.predict([[1.1]])
    array(['a'], dtype='<U1')
    >>> clf.predict_proba([[1.1]])
    array([[0.66666667, 0.33333333]])
    """

    _parameter_constraints = {
        **_KNeighborsBase._parameter_constraints,
        "weights": [Options({"uniform", "distance", "kernel"}), Callable()],
        "kernel": [InstanceOf(str), InstanceOf(Kernel), Callable()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        kernel="rbf",
        algorithm="auto",
        metric="euclidean",
        p=2,
        metric_params=None,
        tie_break="index",
        ties=DEPRECATED,
        n_jobs=None,
        decision_threshold=None,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.kernel = kernel
        self.algorithm = algorithm
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.tie_break = tie_break
        self.ties = ties
        self.n_jobs = n_jobs
        self.decision_threshold = decision_threshold

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self.decision_threshold is None
        return tags

    @fit_context
    def fit(self, X, y):
        """Store the training sample and build the neighbour index.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self : KNeighborsClassifier
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, self._y = encode_class_labels(y, name)
        check_binary_threshold(self.decision_threshold, self.classes_.size, name)
        self._fit_index(X)
        if self.weights == "kernel":
            kernel = resolve_kernel(self.kernel, X=X)
            if isinstance(kernel, Precomputed):
                raise ValueError(
                    f"{name}: kernel='precomputed' is not supported; the votes need the kernel "
                    "between new points and the training sample (pass a kernel object or a "
                    "callable)."
                )
            self.kernel_ = kernel
        return self

    def _votes(self, X):
        """(Weighted) votes of the classes, shape (n_queries, n_classes)."""
        if self.weights == "kernel":
            return self._kernel_votes(X)
        dist, ind, mask = self._neighbors(X)
        w = self._weights(dist, mask)
        if mask is not None:
            ind = np.where(mask, ind, 0)  # padding: any valid index, with weight 0
        votes = np.zeros((ind.shape[0], self.classes_.size))
        rows = np.arange(ind.shape[0])
        for a in range(ind.shape[1]):  # each row appears once per column: += is safe
            votes[rows, self._y[ind[:, a]]] += 1.0 if w is None else w[:, a]
        return votes

    def _kernel_votes(self, X):
        """Class scores Σ_{n ∈ S_k(x)} K(x, x_n) 1(y_n = c), S_k the k most similar samples."""
        check_is_fitted(self, "kernel_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        train = self._search.X
        k = self.n_neighbors
        onehot = np.zeros((train.shape[0], self.classes_.size))
        onehot[np.arange(train.shape[0]), self._y] = 1.0
        votes = np.empty((X.shape[0], self.classes_.size))
        step = max(1, (1 << 21) // max(train.shape[0], 1))  # ~16 MB of similarities per block
        for start in range(0, X.shape[0], step):
            K = np.asarray(self.kernel_(X[start : start + step], train), dtype=np.float64)
            votes[start : start + step] = (K * _most_similar(K, k, self._tie_break)) @ onehot
        return votes

    def predict_proba(self, X):
        """Vote fractions of the classes (weighted by ``weights``).

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)

        Returns
        -------
        ndarray of shape (n_queries, n_classes)
            Columns follow ``classes_``.
        """
        votes = self._votes(X)
        if self.weights == "kernel" and np.any(votes < 0):
            raise ValueError(
                f"{type(self).__name__}: the kernel {self.kernel_!r} takes negative values, so "
                "the similarity-weighted scores are no vote fractions; predict_proba needs a "
                "non-negative kernel (predict uses the signed scores as the notes do)."
            )
        total = votes.sum(axis=1, keepdims=True)
        if self.weights == "kernel" and np.any(total == 0):
            # all similarities underflowed to 0 (a far query): equal fractions, not 0/0
            total = np.where(total == 0, 1.0, total)
            votes = np.where(votes.sum(axis=1, keepdims=True) == 0, 1.0 / votes.shape[1], votes)
        return votes / total

    def predict(self, X):
        """Class with the most votes (ties: the first in ``classes_``), or the threshold rule.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)

        Returns
        -------
        ndarray of shape (n_queries,)
        """
        votes = self._votes(X)
        if self.decision_threshold is None:
            return self.classes_[np.argmax(votes, axis=1)]
        frac = votes[:, 1] / votes.sum(axis=1)
        return self.classes_[(frac > self.decision_threshold).astype(np.intp)]


def _most_similar(K, k, tie_break):
    """0/1 mask of each row's ``k`` largest entries (ties at the k-th: earlier columns, or all)."""
    kth = -np.partition(-K, k - 1, axis=1)[:, k - 1 : k]
    if tie_break == "all":
        return (K >= kth).astype(np.float64)
    above = K > kth
    tied = K == kth
    room = k - above.sum(axis=1, keepdims=True)
    return (above | (tied & (np.cumsum(tied, axis=1) <= room))).astype(np.float64)


class KNeighborsRegressor(RegressorMixin, _KNeighborsBase):
    """Regression by the (weighted) average response of the k nearest training samples.

    Parameters
    ----------
    n_neighbors : int, default=5
        ``k``; at most the number of training samples.
    weights : {"uniform", "distance"} or callable, default="uniform"
        As :class:`KNeighborsClassifier`: inverse-distance weights use only the coinciding
        training samples when a query has distance 0 to some.
    algorithm : {"auto", "brute", "kd_tree"}, default="auto"
        As :class:`KNeighborsClassifier`.
    metric : {"euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "mahalanobis"}, \
default="euclidean"
    p : float, default=2
        Minkowski exponent (``metric="minkowski"``), ``p > 0``.
    metric_params : dict, default=None
        ``{"VI": ...}`` or ``{"V": ...}`` for ``metric="mahalanobis"``.
    tie_break : {"index", "all"}, default="index"
        ``"all"`` averages over every training sample tied with the ``k``-th neighbour too
        (within a relative ``1e-4``, as :class:`KNeighborsClassifier`).
    ties : {"index", "all"}, default="deprecated"
        Deprecated name of ``tie_break`` (a ``FutureWarning`` says so); it will be removed.
    n_jobs : int, default=None
        Threads of the compiled neighbour search, as :class:`KNeighborsClassifier`.

    Attributes
    ----------
    n_samples_fit_ : int
    effective_metric_ : str
    effective_metric_params_ : dict
    algorithm_ : {"brute", "kd_tree"}
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    KNeighborsClassifier : The k-nearest-neighbour vote for a class label.

    Notes
    -----
    .. math:: \\hat f(x) = \\frac{\\sum_{j \\in N_k(x)} w_j\\, y_j}{\\sum_{j \\in N_k(x)} w_j}

    With uniform weights this is seed 001's eq. 3.5 and seed 004's nearest-neighbour averaging
    :math:`\\hat Y = \\frac1k \\sum_{x_j \\in N_k(x)} y_j`. A 2-D ``y`` is averaged column by
    column. Neighbours are ordered by distance, then training index (see
    :class:`KNeighborsClassifier`).

    Mapping to R: ``FNN::knn.reg(train, test, y, k)`` (Euclidean, uniform weights); to
    scikit-learn: :class:`sklearn.neighbors.KNeighborsRegressor` with the same parameters.

    Standardisation: kNN is not scale invariant, a feature in large units dominates the
    distance. Standardise first, e.g. ``make_pipeline(StandardScaler(), KNeighborsRegressor())``.
    The notes standardise with the population standard deviation (1/n, seed 001 eq. 3.6),
    which is what :class:`~sklearn.preprocessing.StandardScaler` does; R's ``scale()`` divides
    by ``n − 1``. The choice does not change the neighbours: both rescale every feature by the
    same factor ``sqrt((n − 1)/n)``, hence every distance too.

    Examples
    --------
    >>> from statlearning.neighbors import KNeighborsRegressor
    >>> reg = KNeighborsRegressor(n_neighbors=2).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 4.0])
    >>> reg.predict([[1.6]])
    array([2.5])
    """

    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        algorithm="auto",
        metric="euclidean",
        p=2,
        metric_params=None,
        tie_break="index",
        ties=DEPRECATED,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.tie_break = tie_break
        self.ties = ties
        self.n_jobs = n_jobs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    @fit_context
    def fit(self, X, y):
        """Store the training sample and build the neighbour index.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self : KNeighborsRegressor
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, multi_output=True)
        self._y = np.asarray(y, dtype=np.float64)
        self._fit_index(X)
        return self

    def predict(self, X):
        """Weighted average of the neighbours' responses.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)

        Returns
        -------
        ndarray of shape (n_queries,) or (n_queries, n_targets)
        """
        dist, ind, mask = self._neighbors(X)
        w = self._weights(dist, mask)
        if w is None:
            return self._y[ind].mean(axis=1)
        w /= w.sum(axis=1, keepdims=True)
        y_nb = self._y[ind if mask is None else np.where(mask, ind, 0)]
        if self._y.ndim == 1:
            return np.einsum("ij,ij->i", w, y_nb)
        return np.einsum("ij,ijt->it", w, y_nb)
