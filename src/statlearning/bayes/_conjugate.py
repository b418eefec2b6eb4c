"""Conjugate prior–likelihood pairs: Beta–Bernoulli, Dirichlet–categorical, Normal–Normal."""

from __future__ import annotations

from abc import ABC, abstractmethod
from numbers import Real

import numpy as np
from scipy import stats
from scipy.special import betaln, gammaln
from sklearn.utils.validation import check_is_fitted

from .._validation import ArrayLike, Interval
from ..base import StatBase, fit_context

__all__ = ["BetaBernoulli", "DirichletCategorical", "NormalNormal"]

_POSITIVE = Interval(Real, 0.0, None, closed="neither")


def _sample(y, owner: str, *, numeric: bool = True) -> np.ndarray:
    """``y`` as a 1-D array (empty allowed: the posterior is then the prior)."""
    arr = np.asarray(y) if not isinstance(y, (list, tuple)) else np.array(y, dtype=object)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{owner}: y must be one sample, a 1-D array; got shape {arr.shape}.")
    if not numeric:
        return arr
    try:
        values = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{owner}: y must be numeric; got values such as {arr[0]!r}.") from None
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{owner}: y contains NaN or infinity.")
    return values


class _Conjugate(StatBase, ABC):
    """Shared ``fit``/``partial_fit``: the prior updated by the sufficient statistics."""

    @abstractmethod
    def _stats(self, y, refit):
        """Validated ``y`` and its sufficient statistics (``refit``: learn categories)."""

    @abstractmethod
    def _prior(self, suff):
        """The prior's parameters (sized by the statistics where the model needs it)."""

    @abstractmethod
    def _update(self, params, suff):
        """The posterior's parameters from the prior's and the statistics."""

    @abstractmethod
    def _log_evidence(self, params, y):
        """Log marginal likelihood of ``y`` under the distribution with ``params``."""

    @abstractmethod
    def _set_posterior(self, params) -> None:
        """Store ``posterior_`` and ``predictive_``."""

    @fit_context
    def fit(self, y):
        """Posterior given the sample ``y`` (the prior updated in closed form).

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            The sample.

        Returns
        -------
        self
        """
        y, suff = self._stats(y, refit=True)
        prior = self._prior(suff)
        self.log_evidence_ = float(self._log_evidence(prior, y))
        self.n_samples_ = int(y.shape[0])
        self._set_posterior(self._update(prior, suff))
        return self

    def partial_fit(self, y):
        """Update the posterior with more data (the current posterior is the new prior).

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            The new observations.

        Returns
        -------
        self
        """
        if not hasattr(self, "posterior_"):
            return self.fit(y)
        current = self._current()
        y, suff = self._stats(y, refit=False)
        # the evidence of all data seen = the old evidence × the new data's posterior predictive
        self.log_evidence_ += float(self._log_evidence(current, y))
        self.n_samples_ += int(y.shape[0])
        self._set_posterior(self._update(current, suff))
        return self

    def log_evidence(self, y):
        """Log marginal likelihood of the sample ``y`` under the prior (the hyper-parameters).

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            A sample; the fitted posterior is not used (compare
            :meth:`log_predictive` for new data given the fit).

        Returns
        -------
        float
            :math:`\\log p(y) = \\log \\int p(y \\mid \\theta)\\, p(\\theta)\\, d\\theta`.
        """
        self._validate_params()
        y, suff = self._stats(y, refit=False)
        return float(self._log_evidence(self._prior(suff), y))

    def log_predictive(self, y):
        """Log posterior-predictive probability (density) of new data given the fit.

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            New observations, taken jointly.

        Returns
        -------
        float
            :math:`\\log p(y_{\\text{new}} \\mid y_{\\text{train}})`.
        """
        check_is_fitted(self, "posterior_")
        y, _ = self._stats(y, refit=False)
        return float(self._log_evidence(self._current(), y))


class BetaBernoulli(_Conjugate):
    """Bernoulli observations with a Beta(a, b) prior on the success probability θ.

    Parameters
    ----------
    a, b : float, default=1.0
        The prior Beta(a, b) (a uniform prior by default): a − 1 and b − 1 act as prior
        successes and failures.

    Attributes
    ----------
    posterior_ : dict
        ``{"a": a + n₁, "b": b + n₀}``, the parameters of the Beta posterior.
    predictive_ : float
        Posterior-predictive probability that the next observation is 1,
        ``posterior_["a"] / (posterior_["a"] + posterior_["b"])``.
    log_evidence_ : float
        Log marginal likelihood of all the data seen (under the prior).
    n_samples_ : int
        Observations seen.

    See Also
    --------
    DirichletCategorical : More than two categories.

    Notes
    -----
    Seed 001 §4.10.1, eqs. (4.94)–(4.97): with :math:`n_1` ones and :math:`n_0` zeros among
    :math:`n` observations, the posterior is :math:`\\mathrm{Beta}(a + n_1, b + n_0)` and the
    evidence

    .. math:: p(y) = \\frac{\\Gamma(a+b)}{\\Gamma(a)\\Gamma(b)}
              \\frac{\\Gamma(a+n_1)\\Gamma(b+n_0)}{\\Gamma(a+b+n)}
              = \\frac{B(a+n_1, b+n_0)}{B(a, b)}

    (for the sequence, no binomial coefficient). The notes' α, β are ``a``, ``b``.

    Examples
    --------
    >>> from statlearning.bayes import BetaBernoulli
    >>> m = BetaBernoulli(a=2, b=3).fit([1, 0, 1, 1, 0, 1])
    >>> m.posterior_
    {'a': 6.0, 'b': 5.0}
    >>> round(m.log_evidence_, 12)
    -4.653960350158
    """

    _parameter_constraints = {"a": [_POSITIVE], "b": [_POSITIVE]}

    def __init__(self, a=1.0, b=1.0):
        self.a = a
        self.b = b

    def _prior(self, suff):
        return float(self.a), float(self.b)

    def _current(self):
        return self.posterior_["a"], self.posterior_["b"]

    def _stats(self, y, refit):
        y = _sample(y, type(self).__name__)
        if not np.all((y == 0) | (y == 1)):
            bad = y[(y != 0) & (y != 1)][0]
            raise ValueError(
                f"{type(self).__name__}: y must hold 0/1 (or boolean) outcomes; got {bad!r}."
            )
        n1 = float(y.sum())
        return y, (n1, y.shape[0] - n1)

    def _update(self, params, suff):
        return params[0] + suff[0], params[1] + suff[1]

    def _log_evidence(self, params, y):
        n1 = float(y.sum())
        n0 = y.shape[0] - n1
        a, b = params
        return betaln(a + n1, b + n0) - betaln(a, b)

    def _set_posterior(self, params) -> None:
        a, b = params
        self.posterior_ = {"a": float(a), "b": float(b)}
        self.predictive_ = a / (a + b)

    def posterior_distribution(self):
        """The posterior of θ as a frozen :data:`scipy.stats.beta`.

        Returns
        -------
        scipy.stats.rv_frozen
            ``beta(a + n₁, b + n₀)``: ``.mean()``, ``.interval(0.95)``, ``.pdf`` and so on.
        """
        check_is_fitted(self, "posterior_")
        return stats.beta(self.posterior_["a"], self.posterior_["b"])

    def predict_proba(self):
        """Posterior-predictive probabilities of the next observation being 0 and 1.

        Returns
        -------
        ndarray of shape (2,)
            ``[1 − p, p]`` with ``p = predictive_``.
        """
        check_is_fitted(self, "posterior_")
        return np.array([1.0 - self.predictive_, self.predictive_])


class DirichletCategorical(_Conjugate):
    """Categorical observations with a Dirichlet(α) prior on the category probabilities.

    Parameters
    ----------
    alpha : float or array-like of shape (n_categories,), default=1.0
        The Dirichlet concentration: one value for every category (1 is uniform), or one per
        category.
    categories : array-like or None, default=None
        The category labels. None means the sorted distinct values of the first ``fit``'s ``y``
        when ``alpha`` is a scalar, and ``0, …, K − 1`` when ``alpha`` is a vector of length K.
        A category never observed keeps its prior mass only if it is listed here.

    Attributes
    ----------
    categories_ : ndarray
        The categories, in the order of the probability vectors.
    posterior_ : dict
        ``{"alpha": α + counts}``.
    predictive_ : ndarray of shape (n_categories,)
        Posterior-predictive probabilities of the next observation, the posterior mean.
    log_evidence_ : float
        Log marginal likelihood of all the data seen.
    n_samples_ : int
        Observations seen.

    See Also
    --------
    BetaBernoulli : Two categories.

    Notes
    -----
    With counts :math:`n_k` (:math:`n = \\sum_k n_k`) and :math:`A = \\sum_k \\alpha_k`, the
    posterior is :math:`\\mathrm{Dir}(\\alpha + n)` and the evidence of the sequence

    .. math:: p(y) = \\frac{\\Gamma(A)}{\\Gamma(A + n)} \\prod_k
              \\frac{\\Gamma(\\alpha_k + n_k)}{\\Gamma(\\alpha_k)},

    the K-category form of seed 001's (4.96).

    Examples
    --------
    >>> from statlearning.bayes import DirichletCategorical
    >>> m = DirichletCategorical().fit(["a", "b", "a", "c", "a"])
    >>> m.posterior_["alpha"].tolist(), m.predictive_.round(3).tolist()
    ([4.0, 2.0, 2.0], [0.5, 0.25, 0.25])
    """

    _parameter_constraints = {"alpha": [ArrayLike(), _POSITIVE], "categories": [ArrayLike(), None]}

    def __init__(self, alpha=1.0, categories=None):
        self.alpha = alpha
        self.categories = categories

    def _alpha_vector(self, k):
        alpha = np.asarray(self.alpha, dtype=np.float64)
        if alpha.ndim == 0:
            return np.full(k, float(alpha))
        return alpha

    def _resolve_categories(self, y):
        alpha = np.asarray(self.alpha, dtype=np.float64)
        if alpha.ndim > 1 or not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
            raise ValueError(
                "DirichletCategorical: alpha must be a positive number or a 1-D array of "
                "positive numbers."
            )
        if self.categories is not None:
            cats = np.asarray(self.categories)
            if cats.ndim != 1 or len(np.unique(cats)) != cats.size or cats.size < 2:
                raise ValueError(
                    "DirichletCategorical: categories must be at least two distinct labels."
                )
        elif alpha.ndim == 1:
            cats = np.arange(alpha.size)
        else:
            cats = np.unique(y)
            if cats.size == 0:
                raise ValueError(
                    "DirichletCategorical: y is empty and neither categories nor a vector alpha "
                    "says what the categories are."
                )
        if alpha.ndim == 1 and alpha.size != cats.size:
            raise ValueError(
                f"DirichletCategorical: alpha has {alpha.size} values for {cats.size} categories."
            )
        return cats

    def _stats(self, y, refit):
        y = _sample(y, type(self).__name__, numeric=False)
        if refit:
            self.categories_ = self._resolve_categories(y)
        cats = self.categories_ if hasattr(self, "categories_") else self._resolve_categories(y)
        index = {c: i for i, c in enumerate(cats.tolist())}
        try:
            codes = np.array([index[v] for v in y.tolist()], dtype=np.intp)
        except KeyError as err:
            raise ValueError(
                f"DirichletCategorical: y holds {err.args[0]!r}, which is not among the "
                f"categories {cats.tolist()}."
            ) from None
        return codes, np.bincount(codes, minlength=cats.size).astype(np.float64)

    def _prior(self, suff):
        return self._alpha_vector(suff.size)

    def _current(self):
        return self.posterior_["alpha"]

    def _update(self, params, suff):
        return params + suff

    def _log_evidence(self, alpha, codes):
        counts = np.bincount(codes, minlength=alpha.size)
        total = alpha.sum()
        return (
            gammaln(total)
            - gammaln(total + codes.shape[0])
            + np.sum(gammaln(alpha + counts) - gammaln(alpha))
        )

    def _set_posterior(self, alpha) -> None:
        self.posterior_ = {"alpha": np.asarray(alpha, dtype=np.float64)}
        self.predictive_ = self.posterior_["alpha"] / self.posterior_["alpha"].sum()

    def posterior_distribution(self):
        """The posterior of the probability vector as a frozen :data:`scipy.stats.dirichlet`.

        Returns
        -------
        scipy.stats.rv_frozen
            ``dirichlet(α + counts)``.
        """
        check_is_fitted(self, "posterior_")
        return stats.dirichlet(self.posterior_["alpha"])

    def predict_proba(self):
        """Posterior-predictive probabilities of the next observation's category.

        Returns
        -------
        ndarray of shape (n_categories,)
            ``predictive_``, in the order of ``categories_``.
        """
        check_is_fitted(self, "posterior_")
        return self.predictive_.copy()


class NormalNormal(_Conjugate):
    """Normal observations of known SD with a Normal prior on their mean.

    Parameters
    ----------
    mu0 : float, default=0.0
        Prior mean of μ.
    tau0 : float, default=1.0
        Prior SD of μ.
    sigma : float, default=1.0
        The observations' known SD.

    Attributes
    ----------
    posterior_ : dict
        ``{"mu": μₙ, "tau": τₙ}``, the posterior mean and SD of μ.
    predictive_ : dict
        ``{"mean": μₙ, "sd": √(τₙ² + σ²)}``, the posterior predictive of the next observation.
    log_evidence_ : float
        Log marginal likelihood (density) of all the data seen.
    n_samples_ : int
        Observations seen.

    See Also
    --------
    statlearning.linear_model.BayesianLinearRegression : The regression form.

    Notes
    -----
    With prior :math:`\\mu \\sim N(\\mu_0, \\tau_0^2)` and :math:`y_i \\mid \\mu \\sim N(\\mu,
    \\sigma^2)`, the posterior precision adds the data's,
    :math:`\\tau_n^{-2} = \\tau_0^{-2} + n\\sigma^{-2}`, and the posterior mean weighs prior mean
    and sample sum by their precisions,
    :math:`\\mu_n = \\tau_n^2(\\mu_0/\\tau_0^2 + \\sum_i y_i/\\sigma^2)`. Marginally
    :math:`y \\sim N(\\mu_0\\mathbf 1, \\sigma^2 I + \\tau_0^2 \\mathbf 1\\mathbf 1^\\top)`, whose
    log density (the evidence) is computed in closed form:

    .. math:: \\log p(y) = -\\tfrac n2 \\log(2\\pi\\sigma^2)
              - \\tfrac12\\log(1 + n\\tau_0^2/\\sigma^2)
              - \\frac{1}{2\\sigma^2}\\Big[\\sum_i (y_i-\\mu_0)^2
              - \\frac{\\tau_0^2 (\\sum_i (y_i-\\mu_0))^2}{\\sigma^2 + n\\tau_0^2}\\Big].

    Examples
    --------
    >>> from statlearning.bayes import NormalNormal
    >>> m = NormalNormal(mu0=0.0, tau0=2.0, sigma=1.0).fit([1.2, 0.8, 1.1, 0.9])
    >>> {k: round(v, 6) for k, v in m.posterior_.items()}
    {'mu': 0.941176, 'tau': 0.485071}
    """

    _parameter_constraints = {
        "mu0": [Interval(Real, None, None, closed="neither")],
        "tau0": [_POSITIVE],
        "sigma": [_POSITIVE],
    }

    def __init__(self, mu0=0.0, tau0=1.0, sigma=1.0):
        self.mu0 = mu0
        self.tau0 = tau0
        self.sigma = sigma

    def _prior(self, suff):
        return float(self.mu0), float(self.tau0)

    def _current(self):
        return self.posterior_["mu"], self.posterior_["tau"]

    def _stats(self, y, refit):
        y = _sample(y, type(self).__name__)
        return y, (y.shape[0], float(y.sum()))

    def _update(self, params, suff):
        mu, tau = params
        n, total = suff
        s2 = float(self.sigma) ** 2
        precision = 1.0 / tau**2 + n / s2
        return (mu / tau**2 + total / s2) / precision, precision**-0.5

    def _log_evidence(self, params, y):
        mu, tau = params
        n = y.shape[0]
        s2 = float(self.sigma) ** 2
        r = y - mu
        quad = np.dot(r, r) - tau**2 * r.sum() ** 2 / (s2 + n * tau**2)
        return -0.5 * n * np.log(2 * np.pi * s2) - 0.5 * np.log1p(n * tau**2 / s2) - quad / (2 * s2)

    def _set_posterior(self, params) -> None:
        mu, tau = params
        self.posterior_ = {"mu": float(mu), "tau": float(tau)}
        self.predictive_ = {"mean": float(mu), "sd": float(np.hypot(tau, float(self.sigma)))}

    def posterior_distribution(self):
        """The posterior of μ as a frozen :data:`scipy.stats.norm`.

        Returns
        -------
        scipy.stats.rv_frozen
            ``norm(μₙ, τₙ)``.
        """
        check_is_fitted(self, "posterior_")
        return stats.norm(self.posterior_["mu"], self.posterior_["tau"])
