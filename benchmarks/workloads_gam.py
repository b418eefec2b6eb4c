"""Benchmark workloads of the gam family: GAMRegressor against R's mgcv (and pyGAM).

The model is ``y ~ s(x0, bs = "cr", k = 10) + s(x1, bs = "cr", k = 10) + factor(x2)`` with
the smoothing parameters chosen by GCV (mgcv's ``method = "GCV.Cp"``). mgcv runs in a
persistent ``Rscript`` worker, timed inside R (``proc.time()`` around ``gam`` alone). pyGAM's
``LinearGAM(s(0) + s(1) + f(2)).gridsearch`` is the Python peer when it is importable (its
penalties and criterion differ from mgcv's: agreement within 5% of sd(y) is what it can show).

Accuracy against mgcv: fitted values within ``1e-4 · sd(y)`` (the smoothing parameters agree
to about 1e-4 on the log scale).
"""

from __future__ import annotations

import numpy as np

from rworker import RWorker
from workloads import Workload

_R = RWorker(
    "mgcv",
    r"""
  else if (cmd[1] == "fit") {
    d <- data.frame(x0 = x[, 1], x1 = x[, 2], x2 = factor(x[, 3]), y = y)
    t0 <- proc.time()[["elapsed"]]
    fit <- gam(y ~ s(x0, bs = "cr", k = 10) + s(x1, bs = "cr", k = 10) + x2, data = d,
               method = "GCV.Cp")
    cat(sprintf("%.9f\n", proc.time()[["elapsed"]] - t0))
  } else if (cmd[1] == "fit5") {
    d <- as.data.frame(x)
    names(d) <- paste0("x", 0:4)
    d$y <- y
    t0 <- proc.time()[["elapsed"]]
    fit <- gam(y ~ s(x0, bs = "cr", k = 10) + s(x1, bs = "cr", k = 10) + s(x2, bs = "cr", k = 10)
               + s(x3, bs = "cr", k = 10) + s(x4, bs = "cr", k = 10), data = d, method = "GCV.Cp")
    cat(sprintf("%.9f\n", proc.time()[["elapsed"]] - t0))
  } else if (cmd[1] == "predict") {
    cat(sprintf("%.17g", fitted(fit)), "\n")
  }
""",
)


class RMgcv:
    """R's ``mgcv::gam`` with two cr smooths and a factor, GCV.Cp, timed inside R."""

    label = 'R mgcv::gam(y ~ s(x0, bs = "cr") + s(x1, bs = "cr") + x2), timed inside R'

    def fit(self, X, y):
        _R.load(X, y)
        self.inner_fit_seconds = float(_R.ask("fit"))
        return self

    def predict(self, X):
        return np.array(_R.ask("predict").split(), dtype=float)


class PyGAM:
    """pyGAM's ``LinearGAM(s(0) + s(1) + f(2)).gridsearch(X, y)`` (its default λ grid)."""

    label = "pygam LinearGAM(s(0) + s(1) + f(2)).gridsearch"

    def fit(self, X, y):
        from pygam import LinearGAM, f, s

        self.model_ = LinearGAM(s(0, n_splines=10) + s(1, n_splines=10) + f(2)).gridsearch(
            X, y, progress=False
        )
        return self

    def predict(self, X):
        return self.model_.predict(X)


class OurGAM:
    """``GAMRegressor([s(0), s(1), f(2)])`` (cr bases, k = 10, GCV)."""

    label = "statlearning GAMRegressor([s(0), s(1), f(2)])"

    def fit(self, X, y):
        from statlearning.gam import GAMRegressor, f, s

        self.model_ = GAMRegressor([s(0), s(1), f(2)]).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


class RMgcv5(RMgcv):
    """R's ``mgcv::gam`` with five cr smooths, GCV.Cp, timed inside R."""

    label = 'R mgcv::gam(y ~ s(x0, bs = "cr") + ... + s(x4, bs = "cr")), timed inside R'

    def fit(self, X, y):
        _R.load(X, y)
        self.inner_fit_seconds = float(_R.ask("fit5"))
        return self


class PyGAM5(PyGAM):
    """pyGAM's ``LinearGAM(s(0) + ... + s(4)).gridsearch(X, y)`` (its default λ grid)."""

    label = "pygam LinearGAM(s(0) + ... + s(4)).gridsearch"

    def fit(self, X, y):
        from pygam import LinearGAM, s

        terms = s(0, n_splines=10)
        for j in range(1, 5):
            terms = terms + s(j, n_splines=10)
        self.model_ = LinearGAM(terms).gridsearch(X, y, progress=False)
        return self


class OurGAM5(OurGAM):
    """``GAMRegressor([s(0), ..., s(4)])`` (cr bases, k = 10, GCV)."""

    label = "statlearning GAMRegressor([s(0), ..., s(4)])"

    def fit(self, X, y):
        from statlearning.gam import GAMRegressor, s

        self.model_ = GAMRegressor([s(j) for j in range(5)]).fit(X, y)
        return self


def additive5(rng, n_samples, n_features):
    """Five smooth effects on uniform predictors, N(0, 0.4²) noise."""
    X = rng.uniform(size=(n_samples, 5))
    y = (
        np.sin(2 * np.pi * X[:, 0])
        + 6 * (X[:, 1] - 0.5) ** 2
        + np.exp(X[:, 2])
        + np.cos(3 * X[:, 3])
        + 0.5 * X[:, 4]
        + 0.4 * rng.standard_normal(n_samples)
    )
    return X, y


def additive(rng, n_samples, n_features):
    """Two smooth effects on uniform predictors and a three-level factor, N(0, 0.4²) noise."""
    X = np.column_stack(
        [rng.uniform(size=n_samples), rng.uniform(size=n_samples), rng.integers(0, 3, n_samples)]
    ).astype(float)
    y = (
        np.sin(2 * np.pi * X[:, 0])
        + 6 * (X[:, 1] - 0.5) ** 2
        + np.array([0.0, 0.6, -0.4])[X[:, 2].astype(int)]
        + 0.4 * rng.standard_normal(n_samples)
    )
    return X, y


WORKLOADS: list[Workload] = (
    [
        Workload(
            name=f"gam_cr2_factor_{n // 1000}k",
            description=f"additive model, {n:,} rows: two cr smooths (k = 10) and a factor by GCV, "
            "GAMRegressor vs mgcv::gam(method = 'GCV.Cp') timed inside R; fitted values 1e-4·sd",
            n_samples=n,
            n_features=3,
            ours=OurGAM,
            peer=RMgcv,
            data=additive,
            rtol=1e-4,
        )
        for n in (10_000, 100_000)
    ]
    + [
        Workload(
            name=f"gam_cr2_factor_{n // 1000}k_pygam",
            description=f"additive model, {n:,} rows: GAMRegressor vs pyGAM LinearGAM.gridsearch "
            "(different penalties and criterion: fitted values within 5% of sd(y))",
            n_samples=n,
            n_features=3,
            ours=OurGAM,
            peer=PyGAM,
            data=additive,
            rtol=0.05,
        )
        for n in (10_000, 100_000)
    ]
    + [
        Workload(
            name="gam_cr5_100k",
            description="additive model, 100,000 rows: five cr smooths (k = 10) by GCV, "
            "GAMRegressor vs mgcv::gam(method = 'GCV.Cp') timed inside R; fitted values 1e-4·sd",
            n_samples=100_000,
            n_features=5,
            ours=OurGAM5,
            peer=RMgcv5,
            data=additive5,
            rtol=1e-4,
        ),
        Workload(
            name="gam_cr5_100k_pygam",
            description="additive model, 100,000 rows: five smooths, GAMRegressor vs pyGAM "
            "LinearGAM.gridsearch (different penalties and criterion: fitted values within 5% of "
            "sd(y))",
            n_samples=100_000,
            n_features=5,
            ours=OurGAM5,
            peer=PyGAM5,
            data=additive5,
            rtol=0.05,
        ),
    ]
)
