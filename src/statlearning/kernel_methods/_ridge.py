"""Kernel ridge regression: the dual solution ``(K + αI)⁻¹y`` by Cholesky, optionally with an
unpenalised intercept (the centred kernel)."""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from scipy import linalg
from sklearn.utils.validation import check_is_fitted

from .._validation import Boolean, Interval, check_sample_weight
from ..base import RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, external_stacklevel
from ..kernels import KERNEL_CONSTRAINTS, gram_times, pairwise_tags, read_X, training_gram

__all__ = ["KernelRidge"]


def _centre_gram(K, w):
    """Centre a symmetric Gram in place with the weights ``w`` (summing to 1); return ``Kw``."""
    kw = K @ w
    total = float(w @ kw)
    K -= kw[None, :]
    K -= kw[:, None]
    K += total
    return kw


def _solve_shifted(K, rhs, alpha, rebuild, owner):
    """Solve ``(K + αI) c = rhs`` by Cholesky, overwriting ``K``; least squares (with a warning)
    when ``K + αI`` is not numerically positive definite (``rebuild()`` recomputes ``K``)."""
    n = K.shape[0]
    K[np.diag_indices(n)] += alpha
    try:
        factor = linalg.cho_factor(K.T, lower=False, overwrite_a=True, check_finite=False)
        return linalg.cho_solve(factor, rhs, check_finite=False)
    except linalg.LinAlgError:
        pass
    warnings.warn(
        f"{owner}: K + alpha·I is not positive definite (a kernel that is not positive "
        "semi-definite, or alpha = 0 with a singular Gram); solved by least squares.",
        NumericalWarning,
        stacklevel=external_stacklevel(),
    )
    K = rebuild()
    K[np.diag_indices(n)] += alpha
    return linalg.lstsq(K, rhs, check_finite=False)[0]


class KernelRidge(RegressorMixin, StatBase):
    """Kernel ridge regression: ridge regression in the feature space of a kernel.

    Parameters
    ----------
    alpha : float, default=1.0
        Penalty α ≥ 0 on the squared RKHS norm of the fitted function.
    kernel : str, Kernel or callable, default="linear"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``,
        ``"precomputed"`` (``X`` is then the Gram matrix), a kernel object of
        :mod:`statlearning.kernels` or a callable ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default=None
        γ of the named kernels; None and ``"auto"`` mean ``1 / n_features``, ``"scale"``
        ``1 / (n_features · X.var())``; a vector gives the per-feature (ARD) Gaussian.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    fit_intercept : bool, default=False
        Fit an unpenalised intercept (the kernel is centred with the sample weights).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        Dual coefficients c: ``f(x) = intercept_ + Σᵢ cᵢ k(x, xᵢ)``.
    intercept_ : float or ndarray of shape (n_targets,)
        The unpenalised intercept (0 when ``fit_intercept=False``).
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        The training points (None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    See Also
    --------
    statlearning.linear_model.Ridge : The primal form for the linear kernel.

    Notes
    -----
    Minimises, over an intercept b (when fitted) and f in the RKHS of the kernel,

    .. math:: \\sum_i w_i (y_i - b - f(x_i))^2 + \\alpha \\lVert f\\rVert_H^2 ,

    whose solution is ``f = Σᵢ cᵢ k(·, xᵢ)``. Without intercept ``c = W^{1/2}(W^{1/2} K
    W^{1/2} + αI)⁻¹ W^{1/2} y`` (``c = (K + αI)⁻¹y`` for unit weights; scikit-learn's
    ``KernelRidge`` and the notes' dual (10.5), Zupan's λ = α); with intercept ``K`` and ``y``
    are centred first with the weighted means (``Σcᵢ = 0``) and ``b = ȳ_w − Σⱼ w̃ⱼ (Kc)ⱼ``.
    The notes' version with a constant feature (K + 1, a *penalised* bias) is
    ``kernel=Linear() + 1.0`` (any kernel plus :class:`~statlearning.kernels.Constant`). On the
    linear kernel the fit equals :class:`~statlearning.linear_model.Ridge` with the same
    ``alpha`` and ``fit_intercept`` (primal ≡ dual). The ``(K + αI)`` system is solved by
    Cholesky; when it is not positive definite (an indefinite kernel such as the sigmoid, or
    ``alpha = 0`` on a singular Gram) a ``NumericalWarning`` is issued and least squares used.
    A kernel on sequences (:class:`~statlearning.kernels.Spectrum`, or sums and products of
    such kernels: ``kernel.requires_numeric`` is False) takes ``X`` as a sequence of strings
    (or one column of them), here and in the other kernel machines.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernel_methods import KernelRidge
    >>> X = np.linspace(0, 1, 20).reshape(-1, 1)
    >>> y = np.sin(4 * X[:, 0])
    >>> model = KernelRidge(alpha=1e-3, kernel="rbf", gamma=10.0).fit(X, y)
    >>> float(np.abs(model.predict(X) - y).max()) < 0.05
    True
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        **KERNEL_CONSTRAINTS,
        "fit_intercept": [Boolean()],
    }

    def __init__(
        self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1.0, fit_intercept=False
    ):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the dual coefficients (and intercept).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the squared errors.

        Returns
        -------
        self : KernelRidge
            The fitted model.
        """
        owner = type(self).__name__
        X, y = read_X(self, X, y, multi_output=True, y_numeric=True)
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=owner)
        K = training_gram(self, X, w)
        y = np.asarray(y, dtype=np.float64)

        def prepare(K):
            kw = None
            if self.fit_intercept:
                wn = np.full(K.shape[0], 1.0 / K.shape[0]) if w is None else w / w.sum()
                kw = _centre_gram(K, wn)
            if w is not None:
                s = np.sqrt(w)
                K *= s[:, None]
                K *= s[None, :]
            return K, kw

        K, kw = prepare(K)
        if self.fit_intercept:
            wn = np.full(y.shape[0], 1.0 / y.shape[0]) if w is None else w / w.sum()
            y_mean = wn @ y
            rhs = y - y_mean
        else:
            rhs = y
        if w is not None:
            s = np.sqrt(w)
            rhs = rhs * (s if rhs.ndim == 1 else s[:, None])

        def rebuild():
            G = X if self.X_fit_ is None else self.kernel_(X)
            return prepare(np.array(G, dtype=np.float64))[0]

        c = _solve_shifted(K, rhs, float(self.alpha), rebuild, owner)
        if w is not None:
            c = c * (s if c.ndim == 1 else s[:, None])
        self.dual_coef_ = c
        if self.fit_intercept:
            self.intercept_ = y_mean - kw @ c
            if np.ndim(self.intercept_) == 0:
                self.intercept_ = float(self.intercept_)
        else:
            self.intercept_ = 0.0 if y.ndim == 1 else np.zeros(y.shape[1])
        return self

    def predict(self, X):
        """Predict ``intercept_ + K(X, X_fit_) @ dual_coef_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            New points, or their Gram matrix against the training points (shape
            (n_samples, n_train)) for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
            Predictions.
        """
        check_is_fitted(self, "dual_coef_")
        return gram_times(self, X, self.dual_coef_) + self.intercept_

    def __sklearn_tags__(self):
        tags = pairwise_tags(self, super().__sklearn_tags__())
        tags.target_tags.multi_output = True
        return tags
