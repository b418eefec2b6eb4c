"""Benchmark workloads of the ridge family: Ridge against scikit-learn's Ridge.

Both sides minimise the same objective, ``‖y − b0 − Xβ‖² + alpha‖β‖²`` with an unpenalised
intercept, in closed form, so their predictions agree to rounding; the runner compares them.
"""

from __future__ import annotations

from workloads import Workload


class StatlearningRidge:
    """``statlearning.linear_model.Ridge(**params)``; ``fit`` then ``predict``."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"statlearning Ridge({args})"

    def fit(self, X, y):
        from statlearning.linear_model import Ridge

        self.estimator_ = Ridge(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class SklearnRidge:
    """``sklearn.linear_model.Ridge(**params)``; ``fit`` then ``predict``."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"sklearn Ridge({args})"

    def fit(self, X, y):
        from sklearn.linear_model import Ridge

        self.estimator_ = Ridge(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


WORKLOADS: list[Workload] = [
    Workload(
        name="ridge_500k_x100",
        description="ridge with intercept, alpha=1, dense Gaussian X 500,000 × 100 (400 MB); "
        "default solver (Cholesky on blockwise-centred XᵀX) vs scikit-learn (auto: cholesky)",
        n_samples=500_000,
        n_features=100,
        ours=lambda: StatlearningRidge(alpha=1.0),
        peer=lambda: SklearnRidge(alpha=1.0),
    ),
]
