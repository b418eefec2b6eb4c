"""Benchmark workloads of the kernel machines (loaded by ``workloads.py``).

* ``KernelRidge(kernel="rbf")`` fit on 5,000 × 20 (an RBF Gram of 25 million entries and its
  Cholesky factorisation) and predict on the same 5,000 rows, against scikit-learn's
  ``KernelRidge`` with the same ``alpha`` and ``gamma``;
* ``KernelDensity`` (Gaussian, bandwidth 0.5, exact) fitted on 50,000 points in 3 dimensions,
  ``score_samples`` of the first 10,000 of them, against scikit-learn's ``KernelDensity``
  (its KD-tree with ``atol = rtol = 0``, i.e. exact as well).
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]

N_QUERIES = 10_000
KRR_PARAMS = {"alpha": 1.0, "kernel": "rbf", "gamma": 0.05}
KDE_PARAMS = {"bandwidth": 0.5, "kernel": "gaussian"}


def smooth_regression(rng: np.random.Generator, n_samples: int, n_features: int):
    """Gaussian ``X`` and a smooth nonlinear response with noise."""
    X = rng.standard_normal((n_samples, n_features))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.standard_normal(n_samples)
    return X, y


def density_sample(rng: np.random.Generator, n_samples: int, n_features: int):
    """A two-component Gaussian mixture (``y`` is unused by the density estimators)."""
    centre = np.where(rng.uniform(size=n_samples) < 0.3, 2.0, 0.0)
    X = rng.standard_normal((n_samples, n_features)) + centre[:, None]
    return X, np.zeros(n_samples)


class _Adapter:
    def __init__(self, module: str, cls: str, params: dict, label: str, method: str, rows=None):
        self.module, self.cls, self.params, self.method, self.rows = (
            module, cls, params, method, rows,
        )  # fmt: skip
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{label} {cls}({args})"

    def fit(self, X, y) -> Adapter:
        import importlib

        cls = getattr(importlib.import_module(self.module), self.cls)
        est = cls(**self.params)
        self.estimator_ = est.fit(X, y) if self.method == "predict" else est.fit(X)
        return self

    def predict(self, X):
        X = X if self.rows is None else X[: self.rows]
        return getattr(self.estimator_, self.method)(X)


WORKLOADS: list[Workload] = [
    Workload(
        name="kernel_ridge_rbf_5k_x20",
        description="KernelRidge (RBF, gamma = 0.05, alpha = 1): fit on 5,000 × 20, predict "
        "the same rows; vs scikit-learn",
        n_samples=5_000,
        n_features=20,
        ours=lambda: _Adapter(
            "statlearning.kernel_methods", "KernelRidge", KRR_PARAMS, "statlearning", "predict"
        ),
        peer=lambda: _Adapter(
            "sklearn.kernel_ridge", "KernelRidge", KRR_PARAMS, "sklearn", "predict"
        ),
        data=smooth_regression,
        rtol=1e-8,
    ),
    Workload(
        name="kernel_density_50k_x3",
        description="KernelDensity (Gaussian, bandwidth 0.5, exact): fit on 50,000 points in 3 "
        "dimensions, score_samples of 10,000 of them; vs scikit-learn (KD-tree, atol = rtol = 0)",
        n_samples=50_000,
        n_features=3,
        ours=lambda: _Adapter(
            "statlearning.neighbors",
            "KernelDensity",
            KDE_PARAMS,
            "statlearning",
            "score_samples",
            N_QUERIES,
        ),
        peer=lambda: _Adapter(
            "sklearn.neighbors",
            "KernelDensity",
            KDE_PARAMS,
            "sklearn",
            "score_samples",
            N_QUERIES,
        ),
        data=density_sample,
        rtol=1e-8,
    ),
]
