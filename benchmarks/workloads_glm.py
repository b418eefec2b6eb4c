"""Benchmark workloads of the GLM family: GLMRegressor against scikit-learn and statsmodels.

* Penalised Poisson regression: ``GLMRegressor(family="poisson", alpha=a)`` and scikit-learn's
  ``PoissonRegressor(alpha=a)`` minimise the same objective, ``D/(2n) + (a/2)‖β‖²`` (mean
  half-deviance plus a ridge penalty on the slopes), both by L-BFGS (ours by default for ridge
  fits, with a one-pass compiled loss and gradient) with the same gradient tolerance ``1e-8``
  (scikit-learn's default is ``1e-4``), so that both reach the optimum to the accuracy checked
  by the runner.
* Maximum likelihood with inference: ``GLMRegressor(family="poisson")`` then
  ``str(summary())``, against statsmodels' ``GLM(y, add_constant(X), family=Poisson()).fit()``
  then ``str(summary())`` — what a user runs to read R's ``summary(glm)`` table.

``predict`` returns the fitted means, which the runner compares.
"""

from __future__ import annotations

import numpy as np

from workloads import Workload


def poisson_counts(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian ``X`` and counts ``y ~ Poisson(exp(0.5 + Xβ))`` with ``β ~ N(0, 0.25/p)``.

    The coefficients are drawn first, so ``--quick`` runs fit the same model on fewer rows;
    ``Var(Xβ) ≈ 0.25`` keeps the means moderate (about 1.9 on average).
    """
    beta = rng.standard_normal(n_features) * (0.5 / np.sqrt(n_features))
    X = rng.standard_normal((n_samples, n_features))
    eta = X @ beta
    eta += 0.5
    y = rng.poisson(np.exp(eta)).astype(np.float64)
    return X, y


class StatlearningGLM:
    """``statlearning.linear_model.GLMRegressor(**params)`` (then ``str(summary())`` if asked)."""

    def __init__(self, *, summary: bool = False, **params):
        self.params = params
        self.summary = summary
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        suffix = " + str(summary())" if summary else ""
        self.label = f"statlearning GLMRegressor({args}){suffix}"

    def fit(self, X, y):
        from statlearning.linear_model import GLMRegressor

        self.estimator_ = GLMRegressor(**self.params).fit(X, y)
        if self.summary:
            self.summary_ = str(self.estimator_.summary())  # rendered, as a user prints it
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class SklearnPoisson:
    """``sklearn.linear_model.PoissonRegressor(**params)``."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"sklearn PoissonRegressor({args})"

    def fit(self, X, y):
        from sklearn.linear_model import PoissonRegressor

        self.estimator_ = PoissonRegressor(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class StatsmodelsPoissonGLM:
    """``sm.GLM(y, sm.add_constant(X), family=Poisson()).fit()`` then ``str(summary())``.

    Adding the constant column is what a statsmodels user must do to get an intercept, so it is
    part of the timed fit (and of ``predict``).
    """

    label = "statsmodels GLM(y, add_constant(X), family=Poisson()).fit() + str(summary())"

    def fit(self, X, y):
        import statsmodels.api as sm

        model = sm.GLM(y, sm.add_constant(X), family=sm.families.Poisson())
        self.results_ = model.fit()
        self.summary_ = str(self.results_.summary())  # rendered, as a user prints it
        return self

    def predict(self, X):
        import statsmodels.api as sm

        return self.results_.predict(sm.add_constant(X))


WORKLOADS: list[Workload] = [
    Workload(
        name="glm_poisson_ridge_100k_x50",
        description="Poisson regression with a ridge penalty alpha=0.01, 100,000 × 50 (same "
        "objective) vs scikit-learn PoissonRegressor (L-BFGS, tol=1e-8)",
        n_samples=100_000,
        n_features=50,
        ours=lambda: StatlearningGLM(family="poisson", alpha=0.01),
        peer=lambda: SklearnPoisson(alpha=0.01, tol=1e-8, max_iter=1000),
        data=poisson_counts,
        rtol=1e-6,
    ),
    Workload(
        name="glm_poisson_summary_100k_x50",
        description="Poisson GLM by maximum likelihood with R's summary table, 100,000 × 50: "
        "GLMRegressor(family='poisson').fit().summary() vs statsmodels GLM(...).fit().summary()",
        n_samples=100_000,
        n_features=50,
        ours=lambda: StatlearningGLM(family="poisson", summary=True),
        peer=lambda: StatsmodelsPoissonGLM(),
        data=poisson_counts,
        rtol=1e-6,
    ),
    Workload(
        name="glm_poisson_newton_80k_x40",
        description="unpenalised Poisson GLM, 80,000 × 40: GLMRegressor(family='poisson') (R's "
        "glm.fit with its inference, computed at fit) vs scikit-learn PoissonRegressor(alpha=0, "
        "solver='newton-cholesky', tol=1e-8)",
        n_samples=80_000,
        n_features=40,
        ours=lambda: StatlearningGLM(family="poisson"),
        peer=lambda: SklearnPoisson(alpha=0.0, solver="newton-cholesky", tol=1e-8),
        data=poisson_counts,
        rtol=1e-6,
    ),
]
