"""Fitted curves of one predictor with pointwise ±2 se bands (basis fits and smoothers)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._common import as_vector, get_ax

#: The normal coverage of ±2 standard errors.
TWO_SE_LEVEL = float(2 * stats.norm.cdf(2.0) - 1)


def _curve_and_se(model, grid):
    """``(fit, se or None)`` at ``grid`` (a column) for a fitted one-predictor model."""
    if hasattr(model, "standard_error"):  # a basis pipeline: Wald se of the linear predictor
        return model.standard_error(grid)
    if hasattr(model, "predict_interval") and hasattr(model, "sigma_"):
        fit, lower, _ = model.predict_interval(grid, level=TWO_SE_LEVEL)
        return fit, (fit - lower) / 2.0
    return np.asarray(model.predict(grid)), None


def plot_fit(model, X, y=None, *, band="2se", n_points=200, show_knots=True, ax=None):
    """Plot a fitted curve of one predictor with its pointwise ±2 se band (the notes' E23–E27).

    Parameters
    ----------
    model : fitted estimator
        A :func:`statlearning.preprocessing.fit_basis` pipeline (polynomial, step or spline
        regression: Wald standard errors of the fitted mean), a
        :class:`~statlearning.smoothing.SmoothingSpline` (Wahba's Bayesian standard errors) or
        any regressor of one predictor (no band).
    X : array-like of shape (n_samples,) or (n_samples, 1)
        The predictor: its range sets the curve's grid; with ``y`` the points are drawn.
    y : array-like of shape (n_samples,), default=None
    band : {"2se", None}, default="2se"
        Draw ``fit ± 2·se`` where the model gives standard errors.
    n_points : int, default=200
        Grid size.
    show_knots : bool, default=True
        Mark the interior knots of a spline basis on the curve (squares, as the notes'
        Figure 17).
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.plot import plot_fit
    >>> from statlearning.preprocessing import PolynomialFeatures, fit_basis
    >>> x = np.linspace(0, 1, 30)[:, None]
    >>> y = np.sin(4 * x[:, 0])
    >>> ax = plot_fit(fit_basis(x, y, PolynomialFeatures(3)), x, y)
    """
    if band not in ("2se", None):
        raise ValueError(f"plot_fit: band must be '2se' or None; got {band!r}")
    x = as_vector(
        np.asarray(X, dtype=np.float64).reshape(len(X), -1)[:, 0]
        if np.ndim(X) == 2 and np.shape(X)[1] == 1
        else X,
        "X",
    )
    ax = get_ax(ax)
    grid = np.linspace(x.min(), x.max(), int(n_points))
    names = getattr(model, "feature_names_in_", None)
    G = grid[:, None]
    if names is not None:
        import pandas as pd

        G = pd.DataFrame(G, columns=[str(n) for n in names])
    fit, se = _curve_and_se(model, G)
    if y is not None:
        ax.scatter(x, as_vector(y, "y"), s=10, color="0.55", alpha=0.7, label="data")
    ax.plot(grid, fit, color="C0", lw=2, label="fit")
    if band == "2se" and se is not None:
        ax.plot(grid, fit - 2 * se, color="C0", ls="--", lw=1, label="±2 se")
        ax.plot(grid, fit + 2 * se, color="C0", ls="--", lw=1)
    basis = getattr(model, "steps", [(None, None)])[0][1]
    knots = getattr(basis, "knots_", None)
    if show_knots and knots:
        k = np.asarray(knots[0])
        if k.size:
            Kx = k[:, None] if names is None else pd.DataFrame(k[:, None], columns=G.columns)
            ax.plot(k, np.asarray(model.predict(Kx)), "s", color="C0", ms=6, label="knots")
    ax.set_xlabel(str(names[0]) if names is not None else "x")
    ax.set_ylabel("fit")
    ax.legend(loc="best", fontsize="small")
    return ax
