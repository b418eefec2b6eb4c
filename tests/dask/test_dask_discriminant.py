"""Discriminant analysis on Dask collections: the class means in one pass, the within-class
factor (TSQR of the centred rows) or the scatter matrices in another; the in-memory fit to
1e-10."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.dask

PARAMETERS = (
    "priors_",
    "means_",
    "covariance_",
    "scalings_",
    "discriminant_functions_",
    "explained_variance_ratio_",
    "xbar_",
)


def data(n=307, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)) + 3.0
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    X[y == "b"] += 1.0
    X[y == "c", 2] -= 2.0
    return X, y


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same(ours, ref, attributes):
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    for attr in attributes:
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=1e-10, atol=1e-12, err_msg=attr
        )


@pytest.mark.parametrize(
    "params",
    [{}, {"covariance": "total"}, {"solver": "eigen", "shrinkage": 0.3}],
    ids=["svd", "total", "eigen-shrunk"],
)
@pytest.mark.parametrize("rows", [(150, 7, 150), 307], ids=["uneven", "single"])
def test_equals_in_memory_fit(client, params, rows):
    X, y = data()
    ref = LinearDiscriminantAnalysis(**params).fit(X, y)
    ours = LinearDiscriminantAnalysis(**params).fit(chunked(X, rows), chunked(y, rows))
    assert_same(ours, ref, PARAMETERS)


def test_one_row_chunks_and_lazy_outputs(client):
    X, y = data(n=15, seed=5)
    ref = LinearDiscriminantAnalysis().fit(X, y)
    ours = LinearDiscriminantAnalysis().fit(chunked(X, 1), chunked(y, 1))
    assert_same(ours, ref, PARAMETERS)
    Xd = chunked(X, 4)
    for method in ("predict", "predict_proba", "transform"):
        lazy = getattr(ours, method)(Xd)
        assert type(lazy).__module__.startswith("dask.array"), method
        expected = getattr(ref, method)(X)
        if method == "predict":
            np.testing.assert_array_equal(lazy.compute(), expected)
        else:
            np.testing.assert_allclose(lazy.compute(), expected, rtol=1e-10, atol=1e-14)


def test_nan_in_a_chunk_gives_the_in_memory_error(client):
    X, y = data()
    X[250, 0] = np.nan
    with pytest.raises(ValueError) as in_memory:
        LinearDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        LinearDiscriminantAnalysis().fit(chunked(X, 100), chunked(y, 100))
    assert str(distributed.value) == str(in_memory.value)


@pytest.mark.parametrize("covariance", ["pooled", "total"])
def test_ledoit_wolf_shrinkage_as_in_memory(client, covariance):
    """shrinkage='auto': the fourth-moment sum of Ledoit and Wolf is a plain sum over rows once
    the scale is known, so one more pass gives the in-memory intensity."""
    X, y = data()
    params = {"solver": "eigen", "shrinkage": "auto", "covariance": covariance}
    ref = LinearDiscriminantAnalysis(**params).fit(X, y)
    ours = LinearDiscriminantAnalysis(**params).fit(
        chunked(X, (150, 7, 150)), chunked(y, (150, 7, 150))
    )
    assert 0 < ref.shrinkage_ <= 1  # below 1 for the total covariance of these data
    assert_same(ours, ref, (*PARAMETERS, "shrinkage_", "covariance_"))


QDA_PARAMETERS = (
    "priors_",
    "means_",
    "covariances_",
    "log_det_",
    "quadratic_terms_",
    "linear_terms_",
    "constant_terms_",
    "class_count_",
)


@pytest.mark.parametrize("params", [{}, {"reg_param": 0.2}], ids=["plain", "regularised"])
@pytest.mark.parametrize("rows", [(150, 7, 150), 1], ids=["uneven", "one-row"])
def test_qda_equals_in_memory_fit(client, params, rows):
    X, y = data() if rows != 1 else data(n=21, seed=6)
    ref = QuadraticDiscriminantAnalysis(**params).fit(X, y)
    ours = QuadraticDiscriminantAnalysis(**params).fit(chunked(X, rows), chunked(y, rows))
    assert_same(ours, ref, QDA_PARAMETERS)
    proba = ours.predict_proba(chunked(X, 5))
    assert type(proba).__module__.startswith("dask.array")
    np.testing.assert_allclose(proba.compute(), ref.predict_proba(X), rtol=1e-10, atol=1e-14)


def test_qda_small_class_error_as_in_memory(client):
    X, y = data(n=40, seed=1)
    y[7] = "lonely"
    with pytest.raises(ValueError) as in_memory:
        QuadraticDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        QuadraticDiscriminantAnalysis().fit(chunked(X, 9), chunked(y, 9))
    assert str(distributed.value) == str(in_memory.value)
