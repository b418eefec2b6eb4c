"""Benchmark workloads of the neural networks: MLPClassifier / MLPRegressor against
scikit-learn's.

Both libraries draw the same initial weights and the same shuffles from the same seed and run
the same number of epochs (``tol=0`` with ``n_iter_no_change`` above ``max_iter``, so neither
stops early), so in float64 they return the same network: ``predict`` (class probabilities,
or the regression output) is compared to a tight tolerance. The float32 workloads run our
float32 path against scikit-learn in float64 on the same data; float32 rounding takes the
stochastic trajectory elsewhere, so they compare held-out accuracy or R² instead.
"""

from __future__ import annotations

import numpy as np

from workloads import Workload

EPOCHS_CLF, EPOCHS_REG = 20, 10


def accuracy(y, labels) -> float:
    return float(np.mean(np.asarray(y) == np.asarray(labels)))


def r2(y, pred) -> float:
    y = np.asarray(y, dtype=np.float64)
    return float(1.0 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2))


def classes_5(rng: np.random.Generator, n_samples: int, n_features: int):
    """Gaussian ``X``; five classes from the arg-max of a random linear map plus noise."""
    B = rng.standard_normal((n_features, 5)) / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features))
    y = np.argmax(X @ B + 0.5 * rng.standard_normal((n_samples, 5)), axis=1)
    return X, y


def smooth_response(rng: np.random.Generator, n_samples: int, n_features: int):
    """Gaussian ``X``; ``y = sin(x₀) + x₁x₂ + 0.5 tanh(Xβ) + noise``."""
    beta = rng.standard_normal(n_features) / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features))
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.5 * np.tanh(X @ beta)
    y += 0.1 * rng.standard_normal(n_samples)
    return X, y


class _MLP:
    """An MLP of statlearning or scikit-learn; predict = probabilities (labels with
    ``labels=True``) or the regression."""

    def __init__(self, library, kind, labels=False, **params):
        self.library, self.kind, self.labels, self.params = library, kind, labels, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{library} MLP{kind}({args})"

    def fit(self, X, y):
        if self.library == "statlearning":
            from statlearning import neural_network as nn
        else:
            from sklearn import neural_network as nn
        cls = getattr(nn, f"MLP{self.kind}")
        self.estimator_ = cls(**self.params).fit(X, y)
        return self

    def predict(self, X):
        if self.kind == "Classifier" and not self.labels:
            return self.estimator_.predict_proba(X).astype(np.float64)
        return self.estimator_.predict(X).astype(np.float64)


_RUN_ALL = {"tol": 0.0, "n_iter_no_change": 10_000, "random_state": 0}
_CLF = {"hidden_layer_sizes": (64, 64), "solver": "adam", "max_iter": EPOCHS_CLF, **_RUN_ALL}
_REG = {"hidden_layer_sizes": (128,), "max_iter": EPOCHS_REG, "learning_rate_init": 1e-3,
        "momentum": 0.9, **_RUN_ALL}  # fmt: skip
_SK_MOMENTUM = {"solver": "sgd", "nesterovs_momentum": False}

WORKLOADS: list[Workload] = [
    Workload(
        name="mlp_classifier_adam_50k_x50",
        description=f"MLPClassifier((64, 64), adam), 5 classes, {EPOCHS_CLF} epochs, batch 200,"
        " 50,000 × 50, same seed (same network) vs scikit-learn",
        n_samples=50_000,
        n_features=50,
        ours=lambda: _MLP("statlearning", "Classifier", **_CLF),
        peer=lambda: _MLP("sklearn", "Classifier", **_CLF),
        data=classes_5,
        rtol=1e-6,
    ),
    Workload(
        name="mlp_classifier_adam_50k_x50_float32",
        description="the same network in float32 (ours) vs scikit-learn in float64",
        n_samples=50_000,
        n_features=50,
        ours=lambda: _MLP("statlearning", "Classifier", True, dtype=np.float32, **_CLF),
        peer=lambda: _MLP("sklearn", "Classifier", True, **_CLF),
        data=classes_5,
        holdout=10_000,
        score=accuracy,
    ),
    Workload(
        name="mlp_regressor_momentum_100k_x20",
        description=f"MLPRegressor((128,)), SGD with heavy-ball momentum 0.9, {EPOCHS_REG} "
        "epochs, batch 200, 100,000 × 20, same seed (same network) vs scikit-learn",
        n_samples=100_000,
        n_features=20,
        ours=lambda: _MLP("statlearning", "Regressor", solver="momentum", **_REG),
        peer=lambda: _MLP("sklearn", "Regressor", **_SK_MOMENTUM, **_REG),
        data=smooth_response,
        rtol=1e-6,
    ),
    Workload(
        name="mlp_regressor_momentum_100k_x20_float32",
        description="the same network in float32 (ours) vs scikit-learn in float64",
        n_samples=100_000,
        n_features=20,
        ours=lambda: _MLP("statlearning", "Regressor", solver="momentum", dtype=np.float32, **_REG),
        peer=lambda: _MLP("sklearn", "Regressor", **_SK_MOMENTUM, **_REG),
        data=smooth_response,
        holdout=10_000,
        score=r2,
    ),
]
