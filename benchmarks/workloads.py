"""Benchmark workloads: the data, our estimator and its peer, side by side.

Each :class:`Workload` names a data generator and two factories, ``ours`` and ``peer``. Each
factory returns a fresh *adapter*: a small object with ``label``, ``fit(X, y)`` and
``predict(X)``, so that the runner can time every library through one interface. Whatever a
user must do to get the result (adding a constant column, building the summary table) belongs
inside the adapter's ``fit`` and is therefore timed.

Libraries are imported inside the adapters, so ``run.py --list`` works without any of them.

Add a workload by appending to :data:`WORKLOADS` (names must be unique), or, for another family,
in a module ``workloads_<family>.py`` beside this one that defines its own ``WORKLOADS`` list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

__all__ = ["WORKLOADS", "Adapter", "Workload", "get", "linear_gaussian"]


class Adapter(Protocol):
    """What the runner needs from an estimator under test."""

    label: str

    def fit(self, X: np.ndarray, y: np.ndarray) -> Adapter: ...

    def predict(self, X: np.ndarray) -> np.ndarray: ...


# --------------------------------------------------------------------------------------- data


def linear_gaussian(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """Dense Gaussian design and ``y = 1.5 + X β + ε`` with ``β ~ N(0, 1)``, ``ε ~ N(0, 1)``.

    Everything is float64 and C-contiguous. The coefficients are drawn first so that they do
    not depend on ``n_samples`` (``--quick`` runs fit the same model on fewer rows). ``X`` is
    the only allocation of size ``n_samples × n_features``.
    """
    beta = rng.standard_normal(n_features)
    X = rng.standard_normal((n_samples, n_features))
    y = X @ beta
    y += 1.5
    y += rng.standard_normal(n_samples)
    return X, y


# ----------------------------------------------------------------------------------- adapters


class StatlearningLinearRegression:
    """``statlearning.linear_model.LinearRegression(**params)``; ``fit`` then ``predict``."""

    def __init__(self, *, summary: bool = False, **params):
        self.params = params
        self.summary = summary
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        suffix = " + str(summary())" if summary else ""
        self.label = f"statlearning LinearRegression({args}){suffix}"

    def fit(self, X, y):
        from statlearning.linear_model import LinearRegression

        self.estimator_ = LinearRegression(**self.params).fit(X, y)
        if self.summary:
            self.summary_ = str(self.estimator_.summary())  # rendered, as a user prints it
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class SklearnLinearRegression:
    """``sklearn.linear_model.LinearRegression(**params)``; ``fit`` then ``predict``."""

    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"sklearn LinearRegression({args})"

    def fit(self, X, y):
        from sklearn.linear_model import LinearRegression

        self.estimator_ = LinearRegression(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


class StatsmodelsOLS:
    """``sm.OLS(y, sm.add_constant(X)).fit()`` (then ``.summary()`` if asked).

    Adding the constant column is what a statsmodels user must do to get an intercept, so it is
    part of the timed fit (and of the peak memory), and of ``predict``.
    """

    def __init__(self, *, summary: bool = False):
        self.summary = summary
        self.label = "statsmodels OLS(y, add_constant(X)).fit()" + (
            " + str(summary())" if summary else ""
        )

    def fit(self, X, y):
        import statsmodels.api as sm

        self.results_ = sm.OLS(y, sm.add_constant(X)).fit()
        if self.summary:
            self.summary_ = str(self.results_.summary())  # rendered, as a user prints it
        return self

    def predict(self, X):
        import statsmodels.api as sm

        return self.results_.predict(sm.add_constant(X))


# ---------------------------------------------------------------------------------- workloads


@dataclass(frozen=True)
class Workload:
    """One comparison: the data, our estimator, its peer and the accuracy tolerance.

    ``rtol`` bounds ``max |ŷ_ours − ŷ_peer| / sd(y)`` on the training data; above it the run
    reports an accuracy mismatch.

    Randomised learners (forests, stochastic boosting) cannot agree prediction by prediction.
    For them set ``holdout`` and ``score``: the runner draws ``n_samples + holdout`` rows,
    fits on the first ``n_samples``, times ``predict`` on the ``holdout`` others, and compares
    ``score(y_holdout, ŷ)`` (higher is better, e.g. accuracy or R²) of the two libraries:
    the run is a mismatch when ours is lower by more than ``score_tol``.
    """

    name: str
    description: str
    n_samples: int
    n_features: int
    ours: Callable[[], Adapter]
    peer: Callable[[], Adapter]
    data: Callable[[np.random.Generator, int, int], tuple[np.ndarray, np.ndarray]] = linear_gaussian
    rtol: float = 1e-6
    seed: int = 0
    holdout: int = 0
    score: Callable[[np.ndarray, np.ndarray], float] | None = None
    score_tol: float = 0.01

    def make_data(
        self, rng: np.random.Generator, n_samples: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Generate ``(X, y)``; ``n_samples`` overrides the workload's size (``--quick``)."""
        n = self.n_samples if n_samples is None else n_samples
        return self.data(rng, n, self.n_features)

    def data_key(self, n_samples: int) -> tuple:
        """Workloads with equal keys draw identical data, which the runner generates once."""
        return (self.data, n_samples, self.n_features, self.seed, self.holdout)


WORKLOADS: list[Workload] = [
    Workload(
        name="linreg_1m_x100",
        description="OLS with intercept, dense Gaussian X 1,000,000 × 100 (800 MB); "
        "default solver (QR) vs scikit-learn",
        n_samples=1_000_000,
        n_features=100,
        ours=lambda: StatlearningLinearRegression(),
        peer=lambda: SklearnLinearRegression(),
    ),
    Workload(
        name="linreg_200k_x100",
        description="OLS with intercept, dense Gaussian X 200,000 × 100 (160 MB); "
        "default solver (QR) vs scikit-learn",
        n_samples=200_000,
        n_features=100,
        ours=lambda: StatlearningLinearRegression(),
        peer=lambda: SklearnLinearRegression(),
    ),
    Workload(
        name="linreg_summary_200k_x100",
        description="fit with inference, 200,000 × 100: LinearRegression().fit().summary() vs "
        "statsmodels OLS(y, add_constant(X)).fit().summary()",
        n_samples=200_000,
        n_features=100,
        ours=lambda: StatlearningLinearRegression(summary=True),
        peer=lambda: StatsmodelsOLS(summary=True),
    ),
    Workload(
        name="linreg_normal_1m_x100",
        description="OLS with intercept, 1,000,000 × 100; solver='normal' (normal equations) "
        "vs scikit-learn",
        n_samples=1_000_000,
        n_features=100,
        ours=lambda: StatlearningLinearRegression(solver="normal"),
        peer=lambda: SklearnLinearRegression(),
    ),
    Workload(
        name="linreg_svd_200k_x100",
        description="OLS with intercept, 200,000 × 100; solver='svd' vs scikit-learn",
        n_samples=200_000,
        n_features=100,
        ours=lambda: StatlearningLinearRegression(solver="svd"),
        peer=lambda: SklearnLinearRegression(),
    ),
]

def _family_workloads() -> list[Workload]:
    """Workloads of other families, from ``workloads_<family>.py`` modules beside this one.

    Each such module defines its own ``WORKLOADS`` list (it may import ``Workload``, the data
    generators and ``Adapter`` from here).
    """
    import importlib
    from pathlib import Path

    extra: list[Workload] = []
    for path in sorted(Path(__file__).parent.glob("workloads_*.py")):
        extra.extend(importlib.import_module(path.stem).WORKLOADS)
    return extra


WORKLOADS.extend(_family_workloads())
_BY_NAME = {w.name: w for w in WORKLOADS}
if len(_BY_NAME) != len(WORKLOADS):
    raise RuntimeError("duplicate workload names in benchmarks/workloads.py")


def get(name: str) -> Workload:
    """The workload called ``name``; ``KeyError`` listing the valid names otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown workload {name!r}; known: {', '.join(_BY_NAME)}") from None
