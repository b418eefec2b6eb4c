"""AgglomerativeClustering: R's hclust (tests/reference/hclust), SciPy's linkage, the notes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.cluster.hierarchy import dendrogram, fcluster, linkage
from sklearn.metrics import adjusted_rand_score

from conftest import REFERENCE
from statlearning.cluster import AgglomerativeClustering

HCLUST = REFERENCE / "hclust"
LINKAGES = ["single", "complete", "average", "weighted", "ward", "centroid", "median"]
R_NAME = {"weighted": "mcquitty", "ward": "ward.D2"}


@pytest.fixture(scope="module")
def r_reference():
    X = np.loadtxt(HCLUST / "hclust_data.csv", delimiter=",", skiprows=1)
    return X, json.loads((HCLUST / "hclust_reference.json").read_text())["cases"]


def _leaf_sets(children, n):
    """Leaves of the cluster formed at each step (SciPy numbering)."""
    sets = [frozenset([i]) for i in range(n)]
    for a, b in children:
        sets.append(sets[int(a)] | sets[int(b)])
    return sets[n:]


def _r_leaf_sets(merge):
    sets = []
    for a, b in merge:
        part = [frozenset([-a - 1]) if a < 0 else sets[a - 1] for a in (a, b)]
        sets.append(part[0] | part[1])
    return sets


@pytest.mark.parametrize("method", LINKAGES)
def test_matches_r_hclust(r_reference, method):
    X, cases = r_reference
    case = cases[R_NAME.get(method, method)]
    model = AgglomerativeClustering(linkage=method).fit(X)
    heights = model.distances_
    if method in ("centroid", "median"):  # R works on squared distances here
        heights = heights**2  # (R's centroid tree on this data has an inversion: merge order)
    np.testing.assert_allclose(heights, np.array(case["height"], dtype=float), rtol=1e-12)
    assert _leaf_sets(model.children_, len(X)) == _r_leaf_sets(case["merge"])


@pytest.mark.parametrize("method", LINKAGES)
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_scipy_linkage(method, seed):
    X = np.random.default_rng(seed).normal(size=(80, 4))
    model = AgglomerativeClustering(linkage=method).fit(X)
    Z = linkage(X, method)
    np.testing.assert_allclose(model.linkage_matrix_, Z, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.children_, Z[:, :2].astype(int))
    assert model.n_leaves_ == 80


def test_ward_height_conventions_match_the_notes():
    # Seed 001 part 2 (9.7): ΔSSE = 0.5, 2.0 and 21.25; SciPy reports sqrt(2 ΔSSE).
    X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [5.0, 2.0]])
    sse = AgglomerativeClustering(ward_height="sse_increase").fit(X)
    np.testing.assert_allclose(sse.distances_, [0.5, 2.0, 21.25])
    scipy_h = AgglomerativeClustering().fit(X)
    np.testing.assert_allclose(scipy_h.distances_, np.sqrt(2 * np.array([0.5, 2.0, 21.25])))
    np.testing.assert_allclose(sse.linkage_matrix_[:, 2], scipy_h.distances_)


def test_linkage_matrix_works_with_scipy_tools():
    X = np.random.default_rng(3).normal(size=(30, 2))
    model = AgglomerativeClustering(n_clusters=4, linkage="average").fit(X)
    Z = model.linkage_matrix_
    assert Z[-1, 3] == 30
    leaves = dendrogram(Z, no_plot=True)["leaves"]
    assert sorted(leaves) == list(range(30))
    flat = fcluster(Z, 4, criterion="maxclust")
    assert adjusted_rand_score(flat, model.labels_) == 1.0
    assert model.n_clusters_ == 4 and set(model.labels_) == {0, 1, 2, 3}


def test_distance_threshold_cut():
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [10.0]])
    model = AgglomerativeClustering(n_clusters=None, distance_threshold=1.0, linkage="single").fit(
        X
    )
    assert model.n_clusters_ == 3
    np.testing.assert_array_equal(model.labels_, [0, 0, 0, 1, 1, 2])


def test_precomputed_matches_euclidean():
    X = np.random.default_rng(4).normal(size=(25, 3))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    a = AgglomerativeClustering(linkage="complete", metric="precomputed").fit(D)
    b = AgglomerativeClustering(linkage="complete").fit(X)
    np.testing.assert_allclose(a.linkage_matrix_, b.linkage_matrix_, rtol=1e-12)


def test_manhattan_matches_scipy():
    X = np.random.default_rng(5).normal(size=(40, 3))
    model = AgglomerativeClustering(linkage="average", metric="manhattan").fit(X)
    np.testing.assert_allclose(model.linkage_matrix_, linkage(X, "average", "cityblock"))


def test_bad_input():
    X = np.random.default_rng(6).normal(size=(5, 2))
    with pytest.raises(ValueError, match="n_clusters=6"):
        AgglomerativeClustering(n_clusters=6).fit(X)
    with pytest.raises(ValueError, match="metric='euclidean'"):
        AgglomerativeClustering(linkage="ward", metric="manhattan").fit(X)
    with pytest.raises(ValueError, match="n_clusters and distance_threshold"):
        AgglomerativeClustering(n_clusters=None).fit(X)
    with pytest.raises(ValueError, match="linkage"):
        AgglomerativeClustering(linkage="wards").fit(X)
    with pytest.raises(ValueError, match="square"):
        AgglomerativeClustering(linkage="single", metric="precomputed").fit(X)
    with pytest.raises(ValueError, match="NaN"):
        AgglomerativeClustering().fit(np.array([[0.0, 1.0], [np.nan, 2.0], [3.0, 1.0]]))


@pytest.mark.parametrize("method", ["ward", "single", "complete", "average"])
def test_labels_match_sklearn(method):
    from sklearn.cluster import AgglomerativeClustering as SklearnAgglomerative

    X = np.random.default_rng(7).normal(size=(300, 5))
    ours = AgglomerativeClustering(n_clusters=6, linkage=method).fit(X)
    oracle = SklearnAgglomerative(n_clusters=6, linkage=method).fit(X)
    assert adjusted_rand_score(ours.labels_, oracle.labels_) == 1.0


@pytest.mark.parametrize("value", [True, False])
def test_compute_full_tree_accepts_the_documented_booleans(value):
    """Found by fuzzing: the constraint listed booleans as options, which never match a bool."""
    X = np.random.default_rng(0).normal(size=(12, 2))
    labels = AgglomerativeClustering(n_clusters=3, compute_full_tree=value).fit(X).labels_
    np.testing.assert_array_equal(labels, AgglomerativeClustering(n_clusters=3).fit(X).labels_)
