"""KMeans: R's kmeans (Lloyd) and scikit-learn with the same initial centres, properties,
bad input."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_blobs

from conftest import REFERENCE
from statlearning.cluster import KMeans, MiniBatchKMeans, kmeans_plusplus
from statlearning.exceptions import ConvergenceWarning

UNSUP = REFERENCE / "unsupervised"
REF = json.loads((UNSUP / "pca_kmeans_reference.json").read_text())["kmeans_lloyd"]
DATA = np.loadtxt(UNSUP / "kmeans_data.csv", delimiter=",", skiprows=1)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_r_kmeans_lloyd_same_initial_centres(algorithm):
    init = DATA[np.array(REF["init_rows"]) - 1]
    km = KMeans(3, init=init, tol=0.0, max_iter=100, algorithm=algorithm).fit(DATA)
    np.testing.assert_allclose(
        km.cluster_centers_, np.reshape(REF["centers"], (3, 2)), rtol=1e-13, atol=1e-15
    )
    np.testing.assert_array_equal(km.labels_ + 1, REF["cluster"])
    assert km.inertia_ == pytest.approx(REF["tot_withinss"][0], rel=1e-13)
    assert km.n_iter_ == REF["iter"]


def test_sklearn_same_initial_centres():
    from sklearn.cluster import KMeans as SkKMeans

    X, _ = make_blobs(2000, centers=6, n_features=3, cluster_std=2.0, random_state=3)
    init = X[:6]
    ours = KMeans(6, init=init).fit(X)
    peer = SkKMeans(6, init=init, n_init=1, algorithm="lloyd").fit(X)
    np.testing.assert_allclose(ours.cluster_centers_, peer.cluster_centers_, rtol=1e-10)
    np.testing.assert_array_equal(ours.labels_, peer.labels_)
    assert ours.inertia_ == pytest.approx(peer.inertia_, rel=1e-10)
    assert ours.n_iter_ == peer.n_iter_


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 9), st.integers(1, 5))
def test_elkan_equals_lloyd(seed, k, p):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, p)) + rng.integers(0, 4, size=(150, 1)) * 1.5
    lloyd = KMeans(k, init="random", n_init=2, random_state=seed, tol=0.0).fit(X)
    elkan = KMeans(k, init="random", n_init=2, random_state=seed, tol=0.0, algorithm="elkan")
    elkan.fit(X)
    np.testing.assert_array_equal(elkan.labels_, lloyd.labels_)
    np.testing.assert_allclose(
        elkan.cluster_centers_, lloyd.cluster_centers_, rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(elkan.inertia_path_, lloyd.inertia_path_, rtol=1e-10)
    assert elkan.n_iter_ == lloyd.n_iter_


def test_kmeans_plusplus_quality_and_determinism():
    from sklearn.metrics import adjusted_rand_score

    X, y = make_blobs(3000, centers=5, cluster_std=0.5, center_box=(-30, 30), random_state=0)
    a = KMeans(5, random_state=7).fit(X)
    b = KMeans(5, random_state=7).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert adjusted_rand_score(y, a.labels_) == 1.0
    centres, idx = kmeans_plusplus(X, 5, random_state=0)
    assert len(set(idx.tolist())) == 5
    np.testing.assert_array_equal(centres, X[idx])


def test_one_cluster_is_the_mean():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(101, 4)) * [1, 2, 3, 4] + 5
    for init in ["k-means++", "random"]:
        km = KMeans(1, init=init, random_state=0).fit(X)
        np.testing.assert_allclose(km.cluster_centers_[0], X.mean(axis=0), rtol=1e-13)
        assert km.inertia_ == pytest.approx(np.sum((X - X.mean(axis=0)) ** 2), rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(2, 7))
def test_inertia_never_increases(seed, k):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 2)) + rng.integers(0, 3, size=(120, 1)) * 2.0
    km = KMeans(k, init="random", n_init=1, tol=0.0, random_state=seed).fit(X)
    path = km.inertia_path_
    assert np.all(np.diff(path) <= 1e-9 * path[0])
    assert path[-1] == pytest.approx(km.inertia_)
    assert km.inertia_ == pytest.approx(np.sum((X - km.cluster_centers_[km.labels_]) ** 2))


def test_empty_cluster_is_repaired():
    X = np.array([[0.0, 0], [0.1, 0], [0, 0.1], [10, 10], [10.1, 10], [10, 10.2]])
    init = np.array([[0.0, 0], [10, 10], [100, 100]])  # the third centre attracts nobody
    for algorithm in ["lloyd", "elkan"]:
        km = KMeans(3, init=init, tol=0.0, algorithm=algorithm).fit(X)
        assert np.bincount(km.labels_, minlength=3).min() >= 1
        assert np.all(np.diff(km.inertia_path_) <= 1e-12)
        assert km.inertia_ == pytest.approx(np.sum((X - km.cluster_centers_[km.labels_]) ** 2))


def test_predict_transform_score():
    X, _ = make_blobs(500, centers=3, random_state=1)
    km = KMeans(3, random_state=0).fit(X)
    np.testing.assert_array_equal(km.predict(X), km.labels_)
    D = km.transform(X)
    expected = np.linalg.norm(X[:, None, :] - km.cluster_centers_[None], axis=2)
    np.testing.assert_allclose(D, expected, rtol=1e-12)
    np.testing.assert_array_equal(np.argmin(D, axis=1), km.labels_)
    assert km.score(X) == pytest.approx(-km.inertia_)


def test_convergence_warning():
    X, _ = make_blobs(400, centers=8, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        km = KMeans(8, init="random", max_iter=1, tol=0.0, random_state=0).fit(X)
    assert km.n_iter_ == 1


def test_bad_input():
    X = np.arange(10.0).reshape(5, 2)
    with pytest.raises(ValueError, match="n_clusters=6"):
        KMeans(6).fit(X)
    with pytest.raises(ValueError, match="n_clusters"):
        KMeans(0).fit(X)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KMeans(2).fit(Xn)
    with pytest.raises(ValueError, match=r"shape \(2, 2\)"):
        KMeans(2, init=np.zeros((3, 2))).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KMeans(2, init=X[:2]).fit(X)  # an explicit init runs once, silently


def test_minibatch_close_to_lloyd():
    from sklearn.metrics import adjusted_rand_score

    grid = [[0, 0], [10, 0], [0, 10], [10, 10], [20, 0], [20, 10]]
    X, y = make_blobs(20_000, centers=grid, cluster_std=1.0, random_state=5)
    full = KMeans(6, n_init=5, random_state=0).fit(X)
    mb = MiniBatchKMeans(6, batch_size=512, n_init=3, random_state=0).fit(X)
    again = MiniBatchKMeans(6, batch_size=512, n_init=3, random_state=0).fit(X)
    np.testing.assert_array_equal(mb.cluster_centers_, again.cluster_centers_)
    assert adjusted_rand_score(y, mb.labels_) == 1.0
    assert mb.inertia_ <= 1.001 * full.inertia_
    assert mb.inertia_ == pytest.approx(np.sum((X - mb.cluster_centers_[mb.labels_]) ** 2))
    assert 1 <= mb.n_iter_ <= 100 and mb.n_steps_ >= 1
    np.testing.assert_array_equal(mb.predict(X), mb.labels_)


def test_minibatch_partial_fit_and_bad_input():
    X, _ = make_blobs(3000, centers=3, center_box=(-20, 20), random_state=1)
    mb = MiniBatchKMeans(3, random_state=0)
    for chunk in np.array_split(X, 10):
        mb.partial_fit(chunk)
    assert mb.n_steps_ == 10 and mb.counts_.sum() == X.shape[0]
    assert -mb.score(X) < 1.2 * KMeans(3, random_state=0).fit(X).inertia_
    with pytest.raises(ValueError, match="n_clusters=4"):
        MiniBatchKMeans(4).fit(X[:3])
    with pytest.raises(ValueError, match="batch_size"):
        MiniBatchKMeans(batch_size=0).fit(X)


@pytest.mark.parametrize(
    ("Model", "p", "kernel_name"),
    [
        (KMeans, 3, "assign_accumulate_parallel"),
        (MiniBatchKMeans, 3, "assign_accumulate_parallel"),
        (KMeans, 60, "assign_bounded_parallel"),  # p·k ≥ SCREEN_WORK: Hamerly's bounds
    ],
)
def test_n_jobs_runs_the_assignment_on_numba_threads_with_the_same_numbers(
    Model, p, kernel_name, monkeypatch
):
    import numba

    from statlearning.cluster import _kmeans

    rng = np.random.default_rng(4)
    X = rng.normal(size=(9000, p)) + rng.integers(0, 4, 9000)[:, None]  # 5 chunks of rows
    seen = []
    kernel = getattr(_kmeans, kernel_name)

    def spy(*args):
        seen.append(numba.get_num_threads())
        return kernel(*args)

    monkeypatch.setattr(_kmeans, kernel_name, spy)
    monkeypatch.setattr(_kmeans, "core_is_free", lambda: False)  # a busy machine
    before = numba.get_num_threads()
    kw = {"random_state": 0} if Model is KMeans else {"random_state": 0, "batch_size": 2048}
    ref = Model(4, **kw).fit(X)
    assert seen == []  # n_jobs=None on a busy machine: the serial kernel
    par = Model(4, n_jobs=1, **kw).fit(X)
    assert seen and set(seen) == {1} and numba.get_num_threads() == before
    for attr in ("cluster_centers_", "labels_", "inertia_"):
        np.testing.assert_array_equal(getattr(par, attr), getattr(ref, attr))
    two = Model(4, n_jobs=2, **kw).fit(X)
    np.testing.assert_array_equal(two.cluster_centers_, ref.cluster_centers_)
    np.testing.assert_array_equal(two.predict(X), ref.predict(X))
    assert two.score(X) == ref.score(X)


@pytest.mark.parametrize("free", [True, False])
def test_an_idle_core_runs_steps_of_four_chunks_on_numba_threads(free, monkeypatch):
    from statlearning.cluster import _kmeans

    monkeypatch.setattr(_kmeans, "core_is_free", lambda: free)
    rows = _kmeans.QUIET_PARALLEL_ROWS
    assert rows == 3 * _kmeans.CHUNK + 1  # the fourth chunk begins
    assert _kmeans._threaded(None, rows, 3 * rows) is free
    assert _kmeans._threaded(None, rows - 1, 3 * rows) is False
    assert _kmeans._threaded(None, 100, _kmeans.PARALLEL_WORK) is True
    assert _kmeans._threaded(1, 100, 300) is True


def test_minibatch_initialisation_keeps_a_candidate_when_every_inertia_overflows():
    """Found by the bad-input matrix: with X × 1e300 every initial inertia is inf, no candidate
    was kept and a compiled kernel received ``None`` (a numba TypingError)."""
    X = np.random.default_rng(0).normal(size=(30, 3)) * 1e300
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MiniBatchKMeans(n_clusters=3, random_state=0).fit(X)
    assert model.cluster_centers_.shape == (3, 3)
    assert np.all(np.isfinite(model.cluster_centers_))


@pytest.mark.parametrize("p, k", [(40, 10), (6, 5)])
def test_assignment_step_is_exact_on_ties(p, k):
    # integer data and centres: every distance is exact, so exact ties are frequent and the
    # product-screened step (p·k above SCREEN_WORK) must give the direct step's lowest index
    from statlearning.cluster._kmeans_kernels import (
        SCREEN_WORK,
        assign_accumulate,
        assign_accumulate_parallel,
        margin_norms,
    )

    assert (p * k >= SCREEN_WORK) == (p == 40)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(5000, p)).astype(np.float64)
    C = rng.integers(0, 3, size=(k, p)).astype(np.float64)
    C[1] = C[0]  # two identical centres: every row nearest to them goes to the first
    D = ((X[:, None, :] - C[None]) ** 2).sum(axis=2)
    expected = np.argmin(D, axis=1)
    for kernel, xnorm in [
        (assign_accumulate, margin_norms(X)),
        (assign_accumulate, np.empty(0)),  # the norms computed on the way (predict)
        (assign_accumulate_parallel, margin_norms(X)),
    ]:
        labels, dist, sums, counts = kernel(X, xnorm, C)
        np.testing.assert_array_equal(labels, expected)
        np.testing.assert_array_equal(dist, D[np.arange(X.shape[0]), expected])
        np.testing.assert_array_equal(counts, np.bincount(expected, minlength=k))
        for j in range(k):
            np.testing.assert_array_equal(sums[j], X[expected == j].sum(axis=0))
        np.testing.assert_array_equal(kernel(X, xnorm, C, True)[0], expected)  # labels only


@pytest.mark.parametrize("shift", [0.0, 1e-13, 1e-9])
def test_assignment_step_settles_near_ties_by_the_direct_distances(shift):
    # centre 1 is centre 0 moved by a relative ``shift``: the screening scores of the two agree
    # within their rounding, so each row's winner comes from the direct sums (feature order),
    # also next to a far centre of large norm (the margin's widest term)
    from statlearning.cluster._kmeans_kernels import assign_accumulate, margin_norms

    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 30)) + 50.0
    C = np.vstack([X[:1], X[:1] * (1.0 + shift), rng.normal(size=(8, 30)) * 1e3])
    D = np.zeros((X.shape[0], C.shape[0]))
    for f in range(X.shape[1]):  # the direct distances, summed in feature order
        D += (X[:, f, None] - C[None, :, f]) ** 2
    expected = np.argmin(D, axis=1)
    labels, dist, _, _ = assign_accumulate(X, margin_norms(X), C)
    np.testing.assert_array_equal(labels, expected)
    # each row's distance to its centre is summed in vector order: within 2 (p − 1) ε
    eps = np.finfo(np.float64).eps
    np.testing.assert_allclose(dist, D[np.arange(X.shape[0]), expected], rtol=2 * 29 * eps, atol=0)
    if shift == 0.0:
        assert not np.any(labels == 1)  # exact ties go to the lowest index
    else:
        assert np.any(labels == 1) and np.any(labels == 0)


@pytest.mark.parametrize("n, p, k", [(1, 1, 1), (300, 3, 7), (1000, 40, 12), (600, 130, 3)])
def test_centre_distances_are_the_direct_sums(n, p, k):
    from statlearning.cluster._kmeans_kernels import (
        centre_distances,
        centre_distances_parallel,
    )

    rng = np.random.default_rng(n + p + k)
    X = rng.normal(size=(n, p)) * 10.0 + 1e3
    C = X[rng.choice(n, k)] + rng.normal(size=(k, p))
    D = np.zeros((n, k))
    for f in range(p):  # feature order, as a row at a time
        D += (X[:, f, None] - C[None, :, f]) ** 2
    np.testing.assert_array_equal(centre_distances(X, C, False), D)
    np.testing.assert_array_equal(centre_distances(X, C), np.sqrt(D))
    np.testing.assert_array_equal(centre_distances_parallel(X, C), np.sqrt(D))


def test_large_predict_and_score_run_on_numba_threads_with_the_same_numbers(monkeypatch):
    from statlearning.cluster import _kmeans

    rng = np.random.default_rng(8)
    X = rng.normal(size=(9000, 30)) + rng.integers(0, 4, 9000)[:, None]
    km = KMeans(4, random_state=0).fit(X)
    serial = km.predict(X), km.score(X), km.transform(X)
    seen = []
    kernel = _kmeans.assign_accumulate_parallel

    def spy(*args):
        seen.append(True)
        return kernel(*args)

    monkeypatch.setattr(_kmeans, "assign_accumulate_parallel", spy)
    monkeypatch.setattr(_kmeans, "PARALLEL_WORK", X.size * 4)  # this X is "large"
    np.testing.assert_array_equal(km.predict(X), serial[0])
    assert km.score(X) == serial[1]
    assert len(seen) == 2
    np.testing.assert_array_equal(km.transform(X), serial[2])
    np.testing.assert_array_equal(km.predict(X[:100]), serial[0][:100])  # small: serial
    assert len(seen) == 2


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_predict_names_the_column_holding_a_non_finite_value(bad):
    import pandas as pd

    X, _ = make_blobs(200, centers=3, n_features=3, random_state=2)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    km = KMeans(3, random_state=0).fit(df)
    df.iloc[17, 1] = bad
    what = "NaN" if np.isnan(bad) else "infinity"
    for method in (km.predict, km.transform, km.score):
        with pytest.raises(ValueError, match=f"column 'b' contains {what}"):
            method(df)
    huge = km.predict(df.iloc[:5].fillna(0.0).replace(np.inf, 0.0) * 1e300)  # rescaled, finite
    assert huge.shape == (5,)
