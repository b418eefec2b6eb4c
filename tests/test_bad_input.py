"""The bad-input matrix: every public estimator × every kind of bad input.

The estimators are discovered from the package (every public subpackage's ``__all__``), so a new
estimator joins the matrix without editing this file; one that needs constructor arguments must
be added to :data:`REQUIRED` (the coverage test says so). Each cell has an expected outcome:

* ``OK``: the fit succeeds (warnings allowed) and its outputs on clean data are finite;
* ``Error(pattern)``: a ``ValueError``/``TypeError`` whose message matches ``pattern`` and so
  names the parameter, the column or the data at fault;
* ``OkOrError(pattern)``: either of the two, for inputs some methods can use and others cannot
  (one sample, one feature, sparse X);
* the scale cells (``X × 1e±300``): the answer of the unscaled fit, scaled (same predictions,
  same labels up to a permutation, scores scaled by the same factor), or a ``NumericalWarning``
  that names the data's scale.

Any other exception, a hang (each cell has a time limit) or a wrong answer fails. Cells that
fail today are listed in :data:`EXPECTED_FAILURES` with their reason (pytest's strict xfail: a
cell that starts passing must leave the list). Inputs that do not apply to an estimator (``y``
cells of a clusterer, weights of a ``fit`` without ``sample_weight``) are not generated;
:func:`_applies` says why for each.
"""

from __future__ import annotations

import faulthandler
import importlib
import inspect
import pkgutil
import re
import signal
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, is_classifier, is_clusterer, is_regressor
from sklearn.metrics import adjusted_rand_score
from sklearn.utils import get_tags

import statlearning
from statlearning.exceptions import NumericalWarning

#: Subpackages that hold no estimators of X. ``bayes`` holds conjugate models of one sample
#: (``fit(y)``, no features: nothing of the X-shaped matrix applies); their own bad-input tests
#: are in tests/bayes.
NOT_ESTIMATOR_PACKAGES = {
    "cli",
    "plot",
    "inference",
    "metrics",
    "datasets",
    "model_selection",
    "theory",
    "bayes",
}

#: Constructor arguments of estimators without defaults for every parameter.
REQUIRED: dict[str, Callable[[], dict]] = {
    # one pair of directions: the matrix's y has one column
    "PLSCanonical": lambda: {"n_components": 1},
    "FilterSelector": lambda: {
        "score_func": importlib.import_module("statlearning.feature_selection").mutual_info_scores,
        "k": 1,
    },
    "WrapperSelector": lambda: {
        "estimator": importlib.import_module("statlearning.linear_model").LinearRegression(),
        "cv": 3,
    },
}

#: Settings that keep heavy estimators small (applied where the parameter exists).
SMALL = {"n_estimators": 5, "n_resamples": 20, "max_iter": 200, "n_init": 2}

#: Seconds a cell may take (a hang fails the cell).
TIME_LIMIT = 120  # generous: the first call of a compiled kernel compiles it on a shared machine


def discover() -> dict[str, type]:
    """Every public, concrete estimator class of every public subpackage."""
    found = {}
    for module in pkgutil.iter_modules(statlearning.__path__):
        if module.name.startswith("_") or not module.ispkg:
            continue
        if module.name in NOT_ESTIMATOR_PACKAGES:
            continue
        package = importlib.import_module(f"statlearning.{module.name}")
        for name in getattr(package, "__all__", []):
            obj = getattr(package, name)
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseEstimator)
                and not inspect.isabstract(obj)
                and callable(getattr(obj, "fit", None))  # kernel objects are not estimators
                and not name.startswith("_")
            ):
                found[name] = obj
    return dict(sorted(found.items()))


ESTIMATORS = discover()


def make(name: str):
    """A fresh instance with required arguments and small settings (and ``random_state=0``)."""
    cls = ESTIMATORS[name]
    est = cls(**REQUIRED[name]()) if name in REQUIRED else cls()
    params = est.get_params(deep=False)
    small = {k: v for k, v in SMALL.items() if k in params and isinstance(params[k], int)}
    small = {
        k: min(v, params[k]) if k != "max_iter" else max(v, params[k]) for k, v in small.items()
    }
    if "random_state" in params:
        small["random_state"] = 0
    return est.set_params(**small)


def kind_of(est) -> str:
    if is_classifier(est):
        return "classifier"
    if is_regressor(est):
        return "regressor"
    if is_clusterer(est):
        return "clusterer"
    if get_tags(est).target_tags.required:
        return "selector"  # supervised transformer (feature selectors)
    if hasattr(est, "predict"):
        return "clusterer"  # mixtures: labels from predict
    if not hasattr(est, "transform") and hasattr(est, "score_samples"):
        return "density"
    return "transformer"


def supervised(est) -> bool:
    return kind_of(est) in ("classifier", "regressor", "selector")


def takes_weights(est) -> bool:
    return "sample_weight" in inspect.signature(est.fit).parameters


# --- data ------------------------------------------------------------------------------------

N, P = 30, 3


def base_data():
    """Well-posed data: three loose clusters, a linear regression target, two balanced classes."""
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0, 0.0], [4.0, 4.0, 0.0], [0.0, 4.0, 4.0]])
    X = centres[np.arange(N) % 3] + rng.normal(scale=0.7, size=(N, P))
    y_reg = X @ np.array([1.0, -2.0, 0.5]) + 1.0 + rng.normal(scale=0.3, size=N)
    y_cls = (X[:, 0] - X[:, 2] + rng.normal(scale=0.5, size=N) > 0).astype(int)
    return X, y_reg, y_cls


def data_for(est):
    """The base data, made non-negative for estimators of counts (``positive_only``)."""
    X, y_reg, y_cls = base_data()
    if get_tags(est).input_tags.positive_only:
        X = np.abs(X)
    if get_tags(est).input_tags.pairwise:  # a Gram matrix of the rows
        X = X @ X.T
    return X, y_reg, y_cls


def target(est, y_reg, y_cls):
    return y_cls if kind_of(est) == "classifier" else y_reg


# --- outcomes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OK:
    """The fit succeeds and its outputs are finite."""


@dataclass(frozen=True)
class Error:
    """A ValueError or TypeError whose message matches ``pattern``."""

    pattern: str


@dataclass(frozen=True)
class OkOrError:
    """Either a successful fit or an Error(pattern)."""

    pattern: str


@dataclass(frozen=True)
class Scaled:
    """X multiplied by ``factor``: the unscaled fit's answer, scaled, or a NumericalWarning
    naming the scale."""

    factor: float


#: What an error about the data must name when no more specific pattern applies.
DATA_WORDS = r"sample|feature|class|column|\bX\b|\by\b|n_\w+|cv|fold|dimension|dim \d|shape"


class CellTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CellTimeout(f"the cell took more than {TIME_LIMIT} s")


def run_with_limit(func):
    """``func()`` under a time limit (a Python-level alarm; a hard dump-and-exit backstop for a
    hang inside compiled code)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    faulthandler.dump_traceback_later(4 * TIME_LIMIT, exit=True)
    try:
        return func()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        faulthandler.cancel_dump_traceback_later()


def fit(est, X, y=None, **fit_params):
    if supervised(est):
        return est.fit(X, y, **fit_params)
    return est.fit(X, **fit_params)


def outputs(est, X):
    """What the fitted estimator says about ``X``: predictions, labels or a transform."""
    kind = kind_of(est)
    if kind in ("classifier", "regressor"):
        return np.asarray(est.predict(X))
    if kind == "clusterer":
        if hasattr(est, "predict"):
            return np.asarray(est.predict(X))
        return np.asarray(est.labels_)
    if kind == "density":
        return np.asarray(est.score_samples(X))
    return np.asarray(est.transform(X))


def assert_finite_outputs(est, X):
    out = outputs(est, X)
    if out.dtype.kind in "fc":
        assert np.all(np.isfinite(out)), f"{type(est).__name__} gave non-finite outputs"


# --- the inputs ------------------------------------------------------------------------------


def _frame(X):
    names = ["a", "b", "c"] + [f"x{j}" for j in range(3, X.shape[1])]
    return pd.DataFrame(X, columns=names[: X.shape[1]])


def _with(X, row, col, value):
    X = X.astype(float).copy()
    X[row, col] = value
    return X


def _sw(kind):
    w = np.ones(N)
    if kind == "negative":
        w[4] = -1.0
    elif kind == "zero_all":
        w[:] = 0.0
    elif kind == "zero_some":
        w[:5] = 0.0
    elif kind == "nan":
        w[7] = np.nan
    return w


def _size_param(est):
    params = est.get_params(deep=False)
    for name in ("n_clusters", "n_components", "n_neighbors", "prototypes"):
        if name in params:
            return name
    return None


#: name -> (builder(est, X, y_reg, y_cls) -> (X, y, fit_params, overrides), expectation(est))
CELLS: dict[str, tuple] = {}


def cell(name):
    def register(func):
        CELLS[name] = func
        return func

    return register


@cell("nan_X")
def _nan_x(est, X, y):
    if get_tags(est).input_tags.allow_nan:
        return _with(X, 5, 1, np.nan), y, {}, OK()
    return _with(X, 5, 1, np.nan), y, {}, Error(r"column 1 contains NaN in 1 row \(first: row 5\)")


@cell("nan_X_frame")
def _nan_frame(est, X, y):
    if get_tags(est).input_tags.allow_nan:
        return _frame(_with(X, 5, 1, np.nan)), y, {}, OK()
    return _frame(_with(X, 5, 1, np.nan)), y, {}, Error(r"column 'b' contains NaN")


@cell("posinf_X")
def _posinf(est, X, y):
    return _with(X, 2, 1, np.inf), y, {}, Error(r"column 1 contains infinity|infinity in column")


@cell("neginf_X")
def _neginf(est, X, y):
    return _with(X, 2, 0, -np.inf), y, {}, Error(r"column 0 contains infinity|infinity in column")


@cell("empty")
def _empty(est, X, y):
    return X[:0], (None if y is None else y[:0]), {}, Error(r"0 sample|empty|minimum of \d")


@cell("one_sample")
def _one_sample(est, X, y):
    return X[:1], (None if y is None else y[:1]), {}, OkOrError(DATA_WORDS)


@cell("one_feature")
def _one_feature(est, X, y):
    return X[:, :1], y, {}, OkOrError(DATA_WORDS)


#: A singular design may also be refused, if the message says so.
SINGULAR = r"singular|collinear|constant|rank"


@cell("constant_column")
def _constant(est, X, y):
    X = X.copy()
    X[:, 1] = 3.0
    return X, y, {}, OkOrError(SINGULAR)


@cell("duplicated_column")
def _duplicated(est, X, y):
    if get_tags(est).input_tags.pairwise:  # a duplicated column makes a Gram matrix non-square
        return np.column_stack([X, X[:, 0]]), y, {}, Error(r"square")
    return np.column_stack([X, X[:, 0]]), y, {}, OkOrError(SINGULAR)


@cell("text_column")
def _text(est, X, y):
    frame = _frame(X)
    frame["colour"] = np.array(["red", "green", "blue"])[np.arange(N) % 3]
    return frame, y, {}, Error(r"column 'colour' is not numeric")


@cell("object_numbers")
def _object_numbers(est, X, y):
    frame = _frame(X)
    frame["b"] = frame["b"].astype(object)
    return frame, y, {}, OK()


@cell("mixed_dtypes")
def _mixed(est, X, y):
    frame = _frame(X)
    frame["count"] = (np.arange(N) % 4).astype(np.int64)
    frame["flag"] = np.arange(N) % 2 == 0
    if get_tags(est).input_tags.pairwise:  # added columns make a Gram matrix non-square
        return frame, y, {}, Error(r"square")
    return frame, y, {}, OK()


@cell("category_text")
def _category(est, X, y):
    frame = _frame(X)
    frame["g"] = pd.Categorical(np.array(["u", "v", "w"])[np.arange(N) % 3])
    if get_tags(est).input_tags.categorical or "categorical_features" in est.get_params():
        return frame, y, {}, OkOrError(r"column 'g'")
    return frame, y, {}, Error(r"column 'g' is categorical")


@cell("sparse")
def _sparse(est, X, y):
    if get_tags(est).input_tags.sparse:
        return sp.csr_matrix(X), y, {}, OK()
    return sp.csr_matrix(X), y, {}, Error(r"sparse")


@cell("three_d")
def _three_d(est, X, y):
    return X[:, :, None], y, {}, Error(r"dim 3|3D|2D|dimension")


@cell("y_nan")
def _y_nan(est, X, y):
    y = y.astype(float).copy()
    y[3] = np.nan
    return X, y, {}, Error(r"y contains NaN in 1 row \(first: row 3\)")


@cell("single_class")
def _single_class(est, X, y):
    if kind_of(est) == "classifier":
        return X, np.zeros(N, dtype=int), {}, Error(r"class")
    return X, np.full(N, 2.5), {}, OkOrError(r"constant|y|variance")


@cell("mismatched_lengths")
def _mismatched(est, X, y):
    return X, y[:-3], {}, Error(r"inconsistent|samples|length")


for _kind in ("negative", "zero_all", "nan"):

    def _bad_weights(est, X, y, _kind=_kind):
        return X, y, {"sample_weight": _sw(_kind)}, Error(r"sample_weight")

    CELLS[f"weights_{_kind}"] = _bad_weights


@cell("weights_zero_some")
def _zero_some(est, X, y):
    return X, y, {"sample_weight": _sw("zero_some")}, OK()


@cell("y_numeric_strings")
def _y_numeric_strings(est, X, y):
    return X, np.array([repr(float(v)) for v in y]), {}, OK()


@cell("y_text")
def _y_text(est, X, y):
    if kind_of(est) == "classifier":
        return X, np.array(["no", "yes"])[y], {}, OK()
    if kind_of(est) == "selector":  # some selectors rank features for class labels
        return X, np.array(["no", "yes"])[(y > np.median(y)).astype(int)], {}, OkOrError(r"\by\b")
    text = np.array([repr(float(v)) for v in y])
    text[6] = "high"
    return X, text, {}, Error(r"y must be numeric .*row 6 holds 'high'")


@cell("scale_1e300")
def _up(est, X, y):
    return X * 1e300, y, {}, Scaled(1e300)


@cell("scale_1e-300")
def _down(est, X, y):
    return X * 1e-300, y, {}, Scaled(1e-300)


@cell("size_larger_than_n")
def _too_many(est, X, y):
    return X, y, {"__set_params__": {_size_param(est): N + 5}}, Error(_size_param(est) or "")


def _applies(name: str, est) -> str | None:
    """Why cell ``name`` does not apply to ``est`` (None: it applies)."""
    if name.startswith(("y_", "single_class", "mismatched")) and not supervised(est):
        return "the estimator takes no y"
    if name.startswith("weights_") and not takes_weights(est):
        return "fit has no sample_weight"
    if name == "size_larger_than_n" and _size_param(est) is None:
        return "no n_clusters, n_components, n_neighbors or prototypes parameter"
    if name == "y_numeric_strings" and kind_of(est) not in ("regressor", "selector"):
        return "numeric strings are class labels for a classifier (y_text covers labels)"
    return None


# --- expected failures -----------------------------------------------------------------------

#: (estimator, cell) -> (expected outcome, reason): where an estimator documents another answer.
OVERRIDES: dict[tuple[str, str], tuple] = {
    **{
        (gam, "text_column"): (OK(), "documented: text columns are factor terms (f())")
        for gam in ("GAMRegressor", "GAMClassifier")
    },
    ("ReliefF", "size_larger_than_n"): (
        OK(),
        "documented: k hits and misses per class, fewer when a class is smaller (CORElearn)",
    ),
    ("FormulaTransformer", "text_column"): (
        OK(),
        "documented: a text column is a factor of the formula, treatment coded as R's",
    ),
}

#: (estimator, cell) -> reason. Strict: a cell that passes must leave this list. Every entry is
#: X × 1e±300: distances, variances and Gram matrices overflow or underflow (squares of 1e±300),
#: or tolerances are absolute; the estimators are to rescale internally or warn.
UP, DOWN = ("scale_1e300",), ("scale_1e-300",)
BOTH = UP + DOWN

#: (estimator, cells, symptom today).
_SCALE_FAILURES: list[tuple[str, tuple[str, ...], str]] = []
EXPECTED_FAILURES: dict[tuple[str, str], str] = {
    (name, cell): f"scale handling: {symptom}"
    for name, cells, symptom in _SCALE_FAILURES
    for cell in cells
}


def _params():
    for est_name in ESTIMATORS:
        est = make(est_name)
        for cell_name in CELLS:
            if _applies(cell_name, est) is not None:
                continue
            marks = []
            reason = EXPECTED_FAILURES.get((est_name, cell_name))
            if reason is not None:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            yield pytest.param(est_name, cell_name, id=f"{est_name}-{cell_name}", marks=marks)


# --- checking one cell -----------------------------------------------------------------------


#: Estimators whose answer legitimately changes when X is rescaled: only a finite answer (or a
#: NumericalWarning naming the scale) is required of them on the scale cells.
NOT_EQUIVARIANT = {
    "StepFeatures": "interval dummies do not change when x and the breaks scale together",
    "BSplineFeatures": "B-splines do not change when x and the knots scale together",
    "NaturalSplineFeatures": "the basis does not change when x and the knots scale together",
    "PolynomialFeatures": "x^k scales as factor^k (and warns where float64 cannot hold it)",
    "TruncatedPowerFeatures": "x^k scales as factor^k (and warns where float64 cannot hold it)",
    "Ridge": "a fixed alpha penalises coefficients whose size follows X's scale",
    "RidgeCV": "the penalty grid is fixed, not relative to X's scale",
    "Lasso": "a fixed alpha penalises coefficients whose size follows X's scale",
    "ElasticNet": "a fixed alpha penalises coefficients whose size follows X's scale",
    "HuberRegressor": "a fixed alpha penalises coefficients whose size follows X's scale",
    "BayesianLinearRegression": "the fixed prior precision acts on coefficients",
    "LassoPathSelector": "the path's fixed alpha acts on coefficients",
    "Perceptron": "the intercept's step does not scale with X",
    "DBSCAN": "eps is a distance in X's units",
    "SpectralClustering": "the affinity's gamma is in X's units",
    "GaussianMixture": "reg_covar is added in X's units",
    "MultinomialNB": "the smoothing alpha is a count, not relative to X",
    "KernelDensity": "the bandwidth is in X's units",
    "KernelRidge": "a fixed alpha penalises the dual coefficients of a linear kernel in X's units",
    "KernelCCA": "the kernel's gamma is in X's units",
}

#: Supervised transformers whose scores do not change when X is rescaled (checked so).
SCALE_INVARIANT = {
    "CCA": "canonical variates have unit sum of squares whatever X's units",
    "PLSCanonical": "the blocks are standardised (scale=True)",
}


#: Regressors whose answer is the optimum of a criterion that is flat in some direction, so that
#: the fit on rescaled data agrees to the optimiser's tolerance rather than to rounding.
OPTIMISER_TOLERANCE = {
    "GAMRegressor": (
        1e-4,
        "a smooth pushed towards its null space (λ → ∞) sits where GCV is flat: Newton on log λ "
        "stops once the gradient is below 1e-7 of the criterion, and the fitted values still move "
        "by O(1/λ) there (edf 1.000005 against 1.00005: ~3e-6 of the range of y)",
    ),
}


#: Transformers whose output has no units (it does not follow X's scale).
UNIT_FREE = {"PrototypeFeatures": "kernel values; gamma='scale' follows 1/Var(X)"}


def _scaled_answer_matches(name, est, X, y, factor, caught):
    """The fit on ``X * factor`` gives the unscaled fit's answer, or warns about the scale."""
    if any(
        issubclass(w.category, NumericalWarning) and re.search(r"scale", str(w.message))
        for w in caught
    ):
        return
    if name in NOT_EQUIVARIANT:
        assert_finite_outputs(est, X * factor)
        return
    reference = fit(make(name), X, y)
    kind = kind_of(est)
    if kind in ("classifier",):
        np.testing.assert_array_equal(est.predict(X * factor), reference.predict(X))
    elif kind == "regressor":
        tol = OPTIMISER_TOLERANCE.get(name, (1e-6, ""))[0]
        np.testing.assert_allclose(
            est.predict(X * factor), reference.predict(X), rtol=tol, atol=tol * np.ptp(y)
        )
    elif kind == "clusterer":
        got = outputs(est, X * factor)
        assert adjusted_rand_score(got, outputs(reference, X)) == 1.0
    elif name in SCALE_INVARIANT:
        got, want = outputs(est, X * factor), outputs(reference, X)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())
    elif kind == "selector":
        np.testing.assert_array_equal(est.get_support(), reference.get_support())
    else:
        got = outputs(est, X * factor) / (1.0 if name in UNIT_FREE else factor)
        want = outputs(reference, X)
        signs = np.sign(np.sum(got * want, axis=0))
        np.testing.assert_allclose(got * signs, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())


def check_cell(est_name, cell_name):
    est = make(est_name)
    X, y_reg, y_cls = data_for(est)
    y = target(est, y_reg, y_cls) if supervised(est) else None
    Xc, yc, fit_params, expected = CELLS[cell_name](est, X, y)
    if (est_name, cell_name) in OVERRIDES:
        expected = OVERRIDES[est_name, cell_name][0]
    if not get_tags(est).input_tags.two_d_array and np.ndim(Xc) == 2 and Xc.shape[1] > 1:
        if not isinstance(expected, Error):  # a smoother of one predictor refuses 3 columns
            expected = Error(r"X must be one predictor")
    set_params = fit_params.pop("__set_params__", None)
    if set_params:
        est.set_params(**set_params)

    def attempt():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fit(est, Xc, yc, **fit_params)
            if isinstance(expected, Scaled):
                _scaled_answer_matches(est_name, est, X, y, expected.factor, caught)
            elif not isinstance(Xc, pd.DataFrame) and np.ndim(Xc) == 2 and not sp.issparse(Xc):
                assert_finite_outputs(est, Xc[: max(1, min(len(Xc), 5))])
        return caught

    if isinstance(expected, Error):
        with pytest.raises((ValueError, TypeError)) as info:
            run_with_limit(attempt)
        message = str(info.value)
        assert re.search(expected.pattern, message), (
            f"{est_name} on {cell_name}: the message does not name the fault "
            f"({expected.pattern!r}):"
            f" {type(info.value).__name__}: {message}"
        )
        assert "http" not in message, f"a long message with a URL: {message}"
        assert not isinstance(info.value, AssertionError)
        return
    try:
        run_with_limit(attempt)
    except (ValueError, TypeError) as exc:
        if not isinstance(expected, OkOrError) or isinstance(exc, AssertionError):
            raise
        assert re.search(expected.pattern, str(exc)), (
            f"{est_name} on {cell_name}: the message does not name the fault: {exc}"
        )


# --- the tests -------------------------------------------------------------------------------


def test_matrix_covers_every_public_estimator(capsys):
    names = list(ESTIMATORS)
    missing = [n for n in names if n not in REQUIRED and _needs_arguments(ESTIMATORS[n])]
    assert not missing, f"add constructor arguments for {missing} to REQUIRED"
    with capsys.disabled():
        print(f"\nbad-input matrix: {len(names)} public estimators × {len(CELLS)} inputs")
    assert len(names) >= 37


def _needs_arguments(cls) -> bool:
    return any(
        p.default is inspect.Parameter.empty and p.name != "self"
        for p in inspect.signature(cls.__init__).parameters.values()
    )


@pytest.mark.parametrize(("est_name", "cell_name"), list(_params()))
def test_bad_input(est_name, cell_name):
    check_cell(est_name, cell_name)
