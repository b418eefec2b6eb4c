"""A basis and a linear model in one pipeline, with R's summary and pointwise bands."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.pipeline import Pipeline

from ..linear_model import LinearRegression


class BasisPipeline(Pipeline):
    """A :class:`~sklearn.pipeline.Pipeline` of a basis transformer and a linear model that
    also forwards ``summary()`` and ``predict_interval`` to the model (see :func:`fit_basis`).

    Parameters
    ----------
    steps : list of (str, estimator)
        ``[("basis", transformer), ("model", estimator)]``.
    memory : None
        As :class:`~sklearn.pipeline.Pipeline`.
    verbose : bool, default=False
        As :class:`~sklearn.pipeline.Pipeline`.
    """

    def summary(self, level=0.95):
        """The model's summary (R's ``summary(lm(y ~ basis(x)))``), terms named by the basis.

        Parameters
        ----------
        level : float, default=0.95

        Returns
        -------
        Summary
        """
        return self.steps[-1][1].summary(level=level)

    def predict_interval(self, X, kind="confidence", level=0.95):
        """Pointwise intervals of the fit at ``X`` (R's ``predict(fit, newdata, interval=)``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        kind : {"confidence", "prediction"}, default="confidence"
        level : float, default=0.95
            ``0.9545`` with a normal quantile is the notes' ±2 se; the model's own reference
            distribution (t for least squares) is used.

        Returns
        -------
        fit, lower, upper : ndarray of shape (n_samples,)
        """
        Z = X
        for _, step in self.steps[:-1]:
            Z = step.transform(Z)
        return self.steps[-1][1].predict_interval(Z, kind=kind, level=level)

    def standard_error(self, X):
        """Pointwise standard error of the fitted mean (linear predictor) at ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        fit, se : ndarray of shape (n_samples,)
            The fit ``x̃ᵀβ̂`` and ``sqrt(x̃ᵀ V x̃)`` (R's ``predict(..., se.fit = TRUE)``).
        """
        Z = X
        for _, step in self.steps[:-1]:
            Z = step.transform(Z)
        Z = np.asarray(Z, dtype=np.float64)
        model = self.steps[-1][1]
        kept = ~model.aliased_
        A = np.hstack([np.ones((Z.shape[0], 1)), Z]) if model.fit_intercept else Z
        A = A[:, kept]
        V = model.cov_params_[np.ix_(kept, kept)]
        se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", A, V, A), 0.0))
        fit = A @ np.nan_to_num(model._full_coef())[kept]
        return fit, se


def fit_basis(X, y, basis, *, estimator=None, sample_weight=None) -> BasisPipeline:
    """Fit a linear model on a basis expansion of ``X``: polynomial, step or spline regression.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    basis : transformer
        One of this module's bases (``PolynomialFeatures(4)``, ``BSplineFeatures(df=6)``, …);
        it is cloned.
    estimator : estimator, default=None
        The model on the basis, cloned; default ``LinearRegression()``. An unpenalised
        ``LogisticRegression`` gives the notes' logistic polynomial/spline fits.
    sample_weight : array-like of shape (n_samples,), default=None
        Prior weights, passed to the model.

    Returns
    -------
    BasisPipeline
        Fitted; ``summary()`` is R's ``summary(lm(y ~ bs(x, …)))`` with terms named after the
        basis columns, and ``predict_interval(X)`` gives the pointwise bands (E23–E25 of the
        notes: ``level=0.9545`` with a normal quantile is ±2 se).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import PolynomialFeatures, fit_basis
    >>> rng = np.random.default_rng(0)
    >>> x = np.linspace(0, 1, 40)[:, None]
    >>> y = 1 + 2 * x[:, 0] ** 2 + 0.01 * rng.normal(size=40)
    >>> model = fit_basis(x, y, PolynomialFeatures(2))
    >>> [round(float(c), 1) + 0.0 for c in model.steps[-1][1].coef_]
    [0.0, 2.0]
    >>> fit, lower, upper = model.predict_interval(x[:2])
    """
    model = clone(estimator) if estimator is not None else LinearRegression()
    expansion = clone(basis)
    try:
        import pandas  # noqa: F401
    except ImportError:  # pragma: no cover - pandas is a test dependency
        pass
    else:  # the model's terms are named after the basis columns, as in R's summary
        expansion.set_output(transform="pandas")
    pipe = BasisPipeline([("basis", expansion), ("model", model)])
    kwargs = {} if sample_weight is None else {"model__sample_weight": sample_weight}
    return pipe.fit(X, y, **kwargs)
