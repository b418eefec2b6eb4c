"""Benchmark workloads of model selection: the bootstrap of OLS coefficients.

Both sides draw the same 1,000 resamples (``RandomState(0).randint(0, n, (1000, n))``) and
compute the bootstrap standard errors of the slopes. Ours solves the resamples in batches from
their weighted Gram matrices; the peer is the plain loop a user would write over scikit-learn's
``LinearRegression``. ``predict`` returns the standard errors, so the runner's accuracy check
compares them (they agree to rounding).
"""

from __future__ import annotations

import numpy as np

from workloads import Workload

N_RESAMPLES = 1000


class StatlearningBootstrapOLS:
    """``statlearning.model_selection.bootstrap(LinearRegression(), X, y, attribute="coef_")``."""

    label = f"statlearning bootstrap(LinearRegression, B={N_RESAMPLES})"

    def fit(self, X, y):
        from statlearning.linear_model import LinearRegression
        from statlearning.model_selection import bootstrap

        self.result_ = bootstrap(
            LinearRegression(), X, y, attribute="coef_", n_resamples=N_RESAMPLES, random_state=0
        )
        return self

    def predict(self, X):
        return self.result_.se


class SklearnBootstrapLoop:
    """A Python loop of scikit-learn ``LinearRegression`` fits over the same resamples."""

    label = f"loop of sklearn LinearRegression (B={N_RESAMPLES})"

    def fit(self, X, y):
        from sklearn.linear_model import LinearRegression

        n = X.shape[0]
        idx = np.random.RandomState(0).randint(0, n, size=(N_RESAMPLES, n))
        coefs = np.array([LinearRegression().fit(X[i], y[i]).coef_ for i in idx])
        self.se_ = coefs.std(axis=0, ddof=1)
        return self

    def predict(self, X):
        return self.se_


WORKLOADS: list[Workload] = [
    Workload(
        name="bootstrap_ols_10k_x20",
        description="pairs bootstrap of OLS slopes, 1,000 resamples of 10,000 × 20: batched "
        "weighted Gram matrices vs a loop over scikit-learn's LinearRegression",
        n_samples=10_000,
        n_features=20,
        ours=lambda: StatlearningBootstrapOLS(),
        peer=lambda: SklearnBootstrapLoop(),
    ),
]
