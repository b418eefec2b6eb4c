"""DBSCAN: scikit-learn agreement, the notes' definitions, border rules, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from statlearning.cluster import DBSCAN


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev"])
def test_matches_sklearn(metric):
    from sklearn.cluster import DBSCAN as SkDBSCAN

    X, _ = make_blobs(3000, centers=6, cluster_std=0.6, random_state=0)
    for eps, m in [(0.3, 5), (0.5, 10), (0.2, 3)]:
        ours = DBSCAN(eps=eps, min_samples=m, metric=metric).fit(X)
        peer = SkDBSCAN(eps=eps, min_samples=m, metric=metric).fit(X)
        np.testing.assert_array_equal(ours.labels_, peer.labels_)
        np.testing.assert_array_equal(ours.core_sample_indices_, peer.core_sample_indices_)
        np.testing.assert_array_equal(ours.components_, peer.components_)


def test_precomputed_equals_euclidean():
    X, _ = make_blobs(300, centers=3, random_state=2)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    for border in ["first", "nearest_core"]:
        a = DBSCAN(eps=0.7, min_samples=4, border=border).fit(X)
        b = DBSCAN(eps=0.7, min_samples=4, border=border, metric="precomputed").fit(D)
        np.testing.assert_array_equal(a.labels_, b.labels_)


def test_min_samples_counts_the_point_itself_and_eps_is_inclusive():
    X = np.array([[0.0], [1.0], [2.0], [10.0]])
    # |E(x1)| = 3 with eps = 1 (itself and both neighbours at distance exactly 1)
    db = DBSCAN(eps=1.0, min_samples=3).fit(X)
    np.testing.assert_array_equal(db.core_sample_indices_, [1])
    np.testing.assert_array_equal(db.labels_, [0, 0, 0, -1])
    assert db.n_clusters_ == 1
    assert np.all(DBSCAN(eps=1.0, min_samples=4).fit(X).labels_ == -1)


def test_border_rules():
    # two clusters of core points; the border point b = 3.85 (row 7) is within eps of a core
    # point of each, nearer to the second cluster (4.6) than to the first (3.0)
    left = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    right = [4.6, 5.1, 5.6, 6.1, 6.6]
    X = np.array([*left, 3.85, *right])[:, None]
    first = DBSCAN(eps=1.0, min_samples=4).fit(X)
    nearest = DBSCAN(eps=1.0, min_samples=4, border="nearest_core").fit(X)
    assert 7 not in first.core_sample_indices_
    assert {6, 8} <= set(first.core_sample_indices_.tolist())
    assert first.labels_[7] == 0  # the cluster numbered first reaches it first
    assert nearest.labels_[7] == 1  # its nearest core point (4.6) is in the second cluster
    # the nearest-core rule does not depend on the order of the rows
    perm = np.random.default_rng(0).permutation(X.shape[0])
    labels = DBSCAN(eps=1.0, min_samples=4, border="nearest_core").fit(X[perm]).labels_
    same = labels[np.argsort(perm)]
    np.testing.assert_array_equal(same == same[7], nearest.labels_ == nearest.labels_[7])


def test_all_noise():
    X = np.arange(5.0)[:, None] * 10
    db = DBSCAN(eps=1.0, min_samples=2).fit(X)
    assert np.all(db.labels_ == -1)
    assert db.core_sample_indices_.size == 0 and db.components_.shape == (0, 1)
    assert db.n_clusters_ == 0


def test_bad_input():
    X = np.zeros((5, 2))
    for eps in [0.0, -1.0]:
        with pytest.raises(ValueError, match="eps"):
            DBSCAN(eps=eps).fit(X)
    with pytest.raises(ValueError, match="min_samples"):
        DBSCAN(min_samples=0).fit(X)
    with pytest.raises(ValueError, match="border"):
        DBSCAN(border="closest").fit(X)
    Xn = X.copy()
    Xn[1, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DBSCAN().fit(Xn)
    with pytest.raises(ValueError, match="square"):
        DBSCAN(metric="precomputed").fit(np.zeros((4, 2)))


def test_blocked_search_with_many_contractions(monkeypatch):
    """Tiny query blocks and edge buffers: the contracted components stay exact."""
    from sklearn.cluster import DBSCAN as SkDBSCAN

    from statlearning.cluster import _dbscan

    monkeypatch.setattr(_dbscan, "_BLOCK", 37)
    monkeypatch.setattr(_dbscan, "_EDGE_BUFFER", 50)
    X, _ = make_blobs(2000, centers=8, cluster_std=0.8, random_state=4)
    for eps in [0.25, 0.6]:
        ours = DBSCAN(eps=eps, min_samples=4).fit(X)
        peer = SkDBSCAN(eps=eps, min_samples=4).fit(X)
        assert ours.n_clusters_ > 1
        np.testing.assert_array_equal(ours.labels_, peer.labels_)
