"""Simulated classification data with a known Bayes classifier.

- :func:`make_mixture`: the two-class Gaussian-mixture data of ESL §2.3 (seed 004, E9), on
  which the notes compare least squares, 1-NN and 15-NN;
- :func:`make_islr_classification`: two Gaussian classes with unequal covariances, whose Bayes
  boundary is a conic (ISLR Figure 2.13's set-up: a curved boundary that a linear rule cannot
  follow).

Both can return the exact :class:`~statlearning.neighbors.BayesClassifier` of the simulated
population, whose ``bayes_error_rate()`` is the reference line of simulation studies. The draws
are deterministic given ``random_state``.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from sklearn.utils import check_random_state

__all__ = ["GaussianMixtureDensity", "make_islr_classification", "make_mixture"]


class GaussianMixtureDensity:
    """Density of a mixture of Gaussians with a common covariance, ``Σ_l w_l N(m_l, S)``.

    A frozen-distribution-like object (``pdf``, ``logpdf``, ``rvs``) usable as a class density
    of :class:`~statlearning.neighbors.BayesClassifier`.

    Parameters
    ----------
    means : array-like of shape (n_components, n_features)
        Component means ``m_l``, one per row (a 1-D array is one component).
    cov : array-like of shape (n_features, n_features)
        Common covariance ``S``, positive definite.
    weights : array-like of shape (n_components,), default=None
        Mixing weights ``w_l``, rescaled to sum to one (equal by default).

    Attributes
    ----------
    means : ndarray of shape (n_components, n_features)
        The component means.
    cov : ndarray of shape (n_features, n_features)
        The common covariance.
    weights : ndarray of shape (n_components,)
        The mixing weights, summing to one.
    """

    def __init__(self, means, cov, weights=None):
        self.means = np.atleast_2d(np.asarray(means, dtype=np.float64))
        L, d = self.means.shape
        self.cov = np.asarray(cov, dtype=np.float64).reshape(d, d)
        w = np.full(L, 1.0 / L) if weights is None else np.asarray(weights, dtype=np.float64)
        self.weights = w / w.sum()
        self._chol = np.linalg.cholesky(self.cov)
        self._log_norm = -0.5 * d * np.log(2 * np.pi) - np.sum(np.log(np.diag(self._chol)))

    @property
    def dim(self) -> int:
        """Number of features (the dimension of the density's support)."""
        return self.means.shape[1]

    def logpdf(self, x) -> np.ndarray:
        """Log density at the rows of ``x``.

        Parameters
        ----------
        x : array-like of shape (n_points, n_features)
            Points, one per row; a 1-D array of length ``dim`` is one point.

        Returns
        -------
        ndarray of shape (n_points,)
            ``log Σ_l w_l φ(x; m_l, S)``, computed stably (log-sum-exp over components).
        """
        x = np.asarray(x, dtype=np.float64).reshape(-1, self.dim)
        z = np.linalg.solve(self._chol, (x[:, None, :] - self.means[None]).reshape(-1, self.dim).T)
        maha = np.sum(z * z, axis=0).reshape(x.shape[0], -1)
        return logsumexp(np.log(self.weights) - 0.5 * maha, axis=1) + self._log_norm

    def pdf(self, x) -> np.ndarray:
        """Density at the rows of ``x``.

        Parameters
        ----------
        x : array-like of shape (n_points, n_features)
            Points, read as in :meth:`logpdf`.

        Returns
        -------
        ndarray of shape (n_points,)
            ``Σ_l w_l φ(x; m_l, S)``, the exponential of :meth:`logpdf`.
        """
        return np.exp(self.logpdf(x))

    def rvs(self, size=1, random_state=None) -> np.ndarray:
        """Draw random points from the mixture.

        Each draw picks a component ``l`` with probability ``w_l``, then a point from
        ``N(m_l, S)``.

        Parameters
        ----------
        size : int, default=1
            Number of draws.
        random_state : int, RandomState instance or None, default=None
            Seed of the draws; the same seed gives the same points.

        Returns
        -------
        ndarray of shape (size, n_features)
            The draws, one per row.
        """
        rng = check_random_state(random_state)
        comp = rng.choice(self.weights.size, size=size, p=self.weights)
        return self.means[comp] + rng.standard_normal((size, self.dim)) @ self._chol.T

    def __repr__(self) -> str:
        return f"GaussianMixtureDensity({self.weights.size} components in {self.dim} dimensions)"


def _check_n_samples(n_samples, name):
    if not isinstance(n_samples, Integral) or isinstance(n_samples, bool) or n_samples < 2:
        raise ValueError(f"{name}: n_samples must be an int >= 2; got {n_samples!r}")
    return int(n_samples)


def _bayes(densities, X, y):
    from ..neighbors import BayesClassifier

    return BayesClassifier(list(densities), priors=[0.5, 0.5]).fit(X, y)


def make_mixture(n_samples=200, *, random_state=None, return_bayes=False):
    """ESL's two-class Gaussian-mixture simulation (Hastie, Tibshirani & Friedman, §2.3).

    Ten means ``m_l`` are drawn from ``N((1, 0), I)`` for class BLUE (label 0) and ten from
    ``N((0, 1), I)`` for class ORANGE (label 1). Each observation picks one of its class's ten
    means with probability 1/10 and is drawn from ``N(m_l, I/5)``. Half the sample is BLUE and
    comes first, as in ESL (100 + 100 by default; the extra point of an odd ``n_samples`` is
    ORANGE).

    Parameters
    ----------
    n_samples : int, default=200
        Total number of points (at least 2).
    random_state : int, RandomState instance or None, default=None
        Seed of the draw (the 20 means are drawn first, so they do not depend on
        ``n_samples``).
    return_bayes : bool, default=False
        Also return the Bayes classifier of this draw's population.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The points, class BLUE first.
    y : ndarray of shape (n_samples,)
        0 (BLUE) or 1 (ORANGE).
    bayes : BayesClassifier
        Only when ``return_bayes=True``: fitted, with the two ten-component mixture densities
        (:class:`GaussianMixtureDensity`) and priors ``(1/2, 1/2)``. ``bayes.predict`` is the
        Bayes rule and ``bayes.bayes_error_rate()`` its error rate (by 2-D integration).

    Notes
    -----
    Seed 004's E9 uses these data (N = 200) to compare the least-squares classifier
    (``ŷ > 0.5``), 1-NN (no training error) and 15-NN; ESL's Figure 2.5 adds the Bayes
    boundary. ESL's own draw (R package ``ElemStatLearn``, ``mixture.example``) is not
    reproduced: only the generating process is.

    Examples
    --------
    >>> from statlearning.datasets import make_mixture
    >>> X, y, bayes = make_mixture(random_state=0, return_bayes=True)
    >>> X.shape, int(y.sum())
    ((200, 2), 100)
    >>> err = bayes.bayes_error_rate()
    >>> 0.0 < err.rate < 0.5
    True
    """
    n = _check_n_samples(n_samples, "make_mixture")
    rng = check_random_state(random_state)
    centres = np.array([[1.0, 0.0], [0.0, 1.0]])
    means = [rng.standard_normal((10, 2)) + c for c in centres]
    sd = np.sqrt(1.0 / 5.0)
    counts = (n // 2, n - n // 2)
    parts = []
    for m, n_k in zip(means, counts, strict=True):
        comp = rng.randint(0, 10, size=n_k)
        parts.append(m[comp] + sd * rng.standard_normal((n_k, 2)))
    X = np.vstack(parts)
    y = np.repeat([0, 1], counts)
    if not return_bayes:
        return X, y
    cov = np.eye(2) / 5.0
    return X, y, _bayes([GaussianMixtureDensity(m, cov) for m in means], X, y)


def make_islr_classification(n_samples=200, *, random_state=None, return_bayes=False):
    """Two Gaussian classes with unequal covariances: a curved (conic) Bayes boundary.

    Class 0 is ``N((0, 0), I)``; class 1 is ``N((1, 1), S)`` with
    ``S = [[2, 0.5], [0.5, 0.5]]``. The Bayes boundary ``{x : f_0(x) = f_1(x)}`` (equal priors)
    is a conic, so that a linear classifier is biased while kNN can follow it — the situation
    of ISLR's Figure 2.13 and seed 004's Figure 3 (Bayes boundary against kNN with k = 1, 10
    and 100). Half the sample is class 0 and comes first.

    Parameters
    ----------
    n_samples : int, default=200
        Total number of points (at least 2); the extra point of an odd ``n_samples`` is
        class 1.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.
    return_bayes : bool, default=False
        Also return the fitted Bayes classifier (two ``multivariate_normal`` densities,
        priors ``(1/2, 1/2)``).

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The points, class 0 first.
    y : ndarray of shape (n_samples,)
        Class labels, 0 or 1.
    bayes : BayesClassifier
        Only when ``return_bayes=True``: fitted on ``(X, y)`` with the two population
        densities, so ``bayes.predict`` is the Bayes rule and ``bayes.bayes_error_rate()``
        its error rate.

    Examples
    --------
    >>> from statlearning.datasets import make_islr_classification
    >>> X, y = make_islr_classification(100, random_state=1)
    >>> X.shape, int(y.sum())
    ((100, 2), 50)
    """
    n = _check_n_samples(n_samples, "make_islr_classification")
    rng = check_random_state(random_state)
    means = np.array([[0.0, 0.0], [1.0, 1.0]])
    covs = np.array([np.eye(2), [[2.0, 0.5], [0.5, 0.5]]])
    counts = (n // 2, n - n // 2)
    parts = [
        rng.standard_normal((n_k, 2)) @ np.linalg.cholesky(S).T + m
        for m, S, n_k in zip(means, covs, counts, strict=True)
    ]
    X = np.vstack(parts)
    y = np.repeat([0, 1], counts)
    if not return_bayes:
        return X, y
    return X, y, _bayes([multivariate_normal(m, S) for m, S in zip(means, covs, strict=True)], X, y)
