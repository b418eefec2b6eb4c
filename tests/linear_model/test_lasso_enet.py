"""Lasso, ElasticNet, lasso_path and enet_path: optimality, agreement with scikit-learn (as an
oracle), weights, warm starts, convergence reporting and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning._core.penalties import enet_kkt_violation
from statlearning.exceptions import ConvergenceWarning, InvalidParameterError
from statlearning.linear_model import ElasticNet, Lasso, enet_path, lasso_path


def data(n=150, p=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * np.exp(rng.uniform(-1, 1, size=p)) + rng.normal(size=p)
    beta = np.zeros(p)
    beta[: min(p, 4)] = [2.0, -1.0, 0.5, 1.5][:p]
    y = 0.7 + X @ beta + rng.normal(size=n)
    w = rng.uniform(0.1, 3.0, size=n)
    return X, y, w


def objective(X, y, w, coef, intercept, alpha, l1_ratio):
    w = np.ones(len(y)) if w is None else w
    r = y - intercept - X @ coef
    return 0.5 * (w @ (r * r)) / w.sum() + alpha * (
        l1_ratio * np.abs(coef).sum() + 0.5 * (1 - l1_ratio) * coef @ coef
    )


def kkt(est, X, y, w, alpha, l1_ratio):
    w = np.ones(len(y)) if w is None else w
    r = y - est.intercept_ - X @ est.coef_
    grad = -(X.T @ (w * r)) / w.sum()
    return enet_kkt_violation(est.coef_, grad, alpha, l1_ratio)


ESTIMATORS = [
    pytest.param(lambda **kw: Lasso(**kw), 1.0, id="Lasso"),
    pytest.param(lambda **kw: ElasticNet(l1_ratio=0.3, **kw), 0.3, id="ElasticNet-0.3"),
    pytest.param(lambda **kw: ElasticNet(l1_ratio=0.0, **kw), 0.0, id="ElasticNet-ridge"),
]


@pytest.mark.parametrize(("make", "l1_ratio"), ESTIMATORS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_kkt_and_agreement_with_scikit_learn(make, l1_ratio, weighted, fit_intercept):
    from sklearn.linear_model import ElasticNet as SkElasticNet

    X, y, w = data()
    sw = w if weighted else None
    for alpha in (1.0, 0.1, 0.01):
        est = make(alpha=alpha, fit_intercept=fit_intercept, tol=1e-12).fit(X, y, sample_weight=sw)
        assert kkt(est, X, y, sw, alpha, l1_ratio).max() < 1e-6
        sk = SkElasticNet(alpha=alpha, l1_ratio=l1_ratio, fit_intercept=fit_intercept,
                          tol=1e-12, max_iter=100_000)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # sklearn at l1_ratio=0
            sk.fit(X, y, sample_weight=sw)
        np.testing.assert_allclose(est.coef_, sk.coef_, rtol=1e-5, atol=1e-7)
        f_ours = objective(X, y, sw, est.coef_, est.intercept_, alpha, l1_ratio)
        f_sk = objective(X, y, sw, sk.coef_, sk.intercept_, alpha, l1_ratio)
        assert f_ours <= f_sk + 1e-12 * abs(f_sk)


def test_default_tolerance_is_as_accurate_as_scikit_learn():
    from sklearn.linear_model import Lasso as SkLasso

    X, y, _ = data(n=400, p=30, seed=1)
    for alpha in (0.3, 0.03, 0.003):
        ours = Lasso(alpha=alpha).fit(X, y)
        sk = SkLasso(alpha=alpha).fit(X, y)
        f_ours = objective(X, y, None, ours.coef_, ours.intercept_, alpha, 1.0)
        f_sk = objective(X, y, None, sk.coef_, sk.intercept_, alpha, 1.0)
        assert f_ours <= f_sk * (1 + 1e-6)


def test_lasso_gives_exact_zeros_and_reports_its_work():
    X, y, _ = data()
    est = Lasso(alpha=0.2).fit(X, y)
    zero = est.coef_ == 0.0
    assert 0 < zero.sum() < X.shape[1] and np.all(est.coef_[[0, 1, 3]] != 0)
    assert isinstance(est.n_iter_, int) and est.n_iter_ >= 1
    yc = y - y.mean()
    assert 0 <= est.dual_gap_ <= est.tol * np.mean(yc * yc)
    assert est.intercept_ == pytest.approx(y.mean() - X.mean(axis=0) @ est.coef_)
    np.testing.assert_allclose(est.predict(X), X @ est.coef_ + est.intercept_)


def test_large_alpha_gives_the_mean():
    X, y, w = data()
    est = ElasticNet(alpha=1e3, l1_ratio=0.9).fit(X, y, sample_weight=w)
    assert np.all(est.coef_ == 0) and est.n_iter_ == 0
    assert est.intercept_ == pytest.approx((w @ y) / w.sum())


def test_convergence_warning_names_the_estimator():
    X, y, _ = data()
    with pytest.warns(ConvergenceWarning, match=r"ElasticNet: .*max_iter=1 .*alpha=0\.001"):
        est = ElasticNet(alpha=0.001, max_iter=1, tol=1e-12).fit(X, y)
    assert est.n_iter_ == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        Lasso(alpha=0.01).fit(X, y)


def test_warm_start():
    X, y, _ = data()
    est = Lasso(alpha=0.05, tol=1e-10, warm_start=True).fit(X, y)
    cold_iter = est.n_iter_
    first = est.coef_.copy()
    est.fit(X, y)
    assert est.n_iter_ < cold_iter
    np.testing.assert_allclose(est.coef_, first, rtol=1e-6, atol=1e-9)
    # a different alpha from the previous solution: same answer as a cold fit
    est.set_params(alpha=0.04).fit(X, y)
    cold = Lasso(alpha=0.04, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(est.coef_, cold.coef_, rtol=1e-6, atol=1e-9)
    # a different number of features: a cold start, not an error
    est.fit(X[:, :5], y)
    assert est.coef_.shape == (5,)


def test_integer_weights_equal_repeated_rows():
    X, y, _ = data(n=50, seed=2)
    reps = np.random.default_rng(3).integers(0, 4, size=50)
    a = ElasticNet(alpha=0.05, l1_ratio=0.6, tol=1e-12).fit(X, y, sample_weight=reps)
    b = ElasticNet(alpha=0.05, l1_ratio=0.6, tol=1e-12).fit(np.repeat(X, reps, axis=0),
                                                           np.repeat(y, reps))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-7, atol=1e-10)
    assert a.intercept_ == pytest.approx(b.intercept_, rel=1e-9)


def test_random_selection_is_reproducible():
    X, y, _ = data()
    a = Lasso(alpha=0.02, selection="random", random_state=0, tol=1e-12).fit(X, y)
    b = Lasso(alpha=0.02, selection="random", random_state=0, tol=1e-12).fit(X, y)
    c = Lasso(alpha=0.02, tol=1e-12).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_allclose(a.coef_, c.coef_, rtol=1e-5, atol=1e-8)


def test_parameters_and_feature_names():
    pd = pytest.importorskip("pandas")
    X, y, _ = data(p=3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    est = Lasso(alpha=0.1).fit(frame, y)
    assert list(est.feature_names_in_) == ["a", "b", "c"]
    assert "l1_ratio" not in Lasso().get_params()
    assert ElasticNet().get_params()["l1_ratio"] == 0.5


@pytest.mark.parametrize(
    ("est", "match"),
    [
        (Lasso(alpha=-1.0), r"Lasso: parameter 'alpha'"),
        (ElasticNet(l1_ratio=1.5), r"ElasticNet: parameter 'l1_ratio'"),
        (Lasso(selection="greedy"), r"parameter 'selection' must be one of \{'cyclic', 'random'\}"),
        (Lasso(max_iter=0), r"parameter 'max_iter'"),
        (ElasticNet(tol=-1e-3), r"parameter 'tol'"),
    ],
)
def test_bad_parameters(est, match):
    X, y, _ = data()
    with pytest.raises(InvalidParameterError, match=match):
        est.fit(X, y)


def test_bad_data():
    X, y, w = data()
    with pytest.raises(ValueError, match="sample_weight has 3 entries"):
        Lasso().fit(X, y, sample_weight=w[:3])
    with pytest.raises(ValueError, match="non-negative"):
        Lasso().fit(X, y, sample_weight=-w)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ElasticNet().fit(Xn, y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Lasso().fit(X, y[:-1])


# ------------------------------------------------------------------------------------- paths


def test_lasso_path_shape_grid_and_zero_start():
    X, y, _ = data()
    alphas, coefs, intercepts = lasso_path(X, y, n_alphas=20, eps=1e-2)
    assert alphas.shape == (20,) and coefs.shape == (X.shape[1], 20) and intercepts.shape == (20,)
    xc, yc = X - X.mean(axis=0), y - y.mean()
    amax = np.max(np.abs(xc.T @ yc)) / len(y)
    np.testing.assert_allclose(alphas, np.geomspace(amax, amax / 100, 20), rtol=1e-12)
    assert np.all(np.diff(alphas) < 0)
    assert np.all(coefs[:, 0] == 0) and np.any(coefs[:, 1] != 0)
    assert intercepts[0] == pytest.approx(y.mean())
    # the number of selected variables grows (weakly, here) along the path
    assert np.count_nonzero(coefs[:, -1]) >= np.count_nonzero(coefs[:, 5])


def test_paths_match_scikit_learn_and_the_estimators():
    from sklearn.linear_model import enet_path as sk_enet_path

    X, y, w = data(seed=4)
    xc, yc = X - X.mean(axis=0), y - y.mean()
    alphas, coefs, intercepts = enet_path(X, y, l1_ratio=0.7, n_alphas=15, tol=1e-12)
    sk_alphas, sk_coefs, _ = sk_enet_path(xc, yc, l1_ratio=0.7, alphas=15, tol=1e-12)
    np.testing.assert_allclose(alphas, sk_alphas, rtol=1e-12)
    np.testing.assert_allclose(coefs, sk_coefs, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(intercepts, y.mean() - X.mean(axis=0) @ coefs, rtol=1e-10)
    # weighted path = weighted estimators at the same alphas
    alphas, coefs, intercepts = enet_path(X, y, l1_ratio=0.7, alphas=[0.5, 0.05, 0.005],
                                          sample_weight=w, tol=1e-12)
    for i, alpha in enumerate(alphas):
        est = ElasticNet(alpha=alpha, l1_ratio=0.7, tol=1e-12).fit(X, y, sample_weight=w)
        np.testing.assert_allclose(coefs[:, i], est.coef_, rtol=1e-5, atol=1e-8)
        assert intercepts[i] == pytest.approx(est.intercept_, rel=1e-7)


def test_path_sorts_given_alphas_and_allows_ridge():
    X, y, _ = data()
    alphas, coefs, _ = enet_path(X, y, l1_ratio=0.0, alphas=[0.01, 1.0, 0.1], tol=1e-12)
    np.testing.assert_array_equal(alphas, [1.0, 0.1, 0.01])
    # ridge closed form at each alpha, on centred data: (XᵀX/n + αI)⁻¹ Xᵀy/n
    xc, yc = X - X.mean(axis=0), y - y.mean()
    n = len(y)
    for i, a in enumerate(alphas):
        exact = np.linalg.solve(xc.T @ xc / n + a * np.eye(X.shape[1]), xc.T @ yc / n)
        np.testing.assert_allclose(coefs[:, i], exact, rtol=1e-5, atol=1e-8)


def test_path_without_intercept():
    X, y, _ = data()
    alphas, coefs, intercepts = lasso_path(X, y, n_alphas=5, fit_intercept=False, tol=1e-12)
    assert np.all(intercepts == 0)
    assert alphas[0] == pytest.approx(np.max(np.abs(X.T @ y)) / len(y))
    est = Lasso(alpha=alphas[3], fit_intercept=False, tol=1e-12).fit(X, y)
    np.testing.assert_allclose(coefs[:, 3], est.coef_, rtol=1e-5, atol=1e-8)


def test_path_bad_input():
    X, y, _ = data()
    with pytest.raises(ValueError, match="l1_ratio > 0"):
        enet_path(X, y, l1_ratio=0.0)
    with pytest.raises(InvalidParameterError, match="lasso_path: parameter 'n_alphas'"):
        lasso_path(X, y, n_alphas=0)
    with pytest.raises(InvalidParameterError, match="enet_path: parameter 'eps'"):
        enet_path(X, y, eps=0.0)
    with pytest.raises(InvalidParameterError, match="parameter 'l1_ratio'"):
        enet_path(X, y, l1_ratio=2.0)
    with pytest.raises(ValueError, match="alphas must be finite and non-negative"):
        lasso_path(X, y, alphas=[0.1, -1.0])
    with pytest.raises(ValueError, match="alphas is empty"):
        lasso_path(X, y, alphas=[])
    with pytest.raises(ValueError, match="sample_weight"):
        lasso_path(X, y, sample_weight=np.ones(3))


def test_path_convergence_warning():
    X, y, _ = data()
    with pytest.warns(ConvergenceWarning, match=r"lasso_path: .* max_iter=1 "):
        lasso_path(X, y, n_alphas=10, max_iter=1, tol=1e-14)
