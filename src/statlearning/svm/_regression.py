"""Support-vector regression: SVR (ε-insensitive) and NuSVR (ν), on the SMO of the classifiers.

Both state the dual on ``2n`` variables ``α`` (sign +1) and ``α*`` (sign −1) of the ``n``
samples, ``β = α − α*``; they differ in the linear term and, for ν, in the two equality
constraints ``Σα = Σα* = C ν Σw / 2`` that SMO keeps by moving pairs of one sign.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import Interval, Options
from ..base import RegressorMixin, fit_context
from ._base import BaseSVM

__all__ = ["SVR", "NuSVR"]


class _BaseSVR(RegressorMixin, BaseSVM):
    """Fit and prediction shared by SVR and NuSVR."""

    def _fit_regression(self, X, y, sample_weight):
        X, y, sw = self._validate_fit_data(X, y, sample_weight, classifier=False)
        y = y.astype(np.float64)
        self._exponent = self._input_exponent(X)
        data, sqnorm, code, gamma = self._setup_kernel(self._scaled(X), sw)
        idx = np.flatnonzero(sw > 0)
        n = idx.size
        ys = np.concatenate([np.ones(n), -np.ones(n)])
        p, upper, alpha0, shift, nu = self._problem(y[idx], self.C * sw[idx])
        alpha, rho, n_iter = self._solve(
            data, sqnorm, code, gamma, idx, ys, p, upper, alpha0=alpha0, shift=shift, nu=nu
        )
        beta = alpha[:n] - alpha[n:]
        sv = beta != 0
        self.support_ = idx[sv].astype(np.int32)
        self.support_vectors_ = (
            np.empty((0, 0)) if self._kernel_spec.name == "precomputed" else X[self.support_]
        )
        self.n_support_ = np.array([self.support_.size], dtype=np.int32)
        self.dual_coef_ = beta[sv][None, :]
        # ν: libsvm's ρ = (r₁ − r₂)/2 with r₁ = rho[0] and r₂ = −rho[1]
        self.intercept_ = np.array([-(rho[0] + rho[1]) / 2 if nu else -rho[0]])
        self.n_iter_ = n_iter
        self.shape_fit_ = X.shape
        self.fit_status_ = 0 if self._converged else 1
        return self

    def predict(self, X):
        """Predicted targets ``Σ_i β_i K(x_i, x) + b``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            With ``kernel="precomputed"``: the kernel against the training samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._validate_predict_data(X)
        coef, b = self.dual_coef_[0], self.intercept_[0]
        return self._blockwise(X, lambda K: K @ coef + b, 1)[:, 0]

    @property
    def coef_(self):
        """Primal weights ``w = Σ β_i x_i`` (linear kernel only), shape (1, n_features)."""
        if self._kernel_spec.name != "linear":
            raise AttributeError("coef_ is only available with the linear kernel")
        return self.dual_coef_ @ self.support_vectors_


class SVR(_BaseSVR):
    """Epsilon-support vector regression, solved by our own SMO.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed"}, \
Kernel or callable, default="rbf"
        As :class:`SVC`.
    degree : float, default=3
        Degree of ``"poly"``.
    gamma : {"scale", "auto"} or float, default="scale"
        As :class:`SVC`.
    coef0 : float, default=0.0
        ``r`` of ``"poly"`` and ``"sigmoid"``.
    tol : float, default=1e-3
        SMO's stopping tolerance.
    C : float, default=1.0
        Cost of the slacks (> 0), multiplied by ``sample_weight``.
    epsilon : float, default=0.1
        Half-width of the insensitive tube (≥ 0).
    shrinking : bool, default=True
        Shrink the working set of SMO.
    cache_size : float, default=200
        Megabytes of kernel columns kept by SMO.
    max_iter : int, default=-1
        Cap on SMO iterations.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}, default="epsilon_insensitive"
        Linear slacks (the usual ε-SVR, a box ``|β_i| ≤ C``) or squared slacks (seed 002
        Ch. 9: no box, the kernel becomes ``K + I/C``).

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (``β_i ≠ 0``).
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (empty for a precomputed kernel).
    n_support_ : ndarray of shape (1,)
        Number of support vectors.
    dual_coef_ : ndarray of shape (1, n_SV)
        Signed coefficients ``β_i = α_i − α_i*``.
    intercept_ : ndarray of shape (1,)
        The intercept ``b``.
    coef_ : ndarray of shape (1, n_features)
        Primal weights (linear kernel only).
    n_iter_ : int
        SMO iterations.
    shape_fit_ : tuple
        Shape of the training ``X``.
    fit_status_ : int
        0 (fitted).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` has them.

    See Also
    --------
    SVC : Support-vector classification.
    NuSVR : The same regression parameterised by ν instead of ε.

    Notes
    -----
    With ``loss="epsilon_insensitive"`` (seed 002 (9.11)–(9.14), libsvm, scikit-learn)

    .. math:: \\min_{w, b} \\tfrac12\\|w\\|^2
              + C \\sum_i c_i \\max(0, |y_i - w^T\\varphi(x_i) - b| - \\varepsilon),

    whose dual ``max −½βᵀKβ + βᵀy − ε Σ|β_i|``, ``Σβ_i = 0``, ``|β_i| ≤ C c_i`` is solved by the
    same SMO as :class:`SVC` on its ``2n`` variables ``α, α*`` (``β = α − α*``). With
    ``loss="squared_epsilon_insensitive"`` (seed 002 (9.1)–(9.10)) the penalty is
    ``(C/2) Σ c_i ξ_i²``: the dual has no upper bound and the kernel ``K + diag(1/(C c_i))``;
    for ``epsilon=0`` it is kernel ridge regression with an unpenalised intercept. The
    prediction is ``f(x) = Σ_i β_i K(x_i, x) + b`` with ``b`` the average over the free support
    vectors of ``y_i − Σ_j β_j K_ij − sign(β_i)ε`` (and ``− β_i/(C c_i)`` for squared slacks), the
    notes' formula. The notes' "C" and "ε" are ours; R's ``e1071::svm(type="eps-regression")``
    calls them ``cost`` and ``epsilon``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.svm import SVR
    >>> X = np.linspace(0, 1, 20)[:, None]
    >>> y = 2 * X[:, 0] + 1
    >>> reg = SVR(kernel="linear", C=100.0, epsilon=0.01).fit(X, y)
    >>> np.round(reg.predict([[0.5]]), 2).tolist()
    [2.0]
    """

    _parameter_constraints: dict = {
        **BaseSVM._parameter_constraints,
        "C": [Interval(numbers.Real, 0.0, np.inf, closed="neither")],
        "epsilon": [Interval(numbers.Real, 0.0, np.inf, closed="left")],
        "loss": [Options({"epsilon_insensitive", "squared_epsilon_insensitive"})],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
        shrinking=True,
        cache_size=200,
        max_iter=-1,
        loss="epsilon_insensitive",
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.loss = loss

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the ε-SVR.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; the square Gram matrix with ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multiplier of ``C`` (zero: the sample is left out).

        Returns
        -------
        self : SVR
            The fitted regressor.
        """
        return self._fit_regression(X, y, sample_weight)

    def _problem(self, y, cw):
        n = y.size
        p = np.concatenate([self.epsilon - y, self.epsilon + y])
        if self.loss == "epsilon_insensitive":
            return p, np.tile(cw, 2), None, None, False
        return p, np.full(2 * n, np.inf), None, 1.0 / cw, False


class NuSVR(_BaseSVR):
    """Nu-support vector regression (Schölkopf et al.), solved by our own SMO.

    Parameters
    ----------
    nu : float, default=0.5
        ν ∈ (0, 1]: an upper bound on the fraction of samples outside the tube and a lower
        bound on the fraction of support vectors; the tube's half-width ε is then fitted.
    C : float, default=1.0
        Cost of the slacks (> 0), multiplied by ``sample_weight``.
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed"}, \
Kernel or callable, default="rbf"
        As :class:`SVC`.
    degree : float, default=3
        Degree of ``"poly"``.
    gamma : {"scale", "auto"} or float, default="scale"
        As :class:`SVC`.
    coef0 : float, default=0.0
        ``r`` of ``"poly"`` and ``"sigmoid"``.
    shrinking : bool, default=True
        Shrink the working set of SMO.
    tol : float, default=1e-3
        SMO's stopping tolerance.
    cache_size : float, default=200
        Megabytes of kernel columns kept by SMO.
    max_iter : int, default=-1
        Cap on SMO iterations.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (``β_i ≠ 0``).
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (empty for a precomputed kernel).
    n_support_ : ndarray of shape (1,)
        Number of support vectors.
    dual_coef_ : ndarray of shape (1, n_SV)
        Signed coefficients ``β_i = α_i − α_i*``.
    intercept_ : ndarray of shape (1,)
        The intercept ``b``.
    coef_ : ndarray of shape (1, n_features)
        Primal weights (linear kernel only).
    n_iter_ : int
        SMO iterations.
    shape_fit_ : tuple
        Shape of the training ``X``.
    fit_status_ : int
        0 (fitted).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` has them.

    See Also
    --------
    SVR : The same regression with the tube's width ε given.
    NuSVC : The ν-parameterised classifier.

    Notes
    -----
    The primal (Schölkopf, Smola, Williamson & Bartlett 2000), with ``c_i`` the sample
    weights,

    .. math:: \\min_{w, b, \\varepsilon \\ge 0} \\tfrac12\\|w\\|^2
              + C \\sum_i c_i \\big(\\nu \\varepsilon
              + \\max(0, |y_i - w^T\\varphi(x_i) - b| - \\varepsilon)\\big),

    i.e. the ε-SVR whose ε is a variable paid for at rate ``ν`` per unit of weight. Its dual,
    in libsvm's scaling, is ``min ½βᵀKβ − yᵀβ`` over ``β = α − α*`` with
    ``Σα_i = Σα_i* = C ν Σc_i / 2`` and ``0 ≤ α_i, α_i* ≤ C c_i``, solved by the SMO of
    :class:`NuSVC` (pairs moved within one sign). At the solution ν bounds from above the
    weighted fraction of samples outside the tube and from below that of the support
    vectors, and the fit equals :class:`SVR` with the same ``C`` and ε the fitted width
    (``ε = −r``, ``r`` the mean of the two signs' intercept terms). R's
    ``e1071::svm(type="nu-regression")`` calls them ``nu`` and ``cost``; scikit-learn's
    :class:`~sklearn.svm.NuSVR` has the same parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.svm import NuSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-2, 2, size=(60, 1))
    >>> y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=60)
    >>> reg = NuSVR(nu=0.3, C=10.0, kernel="rbf", gamma=1.0).fit(X, y)
    >>> bool(reg.support_.size >= 0.3 * 60)
    True
    """

    _parameter_constraints: dict = {
        **BaseSVM._parameter_constraints,
        "nu": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
        "C": [Interval(numbers.Real, 0.0, np.inf, closed="neither")],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        tol=1e-3,
        cache_size=200,
        max_iter=-1,
    ):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.max_iter = max_iter

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the ν-SVR.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; the square Gram matrix with ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multiplier of ``C`` (zero: the sample is left out).

        Returns
        -------
        self : NuSVR
            The fitted regressor.
        """
        return self._fit_regression(X, y, sample_weight)

    def _problem(self, y, cw):
        # libsvm's feasible start: α_i = α_i* filled in sample order up to C ν Σc / 2
        half = np.zeros(y.size)
        remaining = self.nu * cw.sum() / 2
        for i in range(y.size):
            half[i] = min(cw[i], remaining)
            remaining -= half[i]
        p = np.concatenate([-y, y])
        return p, np.tile(cw, 2), np.tile(half, 2), None, True
