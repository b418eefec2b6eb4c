"""Gaussian naive Bayes: :class:`GaussianNB`."""

from __future__ import annotations

import math
import warnings
from numbers import Real

import numpy as np

from .. import _dask
from .._core.class_labels import encode_class_labels, label_repr, resolve_priors
from .._core.compiled import kernel_array, numba_threads
from .._core.gaussian_loglik import gaussian_log_likelihood
from .._core.grouped_moments import grouped_centred_squares, grouped_sums
from .._core.scaling import scale_for, times
from .._validation import ArrayLike, Interval, NJobs, Options, check_sample_weight, validate_data
from ..base import ClassifierMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, warn_data_scale
from ._base import NaiveBayesMixin, check_class_weights, feature_names


def gaussian_moments(X, codes, n_classes, w, ddof, var_smoothing, owner, names, classes):
    """Class means, variances (divisor ``Σw − ddof``, plus ``ε``) and ``ε``; NaN skipped.

    Shared by :class:`GaussianNB` and the continuous columns of ``MixedNB``. A class with no
    more than ``ddof`` observations of a feature has no variance estimate: it gets ``ε`` alone,
    with a warning. A zero variance after smoothing is an error naming the feature and class.
    """
    wsum, sums = grouped_sums(X, codes, n_classes, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = sums / wsum
    ss = None if np.any(wsum <= 0) else grouped_centred_squares(X, codes, theta, w)
    return gaussian_from_moments(wsum, theta, ss, ddof, var_smoothing, owner, names, classes)


def gaussian_from_moments(wsum, theta, ss, ddof, var_smoothing, owner, names, classes):
    """:func:`gaussian_moments` from the per-class weights, means and centred sums of squares
    (each of shape ``(K, p)``; data held in blocks merge these)."""
    if np.any(wsum <= 0):
        k, j = np.argwhere(wsum <= 0)[0]
        raise ValueError(
            f"{owner}: feature {names[j]!r} has no observed (non-missing) value in class "
            f"{label_repr(classes[k])}; its class mean is undefined."
        )
    # overall variance of each feature (divisor Σw), from the class moments (no extra pass)
    total_w = wsum.sum(axis=0)
    grand = (wsum * theta).sum(axis=0) / total_w
    overall_var = (ss.sum(axis=0) + (wsum * (theta - grand) ** 2).sum(axis=0)) / total_w
    epsilon = float(var_smoothing * np.max(overall_var)) if overall_var.size else 0.0
    denom = wsum - ddof
    few = denom <= 0
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(few, 0.0, ss / np.where(few, 1.0, denom))
    if few.any():
        k, j = np.argwhere(few)[0]
        warnings.warn(
            f"{owner}: class {label_repr(classes[k])} has {wsum[k, j]:g} observation(s) of feature "
            f"{names[j]!r}, too few for a variance with ddof={ddof}; the variance is set to "
            f"the smoothing term epsilon_ = {epsilon:.4g} alone.",
            NumericalWarning,
        )
    var = var + epsilon
    if np.any(~(var > 0)):
        k, j = np.argwhere(~(var > 0))[0]
        raise ValueError(
            f"{owner}: feature {names[j]!r} is constant within class {label_repr(classes[k])} "
            f"(variance 0) and var_smoothing adds nothing (var_smoothing={var_smoothing!r}, "
            "largest feature variance "
            f"{np.max(overall_var) if overall_var.size else 0:.4g}); the Gaussian density is "
            "degenerate. Set var_smoothing > 0 or drop the feature."
        )
    return theta, var, epsilon, wsum


def fit_gaussian_part(estimator, X, codes, n_classes, w, names):
    """Set ``theta_``, ``var_`` and ``epsilon_`` from the continuous columns ``X``.

    Data near the ends of float64 are fitted on ``X / s`` for one power of two ``s`` (exact;
    the smoothing ``ε`` is relative to the largest variance, so the fit is equivariant) and
    mapped back: means by ``s``, variances by ``s²``. Variances that float64 cannot hold at
    that scale become ``inf`` or 0 with a warning; prediction uses the rescaled moments, so
    the classes and posteriors are exact either way.
    """
    s = scale_for(X)
    Xs = X if s is None else kernel_array(X / s)
    theta, var, epsilon, _ = gaussian_moments(
        Xs, codes, n_classes, w, estimator.ddof, estimator.var_smoothing,
        type(estimator).__name__, names, estimator.classes_,
    )  # fmt: skip
    estimator._rescaled_moments = None if s is None else (s, theta, var)
    estimator.theta_ = times(theta, s)
    estimator.var_, estimator.epsilon_ = times(var, s, 2), times(epsilon, s, 2)
    if s is not None and not np.all((estimator.var_ > 0) & np.isfinite(estimator.var_)):
        warn_data_scale(estimator, ["var_", "epsilon_"], float(np.nanmax(np.abs(X))))


def gaussian_part_log_likelihood(estimator, X):
    """``Σ_j log N(x_ij | θ_kj, σ²_kj)`` over the continuous columns ``X`` (NaN skipped), from
    the rescaled moments when the fit rescaled: ``log N(x | θ, σ²) = log N(x/s | θ/s, σ²/s²)
    − log s``."""
    rescaled = getattr(estimator, "_rescaled_moments", None)
    if rescaled is None:
        return gaussian_log_likelihood(X, kernel_array(estimator.theta_), estimator.var_)
    s, theta, var = rescaled
    out = gaussian_log_likelihood(X / s, theta, var)
    observed = np.sum(~np.isnan(X), axis=1) if np.isnan(X).any() else X.shape[1]
    return out - (np.asarray(observed, dtype=np.float64) * math.log(s)).reshape(-1, 1)


class GaussianNB(ClassifierMixin, NaiveBayesMixin, StatBase):
    """Gaussian naive Bayes: independent normal features within each class.

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities of the classes (order of ``classes_``); ``None`` uses the class
        proportions of the training data. Must be non-negative and sum to one.
    var_smoothing : float, default=1e-9
        Portion of the largest feature variance added to every variance, for stability
        (scikit-learn's definition: ``ε = var_smoothing · max_j Var(x_j)``).
    ddof : {0, 1}, default=0
        Delta degrees of freedom of the class variances: ``0`` gives the maximum-likelihood
        divisor ``n_k`` (scikit-learn), ``1`` the unbiased divisor ``n_k − 1`` used by the
        lecture notes and by R's ``e1071::naiveBayes``.
    n_jobs : int, default=None
        Threads of the compiled log-likelihood loop in ``predict`` / ``predict_proba`` /
        ``predict_log_proba`` (numba's thread count during the call, restored afterwards).
        ``None`` keeps numba's setting (every core unless ``NUMBA_NUM_THREADS`` or
        :func:`numba.set_num_threads` says otherwise); ``-1`` is every core, ``-2`` all but
        one. The result does not depend on it.
    decision_threshold : float in [0, 1], default=None
        Two classes only: predict ``classes_[1]`` when its posterior exceeds ``t`` (strictly),
        that is when :meth:`decision_function` :math:`S_1 - S_0 > \\theta` with
        :math:`\\theta = \\operatorname{logit}(t) = \\log(t/(1-t))`: the notes' rule
        :math:`S_1 > S_0 + \\theta`. ``t = 0`` (θ = −∞) predicts ``classes_[1]`` unless
        its posterior is exactly 0, ``t = 1`` (θ = +∞) never does. Sweeping it traces the
        ROC curve of :meth:`decision_function`. ``None`` predicts the most probable class
        (for two classes the same as ``0.5``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
        Number (total weight) of training samples in each class.
    class_prior_ : ndarray of shape (n_classes,)
        The priors used: ``priors`` or the class proportions.
    theta_ : ndarray of shape (n_classes, n_features)
        Class means ``μ_kj``.
    var_ : ndarray of shape (n_classes, n_features)
        Class variances ``σ²_kj`` including ``epsilon_``.
    epsilon_ : float
        The variance added for stability.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    MixedNB : continuous and categorical features together.
    statlearning.discriminant_analysis.QuadraticDiscriminantAnalysis : full class covariances.

    Notes
    -----
    The classifier is the maximum a posteriori rule with a diagonal-Gaussian class model

    .. math:: \\hat C(x) = \\arg\\max_k \\; \\log\\pi_k
              - \\tfrac12 \\sum_{j=1}^p \\Big[\\log(2\\pi\\sigma_{kj}^2)
              + \\frac{(x_j-\\mu_{kj})^2}{\\sigma_{kj}^2}\\Big],

    fitted by :math:`\\pi_k = n_k/n`, :math:`\\mu_{kj}` the class mean and
    :math:`\\sigma^2_{kj} = \\sum_{i\\in k}(x_{ij}-\\mu_{kj})^2/(n_k-\\mathrm{ddof}) + \\varepsilon`
    (Artelt, eq. 2.16–2.21; Boily §3.2.3). Everything is computed in log space. The
    :math:`-\\sum_j\\log\\sigma_{kj}` term, which Boily's printed score omits (seed-notes
    item 30), is always kept: it matters whenever class variances differ.

    Mapping: the notes' estimator is ``GaussianNB(ddof=1, var_smoothing=0)``; R's
    ``e1071::naiveBayes(x, y)`` on numeric features is the same (its ``tables`` hold the
    means and ``sqrt(var_)``). scikit-learn's ``GaussianNB`` is ``ddof=0`` (the default).
    ``sample_weight`` are frequency weights: the divisor is ``Σw − ddof``.

    Decision threshold (every naive Bayes classifier here): with the class scores
    :math:`S_k = \\log\\pi_k + \\sum_j \\log P(x_j \\mid k)`, the notes' rule for two
    classes is "``classes_[1]`` if :math:`S_1 > S_0 + \\theta`" (seed 002, eq. 6.9–6.11;
    θ = 0 is the rule of fewest errors). Since :math:`S_1 - S_0` is the log posterior odds,
    this is :math:`P(\\text{classes\\_}[1] \\mid x) > t` with
    :math:`\\theta = \\log(t/(1-t))`: ``decision_threshold=t``. Equality goes to
    ``classes_[0]`` (the notes flip a coin), as in
    :class:`~statlearning.neighbors.KNeighborsClassifier` and
    :class:`~statlearning.linear_model.LogisticRegression`. Sweeping θ from +∞ to −∞
    traces the ROC curve of :meth:`decision_function`: ``sklearn.metrics.roc_curve`` on it
    gives the same points.

    Data whose largest ``|x|`` is beyond ``2^±200`` (about ``1e±60``) are fitted divided by a
    power of two (exact; ``ε`` is relative, so the fit is equivariant): ``theta_`` and
    ``var_`` are mapped back, and prediction uses the rescaled moments, so posteriors and
    classes are exact even where ``var_`` leaves float64's range (a ``NumericalWarning`` says
    so).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.naive_bayes import GaussianNB
    >>> X = np.array([[-2.0], [-1.0], [-1.5], [1.0], [2.0], [1.5]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> model = GaussianNB(ddof=1).fit(X, y)
    >>> model.predict([[-0.8], [0.9]])
    array([0, 1])
    >>> model.decision_function([[0.1]]).round(3)  # S₁ − S₀, the log posterior odds
    array([1.2])
    >>> model.predict_proba([[0.1]]).round(3)
    array([[0.231, 0.769]])
    >>> model.set_params(decision_threshold=0.8).predict([[0.1]])  # needs P(1 | x) > 0.8
    array([0])
    """

    _parameter_constraints = {
        "priors": [None, ArrayLike()],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "ddof": [Options({0, 1})],
        "n_jobs": [None, NJobs()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(
        self, *, priors=None, var_smoothing=1e-9, ddof=0, n_jobs=None, decision_threshold=None
    ):
        self.priors = priors
        self.var_smoothing = var_smoothing
        self.ddof = ddof
        self.n_jobs = n_jobs
        self.decision_threshold = decision_threshold

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Estimate the class priors, means and variances.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights.

        Returns
        -------
        self : GaussianNB
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        X = kernel_array(X)
        self.classes_, codes = encode_class_labels(y, name)
        self._check_threshold()
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        K = self.classes_.size
        class_weight = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
        check_class_weights(class_weight, self.classes_, name)
        fit_gaussian_part(self, X, codes, K, w, feature_names(self))
        self.class_count_ = class_weight
        self.class_prior_ = resolve_priors(self.priors, class_weight, name)
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """:meth:`fit` on Dask collections: one pass of per-class moments, merged in a tree."""
        name = type(self).__name__
        _, wsum, theta, ss = _dask.class_moments(self, X, y, sample_weight)
        self._check_threshold()
        class_weight = wsum[:, 0].copy() if wsum.shape[1] else np.zeros(self.classes_.size)
        check_class_weights(class_weight, self.classes_, name)
        theta, var, epsilon, _ = gaussian_from_moments(
            wsum, theta, ss, self.ddof, self.var_smoothing, name, feature_names(self),
            self.classes_,
        )  # fmt: skip
        self._rescaled_moments = None
        self.theta_, self.var_, self.epsilon_ = theta, var, epsilon
        self.class_count_ = class_weight
        self.class_prior_ = resolve_priors(self.priors, class_weight, name)
        return self

    @property
    def _log_prior(self):
        with np.errstate(divide="ignore"):
            return np.log(self.class_prior_)

    def _validate_X(self, X):
        return validate_data(self, X, reset=False, dtype=np.float64)

    def _log_likelihood(self, X):
        with numba_threads(self.n_jobs):
            return gaussian_part_log_likelihood(self, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self.decision_threshold is None
        return tags
