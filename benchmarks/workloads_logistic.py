"""Benchmark workloads of the logistic family: LogisticRegression against scikit-learn.

Both sides minimise the same objective, ``C Σ log-loss + ½‖β‖²`` (scikit-learn's, and ours with
``penalty="l2"``), with L-BFGS-B and the same gradient tolerance (``tol=1e-8`` on the gradient of
the mean objective), so that they reach the same optimum: ``predict`` returns the probability of
the positive class, which the runner compares.
"""

from __future__ import annotations

import numpy as np

from workloads import Workload


def logistic_binary(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian ``X`` and ``y ~ Bernoulli(σ(0.5 + Xβ))`` with ``β ~ N(0, 1/p)``.

    The coefficients are drawn first, so ``--quick`` runs fit the same model on fewer rows;
    ``Var(Xβ) ≈ 1`` keeps the classes overlapping (a well-posed maximum-likelihood problem).
    """
    beta = rng.standard_normal(n_features) / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features))
    eta = X @ beta
    eta += 0.5
    y = (rng.random(n_samples) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)
    return X, y


def logistic_nearly_separable(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian ``X`` and ``y ~ Bernoulli(σ(3·Xβ))`` with ``β ~ N(0, 1)``: strong signal.

    ``Var(η) ≈ 9p``: most fitted probabilities are numerically 0 or 1 (|η| up to ~150 at p =
    100), yet the classes overlap, so the maximum-likelihood estimate exists. This is the case
    where the separation check must not cost more than the fit.
    """
    beta = rng.standard_normal(n_features)
    X = rng.standard_normal((n_samples, n_features))
    eta = 3.0 * (X @ beta)
    y = (rng.random(n_samples) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)
    return X, y


class StatlearningLogistic:
    """``statlearning.linear_model.LogisticRegression(**params)``; predict = P(y = 1)."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"statlearning LogisticRegression({args})"

    def fit(self, X, y):
        from statlearning.linear_model import LogisticRegression

        self.estimator_ = LogisticRegression(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict_proba(X)[:, 1]


class SklearnLogistic:
    """``sklearn.linear_model.LogisticRegression(**params)``; predict = P(y = 1)."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"sklearn LogisticRegression({args})"

    def fit(self, X, y):
        from sklearn.linear_model import LogisticRegression

        self.estimator_ = LogisticRegression(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict_proba(X)[:, 1]


WORKLOADS: list[Workload] = [
    Workload(
        name="logistic_l2_lbfgs_100k_x100",
        description="binary logistic regression, l2 penalty C=1, L-BFGS, 100,000 × 100 "
        "(same objective and gradient tolerance 1e-8) vs scikit-learn",
        n_samples=100_000,
        n_features=100,
        ours=lambda: StatlearningLogistic(penalty="l2", C=1.0, solver="lbfgs", tol=1e-8),
        peer=lambda: SklearnLogistic(C=1.0, solver="lbfgs", tol=1e-8, max_iter=1000),
        data=logistic_binary,
        rtol=1e-5,
    ),
    Workload(
        name="logistic_newton_100k_x100",
        description="unpenalised binary logistic regression (R's glm IRLS), 100,000 × 100, "
        "vs scikit-learn's newton-cholesky without penalty",
        n_samples=100_000,
        n_features=100,
        ours=lambda: StatlearningLogistic(),
        peer=lambda: SklearnLogistic(C=np.inf, solver="newton-cholesky", tol=1e-8),
        data=logistic_binary,
        rtol=1e-5,
    ),
    Workload(
        name="logistic_l2_default_50k_x150",
        description="binary logistic regression, l2 penalty C=0.5, default solvers (ours "
        "'auto', scikit-learn's lbfgs), tol=1e-8 on both, 50,000 × 150",
        n_samples=50_000,
        n_features=150,
        ours=lambda: StatlearningLogistic(penalty="l2", C=0.5, tol=1e-8),
        peer=lambda: SklearnLogistic(C=0.5, tol=1e-8, max_iter=1000),
        data=logistic_binary,
        rtol=1e-5,
    ),
    Workload(
        name="logistic_l2_default_tol_50k_x150",
        description="binary logistic regression, l2 penalty C=0.5, default solvers and scikit-"
        "learn's default tol=1e-4 on both (the optimum to about 1e-4), 50,000 × 150",
        n_samples=50_000,
        n_features=150,
        ours=lambda: StatlearningLogistic(penalty="l2", C=0.5, tol=1e-4),
        peer=lambda: SklearnLogistic(C=0.5, tol=1e-4, max_iter=1000),
        data=logistic_binary,
        rtol=1e-3,
    ),
    Workload(
        name="logistic_nearly_separable_100k_x100",
        description="unpenalised binary logistic regression at defaults on nearly separable "
        "data (|η| up to ~150, not separated), 100,000 × 100, vs scikit-learn's "
        "newton-cholesky without penalty",
        n_samples=100_000,
        n_features=100,
        ours=lambda: StatlearningLogistic(),
        peer=lambda: SklearnLogistic(C=np.inf, solver="newton-cholesky", tol=1e-8),
        data=logistic_nearly_separable,
        rtol=1e-4,
    ),
]
