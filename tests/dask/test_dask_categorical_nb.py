"""CategoricalNB on Dask collections: one pass of per-class level counts, the levels found in
the same pass, gives the in-memory tables on any chunking (missing values included)."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.naive_bayes import CategoricalNB

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.dask


def data(n=157, seed=0):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(1, 11, n), rng.integers(0, 3, n), rng.integers(0, 40, n)])
    X = X.astype(np.float64)
    X[rng.uniform(size=n) < 0.05, 1] = np.nan  # missing values
    y = np.array(["benign", "malignant"])[(rng.uniform(size=n) < 0.2 + 0.05 * X[:, 0]) * 1]
    w = rng.uniform(0.0, 2.0, n)
    w[::13] = 0.0  # rows with zero weight are absent: their values are not levels
    return X, y, w


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same_fit(ours, ref):
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.class_count_, ref.class_count_, rtol=1e-12)
    np.testing.assert_allclose(ours.class_log_prior_, ref.class_log_prior_, rtol=1e-12)
    np.testing.assert_array_equal(ours.n_categories_, ref.n_categories_)
    for j in range(len(ref.categories_)):
        np.testing.assert_array_equal(ours.categories_[j], ref.categories_[j])
        np.testing.assert_allclose(ours.category_count_[j], ref.category_count_[j], rtol=1e-12)
        np.testing.assert_allclose(
            ours.feature_log_prob_[j], ref.feature_log_prob_[j], rtol=1e-10, atol=0
        )


@pytest.mark.parametrize(
    ("rows", "weighted", "params"),
    [
        ((60, 1, 50, 46), True, {}),
        (157, False, {"alpha": 0.5, "missing": "count"}),
        (40, True, {"min_categories": 12}),
    ],
    ids=["uneven-weighted", "single-count", "even-min-categories"],
)
def test_equals_in_memory_fit(client, rows, weighted, params):
    X, y, w = data()
    kw = {"sample_weight": w} if weighted else {}
    ref = CategoricalNB(**params).fit(X, y, **kw)
    ours = CategoricalNB(**params).fit(
        chunked(X, rows), chunked(y, rows), **{k: chunked(v, rows) for k, v in kw.items()}
    )
    assert_same_fit(ours, ref)


def test_one_row_chunks_and_lazy_predictions(client):
    X, y, w = data(n=14, seed=3)
    ref = CategoricalNB().fit(X, y, sample_weight=w)
    ours = CategoricalNB().fit(chunked(X, 1), chunked(y, 1), sample_weight=chunked(w, 1))
    assert_same_fit(ours, ref)
    proba = ours.predict_proba(chunked(X, 5))
    assert type(proba).__module__.startswith("dask.array")
    np.testing.assert_allclose(proba.compute(), ref.predict_proba(X), rtol=1e-10)


def test_dataframe_names(client):
    X, y, _ = data()
    frame = pd.DataFrame(X, columns=["thickness", "nuclei", "size"])
    ref = CategoricalNB().fit(frame, y)
    ours = CategoricalNB().fit(dd.from_pandas(frame, npartitions=3), chunked(y, (53, 52, 52)))
    assert list(ours.feature_names_in_) == ["thickness", "nuclei", "size"]
    assert_same_fit(ours, ref)


@pytest.mark.parametrize("bad", ["inf", "alpha0"])
def test_errors_as_in_memory(client, bad):
    X, y, _ = data()
    params = {}
    if bad == "inf":
        X[90, 2] = np.inf
    else:  # a feature never observed in a class: 0/0 with alpha=0
        X[y == "benign", 1] = np.nan
        params = {"alpha": 0}
    with pytest.raises(ValueError) as in_memory:
        CategoricalNB(**params).fit(X, y)
    with pytest.raises(ValueError) as distributed:
        CategoricalNB(**params).fit(chunked(X, 50), chunked(y, 50))
    assert str(distributed.value) == str(in_memory.value)
