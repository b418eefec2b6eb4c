"""The cubic smoothing spline with R's ``smooth.spline`` conventions: :class:`SmoothingSpline`."""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from scipy.interpolate import BSpline
from sklearn.utils.validation import check_is_fitted

from .._core import smoothing_spline as ss
from .._core.splines import in_sorted_order
from .._validation import Boolean, Interval, Options, check_sample_weight, validate_data
from ..base import RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning
from ..inference import _builder as infer


def as_column(estimator, X, y=None, *, reset: bool, check_columns: bool = True):
    """Validate a single predictor given as a 1-D array or one column (and ``y``).

    The data are validated first (NaN, infinity, text, shapes: errors naming the column), then
    the number of columns (``check_columns``; an error naming the estimator for more than one).
    Returns ``X`` (2-D) or ``(X, y)``.
    """
    if np.ndim(X) == 1 and not hasattr(X, "columns") and not hasattr(X, "tocsr"):
        X = np.asarray(X).reshape(-1, 1)
    if y is None:
        out = validate_data(estimator, X, reset=reset, dtype=np.float64)
        X_checked = out
    else:
        out = validate_data(estimator, X, y, reset=reset, dtype=np.float64, y_numeric=True)
        X_checked = out[0]
    if check_columns:
        check_one_column(estimator, X_checked)
    return out


def check_one_column(estimator, X) -> None:
    """An error naming the estimator when ``X`` has more than one column."""
    if X.shape[1] != 1:
        raise ValueError(
            f"{type(estimator).__name__}: X must be one predictor (a 1-D array or a single "
            f"column); got {X.shape[1]} columns. Fit one smoother per column, or use an "
            "additive model."
        )


class SmoothingSpline(RegressorMixin, StatBase):
    """Cubic smoothing spline of one predictor, computed as R's ``smooth.spline``.

    Parameters
    ----------
    df : float, default=None
        Equivalent degrees of freedom ``tr S_λ`` (R's ``df``), ``2 < df ≤`` the number of
        unique x; λ is the exact root of ``tr S_λ = df``.
    lam : float, default=None
        R's ``lambda`` (on x rescaled to ``[0, 1]``, see Notes).
    spar : float, default=None
        R's ``spar``: ``λ = r · 256^(3·spar − 1)`` with R's ratio ``r``.
    criterion : {"gcv", "loocv"}, default="gcv"
        How λ is chosen when none of ``df``, ``lam``, ``spar`` is given: generalised or
        ordinary leave-one-out cross-validation (R's ``cv = FALSE`` / ``TRUE``), minimised
        over ``spar ∈ [−1.5, 1.5]`` by R's own search to ``1e-6`` (extended upwards when
        the criterion still decreases at 1.5, where R stops).
    all_knots : bool, default=True
        A knot at every unique x (R's ``all.knots = TRUE``); ``False`` keeps R's
        ``.nknots.smspl(n)`` knots, equally spaced in rank, for large n.

    Attributes
    ----------
    lam_ : float
        R's ``lambda``.
    spar_ : float
        The ``spar`` equivalent of ``lam_``.
    df_ : float
        ``tr S_λ``, the equivalent degrees of freedom.
    leverages_ : ndarray of shape (n_unique,)
        Diagonal of the smoother matrix at the sorted unique x (R's ``lev``).
    gcv_ : float
        ``(RSS/n) / (1 − df/n)²`` (R's ``cv.crit`` with ``cv = FALSE``); RSS is weighted.
    cv_ : float
        Leave-one-out CV score at the data (R's ``cv.crit`` with ``cv = TRUE``).
    criterion_ : float
        The value of ``criterion`` at ``lam_`` as R's ``crit`` (at the unique x).
    sigma_ : float
        Residual standard error ``sqrt(RSS / (n − df))``.
    rss_ : float
        Weighted residual sum of squares at the data.
    n_obs_ : int
        Observations of positive weight.
    knots_ : ndarray
        Full cubic knot vector on the original x scale (boundary knots fourfold).
    coef_ : ndarray of shape (n_knots + 2,)
        B-spline coefficients.
    x_min_, x_range_ : float
        The rescaling ``(x − x_min_) / x_range_`` to ``[0, 1]``.
    n_features_in_ : int
        Always 1.
    feature_names_in_ : ndarray of str
        When X was a DataFrame with a string column name.

    See Also
    --------
    statlearning.smoothing.LocalRegression : loess, the other scatterplot smoother.
    statlearning.preprocessing.NaturalSplineFeatures : regression splines with few knots.

    Notes
    -----
    The fit minimises, over functions ``g`` (Boily, *Statistical Methods for Supervised
    Learning*, §6.3, item 60 of the catalogue)

    .. math:: \\sum_i w_i (y_i - g(x_i))^2 + \\lambda \\int g''(t)^2\\,dt

    whose solution is a natural cubic spline with knots at the unique :math:`x_i`. As R
    does, x is rescaled to ``[0, 1]``, weights are normalised to mean 1 over the positive
    ones, x values equal to within ``1e-6·IQR(x)`` are merged, and the penalty matrix is R's
    (its ``sgram``, which integrates with the constant 0.3330 for 1/3), so ``lam_`` is R's
    ``lambda``; the λ of the objective on the original x scale and original weights is
    ``lam_ · x_range_³ · mean(w)``. The solution is the banded system
    ``(BᵀWB + λΩ)c = BᵀWy`` solved by a banded Cholesky factorisation in ``O(n)``, with the
    leverages from the band of its inverse (Hutchinson–de Hoog).

    Beyond the boundary knots the spline is continued linearly (R's
    ``predict.smooth.spline``); derivatives there are the end slope and zero. The notes give
    the effective degrees of freedom as going from ``n`` (``λ = 0``) to 2 (``λ → ∞``, the
    least-squares line).

    :meth:`predict_interval` gives Wahba's Bayesian pointwise bands,
    ``var ĝ(x) = σ̂² b(x)ᵀ(BᵀWB + λΩ)⁻¹b(x)`` with ``σ̂² = RSS/(n − df)`` (at the data
    ``σ̂² S_ii / w_i``), the usual ``±2se`` band of smoothing-spline plots.

    Mapping to R: ``SmoothingSpline(df=d)`` is ``smooth.spline(x, y, df = d, all.knots =
    TRUE)``; ``spar``, ``lam`` as R's ``spar``, ``lambda``; ``criterion="loocv"`` is
    ``cv = TRUE``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.smoothing import SmoothingSpline
    >>> x = np.linspace(0, 1, 50)
    >>> y = np.sin(6 * x)
    >>> model = SmoothingSpline(df=6).fit(x, y)
    >>> round(model.df_, 6)
    6.0
    >>> model.predict([0.5]).round(2)
    array([0.14])
    """

    _parameter_constraints = {
        "df": [None, Interval(Real, 1, None, closed="neither")],
        "lam": [None, Interval(Real, 0, None, closed="left")],
        "spar": [None, Interval(Real, None, None, closed="neither")],
        "criterion": [Options({"gcv", "loocv"})],
        "all_knots": [Boolean()],
    }

    def __init__(self, *, df=None, lam=None, spar=None, criterion="gcv", all_knots=True):
        self.df = df
        self.lam = lam
        self.spar = spar
        self.criterion = criterion
        self.all_knots = all_knots

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.one_d_array = True
        tags.input_tags.two_d_array = False
        return tags

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the smoothing spline.

        Parameters
        ----------
        X : array-like of shape (n_samples,) or (n_samples, 1)
            The predictor.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (R's ``w``), normalised to mean 1 over the positive ones.

        Returns
        -------
        self : SmoothingSpline
        """
        name = type(self).__name__
        given = [k for k in ("df", "lam", "spar") if getattr(self, k) is not None]
        if len(given) > 1:
            raise ValueError(f"{name}: give at most one of df, lam and spar; got {given}.")
        X, y = as_column(self, X, y, reset=True, check_columns=False)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        check_one_column(self, X)
        x, y = X[:, 0], np.asarray(y, dtype=np.float64)
        pos = w > 0
        w = w * pos.sum() / w.sum()
        x, y, w = x[pos], y[pos], w[pos]
        system, ux, inverse = self._system(x, y, w)
        nx = ux.size
        lam = self._choose_lambda(system, nx)
        try:
            fit = ss.solve_band(system, lam)
            if not fit.df <= nx * (1.0 + 1e-6):  # tr S ≤ nx: more is rounding, not a fit
                raise np.linalg.LinAlgError
        except np.linalg.LinAlgError:
            set_ = [f"{k}={getattr(self, k)!r}" for k in ("lam", "spar", "df")]
            given = next((g for g in set_ if not g.endswith("=None")), "the criterion")
            raise ValueError(
                f"{name}: {given} gives lambda={lam:.6g}, where the penalised system is not "
                "positive definite in floating point (the x values are too close for so "
                "little or so much smoothing); choose a value further from the extremes."
            ) from None
        self._store(system, fit, lam, x, y, w, ux, inverse)
        return self

    def _system(self, x, y, w):
        name = type(self).__name__
        q75, q25 = np.percentile(x, [75, 25])
        tol = 1e-6 * (q75 - q25)
        if not tol > 0:
            tol = 1e-6 * np.ptp(x) if np.ptp(x) > 0 else 1.0
        ux, wbar, ybar, yssw, inverse = ss.collapse_ties(x, y, w, tol)
        if ux.size < 4:
            raise ValueError(
                f"{name}: need at least four unique x values (of positive weight); got {ux.size}."
            )
        if self.df is not None and self.df > ux.size:
            raise ValueError(
                f"{name}: df={self.df} exceeds the number of unique x values ({ux.size}); "
                f"choose 2 < df <= {ux.size}."
            )
        self.x_min_, self.x_range_ = float(ux[0]), float(ux[-1] - ux[0])
        xbar = (ux - ux[0]) / self.x_range_
        knots = ss.smoothing_knots(xbar, self.all_knots)
        return ss.SplineSystem.build(xbar, ybar, wbar, yssw, knots), ux, inverse

    def _choose_lambda(self, system, nx) -> float:
        if self.lam is not None:
            return float(self.lam)
        if self.spar is not None:
            return ss.lambda_from_spar(system.ratio, self.spar)
        if self.df is not None:
            try:
                return ss.lambda_for_df(system, float(self.df))
            except ValueError as exc:
                raise ValueError(f"{type(self).__name__}: {exc}") from None
        lam, _ = ss.minimise_criterion(system, self.criterion)
        return lam

    def _store(self, system, fit, lam, x, y, w, ux, inverse) -> None:
        self.lam_ = float(lam)
        self.spar_ = (
            float((np.log(lam / system.ratio) / np.log(256.0) + 1.0) / 3.0)
            if lam > 0
            else float("-inf")
        )
        self.df_ = fit.df
        self.leverages_ = fit.leverages
        self.coef_ = fit.coef
        self.knots_ = self.x_min_ + self.x_range_ * system.knots
        self._cov_band = fit.inverse_band
        self.criterion_ = ss.criterion_value(system, fit, self.criterion)
        n = x.size
        resid = y - fit.fitted[inverse]
        self.rss_ = float(np.sum(w * resid**2))
        self.n_obs_ = int(n)
        self.gcv_ = float((self.rss_ / n) / (1.0 - self.df_ / n) ** 2)
        wbar = np.where(system.w == 0, 1.0, system.w)
        with np.errstate(divide="ignore", invalid="ignore"):
            loo = resid / (1.0 - fit.leverages[inverse] * w / wbar[inverse])
        self.cv_ = float(np.sum(w * loo**2) / np.sum(w))
        dof = n - self.df_
        self.sigma_ = float(np.sqrt(self.rss_ / dof)) if dof > 1e-8 else float("nan")
        if self.df_ > ux.size - 1e-6 * ux.size and self.lam is None and self.spar is None:
            warnings.warn(
                f"{type(self).__name__}: the fit interpolates the data (df = {self.df_:.4g} of "
                f"{ux.size} unique x); the residual standard error is not estimable.",
                NumericalWarning,
            )

    def _scaled(self, x):
        return (x - self.x_min_) / self.x_range_, (self.knots_ - self.x_min_) / self.x_range_

    def _curve(self, x, deriv: int = 0) -> np.ndarray:
        """``ĝ^(d)`` on the original scale, continued linearly beyond the boundary."""
        xs, t = self._scaled(x)
        spl = BSpline.construct_fast(t, self.coef_, 3, extrapolate=False)
        left, right = xs < 0, xs > 1
        outside = left | right
        out = in_sorted_order(lambda v: spl(v, nu=deriv), np.clip(xs, 0.0, 1.0))
        if not outside.any():
            return out / self.x_range_**deriv
        ends = np.array([0.0, 1.0])
        if deriv == 0:
            g, slope = spl(ends), spl(ends, nu=1)
            out[left] = g[0] + slope[0] * xs[left]
            out[right] = g[1] + slope[1] * (xs[right] - 1.0)
        elif deriv == 1:
            slope = spl(ends, nu=1)
            out[left], out[right] = slope[0], slope[1]
        else:
            out[outside] = 0.0
        return out / self.x_range_**deriv

    def _rows(self, x):
        """Rows ``a(x)`` (four non-zero entries from column ``first``) with ``ĝ(x) = a(x)ᵀc``,
        linear beyond the boundary."""
        xs, t = self._scaled(x)
        return ss.extrapolated_rows(t, xs)

    def predict(self, X, deriv=0):
        """Fitted curve (or its derivative) at new x.

        Parameters
        ----------
        X : array-like of shape (n_samples,) or (n_samples, 1)
        deriv : {0, 1, 2}, default=0
            Order of the derivative (with respect to the original x).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        if deriv not in (0, 1, 2, 3):
            raise ValueError(
                f"{type(self).__name__}.predict: deriv must be 0, 1, 2 or 3; got {deriv!r}."
            )
        x = as_column(self, X, reset=False)[:, 0]
        return self._curve(x, deriv)

    def predict_interval(self, X, kind="confidence", level=0.95):
        """Fitted curve with pointwise Bayesian intervals (Wahba).

        Parameters
        ----------
        X : array-like of shape (n_samples,) or (n_samples, 1)
        kind : {"confidence", "prediction"}, default="confidence"
            ``"prediction"`` adds ``σ̂²`` (a new observation of weight 1) to the variance.
        level : float, default=0.95
            Coverage; the normal quantile is used (``level=0.9545`` gives ±2 se).

        Returns
        -------
        fit, lower, upper : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        infer.check_interval_request(type(self).__name__, kind, level)
        x = as_column(self, X, reset=False)[:, 0]
        vals, first = self._rows(x)
        fit = ss.row_values(vals, first, self.coef_)
        var = self.sigma_**2 * ss.quadratic_forms(vals, first, self._cov_band)
        if kind == "prediction":
            var = var + self.sigma_**2
        half = infer.reference_quantile(level) * np.sqrt(np.maximum(var, 0.0))
        return fit, fit - half, fit + half
