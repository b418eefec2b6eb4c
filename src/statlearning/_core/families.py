"""Exponential-family distributions of generalised linear models, as R's ``family`` objects.

A family fixes the variance function ``V(μ)``, the deviance and the likelihood. Each object here
offers

* ``variance(mu)``: ``V(μ)``;
* ``unit_deviance(y, mu)``: ``d(y, μ)``, so that the deviance is ``D = Σ wᵢ d(yᵢ, μᵢ)``
  (R's ``dev.resids`` are ``wᵢ d(yᵢ, μᵢ)``);
* ``deviance(y, mu, weights)``: ``D``;
* ``aic(y, mu, weights, deviance, n_params)``: R's ``family()$aic`` plus ``2·n_params``, i.e.
  the ``aic`` that ``stats::glm`` stores (``−2 log L`` at the fitted means, the dispersion
  estimated by ``D/Σw`` for the Gamma and inverse Gaussian families, ``+ 2`` for that
  parameter, ``+ 2·n_params``); ``−2 log L`` is a sum over rows (``loglik_rows``, given the
  deviance and ``Σw``) plus a rest (``loglik_rest``), so that rows held in blocks give the same
  AIC (``aic_from_sums``);
* ``starting_mu(y, weights)``: R's ``mustart`` from the family's ``initialize``;
* ``valid_y(y)`` / ``valid_mu(mu)``: domain checks (``valid_mu`` is R's ``validmu``);
* ``name``, ``r_name`` (R's spelling: ``"Gamma"``, ``"inverse.gaussian"``), ``canonical_link``
  (a link name, see :mod:`statlearning._core.links`), ``links`` (the links R's family accepts),
  ``dispersion_fixed`` (``True`` when the dispersion is 1: binomial and Poisson) and
  ``y_domain`` (a phrase for error messages).

Unit deviances (``y`` observed, ``μ`` fitted; ``0 log 0 = 0``):

=================  ==============================  ====================================
family             ``V(μ)``                        ``d(y, μ)``
=================  ==============================  ====================================
gaussian           ``1``                           ``(y − μ)²``
binomial           ``μ(1 − μ)``                    ``2[y log(y/μ) + (1−y) log((1−y)/(1−μ))]``
poisson            ``μ``                           ``2[y log(y/μ) − (y − μ)]``
gamma              ``μ²``                          ``−2[log(y/μ) − (y − μ)/μ]``
inverse_gaussian   ``μ³``                          ``(y − μ)² / (y μ²)``
=================  ==============================  ====================================

For the binomial family ``y`` is a proportion and the weights are the numbers of trials (R's
``glm(cbind(s, f) ~ ., binomial)`` is ``y = s/(s+f)``, ``weights = s+f``).

One deliberate difference from R: the Gaussian AIC counts only observations with positive
weight (R's ``gaussian()$aic`` adds ``−Σ log wᵢ`` over all rows, which is ``+∞`` as soon as one
weight is zero); the value is what R gives once those rows are removed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
from scipy import special

__all__ = ["FAMILIES", "Family", "get_family"]


def _asarray(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


class Family(ABC):
    """Base class of the GLM families; see the module docstring."""

    name = ""
    r_name = ""
    canonical_link = ""
    links: tuple = ()
    dispersion_fixed = False
    y_domain = ""

    @abstractmethod
    def variance(self, mu):
        """``V(μ)``."""

    @abstractmethod
    def unit_deviance(self, y, mu):
        """``d(y, μ)`` elementwise (unweighted)."""

    def deviance(self, y, mu, weights=None) -> float:
        """``D = Σ wᵢ d(yᵢ, μᵢ)``; rows with zero weight contribute nothing."""
        d = self.unit_deviance(y, mu)
        if weights is None:
            return float(np.sum(d))
        w = _asarray(weights)
        zero = w == 0
        if zero.any():
            d[zero] = 0.0  # a fresh array: rows left out may have undefined deviance
        return float(w @ d)

    @abstractmethod
    def loglik_rows(self, y, mu, w, deviance, sum_w) -> float:
        """The part of ``−2 log L`` that is a sum over rows (``w > 0``), given the whole
        sample's deviance and ``Σ w`` (so that blocks of rows may be summed separately)."""

    def loglik_rest(self, deviance, sum_w, n) -> float:
        """The rest of ``−2 log L``: a function of the deviance, ``Σ w`` and the number ``n``
        of rows with ``w > 0``."""
        return 0.0

    def _minus_two_loglik(self, y, mu, w, deviance) -> float:
        sum_w = float(np.sum(w))
        rows = self.loglik_rows(y, mu, w, deviance, sum_w)
        return rows + self.loglik_rest(deviance, sum_w, y.size)

    def aic(self, y, mu, weights, deviance, n_params) -> float:
        """R's ``family()$aic(y, n, mu, wt, dev) + 2·n_params`` (rows with ``w > 0``)."""
        y, mu = _asarray(y), _asarray(mu)
        w = np.ones_like(y) if weights is None else _asarray(weights)
        pos = w > 0
        return float(self._minus_two_loglik(y[pos], mu[pos], w[pos], deviance) + 2 * n_params)

    def aic_from_sums(self, rows, deviance, sum_w, n, n_params) -> float:
        """:meth:`aic` from the summed :meth:`loglik_rows` of blocks of rows."""
        return float(rows + self.loglik_rest(deviance, sum_w, n) + 2 * n_params)

    def starting_mu(self, y, weights=None) -> np.ndarray:
        """R's ``mustart``: the means the iterations start from."""
        return _asarray(y).copy()

    def valid_y(self, y) -> bool:
        """Whether every ``y`` is in the family's support."""
        return True

    def valid_mu(self, mu) -> bool:
        """Whether every ``μ`` is admissible (R's ``validmu``)."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self).__name__)


def _finite_positive(mu) -> bool:
    mu = _asarray(mu)
    return bool(np.all(np.isfinite(mu)) and np.all(mu > 0))


class Gaussian(Family):
    """Normal errors with constant variance (R's ``gaussian()``)."""

    name = r_name = "gaussian"
    canonical_link = "identity"
    links = ("identity", "log", "inverse")
    y_domain = "real"

    def variance(self, mu):
        return np.ones_like(_asarray(mu))

    def unit_deviance(self, y, mu):
        r = _asarray(y) - _asarray(mu)
        return r * r

    # R: nobs * (log(dev/nobs * 2 * pi) + 1) + 2 - sum(log(wt))
    def loglik_rows(self, y, mu, w, deviance, sum_w):
        return -float(np.sum(np.log(w)))

    def loglik_rest(self, deviance, sum_w, n):
        with np.errstate(divide="ignore"):
            return float(n * (np.log(np.float64(deviance) / n * 2.0 * np.pi) + 1.0) + 2.0)


class Binomial(Family):
    """Proportions of successes out of ``weights`` trials (R's ``binomial()``)."""

    name = r_name = "binomial"
    canonical_link = "logit"
    links = ("logit", "probit", "cloglog", "log")
    dispersion_fixed = True
    y_domain = "in [0, 1]"

    def variance(self, mu):
        mu = _asarray(mu)
        return mu * (1.0 - mu)

    def unit_deviance(self, y, mu):
        y, mu = _asarray(y), _asarray(mu)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(y != 0, y * np.log(y / mu), 0.0)
            b = np.where(y != 1, (1.0 - y) * np.log((1.0 - y) / (1.0 - mu)), 0.0)
        return 2.0 * (a + b)

    def loglik_rows(self, y, mu, w, deviance, sum_w):
        # R: m = wt (y is a proportion); -2 * sum(dbinom(round(m*y), round(m), mu, log=TRUE))
        k = np.round(w * y)
        m = np.round(w)
        log_choose = special.gammaln(m + 1) - special.gammaln(k + 1) - special.gammaln(m - k + 1)
        ll = log_choose + special.xlogy(k, mu) + special.xlog1py(m - k, -mu)
        return -2.0 * float(np.sum(ll))

    def starting_mu(self, y, weights=None):
        y = _asarray(y)
        w = np.ones_like(y) if weights is None else _asarray(weights)
        return (w * y + 0.5) / (w + 1.0)

    def valid_y(self, y) -> bool:
        y = _asarray(y)
        return bool(np.all((y >= 0) & (y <= 1)))

    def valid_mu(self, mu) -> bool:
        mu = _asarray(mu)
        return bool(np.all(np.isfinite(mu)) and np.all((mu > 0) & (mu < 1)))


class Poisson(Family):
    """Counts (R's ``poisson()``)."""

    name = r_name = "poisson"
    canonical_link = "log"
    links = ("log", "identity", "sqrt")
    dispersion_fixed = True
    y_domain = "non-negative"

    def variance(self, mu):
        return _asarray(mu).copy()

    def unit_deviance(self, y, mu):
        y, mu = _asarray(y), _asarray(mu)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.divide(y, mu)
            special.xlogy(y, d, out=d)  # 0 where y = 0
        d -= y
        d += mu
        d *= 2.0
        return d

    def loglik_rows(self, y, mu, w, deviance, sum_w):
        # R: -2 * sum(dpois(y, mu, log=TRUE) * wt); dpois is -Inf for non-integer y
        if np.any(y != np.floor(y)):
            return np.inf
        ll = special.xlogy(y, mu) - mu - special.gammaln(y + 1.0)
        return -2.0 * float(np.sum(ll * w))

    def starting_mu(self, y, weights=None):
        return _asarray(y) + 0.1

    def valid_y(self, y) -> bool:
        return bool(np.all(_asarray(y) >= 0))

    def valid_mu(self, mu) -> bool:
        return _finite_positive(mu)


class Gamma(Family):
    """Positive responses with constant coefficient of variation (R's ``Gamma()``)."""

    name = "gamma"
    r_name = "Gamma"
    canonical_link = "inverse"
    links = ("inverse", "identity", "log")
    y_domain = "positive"

    def variance(self, mu):
        mu = _asarray(mu)
        return mu * mu

    def unit_deviance(self, y, mu):
        y, mu = _asarray(y), _asarray(mu)
        with np.errstate(divide="ignore", invalid="ignore"):
            return -2.0 * (np.log(np.where(y == 0, 1.0, y / mu)) - (y - mu) / mu)

    def loglik_rows(self, y, mu, w, deviance, sum_w):
        # R: disp = dev/sum(wt); -2*sum(dgamma(y, 1/disp, scale=mu*disp, log=TRUE)*wt) + 2
        disp = np.float64(deviance) / np.float64(sum_w)  # float64: 0/0 is NaN, not an error
        shape = 1.0 / disp
        scale = mu * disp
        ll = (shape - 1.0) * np.log(y) - y / scale - special.gammaln(shape) - shape * np.log(scale)
        return -2.0 * float(np.sum(ll * w))

    def loglik_rest(self, deviance, sum_w, n):
        return 2.0

    def valid_y(self, y) -> bool:
        return bool(np.all(_asarray(y) > 0))

    def valid_mu(self, mu) -> bool:
        return _finite_positive(mu)


class InverseGaussian(Family):
    """Positive responses with variance ``φ μ³`` (R's ``inverse.gaussian()``)."""

    name = "inverse_gaussian"
    r_name = "inverse.gaussian"
    canonical_link = "inverse_squared"
    links = ("inverse_squared", "inverse", "identity", "log")
    y_domain = "positive"

    def variance(self, mu):
        return _asarray(mu) ** 3

    def unit_deviance(self, y, mu):
        y, mu = _asarray(y), _asarray(mu)
        r = y - mu
        return r * r / (y * mu * mu)

    # R: sum(wt)*(log(disp*2*pi)+1) + 3*sum(log(y)*wt) + 2, disp = dev/sum(wt)
    def loglik_rows(self, y, mu, w, deviance, sum_w):
        return 3.0 * float(np.sum(np.log(y) * w))

    def loglik_rest(self, deviance, sum_w, n):
        sum_w = np.float64(sum_w)
        return float(sum_w * (np.log(deviance / sum_w * 2.0 * np.pi) + 1.0) + 2.0)

    def valid_y(self, y) -> bool:
        return bool(np.all(_asarray(y) > 0))


#: Every family by name.
FAMILIES: dict[str, Family] = {
    f.name: f for f in (Gaussian(), Binomial(), Poisson(), Gamma(), InverseGaussian())
}


def get_family(name) -> Family:
    """The family called ``name`` (a :class:`Family` is returned unchanged).

    Raises
    ------
    ValueError
        For an unknown name, listing the valid ones.
    """
    if isinstance(name, Family):
        return name
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        valid = ", ".join(repr(n) for n in FAMILIES)
        raise ValueError(f"unknown family {name!r}; valid families are {valid}") from None
