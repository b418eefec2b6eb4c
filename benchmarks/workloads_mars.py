"""Benchmark workloads of the mars family: MARSRegressor against R's earth.

The peer is R's ``earth(x, y, degree = 2)`` with its defaults (the forward pass, the pruning
pass by GCV and the least-squares fit of the selected terms). R runs in a persistent
``Rscript`` worker started once per process, in the same run: the first ``fit`` on a data set
writes it to a temporary CSV that the worker reads (R start-up and CSV reading happen then, in
the untimed warm-up). Every ``fit`` then sends one line on a pipe; the worker runs ``earth``
alone, timed with ``proc.time()``, and answers with the elapsed time, which the adapter
reports as ``inner_fit_seconds`` (the runner records it instead of its own wall time, so the
pipe round trip and the transfer are not counted). ``predict`` returns R's fitted values.

Accuracy: the same terms and knots give the same fitted values; the runner's check
``max |ŷ_ours − ŷ_peer| / sd(y) ≤ 1e-8`` fails if a single knot differs.
"""

from __future__ import annotations

import numpy as np

from rworker import RWorker
from workloads import Workload

_R = RWorker(
    "earth",
    r"""
  else if (cmd[1] == "fit") {
    t0 <- proc.time()[["elapsed"]]
    fit <- earth(x, y, degree = as.integer(cmd[2]))
    cat(sprintf("%.9f\n", proc.time()[["elapsed"]] - t0))
  } else if (cmd[1] == "predict") {
    cat(sprintf("%.17g", fitted(fit)), "\n")
  }
""",
)


class REarth:
    """R's ``earth(x, y, degree = degree)``, timed inside R."""

    def __init__(self, degree=2):
        self.degree = degree
        self.label = f"R earth(x, y, degree = {degree}), timed inside R"

    def fit(self, X, y):
        _R.load(X, y)
        self.inner_fit_seconds = float(_R.ask(f"fit {self.degree}"))
        return self

    def predict(self, X):
        return np.array(_R.ask("predict").split(), dtype=float)


class OurMARS:
    """``MARSRegressor(max_degree=degree)``; ``predict`` on the training rows."""

    def __init__(self, degree=2):
        self.degree = degree
        self.label = f"statlearning MARSRegressor(max_degree={degree})"

    def fit(self, X, y):
        from statlearning.mars import MARSRegressor

        self.model_ = MARSRegressor(max_degree=self.degree).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def friedman1(rng, n_samples, n_features):
    """Friedman's first function on uniform predictors (the first five matter), N(0, 1) noise."""
    X = rng.uniform(size=(n_samples, n_features))
    y = (
        10 * np.sin(np.pi * X[:, 0] * X[:, 1])
        + 20 * (X[:, 2] - 0.5) ** 2
        + 10 * X[:, 3]
        + 5 * X[:, 4]
        + rng.standard_normal(n_samples)
    )
    return X, y


WORKLOADS: list[Workload] = [
    Workload(
        name="mars_degree2_10k_x10",
        description="MARS with interactions, 10,000 × 10, Friedman's first function: "
        "MARSRegressor(max_degree=2) vs R earth(degree = 2) (timed inside R); identical "
        "terms and knots, fitted values to 1e-8",
        n_samples=10_000,
        n_features=10,
        ours=lambda: OurMARS(2),
        peer=lambda: REarth(2),
        data=friedman1,
        rtol=1e-8,
    ),
    Workload(
        name="mars_degree1_10k_x10",
        description="additive MARS, 10,000 × 10, Friedman's first function: "
        "MARSRegressor() vs R earth() (timed inside R); identical terms and knots",
        n_samples=10_000,
        n_features=10,
        ours=lambda: OurMARS(1),
        peer=lambda: REarth(1),
        data=friedman1,
        rtol=1e-8,
    ),
]
