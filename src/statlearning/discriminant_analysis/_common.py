"""Pieces shared by the linear and quadratic discriminant classifiers."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.class_labels import log_normalise_rows
from .._core.compiled import kernel_array
from .._validation import validate_data
from ..base import PosteriorClassifierMixin

_BLOCK_BYTES = 16 * 2**20


def row_blocks(n: int, p: int):
    """Row ranges of about 16 MiB of features each (bounded memory at prediction time)."""
    rows = max(1024, _BLOCK_BYTES // (8 * max(p, 1)))
    for start in range(0, n, rows):
        yield start, min(n, start + rows)


def feature_names(estimator) -> list[str]:
    """``feature_names_in_`` as strings, else ``x0, x1, …`` (the library's term names)."""
    if hasattr(estimator, "feature_names_in_"):
        return [str(n) for n in estimator.feature_names_in_]
    return [f"x{j}" for j in range(estimator.n_features_in_)]


class DiscriminantMixin(PosteriorClassifierMixin):
    """``predict``, ``predict_proba``, ``predict_log_proba`` and ``decision_function`` from
    ``_scores(X)``: the discriminant scores of validated ``X`` (shape (n, K)), equal to the
    log posterior up to a term common to all classes."""

    def _validated(self, X):
        check_is_fitted(self, "classes_")
        return kernel_array(validate_data(self, X, reset=False, dtype=np.float64))

    def decision_function(self, X):
        """Discriminant scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            For two classes, ``δ_1(x) − δ_0(x)`` (the log posterior odds of ``classes_[1]``);
            otherwise ``δ_k(x)`` up to a term common to all classes.
        """
        X = self._validated(X)
        if self.classes_.size == 2 and hasattr(self, "_binary_scores"):
            return self._binary_scores(X)
        scores = self._scores(X)
        if scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict_log_proba(self, X):
        """Log posterior probabilities (columns follow ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "classes_")
            return _dask.predict_blocks(self, X, "predict_log_proba", len(self.classes_))
        return log_normalise_rows(self._scores(self._validated(X)), type(self).__name__)

    def predict(self, X):
        """The class with the largest posterior; ties go to the first class in ``classes_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "classes_")
            return _dask.predict_blocks(self, X, "predict", dtype=self.classes_.dtype)
        X = self._validated(X)
        if self.classes_.size == 2 and hasattr(self, "_binary_scores"):  # one column, not two
            return self.classes_[(self._binary_scores(X) > 0).astype(np.intp)]
        return self.classes_[np.argmax(self._scores(X), axis=1)]
