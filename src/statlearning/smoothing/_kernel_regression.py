"""Nadaraya–Watson kernel regression with a Gaussian kernel: :class:`KernelRegression`."""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.utils.validation import check_is_fitted

from .._core.scaling import scale_for
from .._core.selection import minimise_on_grid
from .._validation import Interval, Options, check_sample_weight, validate_data
from ..base import RegressorMixin, StatBase, fit_context

#: Rows of new data per block of distances (about 16 MB of float64 per 2,000 training rows).
_BLOCK_CELLS = 1 << 21


def _weighted_means(D2, w, y, h, remove=None):
    """``Σ_j w_j K_ij y_j / Σ_j w_j K_ij`` with ``K = exp(−D2/(2h²))``.

    Each row is rescaled by its largest kernel value (the ratio does not change, and nothing
    underflows to 0/0 far from the data). ``remove`` (leave-one-out, ``D2`` square): the
    weight taken off each row's own point, whose remaining weight ``w_i − remove_i`` is added
    back in the same rescaled units.
    """
    if remove is None:
        K = np.exp(-(D2 - D2.min(axis=1, keepdims=True)) / (2.0 * h * h))
        with np.errstate(divide="ignore", invalid="ignore"):
            return (K @ (w * y)) / (K @ w)
    D2 = D2.copy()
    np.fill_diagonal(D2, np.inf)
    shift = D2.min(axis=1, keepdims=True)
    alone = ~np.isfinite(shift[:, 0])
    shift[alone] = 0.0
    K = np.exp(-(D2 - shift) / (2.0 * h * h))
    scale = np.exp(-shift[:, 0] / (2.0 * h * h))  # others' weights relative to the own point's
    rest = w - remove
    num = (K @ (w * y)) * scale + rest * y
    den = (K @ w) * scale + rest
    with np.errstate(divide="ignore", invalid="ignore"):
        return num / den


class KernelRegression(RegressorMixin, StatBase):
    """Nadaraya–Watson kernel regression with a Gaussian kernel.

    Parameters
    ----------
    bandwidth : float or "cv", default="cv"
        The Gaussian kernel's standard deviation ``h`` (in the units of ``X``; one value for
        all columns, so scale them first). ``"cv"`` chooses it by leave-one-out CV.
    kernel : {"gaussian"}, default="gaussian"
        The kernel ``K(u) ∝ exp(−u²/2)``.

    Attributes
    ----------
    bandwidth_ : float
        The bandwidth used.
    cv_score_ : float
        Weighted leave-one-out mean squared error at ``bandwidth_`` (``bandwidth="cv"``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.smoothing.LocalRegression : local polynomials (loess), less boundary bias.
    statlearning.kernel_methods.KernelRidge : a penalised kernel expansion, not a local average.

    Notes
    -----
    The fit is the locally weighted average (seed 000 §6.2, Gaussian-kernel regression)

    .. math:: \\hat f(x) = \\frac{\\sum_i w_i K_h(x - x_i)\\, y_i}{\\sum_i w_i K_h(x - x_i)},
       \\qquad K_h(u) = \\exp\\!\\left(-\\frac{\\lVert u\\rVert^2}{2h^2}\\right),

    i.e. the RBF kernel with ``γ = 1/(2h²)``. A small ``h`` interpolates (overfits), a large
    one tends to the weighted mean of ``y``. Far from the data the fit tends to the response
    of the nearest training points (computed stably: each row of kernel weights is rescaled
    by its largest entry). ``bandwidth="cv"`` minimises the leave-one-out error
    ``Σ w_i (y_i − f̂_{−i}(x_i))² / Σ w_i`` over ``log h`` (a grid of 41 values between
    ``10⁻³`` and 2 times the data's scale, then Brent's method); leaving a point out removes
    ``min(w_i, 1)`` of its weight, so integer weights act as repeated rows. Prediction keeps
    the training data (``O(n)`` per new point). R: ``ksmooth(x, y, "normal", bandwidth = b)``
    uses the quartiles of the kernel at ``±0.25 b``: ``b = 4 · 0.6745 · h``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.smoothing import KernelRegression
    >>> X = np.linspace(0, 6, 30)[:, None]
    >>> y = np.sin(X[:, 0])
    >>> model = KernelRegression(bandwidth=0.3).fit(X, y)
    >>> float(model.predict([[1.5]])[0].round(2))  # sin(1.5) = 0.997, smoothed over ±0.3
    0.95
    """

    _parameter_constraints = {
        "bandwidth": [Options({"cv"}), Interval(Real, 0, None, closed="neither")],
        "kernel": [Options({"gaussian"})],
    }

    def __init__(self, bandwidth="cv", *, kernel="gaussian"):
        self.bandwidth = bandwidth
        self.kernel = kernel

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Store the training sample and choose the bandwidth.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : KernelRegression
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
        keep = w > 0
        self._scale = scale_for(X) or 1.0  # a power of two: distances exact at any scale
        self._X, self._y, self._w = X[keep] / self._scale, y[keep], w[keep]
        if self.bandwidth == "cv":
            h, self.cv_score_ = self._cv_bandwidth()
            self.bandwidth_ = h * self._scale
        else:
            self.bandwidth_ = float(self.bandwidth)
        return self

    def _cv_bandwidth(self):
        X, y, w = self._X, self._y, self._w
        D2 = cdist(X, X, "sqeuclidean")
        remove = np.minimum(w, 1.0)
        if X.shape[0] < 2 or not np.any(D2 > 0):
            return 1.0, float("nan")

        def score(log_h):
            pred = _weighted_means(D2, w, y, np.exp(log_h), remove)
            bad = ~np.isfinite(pred)  # a point alone in its weight: no prediction without it
            pred[bad] = np.average(y, weights=w)
            return float(np.sum(w * (y - pred) ** 2) / w.sum())

        scale = float(np.sqrt(np.sum(np.var(X, axis=0))))
        scale = scale if scale > 0 else 1.0
        grid = np.log(scale) + np.linspace(np.log(1e-3), np.log(2.0), 41)
        log_h, value = minimise_on_grid(score, grid, xatol=1e-6)
        return float(np.exp(log_h)), value

    def predict(self, X):
        """The kernel-weighted average of the training responses at each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "bandwidth_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        out = np.empty(X.shape[0])
        step = max(1, _BLOCK_CELLS // max(self._X.shape[0], 1))
        for start in range(0, X.shape[0], step):
            block = slice(start, start + step)
            D2 = cdist(X[block] / self._scale, self._X, "sqeuclidean")
            out[block] = _weighted_means(D2, self._w, self._y, self.bandwidth_ / self._scale)
        return out
