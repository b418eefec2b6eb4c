"""SpectralClustering: agreement with scikit-learn (oracle), the notes' ε-graph, the Laplacians."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.cluster import SpectralClustering as SklearnSpectral
from sklearn.datasets import make_blobs, make_moons
from sklearn.metrics import adjusted_rand_score

from statlearning.cluster import SpectralClustering
from statlearning.exceptions import NumericalWarning

LAPLACIANS = ["unnormalized", "shi_malik", "ng_jordan_weiss"]


@pytest.mark.parametrize("laplacian", [*LAPLACIANS, "kernel"])
def test_blobs_agree_with_sklearn(laplacian):
    X, y = make_blobs(300, centers=4, cluster_std=0.6, random_state=0)
    ours = SpectralClustering(4, gamma=0.5, laplacian=laplacian, random_state=0).fit(X)
    oracle = SklearnSpectral(4, gamma=0.5, random_state=0).fit(X)
    assert adjusted_rand_score(ours.labels_, oracle.labels_) >= 0.99
    assert adjusted_rand_score(ours.labels_, y) >= 0.99


@pytest.mark.parametrize("laplacian", LAPLACIANS)
def test_two_moons_nearest_neighbors_agree_with_sklearn(laplacian):
    X, y = make_moons(300, noise=0.05, random_state=0)
    ours = SpectralClustering(
        2, affinity="nearest_neighbors", laplacian=laplacian, random_state=0
    ).fit(X)
    with pytest.warns(UserWarning):  # scikit-learn: graph not fully connected
        oracle = SklearnSpectral(2, affinity="nearest_neighbors", random_state=0).fit(X)
    assert adjusted_rand_score(ours.labels_, oracle.labels_) >= 0.99
    assert adjusted_rand_score(ours.labels_, y) >= 0.99


def test_epsilon_graph_two_components_like_the_notes():
    # Seed 001 part 2, Fig. 9.9 (E14): within-group gaps < ε = 0.008 < between-group gaps, so
    # the Laplacian has a two-dimensional null space and the groups are recovered.
    a = np.c_[np.linspace(0.0, 0.05, 20), np.zeros(20)]
    b = np.c_[np.linspace(0.0, 0.05, 20), np.full(20, 0.02)]
    X = np.r_[a, b]
    model = SpectralClustering(
        2, affinity="epsilon", eps=0.008, laplacian="unnormalized", random_state=0
    ).fit(X)
    np.testing.assert_allclose(model.eigenvalues_, [0.0, 0.0], atol=1e-10)
    assert adjusted_rand_score(model.labels_, np.repeat([0, 1], 20)) == 1.0


def test_uses_smallest_eigenvalues():
    X, _ = make_blobs(60, centers=3, random_state=1)
    model = SpectralClustering(3, gamma=0.1, laplacian="ng_jordan_weiss", random_state=0).fit(X)
    w = model.eigenvalues_
    assert np.all(np.diff(w) >= 0) and w[0] == pytest.approx(0.0, abs=1e-10)
    assert np.all(w >= -1e-10) and np.all(w <= 2 + 1e-10)  # spectrum of I − D^-½AD^-½


def test_precomputed_kernel_variant_equals_rbf():
    X, _ = make_blobs(80, centers=3, cluster_std=0.5, random_state=2)
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    a = SpectralClustering(3, affinity="precomputed", laplacian="kernel", random_state=0).fit(K)
    b = SpectralClustering(3, gamma=0.5, laplacian="kernel", random_state=0).fit(X)
    assert adjusted_rand_score(a.labels_, b.labels_) == 1.0
    assert np.all(np.diff(a.eigenvalues_) <= 0)  # the K largest eigenvalues of the kernel


def test_precomputed_psd_kernel_with_negative_entries():
    # seed 002 §11's kernel relaxation on a centred linear kernel: negative entries, PSD
    X, y = make_blobs(60, centers=2, cluster_std=0.4, random_state=4)
    Xc = X - X.mean(axis=0)
    K = Xc @ Xc.T
    assert K.min() < 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        labels = (
            SpectralClustering(2, affinity="precomputed", laplacian="kernel", random_state=0)
            .fit(K)
            .labels_
        )
    assert adjusted_rand_score(labels, y) == 1.0
    with pytest.raises(ValueError, match="laplacian='kernel'"):
        SpectralClustering(2, affinity="precomputed").fit(K)


def test_precomputed_indefinite_kernel_warns():
    X, _ = make_blobs(40, centers=2, random_state=5)
    K = np.tanh(0.01 * X @ X.T - 1.0)  # a sigmoid "kernel": indefinite (eigenvalue -4.1)
    with pytest.warns(NumericalWarning, match="indefinite"):
        SpectralClustering(2, affinity="precomputed", laplacian="kernel", random_state=0).fit(K)


def test_same_seed_same_labels():
    X, _ = make_blobs(100, centers=5, random_state=3)
    a = SpectralClustering(5, random_state=7).fit_predict(X)
    b = SpectralClustering(5, random_state=7).fit_predict(X)
    np.testing.assert_array_equal(a, b)


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(5, 2))
    with pytest.raises(ValueError, match="n_clusters=6"):
        SpectralClustering(6).fit(X)
    with pytest.raises(ValueError, match="eps"):
        SpectralClustering(2, affinity="epsilon", eps=0.0).fit(X)
    with pytest.raises(ValueError, match="square"):
        SpectralClustering(2, affinity="precomputed").fit(X)
    with pytest.raises(ValueError, match="non-negative similarity"):
        SpectralClustering(2, affinity="precomputed").fit(-np.eye(5))
    with pytest.raises(ValueError, match="symmetric"):
        SpectralClustering(2, affinity="precomputed").fit(np.triu(np.ones((5, 5))))
    with pytest.raises(ValueError, match="laplacian"):
        SpectralClustering(2, laplacian="largest").fit(X)
    with pytest.raises(ValueError, match="NaN"):
        SpectralClustering(2).fit(np.array([[0.0, 1.0], [np.nan, 2.0], [3.0, 1.0]]))
