"""Power-of-two rescaling of extreme data (statlearning._core.scaling)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from statlearning._core.scaling import (
    SAFE_EXPONENT,
    column_scales,
    column_variances,
    finite_max_abs,
    linear_rescaling,
    max_abs,
    scale_for,
    scale_for_magnitude,
    scaled_sum_of_squares,
    times,
)


def test_ordinary_data_are_left_alone():
    X = np.array([[1e-50, -3.0], [2.0, 1e50]])
    assert scale_for(X) is None
    assert column_scales(X) is None
    assert linear_rescaling(X, np.array([1.0, 1e40])) is None
    assert scale_for(np.zeros((3, 2))) is None  # nothing to rescale


@pytest.mark.parametrize("m", [1e300, -1e300, 1e-300, 2.0**SAFE_EXPONENT * 3, 5e-324])
def test_scale_is_a_power_of_two_bringing_the_maximum_below_one(m):
    X = np.array([[0.0, m], [1e-10 * m, 0.5 * m]])
    s = scale_for(X)
    assert s is not None and math.frexp(s)[0] == 0.5  # a power of two
    assert 0.5 <= max_abs(X) / s < 1.0
    np.testing.assert_array_equal((X / s) * s, X)  # exact both ways


def test_column_scales_one_per_column():
    X = np.array([[1e300, 1.0, 0.0], [-2e300, 3.0, 0.0]])
    d = column_scales(X)
    assert d.shape == (3,)
    assert d[1] == 4.0 and d[2] == 1.0  # every column to [0.5, 1); zero columns untouched
    assert 0.5 <= max_abs(X / d, axis=0)[0] < 1.0


def test_linear_rescaling_factors():
    X = np.array([[1e300, 1.0], [3e300, 2.0]])
    y = np.array([1e-300, 2e-300])
    rs = linear_rescaling(X, y)
    Xs, ys, off = rs.apply(X, y, np.array([1e-300, 0.0]))
    assert max_abs(ys) < 1 and max_abs(Xs) < 1 and off[0] == 1e-300 / rs.y_scale
    c = rs.coef_factors(fit_intercept=True)
    assert c[0] == rs.y_scale
    np.testing.assert_array_equal(c[1:], rs.y_scale / rs.x_scale)


def test_scaled_sum_of_squares_and_times():
    r = np.array([3e300, 4e300])
    s, q = scaled_sum_of_squares(r)
    assert math.sqrt(q) * s == pytest.approx(5e300, rel=1e-15)
    s, q = scaled_sum_of_squares(r * 1e-600, weights=np.array([1.0, 1.0]))
    assert math.sqrt(q) * s == pytest.approx(5e-300, rel=1e-15)
    assert times(2.0, 2.0**600, 2) == np.inf  # silent overflow, no RuntimeWarning
    assert times(2.0, 2.0**-600, 2) == 0.0
    assert times(np.ones(2), None) is not None


def test_column_maxima_of_a_large_matrix_in_one_compiled_pass():
    """The compiled column pass (large C-ordered matrices) equals NumPy's max/min, also with
    infinite entries and on read-only data; a column scaled to 1e300 gets its factor."""
    from statlearning._core.scaling import _COMPILED_MIN_SIZE, column_scales, max_abs

    rng = np.random.default_rng(3)
    X = rng.normal(size=(_COMPILED_MIN_SIZE // 4 + 7, 5))
    X[:, 2] *= -1e300
    X[11, 4] = -np.inf
    expected = np.maximum(X.max(axis=0), -X.min(axis=0))
    X.setflags(write=False)
    np.testing.assert_array_equal(max_abs(X, axis=0), expected)
    scales = column_scales(X)
    assert scales[2] > 1e299 and scales[0] < 16 and scales[4] == 1.0  # inf: not rescaled


def test_largest_magnitude_of_a_large_array_in_one_compiled_pass():
    """The compiled flat pass (large C-ordered arrays, any length modulo its eight lanes)
    equals NumPy's max/min, on read-only data too; NaN entries are passed over, and
    ``scale_for`` passes them over at any size."""
    from statlearning._core.scaling import _COMPILED_FLAT_MIN_SIZE, max_abs, scale_for

    rng = np.random.default_rng(4)
    X = rng.normal(size=(_COMPILED_FLAT_MIN_SIZE // 3 + 5, 3))
    X[-1, -1] = -7.5  # in the tail after the last full group of eight
    X.setflags(write=False)
    assert max_abs(X) == max(X.max(), -X.min()) == 7.5
    Y = X * 1e-300
    Y[5, 1] = np.nan
    assert scale_for(Y) == 2.0**-993  # 7.5e-300 = 0.63 · 2**-993
    small = np.array([[1e-300, np.nan], [-3e-300, 2e-300]])
    assert scale_for(small) == 2.0**-994  # 3e-300 = 0.50 · 2**-994
    assert scale_for(np.full((2, 2), np.nan)) is None


@pytest.mark.parametrize("rows", [7, 1_000_003 // 3])  # NumPy's max/min, then the compiled pass
@pytest.mark.parametrize("where", [0, -1, 1234])  # the first lane, the tail, the body
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_finite_max_abs_is_the_magnitude_or_nan_for_any_non_finite_entry(rows, where, bad):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(rows, 3)) * 1e-250
    X[rows // 2, 1] = -7.5e-250
    X.setflags(write=False)
    assert finite_max_abs(X) == max_abs(X) == 7.5e-250
    assert scale_for_magnitude(finite_max_abs(X)) == scale_for(X) == 2.0 ** math.frexp(7.5e-250)[1]
    Y = X.copy()
    Y.reshape(-1)[where % Y.size] = bad
    assert np.isnan(finite_max_abs(Y))
    assert finite_max_abs(np.zeros((0, 3))) == 0.0


def test_validated_magnitude_raises_the_validations_message():
    from sklearn.utils import check_array

    from statlearning._core.scaling import validated_magnitude

    calls = []

    def validate(A, **params):
        calls.append(params)
        return check_array(A, **params)

    X = np.array([[1.0, -3.0], [2.0, 0.5]])
    Xv, m = validated_magnitude(validate, X, "Owner")
    assert np.array_equal(Xv, X) and m == 3.0 and calls == [{"ensure_all_finite": False}]
    X[1, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        validated_magnitude(validate, X, "Owner")
    # a validation that lets non-finite values through still gets an error naming the owner
    with pytest.raises(ValueError, match="Owner: X contains NaN or infinite values"):
        validated_magnitude(lambda A, **params: np.asarray(A), X, "Owner")


@pytest.mark.parametrize("shape", [(1, 3), (7, 1), (1000, 10), (12345, 7), (10, 300)])
def test_column_variances_are_numpys_bit_for_bit(shape):
    rng = np.random.default_rng(sum(shape))
    X = rng.normal(size=shape) * rng.uniform(0.1, 1e3, shape[1]) + rng.uniform(-1e4, 1e4, shape[1])
    np.testing.assert_array_equal(column_variances(X), np.var(X, axis=0))
    F = np.asfortranarray(X)  # other layouts fall back to NumPy
    np.testing.assert_array_equal(column_variances(F), np.var(F, axis=0))
    assert column_variances(X[:0]).shape == (shape[1],)


def test_one_sum_of_squares_settles_the_magnitude_of_ordinary_data():
    from statlearning._core.scaling import _magnitude_within_range, validated_magnitude

    X = np.random.default_rng(0).normal(size=(20_000, 7))
    m = _magnitude_within_range(X)
    assert validated_magnitude(lambda A, **kw: A, X, "T")[1] == m
    assert _magnitude_within_range(X[:100]) is None  # small: the exact pass is as fast
    assert np.max(np.abs(X)) <= m <= np.sqrt(X.size) * np.max(np.abs(X))
    assert scale_for_magnitude(m) is None
    for special in (np.nan, np.inf, -np.inf, 1e100, 1e-100):
        Y = X.copy()
        Y[3, 2] = special
        if abs(special) < 1:  # tiny data: every entry small
            Y = X * special
        assert _magnitude_within_range(Y) is None
    assert _magnitude_within_range(np.zeros((4, 3))) is None
    assert _magnitude_within_range(np.asfortranarray(X)) is None
    # huge and tiny data keep their exact magnitude (hence their exact factor)
    for factor in (1e100, 1e-100):
        _, exact = validated_magnitude(lambda A, **kw: A, X * factor, "T")
        assert exact == np.max(np.abs(X * factor))
    with pytest.raises(ValueError, match="NaN or infinite"):
        validated_magnitude(lambda A, **kw: A, np.where(X > 2, np.inf, X), "T")
