"""Naive Bayes on Dask collections: one pass of per-class sums gives the in-memory fit."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.dask

PARAMETERS = ("theta_", "var_", "epsilon_", "class_count_", "class_prior_")


def data(n=211, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) * [1.0, 5.0, 0.1] + 2.0
    y = np.array(["setosa", "versicolor", "virginica"])[rng.integers(0, 3, n)]
    X[y == "versicolor"] += 1.0
    w = rng.uniform(0.0, 2.0, size=n)
    return X, y, w


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same_fit(ours, ref):
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    for attr in PARAMETERS:
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=1e-10, atol=1e-300, err_msg=attr
        )


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("rows", [(100, 7, 104), 211])
def test_equals_in_memory_fit(client, weighted, rows):
    X, y, w = data()
    sw = w if weighted else None
    ref = GaussianNB(ddof=1).fit(X, y, sample_weight=sw)
    ours = GaussianNB(ddof=1).fit(
        chunked(X, rows), chunked(y, rows), sample_weight=None if sw is None else chunked(w, rows)
    )
    assert_same_fit(ours, ref)


def test_one_row_chunks(client):
    X, y, w = data(n=12, seed=2)
    ref = GaussianNB().fit(X, y, sample_weight=w)
    ours = GaussianNB().fit(chunked(X, 1), chunked(y, 1), sample_weight=chunked(w, 1))
    assert_same_fit(ours, ref)


def test_dataframe_and_lazy_predictions(client):
    X, y, _ = data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y)
    ref = GaussianNB().fit(frame[["a", "b", "c"]], frame["label"])
    dframe = dd.from_pandas(frame, npartitions=4)
    ours = GaussianNB().fit(dframe[["a", "b", "c"]], dframe["label"])
    assert_same_fit(ours, ref)
    assert list(ours.feature_names_in_) == ["a", "b", "c"]
    labels = ours.predict(dframe[["a", "b", "c"]])
    proba = ours.predict_proba(dframe[["a", "b", "c"]])
    assert type(labels).__module__.startswith("dask.array")
    np.testing.assert_array_equal(labels.compute(), ref.predict(frame[["a", "b", "c"]]))
    np.testing.assert_allclose(
        proba.compute(), ref.predict_proba(frame[["a", "b", "c"]]), rtol=1e-10, atol=1e-15
    )


def test_nan_in_a_chunk_gives_the_in_memory_error(client):
    X, y, _ = data()
    X[[77, 190], 1] = np.nan
    with pytest.raises(ValueError) as in_memory:
        GaussianNB().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        GaussianNB().fit(chunked(X, 50), chunked(y, 50))
    assert str(distributed.value) == str(in_memory.value)


def test_continuous_target_refused(client):
    X, _, _ = data()
    y = np.linspace(0.0, 1.0, X.shape[0])
    with pytest.raises(ValueError, match="continuous target"):
        GaussianNB().fit(chunked(X, 50), chunked(y, 50))


def counts(n=233, p=5, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.poisson(2.0, size=(n, p)).astype(np.float64)
    y = rng.integers(0, 3, n)
    w = rng.uniform(0.0, 2.0, n)
    return X, y, w


DISCRETE = ("feature_count_", "class_count_", "class_log_prior_", "feature_log_prob_")


@pytest.mark.parametrize(
    "make",
    [
        lambda: MultinomialNB(),
        lambda: BernoulliNB(binarize=1.5),
        lambda: BernoulliNB(alpha=0.0, binarize=None),
    ],
    ids=["multinomial", "bernoulli-binarize", "bernoulli-01"],
)
def test_discrete_models_equal_in_memory_fit(client, make):
    X, y, w = counts()
    if getattr(make(), "binarize", 1.0) is None:  # 0/1 data
        X = (X > 2).astype(np.float64)
    ref = make().fit(X, y, sample_weight=w)
    ours = make().fit(
        chunked(X, (100, 1, 132)),
        chunked(y, (100, 1, 132)),
        sample_weight=chunked(w, (100, 1, 132)),
    )
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    for attr in DISCRETE:
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=1e-10, atol=1e-12, err_msg=attr
        )


def test_discrete_bad_values_as_in_memory(client):
    X, y, _ = counts()
    X[[150, 200], [3, 1]] = -1.0
    with pytest.raises(ValueError) as in_memory:
        MultinomialNB().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        MultinomialNB().fit(chunked(X, 40), chunked(y, 40))
    assert str(distributed.value) == str(in_memory.value)
    X, y, _ = counts()
    with pytest.raises(ValueError) as in_memory:
        BernoulliNB(binarize=None).fit(X, y)
    with pytest.raises(ValueError) as distributed:
        BernoulliNB(binarize=None).fit(chunked(X, 40), chunked(y, 40))
    assert str(distributed.value) == str(in_memory.value)
