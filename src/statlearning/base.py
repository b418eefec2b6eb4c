"""Base classes and mixins shared by every statlearning estimator.

Our estimators follow scikit-learn's contract strictly (``class X(RegressorMixin, StatBase)``:
mixins on the left, our base on the right). This module adds, over :mod:`sklearn.base`:

* :class:`StatBase` — a :class:`~sklearn.base.BaseEstimator` whose declared
  ``_parameter_constraints`` are checked by :func:`fit_context` at the start of ``fit``;
* :func:`fit_context` — the decorator that every public ``fit`` wears;
* :class:`LinearPredictorMixin` — ``predict``/``decision_function`` from ``coef_`` and
  ``intercept_``, ignoring aliased (``NaN``) coefficients as R's ``predict.lm`` does;
* :class:`InferenceMixin` — ``summary()`` and ``predict_interval`` plumbing for estimators that
  compute classical inference at fit time;
* :class:`RegressorMixin`, :class:`ClassifierMixin` — scikit-learn's, whose ``score`` (R²,
  accuracy) on Dask collections is computed from block sums (:func:`statlearning._dask.score`)
  instead of bringing ``y`` and the predictions to the client.
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.base import ClassifierMixin as _ClassifierMixin
from sklearn.base import RegressorMixin as _RegressorMixin
from sklearn.utils.validation import check_is_fitted

from . import _dask
from ._validation import check_constraint_keys, validate_data, validate_params

__all__ = [
    "ClassifierMixin",
    "InferenceMixin",
    "LinearPredictorMixin",
    "PosteriorClassifierMixin",
    "RegressorMixin",
    "StatBase",
    "TransformerMixin",
    "fit_context",
]


class RegressorMixin(_RegressorMixin):
    """The mixin of regressors: scikit-learn's, whose ``score`` also takes Dask collections."""

    def score(self, X, y, sample_weight=None) -> float:
        """The coefficient of determination R² of ``predict(X)`` (scikit-learn's ``r2_score``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        float
            ``1 − Σw(y − ŷ)² / Σw(y − ȳ_w)²``. On Dask collections it is computed from block
            sums (the data stay on the workers).
        """
        return _score(RegressorMixin, self, X, y, sample_weight, "r2")


class ClassifierMixin(_ClassifierMixin):
    """The mixin of classifiers: scikit-learn's, whose ``score`` also takes Dask collections."""

    def score(self, X, y, sample_weight=None) -> float:
        """The (weighted) accuracy of ``predict(X)`` (scikit-learn's ``accuracy_score``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        float
            The weighted fraction of correctly predicted labels. On Dask collections it is
            computed from block sums (the data stay on the workers).
        """
        return _score(ClassifierMixin, self, X, y, sample_weight, "accuracy")


def _score(mixin, estimator, X, y, sample_weight, metric) -> float:
    """scikit-learn's score, or on Dask collections :func:`statlearning._dask.score`."""
    if _dask.any_dask((X, y, sample_weight), {}):
        return _dask.score(estimator, X, y, sample_weight, metric)
    return super(mixin, estimator).score(X, y, sample_weight=sample_weight)


class StatBase(BaseEstimator):
    """Base class of every statlearning estimator.

    Subclasses declare ``_parameter_constraints`` (see :mod:`statlearning._validation`) and
    decorate ``fit`` with :func:`fit_context`. ``__init__`` stores its keyword arguments verbatim.
    """

    _parameter_constraints: dict = {}

    def __init_subclass__(cls, **kwargs):
        """Reject, when the class is defined, constraints on names that are not parameters."""
        super().__init_subclass__(**kwargs)
        check_constraint_keys(cls)

    def _validate_params(self) -> None:
        validate_params(self)


def fit_context(fit_method):
    """Decorate ``fit``: validate the hyper-parameters before anything else runs.

    Parameters
    ----------
    fit_method : callable
        The estimator's ``fit(self, *args, **kwargs)``.

    Returns
    -------
    callable
        A wrapper with ``fit_method``'s name and docstring that calls
        ``self._validate_params()`` (checking the hyper-parameters against
        ``_parameter_constraints``) and then ``fit_method``, returning what it returns. When
        an argument is a Dask collection it calls the estimator's ``_fit_dask`` instead
        (:mod:`statlearning._dask`).
    """

    @functools.wraps(fit_method)
    def wrapper(estimator, *args, **kwargs):
        estimator._validate_params()
        if _dask.any_dask(args, kwargs):  # the distributed path (statlearning._dask)
            return _dask.fit(estimator, args, kwargs)
        return fit_method(estimator, *args, **kwargs)

    return wrapper


class LinearPredictorMixin:
    """``predict`` for models whose prediction is ``X @ coef_ + intercept_``.

    Coefficients that are ``NaN`` (aliased columns of a rank-deficient design, R's ``NA``) do not
    contribute, exactly as in R's ``predict.lm``.
    """

    def _linear_predictor(self, X) -> np.ndarray:
        check_is_fitted(self, "coef_")
        if _dask.is_dask_collection(X):  # a lazy Dask array of predictions
            return _dask.linear_predictor(self, X)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return self._linear_predictor_raw(X)

    def _linear_predictor_raw(self, X) -> np.ndarray:
        """``X @ coef_ + intercept_`` on validated ``X``, aliased (NaN) coefficients as zero."""
        coef = self.coef_
        if np.isnan(coef).any():
            coef = np.where(np.isnan(coef), 0.0, coef)
        return X @ coef + self.intercept_

    def predict(self, X) -> np.ndarray:
        """Predict with the fitted linear model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._linear_predictor(X)


class PosteriorClassifierMixin:
    """``predict_proba`` and ``predict`` for classifiers that implement ``predict_log_proba``.

    Probabilities are the exponentiated log-posteriors; the predicted class is the maximum a
    posteriori one, ties going to the first class in ``classes_``.
    """

    def predict_proba(self, X) -> np.ndarray:
        """Posterior probabilities ``P(k | x)``; columns follow ``classes_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self)
            return _dask.predict_blocks(self, X, "predict_proba", len(self.classes_))
        with np.errstate(under="ignore"):
            return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """The maximum a posteriori class; ties go to the first class in ``classes_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self)
            return _dask.predict_blocks(self, X, "predict", dtype=self.classes_.dtype)
        scores = self._map_scores(X)  # first: it checks that the model is fitted
        return self.classes_[np.argmax(scores, axis=1)]

    def _map_scores(self, X) -> np.ndarray:
        """Scores of ``X`` whose row-wise argmax is the maximum a posteriori class: the log
        posteriors, unless an estimator has cheaper ones (unnormalised, say)."""
        return self.predict_log_proba(X)


class InferenceMixin:
    """Shared pieces of estimators that expose ``summary()``.

    The estimator stores, at fit time, everything the table needs (``coef_``, ``intercept_``,
    ``bse_``, ``cov_params_``, ...) and implements ``_summary_stats()``; no training data is kept.
    """

    def _term_names(self) -> list[str]:
        """Coefficient names in R's order: ``(Intercept)`` first, then the features."""
        if hasattr(self, "feature_names_in_"):
            names = [str(n) for n in self.feature_names_in_]
        else:
            names = [f"x{j}" for j in range(self.n_features_in_)]
        if getattr(self, "fit_intercept", False):
            names = ["(Intercept)", *names]
        return names

    def _full_coef(self) -> np.ndarray:
        """Coefficients in R's order (intercept first when fitted)."""
        coef = np.asarray(self.coef_, dtype=np.float64)
        if getattr(self, "fit_intercept", False):
            return np.concatenate([[self.intercept_], coef])
        return coef.copy()
