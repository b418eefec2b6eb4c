"""Benchmark workloads of the feature_selection family: subset searches against R's leaps.

The peer is R's ``leaps::regsubsets(x, y, nvmax = p, ...)`` — ``method = "exhaustive"`` (which
is Furnival and Wilson's branch and bound) for :class:`BestSubsetSelector`, ``method =
"forward"`` for ``StepwiseSelector(direction="forward")``. R runs in a persistent ``Rscript``
worker started once per process, in the same run: the first ``fit`` on a data set writes it to
a temporary CSV that the worker reads (R start-up and CSV reading happen then, in the untimed
warm-up). Every ``fit`` then sends one line on a pipe; the worker runs ``regsubsets`` alone in
a loop of at least ``R_REPEATS`` calls and 0.2 s (R's clock ticks in milliseconds), timed with
``proc.time()``, and answers with the mean time of one call, which
the adapter reports as ``inner_fit_seconds`` (the runner records it instead of its own wall
time, so the pipe round trip and the transfer are not counted). Our side is timed the same
way, in a loop of fresh estimators' whole ``fit`` (validation, search, path table and criteria)
of at least ``R_REPEATS`` calls and 0.2 s: both sides report the mean of one call when calls
follow each other. (A single call after the other process has run is slower on both sides —
ours by about 0.8 ms, cold caches — which a per-call wall time would charge to one side only.)

Accuracy: ``predict`` returns, for every size ``1…p``, ``log RSS`` of the best model of that
size followed by the which-matrix (``1`` where a variable is in it), all multiplied by
``sd(y)``. The runner's check ``max |ŷ_ours − ŷ_peer| / sd(y) ≤ rtol`` (``rtol = 1e-8``) then
means: identical variables for every size, and every RSS equal to a relative ``1e-8``.
"""

from __future__ import annotations

import time

import numpy as np

from rworker import RWorker
from workloads import Workload, linear_gaussian

#: Calls of ``regsubsets`` per timed ``fit`` (inside R; their mean is reported).
R_REPEATS = 5

_R = RWorker(
    "leaps",
    r"""
  else if (cmd[1] == "fit") {
    # at least `reps` calls and 0.2 s, since the clock ticks in milliseconds: the mean of
    # one call is the elapsed time of the whole loop over the number of calls
    reps <- as.integer(cmd[3]); calls <- 0; elapsed <- 0
    t0 <- proc.time()[["elapsed"]]
    while (calls < reps || elapsed < 0.2) {
      fit <- regsubsets(x, y, nvmax = ncol(x), really.big = TRUE, method = cmd[2])
      calls <- calls + 1
      elapsed <- proc.time()[["elapsed"]] - t0
    }
    cat(sprintf("%.9f\n", elapsed / calls))
  } else if (cmd[1] == "result") {
    s <- summary(fit)
    cat(sprintf("%.17g", c(log(s$rss), t(s$which[, -1] * 1))), "\n")
  }
""",
)


def _encode(log_rss, which, scale):
    """The vector the runner compares: ``sd(y) · [log RSS per size, which-matrix]``."""
    return scale * np.concatenate([np.asarray(log_rss, float), np.ravel(which).astype(float)])


class LeapsRegsubsets:
    """R's ``regsubsets(x, y, nvmax = p, method = method)``, timed inside R."""

    def __init__(self, method="exhaustive"):
        self.method = method
        self.label = (
            f'R leaps regsubsets(nvmax = p, method = "{method}"), timed inside R '
            f"(mean of ≥ {R_REPEATS} calls, ≥ 0.2 s)"
        )

    def fit(self, X, y):
        _R.load(X, y)
        self.inner_fit_seconds = float(_R.ask(f"fit {self.method} {R_REPEATS}"))
        self.p_, self.scale_ = X.shape[1], float(np.std(y))
        return self

    def predict(self, X):
        values = np.array(_R.ask("result").split(), dtype=float)
        return _encode(values[: self.p_], values[self.p_ :], self.scale_)


class StatlearningSubsets:
    """``BestSubsetSelector(method=...)`` or ``StepwiseSelector(direction="forward")``."""

    def __init__(self, kind, method="exhaustive"):
        self.kind, self.method = kind, method
        if kind == "best":
            self.label = f'statlearning BestSubsetSelector(method="{method}", criterion="bic")'
        else:
            self.label = 'statlearning StepwiseSelector(direction="forward", criterion="bic")'

    def fit(self, X, y):
        from sklearn.base import clone

        from statlearning.feature_selection import BestSubsetSelector, StepwiseSelector

        if self.kind == "best":
            est = BestSubsetSelector(method=self.method, criterion="bic")
        else:
            est = StepwiseSelector(direction="forward", criterion="bic")
        # timed as the R side: the mean of one call in a loop of >= R_REPEATS calls and 0.2 s
        calls, start = 0, time.perf_counter()
        while calls < R_REPEATS or time.perf_counter() - start < 0.2:
            self.selector_ = clone(est).fit(X, y)
            calls += 1
        self.inner_fit_seconds = (time.perf_counter() - start) / calls
        self.p_, self.scale_ = X.shape[1], float(np.std(y))
        return self

    def predict(self, X):
        rows = sorted(self.selector_.path_, key=lambda r: r["size"])[1:]
        which = np.zeros((len(rows), self.p_))
        for i, row in enumerate(rows):
            which[i, list(row["variables"])] = 1.0
        return _encode(np.log([r["rss"] for r in rows]), which, self.scale_)


def correlated(rng, n_samples, n_features, rho=0.6):
    """AR(1)-correlated Gaussian columns (``corr(x_j, x_k) = ρ^|j−k|``), decaying effects.

    ``β_j = ±2 / (1 + j/3)`` with alternating signs and ``y = Xβ + 3ε``: many moderate
    effects among correlated predictors, where the bounds of the subset search prune less than
    on independent columns.
    """
    j = np.arange(n_features)
    beta = np.where(j % 2 == 0, 2.0, -2.0) / (1.0 + j / 3.0)
    X = rng.standard_normal((n_samples, n_features))
    for k in range(1, n_features):
        X[:, k] = rho * X[:, k - 1] + np.sqrt(1.0 - rho**2) * X[:, k]
    y = X @ beta + 3.0 * rng.standard_normal(n_samples)
    return X, y


def _best(name, n, p, method, data, what):
    return Workload(
        name=name,
        description=f"best subset of every size, {n:,} × {p}, {what}: "
        f'BestSubsetSelector(method="{method}") vs R leaps regsubsets (leaps and bounds, '
        "timed inside R); identical subsets and RSS to 1e-8",
        n_samples=n,
        n_features=p,
        ours=lambda: StatlearningSubsets("best", method),
        peer=lambda: LeapsRegsubsets("exhaustive"),
        data=data,
        rtol=1e-8,
    )


def _forward(name, data, what):
    return Workload(
        name=name,
        description=f"forward stepwise path, 5,000 × 60, {what}: "
        'StepwiseSelector(direction="forward") vs R leaps regsubsets(method = "forward", '
        "timed inside R); identical models and RSS to 1e-8",
        n_samples=5_000,
        n_features=60,
        ours=lambda: StatlearningSubsets("forward"),
        peer=lambda: LeapsRegsubsets("forward"),
        data=data,
        rtol=1e-8,
    )


WORKLOADS: list[Workload] = [
    _best("best_subset_bb_1k_x20", 1_000, 20, "branch_and_bound", linear_gaussian,
          "Gaussian design"),
    _best("best_subset_all_1k_x20", 1_000, 20, "exhaustive", linear_gaussian, "Gaussian design"),
    _best("best_subset_bb_1k_x30", 1_000, 30, "branch_and_bound", linear_gaussian,
          "Gaussian design"),
    _best("best_subset_2k_x18", 2_000, 18, "exhaustive", linear_gaussian, "Gaussian design"),
    _best("best_subset_corr_2k_x18", 2_000, 18, "exhaustive", correlated,
          "AR(1) design, decaying effects"),
    _best("best_subset_corr_5k_x20", 5_000, 20, "exhaustive", correlated,
          "AR(1) design, decaying effects"),
    _best("best_subset_corr_1k_x30", 1_000, 30, "branch_and_bound", correlated,
          "AR(1) design, decaying effects"),
    _forward("stepwise_forward_5k_x60", linear_gaussian, "Gaussian design"),
    _forward("stepwise_forward_corr_5k_x60", correlated, "AR(1) design"),
]
