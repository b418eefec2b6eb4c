"""Filter feature selection (seed 000 §"Filter methods", seed 001 §7.4.2): univariate scores,
Relief/ReliefF, and :class:`FilterSelector` with permutation-null p-values."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.spatial import cKDTree
from scipy.special import digamma
from sklearn.base import clone
from sklearn.utils.validation import check_random_state

from .._core.scaling import column_scales, scale_for, times
from .._validation import (
    DEPRECATED,
    Interval,
    Options,
    RandomState,
    renamed_parameter,
    validate_data,
)
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import NumericalWarning
from ._common import SelectorMixin

__all__ = ["FilterSelector", "ReliefF", "f_scores", "mutual_info_scores", "variance_mean_scores"]


# ------------------------------------------------------------------------- mutual information


def _mi_discrete(a, b):
    """Plug-in mutual information (nats) of two discrete samples from frequency counts."""
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    joint = np.zeros((ia.max() + 1, ib.max() + 1))
    np.add.at(joint, (ia, ib), 1.0)
    joint /= joint.sum()
    pa, pb = joint.sum(axis=1), joint.sum(axis=0)
    nz = joint > 0
    return float(np.sum(joint[nz] * np.log(joint[nz] / np.outer(pa, pb)[nz])))


def _radius_counts(v, radius):
    """Number of points of ``v`` (n × d) strictly closer than ``radius`` (max norm), self incl."""
    tree = cKDTree(v)
    r = np.nextafter(radius, 0)
    return np.asarray(tree.query_ball_point(v, r, p=np.inf, return_length=True), dtype=float)


def _mi_cc(x, y, k):
    """Kraskov–Stögbauer–Grassberger estimator (their algorithm 1), max norm, nats."""
    n = x.size
    xy = np.column_stack([x, y])
    radius = cKDTree(xy).query(xy, k=k + 1, p=np.inf)[0][:, -1]
    nx = _radius_counts(x[:, None], radius) - 1.0
    ny = _radius_counts(y[:, None], radius) - 1.0
    mi = digamma(n) + digamma(k) - np.mean(digamma(nx + 1)) - np.mean(digamma(ny + 1))
    return max(0.0, float(mi))


def _mi_cd(c, d, k):
    """Ross's (2014) nearest-neighbour estimator for a continuous ``c`` and a discrete ``d``."""
    n = c.size
    radius = np.full(n, np.nan)
    k_all = np.zeros(n)
    counts = np.zeros(n)
    for label in np.unique(d):
        mask = d == label
        m = int(mask.sum())
        counts[mask] = m
        if m > 1:
            kk = min(k, m - 1)
            pts = c[mask][:, None]
            radius[mask] = cKDTree(pts).query(pts, k=kk + 1)[0][:, -1]
            k_all[mask] = kk
    keep = counts > 1
    if keep.sum() < 2:
        return 0.0
    cm = c[keep][:, None]
    m_all = _radius_counts(cm, radius[keep])
    mi = (
        digamma(keep.sum())
        + np.mean(digamma(k_all[keep]))
        - np.mean(digamma(counts[keep]))
        - np.mean(digamma(m_all))
    )
    return max(0.0, float(mi))


def _unit_sd(v):
    """``v`` divided by its standard deviation (unchanged if constant), computed on ``v``
    rescaled by a power of two when its magnitude is near float64's ends (its variance would
    overflow to ``inf`` or underflow to 0)."""
    s = scale_for(v)
    if s is not None:
        v = v / s
    sd = v.std()
    return v / sd if sd > 0 else v


def _discrete_mask(discrete_features, p):
    if isinstance(discrete_features, bool | np.bool_):
        return np.full(p, bool(discrete_features))
    mask = np.asarray(discrete_features)
    if mask.dtype == bool:
        if mask.shape != (p,):
            raise ValueError(f"discrete_features: a mask must have {p} entries.")
        return mask
    out = np.zeros(p, dtype=bool)
    if mask.size and (mask.min() < 0 or mask.max() >= p):
        raise ValueError(f"discrete_features: indices must lie in [0, {p}).")
    out[mask.astype(int)] = True
    return out


def mutual_info_scores(X, y, *, discrete_features=False, discrete_target=None, n_neighbors=3):
    """Mutual information between each feature and the target, in nats.

    Discrete pairs use the plug-in estimate from frequency counts (the notes' formula);
    continuous features use nearest-neighbour estimators: Kraskov, Stögbauer and Grassberger
    (2004, algorithm 1, max norm) against a continuous target and Ross (2014) against a discrete
    one (and for a discrete feature with a continuous target). Continuous columns are scaled to
    unit standard deviation first (the estimators are not scale invariant in the joint space);
    negative estimates are set to 0. Unlike scikit-learn's ``mutual_info_regression``, no
    random noise is added, so the result is deterministic (ties in continuous data bias the
    nearest-neighbour estimates; jitter such data first).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    discrete_features : bool, array of int or bool mask, default=False
        Which features are discrete.
    discrete_target : bool or None, default=None
        ``None``: discrete unless ``y`` has a floating-point dtype.
    n_neighbors : int, default=3
        ``k`` of the nearest-neighbour estimators.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be 2-D and y of length n_samples; got {X.shape}, {y.shape}.")
    if not isinstance(n_neighbors, Integral) or n_neighbors < 1:
        raise ValueError(f"n_neighbors must be a positive int, got {n_neighbors!r}.")
    p = X.shape[1]
    disc = _discrete_mask(discrete_features, p)
    y_disc = (y.dtype.kind != "f") if discrete_target is None else bool(discrete_target)
    if not y_disc:
        y = _unit_sd(y.astype(float))
    scores = np.empty(p)
    for j in range(p):
        x = X[:, j]
        if not disc[j]:
            x = _unit_sd(x.astype(float))
        if disc[j] and y_disc:
            scores[j] = _mi_discrete(x, y)
        elif disc[j]:
            scores[j] = _mi_cd(y, x, n_neighbors)
        elif y_disc:
            scores[j] = _mi_cd(x, y, n_neighbors)
        else:
            scores[j] = _mi_cc(x, y, n_neighbors)
    return scores


# ----------------------------------------------------------------------- f-score, dispersion


def f_scores(X, y):
    """Two-class f-score of each feature (Chen and Lin; seed 001, eq. 7.13).

    .. math:: F_j = \\frac{(\\bar x_j^+ - \\bar x_j)^2 + (\\bar x_j^- - \\bar x_j)^2}
              {\\frac{1}{n_+-1}\\sum_{i\\in+}(x_{ij}-\\bar x_j^+)^2
              + \\frac{1}{n_--1}\\sum_{i\\in-}(x_{ij}-\\bar x_j^-)^2}

    Larger means better separated. ``y`` must have exactly two classes (either may play "+";
    the score is symmetric), each with at least two samples. A feature constant within both
    classes gets ``inf`` if the class means differ and ``nan`` if not (with a warning).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric features.
    y : array-like of shape (n_samples,)
        Labels of exactly two classes, each with at least two samples.

    Returns
    -------
    scores : ndarray of shape (n_features,)
        :math:`F_j` of each column.
    """
    X = np.asarray(X, dtype=float)
    d = column_scales(X)  # the score is scale-free: columns near float64's ends are rescaled
    if d is not None:
        X = X / d
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"f_scores needs exactly two classes in y, got {classes.size}.")
    pos, neg = X[y == classes[1]], X[y == classes[0]]
    if min(len(pos), len(neg)) < 2:
        raise ValueError("f_scores needs at least two samples in each class.")
    mean = X.mean(axis=0)
    num = (pos.mean(axis=0) - mean) ** 2 + (neg.mean(axis=0) - mean) ** 2
    den = pos.var(axis=0, ddof=1) + neg.var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    if np.any(den == 0):
        warnings.warn(
            "f_scores: features constant within both classes have a zero denominator "
            f"(columns {np.flatnonzero(den == 0).tolist()}).",
            NumericalWarning,
            stacklevel=2,
        )
    return out


def variance_mean_scores(X, y=None, *, ddof=1):
    """Variance-to-mean ratio (index of dispersion) of each feature, an unsupervised filter.

    The notes call it the "deviance" (seed 000, erratum E24); it is the index of dispersion
    ``s²/x̄`` (``ddof`` as in :func:`numpy.var`), meant for non-negative features such as
    counts. Undefined for a zero mean: such columns get ``nan`` with a warning. ``y`` is
    ignored (so it can serve as a :class:`FilterSelector` score).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric features, typically non-negative counts.
    y : ignored
        Accepted so the function has the ``score_func(X, y)`` signature.
    ddof : int, default=1
        Delta degrees of freedom of the variance: the divisor is ``n_samples - ddof``.

    Returns
    -------
    scores : ndarray of shape (n_features,)
        ``var / mean`` of each column; ``nan`` where the mean is 0.
    """
    X = np.asarray(X, dtype=float)
    d = column_scales(X)  # var/mean follows the scale: computed on X / d, then times d
    if d is not None:
        X = X / d
    mean = X.mean(axis=0)
    var = X.var(axis=0, ddof=ddof)
    zero = mean == 0
    if zero.any():
        warnings.warn(
            f"variance_mean_scores: columns {np.flatnonzero(zero).tolist()} have mean 0; "
            "their variance/mean ratio is undefined (nan).",
            NumericalWarning,
            stacklevel=2,
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(zero, np.nan, var / np.where(zero, 1.0, mean))
    return out if d is None else times(out, d)


# ----------------------------------------------------------------------------- Relief(F)


class ReliefF(SelectorMixin, TransformerMixin, StatBase):
    """Relief (Kira and Rendell, 1992) and ReliefF (Kononenko, 1994) feature weights.

    Features are rescaled to ``[0, 1]`` by their training range (the notes' requirement), and
    ``diff_j(a, b) = |a_j − b_j| / range_j``. For each of ``m`` instances ``R`` the
    ``k = n_neighbors`` nearest hits ``H`` (same class, excluding ``R``) and, for every other
    class ``C``, the ``k`` nearest misses ``M(C)`` update

    .. math:: W_j \\leftarrow W_j - \\sum_{H}\\frac{\\mathrm{diff}_j(R,H)^q}{mk}
              + \\sum_{C\\ne c(R)}\\frac{P(C)}{1-P(c(R))}\\sum_{M(C)}
              \\frac{\\mathrm{diff}_j(R,M)^q}{mk},

    with ``q = diff_power`` and class priors ``P`` from the training frequencies; neighbours
    are nearest in ``Σ_j diff_j^q`` (ties to the earlier row). Two classes with
    ``n_neighbors=1, diff_power=2`` is the notes' Relief, ``w ← w − (x − nearHit)² +
    (x − nearMiss)²`` (seed 000 §"Filter methods"), divided by ``m`` (same ranking). It sees
    interactions such as XOR that univariate filters miss, but degrades in high dimensions.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Keep the top-scoring features (``None``: those with a positive weight).
    n_neighbors : int, default=10
        ``k`` hits and misses per class (fewer when a class is smaller).
    max_iter : int or None, default=None
        ``m``: the number of iterations, each on an instance drawn at random (with
        replacement); ``None`` uses every instance once (deterministic). CORElearn's
        ``ReliefIterations``.
    diff_power : {1, 2}, default=1
        ``1``: ReliefF's absolute differences (Manhattan neighbours); ``2``: squared (Euclidean
        neighbours), as the notes' Relief.
    random_state : int, RandomState or None, default=None
        For ``max_iter``.
    n_iterations : int or None, default="deprecated"
        Deprecated name of ``max_iter`` (a ``FutureWarning`` says so); it will be removed.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        The weights ``W``.
    support_ : ndarray of shape (n_features_in_,), bool
    n_iter_ : int
        The number of instances used: ``max_iter``, or ``n_samples`` when it is ``None``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    R equivalent: ``CORElearn::attrEval(..., estimator = "ReliefFequalK")``.
    """

    _parameter_constraints = {
        "n_features_to_select": [None, Interval(Integral, 0, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
        "n_iterations": [Options({DEPRECATED}), None, Interval(Integral, 1, None, closed="left")],
        "diff_power": [Options({1, 2})],
        "random_state": [RandomState()],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        n_neighbors=10,
        max_iter=None,
        diff_power=1,
        random_state=None,
        n_iterations=DEPRECATED,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors
        self.max_iter = max_iter
        self.diff_power = diff_power
        self.random_state = random_state
        self.n_iterations = n_iterations

    @fit_context
    def fit(self, X, y):
        """Compute the weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        n, p = X.shape
        if n < 2:
            raise ValueError(f"ReliefF needs at least 2 samples, got n_samples = {n}.")
        classes, code = np.unique(y, return_inverse=True)
        prior = np.bincount(code) / n
        span = X.max(axis=0) - X.min(axis=0)
        span[span == 0] = 1.0
        Z = (X - X.min(axis=0)) / span
        max_iter = renamed_parameter(self, "n_iterations", "max_iter")
        if max_iter is None:
            rows = np.arange(n)
        else:
            rows = check_random_state(self.random_state).randint(0, n, size=max_iter)
        self.n_iter_ = int(rows.size)
        q, k = self.diff_power, self.n_neighbors
        w = np.zeros(p)
        for i in rows:
            D = np.abs(Z - Z[i]) ** q
            dist = D.sum(axis=1)
            c = code[i]
            for cls in range(len(classes)):
                idx = np.flatnonzero(code == cls)
                if cls == c:
                    idx = idx[idx != i]
                if idx.size == 0:
                    continue
                near = idx[np.argsort(dist[idx], kind="stable")[:k]]
                contrib = D[near].mean(axis=0)
                if cls == c:
                    w -= contrib
                elif prior[c] < 1:
                    w += prior[cls] / (1.0 - prior[c]) * contrib
        self.scores_ = w / len(rows)
        self.support_ = _top(self.scores_, self.n_features_to_select, self.scores_ > 0)
        return self


def _top(scores, k, mask):
    """Mask of the ``k`` best scores among ``mask`` (all of ``mask`` when ``k`` is None)."""
    if k is None:
        return mask.copy()
    s = np.where(mask & ~np.isnan(scores), scores, -np.inf)
    order = np.argsort(-s, kind="stable")[: min(k, int(mask.sum()))]
    out = np.zeros(scores.size, dtype=bool)
    out[order] = True
    return out


# --------------------------------------------------------------------------- FilterSelector


class FilterSelector(SelectorMixin, TransformerMixin, StatBase):
    """Keep the features a filter score ranks highest, or those it finds significant.

    Significance is judged against the scores of permuted responses (seed 000 §"Filter
    methods").

    Parameters
    ----------
    score_func : callable or estimator
        ``score_func(X, y) -> scores`` (larger is better), e.g. :func:`mutual_info_scores`,
        :func:`f_scores`, :func:`variance_mean_scores`; or an unfitted estimator that exposes
        ``scores_`` once fitted (:class:`ReliefF`), cloned for every fit.
    k : int or None, default=None
        Keep the ``k`` highest scores (among the significant features when ``p_value`` is set);
        ties go to the earlier column.
    p_value : float in (0, 1] or None, default=None
        Keep the features whose permutation p-value is at most ``p_value``. Each of
        ``n_permutations`` random permutations of ``y`` is scored, and
        ``p_j = (1 + #{b : s_j^(b) ≥ s_j}) / (1 + B)``. With neither ``k`` nor ``p_value``
        every feature is kept (the scores still rank them).
    n_permutations : int, default=1000
        ``B`` (only with ``p_value``).
    random_state : int, RandomState or None, default=None
        For the permutations.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
    pvalues_ : ndarray of shape (n_features_in_,) or None
        Permutation p-values (only with ``p_value``).
    support_ : ndarray of shape (n_features_in_,), bool
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    An unsupervised score (``variance_mean_scores``) does not depend on ``y``, so its
    permutation p-values are all 1; use ``k`` with it. The permutation null scores the same
    features against a ``y`` with its link to ``X`` broken, which calibrates scores (such as
    the nearest-neighbour mutual information) that have no closed-form null distribution.
    """

    _parameter_constraints = {
        "score_func": "no_validation",
        "k": [None, Interval(Integral, 0, None, closed="left")],
        "p_value": [None, Interval(Real, 0, 1, closed="right")],
        "n_permutations": [Interval(Integral, 1, None, closed="left")],
        "random_state": [RandomState()],
    }

    def __init__(self, score_func, *, k=None, p_value=None, n_permutations=1000, random_state=None):
        self.score_func = score_func
        self.k = k
        self.p_value = p_value
        self.n_permutations = n_permutations
        self.random_state = random_state

    def _score(self, X, y):
        if hasattr(self.score_func, "fit"):
            scores = clone(self.score_func).fit(X, y).scores_
        else:
            scores = self.score_func(X, y)
        scores = np.asarray(scores, dtype=float)
        if scores.shape != (X.shape[1],):
            raise ValueError(
                f"FilterSelector: score_func returned shape {scores.shape}, expected "
                f"({X.shape[1]},)."
            )
        return scores

    @fit_context
    def fit(self, X, y):
        """Score the features (and their permutation null) and select.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if not (callable(self.score_func) or hasattr(self.score_func, "fit")):
            raise TypeError(
                "FilterSelector: parameter 'score_func' must be a callable (X, y) -> scores or "
                f"an estimator exposing scores_, got {type(self.score_func).__name__}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.scores_ = self._score(X, y)
        mask = np.ones(X.shape[1], dtype=bool)
        self.pvalues_ = None
        if self.p_value is not None:
            rng = check_random_state(self.random_state)
            exceed = np.zeros(X.shape[1])
            obs = np.where(np.isnan(self.scores_), np.inf, self.scores_)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", NumericalWarning)
                for _ in range(self.n_permutations):
                    null = self._score(X, y[rng.permutation(len(y))])
                    exceed += np.nan_to_num(null, nan=-np.inf) >= obs
            self.pvalues_ = (1.0 + exceed) / (1.0 + self.n_permutations)
            mask = self.pvalues_ <= self.p_value
        self.support_ = _top(self.scores_, self.k, mask)
        return self
