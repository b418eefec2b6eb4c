"""PCA: R's prcomp on USArrests, seed 004's retention rules, properties and bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REFERENCE
from statlearning.decomposition import PCA, PCASummary, retained_components

UNSUP = REFERENCE / "unsupervised"
REF = json.loads((UNSUP / "pca_kmeans_reference.json").read_text())
ARRESTS = np.loadtxt(UNSUP / "usarrests.csv", delimiter=",", skiprows=1)
E22 = [17, 8, 3, 2, 1, 0.5, 0.25, 0]


@pytest.mark.parametrize("case", ["pca_unscaled", "pca_scaled"])
@pytest.mark.parametrize("solver", ["auto", "full", "randomized"])
def test_prcomp_usarrests(case, solver):
    ref = REF[case]
    n_components = 4 if solver == "randomized" else None
    pca = PCA(n_components, scale=ref["scale"], svd_solver=solver, random_state=0).fit(ARRESTS)
    rotation = np.array(ref["rotation"]).reshape(4, 4)  # rows = variables
    scores = np.array(ref["scores"]).reshape(50, 4)
    np.testing.assert_allclose(np.sqrt(pca.explained_variance_), ref["sdev"], rtol=1e-10)
    np.testing.assert_allclose(pca.mean_, ref["center"], rtol=1e-14)
    if ref["scale"]:
        np.testing.assert_allclose(pca.scale_, ref["scale_values"], rtol=1e-13)
    else:
        assert pca.scale_ is None
    signs = np.sign(np.sum(pca.components_ * rotation.T, axis=1))  # R does not fix signs
    np.testing.assert_allclose(pca.components_ * signs[:, None], rotation.T, atol=1e-9)
    np.testing.assert_allclose(pca.transform(ARRESTS) * signs, scores, atol=1e-9 * 100)
    sdev = np.asarray(ref["sdev"])
    np.testing.assert_allclose(pca.explained_variance_ratio_, sdev**2 / np.sum(sdev**2), rtol=1e-10)


@pytest.mark.parametrize("case", ["pca_unscaled", "pca_scaled"])
def test_summary_matches_r(case):
    ref = REF[case]
    summary = PCA(scale=ref["scale"]).fit(ARRESTS).summary()
    assert isinstance(summary, PCASummary)
    assert str(summary) == ref["summary_text"]
    importance = np.array(ref["importance"]).reshape(3, 4)  # R rounds proportions to 5 dp
    np.testing.assert_allclose(summary.importance[0], importance[0], rtol=1e-10)
    np.testing.assert_allclose(summary.importance[1:], importance[1:], atol=5e-6)
    frame = summary.to_frame()
    assert list(frame.index) == [
        "Standard deviation",
        "Proportion of Variance",
        "Cumulative Proportion",
    ]
    assert list(frame.columns) == ["PC1", "PC2", "PC3", "PC4"]


def test_seed004_e22_retention_rules():
    assert retained_components(E22, "cumulative:0.95") == 4  # not 5 ("reaching" 95%)
    assert retained_components(E22, "individual:0.25") == 2  # PC2 = 25.2% counts
    assert retained_components(E22, "elbow") == 3
    assert retained_components(E22, "kaiser") == 2  # above the mean eigenvalue 3.97


def test_rules_in_pca_follow_the_helper():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6)) * [5, 3, 2, 1, 0.5, 0.1]
    for rule in ["cumulative:0.9", "individual:0.1", "kaiser", "elbow"]:
        pca = PCA(rule).fit(X)
        assert pca.n_components_ == retained_components(pca.eigenvalues_, rule)
    # a float keeps the smallest number reaching the proportion (scikit-learn's meaning)
    pca = PCA(0.9).fit(X)
    cum = np.cumsum(pca.eigenvalues_) / pca.total_variance_
    assert pca.n_components_ == np.argmax(cum >= 0.9) + 1


def test_rule_bad_strings():
    with pytest.raises(ValueError, match="unknown retention rule"):
        retained_components(E22, "cumulative")
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        retained_components(E22, "individual:1.5")
    with pytest.raises(ValueError, match="decreasing"):
        retained_components([1, 2], "kaiser")


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 40), st.integers(1, 8), st.integers(0, 2**31 - 1), st.booleans())
def test_components_orthonormal_and_exact_reconstruction(n, p, seed, scale):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + rng.normal(size=p) * 10
    pca = PCA(scale=scale, svd_solver="full").fit(X)
    W = pca.components_
    np.testing.assert_allclose(W @ W.T, np.eye(W.shape[0]), atol=1e-10)
    if pca.n_components_ == p:  # full rank: exact reconstruction
        np.testing.assert_allclose(pca.inverse_transform(pca.transform(X)), X, atol=1e-8)
        assert pca.reconstruction_error(X) < 1e-14 * max(1.0, np.sum(X**2))


def test_solvers_agree_and_reconstruction_error():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(600, 30)) @ rng.normal(size=(30, 30))
    ref = PCA(5, svd_solver="full").fit(X)
    for solver in ["auto", "randomized"]:
        pca = PCA(5, svd_solver=solver, random_state=0).fit(X)
        np.testing.assert_allclose(pca.explained_variance_, ref.explained_variance_, rtol=1e-8)
        np.testing.assert_allclose(
            np.abs(pca.components_ @ ref.components_.T), np.eye(5), atol=1e-6
        )
    Xc = X - X.mean(axis=0)
    # the error of a rank-5 reconstruction is the variance left out (divisor n)
    lost = np.sum(PCA().fit(X).eigenvalues_[5:]) * (X.shape[0] - 1) / X.shape[0]
    assert ref.reconstruction_error(X) == pytest.approx(lost, rel=1e-8)
    assert ref.score(X) == -ref.reconstruction_error(X)
    assert np.isclose(np.sum(Xc**2) / (X.shape[0] - 1), ref.total_variance_)


def test_matches_sklearn_pca():
    from sklearn.decomposition import PCA as SkPCA

    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 12)) @ rng.normal(size=(12, 12))
    ours = PCA(4).fit(X)
    peer = SkPCA(4).fit(X)
    np.testing.assert_allclose(ours.explained_variance_, peer.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(np.abs(ours.transform(X)), np.abs(peer.transform(X)), atol=1e-8)


def test_bad_input():
    X = ARRESTS.copy()
    with pytest.raises(ValueError, match="n_components=5"):
        PCA(5).fit(X)
    with pytest.raises(ValueError, match="float must be in"):
        PCA(1.5).fit(X)
    with pytest.raises(ValueError, match="needs an integer n_components"):
        PCA("kaiser", svd_solver="randomized").fit(X)
    Xc = X.copy()
    Xc[:, 2] = 3.0
    with pytest.raises(ValueError, match=r"constant column\(s\) \['x2'\]"):
        PCA(scale=True).fit(Xc)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        PCA().fit(Xn)
    pca = PCA(2).fit(X)
    with pytest.raises(ValueError, match=r"shape \(n_samples, 2\)"):
        pca.inverse_transform(np.zeros((3, 3)))


def test_summary_prints_a_tiny_sd_in_scientific_notation_as_R():
    """R's ``print(summary(prcomp(x)))`` for a rank-deficient x (tests/reference/pca_summary)."""
    ref = json.loads((REFERENCE / "pca_summary" / "pca_summary_reference.json").read_text())
    sdev = np.array(ref["sdev"])
    table = PCASummary(sdev, float(np.sum(sdev**2)))
    assert str(table).splitlines() == ref["printed"]
    assert "0.0000000000" not in str(table)
