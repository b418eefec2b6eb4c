"""Benchmark workloads of the feature_selection family: best subset selection against R's leaps.

The peer is R's ``leaps::regsubsets(x, y, nvmax = p, really.big = TRUE)``, whose
``method = "exhaustive"`` is Furnival and Wilson's branch and bound. R runs in a persistent
``Rscript`` worker started once per process: the first ``fit`` on a data set writes it to a
temporary CSV that the worker reads (R start-up and CSV reading happen then, in the untimed
warm-up). Every later ``fit`` on the same data sends one line on a pipe; the worker runs
``regsubsets`` alone and answers with its own elapsed time (``proc.time()``), so the time the
runner measures is ``regsubsets`` plus one pipe round trip (tens of microseconds). The size is
chosen by BIC on both sides (``summary(regsubsets)$bic``; our ``criterion="bic"``) and the
predictions are the least-squares fit on the chosen columns, so the accuracy check compares the
chosen models. The worker's own timings are kept in ``r_elapsed`` for the record.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import subprocess
import tempfile

import numpy as np

from workloads import Workload

_R_WORKER = r"""
suppressPackageStartupMessages(library(leaps))
con <- file("stdin", open = "r")
x <- NULL; y <- NULL; fit <- NULL
repeat {
  line <- readLines(con, n = 1)
  if (length(line) == 0 || line == "quit") break
  cmd <- strsplit(line, " ", fixed = TRUE)[[1]]
  if (cmd[1] == "load") {
    d <- as.matrix(read.csv(cmd[2], header = FALSE))
    y <- d[, 1]; x <- d[, -1, drop = FALSE]
    cat("ok\n")
  } else if (cmd[1] == "fit") {
    t0 <- proc.time()[["elapsed"]]
    fit <- regsubsets(x, y, nvmax = ncol(x), really.big = TRUE, method = "exhaustive")
    cat(sprintf("%.6f\n", proc.time()[["elapsed"]] - t0))
  } else if (cmd[1] == "chosen") {
    s <- summary(fit)
    cat(which(s$which[which.min(s$bic), -1]) - 1, "\n")
  }
  flush(stdout())
}
"""

_WORKER: dict = {}


def _worker() -> subprocess.Popen:
    if "proc" not in _WORKER:
        script = tempfile.NamedTemporaryFile("w", suffix=".R", delete=False)
        script.write(_R_WORKER)
        script.close()
        proc = subprocess.Popen(
            ["Rscript", "--vanilla", script.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
        )
        _WORKER.update(proc=proc, script=script.name, key=None)

        def _close():
            proc.stdin.write("quit\n")
            proc.stdin.close()
            proc.wait(timeout=10)
            os.unlink(script.name)

        atexit.register(_close)
    return _WORKER["proc"]


def _ask(line: str) -> str:
    proc = _worker()
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()


def _ols_predict(X, y, cols):
    A = np.column_stack([np.ones(len(y)), X[:, cols]])
    return A @ np.linalg.lstsq(A, y, rcond=None)[0]


class LeapsRegsubsets:
    """R's ``regsubsets(x, y, nvmax = p, really.big = TRUE)`` in a persistent worker; BIC."""

    label = 'R leaps regsubsets(nvmax = p, really.big = TRUE, method = "exhaustive")'
    r_elapsed: list[float] = []

    def fit(self, X, y):
        key = hashlib.sha1(X.tobytes() + y.tobytes()).hexdigest()
        _worker()
        if _WORKER["key"] != key:  # new data: transfer once (warm-up)
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
                np.savetxt(f, np.column_stack([y, X]), delimiter=",", fmt="%.17g")
            if _ask(f"load {f.name}") != "ok":
                raise RuntimeError("the R worker could not read the data")
            os.unlink(f.name)
            _WORKER["key"] = key
        self.r_elapsed.append(float(_ask("fit")))
        self._Xy = (X, y)
        return self

    def predict(self, X):
        cols = [int(c) for c in _ask("chosen").split()]
        return _ols_predict(*self._Xy, cols)


class StatlearningBestSubset:
    """``BestSubsetSelector(method=..., criterion="bic")``, then least squares on the support."""

    def __init__(self, method):
        self.method = method
        self.label = f'statlearning BestSubsetSelector(method="{method}", criterion="bic")'

    def fit(self, X, y):
        from statlearning.feature_selection import BestSubsetSelector

        self.selector_ = BestSubsetSelector(method=self.method, criterion="bic").fit(X, y)
        self._Xy = (X, y)
        return self

    def predict(self, X):
        return _ols_predict(*self._Xy, self.selector_.get_support(indices=True))


WORKLOADS: list[Workload] = [
    Workload(
        name="best_subset_bb_1k_x20",
        description="best subset of every size, 1,000 × 20, chosen by BIC: branch and bound vs "
        'R leaps regsubsets(method = "exhaustive") (itself leaps and bounds)',
        n_samples=1_000,
        n_features=20,
        ours=lambda: StatlearningBestSubset("branch_and_bound"),
        peer=LeapsRegsubsets,
    ),
    Workload(
        name="best_subset_all_1k_x20",
        description="best subset of every size, 1,000 × 20: our full enumeration of all 2^20 "
        "subsets (one O(p²) sweep each) vs R leaps (branch and bound)",
        n_samples=1_000,
        n_features=20,
        ours=lambda: StatlearningBestSubset("exhaustive"),
        peer=LeapsRegsubsets,
    ),
    Workload(
        name="best_subset_bb_1k_x30",
        description="best subset of every size, 1,000 × 30, chosen by BIC: branch and bound vs "
        "R leaps regsubsets (leaps and bounds)",
        n_samples=1_000,
        n_features=30,
        ours=lambda: StatlearningBestSubset("branch_and_bound"),
        peer=LeapsRegsubsets,
    ),
]
