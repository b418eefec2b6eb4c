"""Bayesian linear regression with a Gaussian prior: :class:`BayesianLinearRegression`."""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.linalg import symmetric_eigh
from .._core.ridge import centred_cross_products, weighted_means
from .._core.scaling import log_scale, max_abs, scale_for, times
from .._validation import Boolean, Interval, check_sample_weight, validate_data
from ..base import LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, warn_data_scale, warn_not_converged

__all__ = ["BayesianLinearRegression"]


def _exponent(s) -> int:
    """``e`` with ``s = 2**e`` (``s`` a power of two)."""
    return int(np.frexp(s)[1]) - 1


class _Posterior:
    """The posterior of the slopes from the eigendecomposition ``ZᵀZ = V diag(lam) Vᵀ``."""

    def __init__(self, lam, V, b, tt):
        self.lam = np.maximum(lam, 0.0)
        self.V = V
        self.Vb = V.T @ b  # Zᵀt in the eigenbasis
        self.tt = tt  # tᵀt

    def mean(self, alpha, sigma2, ridge=None):
        """Posterior mean ``m = (σ²α I + ZᵀZ)⁻¹ Zᵀt`` in the eigenbasis, and the RSS
        (``ridge``: ``σ²α`` when given, for factors whose product alone is in range)."""
        c = self.Vb / ((sigma2 * alpha if ridge is None else ridge) + self.lam)
        rss = self.tt - 2.0 * c @ self.Vb + c @ (self.lam * c)
        return c, max(float(rss), 0.0)

    def gamma(self, alpha, sigma2):
        """Effective number of parameters ``γ = Σ λ/(λ + σ²α)``."""
        return float(np.sum(self.lam / (self.lam + sigma2 * alpha)))


class BayesianLinearRegression(RegressorMixin, LinearPredictorMixin, StatBase):
    """Bayesian linear regression: Gaussian prior on the slopes, Gaussian noise.

    Parameters
    ----------
    alpha : float, default=1.0
        Prior precision of each slope: ``β ~ N(0, alpha⁻¹ I)``. With
        ``estimate_hyperparameters=True``, the starting value.
    sigma2 : float, default=1.0
        Noise variance: ``y_i | x_i ~ N(b0 + x_iᵀβ, sigma2 / w_i)``. With
        ``estimate_hyperparameters=True``, the starting value.
    fit_intercept : bool, default=True
        Add an intercept with a flat (improper uniform) prior.
    estimate_hyperparameters : bool, default=False
        Set ``alpha`` and ``sigma2`` by maximising the marginal likelihood (evidence) with
        MacKay's fixed-point updates (see Notes).
    max_iter : int, default=300
        Cap on the evidence iterations; reaching it raises a ``ConvergenceWarning``. When the
        evidence has no finite maximiser (constant ``y``, an exact fit, or a model that can
        interpolate the data, e.g. ``p ≥ n − 1``) a ``NumericalWarning`` is raised and the
        given ``alpha`` and ``sigma2`` are used.
    tol : float, default=1e-6
        Stop the evidence iterations when neither ``log alpha`` nor ``log sigma2`` changes by
        more than ``tol``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Posterior mean of the slopes.
    intercept_ : float
        Posterior mean of the intercept.
    posterior_cov_ : ndarray of shape (n_coef, n_coef)
        Posterior covariance of the coefficients in R's order (intercept first when fitted).
    alpha_, sigma2_ : float
        The hyperparameters used (estimated, or the given values).
    log_evidence_ : float
        Log marginal likelihood at ``alpha_``, ``sigma2_`` (see Notes for the intercept).
    n_iter_ : int
        Evidence iterations (``1`` when the hyperparameters are fixed: one closed-form solve).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    Ridge : the posterior mean is ``Ridge(alpha = sigma2 · alpha)``.

    Notes
    -----
    Model (Boily, §4.10, with the prior read as a precision — eq. 4.91 prints a variance λ² that
    contradicts the posterior of eq. 4.92): :math:`y_i \\sim N(\\beta_0 + x_i^\\top\\beta,
    \\sigma^2/w_i)`, :math:`\\beta \\sim N(0, \\alpha^{-1} I)`, :math:`p(\\beta_0) \\propto 1`.
    Integrating the flat intercept out centres the data (weighted means
    :math:`\\bar x, \\bar y`); with :math:`Z = W^{1/2}(X - \\bar x)` and
    :math:`t = W^{1/2}(y - \\bar y)` the posterior of the slopes is Gaussian with

    .. math:: \\Sigma = (\\alpha I + Z^\\top Z/\\sigma^2)^{-1}, \\qquad
              m = \\Sigma Z^\\top t / \\sigma^2,

    the intercept's posterior mean is :math:`\\bar y - \\bar x^\\top m`, with
    :math:`\\mathrm{Var}(\\beta_0) = \\sigma^2/\\sum w + \\bar x^\\top\\Sigma\\bar x` and
    :math:`\\mathrm{Cov}(\\beta_0, \\beta) = -\\Sigma\\bar x`. The predictive distribution at
    :math:`x` is
    :math:`N(\\tilde x^\\top \\hat\\theta, \\sigma^2 + \\tilde x^\\top P \\tilde x)` with
    :math:`\\tilde x = (1, x)` and :math:`P` = ``posterior_cov_``: ``predict(X,
    return_std=True)`` includes the noise. The posterior mean equals ridge regression with
    penalty :math:`\\sigma^2\\alpha` (the notes' MAP identity, eq. 4.32).

    Evidence maximisation (MacKay 1992; Bishop, *PRML* §3.5.2): with :math:`\\lambda_j` the
    eigenvalues of :math:`Z^\\top Z` and :math:`\\gamma = \\sum_j \\lambda_j / (\\lambda_j +
    \\sigma^2\\alpha)`, iterate

    .. math:: \\alpha \\leftarrow \\gamma / \\lVert m\\rVert^2, \\qquad
              \\sigma^2 \\leftarrow \\mathrm{RSS}_w / (N - i - \\gamma),

    with :math:`N = \\sum_i w_i` and :math:`i = 1` with an intercept: the exact stationarity
    conditions of the log evidence

    .. math:: \\tfrac p2 \\log\\alpha - \\tfrac{N - i}2 \\log(2\\pi\\sigma^2)
              - \\tfrac i2 \\log N - \\tfrac{\\mathrm{RSS}_w}{2\\sigma^2}
              - \\tfrac\\alpha2\\lVert m\\rVert^2 - \\tfrac12\\log\\lvert\\Sigma^{-1}\\rvert

    (``log_evidence_``; the flat intercept prior has density 1). Weights count as replications
    in :math:`N`, so integer weights are equivalent to repeated rows.

    Mapping to scikit-learn's ``BayesianRidge``: its ``lambda_`` is our ``alpha`` and its
    ``alpha_`` is ``1/sigma2``. With ``fit_intercept=False`` and its Gamma hyperpriors switched
    off (``alpha_1 = alpha_2 = lambda_1 = lambda_2 = 0``) the estimates coincide. With an
    intercept, ``BayesianRidge`` divides by ``N − γ`` rather than ``N − 1 − γ`` (it does not
    count the intercept's degree of freedom) and its predictive standard deviation omits the
    intercept's uncertainty.

    Data whose largest ``|x|`` or ``|y|`` is beyond ``2^±200`` (about ``1e±60``) are fitted
    on ``X / s`` and ``y / t`` (powers of two, exact) with ``alpha`` and ``sigma2`` in those
    units, and the results mapped back exactly (slopes by ``t/s``, ``alpha_`` by ``(s/t)²``,
    ``sigma2_`` by ``t²``, ``log_evidence_`` less ``(N − 1)·log t``); a quantity float64
    cannot hold at that scale (a posterior covariance of ``1e-600``) is ``inf`` or 0 with a
    ``NumericalWarning``, and ``predict`` still uses the rescaled posterior.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import BayesianLinearRegression
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([1.0, 3.0, 5.0, 7.0])
    >>> model = BayesianLinearRegression(alpha=1.0, sigma2=5.0).fit(X, y)
    >>> mean, std = model.predict(X[:1], return_std=True)
    >>> round(float(model.coef_[0]), 6)  # equals Ridge(alpha=5.0)
    1.0
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "sigma2": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": [Boolean()],
        "estimate_hyperparameters": [Boolean()],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        alpha=1.0,
        sigma2=1.0,
        *,
        fit_intercept=True,
        estimate_hyperparameters=False,
        max_iter=300,
        tol=1e-6,
    ):
        self.alpha = alpha
        self.sigma2 = sigma2
        self.fit_intercept = fit_intercept
        self.estimate_hyperparameters = estimate_hyperparameters
        self.max_iter = max_iter
        self.tol = tol

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Compute the posterior (after setting the hyperparameters, if asked).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights: observation ``i`` has noise variance ``sigma2 / w_i`` (and
            counts ``w_i`` times in the evidence).

        Returns
        -------
        self : BayesianLinearRegression
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        # data near float64's ends: the posterior of X / s and y / t (powers of two, exact)
        # with the prior and noise in those units, mapped back (see _unscale)
        s_x, s_y = scale_for(X) or 1.0, scale_for(y) or 1.0
        if not self.estimate_hyperparameters and times(self.sigma2, 1 / s_y, 2) == np.inf:
            s_y = 1.0  # tiny y beside a fixed noise variance: y as given (its squares underflow)
        rescaled = s_x != 1.0 or s_y != 1.0
        if rescaled:
            X, y = X / s_x, y / s_y
        # β' = β·s_x/s_y: α' = α·(s_y/s_x)², σ²' = σ²/s_y² (exponent arithmetic: the ratio of
        # the two factors may itself leave float64's range)
        e = _exponent(s_y) - _exponent(s_x)
        w = (
            None
            if sample_weight is None
            else check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
        )
        if self.fit_intercept:
            x_mean, y_mean = weighted_means(X, y, w)
        else:
            x_mean, y_mean = np.zeros(X.shape[1]), 0.0
        sqrt_w = None if w is None else np.sqrt(w)
        G, b = centred_cross_products(X, y, x_mean if self.fit_intercept else None, y_mean, sqrt_w)
        t = y - y_mean
        tt = float(t @ t) if w is None else float(w @ (t * t))
        lam, V = symmetric_eigh(G, driver="evd")
        post = _Posterior(lam, V, b, tt)
        total = float(X.shape[0] if w is None else w.sum())
        with np.errstate(over="ignore", under="ignore"):
            alpha = float(np.ldexp(float(self.alpha), 2 * e))
        sigma2 = times(float(self.sigma2), 1.0 / s_y, 2)
        # σ²α on the rescaled data is (σ²α)/s_x² whatever s_y: exact even where α' or σ²'
        # alone leaves float64's range
        with np.errstate(over="ignore", under="ignore"):
            ridge = float(np.ldexp(float(self.sigma2) * float(self.alpha), -2 * _exponent(s_x)))
        n_iter = 1
        if self.estimate_hyperparameters:  # start within range (rescaling may leave it)
            alpha, sigma2 = np.clip([alpha, sigma2], 2.0**-1000, 2.0**1000).tolist()
            alpha, sigma2, n_iter = self._maximise_evidence(post, total, alpha, sigma2)
        fixed = None if self.estimate_hyperparameters else ridge
        self._store(post, x_mean, y_mean, total, alpha, sigma2, n_iter, fixed)
        self._rescaled = None
        if rescaled:
            magnitude = max(float(max_abs(X)) * s_x, float(max_abs(y)) * s_y)
            self._unscale(s_x, s_y, total, magnitude)
        return self

    def _unscale(self, s, t, total, magnitude):
        """Map a fit on ``X / s`` and ``y / t`` back: slopes by ``t/s``, the intercept by
        ``t``, ``alpha_`` by ``(s/t)²``, ``sigma2_`` by ``t²``, the posterior covariance by the
        products of its coefficients' factors, and the log-evidence (a density of ``y``) less
        ``(n − 1)·log t`` (``n`` without an intercept)."""
        unit_cov, sigma2_rescaled = self._unit_cov, self.sigma2_
        coef_rescaled, intercept_rescaled = self.coef_, self.intercept_
        e = _exponent(t) - _exponent(s)  # slopes by 2**e = t/s
        factors = np.full(self.coef_.size, e)
        if self.fit_intercept:
            factors = np.concatenate([[_exponent(t)], factors])
        with np.errstate(over="ignore", under="ignore"):
            coef = np.ldexp(self.coef_, e)
            lost_coef = bool(np.any((coef == 0) != (self.coef_ == 0)) or np.any(np.isinf(coef)))
            self.coef_, self.intercept_ = coef, float(self.intercept_) * t
            if not self.estimate_hyperparameters:
                self.alpha_, self.sigma2_ = float(self.alpha), float(self.sigma2)
            else:
                self.alpha_ = float(np.ldexp(self.alpha_, -2 * e))
                self.sigma2_ = times(self.sigma2_, t, 2)
            # Σ = σ² · (unit covariance): its factors per unit σ² are 1/s (slopes) and 1
            per_unit = factors - _exponent(t)
            self.posterior_cov_ = self.sigma2_ * np.ldexp(unit_cov, per_unit + per_unit[:, None])
        self._rescaled = (s, t, unit_cov, sigma2_rescaled, coef_rescaled, intercept_rescaled)
        i = 1.0 if self.fit_intercept else 0.0
        self.log_evidence_ = self.log_evidence_ - (total - i) * log_scale(t)
        cov = self.posterior_cov_
        kept = {
            "coef_": not lost_coef,
            "posterior_cov_": np.all(np.isfinite(cov)) and np.all(np.diag(cov) > 0),
            "alpha_": 0 < self.alpha_ < np.inf,
            "sigma2_": 0 < self.sigma2_ < np.inf,
            "log_evidence_": np.isfinite(self.log_evidence_),
        }
        lost = [name for name, ok in kept.items() if not ok]
        if lost:
            warn_data_scale(self, lost, magnitude)

    def _maximise_evidence(self, post, total, alpha, sigma2):
        name = type(self).__name__
        dof = total - (1.0 if self.fit_intercept else 0.0)
        lam = post.lam
        rank = int(np.sum(lam > lam.max(initial=0.0) * lam.size * np.finfo(np.float64).eps))
        if post.tt <= 0.0:
            reason = "y is constant: there is no signal"
        elif rank >= dof:
            reason = f"the model can interpolate the data ({rank} directions for {dof:g} dof)"
        else:
            reason = None
        start = (alpha, sigma2)
        it = 0
        while reason is None and it < self.max_iter:
            it += 1
            c, rss = post.mean(alpha, sigma2)
            gamma = post.gamma(alpha, sigma2)
            norm2 = float(c @ c)
            if norm2 <= 0.0 or rss <= 1e-12 * post.tt or dof - gamma <= 0.0:
                reason = "the fit is exact" if norm2 > 0.0 else "the posterior mean is zero"
                break
            alpha_new, sigma2_new = gamma / norm2, rss / (dof - gamma)
            change = max(abs(np.log(alpha_new / alpha)), abs(np.log(sigma2_new / sigma2)))
            alpha, sigma2 = alpha_new, sigma2_new
            if change <= self.tol:
                return alpha, sigma2, it
        if reason is not None:
            warnings.warn(
                f"{name}: the evidence has no finite maximiser ({reason}); the given alpha and "
                "sigma2 are used.",
                NumericalWarning,
            )
            return start[0], start[1], max(it, 1)
        warn_not_converged(self, "evidence maximisation", max_iter=self.max_iter, tol=self.tol)
        return alpha, sigma2, self.max_iter

    def _store(self, post, x_mean, y_mean, total, alpha, sigma2, n_iter, ridge=None):
        c, rss = post.mean(alpha, sigma2, ridge)
        V = post.V
        coef = V @ c
        # Σ = (α I + ZᵀZ/σ²)⁻¹ = σ² V diag(1 / (σ²α + λ)) Vᵀ: built per unit σ² (kept for
        # prediction on rescaled data, where σ² alone may leave float64's range)
        d = 1.0 / ((sigma2 * alpha if ridge is None else ridge) + post.lam)
        cov_beta = (V * d) @ V.T
        p = coef.size
        if self.fit_intercept:
            cov = np.empty((p + 1, p + 1))
            cov[1:, 1:] = cov_beta
            cb = cov_beta @ x_mean
            cov[0, 1:] = cov[1:, 0] = -cb
            cov[0, 0] = 1.0 / total + x_mean @ cb
            intercept = float(y_mean - x_mean @ coef)
        else:
            cov, intercept = cov_beta, 0.0
        self._unit_cov = cov
        cov = sigma2 * cov
        i = 1.0 if self.fit_intercept else 0.0
        # α or σ² is 0 when a fixed prior or noise variance underflows on the rescaled data:
        # the posterior is then exact (σ²α is negligible beside XᵀX) but the evidence is not
        # representable (a warning follows in _unscale)
        sigma2 = np.float64(sigma2)
        with np.errstate(divide="ignore", invalid="ignore"):
            logdet_prec = float(np.sum(np.log(alpha + post.lam / sigma2)))
            self.log_evidence_ = float(
                0.5 * p * np.log(alpha)
                - 0.5 * (total - i) * np.log(2.0 * np.pi * sigma2)
                - 0.5 * i * np.log(total)
                - rss / (2.0 * sigma2)
                - 0.5 * alpha * float(c @ c)
                - 0.5 * logdet_prec
            )
        self.coef_, self.intercept_, self.posterior_cov_ = coef, intercept, cov
        self.alpha_, self.sigma2_, self.n_iter_ = float(alpha), float(sigma2), int(n_iter)

    def predict(self, X, return_std=False):
        """Posterior predictive mean (and standard deviation, noise included).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        return_std : bool, default=False
            Also return the predictive standard deviation ``sqrt(sigma2_ + x̃ᵀ P x̃)``.

        Returns
        -------
        mean : ndarray of shape (n_samples,)
        std : ndarray of shape (n_samples,)
            Only when ``return_std=True``.
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        rescaled = getattr(self, "_rescaled", None)
        if rescaled is None:
            mean = self._linear_predictor_raw(X)
            if not return_std:
                return mean
            A = np.hstack([np.ones((X.shape[0], 1)), X]) if self.fit_intercept else X
            var = np.einsum("ij,jk,ik->i", A, self.posterior_cov_, A) + self.sigma2_
            return mean, np.sqrt(np.maximum(var, 0.0))
        # on the fit's scale: exact also where coef_ or posterior_cov_ leave float64's range;
        # the variance is σ²·(x̃ᵀ U x̃ + 1) for the unit covariance U
        s, t, unit_cov, sigma2, coef, intercept = rescaled
        X = X / s
        mean = t * (X @ coef + intercept)
        if not return_std:
            return mean
        A = np.hstack([np.ones((X.shape[0], 1)), X]) if self.fit_intercept else X
        q = np.maximum(np.einsum("ij,jk,ik->i", A, unit_cov, A) + 1.0, 0.0)
        sd = t * math.sqrt(sigma2) if sigma2 > 0 else math.sqrt(self.sigma2_)
        return mean, sd * np.sqrt(q)
