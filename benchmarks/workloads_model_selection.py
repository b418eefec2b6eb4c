"""Benchmark workloads of model selection: the bootstrap of OLS coefficients and cv_estimate.

Both sides draw the same 1,000 resamples (``RandomState(0).randint(0, n, (1000, n))``) and
compute the bootstrap standard errors of the slopes. Ours solves the resamples in batches from
their weighted Gram matrices; the peer is the plain loop a user would write over scikit-learn's
``LinearRegression``. ``predict`` returns the standard errors, so the runner's accuracy check
compares them (they agree to rounding).

``cv_estimate(Ridge(), X, y, cv=10)`` is compared with scikit-learn's ``cross_val_score`` on the
same folds (unshuffled 10-fold): once with our ``Ridge`` on both sides, which isolates what
``cv_estimate`` adds (its summaries) to scikit-learn's loop, and once against
``cross_val_score(sklearn.linear_model.Ridge())``, what a user of scikit-learn runs.
``predict`` returns the ten fold scores (R²), which agree to rounding.
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


class StatlearningCVEstimate:
    """``statlearning.model_selection.cv_estimate(Ridge(), X, y, cv=10)``."""

    label = "statlearning cv_estimate(statlearning Ridge(), cv=10)"

    def fit(self, X, y):
        from statlearning.linear_model import Ridge
        from statlearning.model_selection import cv_estimate

        self.result_ = cv_estimate(Ridge(), X, y, cv=10)
        return self

    def predict(self, X):
        return self.result_.scores


class SklearnCrossValScore:
    """``sklearn.model_selection.cross_val_score(Ridge(), X, y, cv=10)``."""

    def __init__(self, ridge="sklearn"):
        self.ridge = ridge
        self.label = f"sklearn cross_val_score({ridge} Ridge(), cv=10)"

    def fit(self, X, y):
        from sklearn.model_selection import cross_val_score

        if self.ridge == "sklearn":
            from sklearn.linear_model import Ridge
        else:
            from statlearning.linear_model import Ridge
        self.scores_ = cross_val_score(Ridge(), X, y, cv=10)
        return self

    def predict(self, X):
        return self.scores_


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
    Workload(
        name="cv_estimate_ridge_50k_x40",
        description="10-fold CV of Ridge, 50,000 × 40, our Ridge on both sides: cv_estimate "
        "(scores + summaries) vs scikit-learn's cross_val_score loop",
        n_samples=50_000,
        n_features=40,
        ours=lambda: StatlearningCVEstimate(),
        peer=lambda: SklearnCrossValScore("statlearning"),
    ),
    Workload(
        name="cv_estimate_vs_sklearn_ridge_50k_x40",
        description="10-fold CV of Ridge, 50,000 × 40: cv_estimate(statlearning Ridge) vs "
        "cross_val_score(sklearn Ridge)",
        n_samples=50_000,
        n_features=40,
        ours=lambda: StatlearningCVEstimate(),
        peer=lambda: SklearnCrossValScore("sklearn"),
    ),
]
