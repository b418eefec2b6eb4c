"""Estimator fuzzing: random shapes, dtypes, NaN/inf patterns, magnitudes, duplicate rows and
ties, with random valid hyper-parameters drawn from each estimator's ``_parameter_constraints``.

Every public estimator (discovered as in ``test_bad_input.py``) is fitted on drawn data; the fit
must either succeed, giving the same outputs when repeated with the same ``random_state``, or
raise a documented error: a ``ValueError``/``TypeError`` raised with a message that names the
estimator, a parameter or the data (never numpy's or SciPy's own ``LinAlgError``, a ufunc
type error or an unexplained internal message). Each example runs under a time limit.

The default run is bounded (a few derandomised examples per estimator); ``-m fuzz`` runs the
long, randomised version.
"""

from __future__ import annotations

import re
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from statlearning._validation import Boolean, Interval, Options, RandomState
from test_bad_input import (
    DATA_WORDS,
    ESTIMATORS,
    CellTimeout,
    fit,
    kind_of,
    make,
    outputs,
    run_with_limit,
    supervised,
)

#: Parameters left at their defaults: they size the work (kept small by ``make``) or the threads.
FIXED = {"n_jobs", "verbose", "n_estimators", "max_iter", "n_init", "n_resamples", "cv", "copy_X"}

#: Largest draw above an integer parameter's lower bound (keeps fits small).
INT_SPAN = 6

DEFAULT_SETTINGS = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
LONG_SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


# --- hyper-parameters ------------------------------------------------------------------------


def _interval_strategy(c: Interval):
    if c.kind is Integral:
        lo = -INT_SPAN if c.left is None else int(np.ceil(c.left))
        if c.left is not None and c.closed in ("right", "neither") and lo == c.left:
            lo += 1
        hi = lo + INT_SPAN if c.right is None else int(np.floor(c.right))
        if c.right is not None and c.closed in ("left", "neither") and hi == c.right:
            hi -= 1
        return st.integers(lo, max(lo, hi))
    lo = -10.0 if c.left is None else float(c.left)
    hi = lo + 10.0 if c.right is None else float(c.right)
    return st.floats(
        lo,
        hi,
        exclude_min=c.closed in ("right", "neither") or c.left is None,
        exclude_max=c.closed in ("left", "neither") or c.right is None,
        allow_nan=False,
    )


def _constraint_strategy(c):
    if c is None:
        return st.none()
    if isinstance(c, Interval):
        return _interval_strategy(c)
    if isinstance(c, Options):
        return st.sampled_from(sorted(c.options, key=repr))
    if isinstance(c, Boolean):
        return st.booleans()
    if isinstance(c, RandomState):
        return st.integers(0, 3)
    return None  # arrays, callables, estimators, CV: the default


@st.composite
def hyper_parameters(draw, est):
    """A random subset of the parameters set to random values allowed by the constraints."""
    constraints = getattr(type(est), "_parameter_constraints", {})
    params = {}
    for name, accepted in constraints.items():
        if name in FIXED or accepted == "no_validation" or not draw(st.booleans()):
            continue
        options = [s for s in map(_constraint_strategy, accepted) if s is not None]
        if options:
            params[name] = draw(st.one_of(options))
    if "random_state" in est.get_params():
        params["random_state"] = draw(st.integers(0, 3))
    return params


# --- data ------------------------------------------------------------------------------------


@st.composite
def datasets(draw, est):
    """``(X, y)``: shapes, dtypes, magnitudes, ties, duplicate rows and non-finite cells."""
    n = draw(st.integers(0, 24))
    p = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    if draw(st.booleans()):
        X = rng.integers(-2, 3, size=(n, p)).astype(float)  # ties
    else:
        X = rng.normal(size=(n, p))
    X *= draw(st.sampled_from([1.0, 1.0, 1e-8, 1e8, 1e150, 1e-150]))
    if n > 1 and draw(st.booleans()):
        X[n // 2 :] = X[: n - n // 2]  # duplicate rows
    special = draw(st.sampled_from([None, None, None, np.nan, np.inf, -np.inf]))
    if special is not None and n:
        X[rng.integers(n), rng.integers(p)] = special
    if kind_of(est) == "classifier":
        k = draw(st.integers(1, 3))
        y = rng.integers(0, k, size=n)
        if draw(st.booleans()):
            y = np.array(["a", "b", "c"])[y]
    else:
        y = X[:, 0] + rng.normal(size=n) if n else np.zeros(0)
        if n and draw(st.booleans()):
            y = np.round(y)  # ties in y
    if n and draw(st.integers(0, 5)) == 0:
        y = y.astype(object)
        y[rng.integers(n)] = np.nan if kind_of(est) != "classifier" else None
    layout = draw(st.sampled_from(["float64", "float32", "int64", "object", "frame"]))
    if layout == "float32" and not np.any(np.abs(X[np.isfinite(X)]) > 1e30):
        X = X.astype(np.float32)
    elif layout == "int64" and np.all(np.isfinite(X)) and np.all(np.abs(X) < 2**62):
        X = np.round(X).astype(np.int64)
    elif layout == "object":
        X = X.astype(object)
    elif layout == "frame":
        frame = pd.DataFrame(X, columns=[f"v{j}" for j in range(p)])
        if p > 1:
            frame["v1"] = frame["v1"] > 0  # a boolean column
        X = frame
    return X, y


# --- the property ----------------------------------------------------------------------------

#: Exception types that are never a documented error, whatever their base class.
FORBIDDEN = re.compile(r"LinAlgError|UFunc|_UFunc|Numba|Typing|Lowering")


def _documented(exc: BaseException, est_name: str, params) -> bool:
    message = str(exc)
    if FORBIDDEN.search(type(exc).__name__) or "http" in message or len(message) > 1000:
        return False
    names = "|".join(map(re.escape, [est_name, *params, *make(est_name).get_params()]))
    return bool(re.search(rf"{names}|{DATA_WORDS}|NaN|infinity|finite|numeric", message))


def check_example(est_name, params, X, y):
    est = make(est_name)
    try:
        est.set_params(**params)
    except (ValueError, TypeError):
        return
    target = y if supervised(est) else None

    def fit_and_output(model):
        fit(model, X, target)
        return outputs(model, X)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            first = run_with_limit(lambda: fit_and_output(est))
        except CellTimeout:
            raise
        except (ValueError, TypeError) as exc:
            assert _documented(exc, est_name, params), (
                f"{est_name}({params}) raised an undocumented {type(exc).__name__}: {exc}"
            )
            return
        second = run_with_limit(lambda: fit_and_output(clone(est)))
    np.testing.assert_array_equal(
        np.asarray(first), np.asarray(second), err_msg=f"{est_name}({params}) not deterministic"
    )


def _fuzz(est_name, data):
    est = make(est_name)
    params = data.draw(hyper_parameters(est), label="params")
    X, y = data.draw(datasets(est), label="data")
    check_example(est_name, params, X, y)


@pytest.mark.parametrize("est_name", list(ESTIMATORS))
@DEFAULT_SETTINGS
@given(data=st.data())
def test_fuzz_estimator(est_name, data):
    _fuzz(est_name, data)


@pytest.mark.slow
@pytest.mark.fuzz
@pytest.mark.parametrize("est_name", list(ESTIMATORS))
@LONG_SETTINGS
@given(data=st.data())
def test_fuzz_estimator_long(est_name, data):
    _fuzz(est_name, data)


def test_parameter_strategies_respect_the_constraints():
    """Every drawn value satisfies one of the parameter's constraints."""
    for cls in ESTIMATORS.values():
        for name, accepted in getattr(cls, "_parameter_constraints", {}).items():
            if accepted == "no_validation":
                continue
            for c in accepted:
                strategy = _constraint_strategy(c)
                if strategy is None or c is None:
                    continue
                value = _first(strategy)
                ok = any(a.is_satisfied_by(value) for a in accepted if a is not None)
                assert ok, (cls.__name__, name, str(c), value)


def _first(strategy):
    found = []

    @settings(max_examples=5, database=None, derandomize=True)
    @given(strategy)
    def collect(value):
        found.append(value)

    collect()
    return found[0]


def test_real_interval_draws_stay_inside_open_bounds():
    c = Interval(Real, 0, 1, closed="neither")
    value = _first(_constraint_strategy(c))
    assert 0 < value < 1
