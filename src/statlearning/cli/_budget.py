"""The cost model of ``statlearning compare``: how long will each model's cross-validation take?

Each model is fitted and asked for predictions on a small subsample of the training rows (and of
the columns when the data are wide); the subsample doubles until one fit and prediction takes
:data:`PROBE_SECONDS` or the next step would take longer than :data:`PROBE_STEP_LIMIT`. The time
of the last step is extrapolated to a fold by the model's complexity exponents
(:attr:`statlearning._registry.ModelSpec.cost`): ``t * (n / n_probe)**a * (p / p_probe)**b``.
The first step is timed twice when it is slow, so that compiling a kernel is not taken for
work.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass

import numpy as np

__all__ = ["Estimate", "estimate_cost", "probe_order"]

#: Grow the subsample until one fit and prediction take this many seconds ...
PROBE_SECONDS = 0.2
#: ... unless the next step is expected to take longer than this.
PROBE_STEP_LIMIT = 2.0
#: Rows and columns of the first step.
FIRST_ROWS, FIRST_COLUMNS = 200, 10
#: A first step slower than this may include compiling: it is timed again.
_RETIME = 0.05


@dataclass
class Estimate:
    """The expected seconds of one fold of a model, and how they were measured."""

    name: str
    seconds: float | None  # None: the subsample fit failed, no estimate
    probe_seconds: float = 0.0
    rows: int = 0
    columns: int = 0
    error: str | None = None


def probe_order(y, task, seed):
    """Row order of the subsamples: random, classes interleaved so every class is present."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    if task != "classification":
        return order
    labels = y[order]
    rank = np.empty(len(y), dtype=np.int64)
    for label in np.unique(labels):
        rows = np.flatnonzero(labels == label)
        rank[rows] = np.arange(len(rows))
    return order[np.argsort(rank, kind="stable")]


def estimate_cost(spec, X, y, task, n_train, n_test, order, columns, run_fold, clock=None):
    """Estimate the seconds of one fold (fit on ``n_train`` rows, predict ``n_test``).

    Parameters
    ----------
    spec : ModelSpec
    X, y : ndarray
        The data.
    task : str
    n_train, n_test : int
        Rows of a training and a test fold.
    order : ndarray of int
        Row order of the subsamples (:func:`probe_order`).
    columns : ndarray of int
        Column order of the subsamples.
    run_fold : callable
        ``run_fold(spec, X, y, train, test, task, classes)``, raising on failure.
    clock : callable, optional
        Returns seconds (``time.perf_counter``).

    Returns
    -------
    Estimate
    """
    clock = time.perf_counter if clock is None else clock
    a, b = spec.cost
    p = X.shape[1]
    rows, cols = min(n_train, FIRST_ROWS), min(p, FIRST_COLUMNS)
    classes = np.unique(y) if task == "classification" else None
    spent, seconds, step = 0.0, None, 0
    while True:
        test_rows = max(2, min(n_test, math.ceil(rows * n_test / max(n_train, 1))))
        Xs = X[order[: rows + test_rows]][:, columns[:cols]]
        ys = y[order[: rows + test_rows]]
        train, test = np.arange(rows), np.arange(rows, min(rows + test_rows, len(ys)))
        start = clock()
        try:
            elapsed = _timed(run_fold, spec, Xs, ys, train, test, task, classes, clock)
            if step == 0 and elapsed > _RETIME:
                elapsed = _timed(run_fold, spec, Xs, ys, train, test, task, classes, clock)
        except Exception as exc:  # the model's own failure is reported by the folds
            spent += clock() - start
            return Estimate(spec.name, None, spent, rows, cols, f"{type(exc).__name__}: {exc}")
        spent += clock() - start
        scale_n, scale_p = n_train / rows, p / cols
        seconds = elapsed * scale_n**a * scale_p**b
        if (rows, cols) == (n_train, p) or elapsed >= PROBE_SECONDS:
            break
        next_rows, next_cols = min(n_train, 2 * rows), min(p, 2 * cols)
        expected = elapsed * (next_rows / rows) ** a * (next_cols / cols) ** b
        if expected > PROBE_STEP_LIMIT:
            break
        rows, cols, step = next_rows, next_cols, step + 1
    return Estimate(spec.name, seconds, spent, rows, cols)


def _timed(run_fold, spec, X, y, train, test, task, classes, clock):
    start = clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_fold(spec, X, y, train, test, task, classes)
    return clock() - start
