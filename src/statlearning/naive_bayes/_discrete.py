"""Naive Bayes for discrete features: :class:`BernoulliNB`, :class:`MultinomialNB` and
:class:`CategoricalNB`, with Lidstone smoothing ``alpha`` (``alpha=0`` allowed)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from .. import _dask
from .._core.class_labels import encode_class_labels, label_repr, resolve_priors
from .._core.compiled import kernel_array
from .._core.grouped_moments import grouped_sums
from .._core.naive_bayes import (
    categorical_log_likelihood,
    categorical_tables,
    count_log_likelihood,
    smoothed_log_prob,
)
from .._validation import (
    DEPRECATED,
    ArrayLike,
    Boolean,
    Interval,
    Options,
    check_sample_weight,
    renamed_parameter,
    validate_data,
)
from ..base import ClassifierMixin, StatBase, fit_context
from ._base import NaiveBayesMixin, check_class_weights, feature_names, report_unseen


class _DiscreteNB(ClassifierMixin, NaiveBayesMixin, StatBase):
    """Shared fit steps: labels, weights and class priors of the discrete models."""

    def _labels_and_weights(self, X, y, sample_weight):
        name = type(self).__name__
        self.classes_, codes = encode_class_labels(y, name)
        self._check_threshold()
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        K = self.classes_.size
        self._set_priors(np.bincount(codes, weights=w, minlength=K).astype(np.float64))
        return codes, w

    def _set_priors(self, class_weight):
        name = type(self).__name__
        K = self.classes_.size
        check_class_weights(class_weight, self.classes_, name)
        self.class_count_ = class_weight
        priors = renamed_parameter(self, "class_prior", "priors")
        if priors is not None:
            param = "priors" if self.priors is not None else "class_prior"
            prior = resolve_priors(priors, class_weight, name, param=param)
        elif self.fit_prior:
            prior = class_weight / class_weight.sum()
        else:
            prior = np.full(K, 1.0 / K)
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(prior)

    def _fit_dask(self, X, y, sample_weight=None):
        """``fit`` on Dask collections: one pass of per-class weights and feature sums."""
        name = type(self).__name__
        rows = _dask.row_blocks(self, X, y, sample_weight, labels=True)
        counts = _dask.map_reduce(
            _block_counts, _merge_counts, [rows.X, rows.y, rows.w], rows.offsets,
            type(self) is MultinomialNB, getattr(self, "binarize", None),
        )  # fmt: skip
        checks, (bad, labels, class_weight, sums) = _dask.compute(_dask.check_blocks(rows), counts)
        _dask.raise_for_bad_blocks(self, rows, checks, rescales=False)  # counts: not rescaled
        if bad is not None and not isinstance(self, MultinomialNB):  # X before y, as in memory
            raise ValueError(self._value_error(bad[1], bad[2]))
        self.classes_, _ = encode_class_labels(labels, name)
        self._check_threshold()
        self._set_priors(class_weight)
        if bad is not None:  # the first offending entry, in row order as in memory
            raise ValueError(self._value_error(bad[1], bad[2]))
        self._set_counts(sums)
        return self


    @property
    def _log_prior(self):
        return self.class_log_prior_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self.decision_threshold is None
        return tags


def _block_counts(X, y, w, offset, non_negative, binarize):
    """One block's first invalid entry ``(row, column, value)`` (or None), its sorted labels,
    class weights and per-class feature sums (after binarising for BernoulliNB)."""
    if non_negative:
        bad = X < 0
    elif binarize is not None:
        X = (X > binarize).astype(np.float64)
        bad = None
    else:
        bad = (X != 0) & (X != 1)
    first = None
    if bad is not None and bad.any():
        i, j = np.argwhere(bad)[0]
        first = (int(offset + i), int(j), float(X[i, j]))
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.astype(np.int64).ravel()
    K = classes.size
    _, sums = grouped_sums(kernel_array(X), codes, K, w)
    return first, classes, np.bincount(codes, weights=w, minlength=K).astype(np.float64), sums


def _block_tables(X, y, w, offset):
    """One block's sorted labels, class weights and per-feature level tables (the levels and
    class-by-level counts of :func:`categorical_tables`, on the block's own labels)."""
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.astype(np.int64).ravel()
    K = classes.size
    levels, counts, _ = categorical_tables(kernel_array(X), codes, K, w)
    return classes, np.bincount(codes, weights=w, minlength=K).astype(np.float64), levels, counts


def _merge_tables(a, b):
    classes = np.union1d(a[0], b[0])
    weight = np.zeros(classes.size)
    levels = [np.union1d(la, lb) for la, lb in zip(a[2], b[2], strict=True)]
    counts = [np.zeros((classes.size, lev.size)) for lev in levels]
    for part in (a, b):
        rows = np.searchsorted(classes, part[0])
        weight[rows] += part[1]
        for j, (lev, table) in enumerate(zip(part[2], part[3], strict=True)):
            counts[j][np.ix_(rows, np.searchsorted(levels[j], lev))] += table
    return classes, weight, levels, counts


def _merge_counts(a, b):
    firsts = [f for f in (a[0], b[0]) if f is not None]
    classes = np.union1d(a[1], b[1])
    weight = np.zeros(classes.size)
    sums = np.zeros((classes.size, a[3].shape[1]))
    for part in (a, b):
        idx = np.searchsorted(classes, part[1])
        weight[idx] += part[2]
        sums[idx] += part[3]
    return (min(firsts) if firsts else None), classes, weight, sums


class BernoulliNB(_DiscreteNB):
    """Naive Bayes for binary features (independent Bernoulli variables per class).

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace/Lidstone) smoothing pseudo-count; ``0`` gives the maximum-likelihood
        frequencies.
    binarize : float or None, default=0.0
        Threshold: a feature is 1 when ``x > binarize``. ``None`` means ``X`` is already
        binary (only 0 and 1 are then accepted).
    fit_prior : bool, default=True
        Learn the class priors from the class proportions; ``False`` uses uniform priors.
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities (order of ``classes_``, summing to one); overrides ``fit_prior``.
        The name of every classifier's prior parameter (scikit-learn's ``class_prior``).
    class_prior : array-like of shape (n_classes,), default="deprecated"
        Deprecated name of ``priors`` (a ``FutureWarning`` says so); it will be removed.
    decision_threshold : float in [0, 1], default=None
        Two classes only: predict ``classes_[1]`` when its posterior exceeds ``t``
        (strictly), that is when :meth:`decision_function` ``S₁ − S₀ > θ`` with
        ``θ = logit(t)``; see :class:`GaussianNB`. ``None`` predicts the most probable class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        Number (weight) of samples of each class with the feature equal to 1.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        ``log p_kj``, ``p_kj = (N_kj + α)/(N_k + 2α)``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    With :math:`P(x_j\\mid k) = p_{kj}^{x_j}(1-p_{kj})^{1-x_j}` (Artelt, Exercise 2.3.1,
    eq. 2.23) the classifier is

    .. math:: \\hat C(x) = \\arg\\max_k \\log\\pi_k + \\sum_j \\big[x_j\\log p_{kj}
              + (1-x_j)\\log(1-p_{kj})\\big],

    and the maximum-likelihood estimate is the class frequency
    :math:`\\hat p_{kj} = N_{kj}/N_k` (``alpha=0``); ``alpha`` adds α successes and α
    failures (Welling eq. 6.12 with :math:`V = 2` values). Absent features (``x_j = 0``)
    contribute, unlike :class:`MultinomialNB`.

    With ``alpha=0`` (maximum likelihood, the lecture notes' estimator) a feature value never
    seen in a class gets probability exactly 0: the class's log-likelihood is ``−inf`` and
    its posterior 0. A sample impossible under *every* class has no posterior (0/0):
    ``predict``, ``predict_proba`` and ``predict_log_proba`` raise a ``ValueError`` naming
    it, while ``predict_joint_log_proba`` returns the ``−inf`` scores.

    Mapping: R's ``e1071::naiveBayes`` on two-level factors with ``laplace = alpha`` gives
    the same tables; scikit-learn's ``BernoulliNB(alpha, force_alpha=True)`` the same model.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.naive_bayes import BernoulliNB
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    >>> BernoulliNB(alpha=1.0).fit(X, [0, 0, 1, 1]).predict([[1, 0]])
    array([0])
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "binarize": [None, Interval(Real, None, None)],
        "fit_prior": [Boolean()],
        "priors": [None, ArrayLike()],
        "class_prior": [Options({DEPRECATED}), None, ArrayLike()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(
        self,
        *,
        alpha=1.0,
        binarize=0.0,
        fit_prior=True,
        priors=None,
        class_prior=DEPRECATED,
        decision_threshold=None,
    ):
        self.alpha = alpha
        self.binarize = binarize
        self.fit_prior = fit_prior
        self.priors = priors
        self.class_prior = class_prior
        self.decision_threshold = decision_threshold

    def _binary(self, X):
        if self.binarize is not None:
            return (X > self.binarize).astype(np.float64)
        bad = (X != 0) & (X != 1)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(self._value_error(j, X[i, j]))
        return X

    def _value_error(self, j, value) -> str:
        return (
            f"{type(self).__name__}: with binarize=None X must contain only 0 and 1; "
            f"feature {feature_names(self)[j]!r} has value {value:g}. Set binarize to "
            "a threshold."
        )

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Count, in each class, how often each feature is 1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : BernoulliNB
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        X = kernel_array(X)
        X = self._binary(X)
        codes, w = self._labels_and_weights(X, y, sample_weight)
        self._set_counts(grouped_sums(X, codes, self.classes_.size, w)[1])
        return self

    def _set_counts(self, feature_count):
        self.feature_count_ = feature_count
        N = self.class_count_
        self.feature_log_prob_ = smoothed_log_prob(self.feature_count_, N, self.alpha, 2.0)
        self._log_one_minus = smoothed_log_prob(
            np.clip(N[:, None] - self.feature_count_, 0.0, None), N, self.alpha, 2.0
        )

    def _validate_X(self, X):
        return self._binary(validate_data(self, X, reset=False, dtype=np.float64))

    def _log_likelihood(self, X):
        ones = count_log_likelihood(X, self.feature_log_prob_)
        zeros = count_log_likelihood(1.0 - X, self._log_one_minus)
        return ones + zeros

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags


class MultinomialNB(_DiscreteNB):
    """Naive Bayes for counts (a multinomial distribution of the features per class).

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace/Lidstone) smoothing pseudo-count; ``0`` gives the maximum-likelihood
        frequencies.
    fit_prior : bool, default=True
        Learn the class priors from the class proportions; ``False`` uses uniform priors.
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities (order of ``classes_``, summing to one); overrides ``fit_prior``.
        The name of every classifier's prior parameter (scikit-learn's ``class_prior``).
    class_prior : array-like of shape (n_classes,), default="deprecated"
        Deprecated name of ``priors`` (a ``FutureWarning`` says so); it will be removed.
    decision_threshold : float in [0, 1], default=None
        Two classes only: predict ``classes_[1]`` when its posterior exceeds ``t``
        (strictly), that is when :meth:`decision_function` ``S₁ − S₀ > θ`` with
        ``θ = logit(t)``; see :class:`GaussianNB`. ``None`` predicts the most probable class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        ``N_kj = Σ_{i∈k} x_ij``.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        ``log θ_kj``, ``θ_kj = (N_kj + α)/(N_k + α p)`` with ``N_k = Σ_j N_kj``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    For a sample of counts :math:`x` (e.g. word counts) the classifier is

    .. math:: \\hat C(x) = \\arg\\max_k \\log\\pi_k + \\sum_j x_j\\log\\theta_{kj},

    where the multinomial coefficient, common to all classes, is omitted (so
    :meth:`predict_log_likelihood` is the log-likelihood up to that constant). ``X`` must be
    non-negative.

    With ``alpha=0`` (maximum likelihood, the lecture notes' estimator) a feature value never
    seen in a class gets probability exactly 0: the class's log-likelihood is ``−inf`` and
    its posterior 0. A sample impossible under *every* class has no posterior (0/0):
    ``predict``, ``predict_proba`` and ``predict_log_proba`` raise a ``ValueError`` naming
    it, while ``predict_joint_log_proba`` returns the ``−inf`` scores.

    Mapping: scikit-learn's ``MultinomialNB(alpha, force_alpha=True)`` is the same model.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.naive_bayes import MultinomialNB
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 3, 2]])
    >>> MultinomialNB().fit(X, ["a", "a", "b", "b"]).predict([[4, 0, 0]])
    array(['a'], dtype='<U1')
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_prior": [Boolean()],
        "priors": [None, ArrayLike()],
        "class_prior": [Options({DEPRECATED}), None, ArrayLike()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(
        self,
        *,
        alpha=1.0,
        fit_prior=True,
        priors=None,
        class_prior=DEPRECATED,
        decision_threshold=None,
    ):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.priors = priors
        self.class_prior = class_prior
        self.decision_threshold = decision_threshold

    def _check_non_negative(self, X):
        if np.any(X < 0):
            j = int(np.argwhere(X < 0)[0, 1])
            raise ValueError(self._value_error(j, None))
        return X

    def _value_error(self, j, value) -> str:
        return (
            f"{type(self).__name__}: Negative values in data passed to X (feature "
            f"{feature_names(self)[j]!r}); X must be non-negative counts."
        )

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Sum the feature counts of each class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Non-negative counts.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : MultinomialNB
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        X = kernel_array(X)
        codes, w = self._labels_and_weights(X, y, sample_weight)
        self._check_non_negative(X)
        self._set_counts(grouped_sums(X, codes, self.classes_.size, w)[1])
        return self

    def _set_counts(self, feature_count):
        self.feature_count_ = feature_count
        totals = feature_count.sum(axis=1)
        self.feature_log_prob_ = smoothed_log_prob(
            feature_count, totals, self.alpha, float(feature_count.shape[1])
        )

    def _validate_X(self, X):
        return self._check_non_negative(validate_data(self, X, reset=False, dtype=np.float64))

    def _log_likelihood(self, X):
        return count_log_likelihood(X, self.feature_log_prob_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.classifier_tags.poor_score = True
        return tags


class CategoricalNB(_DiscreteNB):
    """Naive Bayes for categorical features: one frequency table per feature.

    Each distinct value of a feature is a level (scores 1–10, codes 0, 1, 2, …): encode
    strings first, e.g. with :class:`sklearn.preprocessing.OrdinalEncoder`. Missing values
    (NaN) are allowed.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace/Lidstone) smoothing pseudo-count; ``0`` gives the maximum-likelihood
        frequencies.
    fit_prior : bool, default=True
        Learn the class priors from the class proportions; ``False`` uses uniform priors.
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities (order of ``classes_``, summing to one); overrides ``fit_prior``.
        The name of every classifier's prior parameter (scikit-learn's ``class_prior``).
    class_prior : array-like of shape (n_classes,), default="deprecated"
        Deprecated name of ``priors`` (a ``FutureWarning`` says so); it will be removed.
    min_categories : int or array-like of shape (n_features,), default=None
        Minimum number of possible levels ``V_j`` of each feature, for the smoothing
        denominator (e.g. 10 for scores 1–10 even when some never occur in the training
        data); default: the number of levels seen.
    handle_unknown : {"warn", "error", "ignore"}, default="warn"
        A value not seen at fit time. ``"warn"``: that feature is skipped for that sample
        (treated as missing, as R's ``e1071`` does) with a warning naming the feature and the
        level; ``"ignore"``: the same, silently; ``"error"``: a ``ValueError`` naming them.
    missing : {"exclude", "count"}, default="exclude"
        How a missing value enters the tables. ``"exclude"`` (R's ``table`` and
        ``e1071::naiveBayes``): the row is left out of that feature's table, so each class's
        level probabilities sum to one. ``"count"``: the row stays in the class total (the
        denominator) although it adds to no level, as in the lecture notes' tumour example
        (Boily, Figure 35, where the Bare Nuclei column sums to 97.6%).
    decision_threshold : float in [0, 1], default=None
        Two classes only: predict ``classes_[1]`` when its posterior exceeds ``t``
        (strictly), that is when :meth:`decision_function` ``S₁ − S₀ > θ`` with
        ``θ = logit(t)``; see :class:`GaussianNB`. ``None`` predicts the most probable class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    categories_ : list of ndarray
        The levels seen for each feature (sorted).
    category_count_ : list of ndarray of shape (n_classes, n_levels_j)
        Frequency table of each feature: weighted counts of each level in each class.
    feature_log_prob_ : list of ndarray of shape (n_classes, n_levels_j)
        ``log P(x_j = level | class k) = log((N_kjl + α)/(N_kj + α V_j))``.
    n_categories_ : ndarray of int, shape (n_features,)
        ``V_j``: levels seen, or ``min_categories`` if larger.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The classifier multiplies one conditional probability per feature (Welling §6,
    eq. 6.7–6.13; Boily §7.4):

    .. math:: \\hat C(x) = \\arg\\max_k \\log\\pi_k + \\sum_{j:\\,x_j\\ \\text{observed}}
              \\log\\frac{N_{kj}(x_j) + \\alpha}{N_{kj} + \\alpha V_j},

    where :math:`N_{kj}(v)` counts class-``k`` samples with :math:`x_j = v` and
    :math:`N_{kj}` the class-``k`` samples with :math:`x_j` observed (``missing="exclude"``)
    or all class-``k`` samples (``missing="count"``). A missing value at prediction time is
    skipped. The class prior is never smoothed. :meth:`predict_joint_proba` gives the
    unnormalised "posterior" prior × likelihood that the notes print, and
    :meth:`predict_log_likelihood` the log-likelihood.

    With ``alpha=0`` (maximum likelihood, the lecture notes' estimator) a feature value never
    seen in a class gets probability exactly 0: the class's log-likelihood is ``−inf`` and
    its posterior 0. A sample impossible under *every* class has no posterior (0/0):
    ``predict``, ``predict_proba`` and ``predict_log_proba`` raise a ``ValueError`` naming
    it, while ``predict_joint_log_proba`` returns the ``−inf`` scores.
    With ``alpha=0`` a class in which a feature is never observed is an error (its level
    probabilities would be 0/0).

    Mapping: R's ``e1071::naiveBayes`` on factors with ``laplace = alpha`` (levels = those of
    the factor; ``min_categories`` plays the role of unused factor levels) is
    ``CategoricalNB(alpha=laplace)``. scikit-learn's ``CategoricalNB`` codes levels as
    ``0 … max``, so it agrees when every level ``0 … max`` occurs.

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` collection chunked by rows and gives the
    in-memory tables in one pass: every block counts its own levels per class, and the tables
    of two blocks merge on the union of their levels and labels.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.naive_bayes import CategoricalNB
    >>> X = np.array([[1, 0], [1, 1], [2, 1], [2, 2], [2, 2]])
    >>> model = CategoricalNB(alpha=0).fit(X, ["a", "a", "b", "b", "b"])
    >>> np.exp(model.feature_log_prob_[0])
    array([[1., 0.],
           [0., 1.]])
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_prior": [Boolean()],
        "priors": [None, ArrayLike()],
        "class_prior": [Options({DEPRECATED}), None, ArrayLike()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
        "min_categories": [None, Interval(Integral, 1, None, closed="left"), ArrayLike()],
        "handle_unknown": [Options({"warn", "error", "ignore"})],
        "missing": [Options({"exclude", "count"})],
    }

    def __init__(
        self,
        *,
        alpha=1.0,
        fit_prior=True,
        priors=None,
        class_prior=DEPRECATED,
        min_categories=None,
        handle_unknown="warn",
        missing="exclude",
        decision_threshold=None,
    ):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.priors = priors
        self.class_prior = class_prior
        self.decision_threshold = decision_threshold
        self.min_categories = min_categories
        self.handle_unknown = handle_unknown
        self.missing = missing

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Build the class-by-level frequency table of every feature.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric level codes; NaN marks a missing value.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : CategoricalNB
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        X = kernel_array(X)
        codes, w = self._labels_and_weights(X, y, sample_weight)
        K = self.classes_.size
        levels, counts, observed = categorical_tables(X, codes, K, w)
        return self._set_tables(levels, counts, observed)

    def _fit_dask(self, X, y, sample_weight=None):
        """``fit`` on Dask collections: one pass of per-class level counts, the levels found
        in the same pass (each block's tables are merged on the union of the levels)."""
        name = type(self).__name__
        rows = _dask.row_blocks(self, X, y, sample_weight, labels=True)
        tables = _dask.map_reduce(
            _block_tables, _merge_tables, [rows.X, rows.y, rows.w], rows.offsets
        )
        checks, (labels, class_weight, levels, counts) = _dask.compute(
            _dask.check_blocks(rows), tables
        )
        non_finite = checks[0].copy()
        non_finite[0, : rows.X.shape[1]] = 0  # NaN in X is a missing value, not an error
        _dask.raise_for_bad_blocks(self, rows, (non_finite, *checks[1:]), rescales=False)
        self.classes_, _ = encode_class_labels(labels, name)
        self._check_threshold()
        self._set_priors(class_weight)
        return self._set_tables(levels, counts, np.stack([c.sum(axis=1) for c in counts], 1))

    def _set_tables(self, levels, counts, observed):
        """Fitted tables from the levels and counts of :func:`categorical_tables`."""
        p = len(levels)
        n_levels = np.array([lev.size for lev in levels])
        self.n_categories_ = np.maximum(n_levels, self._min_categories(p))
        totals = (
            observed
            if self.missing == "exclude"
            else np.repeat(self.class_count_[:, None], p, axis=1)
        )
        if self.alpha == 0 and np.any(totals <= 0):
            k, j = np.argwhere(totals <= 0)[0]
            raise ValueError(
                f"{type(self).__name__}: feature {feature_names(self)[j]!r} is never observed "
                f"in class {label_repr(self.classes_[k])}; with alpha=0 its level probabilities "
                "are undefined (0/0). Use alpha > 0."
            )
        self.categories_ = levels
        self.category_count_ = counts
        self.feature_log_prob_ = [
            smoothed_log_prob(counts[j], totals[:, j], self.alpha, float(self.n_categories_[j]))
            for j in range(p)
        ]
        return self

    def _min_categories(self, p):
        if self.min_categories is None:
            return np.zeros(p, dtype=np.int64)
        arr = np.asarray(self.min_categories)
        if arr.ndim == 0:
            return np.full(p, int(arr))
        if arr.shape != (p,) or arr.dtype.kind not in "iu" or np.any(arr < 1):
            raise ValueError(
                f"{type(self).__name__}: min_categories must be a positive int or an array of "
                f"{p} positive ints (one per feature); got {self.min_categories!r}."
            )
        return arr.astype(np.int64)

    def _validate_X(self, X):
        return validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")

    def _log_likelihood(self, X):
        out, unseen = categorical_log_likelihood(X, self.categories_, self.feature_log_prob_)
        report_unseen(unseen, self.handle_unknown, type(self).__name__, feature_names(self))
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True
        return tags
