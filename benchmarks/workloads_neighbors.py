"""Benchmark workloads of the nearest-neighbour family (loaded by ``workloads.py``).

``KNeighborsClassifier.predict`` of 10,000 queries against 50,000 training points, at 10 and 50
features, against scikit-learn's ``KNeighborsClassifier``, both with ``algorithm="auto"`` (each
library's own automatic choice: at 10 features scikit-learn builds a KD-tree and we use brute
force, at 50 both use brute force).

The runner passes one ``X`` to both ``fit`` and ``predict``; the adapters' ``predict(X)``
therefore queries the first 10,000 rows of ``X`` (training points themselves: each query's
nearest neighbour is its own row, as when scoring on the training set). ``fit`` stores the
50,000 training points (and builds the search index).
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]

N_QUERIES = 10_000


def gaussian_three_classes(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """Dense Gaussian ``X`` and three classes from a noisy nonlinear rule of two features.

    Labels are floats 0, 1, 2 (the runner compares predictions numerically).
    """
    X = rng.standard_normal((n_samples, n_features))
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.5 * rng.standard_normal(n_samples)
    y = np.digitize(score, [-0.3, 0.9]).astype(np.float64)
    return X, y


class StatlearningKNN:
    """``statlearning.neighbors.KNeighborsClassifier(**params)``; predict on the first rows."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"statlearning KNeighborsClassifier({args}).predict(X[:{N_QUERIES:,}])"

    def fit(self, X, y) -> Adapter:
        from statlearning.neighbors import KNeighborsClassifier

        self.estimator_ = KNeighborsClassifier(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X[:N_QUERIES])


class SklearnKNN:
    """``sklearn.neighbors.KNeighborsClassifier(**params)``; predict on the first rows."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"sklearn KNeighborsClassifier({args}).predict(X[:{N_QUERIES:,}])"

    def fit(self, X, y) -> Adapter:
        from sklearn.neighbors import KNeighborsClassifier

        self.estimator_ = KNeighborsClassifier(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X[:N_QUERIES])


WORKLOADS: list[Workload] = [
    Workload(
        name=f"knn_predict_50k_x{p}",
        description=f"kNN classifier (k = 5, Euclidean, algorithm='auto'): predict 10,000 "
        f"queries against 50,000 training points, {p} features, 3 classes; vs scikit-learn",
        n_samples=50_000,
        n_features=p,
        ours=lambda: StatlearningKNN(),
        peer=lambda: SklearnKNN(),
        data=gaussian_three_classes,
        rtol=0.0,
    )
    for p in (10, 50)
]
