"""Naive Bayes for tables mixing continuous and categorical columns: :class:`MixedNB`."""

from __future__ import annotations

from numbers import Real

import numpy as np

from .._core.class_labels import encode_class_labels, label_repr, resolve_priors
from .._core.compiled import kernel_array, numba_threads
from .._core.naive_bayes import (
    categorical_log_likelihood,
    categorical_tables,
    smoothed_log_prob,
)
from .._validation import ArrayLike, Interval, NJobs, Options, check_sample_weight, validate_data
from ..base import ClassifierMixin, StatBase, fit_context
from ._base import NaiveBayesMixin, check_class_weights, feature_names, report_unseen
from ._gaussian import fit_gaussian_part, gaussian_part_log_likelihood


class MixedNB(ClassifierMixin, NaiveBayesMixin, StatBase):
    """Naive Bayes with Gaussian continuous columns and categorical (frequency-table) columns.

    Parameters
    ----------
    categorical_features : array-like of int, bool or str, default=None
        Which columns are categorical: indices, a boolean mask of length ``n_features``, or
        column names (when ``X`` is a DataFrame). ``None``: no categorical column (the model
        is then :class:`GaussianNB`).
    var_smoothing : float, default=1e-9
        As in :class:`GaussianNB`, over the continuous columns.
    alpha : float, default=1.0
        Lidstone smoothing of the categorical tables, as in :class:`CategoricalNB`.
    ddof : {0, 1}, default=0
        Divisor ``n_k − ddof`` of the class variances of the continuous columns.
    priors : array-like of shape (n_classes,), default=None
        Class priors; ``None`` uses the class proportions.
    handle_unknown : {"warn", "error", "ignore"}, default="warn"
        A categorical level unseen at fit time: skip that feature for that sample with a
        warning (``"warn"``) or silently (``"ignore"``), or raise (``"error"``); see
        :class:`CategoricalNB`.
    n_jobs : int, default=None
        Threads of the compiled Gaussian log-likelihood loop at prediction, as
        :class:`GaussianNB`.
    decision_threshold : float in [0, 1], default=None
        Two classes only: predict ``classes_[1]`` when its posterior exceeds ``t``
        (strictly), that is when :meth:`decision_function` ``S₁ − S₀ > θ`` with
        ``θ = logit(t)``; see :class:`GaussianNB`. ``None`` predicts the most probable class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_prior_ : ndarray of shape (n_classes,)
    categorical_features_ : ndarray of bool, shape (n_features,)
        The categorical columns.
    theta_, var_ : ndarray of shape (n_classes, n_continuous)
        Class means and variances (plus ``epsilon_``) of the continuous columns, in column
        order.
    epsilon_ : float
    categories_ : list of ndarray
        Levels seen in each categorical column (in column order).
    category_count_ : list of ndarray of shape (n_classes, n_levels)
    feature_log_prob_ : list of ndarray of shape (n_classes, n_levels)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The class-conditional density is a product of normal densities over the continuous
    columns :math:`C` and level probabilities over the categorical columns :math:`D`
    (Boily §3.2.3: "mixed features can use pmfs for categorical ones"):

    .. math:: \\hat C(x) = \\arg\\max_k \\log\\pi_k
              + \\sum_{j\\in C} \\log N(x_j\\mid\\mu_{kj},\\sigma^2_{kj})
              + \\sum_{j\\in D} \\log\\frac{N_{kj}(x_j)+\\alpha}{N_{kj}+\\alpha V_j}.

    Missing values (NaN) are allowed in every column: they are left out of that column's
    estimates and skipped at prediction, as R's ``e1071::naiveBayes`` does.

    Mapping: ``e1071::naiveBayes(x, y, laplace = a)`` on a data frame of numeric and factor
    columns is ``MixedNB(categorical_features=<the factors>, alpha=a, ddof=1,
    var_smoothing=0)``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.naive_bayes import MixedNB
    >>> X = np.array([[5.1, 0], [4.9, 0], [6.3, 1], [6.5, 1], [5.0, 1], [6.1, 0]])
    >>> y = ["a", "a", "b", "b", "a", "b"]
    >>> MixedNB(categorical_features=[1]).fit(X, y).predict([[6.4, 1]])
    array(['b'], dtype='<U1')
    """

    _parameter_constraints = {
        "categorical_features": [None, ArrayLike()],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "ddof": [Options({0, 1})],
        "priors": [None, ArrayLike()],
        "handle_unknown": [Options({"warn", "error", "ignore"})],
        "n_jobs": [None, NJobs()],
        "decision_threshold": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(
        self,
        categorical_features=None,
        *,
        var_smoothing=1e-9,
        alpha=1.0,
        ddof=0,
        priors=None,
        handle_unknown="warn",
        n_jobs=None,
        decision_threshold=None,
    ):
        self.categorical_features = categorical_features
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.ddof = ddof
        self.priors = priors
        self.handle_unknown = handle_unknown
        self.n_jobs = n_jobs
        self.decision_threshold = decision_threshold

    def _categorical_mask(self, p):
        name = type(self).__name__
        spec = self.categorical_features
        mask = np.zeros(p, bool)
        if spec is None:
            return mask
        arr = np.asarray(spec)
        if arr.size == 0:
            return mask
        if arr.ndim != 1:
            raise ValueError(f"{name}: categorical_features must be 1-D; got {spec!r}.")
        if arr.dtype.kind == "b":
            if arr.size != p:
                raise ValueError(
                    f"{name}: the boolean categorical_features has {arr.size} entries but X "
                    f"has {p} columns."
                )
            return arr.copy()
        if arr.dtype.kind in "USO":
            names = list(getattr(self, "feature_names_in_", []))
            for col in arr:
                if col not in names:
                    where = (
                        f"the columns are {names}"
                        if names
                        else "X has no column names (pass a DataFrame, or use indices)"
                    )
                    raise ValueError(
                        f"{name}: categorical_features names column {label_repr(col)}, not "
                        f"in X; {where}."
                    )
                mask[names.index(col)] = True
            return mask
        if arr.dtype.kind not in "iu":
            raise ValueError(
                f"{name}: categorical_features must be column indices, a boolean mask or "
                f"column names; got {spec!r}."
            )
        if arr.size and (arr.min() < 0 or arr.max() >= p):
            raise ValueError(
                f"{name}: categorical_features index out of range for X with {p} columns; "
                f"got {arr.tolist()}."
            )
        mask[arr] = True
        return mask

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Estimate the per-class distributions of the columns.

        Gaussian parameters for the continuous columns, frequency tables for the categorical
        ones.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numbers; categorical columns hold level codes. NaN marks a missing value.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights.

        Returns
        -------
        self : MixedNB
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        X = kernel_array(X)
        mask = self._categorical_mask(X.shape[1])
        self.classes_, codes = encode_class_labels(y, name)
        self._check_threshold()
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        K = self.classes_.size
        class_weight = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
        check_class_weights(class_weight, self.classes_, name)
        names = np.array(feature_names(self), dtype=object)
        cont = ~mask
        if cont.any():
            fit_gaussian_part(self, X[:, cont], codes, K, w, list(names[cont]))
        else:
            self.theta_ = self.var_ = np.zeros((K, 0))
            self.epsilon_ = 0.0
            self._rescaled_moments = None
        levels, counts, observed = categorical_tables(X[:, mask], codes, K, w)
        if self.alpha == 0 and np.any(observed <= 0):
            k, j = np.argwhere(observed <= 0)[0]
            raise ValueError(
                f"{name}: feature {names[mask][j]!r} is never observed in class "
                f"{label_repr(self.classes_[k])}; with alpha=0 its level probabilities are "
                "undefined. Use alpha > 0."
            )
        self.categories_ = levels
        self.category_count_ = counts
        self.feature_log_prob_ = [
            smoothed_log_prob(counts[j], observed[:, j], self.alpha, float(levels[j].size))
            for j in range(len(levels))
        ]
        self.categorical_features_ = mask
        self.class_count_ = class_weight
        self.class_prior_ = resolve_priors(self.priors, class_weight, name)
        return self

    @property
    def _log_prior(self):
        with np.errstate(divide="ignore"):
            return np.log(self.class_prior_)

    def _validate_X(self, X):
        return validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")

    def _log_likelihood(self, X):
        mask = self.categorical_features_
        out = np.zeros((X.shape[0], self.classes_.size))
        if (~mask).any():
            with numba_threads(self.n_jobs):
                out += gaussian_part_log_likelihood(self, X[:, ~mask])
        if mask.any():
            cat, unseen = categorical_log_likelihood(
                X[:, mask], self.categories_, self.feature_log_prob_
            )
            names = list(np.array(feature_names(self), dtype=object)[mask])
            report_unseen(unseen, self.handle_unknown, type(self).__name__, names)
            out += cat
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.classifier_tags.multi_class = self.decision_threshold is None
        spec = self.categorical_features
        tags.input_tags.categorical = spec is not None and np.asarray(spec).size > 0
        return tags
