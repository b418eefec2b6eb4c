"""PCA: R's prcomp on USArrests, seed 004's retention rules, properties and bad input."""

from __future__ import annotations

import json
import warnings

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


# ------------------------------------------------------------------------------ whitening


@pytest.mark.parametrize("case", ["pca_unscaled", "pca_scaled"])
@pytest.mark.parametrize("solver", ["auto", "full", "randomized"])
def test_whiten_is_prcomp_scores_over_sdev(case, solver):
    """Seed 002's Λ^(−1/2)Wᵀ(x − x̄) with R's prcomp: the scores divided by ``sdev``."""
    ref = REF[case]
    pca = PCA(4, scale=ref["scale"], whiten=True, svd_solver=solver, random_state=0)
    Z = pca.fit_transform(ARRESTS)
    scores = np.array(ref["scores"]).reshape(50, 4) / np.asarray(ref["sdev"])
    signs = np.sign(np.sum(Z * scores, axis=0))
    np.testing.assert_allclose(Z * signs, scores, atol=1e-9)
    # unit sample variance (divisor n − 1), uncorrelated
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(4), atol=1e-12)
    np.testing.assert_allclose(pca.inverse_transform(Z), ARRESTS, rtol=1e-12, atol=1e-10)
    # new rows: the same map
    np.testing.assert_allclose(pca.transform(ARRESTS[:5]), Z[:5], rtol=1e-12)


@pytest.mark.parametrize("n_components", [None, 3])
@pytest.mark.parametrize("scale", [False, True])
def test_whiten_matches_sklearn(n_components, scale):
    from sklearn.decomposition import PCA as SkPCA

    rng = np.random.default_rng(5)
    X = rng.normal(size=(120, 5)) @ rng.normal(size=(5, 5)) + 10.0
    ours = PCA(n_components, whiten=True, scale=scale, svd_solver="full").fit(X)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1) if scale else X
    peer = SkPCA(n_components, whiten=True, svd_solver="full").fit(Xs)
    Z, Zp = ours.transform(X), peer.transform(Xs)
    signs = np.sign(np.sum(Z * Zp, axis=0))
    np.testing.assert_allclose(Z * signs, Zp, atol=1e-12)
    # scikit-learn's divisor is n − 1 too: its explained_variance_ is ours
    np.testing.assert_allclose(ours.explained_variance_, peer.explained_variance_, rtol=1e-12)
    back = peer.inverse_transform(Zp)
    back = back * X.std(axis=0, ddof=1) + X.mean(axis=0) if scale else back
    np.testing.assert_allclose(ours.inverse_transform(Z), back, rtol=1e-12, atol=1e-10)


def test_whiten_notes_divisor_n():
    """The notes' covariance divides by N: their whitened scores are ours × √(N/(N−1)),
    with unit variance under the divisor N."""
    X = ARRESTS
    n = X.shape[0]
    Z = PCA(whiten=True).fit_transform(X)
    Xc = X - X.mean(axis=0)
    lam, U = np.linalg.eigh(Xc.T @ Xc / n)  # C = UΛUᵀ with divisor N (seed 002, eq. 1.3)
    notes = Xc @ U / np.sqrt(lam)  # Λ^(−1/2) Uᵀ (x − mean), row by row
    notes = notes[:, ::-1]
    signs = np.sign(np.sum(Z * notes, axis=0))
    np.testing.assert_allclose(notes * signs, Z * np.sqrt(n / (n - 1)), atol=1e-10)
    np.testing.assert_allclose(np.var(notes, axis=0), 1.0, rtol=1e-12)


@pytest.mark.parametrize("solver", ["auto", "full"])
def test_whiten_rank_deficient_warns(solver):
    from statlearning.exceptions import NumericalWarning

    X = np.column_stack([ARRESTS[:, :2], ARRESTS[:, 0] - 2.0 * ARRESTS[:, 1]])  # rank 2
    with pytest.warns(NumericalWarning, match=r"1 retained component\(s\) \(PC3\)"):
        pca = PCA(whiten=True, svd_solver=solver).fit(X)
    Z = pca.transform(X)
    assert np.all(np.isfinite(Z)) and np.all(Z[:, 2] == 0.0)
    np.testing.assert_allclose(np.var(Z[:, :2], axis=0, ddof=1), 1.0, rtol=1e-10)
    np.testing.assert_allclose(pca.inverse_transform(Z), X, rtol=1e-10, atol=1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # dropping the null component: no warning
        PCA(2, whiten=True, svd_solver=solver).fit(X)


def test_whiten_extreme_scale():
    """Data near float64's end: the standard deviations come from the singular values, so
    whitening stays exact where explained_variance_ overflows."""
    X = ARRESTS * 2.0**600
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pca = PCA(whiten=True).fit(X)
    Z = pca.transform(X)
    Z0 = PCA(whiten=True).fit_transform(ARRESTS)
    np.testing.assert_allclose(Z, Z0, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(pca.inverse_transform(Z) / 2.0**600, ARRESTS, rtol=1e-10)


def _exact_scores(pca, X):
    """Scores in extended precision from the float64 data and fitted attributes."""
    W = pca.components_.T.astype(np.longdouble)
    if pca.scale_ is not None:
        W /= pca.scale_[:, None]
    return np.asarray((X.astype(np.longdouble) - pca.mean_) @ W, dtype=np.float64)


@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("whiten", [False, True])
def test_transform_without_the_centred_copy_when_the_mean_is_moderate(scale, whiten):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((400, 6)) @ rng.standard_normal((6, 6)) + 50.0 * rng.uniform(size=6)
    pca = PCA(3, scale=scale, whiten=whiten).fit(X)
    assert pca._projection()[2]  # X W − x̄ W
    exact = _exact_scores(pca, X)
    if whiten:
        exact /= pca._whitening_sd()
    spread = exact.std(axis=0)
    np.testing.assert_allclose(pca.transform(X), exact, rtol=0, atol=1e-12 * spread.max())
    np.testing.assert_allclose(pca.transform(X).std(axis=0), spread, rtol=1e-12)


def test_transform_centres_first_when_the_mean_dwarfs_the_spread():
    # x̄ W ≈ 1e9 against scores of unit size: X W − x̄ W would keep about 7 digits
    rng = np.random.default_rng(6)
    X = 1e9 + rng.standard_normal((300, 4)) @ np.diag([3.0, 2.0, 1.0, 0.5])
    pca = PCA(2).fit(X)
    W, offset, uncentred = pca._projection()
    assert not uncentred
    exact = _exact_scores(pca, X)
    np.testing.assert_allclose(pca.transform(X), exact, rtol=0, atol=1e-12)
    cancelled = X @ W - offset  # what the guard avoids
    assert np.abs(cancelled - exact).max() > 1e-9


def test_transform_centres_first_with_a_null_component():
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((50, 2))
    X = np.column_stack([Z, Z.sum(axis=1)]) + 1.0  # rank 2: the third component is null
    pca = PCA().fit(X)
    assert not pca._projection()[2]
    np.testing.assert_allclose(pca.transform(X), _exact_scores(pca, X), rtol=0, atol=1e-12)
