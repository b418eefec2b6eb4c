"""What every basis transformer shares: one basis per input column, concatenated."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.scaling import max_abs
from .._validation import validate_data
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import warn_data_scale


class BasisTransformer(TransformerMixin, StatBase):
    """Fit a one-variable basis on every column of ``X``; ``transform`` concatenates them.

    Subclasses implement ``_fit_column(x, j) -> state``, ``_transform_column(x, state)`` and
    ``_suffix`` (the feature-name stem, ``"poly"``, ``"bs"``, ...). The state of each column
    (knots, recurrence coefficients, breaks) is kept in ``_states`` so that ``transform`` on
    new data evaluates the same basis, as R's ``predict`` on a ``bs``/``ns``/``poly`` term.
    """

    _suffix = "basis"

    @fit_context
    def fit(self, X, y=None):
        """Compute each column's knots, breaks or recurrence.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=np.float64)
        self._check_params_against(X)
        self._states = [self._fit_column(X[:, j], j) for j in range(X.shape[1])]
        self.n_output_features_ = int(sum(self._width(s) for s in self._states))
        self._store_attributes()
        return self

    def _check_params_against(self, X) -> None:
        """Hook: checks that need the data (the number of columns, their scale)."""

    def _store_attributes(self) -> None:
        """Hook: the public fitted attributes read from ``_states``."""

    def transform(self, X):
        """The basis of every column at the rows of ``X``, concatenated in column order.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_output_features_)
        """
        check_is_fitted(self, "_states")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if not self._states:
            return np.empty((X.shape[0], 0))
        return np.hstack([self._transform_column(X[:, j], s) for j, s in enumerate(self._states)])

    def get_feature_names_out(self, input_features=None):
        """Output names ``<column>_<stem><k>``, k counted from 1 within each column.

        Parameters
        ----------
        input_features : array-like of str, default=None
            Defaults to ``feature_names_in_`` or ``x0, x1, …``.

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self, "_states")
        if input_features is None:
            input_features = getattr(self, "feature_names_in_", None)
        if input_features is None:
            input_features = [f"x{j}" for j in range(self.n_features_in_)]
        if len(input_features) != self.n_features_in_:
            raise ValueError(
                f"{type(self).__name__}.get_feature_names_out: input_features has "
                f"{len(input_features)} names but the transformer was fitted on "
                f"{self.n_features_in_} columns."
            )
        return np.array(
            [
                f"{name}_{self._suffix}{k + 1}"
                for name, s in zip(input_features, self._states, strict=True)
                for k in range(self._width(s))
            ],
            dtype=object,
        )

    def _width(self, state) -> int:
        return int(self._transform_column(np.array([state_anchor(state)]), state).shape[1])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags

    def _per_column(self, value, j, name):
        """``value`` for column ``j``: an array for every column, or a list of per-column
        arrays (one per column)."""
        if value is None:
            return None
        if (
            isinstance(value, list | tuple)
            and value
            and all(np.ndim(v) == 1 for v in value)
            and not all(np.ndim(v) == 0 for v in value)
        ):
            if len(value) != self.n_features_in_:
                raise ValueError(
                    f"{type(self).__name__}: {name} is a list of {len(value)} arrays but X has "
                    f"{self.n_features_in_} columns; give one array for every column, or a "
                    "single array for all."
                )
            return np.asarray(value[j], dtype=np.float64)
        return np.asarray(value, dtype=np.float64).ravel()


def state_anchor(state) -> float:
    """A point inside a column's range (for probing the basis width)."""
    return float(state["anchor"])


def one_sample(x) -> str:
    """``"; got 1 sample"`` when ``x`` has one value (the phrase of such errors), else ``""``."""
    return "; got 1 sample" if np.size(x) == 1 else ""


def warn_power_scale(estimator, X, degree: int) -> None:
    """The scale warning of power bases: ``x^degree`` (and its square, in sums of squares)
    overflows or underflows float64 at the data's scale."""
    m = np.float64(max_abs(X))
    nonzero = np.abs(X[X != 0])
    low = np.float64(nonzero.min()) if nonzero.size else np.float64(1.0)
    with np.errstate(over="ignore", under="ignore"):
        bad = not np.isfinite(m ** (2 * degree)) or low ** (2 * degree) == 0.0
    if bad:
        warn_data_scale(estimator, [f"powers up to x^{degree}"], float(m if m > 1 else low))
