"""Benchmark workloads of the spline bases and smoothers (loaded by ``workloads.py``).

* ``smoothing_spline_gcv_2k`` / ``_8k``: ``SmoothingSpline()`` (λ by GCV, a knot at every x)
  against SciPy's ``make_smoothing_spline(x, y)`` (λ by GCV) on 2,000 and 8,000 points; at
  8,000 SciPy's GCV already returns an oversmoothed fit (0.45 from the true curve, ours 0.014),
  so that workload reports an accuracy mismatch that is SciPy's;
* ``smoothing_spline_lam_1m``: a fixed λ on 1,000,000 points against
  ``make_smoothing_spline(x, y, lam=λ·r³)`` (R's λ is on x rescaled to [0, 1], ``r`` the range;
  R's penalty integrates with 0.3330 for 1/3, so the two fits differ in the fourth digit);
* ``smoothing_spline_gcv_8k_r``: the same GCV fit against R's ``smooth.spline(x, y,
  all.knots = TRUE)`` timed inside ``Rscript`` (the data transfer is not timed);
* ``bspline_ols_1m_x5``: ``BSplineFeatures(df=8)`` + ``LinearRegression`` (R's ``lm`` with
  ``bs`` terms, its inference included) against scikit-learn's ``SplineTransformer(n_knots=7,
  knots="quantile", include_bias=False)`` + ``LinearRegression``: the same spline space (five
  interior knots at the same quantiles of each of 5 columns), so equal fitted values.

The smoothers' adapters use the first column of ``X``; its values are distinct and more than
R's merging tolerance (``1e-6·IQR``) apart, so all four programs fit the same data.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]


def curve_1d(rng: np.random.Generator, n_samples: int, n_features: int):
    """``x`` on a jittered regular grid of [0, 1] (distinct, gaps ≥ 0.7/n) and
    ``y = sin(12πx) + x² + N(0, 0.3²)``; extra columns are ignored by the smoothers."""
    x = (np.arange(n_samples) + 0.3 * rng.uniform(size=n_samples)) / n_samples
    X = np.column_stack([x] + [rng.uniform(size=n_samples) for _ in range(n_features - 1)])
    y = np.sin(12 * np.pi * x) + x**2 + 0.3 * rng.standard_normal(n_samples)
    return X, y


def smooth_1d(rng: np.random.Generator, n_samples: int, n_features: int):
    """As :func:`curve_1d` with the smoother ``y = sin(2πx) + x² + N(0, 0.3²)`` (SciPy's GCV
    oversmooths :func:`curve_1d`'s six periods: its fit is 0.7 from the truth, ours 0.02)."""
    x = (np.arange(n_samples) + 0.3 * rng.uniform(size=n_samples)) / n_samples
    X = np.column_stack([x] + [rng.uniform(size=n_samples) for _ in range(n_features - 1)])
    y = np.sin(2 * np.pi * x) + x**2 + 0.3 * rng.standard_normal(n_samples)
    return X, y


def additive_5(rng: np.random.Generator, n_samples: int, n_features: int):
    """Uniform columns and an additive smooth response plus N(0, 0.5²) noise."""
    X = rng.uniform(-2, 2, size=(n_samples, n_features))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2 / 4 + np.tanh(X[:, 2]) + 0.5 * rng.standard_normal(n_samples)
    return X, y


#: The fixed λ of the 1,000,000-point workload (R's scale: x in [0, 1], weights of mean 1).
LAM = 1e-7


class OurSmoothingSpline:
    def __init__(self, **params):
        self.params = params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"statlearning SmoothingSpline({args})"

    def fit(self, X, y) -> Adapter:
        from statlearning.smoothing import SmoothingSpline

        self.estimator_ = SmoothingSpline(**self.params).fit(X[:, 0], y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X[:, 0])


class ScipySmoothingSpline:
    def __init__(self, lam=None):
        self.lam = lam
        self.label = "scipy make_smoothing_spline(x, y" + (
            ", lam=λ·range³)" if lam is not None else ") (GCV)"
        )

    def fit(self, X, y) -> Adapter:
        from scipy.interpolate import make_smoothing_spline

        x = X[:, 0]
        lam = None if self.lam is None else self.lam * float(np.ptp(x)) ** 3
        self.spline_ = make_smoothing_spline(x, y, lam=lam)
        return self

    def predict(self, X):
        return self.spline_(X[:, 0])


_R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
d <- as.matrix(read.csv(args[1], header = FALSE))
x <- d[, 1]; y <- d[, 2]
reps <- 0; t0 <- proc.time()[["elapsed"]]
repeat {
  fit <- smooth.spline(x, y, all.knots = TRUE)
  reps <- reps + 1
  el <- proc.time()[["elapsed"]] - t0
  if (reps >= 3 && el >= 0.5) break
}
writeLines(sprintf("%.17g", c(el / reps, predict(fit, x)$y)), args[2])
"""


class RSmoothSpline:
    label = "R smooth.spline(x, y, all.knots = TRUE) (GCV), timed inside R (mean of ≥ 3 calls)"

    def fit(self, X, y) -> Adapter:
        with tempfile.TemporaryDirectory() as tmp:
            data, out, script = (os.path.join(tmp, f) for f in ("d.csv", "o.txt", "s.R"))
            np.savetxt(data, np.column_stack([X[:, 0], y]), delimiter=",", fmt="%.17g")
            with open(script, "w") as fh:
                fh.write(_R_SCRIPT)
            env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
            subprocess.run(["Rscript", "--vanilla", script, data, out], check=True, env=env)
            values = np.loadtxt(out)
        self.inner_fit_seconds = float(values[0])
        self.fitted_ = values[1:]
        return self

    def predict(self, X):
        return self.fitted_


class OurBSplineOLS:
    label = "statlearning BSplineFeatures(df=8) + LinearRegression() (with R's inference)"

    def fit(self, X, y) -> Adapter:
        from sklearn.pipeline import make_pipeline

        from statlearning.linear_model import LinearRegression
        from statlearning.preprocessing import BSplineFeatures

        self.model_ = make_pipeline(BSplineFeatures(df=8), LinearRegression()).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


class SklearnSplineOLS:
    label = (
        'sklearn SplineTransformer(n_knots=7, knots="quantile", include_bias=False) + '
        "LinearRegression()"
    )

    def fit(self, X, y) -> Adapter:
        from sklearn.linear_model import LinearRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import SplineTransformer

        spline = SplineTransformer(n_knots=7, knots="quantile", include_bias=False)
        self.model_ = make_pipeline(spline, LinearRegression()).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


WORKLOADS: list[Workload] = [
    Workload(
        name="smoothing_spline_gcv_2k",
        description="cubic smoothing spline, λ by GCV, 2,000 points (where SciPy's GCV still "
        "finds the minimum); vs scipy make_smoothing_spline (GCV)",
        n_samples=2_000,
        n_features=1,
        ours=lambda: OurSmoothingSpline(),
        peer=lambda: ScipySmoothingSpline(),
        data=smooth_1d,
        rtol=1e-4,
    ),
    Workload(
        name="smoothing_spline_gcv_8k",
        description="cubic smoothing spline, λ by GCV, 8,000 points; vs scipy "
        "make_smoothing_spline (GCV)",
        n_samples=8_000,
        n_features=1,
        ours=lambda: OurSmoothingSpline(),
        peer=lambda: ScipySmoothingSpline(),
        data=smooth_1d,
        rtol=1e-2,
    ),
    Workload(
        name="smoothing_spline_lam_1m",
        description="cubic smoothing spline at a fixed λ, 1,000,000 points; vs scipy "
        "make_smoothing_spline",
        n_samples=1_000_000,
        n_features=1,
        ours=lambda: OurSmoothingSpline(lam=LAM),
        peer=lambda: ScipySmoothingSpline(lam=LAM),
        data=curve_1d,
        rtol=1e-3,
    ),
    Workload(
        name="smoothing_spline_gcv_8k_r",
        description="cubic smoothing spline, λ by GCV, 8,000 points; vs R smooth.spline "
        "(all.knots = TRUE) timed inside Rscript",
        n_samples=8_000,
        n_features=1,
        ours=lambda: OurSmoothingSpline(),
        peer=lambda: RSmoothSpline(),
        data=curve_1d,
        rtol=1e-4,
    ),
    Workload(
        name="bspline_ols_1m_x5",
        description="B-spline basis (df = 8 per column) + least squares, 1,000,000 × 5; vs "
        "scikit-learn SplineTransformer + LinearRegression",
        n_samples=1_000_000,
        n_features=5,
        ours=lambda: OurBSplineOLS(),
        peer=lambda: SklearnSplineOLS(),
        data=additive_5,
        rtol=1e-8,
    ),
]
