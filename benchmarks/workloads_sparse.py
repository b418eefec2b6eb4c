"""Benchmark workloads of the sparse (coordinate-descent) family: Lasso, ElasticNet, lasso_path.

Each comparison runs ours and scikit-learn's at the same ``alpha`` and the same duality-gap
tolerance ``tol`` (both libraries stop when the gap is at most ``tol · Σ(y − ȳ)²/n``), so the
times compare equal work: the objectives agree to a relative 1e-12 or better and the training
predictions to the harness's ``rtol``. ``Lasso`` and ``ElasticNet`` run at the default
``tol = 1e-4``. Along the path the two libraries check the gap at different moments, which at
``tol = 1e-4`` leaves objectives differing by up to 2e-3 (relative) at some alphas; at
``tol = 1e-6`` both reach the same solutions, so the path workload uses it. ``predict`` of the
path workloads uses the coefficients at the last (smallest) ``alpha``.
"""

from __future__ import annotations

from workloads import Workload

__all__ = ["WORKLOADS"]

PATH_TOL = 1e-6


def _args(params) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


class StatlearningEnet:
    """``statlearning.linear_model.<cls>(**params)``; ``fit`` then ``predict``."""

    def __init__(self, cls: str, **params):
        self.cls = cls
        self.params = params
        self.label = f"statlearning {cls}({_args(params)})"

    def fit(self, X, y):
        import statlearning.linear_model as lm

        self.estimator_ = getattr(lm, self.cls)(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class SklearnEnet:
    """``sklearn.linear_model.<cls>(**params)``; ``fit`` then ``predict``."""

    def __init__(self, cls: str, **params):
        self.cls = cls
        self.params = params
        self.label = f"sklearn {cls}({_args(params)})"

    def fit(self, X, y):
        import sklearn.linear_model as lm

        self.estimator_ = getattr(lm, self.cls)(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class StatlearningLassoPath:
    """``lasso_path(X, y, n_alphas=100, tol=...)`` (intercept fitted); predict at the last alpha."""

    def __init__(self, **params):
        self.params = params
        self.label = f"statlearning lasso_path(X, y, {_args(params)})"

    def fit(self, X, y):
        from statlearning.linear_model import lasso_path

        self.alphas_, self.coefs_, self.intercepts_ = lasso_path(X, y, **self.params)
        return self

    def predict(self, X):
        return X @ self.coefs_[:, -1] + self.intercepts_[-1]


class SklearnLassoPath:
    """``sklearn.linear_model.lasso_path`` on centred data, intercepts ``ȳ − x̄ᵀβ``.

    scikit-learn's path has no intercept: centring ``X`` and ``y`` (and computing the
    intercepts) is what a user must do to get one, so it is part of the timed fit.
    """

    def __init__(self, **params):
        self.params = params
        self.label = f"sklearn lasso_path(X − x̄, y − ȳ, {_args(params)}) + intercepts"

    def fit(self, X, y):
        from sklearn.linear_model import lasso_path

        xbar = X.mean(axis=0)
        ybar = y.mean()
        self.alphas_, self.coefs_, _ = lasso_path(X - xbar, y - ybar, **self.params)
        self.intercepts_ = ybar - xbar @ self.coefs_
        return self

    def predict(self, X):
        return X @ self.coefs_[:, -1] + self.intercepts_[-1]


WORKLOADS: list[Workload] = [
    Workload(
        name="lasso_200k_x100",
        description="Lasso(alpha=0.001), dense Gaussian X 200,000 × 100 (160 MB), default "
        "tol=1e-4 for both, vs scikit-learn Lasso",
        n_samples=200_000,
        n_features=100,
        ours=lambda: StatlearningEnet("Lasso", alpha=0.001),
        peer=lambda: SklearnEnet("Lasso", alpha=0.001),
    ),
    Workload(
        name="enet_200k_x100",
        description="ElasticNet(alpha=0.001, l1_ratio=0.5), 200,000 × 100, default tol=1e-4 "
        "for both, vs scikit-learn ElasticNet",
        n_samples=200_000,
        n_features=100,
        ours=lambda: StatlearningEnet("ElasticNet", alpha=0.001, l1_ratio=0.5),
        peer=lambda: SklearnEnet("ElasticNet", alpha=0.001, l1_ratio=0.5),
    ),
    Workload(
        name="lasso_path_10k_x1000",
        description="lasso_path, 100 alphas down to 1e-3 · alpha_max, with intercept, "
        f"10,000 × 1,000 (80 MB), tol={PATH_TOL:g} for both, vs "
        "sklearn.linear_model.lasso_path",
        n_samples=10_000,
        n_features=1_000,
        ours=lambda: StatlearningLassoPath(n_alphas=100, tol=PATH_TOL),
        peer=lambda: SklearnLassoPath(alphas=100, tol=PATH_TOL),
    ),
]
