"""Link functions of generalised linear models, computed as R's ``make.link`` computes them.

A link ``g`` maps the mean ``μ`` to the linear predictor ``η = g(μ)``. Each link object offers

* ``link(mu)``: ``η = g(μ)``;
* ``inverse(eta)``: ``μ = g⁻¹(η)`` (R's ``linkinv``);
* ``derivative(mu)``: ``dη/dμ = g'(μ)``;
* ``inverse_derivative(eta)``: ``dμ/dη`` (R's ``mu.eta``);
* ``valid_eta(eta)``: whether every ``η`` is admissible (R's ``valideta``);
* ``name`` and ``r_name`` (R's spelling, e.g. ``"1/mu^2"``).

Where R guards against overflow, so do we, with R's constants: the logit inverse saturates for
``|η| > 30`` (``μ`` is then ``ε/(1+ε)`` or ``1/(1+ε)`` with ``ε`` the machine epsilon and
``dμ/dη = ε``), the probit inverse clamps ``η`` to ``±Φ⁻¹(1 − ε)``, and the log, probit and
cloglog ``mu.eta`` are floored at ``ε``. Inside those ranges the functions are exact inverses
of each other. Only numpy and scipy are used; inputs are never modified.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
from scipy import special

__all__ = [
    "CLOGLOG_ETA_MAX",
    "EPS",
    "LINKS",
    "LINK_CODES",
    "LOGIT_THRESH",
    "PROBIT_THRESH",
    "Link",
    "get_link",
]

EPS = float(np.finfo(np.float64).eps)  # R's .Machine$double.eps
LOGIT_THRESH = 30.0  # R's THRESH / MTHRESH in family.c
PROBIT_THRESH = float(-special.ndtri(EPS))  # R's -qnorm(.Machine$double.eps)
#: ``η`` is capped here before ``exp(η)`` in the cloglog ``mu.eta`` (``e^η e^{−e^η}`` is 0 there).
CLOGLOG_ETA_MAX = 700.0


def _asarray(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


class Link(ABC):
    """Base class; subclasses define the four maps and ``valid_eta``.

    Attributes
    ----------
    name : str
        Our name (``"logit"``, ``"inverse_squared"``, ...).
    r_name : str
        R's name of the same link (``"logit"``, ``"1/mu^2"``, ...).
    """

    name = ""
    r_name = ""
    code = -1  # integer code of the compiled kernels (statlearning._core.glm_loss); -1: none

    @abstractmethod
    def link(self, mu):
        """``η = g(μ)``."""

    @abstractmethod
    def inverse(self, eta):
        """``μ = g⁻¹(η)``."""

    @abstractmethod
    def derivative(self, mu):
        """``dη/dμ`` at ``μ``."""

    @abstractmethod
    def inverse_derivative(self, eta):
        """``dμ/dη`` at ``η``."""

    def valid_eta(self, eta) -> bool:
        """Whether every ``η`` lies in the link's domain (R's ``valideta``)."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self).__name__)


class IdentityLink(Link):
    """``η = μ``."""

    name = r_name = "identity"
    code = 0

    def link(self, mu):
        return _asarray(mu).copy()

    def inverse(self, eta):
        return _asarray(eta).copy()

    def derivative(self, mu):
        return np.ones_like(_asarray(mu))

    def inverse_derivative(self, eta):
        return np.ones_like(_asarray(eta))


class LogLink(Link):
    """``η = log μ``; ``μ = max(exp η, ε)`` as R."""

    name = r_name = "log"
    code = 1

    def link(self, mu):
        return np.log(_asarray(mu))

    def inverse(self, eta):
        return np.maximum(np.exp(_asarray(eta)), EPS)

    def derivative(self, mu):
        return 1.0 / _asarray(mu)

    def inverse_derivative(self, eta):
        return np.maximum(np.exp(_asarray(eta)), EPS)


class LogitLink(Link):
    """``η = log(μ / (1 − μ))``; R's saturation for ``|η| > 30``."""

    name = r_name = "logit"
    code = 2

    def link(self, mu):
        mu = _asarray(mu)
        return np.log(mu / (1.0 - mu))

    def inverse(self, eta):
        eta = _asarray(eta)
        with np.errstate(over="ignore"):
            t = np.exp(np.clip(eta, -LOGIT_THRESH, LOGIT_THRESH))
        t = np.where(eta < -LOGIT_THRESH, EPS, np.where(eta > LOGIT_THRESH, 1.0 / EPS, t))
        return t / (1.0 + t)

    def derivative(self, mu):
        mu = _asarray(mu)
        return 1.0 / (mu * (1.0 - mu))

    def inverse_derivative(self, eta):
        eta = _asarray(eta)
        t = np.exp(np.clip(eta, -LOGIT_THRESH, LOGIT_THRESH))
        out = t / ((1.0 + t) * (1.0 + t))
        return np.where(np.abs(eta) > LOGIT_THRESH, EPS, out)


class ProbitLink(Link):
    """``η = Φ⁻¹(μ)``; ``η`` clamped to ``±Φ⁻¹(1 − ε)`` in the inverse, as R."""

    name = r_name = "probit"
    code = 3

    def link(self, mu):
        return special.ndtri(_asarray(mu))

    def inverse(self, eta):
        return special.ndtr(np.clip(_asarray(eta), -PROBIT_THRESH, PROBIT_THRESH))

    def derivative(self, mu):
        z = special.ndtri(_asarray(mu))
        return 1.0 / _norm_pdf(z)

    def inverse_derivative(self, eta):
        return np.maximum(_norm_pdf(_asarray(eta)), EPS)


def _norm_pdf(z):
    return np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi)


class CloglogLink(Link):
    """``η = log(−log(1 − μ))`` (complementary log-log)."""

    name = r_name = "cloglog"
    code = 4

    def link(self, mu):
        return np.log(-np.log1p(-_asarray(mu)))

    def inverse(self, eta):
        with np.errstate(over="ignore"):
            mu = -np.expm1(-np.exp(_asarray(eta)))
        return np.clip(mu, EPS, 1.0 - EPS)

    def derivative(self, mu):
        mu = _asarray(mu)
        return -1.0 / ((1.0 - mu) * np.log1p(-mu))

    def inverse_derivative(self, eta):
        eta = np.minimum(_asarray(eta), CLOGLOG_ETA_MAX)
        with np.errstate(over="ignore"):
            e = np.exp(eta)
        return np.maximum(e * np.exp(-e), EPS)


class InverseLink(Link):
    """``η = 1/μ`` (canonical for the Gamma family); ``η ≠ 0``."""

    name = "inverse"
    r_name = "inverse"

    def link(self, mu):
        return 1.0 / _asarray(mu)

    def inverse(self, eta):
        return 1.0 / _asarray(eta)

    def derivative(self, mu):
        mu = _asarray(mu)
        return -1.0 / (mu * mu)

    def inverse_derivative(self, eta):
        eta = _asarray(eta)
        return -1.0 / (eta * eta)

    def valid_eta(self, eta) -> bool:
        eta = _asarray(eta)
        return bool(np.all(np.isfinite(eta)) and np.all(eta != 0))


class InverseSquaredLink(Link):
    """``η = 1/μ²`` (canonical for the inverse Gaussian family); ``η > 0``."""

    name = "inverse_squared"
    r_name = "1/mu^2"

    def link(self, mu):
        mu = _asarray(mu)
        return 1.0 / (mu * mu)

    def inverse(self, eta):
        return 1.0 / np.sqrt(_asarray(eta))

    def derivative(self, mu):
        return -2.0 / _asarray(mu) ** 3

    def inverse_derivative(self, eta):
        return -1.0 / (2.0 * _asarray(eta) ** 1.5)

    def valid_eta(self, eta) -> bool:
        eta = _asarray(eta)
        return bool(np.all(np.isfinite(eta)) and np.all(eta > 0))


class SqrtLink(Link):
    """``η = √μ``; ``η > 0``."""

    name = r_name = "sqrt"

    def link(self, mu):
        return np.sqrt(_asarray(mu))

    def inverse(self, eta):
        eta = _asarray(eta)
        return eta * eta

    def derivative(self, mu):
        return 0.5 / np.sqrt(_asarray(mu))

    def inverse_derivative(self, eta):
        return 2.0 * _asarray(eta)

    def valid_eta(self, eta) -> bool:
        eta = _asarray(eta)
        return bool(np.all(np.isfinite(eta)) and np.all(eta > 0))


#: Every link by name.
LINKS: dict[str, Link] = {
    link.name: link
    for link in (
        IdentityLink(),
        LogLink(),
        LogitLink(),
        ProbitLink(),
        CloglogLink(),
        InverseLink(),
        InverseSquaredLink(),
        SqrtLink(),
    )
}

#: Integer codes of the links that the compiled kernels implement (:mod:`.glm_loss`).
LINK_CODES: dict[str, int] = {name: link.code for name, link in LINKS.items() if link.code >= 0}


def get_link(name) -> Link:
    """The link called ``name`` (a :class:`Link` is returned unchanged).

    Raises
    ------
    ValueError
        For an unknown name, listing the valid ones.
    """
    if isinstance(name, Link):
        return name
    try:
        return LINKS[name]
    except (KeyError, TypeError):
        valid = ", ".join(repr(n) for n in LINKS)
        raise ValueError(f"unknown link {name!r}; valid links are {valid}") from None
