"""Leverages, standardised residuals and Cook's distances of a linear design (R's
``hatvalues``, ``rstandard`` and ``cooks.distance`` of an ``lm`` fit)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.linalg import R_TOL, qr_least_squares

__all__ = ["Influence", "influence_measures"]

#: A leverage this close to 1 leaves the residual's variance undefined (R gives NaN/Inf).
_UNIT_LEVERAGE = 1.0 - 1e-10


@dataclass
class Influence:
    """What :func:`influence_measures` returns.

    Parameters
    ----------
    hat : ndarray of shape (n_samples,)
        Leverages :math:`h_{ii}`, the diagonal of the hat matrix.
    std_residuals : ndarray of shape (n_samples,)
        Standardised (internally studentised) residuals; NaN where :math:`h_{ii} = 1`.
    cooks_distance : ndarray of shape (n_samples,)
        Cook's distances; NaN where :math:`h_{ii} = 1`.
    sigma : float
        Residual standard error :math:`\\hat\\sigma`.
    rank : int
        Columns of the design kept (the intercept counted), R's ``p``.
    df_resid : int
        :math:`n - p`.
    """

    hat: np.ndarray
    std_residuals: np.ndarray
    cooks_distance: np.ndarray
    sigma: float
    rank: int
    df_resid: int


def influence_measures(X, residuals, *, fit_intercept=True, tol=R_TOL):
    """Leverages, standardised residuals and Cook's distances of a least-squares design.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The design (without the intercept column).
    residuals : array-like of shape (n_samples,)
        Residuals :math:`e_i = y_i - \\hat y_i` of the fit.
    fit_intercept : bool, default=True
        Whether the design has an intercept column of ones.
    tol : float, default=1e-7
        Aliasing tolerance of the QR decomposition (R's ``lm`` ``tol``): a column linearly
        dependent on earlier ones is left out, as R does.

    Returns
    -------
    Influence
        ``hat``, ``std_residuals``, ``cooks_distance``, ``sigma``, ``rank``, ``df_resid``.

    Raises
    ------
    ValueError
        If the shapes disagree, a value is not finite, or no residual degree of freedom is
        left (:math:`n \\le p`).

    See Also
    --------
    statlearning.plot.plot_regression_diagnostics : R's four ``plot(lm)`` panels.

    Notes
    -----
    With :math:`A` the design (the kept columns, a leading column of ones when
    ``fit_intercept``) and :math:`p` its rank,

    .. math::

        h_{ii} = a_i^\\top (A^\\top A)^{-1} a_i, \\qquad
        \\hat\\sigma^2 = \\frac{\\sum_i e_i^2}{n - p}, \\qquad
        r_i = \\frac{e_i}{\\hat\\sigma\\sqrt{1 - h_{ii}}}, \\qquad
        D_i = \\frac{r_i^2}{p}\\,\\frac{h_{ii}}{1 - h_{ii}}.

    For the residuals of an ordinary least-squares fit of this design these are R's
    ``hatvalues(fit)``, ``rstandard(fit)`` and ``cooks.distance(fit)``. For any other
    model's residuals they are the same quantities with the linear design's leverages, a
    screen for rows far from the others in ``X``, not that model's own influence.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.inference import influence_measures
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0], [10.0]])
    >>> y = np.array([1.1, 1.9, 3.2, 3.9, 10.5])
    >>> coef = np.polyfit(X[:, 0], y, 1)
    >>> infl = influence_measures(X, y - np.polyval(coef, X[:, 0]))
    >>> np.round(infl.hat, 3)
    array([0.38, 0.28, 0.22, 0.2 , 0.92])
    >>> infl.rank, infl.df_resid
    (2, 3)
    """
    X = np.asarray(X, dtype=np.float64)
    e = np.asarray(residuals, dtype=np.float64).ravel()
    if X.ndim != 2 or X.shape[0] != e.size:
        raise ValueError(
            f"X must be 2-D with one row per residual; got X of shape {X.shape} and "
            f"{e.size} residuals"
        )
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(e))):
        raise ValueError("X and residuals must be finite")
    n = e.size
    fit = qr_least_squares(X, e, fit_intercept=bool(fit_intercept), tol=tol)
    A = np.column_stack([np.ones(n), X]) if fit_intercept else X
    A = A[:, fit.kept]
    p = int(fit.rank)
    if n <= p:
        raise ValueError(f"no residual degrees of freedom: n = {n} rows for rank {p}")
    hat = np.einsum("ij,jk,ik->i", A, fit.unscaled_cov, A)
    hat = np.clip(hat, 0.0, 1.0)
    sigma = float(np.sqrt(e @ e / (n - p)))
    ok = hat < _UNIT_LEVERAGE
    std = np.full(n, np.nan)
    cooks = np.full(n, np.nan)
    if sigma > 0:
        std[ok] = e[ok] / (sigma * np.sqrt(1.0 - hat[ok]))
        cooks[ok] = std[ok] ** 2 / p * hat[ok] / (1.0 - hat[ok])
    return Influence(hat, std, cooks, sigma, p, n - p)
