"""Cross-decomposition: identities (OLS, CCA), scikit-learn where conventions agree, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import cross_decomposition as skcd
from sklearn.datasets import make_regression
from sklearn.model_selection import KFold

from statlearning.cross_decomposition import (
    CCA,
    KernelCCA,
    PCRegression,
    PLSCanonical,
    PLSRegression,
)
from statlearning.exceptions import NumericalWarning
from statlearning.linear_model import LinearRegression

RNG = np.random.default_rng(7)
N, P = 60, 5
X = RNG.normal(size=(N, P)) @ RNG.normal(size=(P, P)) + RNG.normal(scale=5, size=P)
Y = np.c_[X @ RNG.normal(size=(P, 2)), RNG.normal(size=N)] + RNG.normal(size=(N, 3))
ALGORITHMS = ["nipals", "simpls", "kernel"]


def _ols(X, y):
    fit = LinearRegression().fit(X, y)
    return fit.coef_, fit.intercept_


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("scale", [True, False])
def test_pls_with_rank_components_is_ols(algorithm, scale):
    pls = PLSRegression(P, scale=scale, algorithm=algorithm).fit(X, Y[:, 0])
    coef, intercept = _ols(X, Y[:, 0])
    np.testing.assert_allclose(pls.coef_[0], coef, rtol=1e-9)
    np.testing.assert_allclose(pls.intercept_[0], intercept, rtol=1e-9)
    # PLS2 too: each response's least-squares fit
    pls2 = PLSRegression(P, scale=scale, algorithm=algorithm).fit(X, Y)
    for j in range(3):
        np.testing.assert_allclose(pls2.coef_[j], _ols(X, Y[:, j])[0], rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("scale", [True, False])
def test_pcr_with_all_components_is_ols(scale):
    pcr = PCRegression(scale=scale).fit(X, Y)
    assert pcr.n_components_ == P
    for j in range(3):
        coef, intercept = _ols(X, Y[:, j])
        np.testing.assert_allclose(pcr.coef_[j], coef, rtol=1e-9)
        np.testing.assert_allclose(pcr.intercept_[j], intercept, rtol=1e-9)
    np.testing.assert_allclose(pcr.predict(X), PLSRegression(P, scale=scale).fit(X, Y).predict(X))


def test_pcr_retention_rule_and_zero_component_choice():
    pcr = PCRegression(n_components="cumulative:0.8").fit(X, Y[:, 0])
    cum = np.cumsum(pcr.explained_variance_ratio_[0])
    assert cum[-1] <= 0.8 + 1e-12
    # pure noise: CV picks the mean model (0 components), as pls's RMSEP minimum would
    noise = np.random.default_rng(1).normal(size=N)
    pcr0 = PCRegression(n_components="cv", cv=5).fit(X, noise)
    assert pcr0.n_components_ == int(np.argmin(pcr0.validation_["RMSEP"][0]))
    if pcr0.n_components_ == 0:
        np.testing.assert_allclose(pcr0.predict(X), noise.mean())


def test_one_se_choice_is_no_larger_and_within_one_se():
    y = Y[:, 0]
    for est in (PLSRegression, PCRegression):
        best = est(n_components="cv", cv=6).fit(X, y)
        one = est(n_components="cv", cv=6, rule="1se").fit(X, y)
        v = best.validation_
        assert one.n_components_ <= best.n_components_
        b = best.n_components_
        assert v["MSEP"][one.n_components_] <= v["MSEP"][b] + v["MSEP_se"][b] + 1e-12


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pls1_matches_scikit_learn(algorithm):
    # conventions agree for one response without scaling (scikit-learn's scale=True also
    # scales y); its intercept_ is the mean of y (for centred X): compare predictions
    ours = PLSRegression(3, scale=False, algorithm=algorithm).fit(X, Y[:, 0])
    theirs = skcd.PLSRegression(3, scale=False, tol=1e-14, max_iter=2000).fit(X, Y[:, 0])
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)
    np.testing.assert_allclose(theirs.intercept_, Y[:, 0].mean())
    if algorithm != "simpls":  # SIMPLS scores have unit length
        # signs: ours are R's (w ∝ Xᵀy), scikit-learn flips by the largest weight
        signs = np.sign(np.sum(ours.x_weights_ * theirs.x_weights_, axis=0))
        for name in ("x_scores_", "x_weights_", "x_loadings_", "x_rotations_"):
            np.testing.assert_allclose(
                getattr(ours, name) * signs,
                getattr(theirs, name),
                rtol=1e-8,
                atol=1e-10,
                err_msg=name,
            )


def test_pls2_matches_scikit_learn_with_standardised_y():
    # scikit-learn scales Y with scale=True; on a standardised Y the two agree
    Ys = (Y - Y.mean(0)) / Y.std(0, ddof=1)
    ours = PLSRegression(3, algorithm="kernel").fit(X, Ys)
    theirs = skcd.PLSRegression(3, tol=1e-14, max_iter=5000).fit(X, Ys)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-7, atol=1e-9)


def test_pls_canonical_matches_scikit_learn():
    ours = PLSCanonical(2).fit(X, Y)
    theirs = skcd.PLSCanonical(2, algorithm="svd").fit(X, Y)
    for name in (
        "x_weights_",
        "y_weights_",
        "x_loadings_",
        "y_loadings_",
        "x_rotations_",
        "y_rotations_",
    ):
        a, b = getattr(ours, name), getattr(theirs, name)
        signs = np.sign(np.sum(a * b, axis=0))
        np.testing.assert_allclose(a * signs, b, rtol=1e-8, atol=1e-12, err_msg=name)
    xs, ys = ours.transform(X, Y)
    txs, tys = theirs.transform(X, Y)
    signs = np.sign(np.sum(xs * txs, axis=0))
    np.testing.assert_allclose(xs * signs, txs, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ys * signs, tys, rtol=1e-8, atol=1e-10)


def test_cca_matches_scikit_learn_correlations():
    # scikit-learn's CCA iterates NIPALS to tol: the same correlations to its tolerance, and
    # scores proportional to the canonical variates (other normalisation)
    ours = CCA(2).fit(X, Y)
    theirs = skcd.CCA(2, tol=1e-12, max_iter=5000).fit(X, Y)
    u, v = theirs.transform(X, Y)
    rho = [np.corrcoef(u[:, j], v[:, j])[0, 1] for j in range(2)]
    np.testing.assert_allclose(ours.correlations_, rho, rtol=1e-6)
    ou = ours.transform(X)
    for j in range(2):
        assert abs(np.corrcoef(ou[:, j], u[:, j])[0, 1]) > 1 - 1e-8


def test_cca_variates_are_canonical():
    cca = CCA(3).fit(X, Y)
    u, v = cca.transform(X, Y)
    np.testing.assert_allclose(u.T @ u, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(v.T @ v, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(u.T @ v, np.diag(cca.correlations_), atol=1e-10)
    assert np.all(np.diff(cca.correlations_) <= 0)


def test_kernel_cca_linear_small_reg_is_cca():
    cca = CCA(3).fit(X, Y)
    kcca = KernelCCA(3, kernel="linear", reg=1e-6).fit(X, Y)
    np.testing.assert_allclose(kcca.correlations_, cca.correlations_, rtol=1e-6)
    u_k, v_k = kcca.transform(X, Y)
    u, v = cca.transform(X, Y)
    signs = np.sign(np.sum(u_k * u, axis=0))
    np.testing.assert_allclose(u_k * signs / np.sqrt(N), u, atol=1e-5)
    np.testing.assert_allclose(v_k * signs / np.sqrt(N), v, atol=1e-5)
    # on new rows: the centred test kernel gives the same linear map
    Xn = RNG.normal(size=(7, P))
    np.testing.assert_allclose(
        kcca.transform(Xn) * signs / np.sqrt(N), cca.transform(Xn), atol=1e-5
    )


def test_kernel_cca_unregularised_degenerates_and_warns():
    Xr, Yr = RNG.normal(size=(8, 2)), RNG.normal(size=(8, 2))
    with pytest.warns(NumericalWarning, match="degenerate to 1"):
        kcca = KernelCCA(3, kernel="rbf", gamma=1.0, reg=0.0).fit(Xr, Yr)
    np.testing.assert_allclose(kcca.correlations_, 1.0, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        kcca = KernelCCA(1, kernel="rbf", gamma=1.0, reg=1.0).fit(Xr, Yr)
    assert kcca.correlations_[0] < 0.999


def test_kernel_cca_normalisation_and_training_projection():
    kcca = KernelCCA(2, kernel="rbf", gamma=0.5, reg=0.1).fit(X, Y)
    u = kcca.transform(X)
    from statlearning.kernels import center_kernel

    Kx = center_kernel(kcca.kernel_(X))
    alpha = kcca.x_dual_coef_
    # the notes' constraint αᵀ(K² + ηI)α = N
    np.testing.assert_allclose(np.diag(alpha.T @ (Kx @ Kx + 0.1 * np.eye(N)) @ alpha), N, rtol=1e-8)
    np.testing.assert_allclose(u, Kx @ alpha, atol=1e-8)


def test_bad_input_messages():
    with pytest.raises(ValueError, match=r"n_components=2 exceeds min\(n_features=5 of X, 1 "):
        CCA(2).fit(X, Y[:, 0])
    with pytest.raises(ValueError, match="n_components=7 exceeds min"):
        PLSRegression(7).fit(X, Y)
    collinear = np.c_[X, X[:, 0] + X[:, 1]]
    with pytest.raises(ValueError, match=r"exceeds the rank of the centred \(scaled\) X, 5"):
        PLSRegression(6).fit(collinear, Y[:, 0])
    with pytest.raises(ValueError, match="exceeds the rank"):
        PCRegression(6).fit(collinear, Y[:, 0])
    with pytest.raises(ValueError, match="columns of X are collinear"):
        CCA().fit(collinear, Y)
    with pytest.raises(ValueError, match="n_components"):
        PCRegression(n_components="cumulative:2").fit(X, Y[:, 0])
    with pytest.raises(ValueError, match="n_components"):
        PLSRegression(n_components="best").fit(X, Y[:, 0])
    # with the CV choice, the path stops at the rank quietly
    pls = PLSRegression("cv", cv=KFold(5)).fit(collinear, Y[:, 0])
    assert pls.validation_["RMSEP"].shape == (1, 7)


def test_pcr_all_components_on_collinear_data_uses_the_rank():
    collinear = np.c_[X, X[:, 0] + X[:, 1]]
    pcr = PCRegression().fit(collinear, Y[:, 0])
    assert pcr.n_components_ == P
    np.testing.assert_allclose(
        pcr.predict(collinear), LinearRegression().fit(X, Y[:, 0]).predict(X), rtol=1e-8
    )


def test_summary_prints_r_layout():
    text = str(PLSRegression("cv", cv=5).fit(X, Y).summary())
    assert "VALIDATION: RMSEP" in text and "Response: y2" in text
    assert "TRAINING: % variance explained" in text
    frame = PCRegression(3).fit(X, Y[:, 0]).summary().to_frame()
    assert list(frame.index) == ["X", "y"] and frame.shape == (2, 3)


def test_pls_warnings_name_the_cause():
    from sklearn.exceptions import ConvergenceWarning

    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        PLSRegression(2, max_iter=1).fit(X, Y)
    # orthonormal centred columns: XᵀX = I, so y = Xβ is explained by the first component
    Q, _ = np.linalg.qr(X[:, :3] - X[:, :3].mean(axis=0))
    y = Q @ [1.0, -2.0, 0.5]
    with pytest.warns(NumericalWarning, match="fully explained by 1 component"):
        pls = PLSRegression(3, scale=False).fit(Q, y)
    np.testing.assert_allclose(pls.predict(Q), y, atol=1e-10)


def test_cca_more_columns_than_rows_is_a_clear_error():
    with pytest.raises(ValueError, match="fewer rows than columns"):
        CCA().fit(X[:4], Y[:4])


def test_constant_column_adds_nothing():
    Xc = np.c_[X, np.full(N, 3.0)]
    for est in (PCRegression(), PLSRegression(P)):
        fit = est.fit(Xc, Y[:, 0])
        assert fit.coef_[0, -1] == 0.0
        np.testing.assert_allclose(fit.predict(Xc), LinearRegression().fit(X, Y[:, 0]).predict(X))


def test_selection_is_the_deprecated_name_of_rule():
    X, y = make_regression(60, 5, noise=5.0, random_state=0)
    with pytest.warns(FutureWarning, match="renamed to 'rule'"):
        a = PCRegression(n_components="cv", cv=6, selection="1se").fit(X, y)
    b = PCRegression(n_components="cv", cv=6, rule="1se").fit(X, y)
    assert a.n_components_ == b.n_components_
