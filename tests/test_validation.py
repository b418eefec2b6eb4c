"""Hyper-parameter constraints, ``validate_params`` and ``check_sample_weight``."""

from __future__ import annotations

import inspect
from numbers import Integral, Real

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import statlearning.linear_model
from statlearning._validation import (
    CV,
    DEPRECATED,
    ArrayLike,
    Boolean,
    Callable,
    InstanceOf,
    Interval,
    Options,
    RandomState,
    check_alphas,
    check_sample_weight,
    renamed_parameter,
    validate_params,
)
from statlearning.exceptions import InvalidParameterError

# --- Interval -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("closed", "left_in", "right_in"),
    [
        ("both", True, True),
        ("left", True, False),
        ("right", False, True),
        ("neither", False, False),
    ],
)
def test_interval_closed_variants(closed, left_in, right_in):
    c = Interval(Real, 0, 1, closed=closed)
    assert c.is_satisfied_by(0) is left_in
    assert c.is_satisfied_by(0.0) is left_in
    assert c.is_satisfied_by(1) is right_in
    assert c.is_satisfied_by(0.5)
    assert not c.is_satisfied_by(-1e-12)
    assert not c.is_satisfied_by(1 + 1e-12)


@pytest.mark.parametrize(
    ("closed", "text"),
    [
        ("both", "a float in the range [0, 1]"),
        ("left", "a float in the range [0, 1)"),
        ("right", "a float in the range (0, 1]"),
        ("neither", "a float in the range (0, 1)"),
    ],
)
def test_interval_str(closed, text):
    assert str(Interval(Real, 0, 1, closed=closed)) == text


def test_interval_str_unbounded_and_integral():
    assert str(Interval(Integral, 1, None, closed="left")) == "an int in the range [1, inf)"
    assert str(Interval(Real, None, 0, closed="right")) == "a float in the range (-inf, 0]"
    # an absent bound is never "closed"
    assert str(Interval(Real, None, None, closed="both")) == "a float in the range (-inf, inf)"


def test_interval_unbounded_sides():
    c = Interval(Real, None, 0, closed="right")
    assert c.is_satisfied_by(-1e300)
    assert c.is_satisfied_by(0)
    assert not c.is_satisfied_by(1e-300)
    c = Interval(Integral, 1, None, closed="left")
    assert c.is_satisfied_by(2**62)
    assert not c.is_satisfied_by(0)


def test_interval_accepts_python_ints_beyond_int64():
    assert Interval(Integral, 1, None, closed="left").is_satisfied_by(10**30)
    assert not Interval(Real, None, 0).is_satisfied_by(10**30)


def test_interval_integral_rejects_floats():
    c = Interval(Integral, 0, None, closed="left")
    assert c.is_satisfied_by(3)
    assert c.is_satisfied_by(np.int64(3))
    assert c.is_satisfied_by(np.uint8(3))
    assert not c.is_satisfied_by(3.0)
    assert not c.is_satisfied_by(np.float64(3.0))
    assert not c.is_satisfied_by("3")


def test_interval_real_accepts_ints_and_numpy_scalars():
    c = Interval(Real, 0, None, closed="neither")
    for value in (2, 2.5, np.float32(2.5), np.float64(2.5), np.int32(2)):
        assert c.is_satisfied_by(value), value
    assert not c.is_satisfied_by("2.5")
    assert not c.is_satisfied_by([2.5])
    assert not c.is_satisfied_by(None)


@pytest.mark.parametrize("kind", [Integral, Real])
@pytest.mark.parametrize("value", [True, False, np.True_, np.False_])
def test_interval_rejects_booleans(kind, value):
    assert not Interval(kind, None, None).is_satisfied_by(value)
    assert not Interval(kind, 0, 1, closed="both").is_satisfied_by(value)


@pytest.mark.parametrize("value", [float("nan"), np.nan, np.float32("nan")])
def test_interval_rejects_nan(value):
    assert not Interval(Real, None, None).is_satisfied_by(value)
    assert not Interval(Real, 0, 1).is_satisfied_by(value)


def test_interval_checks_its_own_arguments():
    with pytest.raises(ValueError, match="kind"):
        Interval(float, 0, 1)
    with pytest.raises(ValueError, match="closed"):
        Interval(Real, 0, 1, closed="open")


# --- the other constraints ----------------------------------------------------------------------


def test_options():
    c = Options({"qr", "svd"})
    assert c.is_satisfied_by("qr")
    assert c.is_satisfied_by("svd")
    assert not c.is_satisfied_by("QR")
    assert not c.is_satisfied_by("cholesky")
    assert not c.is_satisfied_by(None)
    assert not c.is_satisfied_by(["qr"])  # unhashable: rejected, not an error
    assert str(c) == "one of {'qr', 'svd'}"


def test_options_rejects_booleans_equal_to_members():
    c = Options({0, 1})
    assert c.is_satisfied_by(1)
    assert not c.is_satisfied_by(True)  # True == 1 and hash(True) == hash(1)
    assert not c.is_satisfied_by(np.False_)


def test_boolean():
    c = Boolean()
    for value in (True, False, np.True_, np.False_):
        assert c.is_satisfied_by(value)
    for value in (0, 1, 1.0, "True", None, np.array([True])):
        assert not c.is_satisfied_by(value), value
    assert str(c) == "a bool"


def test_random_state():
    c = RandomState()
    for value in (None, 0, 42, np.int64(7), np.random.RandomState(0), np.random.default_rng(0)):
        assert c.is_satisfied_by(value), value
    for value in (True, 1.5, "0", np.random.PCG64(0), [0]):
        assert not c.is_satisfied_by(value), value


def test_callable():
    c = Callable()
    for value in (len, lambda x: x, np.mean, dict, Options({"a"}).is_satisfied_by):
        assert c.is_satisfied_by(value)
    for value in ("len", 1, None):
        assert not c.is_satisfied_by(value)
    assert str(c) == "a callable"


def test_array_like():
    class HasArray:
        def __array__(self, dtype=None, copy=None):
            return np.zeros(2)

    c = ArrayLike()
    for value in ([1, 2], (1, 2), np.zeros(3), np.float64(1.0), HasArray()):
        assert c.is_satisfied_by(value), value
    for value in ("12", 1, None, {1: 2}):
        assert not c.is_satisfied_by(value), value


def test_instance_of():
    c = InstanceOf(int, str)
    assert c.is_satisfied_by(3)
    assert c.is_satisfied_by("a")
    assert not c.is_satisfied_by(3.0)
    assert str(c) == "an instance of int or str"


# --- validate_params ----------------------------------------------------------------------------


class _Toy(BaseEstimator):
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "solver": [Options({"a", "b"})],
        "n": [Interval(Integral, 1, None, closed="left"), None],
        "flag": [Boolean()],
        "skipped": "no_validation",
    }

    def __init__(self, alpha=1.0, solver="a", n=None, flag=True, skipped=None, free=None):
        self.alpha = alpha
        self.solver = solver
        self.n = n
        self.flag = flag
        self.skipped = skipped
        self.free = free


def test_validate_params_accepts_valid_values():
    validate_params(_Toy())
    validate_params(_Toy(alpha=0, solver="b", n=3, flag=np.False_))
    validate_params(_Toy(skipped=object(), free=object()))  # unchecked parameters


@pytest.mark.parametrize(
    ("params", "param", "accepted"),
    [
        ({"alpha": -1.0}, "alpha", "a float in the range [0, inf)"),
        ({"alpha": "big"}, "alpha", "a float in the range [0, inf)"),
        ({"alpha": True}, "alpha", "a float in the range [0, inf)"),
        ({"alpha": float("nan")}, "alpha", "a float in the range [0, inf)"),
        ({"solver": "c"}, "solver", "one of {'a', 'b'}"),
        ({"n": 0}, "n", "an int in the range [1, inf) or None"),
        ({"n": 2.0}, "n", "an int in the range [1, inf) or None"),
        ({"flag": 1}, "flag", "a bool"),
    ],
)
def test_validate_params_message(params, param, accepted):
    est = _Toy(**params)
    value = params[param]
    with pytest.raises(InvalidParameterError) as info:
        validate_params(est)
    message = str(info.value)
    assert "_Toy" in message
    assert repr(param) in message
    assert accepted in message
    assert repr(value) in message
    assert type(value).__name__ in message


def test_invalid_parameter_error_is_value_and_type_error():
    with pytest.raises(ValueError, match="alpha"):
        validate_params(_Toy(alpha=-1))
    with pytest.raises(TypeError, match="alpha"):
        validate_params(_Toy(alpha="x"))
    assert issubclass(InvalidParameterError, ValueError)
    assert issubclass(InvalidParameterError, TypeError)


def test_validate_params_none_only_where_allowed():
    validate_params(_Toy(n=None))
    with pytest.raises(InvalidParameterError, match="'alpha'"):
        validate_params(_Toy(alpha=None))


def test_validate_params_explicit_constraints_override_the_class():
    est = _Toy(alpha=-1.0)
    validate_params(est, {"solver": [Options({"a"})]})  # alpha not checked here
    with pytest.raises(InvalidParameterError, match="'solver'"):
        validate_params(_Toy(solver="b"), {"solver": [Options({"a"})]})


# --- check_sample_weight ------------------------------------------------------------------------


def test_sample_weight_none_gives_ones():
    w = check_sample_weight(None, 4)
    assert w.dtype == np.float64
    np.testing.assert_array_equal(w, np.ones(4))


def test_sample_weight_scalar_is_broadcast():
    w = check_sample_weight(2, 3)
    assert w.dtype == np.float64
    np.testing.assert_array_equal(w, [2.0, 2.0, 2.0])


@pytest.mark.parametrize(
    "value", [[1, 2, 0.5], (1, 2, 0.5), np.array([1, 2, 0.5], dtype=np.float32)]
)
def test_sample_weight_sequences(value):
    w = check_sample_weight(value, 3)
    assert w.dtype == np.float64
    assert w.shape == (3,)
    np.testing.assert_array_equal(w, [1.0, 2.0, 0.5])


def test_sample_weight_zeros_allowed_if_some_positive():
    np.testing.assert_array_equal(check_sample_weight([0, 1, 0], 3), [0.0, 1.0, 0.0])


def test_sample_weight_returns_a_copy_and_leaves_the_input_alone():
    for original in (np.array([1.0, 2.0, 3.0]), np.array([1, 2, 3])):
        before = original.copy()
        w = check_sample_weight(original, 3)
        w[:] = -5.0
        np.testing.assert_array_equal(original, before)
        assert not np.shares_memory(w, original)


BAD_WEIGHTS = [
    pytest.param(np.ones((3, 1)), 3, "1-D", id="2-D"),
    pytest.param(np.ones((1, 3)), 3, "1-D", id="row"),
    pytest.param(np.array(1.0).reshape(()), 3, None, id="0-d-array"),
    pytest.param([1.0, 2.0], 3, "2 entries", id="too-short"),
    pytest.param(np.ones(4), 3, "4 entries", id="too-long"),
    pytest.param([1.0, np.nan, 1.0], 3, "NaN", id="nan"),
    pytest.param([1.0, np.inf, 1.0], 3, "infinite", id="inf"),
    pytest.param([1.0, -np.inf, 1.0], 3, "infinite", id="-inf"),
    pytest.param([1.0, -0.5, 1.0], 3, "non-negative", id="negative"),
    pytest.param([0.0, 0.0, 0.0], 3, "zero", id="all-zero"),
    pytest.param(["a", "b", "c"], 3, "numeric", id="strings"),
    pytest.param([1.0, None, 2.0], 3, None, id="none-entry"),  # numpy reads None as NaN
    pytest.param([[1.0, 2.0], [3.0]], 3, None, id="ragged"),
]


@pytest.mark.parametrize(("value", "n", "match"), BAD_WEIGHTS)
def test_sample_weight_rejected(value, n, match):
    with pytest.raises(ValueError) as info:
        check_sample_weight(value, n, estimator_name="MyModel")
    message = str(info.value)
    assert "sample_weight" in message
    assert message.startswith("MyModel: ")
    if match is not None:
        assert match in message


@pytest.mark.parametrize(
    ("value", "match"),
    [(np.nan, "NaN"), (np.inf, "infinite"), (-1.0, "non-negative"), (0, "zero")],
)
def test_sample_weight_bad_scalar_rejected(value, match):
    with pytest.raises(ValueError, match="sample_weight") as info:
        check_sample_weight(value, 3)
    assert match in str(info.value)


def test_sample_weight_message_without_estimator_name():
    with pytest.raises(ValueError) as info:
        check_sample_weight([1.0, -1.0], 2)
    assert str(info.value).startswith("sample_weight")


# --- cross-validation schemes, penalty grids, renamed parameters -------------------------------


def test_cv_constraint():
    from sklearn.model_selection import KFold

    c = CV()
    for ok in (2, np.int64(10), KFold(3), [([0, 1], [2])], np.array([0, 1, 0, 1]),
               iter([([0], [1])])):
        assert c.is_satisfied_by(ok)
    for bad in (1, 0, -3, True, 0.5, 3.0, "five", None, object()):
        assert not c.is_satisfied_by(bad)
    assert "int >= 2" in str(c) and "fold ids" in str(CV(fold_ids=True))


def test_check_alphas():
    np.testing.assert_array_equal(check_alphas([1, 0.5, 0], "f"), [1.0, 0.5, 0.0])
    with pytest.raises(ValueError, match=r"f: alphas must be finite and non-negative"):
        check_alphas([0.1, -1.0], "f")
    with pytest.raises(ValueError, match=r"g: alphas must be finite and positive"):
        check_alphas([1.0, 0.0], "g", allow_zero=False)
    with pytest.raises(ValueError, match="alphas is empty"):
        check_alphas([], "f")
    with pytest.raises(ValueError, match="alphas must be numbers"):
        check_alphas(["a"], "f")
    with pytest.raises(ValueError, match="finite"):
        check_alphas([np.inf], "f")


class _Renamed(BaseEstimator):
    def __init__(self, rule="min", selection=DEPRECATED):
        self.rule = rule
        self.selection = selection


def test_renamed_parameter():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert renamed_parameter(_Renamed(rule="1se"), "selection", "rule") == "1se"
    with pytest.warns(FutureWarning, match="'selection' was renamed to 'rule'.*rule='1se'"):
        assert renamed_parameter(_Renamed(selection="1se"), "selection", "rule") == "1se"
    with pytest.warns(FutureWarning):
        assert renamed_parameter(_Renamed("1se", "1se"), "selection", "rule") == "1se"
    with pytest.raises(ValueError, match="set only rule="):
        renamed_parameter(_Renamed(rule="1se", selection="min"), "selection", "rule")


# --- every public estimator validates every parameter before touching the data ------------------


def _public_estimators():
    found = []
    for module in (statlearning.linear_model,):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                found.append(obj)
    return found


ESTIMATORS = _public_estimators()
INVALID = "invalid-value"


def _candidates(constraint) -> list:
    """Values that violate ``constraint`` (and probably others of the same parameter)."""
    if constraint is None:
        return []
    if isinstance(constraint, Interval):
        out = [INVALID, True]
        step = 1 if constraint.kind is Integral else 0.5
        if constraint.left is not None:
            out.append(constraint.left - step)
            if constraint.closed in ("right", "neither"):
                out.append(constraint.left)
        if constraint.right is not None:
            out.append(constraint.right + step)
            if constraint.closed in ("left", "neither"):
                out.append(constraint.right)
        if constraint.kind is Integral:
            out.append(1.5)
        else:
            out.append(float("nan"))
        return out
    if isinstance(constraint, Options):
        return [INVALID, ("not", "an", "option"), True]
    if isinstance(constraint, Boolean | RandomState):
        return [INVALID, 1, 1.5, -1.5]
    if isinstance(constraint, Callable | ArrayLike | InstanceOf):
        return [object(), INVALID, 1.5]
    if isinstance(constraint, CV):
        return [INVALID, 1, 0, True, 1.5, object()]
    raise AssertionError(f"no invalid value known for constraint {constraint!r}")


def _invalid_values(constraints) -> list:
    """Every candidate that violates all of ``constraints`` (and is not None when allowed)."""
    real = [c for c in constraints if c is not None]
    out = []
    for c in constraints:
        for value in _candidates(c):
            if value is None and None in constraints:
                continue
            if any(r.is_satisfied_by(value) for r in real):
                continue
            if not any(value is v or (type(value) is type(v) and value == v) for v in out):
                out.append(value)
    return out


CASES = [
    pytest.param(est, param, id=f"{est.__name__}-{param}")
    for est in ESTIMATORS
    for param, constraints in est._parameter_constraints.items()
    if constraints != "no_validation"
]


def test_estimators_are_collected():
    names = {est.__name__ for est in ESTIMATORS}
    assert "LinearRegression" in names
    for est in ESTIMATORS:
        params = set(inspect.signature(est).parameters)
        assert set(est._parameter_constraints) <= params, est.__name__


class _Untouchable:
    """Data that fails loudly if ``fit`` reads it before validating the parameters."""

    def __array__(self, *args, **kwargs):
        raise AssertionError("the data was read before the parameters were validated")

    def __len__(self):
        raise AssertionError("the data was read before the parameters were validated")

    def __getattr__(self, name):
        raise AssertionError(f"the data was read ({name}) before the parameters were validated")


@pytest.mark.parametrize(("estimator", "param"), CASES)
def test_fit_rejects_invalid_parameter(estimator, param):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0], [4.0, 5.0]])
    y = np.array([0.0, 1.0, 1.0, 2.0, 3.0])
    estimator().fit(X, y)  # the defaults are valid on this data
    constraints = estimator._parameter_constraints[param]
    values = _invalid_values(constraints)
    assert values, f"could not build an invalid value for {estimator.__name__}.{param}"
    for value in values:
        model = estimator().set_params(**{param: value})
        with pytest.raises(InvalidParameterError) as info:
            model.fit(X, y)
        message = str(info.value)
        assert estimator.__name__ in message
        assert repr(param) in message
        assert repr(value) in message
        for constraint in constraints:
            assert ("None" if constraint is None else str(constraint)) in message
        with pytest.raises(InvalidParameterError):
            model.fit(_Untouchable(), _Untouchable())
        assert not hasattr(model, "n_features_in_")
