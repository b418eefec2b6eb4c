"""KMeans on Dask collections: from the same initial centres, the in-memory Lloyd iterations
(centres, inertia, labels, ``n_iter_``) to 1e-10 on uneven, single and one-row chunks; the
empty-cluster repair; k-means|| seeding; lazy labels and predictions."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.cluster import KMeans, MiniBatchKMeans

da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.dask


def data(n_per=100, seed=0):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 1.0]])
    return np.vstack([rng.normal(size=(n_per, 3)) + c for c in centres])


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same(ours, ref):
    assert ours.n_iter_ == ref.n_iter_
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-10)
    np.testing.assert_allclose(ours.inertia_path_, ref.inertia_path_, rtol=1e-10)
    assert type(ours.labels_).__module__.startswith("dask.array")
    np.testing.assert_array_equal(ours.labels_.compute(), ref.labels_)


TOL, STABLE, RANDOM = (
    {"tol": 1e-4},
    {"tol": 0.0},
    {"init": "random", "random_state": 3, "n_init": 2},
)
CASES = [(TOL, (150, 7, 143)), (STABLE, (150, 7, 143)), (RANDOM, (150, 7, 143)),
         (RANDOM, 300), (TOL, 1)]  # fmt: skip


@pytest.mark.parametrize(
    ("params", "rows"),
    CASES,
    ids=["tol-uneven", "until-stable-uneven", "random-rows-uneven", "random-rows-single",
         "tol-one-row"],
)  # fmt: skip
def test_equals_in_memory_lloyd(client, params, rows):
    X = data() if rows != 1 else data(n_per=8, seed=4)
    params = {"init": X[[0, 1, 2]], **params}
    ref = KMeans(3, **params).fit(X)
    ours = KMeans(3, **params).fit(chunked(X, rows))
    assert_same(ours, ref)


def test_empty_clusters_are_repaired_as_in_memory(client):
    X = data()
    init = np.vstack([X[:2], [[90.0, 90.0, 90.0], [-90.0, 0.0, 0.0]]])  # two start empty
    ref = KMeans(4, init=init).fit(X)
    ours = KMeans(4, init=init).fit(chunked(X, (60, 100, 140)))
    assert_same(ours, ref)


def test_kmeans_parallel_seeding_reaches_the_in_memory_optimum(client):
    X = data(seed=1)
    ours = KMeans(3, tol=0.0, random_state=0).fit(chunked(X, 70))
    ref = KMeans(3, tol=0.0, n_init=10, random_state=0).fit(X)
    assert ours.n_iter_ < 20  # seeded near the optimum: a few Lloyd steps
    assert ours.inertia_ <= ref.inertia_ * (1 + 1e-3)  # a local optimum as good, to 0.1%
    again = KMeans(3, tol=0.0, random_state=0).fit(chunked(X, 70))  # same seed, same centres
    np.testing.assert_array_equal(again.cluster_centers_, ours.cluster_centers_)
    Xd = chunked(X, 64)
    for method in ("predict", "transform"):
        lazy = getattr(ours, method)(Xd)
        assert type(lazy).__module__.startswith("dask.array")
        np.testing.assert_allclose(lazy.compute(), getattr(ours, method)(X), rtol=1e-12)


def test_nan_in_a_chunk_gives_the_in_memory_error(client):
    X = data()
    X[250, 1] = np.nan
    with pytest.raises(ValueError) as in_memory:
        KMeans(3).fit(X)
    with pytest.raises(ValueError) as distributed:
        KMeans(3).fit(chunked(X, 100))
    assert str(distributed.value) == str(in_memory.value)


def test_refusals_name_what_is_missing(client):
    X = chunked(data(), 100)
    with pytest.raises(ValueError, match="algorithm='elkan' does not fit on Dask"):
        KMeans(3, algorithm="elkan").fit(X)
    with pytest.raises(TypeError, match="MiniBatchKMeans does not fit on Dask"):
        MiniBatchKMeans(3).fit(X)
    with pytest.raises(ValueError, match="n_clusters=5"):
        KMeans(5).fit(chunked(data(n_per=1), 2))
