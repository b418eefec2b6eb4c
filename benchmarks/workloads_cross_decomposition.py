"""Benchmark workloads of the cross-decomposition family (loaded by ``workloads.py``).

* ``PLSRegression(5)`` on 100,000 × 100 with one response (both libraries with ``scale=True``:
  scaling the one response does not change PLS1's predictions) and with five responses (both
  with ``scale=False``: scikit-learn's ``scale=True`` also scales ``Y``, which changes PLS2).
  ``predict`` is the regression's prediction. For several responses scikit-learn's NIPALS inner
  loop stops at its ``tol=1e-6`` and its predictions are off the exact PLS2 fit by about 1e-3
  of sd(Y) (3e-7 even with ``tol=1e-13``), whereas ours agree with the exact dominant
  eigenvectors (``algorithm="kernel"``) to 1e-13: that workload allows ``rtol=2e-3``.
* ``CCA(2)`` on 50,000 rows of a 20-column ``X`` and a 10-column ``Y`` sharing three latent
  factors. ``predict`` returns the canonical correlations (ours: ``correlations_``;
  scikit-learn's: the correlations of its paired scores), so ``rtol`` bounds their difference
  relative to their spread; scikit-learn iterates NIPALS to ``tol=1e-6``.
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]


def _latent_blocks(rng, n_samples, n_features, n_targets):
    """``X`` and ``Y`` sharing three standard normal factors, with noise."""
    Z = rng.standard_normal((n_samples, 3))
    X = Z @ rng.standard_normal((3, n_features)) + rng.standard_normal((n_samples, n_features))
    Y = Z @ rng.standard_normal((3, n_targets)) + rng.standard_normal((n_samples, n_targets))
    return X, Y


def _one(rng, n_samples, n_features):
    X, Y = _latent_blocks(rng, n_samples, n_features, 1)
    return X, Y[:, 0]


def pls_one(rng: np.random.Generator, n_samples: int, n_features: int):
    """Predictors sharing three factors with one response."""
    return _one(rng, n_samples, n_features)


def pls_five(rng: np.random.Generator, n_samples: int, n_features: int):
    """Predictors sharing three factors with five responses."""
    return _latent_blocks(rng, n_samples, n_features, 5)


def cca_blocks(rng: np.random.Generator, n_samples: int, n_features: int):
    """``X`` with ``n_features`` columns and ``Y`` with 10, sharing three factors."""
    return _latent_blocks(rng, n_samples, n_features, 10)


class _PLS:
    """``<library> PLSRegression(5, scale=...)``: fit, then predict."""

    def __init__(self, library: str, scale: bool):
        self.library, self.scale = library, scale
        self.label = f"{library} PLSRegression(5, scale={scale})"

    def fit(self, X, y) -> Adapter:
        if self.library == "statlearning":
            from statlearning.cross_decomposition import PLSRegression
        else:
            from sklearn.cross_decomposition import PLSRegression
        self.estimator_ = PLSRegression(5, scale=self.scale).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class _CCA:
    """``<library> CCA(2)``: fit; ``predict`` returns the canonical correlations."""

    def __init__(self, library: str):
        self.library = library
        self.label = f"{library} CCA(2)"

    def fit(self, X, y) -> Adapter:
        if self.library == "statlearning":
            from statlearning.cross_decomposition import CCA

            self.estimator_ = CCA(2).fit(X, y)
            self.rho_ = self.estimator_.correlations_
        else:
            from sklearn.cross_decomposition import CCA

            self.estimator_ = CCA(2).fit(X, y)
            u, v = self.estimator_.transform(X, y)
            self.rho_ = np.array([abs(np.corrcoef(u[:, j], v[:, j])[0, 1]) for j in range(2)])
        return self

    def predict(self, X):
        return self.rho_


WORKLOADS: list[Workload] = [
    Workload(
        name="pls5_100k_x100_y1",
        description="PLSRegression(5, scale=True), 100,000 × 100 (three latent factors), one "
        "response; vs scikit-learn PLSRegression(5)",
        n_samples=100_000,
        n_features=100,
        ours=lambda: _PLS("statlearning", True),
        peer=lambda: _PLS("sklearn", True),
        data=pls_one,
        rtol=1e-8,
    ),
    Workload(
        name="pls5_100k_x100_y5",
        description="PLSRegression(5, scale=False), 100,000 × 100 (three latent factors), five "
        "responses; vs scikit-learn PLSRegression(5, scale=False)",
        n_samples=100_000,
        n_features=100,
        ours=lambda: _PLS("statlearning", False),
        peer=lambda: _PLS("sklearn", False),
        data=pls_five,
        rtol=2e-3,
    ),
    Workload(
        name="cca2_50k_x20_y10",
        description="CCA(2), 50,000 × 20 and × 10 (three shared factors); vs scikit-learn "
        "CCA(2); accuracy: the canonical correlations",
        n_samples=50_000,
        n_features=20,
        ours=lambda: _CCA("statlearning"),
        peer=lambda: _CCA("sklearn"),
        data=cca_blocks,
        rtol=1e-4,
    ),
]
