"""Local polynomial regression as R's ``loess(surface = "direct")``: :class:`LocalRegression`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.loess import (
    local_design,
    local_fit,
    neighbourhood_size,
    robustness_weights,
    trimmed_sd,
)
from .._core.scaling import scale_for
from .._validation import Boolean, Interval, Options, check_sample_weight, validate_data
from ..base import RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning


class LocalRegression(RegressorMixin, StatBase):
    """Local polynomial regression (loess), computed as R's ``loess(surface = "direct")``.

    Parameters
    ----------
    span : float, default=0.75
        Fraction ``α`` of the data in each neighbourhood: the ``⌊αn⌋`` nearest points get
        tricube weights. Above 1 every point is used and the radius is widened (R's rule).
    degree : {0, 1, 2}, default=2
        Degree of the local polynomials (with all cross products for several columns).
    family : {"gaussian", "symmetric"}, default="gaussian"
        ``"symmetric"``: R's robust fit, ``iterations − 1`` reweightings by the bisquare of
        the residuals over six times their median absolute value.
    surface : {"direct"}, default="direct"
        The fit is computed exactly at every point (R's ``surface = "direct"``; R's default
        ``"interpolate"`` approximates it on a k-d tree).
    normalize : bool, default=True
        With several columns, divide each by its 10 % trimmed standard deviation (R).
        R's ``loess`` takes up to 4 columns; the direct computation here has no limit, but a
        local polynomial of degree 2 in ``d`` columns has ``(d + 1)(d + 2)/2`` coefficients
        and needs neighbourhoods larger than that.
    iterations : int, default=4
        Fits of the ``"symmetric"`` family (R's ``loess.control(iterations)``).
    weights : {"frequency", "precision"}, default="frequency"
        What ``sample_weight`` means. ``"frequency"``: a row of weight ``c`` stands for ``c``
        identical observations, in the neighbourhoods (which hold ``⌊α Σw⌋`` observations),
        the local least squares, the robustness median and the normalisation, so the fit is
        R's ``loess`` on the repeated rows. ``"precision"``: R's ``loess(weights = w)``,
        where ``w`` only scales each row's squared residual and the neighbourhoods count rows
        (``⌊αn⌋``). Without weights the two are the same. See Notes for the choice of default.

    Attributes
    ----------
    robustness_weights_ : ndarray of shape (n_samples,)
        The final bisquare weights (all one for ``"gaussian"``).
    scale_ : ndarray of shape (n_features,)
        The normalisation divisors (ones when not normalised).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.smoothing.SmoothingSpline : penalised cubic spline of one predictor.
    statlearning.smoothing.KernelRegression : the local constant fit with a Gaussian kernel.

    Notes
    -----
    At each point :math:`x_0` the fit is :math:`\\hat\\beta_0(x_0)` of

    .. math:: \\min_\\beta \\sum_{i \\in N(x_0)} w_i\\, r_i\\, T\\!\\left(\\frac{\\lVert x_i -
       x_0\\rVert}{h(x_0)}\\right) \\bigl(y_i - P_\\beta(x_i - x_0)\\bigr)^2,
       \\qquad T(u) = (1 - u^3)^3,

    with :math:`N(x_0)` the :math:`\\lfloor \\alpha n\\rfloor` nearest points, :math:`h`
    the distance to the farthest of them (times :math:`\\sqrt{\\alpha}` for
    :math:`\\alpha > 1`, as R's code), :math:`P_\\beta` a polynomial of degree ``degree``,
    :math:`w_i` the sample weights and :math:`r_i` the robustness weights. Singular local
    fits use the pseudo-inverse as R does. Prediction keeps the
    training data (each new point is a new local fit).

    Weights. scikit-learn's ``sample_weight`` means case weights: an integer weight is the
    same as repeating the row, and a zero weight the same as removing it, which is what
    model selection, resampling and class or case re-weighting assume of every estimator
    (``cross_validate``, bootstrap counts, ``Pipeline``). R's loess weights mean precision:
    the neighbourhood size is a fraction of the rows whatever their weights, so doubling a
    row's weight and duplicating it give different fits. The default is the first, the one
    every other estimator here follows (``weights="frequency"``); R's fits with weights
    are ``weights="precision"``, reproduced to ``1e-8``. With frequency weights a
    neighbourhood is ``⌊α Σ_i w_i⌋`` observations: the nearest rows until their weights
    reach that count, the radius the distance of the row that reaches it (weights need not
    be integers; rescaling them all changes the neighbourhoods, as repeating every row
    would). Mapping: ``LocalRegression(span=s,
    degree=d, family=f)`` is ``loess(y ~ x, span = s, degree = d, family = f,
    control = loess.control(surface = "direct"))``; the notes' ``lo(x, span)`` (Boily,
    §6.4, where ``spar`` is a misprint for ``span``).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.smoothing import LocalRegression
    >>> X = np.linspace(0, 6, 40)[:, None]
    >>> y = np.sin(X[:, 0])
    >>> model = LocalRegression(span=0.3).fit(X, y)
    >>> float(model.predict([[1.5]])[0].round(3))
    0.997
    """

    _parameter_constraints = {
        "span": [Interval(Real, 0, None, closed="neither")],
        "degree": [Interval(Integral, 0, 2, closed="both")],
        "family": [Options({"gaussian", "symmetric"})],
        "surface": [Options({"direct"})],
        "normalize": [Boolean()],
        "iterations": [Interval(Integral, 1, None, closed="left")],
        "weights": [Options({"frequency", "precision"})],
    }

    def __init__(
        self,
        span=0.75,
        *,
        degree=2,
        family="gaussian",
        surface="direct",
        normalize=True,
        iterations=4,
        weights="frequency",
    ):
        self.span = span
        self.degree = degree
        self.family = family
        self.surface = surface
        self.normalize = normalize
        self.iterations = iterations
        self.weights = weights

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the local regressions at the data (and the robustness weights).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Case weights (``weights="frequency"``) or R's precision ``weights``
            (``weights="precision"``).

        Returns
        -------
        self : LocalRegression
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        n, d = X.shape
        w = check_sample_weight(sample_weight, n, estimator_name=name)
        keep = w > 0
        X, y, w = X[keep], y[keep], w[keep]
        n = X.shape[0]
        counts = w if self.weights == "frequency" else None
        total = n if counts is None else float(counts.sum())
        nf = neighbourhood_size(total, self.span)
        k = local_design(np.zeros((1, d)), self.degree).shape[-1]
        if nf <= 0:
            what = f"{n} rows" if counts is None else f"{total:g} observations (weights)"
            raise ValueError(
                f"{name}: span={self.span} is too small: it selects no neighbours of the "
                f"{what}{'; got 1 sample' if n == 1 else ''}."
            )
        if k > nf - 1:
            warnings.warn(
                f"{name}: span={self.span} gives {nf} neighbours for {k} local coefficients "
                "(degree and columns); the local fits are near singular (R's 'span too "
                "small' warning).",
                NumericalWarning,
            )
        s = scale_for(X) or 1.0  # a power of two: the local fits are exact at any scale
        self.scale_ = self._divisor(X / s, counts) * s
        X = X / self.scale_
        iterations = self.iterations if self.family == "symmetric" else 1
        robust = np.ones(n)
        for it in range(iterations):
            fitted = local_fit(X, y, w * robust, X, self.span, self.degree, counts=counts)
            if it < iterations - 1:
                reference = np.maximum(np.abs(y), np.abs(fitted))
                robust = robustness_weights(y - fitted, counts, reference)
        self.robustness_weights_ = robust
        self._X, self._y, self._rw, self._counts = X, y, w * robust, counts
        return self

    def _divisor(self, X, counts) -> np.ndarray:
        if not self.normalize or X.shape[1] == 1:
            return np.ones(X.shape[1])
        sd = trimmed_sd(X, counts)
        return np.where(sd > 0, sd, 1.0)

    def predict(self, X):
        """Local fits at the rows of ``X`` (R's ``predict.loess`` with ``surface="direct"``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "robustness_weights_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return local_fit(
            self._X, self._y, self._rw, X / self.scale_, self.span, self.degree,
            counts=self._counts,
        )  # fmt: skip
