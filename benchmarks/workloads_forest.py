"""Benchmark workloads of the ensemble family: random forests (loaded by ``workloads.py``).

``RandomForestClassifier(n_estimators=100, min_samples_split=10, max_features="log2",
random_state=0)`` on ``make_classification`` 50,000 × 100 (10 informative features), default
``n_jobs`` (one thread) for both libraries, against scikit-learn with the same parameters. The
forests are random, so the runner fits on 50,000 rows, times ``predict`` on 100,000 held-out
rows and compares the held-out accuracy (ours may be lower by at most 0.01).
"""

from __future__ import annotations

import numpy as np

from workloads import Workload

__all__ = ["WORKLOADS"]

_PARAMS = {"n_estimators": 100, "min_samples_split": 10, "max_features": "log2",
           "random_state": 0}


def classification_data(rng: np.random.Generator, n_samples: int, n_features: int):
    """``make_classification``: 10 informative features, the rest noise; labels 0/1."""
    from sklearn.datasets import make_classification

    return make_classification(n_samples=n_samples, n_features=n_features, n_informative=10,
                               n_redundant=0, random_state=int(rng.integers(2**31 - 1)))


def accuracy(y, pred) -> float:
    return float(np.mean(np.asarray(y) == np.asarray(pred)))


class _ForestAdapter:
    """``<library> RandomForestClassifier(**params)``: fit, then predict."""

    def __init__(self, library: str, **params):
        self.library, self.params = library, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{library} RandomForestClassifier({args})"

    def fit(self, X, y):
        if self.library == "statlearning":
            from statlearning.ensemble import RandomForestClassifier
        else:
            from sklearn.ensemble import RandomForestClassifier
        self.estimator_ = RandomForestClassifier(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


WORKLOADS: list[Workload] = [
    Workload(
        name="forest_classifier_50k_x100_log2",
        description="RandomForestClassifier(100 trees, min_samples_split=10, max_features="
        "'log2'), make_classification 50,000 × 100; fit, predict on 100,000 held-out rows, "
        "held-out accuracy; vs scikit-learn",
        n_samples=50_000,
        n_features=100,
        ours=lambda: _ForestAdapter("statlearning", **_PARAMS),
        peer=lambda: _ForestAdapter("sklearn", **_PARAMS),
        data=classification_data,
        holdout=100_000,
        score=accuracy,
        score_tol=0.01,
    ),
]
