"""The cost model of ``statlearning compare``: how long will each model's cross-validation take?

Each model is fitted and asked for predictions on a small subsample of the training rows (and of
the columns when the data are wide); the subsample doubles until one fit and prediction takes
:data:`PROBE_SECONDS` (and is within a factor :data:`MAX_EXTRAPOLATION` of a fold) or the next
step would take longer than :data:`PROBE_STEP_LIMIT`. The time of the last step is extrapolated
to a fold by the model's complexity exponents (:attr:`statlearning._registry.ModelSpec.cost`):
``t * (n / n_probe)**a * (p / p_probe)**b``; after two steps, the time is split into a fixed
part and a part growing as the exponents say (two equations, two unknowns), and only the latter
is extrapolated. A step much slower than predicted (the first call compiling a kernel, a busy
machine) is timed again and the shorter time counts.
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
#: Keep growing a subsample that took PROBE_SECONDS while its time would be multiplied by more
#: than this to reach a fold.
MAX_EXTRAPOLATION = 1000.0
#: A step taking this many times longer than its predecessor predicts is timed again (the
#: machine was busy), the shorter time counting.
SPIKE = 3.0
#: The part of a step's time taken as growing with the size is at least this share (timings
#: are noisy on a busy machine).
MIN_VARYING = 0.25
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
        The data (``X`` a DataFrame of a formula's variables: rows subsampled, not columns).
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
    table = hasattr(X, "iloc")  # a formula's variables: every column, its design built per fit
    rows, cols = min(n_train, FIRST_ROWS), (p if table else min(p, FIRST_COLUMNS))
    classes = np.unique(y) if task == "classification" else None
    spent, previous = 0.0, None  # previous: the last step's time and the predicted growth
    while True:
        test_rows = max(2, min(n_test, math.ceil(rows * n_test / max(n_train, 1))))
        if table:
            Xs = X.iloc[order[: rows + test_rows]]
        else:
            Xs = X[order[: rows + test_rows]][:, columns[:cols]]
        ys = y[order[: rows + test_rows]]
        train, test = np.arange(rows), np.arange(rows, min(rows + test_rows, len(ys)))
        start = clock()
        try:
            elapsed = _timed(run_fold, spec, Xs, ys, train, test, task, classes, clock)
            expected = (
                _RETIME if previous is None else max(_RETIME, SPIKE * previous[0] * previous[1])
            )
            if elapsed > expected:  # compiling on the first call, or a busy machine
                again = _timed(run_fold, spec, Xs, ys, train, test, task, classes, clock)
                elapsed = min(elapsed, again)
        except Exception as exc:  # the model's own failure is reported by the folds
            spent += clock() - start
            return Estimate(spec.name, None, spent, rows, cols, f"{type(exc).__name__}: {exc}")
        spent += clock() - start
        factor = (n_train / rows) ** a * (p / cols) ** b
        seconds = elapsed * factor
        if previous is not None:  # two steps: a fixed cost and one growing with the size
            last, growth = previous
            varying = (elapsed - last) * growth / (growth - 1)
            varying = min(elapsed, max(MIN_VARYING * elapsed, varying))
            seconds = elapsed - varying + varying * factor
        if (rows, cols) == (n_train, p):
            break
        next_rows, next_cols = min(n_train, 2 * rows), min(p, 2 * cols)
        growth = (next_rows / rows) ** a * (next_cols / cols) ** b
        if (
            growth <= 1
            or elapsed * growth > PROBE_STEP_LIMIT
            or (elapsed >= PROBE_SECONDS and factor <= MAX_EXTRAPOLATION)
        ):
            break
        previous = (elapsed, growth)
        rows, cols = next_rows, next_cols
    return Estimate(spec.name, seconds, spent, rows, cols)


def _timed(run_fold, spec, X, y, train, test, task, classes, clock):
    start = clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_fold(spec, X, y, train, test, task, classes)
    return clock() - start
