"""What the component regressions share: reading ``X`` and ``Y``, centring and scaling,
``n_components`` checks, coefficients on the raw predictors, the CV choice."""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.scaling import scale_for
from .._validation import validate_data
from ..exceptions import NumericalWarning, external_stacklevel


def check_pairs(estimator, k: int, p: int, q: int) -> None:
    """At most as many canonical pairs as the smaller block has columns."""
    if k > min(p, q):
        raise ValueError(
            f"n_components={k} exceeds min(n_features={p} of X, {q} column(s) of y) = "
            f"{min(p, q)}: {type(estimator).__name__} finds at most as many pairs of "
            "directions as the smaller block has columns."
        )


def unit_scale(A):
    """``A`` divided by a power of two (exact) when its squares would leave float64's range,
    and that factor (1.0 when none is needed): the methods here are scale-equivariant, so the
    fit runs on the rescaled data and its results are mapped back."""
    s = scale_for(A)
    return (A, 1.0) if s is None else (A / s, float(s))


def read_xy(estimator, X, y, *, min_samples=2):
    """Validated ``X`` (float64) and ``Y`` as a 2-D array, and whether ``y`` was 1-D."""
    X, y = validate_data(
        estimator, X, y, dtype=np.float64, multi_output=True, y_numeric=True,
        ensure_min_samples=min_samples,
    )  # fmt: skip
    Y = np.asarray(y, dtype=np.float64)
    one_d = Y.ndim == 1
    return X, (Y[:, None] if one_d else Y), one_d


def column_scale(X, mean, scale: bool):
    """Column standard deviations (divisor ``n − 1``, as ``pls`` and ``prcomp``), or None.

    A constant column is centred to zeros and contributes nothing whatever its scale: it keeps
    scale 1 (``pls`` would divide by zero)."""
    if not scale:
        return None
    sd = np.sqrt(((X - mean) ** 2).sum(axis=0) / (X.shape[0] - 1))
    sd[sd <= 1e-12 * np.maximum(np.abs(mean), 1.0)] = 1.0
    return sd


def standardise(X, mean, sd, unit=1.0):
    """``(X − mean) / sd`` as a new array (``sd`` None: centred, and divided by ``unit``)."""
    Xs = X - mean
    if sd is not None:
        Xs /= sd
    elif unit != 1.0:
        Xs /= unit
    return Xs


def map_back(estimator, s: float) -> None:
    """Return a fit on ``X / s`` to ``X``'s units: centres, scales and coefficients."""
    if s == 1.0:
        return
    estimator.x_mean_ = estimator.x_mean_ * s
    if estimator.x_scale_ is not None:
        estimator.x_scale_ = estimator.x_scale_ * s
    estimator.coef_ = estimator.coef_ / s
    estimator.coef_path_ = estimator.coef_path_ / s


def check_n_components(estimator, n_samples: int, n_features: int):
    """``n_components`` as an int (or ``"cv"``/a rule string/None), bounded by the rank."""
    bound = min(n_samples - 1, n_features)
    nc = estimator.n_components
    if isinstance(nc, str) or nc is None:
        return nc
    if isinstance(nc, Integral) and nc > bound:
        raise ValueError(
            f"n_components={nc} exceeds min(n_samples - 1, n_features={n_features}) = {bound}, "
            "the largest rank the centred X can have."
        )
    return int(nc)


def rank_error(estimator, k: int, rank: int) -> ValueError:
    return ValueError(
        f"n_components={k} exceeds the rank of the centred (scaled) X, {rank}: "
        f"{type(estimator).__name__} can extract at most {rank} component(s) from these data."
    )


def warn_y_exhausted(estimator, a: int, k: int) -> None:
    warnings.warn(
        f"{type(estimator).__name__}: Y is fully explained by {a} component(s); components "
        f"{a + 1}…{k} have zero weights and do not change the coefficients.",
        NumericalWarning,
        stacklevel=external_stacklevel(),
    )


def raw_coefficients(B_scaled, x_mean, x_scale, y_mean):
    """Coefficients ``(k, p, m)`` on the raw predictors and intercepts ``(k, m)``."""
    B = B_scaled if x_scale is None else B_scaled / x_scale[None, :, None]
    intercepts = y_mean[None, :] - np.einsum("p,kpm->km", x_mean, B)
    return B, intercepts


def finish_linear(estimator, coefs, intercepts, k_used, one_d):
    """``coef_ (m, p)``, ``intercept_ (m,)`` for ``k_used`` components (0: the mean)."""
    if k_used == 0:
        B, b0 = np.zeros(coefs.shape[1:]), estimator.y_mean_
    else:
        B, b0 = coefs[k_used - 1], intercepts[k_used - 1]
    estimator.coef_ = np.ascontiguousarray(B.T)
    estimator.intercept_ = b0.copy()
    estimator.coef_path_ = np.ascontiguousarray(np.transpose(coefs, (0, 2, 1)))
    estimator.intercept_path_ = intercepts
    estimator._predict_1d = one_d


class LinearComponentsMixin:
    """``predict`` of the component regressions: ``X @ coef_.T + intercept_`` on the raw ``X``."""

    def predict(self, X):
        """Predict the responses: ``X @ coef_.T + intercept_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
            One-dimensional when ``y`` was.
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        pred = X @ self.coef_.T + self.intercept_
        return pred[:, 0] if self._predict_1d else pred


def read_y_like(y, n_rows: int, n_targets: int) -> np.ndarray:
    """``y`` given to ``transform`` as a 2-D float array of the training's column count."""
    Y = np.asarray(y, dtype=np.float64)
    Y = Y[:, None] if Y.ndim == 1 else Y
    if Y.shape != (n_rows, n_targets):
        raise ValueError(f"y must have shape ({n_rows}, {n_targets}); got {Y.shape}.")
    if not np.all(np.isfinite(Y)):
        raise ValueError("y holds NaN or infinite values.")
    return Y


class PairTransformMixin:
    """``fit_transform(X, y)`` returning ``transform(X, y)``: the pair of score matrices when
    ``y`` is given, as scikit-learn's cross-decomposition estimators."""

    def fit_transform(self, X, y=None):
        """Fit, then return the scores of ``X`` (and of ``y``: a tuple).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        ndarray or tuple of ndarray
            ``transform(X, y)``.
        """
        return self.fit(X, y).transform(X, y)
