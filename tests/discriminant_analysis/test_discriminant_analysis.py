"""Discriminant analysis: the lecture notes' Gapminder discriminants (seed 004 E14),
scikit-learn as an oracle where the conventions coincide, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import discriminant_analysis as skda

from statlearning._core.discriminant import linear_discriminants, quadratic_discriminants
from statlearning.datasets import load_iris
from statlearning.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

RTOL = 1e-8


def _blobs(n=300, p=4, K=3, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    A = rng.normal(size=(p, p))
    X = rng.normal(size=(n, p)) @ A + 2.0 * y[:, None] * rng.normal(size=p) + offset
    return X, y


def _within(actual, printed, tol):
    """Each value within its own tolerance of the number printed in the notes."""
    diff = np.abs(np.asarray(actual) - np.asarray(printed))
    assert np.all(diff <= np.asarray(tol)), (actual, printed, diff)


def _sample_with_moments(rng, n, mean, scatter):
    """``n`` points whose mean and scatter ``Σ(x − x̄)(x − x̄)ᵀ`` are exactly the given ones."""
    Z = rng.normal(size=(n, len(mean)))
    Z -= Z.mean(axis=0)
    L = np.linalg.cholesky(Z.T @ Z)
    Z = np.linalg.solve(L, Z.T).T  # scatter I
    return Z @ np.linalg.cholesky(scatter).T + mean


# --- seed 004 E14: the Gapminder 2011 LDA/QDA on a 116-country training set ----------------------
# The split is random and unknown, but the notes print the training statistics. We build data
# realising those statistics exactly and fit the estimators to it (the fitted estimator, not a
# formula, is under test).

N0, N1 = 51, 65
MU0, MU1 = np.array([45.40, 4.08]), np.array([9.57, 1.92])
SIGMA_TOTAL = np.array([[557.89, 30.51], [30.51, 2.27]])
SIGMA0 = np.array([[496.51, 23.38], [23.38, 2.17]])
SIGMA1 = np.array([[42.79, 2.14], [2.14, 0.31]])


def _e14_data_total():
    """Class sizes and means as printed, and total covariance exactly SIGMA_TOTAL."""
    rng = np.random.default_rng(14)
    n = N0 + N1
    grand = (N0 * MU0 + N1 * MU1) / n
    between = N0 * np.outer(MU0 - grand, MU0 - grand) + N1 * np.outer(MU1 - grand, MU1 - grand)
    within = (n - 1) * SIGMA_TOTAL - between  # positive definite for these numbers
    X0 = _sample_with_moments(rng, N0, MU0, within * (N0 - 1) / (n - 2))
    X1 = _sample_with_moments(rng, N1, MU1, within * (N1 - 1) / (n - 2))
    return np.vstack([X0, X1]), np.array([0] * N0 + [1] * N1)


def _e14_data_classes():
    """Class sizes, means and class covariances (divisor n_k − 1) exactly as printed."""
    rng = np.random.default_rng(41)
    X0 = _sample_with_moments(rng, N0, MU0, (N0 - 1) * SIGMA0)
    X1 = _sample_with_moments(rng, N1, MU1, (N1 - 1) * SIGMA1)
    return np.vstack([X0, X1]), np.array([0] * N0 + [1] * N1)


def test_seed004_e14_lda_with_total_covariance_gives_the_printed_discriminants():
    X, y = _e14_data_total()
    lda = LinearDiscriminantAnalysis(covariance="total").fit(X, y)
    np.testing.assert_allclose(lda.covariance_, SIGMA_TOTAL, rtol=1e-12)
    np.testing.assert_allclose(lda.means_, [MU0, MU1], rtol=1e-12)
    funcs = lda.discriminant_functions_  # [c_k0, c_k1, c_k2]
    # exact values from the printed statistics (seed-notes item 28: −0.0638, 2.655, −4.79 ...)
    prec = np.linalg.inv(SIGMA_TOTAL)
    for k, (mu, n_k) in enumerate(((MU0, N0), (MU1, N1))):
        c = prec @ mu
        np.testing.assert_allclose(funcs[k, 1:], c, rtol=1e-10)
        assert funcs[k, 0] == pytest.approx(-0.5 * mu @ c + np.log(n_k / 116), rel=1e-10)
    # the text's rounded coefficients, −0.06x₁ + 2.65x₂ − 4.78 and −0.11x₁ + 2.31x₂ − 2.28;
    # its 2.31 is 0.012 below what its own inputs give (2.322), hence the wider tolerance there
    _within(funcs[0], [-4.78, -0.06, 2.65], [0.011, 0.005, 0.006])
    _within(funcs[1], [-2.28, -0.11, 2.31], [0.005, 0.005, 0.013])
    text = lda.format_discriminants(digits=3)
    assert text.splitlines() == [
        "δ̂_0(x) = -4.79 - 0.0638·x1 + 2.66·x2",
        "δ̂_1(x) = -2.28 - 0.11·x1 + 2.32·x2",
    ]


def test_seed004_e14_pooled_covariance_differs_from_the_printed_numbers():
    """The standard (pooled) LDA does not give the printed discriminants (seed-notes item 28)."""
    X, y = _e14_data_total()
    funcs = LinearDiscriminantAnalysis().fit(X, y).discriminant_functions_
    assert abs(funcs[0, 1] - (-0.06)) > 0.05


def test_seed004_e14_qda_without_log_determinant_gives_the_printed_discriminants():
    X, y = _e14_data_classes()
    qda = QuadraticDiscriminantAnalysis(include_log_det=False).fit(X, y)
    np.testing.assert_allclose(qda.covariances_, [SIGMA0, SIGMA1], rtol=1e-12)
    Q, L, c = qda.quadratic_terms_, qda.linear_terms_, qda.constant_terms_
    # δ̂₀ = −4.66 − 0.002x₁² + 0.01x₁ + 0.04x₁x₂ + 1.81x₂ − 0.47x₂² (text, 2 decimals)
    assert c[0] == pytest.approx(-4.66, abs=0.005)
    _within(
        [Q[0, 0, 0], L[0, 0], 2 * Q[0, 0, 1], L[0, 1], Q[0, 1, 1]],
        [-0.002, 0.01, 0.04, 1.81, -0.47],
        [0.0005, 0.005, 0.005, 0.007, 0.005],
    )
    # class 1: the text printed a rounded Σ₁ but computed with the unrounded one, so only the
    # values recomputed from the printed inputs can be checked (seed-notes E14: −6.77, 7.10)
    assert c[1] == pytest.approx(-6.767241503643114, rel=1e-9)
    np.testing.assert_allclose(
        [Q[1, 0, 0], L[1, 0], 2 * Q[1, 0, 1], L[1, 1], Q[1, 1, 1]],
        [-0.017846245955810396, -0.13149805, 0.24639333126086607, 7.10130911,
         -2.4633576272552475],
        rtol=1e-7,
    )
    # the log-determinant term (kept by default) moves δ̂₀'s constant to −7.80
    with_det = QuadraticDiscriminantAnalysis().fit(X, y)
    assert with_det.constant_terms_[0] == pytest.approx(-7.80, abs=0.005)
    np.testing.assert_allclose(with_det.linear_terms_, L, rtol=1e-12)
    line0 = qda.format_discriminants(digits=2).splitlines()[0]
    assert line0.startswith("δ̂_0(x) = -4.7 + 0.0059·x1 + 1.8·x2 - 0.002·x1² - 0.47·x2²")
    assert line0.endswith("+ 0.044·x1·x2")


# --- scikit-learn as an oracle -------------------------------------------------------------------


def test_linear_discriminant_formula_reproduces_sklearn_given_its_covariance():
    """scikit-learn 1.9 divides the pooled covariance by n (MASS: n − K); with its covariance,
    our discriminant functions give its posteriors."""
    X, y = _blobs()
    ref = skda.LinearDiscriminantAnalysis(solver="eigen", store_covariance=True).fit(X, y)
    cho = np.linalg.inv(ref.covariance_)
    funcs, A, b = linear_discriminants(lambda B: cho @ B, ref.means_, ref.priors_, X.mean(0))
    scores = funcs[:, 0] + X @ funcs[:, 1:].T
    proba = np.exp(scores - scores.max(1, keepdims=True))
    proba /= proba.sum(1, keepdims=True)
    np.testing.assert_allclose(proba, ref.predict_proba(X), rtol=RTOL, atol=1e-14)
    centred = (X - X.mean(0)) @ A + b
    np.testing.assert_allclose(
        centred - centred[:, :1], scores - scores[:, :1], rtol=1e-9, atol=1e-9
    )


def test_quadratic_discriminant_formula_reproduces_sklearn_given_its_covariances():
    X, y = _blobs()
    ref = skda.QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    covs = np.array(ref.covariance_)
    Q, L, c, _, _ = quadratic_discriminants(ref.means_, covs, ref.priors_)
    scores = np.einsum("ij,kjl,il->ik", X, Q, X) + X @ L.T + c
    proba = np.exp(scores - scores.max(1, keepdims=True))
    proba /= proba.sum(1, keepdims=True)
    np.testing.assert_allclose(proba, ref.predict_proba(X), rtol=RTOL, atol=1e-14)


def test_lda_estimator_agrees_with_sklearn_up_to_the_covariance_divisor():
    X, y = _blobs()
    n, K = X.shape[0], 3
    ours = LinearDiscriminantAnalysis().fit(X, y)
    ref = skda.LinearDiscriminantAnalysis(store_covariance=True).fit(X, y)
    np.testing.assert_allclose(ours.means_, ref.means_, rtol=1e-12)
    np.testing.assert_allclose(ours.priors_, ref.priors_, rtol=1e-12)
    np.testing.assert_allclose(ours.covariance_ * (n - K) / n, ref.covariance_, rtol=1e-10)
    np.testing.assert_allclose(
        ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-10
    )
    scores = ours.transform(X) * np.sqrt(n / (n - K))
    ref_scores = ref.transform(X)
    signs = np.sign(np.sum(scores * ref_scores, axis=0))
    np.testing.assert_allclose(scores * signs, ref_scores, rtol=1e-8, atol=1e-10)
    assert np.mean(ours.predict(X) == ref.predict(X)) > 0.99


def test_lda_float_shrinkage_matches_sklearn_covariance():
    X, y = _blobs()
    n = X.shape[0]
    ours = LinearDiscriminantAnalysis(solver="eigen", shrinkage=0.3).fit(X, y)
    ref = skda.LinearDiscriminantAnalysis(solver="eigen", shrinkage=0.3, store_covariance=True)
    ref.fit(X, y)
    np.testing.assert_allclose(ours.covariance_ * (n - 3) / n, ref.covariance_, rtol=1e-10)
    assert ours.shrinkage_ == 0.3


def test_qda_estimator_agrees_with_sklearn_up_to_the_covariance_divisor():
    X, y = _blobs()
    ours = QuadraticDiscriminantAnalysis().fit(X, y)
    ref = skda.QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    counts = np.bincount(y)
    np.testing.assert_allclose(
        ours.covariances_ * ((counts - 1) / counts)[:, None, None], ref.covariance_, rtol=1e-10
    )
    assert np.mean(ours.predict(X) == ref.predict(X)) > 0.99


# --- properties ---------------------------------------------------------------------------------


def test_svd_and_eigen_solvers_agree_and_discriminants_match_posteriors():
    X, y = _blobs(offset=1e4)  # far from the origin: the centred evaluation keeps accuracy
    a = LinearDiscriminantAnalysis().fit(X, y)
    b = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(a.scalings_, b.scalings_, rtol=1e-7)
    scores = a.discriminant_functions_[:, 0] + X @ a.discriminant_functions_[:, 1:].T
    assert np.array_equal(np.argmax(scores, axis=1), np.argmax(a.predict_proba(X), axis=1))


@pytest.mark.parametrize("solver", ["svd", "eigen"])
def test_scalings_solve_fishers_generalised_eigenproblem(solver):
    """Welling eq. 13.11: S_B w = λ S_W w with the scatter matrices of eq. 13.2–13.5, and
    J(w) = wᵀS_B w / wᵀS_W w = λ is largest for the first direction."""
    X, y = _blobs(n=400)
    n, K = 400, 3
    lda = LinearDiscriminantAnalysis(solver=solver).fit(X, y)
    xbar = X.mean(0)
    mu = np.array([X[y == k].mean(0) for k in range(K)])
    S_B = sum(np.sum(y == k) * np.outer(mu[k] - xbar, mu[k] - xbar) for k in range(K))
    D = X - mu[y]
    S_W = D.T @ D
    lam = lda.svd_**2 * (K - 1) / (n - K)  # MASS's svd² on the scatter scale
    for j in range(2):
        w = lda.scalings_[:, j]
        np.testing.assert_allclose(S_B @ w, lam[j] * (S_W @ w), rtol=1e-8, atol=1e-8)
        assert (w @ S_B @ w) / (w @ S_W @ w) == pytest.approx(lam[j], rel=1e-10)
    rng = np.random.default_rng(3)
    others = rng.normal(size=(50, 4))
    J = np.einsum("ij,jk,ik->i", others, S_B, others) / np.einsum(
        "ij,jk,ik->i", others, S_W, others
    )
    assert J.max() <= lam[0] * (1 + 1e-12)


def test_transform_whitens_within_classes_and_is_centred_at_prior_weighted_mean():
    X, y = _blobs(n=400)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    Z = lda.transform(X)
    assert Z.shape == (400, 2)
    resid = Z - np.array([Z[y == k].mean(0) for k in range(3)])[y]
    np.testing.assert_allclose(resid.T @ resid / (400 - 3), np.eye(2), atol=1e-10)
    np.testing.assert_allclose(lda.priors_ @ lda.transform(lda.means_), 0.0, atol=1e-10)
    one = LinearDiscriminantAnalysis(n_components=1).fit(X, y)
    assert one.transform(X).shape == (400, 1) and one.explained_variance_ratio_.shape == (1,)
    assert list(one.get_feature_names_out()) == ["lineardiscriminantanalysis0"]


def test_total_covariance_is_the_sample_covariance_of_all_rows():
    X, y = _blobs()
    for solver in ("svd", "eigen"):
        lda = LinearDiscriminantAnalysis(covariance="total", solver=solver).fit(X, y)
        np.testing.assert_allclose(lda.covariance_, np.cov(X.T), rtol=1e-10)


def test_binary_decision_function_is_the_log_posterior_odds():
    X, y = _blobs(K=2)
    for model in (LinearDiscriminantAnalysis(), QuadraticDiscriminantAnalysis()):
        model.fit(X, y)
        logp = model.predict_log_proba(X)
        np.testing.assert_allclose(model.decision_function(X), logp[:, 1] - logp[:, 0], atol=1e-9)


def test_auto_shrinkage_handles_p_greater_than_n():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(20, 30))
    y = np.repeat([0, 1], 10)
    X[y == 1, :3] += 2.0
    with pytest.raises(ValueError, match=r"singular.*shrinkage"):
        LinearDiscriminantAnalysis().fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="eigen", shrinkage="auto").fit(X, y)
    assert 0 < lda.shrinkage_ <= 1
    assert np.all(np.isfinite(lda.predict_proba(X)))


def test_feature_names_in_formulas_and_string_labels():
    pd = pytest.importorskip("pandas")
    X, y = load_iris(return_X_y=True)
    frame = pd.DataFrame(X[:, :2], columns=["sepal_len", "sepal_wid"])
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    lda = LinearDiscriminantAnalysis().fit(frame, labels)
    assert lda.format_discriminants().splitlines()[0].startswith("δ̂_setosa(x) = ")
    assert "·sepal_wid" in lda.format_discriminants()
    qda = QuadraticDiscriminantAnalysis().fit(frame, labels)
    assert "·sepal_len·sepal_wid" in qda.format_discriminants()
    assert set(qda.predict(frame)) <= set(labels)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis])
def test_single_class_is_an_error(cls):
    with pytest.raises(ValueError, match=r"1 class \(only 1\).*at least 2 classes"):
        cls().fit([[1.0, 2.0], [2.0, 1.0], [0.0, 0.5]], [1, 1, 1])


def test_collinear_features_give_a_singular_pooled_covariance_error():
    X, y = _blobs()
    X = np.column_stack([X, X[:, 0] - 2 * X[:, 1]])
    for solver in ("svd", "eigen"):
        with pytest.raises(ValueError, match=r"pooled within-class covariance is singular.*"
                                             r"shrinkage='auto'"):
            LinearDiscriminantAnalysis(solver=solver).fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="eigen", shrinkage=0.1).fit(X, y)
    assert np.mean(lda.predict(X) == y) > 0.8


def test_feature_constant_within_classes_is_named():
    X, y = _blobs()
    X[:, 2] = y * 3.0  # constant within each class
    with pytest.raises(ValueError, match=r"feature\(s\) 'x2' are constant within classes"):
        LinearDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError, match=r"covariance of class 0 is singular.*'x2'"):
        QuadraticDiscriminantAnalysis().fit(X, y)
    QuadraticDiscriminantAnalysis(reg_param=0.1).fit(X, y)


def test_lda_parameter_combinations():
    X, y = _blobs()
    with pytest.raises(ValueError, match="shrinkage requires solver='eigen'"):
        LinearDiscriminantAnalysis(shrinkage="auto").fit(X, y)
    with pytest.raises(ValueError, match=r"n_components=3 cannot exceed .* = 2"):
        LinearDiscriminantAnalysis(n_components=3).fit(X, y)
    with pytest.raises(ValueError, match="parameter 'covariance' must be one of"):
        LinearDiscriminantAnalysis(covariance="within").fit(X, y)
    with pytest.raises(ValueError, match="priors must sum to 1"):
        LinearDiscriminantAnalysis(priors=[0.5, 0.5, 0.5]).fit(X, y)


def test_qda_small_classes():
    X, y = _blobs(n=60, p=4)
    y = y.copy()
    y[:3] = 7  # a class of 3 samples with 4 features
    with pytest.raises(ValueError, match=r"class 7 has 3 samples.*at least p \+ 1 = 5"):
        QuadraticDiscriminantAnalysis().fit(X, y)
    QuadraticDiscriminantAnalysis(reg_param=0.5).fit(X, y)
    y[0] = 9
    with pytest.raises(ValueError, match="class 9 has a single sample"):
        QuadraticDiscriminantAnalysis(reg_param=0.5).fit(X, y)
