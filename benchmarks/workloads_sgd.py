"""Benchmark workloads of stochastic gradient descent: SGDClassifier / SGDRegressor against
scikit-learn's.

Five epochs (``max_iter=5, tol=None``) on 500,000 × 50. Without shuffling both libraries take
the same steps in the same order, so they return the same coefficients: ``predict`` (the
classifier's decision function, the regressor's prediction) is compared to a tight tolerance.
With shuffling the orders differ (each library draws its own permutations), so those workloads
compare held-out accuracy or R².
"""

from __future__ import annotations

import numpy as np

from workloads import Workload
from workloads_neural_network import accuracy, r2

EPOCHS = 5


def noisy_linear(rng: np.random.Generator, n_samples: int, n_features: int):
    """Standard Gaussian ``X`` (the scale SGD expects) and ``y = Xβ + 0.5 ε``, ``β ~ N(0, 1/p)``."""
    beta = rng.standard_normal(n_features) / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features))
    y = X @ beta
    y += 0.5 * rng.standard_normal(n_samples)
    return X, y


def noisy_labels(rng: np.random.Generator, n_samples: int, n_features: int):
    """The same design; ``y = 1[Xβ + 0.5 ε > 0]`` (about 9 % of the labels against the sign)."""
    X, y = noisy_linear(rng, n_samples, n_features)
    return X, (y > 0).astype(np.float64)


class _SGD:
    """An SGD estimator of statlearning or scikit-learn; predict = decision function
    (``labels=True``: the labels) or the regression."""

    def __init__(self, library, kind, labels=False, **params):
        self.library, self.kind, self.labels, self.params = library, kind, labels, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{library} SGD{kind}({args})"

    def fit(self, X, y):
        if self.library == "statlearning":
            from statlearning import linear_model as lm
        else:
            from sklearn import linear_model as lm
        self.estimator_ = getattr(lm, f"SGD{self.kind}")(**self.params).fit(X, y)
        return self

    def predict(self, X):
        if self.kind == "Classifier" and not self.labels:
            return self.estimator_.decision_function(X)
        return self.estimator_.predict(X).astype(np.float64)


_FIXED = {"max_iter": EPOCHS, "tol": None, "shuffle": False}
_SHUFFLED = {"max_iter": EPOCHS, "tol": None, "random_state": 0}
_N, _P = 500_000, 50

WORKLOADS: list[Workload] = [
    Workload(
        name="sgd_classifier_hinge_500k_x50",
        description=f"SGDClassifier(hinge, l2, 'optimal'), {EPOCHS} epochs, no shuffling "
        f"(same steps, same coefficients), {_N:,} × {_P} vs scikit-learn",
        n_samples=_N,
        n_features=_P,
        ours=lambda: _SGD("statlearning", "Classifier", **_FIXED),
        peer=lambda: _SGD("sklearn", "Classifier", **_FIXED),
        data=noisy_labels,
        rtol=1e-6,
    ),
    Workload(
        name="sgd_regressor_500k_x50",
        description=f"SGDRegressor(squared_error, l2, 'invscaling'), {EPOCHS} epochs, no "
        f"shuffling (same steps, same coefficients), {_N:,} × {_P} vs scikit-learn",
        n_samples=_N,
        n_features=_P,
        ours=lambda: _SGD("statlearning", "Regressor", **_FIXED),
        peer=lambda: _SGD("sklearn", "Regressor", **_FIXED),
        data=noisy_linear,
        rtol=1e-6,
    ),
    Workload(
        name="sgd_classifier_hinge_500k_x50_shuffled",
        description=f"SGDClassifier(hinge), {EPOCHS} shuffled epochs; held-out accuracy",
        n_samples=_N,
        n_features=_P,
        ours=lambda: _SGD("statlearning", "Classifier", True, **_SHUFFLED),
        peer=lambda: _SGD("sklearn", "Classifier", True, **_SHUFFLED),
        data=noisy_labels,
        holdout=50_000,
        score=accuracy,
    ),
    Workload(
        name="sgd_regressor_500k_x50_shuffled",
        description=f"SGDRegressor(squared_error), {EPOCHS} shuffled epochs; held-out R²",
        n_samples=_N,
        n_features=_P,
        ours=lambda: _SGD("statlearning", "Regressor", **_SHUFFLED),
        peer=lambda: _SGD("sklearn", "Regressor", **_SHUFFLED),
        data=noisy_linear,
        holdout=50_000,
        score=r2,
    ),
]
