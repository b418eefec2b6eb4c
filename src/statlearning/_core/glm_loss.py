"""GLM deviance and its gradient in one pass over the rows (compiled with numba).

:func:`glm_loss_gradient` returns, for ``η = b₀ + Xβ + offset`` and ``μ = g⁻¹(η)``,

.. math:: L = \\tfrac12 \\sum_i w_i\\, d(y_i, \\mu_i) - C(y), \\qquad
          \\nabla_{(b_0, \\beta)} L = \\sum_i r_i\\, (1, x_i), \\quad
          r_i = -\\frac{w_i (y_i - \\mu_i)}{V(\\mu_i)} \\frac{d\\mu}{d\\eta}(\\eta_i),

the half deviance and its exact gradient (``∂d/∂μ = −2(y − μ)/V(μ)`` for every family). The
term ``C(y)``, which does not depend on the coefficients, is dropped where that saves a
logarithm per row (the negative log-likelihood up to constants, as scikit-learn's losses):
Poisson, Gamma and inverse Gaussian with the log link and binomial with the logit link; for the
other pairs ``C = 0``. Each row
of ``X`` is read once: ``η_i``, ``μ_i``, the deviance term and ``r_i`` are computed while the
row is in cache and ``r_i x_i`` is added to the gradient, instead of two passes (``Xβ`` then
``Xᵀr``) over a matrix that does not fit in cache.

The links and families are those of :mod:`statlearning._core.links` and
:mod:`statlearning._core.families`, with R's safeguards, restricted to the links under which
every ``η`` gives an admissible mean (:data:`UNCONSTRAINED_LINKS`): identity (Gaussian only),
log, logit, probit and cloglog.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .compiled import F8, I8, lazy_kernel, readonly
from .links import CLOGLOG_ETA_MAX, EPS, LINK_CODES, LOGIT_THRESH, PROBIT_THRESH

__all__ = ["FAMILY_CODES", "UNCONSTRAINED_LINKS", "glm_loss_gradient", "supports"]

FAMILY_CODES = {"gaussian": 0, "binomial": 1, "poisson": 2, "gamma": 3, "inverse_gaussian": 4}
#: (family, link) pairs whose means are admissible for every linear predictor.
UNCONSTRAINED_LINKS = {
    ("gaussian", "identity"), ("gaussian", "log"),
    ("binomial", "logit"), ("binomial", "probit"), ("binomial", "cloglog"),
    ("poisson", "log"), ("gamma", "log"), ("inverse_gaussian", "log"),
}  # fmt: skip

# The constants of links.py (R's), frozen into the compiled code as globals.
_EPS = EPS
_LOGIT_THRESH = LOGIT_THRESH
_PROBIT_THRESH = PROBIT_THRESH
_CLOGLOG_ETA_MAX = CLOGLOG_ETA_MAX
_EXP_ETA_MAX = 709.0  # exp(η) overflows above about 709.78: the log link's μ is capped there
_IDENTITY, _LOG, _LOGIT, _PROBIT, _CLOGLOG = (
    LINK_CODES[k] for k in ("identity", "log", "logit", "probit", "cloglog")
)
_SQRT2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def supports(family: str, link: str) -> bool:
    """Whether :func:`glm_loss_gradient` handles this (family, link) pair."""
    return (family, link) in UNCONSTRAINED_LINKS


@njit(cache=True, inline="always")
def _inverse(eta, link):
    """``(μ, dμ/dη)`` with R's safeguards (see :mod:`statlearning._core.links`)."""
    if link == _IDENTITY:
        return eta, 1.0
    if link == _LOG:
        e = max(math.exp(min(eta, _EXP_ETA_MAX)), _EPS)
        return e, e
    if link == _LOGIT:
        if eta < -_LOGIT_THRESH:
            return _EPS / (1.0 + _EPS), _EPS
        if eta > _LOGIT_THRESH:
            t = 1.0 / _EPS
            return t / (1.0 + t), _EPS
        t = math.exp(eta)
        return t / (1.0 + t), t / ((1.0 + t) * (1.0 + t))
    if link == _PROBIT:
        e = min(max(eta, -_PROBIT_THRESH), _PROBIT_THRESH)
        mu = 0.5 * math.erfc(-e / _SQRT2)
        return mu, max(math.exp(-0.5 * eta * eta) * _INV_SQRT_2PI, _EPS)
    mu = min(max(-math.expm1(-math.exp(min(eta, _CLOGLOG_ETA_MAX))), _EPS), 1.0 - _EPS)
    e = min(eta, _CLOGLOG_ETA_MAX)
    ee = math.exp(e)
    return mu, max(ee * math.exp(-ee), _EPS)


@njit(cache=True, inline="always")
def _variance(mu, family):
    if family == 0:
        return 1.0
    if family == 1:
        return mu * (1.0 - mu)
    if family == 2:
        return mu
    if family == 3:
        return mu * mu
    return mu * mu * mu


@njit(cache=True, inline="always")
def _loss_term(y, eta, mu, family, link):
    """Half unit deviance, up to a term in ``y`` alone for the pairs with a cheaper form."""
    if link == _LOG:
        if family == 2:  # μ − yη
            return mu - y * eta
        if family == 3:  # y e^{−η} + η
            return y * math.exp(-eta) + eta
        if family == 4:  # y e^{−2η}/2 − e^{−η}
            e = math.exp(-eta)
            return 0.5 * y * e * e - e
    if family == 1 and link == _LOGIT:  # log(1 + e^η) − yη
        soft = eta + math.log1p(math.exp(-eta)) if eta > 0 else math.log1p(math.exp(eta))
        return soft - y * eta
    return 0.5 * _unit_deviance(y, mu, family)


@njit(cache=True, inline="always")
def _unit_deviance(y, mu, family):
    if family == 0:
        return (y - mu) * (y - mu)
    if family == 1:
        a = y * math.log(y / mu) if y != 0.0 else 0.0
        b = (1.0 - y) * math.log((1.0 - y) / (1.0 - mu)) if y != 1.0 else 0.0
        return 2.0 * (a + b)
    if family == 2:
        a = y * math.log(y / mu) if y > 0.0 else 0.0
        return 2.0 * (a - (y - mu))
    if family == 3:
        return -2.0 * (math.log(y / mu) - (y - mu) / mu)
    return (y - mu) * (y - mu) / (y * mu * mu)


# Reassociation lets the compiler vectorise the two inner products; no assumption about NaN or
# infinity is made, so non-finite values propagate as without the flags.
@lazy_kernel(
    (readonly(2), readonly(), readonly(), readonly(), readonly(), F8, I8, I8),
    cache=True,
    fastmath={"reassoc", "contract"},
)
def glm_loss_gradient(X, y, w, offset, beta, intercept, family, link):
    """Half deviance and its gradient; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n, p), C-contiguous float64
    y, w, offset : ndarray of shape (n,), contiguous float64
        Response, prior weights (rows with zero weight are skipped), offset.
    beta : ndarray of shape (p,), contiguous float64
    intercept : float
    family, link : int
        Codes from :data:`FAMILY_CODES` and :data:`statlearning._core.links.LINK_CODES`.

    Returns
    -------
    loss : float
        ``½ Σ wᵢ d(yᵢ, μᵢ) − C(y)``.
    grad_intercept : float
        ``Σ rᵢ``.
    grad : ndarray of shape (p,)
        ``Σ rᵢ xᵢ``.
    """
    n, p = X.shape
    grad = np.zeros(p)
    g0 = 0.0
    loss = 0.0
    for i in range(n):
        wi = w[i]
        if wi == 0.0:
            continue
        eta = intercept + offset[i]
        for j in range(p):
            eta += X[i, j] * beta[j]
        mu, dmu = _inverse(eta, link)
        yi = y[i]
        loss += wi * _loss_term(yi, eta, mu, family, link)
        r = -wi * (yi - mu) * dmu / _variance(mu, family)
        g0 += r
        for j in range(p):
            grad[j] += r * X[i, j]
    return loss, g0, grad
