"""Ridge and RidgeCV: scikit-learn's Ridge as oracle, leave-one-out/GCV against brute force."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.linear_model import Ridge as SkRidge
from sklearn.model_selection import KFold

import statlearning.linear_model as lm
from statlearning.exceptions import InvalidParameterError, NumericalWarning, RankDeficientWarning
from statlearning.linear_model import Ridge, RidgeCV

SOLVERS = ["auto", "cholesky", "svd", "dual"]


def _data(n=80, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 20.0, size=p) + rng.normal(size=p) * 5
    y = 2.0 + X @ rng.normal(size=p) + rng.normal(size=n)
    w = rng.uniform(0.2, 3.0, size=n)
    return X, y, w


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(80, 5), (20, 40)], ids=["tall", "wide"])
def test_matches_sklearn_ridge(solver, fit_intercept, weighted, shape):
    X, y, w = _data(*shape)
    sw = w if weighted else None
    ours = Ridge(alpha=3.0, fit_intercept=fit_intercept, solver=solver).fit(X, y, sample_weight=sw)
    ref = SkRidge(alpha=3.0, fit_intercept=fit_intercept, solver="svd").fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=1e-12)
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-9, abs=1e-10)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-10)
    expected = {"auto": "cholesky" if shape[0] >= shape[1] else "dual"}.get(solver, solver)
    assert ours.solver_ == expected


def test_normal_equations_hold():
    X, y, w = _data()
    alpha = 7.5
    m = Ridge(alpha=alpha).fit(X, y, sample_weight=w)
    r = y - m.predict(X)
    # gradient of Σ w r² + α‖β‖²: −2 Xᵀ W r + 2αβ = 0 and Σ w r = 0 (unpenalised intercept)
    np.testing.assert_allclose(X.T @ (w * r), alpha * m.coef_, atol=1e-8)
    assert abs(w @ r) < 1e-9 * np.abs(w * y).sum()


def test_integer_weights_equal_repeated_rows():
    X, y, _ = _data(n=30)
    k = np.random.default_rng(3).integers(0, 4, size=30)
    a = Ridge(alpha=2.0).fit(X, y, sample_weight=k)
    b = Ridge(alpha=2.0).fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    assert a.intercept_ == pytest.approx(b.intercept_, rel=1e-10)


def test_huge_alpha_gives_mean_and_zero_slopes():
    # seed 001: alpha → ∞ shrinks every slope to 0 and leaves the (unpenalised) intercept at ȳ
    X, y, w = _data()
    m = Ridge(alpha=1e14).fit(X, y, sample_weight=w)
    assert np.max(np.abs(m.coef_)) < 1e-8
    assert m.intercept_ == pytest.approx(np.average(y, weights=w), rel=1e-8)


def test_zero_alpha_is_least_squares():
    X, y, w = _data()
    m = Ridge(alpha=0.0).fit(X, y, sample_weight=w)
    ols = lm.LinearRegression().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(m.coef_, ols.coef_, rtol=1e-9)


def test_zero_alpha_singular_design_falls_back_to_min_norm_svd():
    X, y, _ = _data()
    X = np.hstack([X, X[:, :1]])  # duplicated column
    with pytest.warns(RankDeficientWarning, match="minimum-norm"):
        m = Ridge(alpha=0.0).fit(X, y)
    assert m.solver_ == "svd"
    assert m.coef_[0] == pytest.approx(m.coef_[-1], rel=1e-8)  # the mass is shared equally


def test_does_not_modify_inputs_and_accepts_fortran_order():
    X, y, w = _data()
    Xf = np.asfortranarray(X)
    copies = (X.copy(), y.copy(), w.copy())
    a = Ridge().fit(X, y, sample_weight=w)
    b = Ridge().fit(Xf, y, sample_weight=w)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12)
    for before, after in zip(copies, (X, y, w), strict=True):
        np.testing.assert_array_equal(before, after)


def test_blocks_of_rows_cover_every_sample():
    # more rows than one block of the Gram accumulation
    rng = np.random.default_rng(1)
    X = rng.normal(size=(9000, 3)) + 100.0
    y = X @ [1.0, -1.0, 2.0] + rng.normal(size=9000)
    a = Ridge(alpha=5.0, solver="cholesky").fit(X, y)
    b = Ridge(alpha=5.0, solver="svd").fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"alpha": -1.0}, "alpha"),
        ({"solver": "lsqr"}, "solver"),
        ({"fit_intercept": "yes"}, "fit_intercept"),
    ],
)
def test_bad_parameters_are_named(params, match):
    X, y, _ = _data()
    with pytest.raises(InvalidParameterError, match=match):
        Ridge(**params).fit(X, y)


def test_bad_input_is_rejected():
    X, y, _ = _data()
    with pytest.raises(ValueError, match="sample_weight"):
        Ridge().fit(X, y, sample_weight=-np.ones(y.size))
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Ridge().fit(X, y)


# ----------------------------------------------------------------------------------- RidgeCV


def _brute_force_loo(X, y, w, alpha, fit_intercept):
    """Mean weighted squared leave-one-out error by refitting n times."""
    n = y.size
    errs = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        m = Ridge(alpha=alpha, fit_intercept=fit_intercept, solver="svd")
        m.fit(X[keep], y[keep], sample_weight=None if w is None else w[keep])
        errs[i] = (y[i] - m.predict(X[i : i + 1])[0]) ** 2
    ww = np.ones(n) if w is None else w
    return float(ww @ errs / ww.sum()), errs


ALPHAS = [0.01, 0.3, 3.0, 30.0, 300.0]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("gcv_mode", ["svd", "eigen", "auto"])
@pytest.mark.parametrize("shape", [(25, 4), (12, 20)], ids=["tall", "wide"])
def test_loo_path_equals_brute_force(fit_intercept, weighted, gcv_mode, shape):
    X, y, w = _data(*shape, seed=4)
    sw = w if weighted else None
    cv = RidgeCV(alphas=ALPHAS, fit_intercept=fit_intercept, gcv_mode=gcv_mode,
                 store_cv_results=True).fit(X, y, sample_weight=sw)
    brute = [_brute_force_loo(X, y, sw, a, fit_intercept) for a in ALPHAS]
    np.testing.assert_allclose(cv.criterion_path_, [b[0] for b in brute], rtol=1e-8)
    np.testing.assert_allclose(cv.cv_results_, np.column_stack([b[1] for b in brute]),
                               rtol=1e-7, atol=1e-12)
    best = int(np.argmin([b[0] for b in brute]))
    assert cv.alpha_ == ALPHAS[best]
    assert cv.best_score_ == pytest.approx(-brute[best][0], rel=1e-8)
    ref = Ridge(alpha=cv.alpha_, fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(cv.coef_, ref.coef_, rtol=1e-8, atol=1e-12)
    assert cv.intercept_ == pytest.approx(ref.intercept_, rel=1e-8, abs=1e-12)


@pytest.mark.parametrize("spread", [1.0, 1e3])
def test_auto_mode_takes_the_gram_spectrum_only_when_well_conditioned(spread, monkeypatch):
    from statlearning._core import ridge as core

    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 6))
    X[:, 2] *= spread  # κ(Z) about 1e3: the eigenvalues of ZᵀZ span 1e6
    y = X @ rng.normal(size=6) + rng.normal(size=400)
    X0 = X.copy()
    routes = []
    gram_spectrum = core._gram_spectrum
    monkeypatch.setattr(
        core, "_gram_spectrum", lambda *a: routes.append(gram_spectrum(*a)) or routes[-1]
    )
    auto = RidgeCV(alphas=ALPHAS, store_cv_results=True).fit(X, y)
    assert len(routes) == 1 and (routes[0] is None) == (spread > 1.0)
    np.testing.assert_array_equal(X, X0)  # U is written over the centred copy, not over X
    svd = RidgeCV(alphas=ALPHAS, gcv_mode="svd", store_cv_results=True).fit(X, y)
    if spread > 1.0:  # the SVD itself
        np.testing.assert_array_equal(auto.criterion_path_, svd.criterion_path_)
        np.testing.assert_array_equal(auto.coef_, svd.coef_)
    else:
        np.testing.assert_allclose(auto.criterion_path_, svd.criterion_path_, rtol=1e-12)
        np.testing.assert_allclose(auto.cv_results_, svd.cv_results_, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(auto.coef_, svd.coef_, rtol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_loo_matches_sklearn_ridgecv(weighted):
    from sklearn.linear_model import RidgeCV as SkRidgeCV

    X, y, w = _data(n=40, seed=12)
    sw = w if weighted else None
    ours = RidgeCV(alphas=ALPHAS, store_cv_results=True).fit(X, y, sample_weight=sw)
    ref = SkRidgeCV(alphas=ALPHAS, store_cv_results=True).fit(X, y, sample_weight=sw)
    assert ours.alpha_ == ref.alpha_
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9)
    if weighted:  # scikit-learn averages w·e² over n rather than dividing by Σw
        np.testing.assert_allclose(ours.criterion_path_ * w.sum() / y.size,
                                   ref.cv_results_.mean(axis=0), rtol=1e-9)
    else:
        np.testing.assert_allclose(ours.cv_results_, ref.cv_results_, rtol=1e-9)
        assert ours.best_score_ == pytest.approx(ref.best_score_, rel=1e-10)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_gcv_formula(fit_intercept):
    X, y, _ = _data(n=30, p=4, seed=6)
    cv = RidgeCV(alphas=ALPHAS, fit_intercept=fit_intercept, criterion="gcv").fit(X, y)
    n = y.size
    A = np.hstack([np.ones((n, 1)), X]) if fit_intercept else X
    expected = []
    for a in ALPHAS:
        P = np.eye(A.shape[1]) * a
        if fit_intercept:
            P[0, 0] = 0.0
        H = A @ np.linalg.solve(A.T @ A + P, A.T)
        rss = np.sum((y - H @ y) ** 2)
        expected.append(n * rss / (n - np.trace(H)) ** 2)  # GCV = n·RSS/(n − tr H)²
    np.testing.assert_allclose(cv.criterion_path_, expected, rtol=1e-9)
    assert cv.alpha_ == ALPHAS[int(np.argmin(expected))]


def test_kfold_matches_a_manual_loop():
    X, y, w = _data(n=40, seed=8)
    cv = RidgeCV(alphas=ALPHAS, cv=4).fit(X, y, sample_weight=w)
    manual = np.zeros(len(ALPHAS))
    for train, test in KFold(4).split(X):
        for j, a in enumerate(ALPHAS):
            m = Ridge(alpha=a).fit(X[train], y[train], sample_weight=w[train])
            e = (y[test] - m.predict(X[test])) ** 2
            manual[j] += (w[test] @ e) / w[test].sum() / 4
    np.testing.assert_allclose(cv.criterion_path_, manual, rtol=1e-9)
    assert cv.alpha_ == ALPHAS[int(np.argmin(manual))]
    assert not hasattr(cv, "cv_results_")


def test_scoring_with_loo_and_kfold():
    from sklearn.metrics import r2_score

    X, y, _ = _data(n=30, seed=9)
    cv = RidgeCV(alphas=ALPHAS, scoring="r2", store_cv_results=True).fit(X, y)
    loo_pred = cv.cv_results_  # with a scorer: the leave-one-out predictions
    expected = [r2_score(y, loo_pred[:, j]) for j in range(len(ALPHAS))]
    np.testing.assert_allclose(-cv.criterion_path_, expected, rtol=1e-12)
    brute = _brute_force_loo(X, y, None, ALPHAS[2], True)[1]
    np.testing.assert_allclose((y - loo_pred[:, 2]) ** 2, brute, rtol=1e-7)
    kf = RidgeCV(alphas=ALPHAS, cv=3, scoring="neg_mean_absolute_error").fit(X, y)
    assert np.all(kf.criterion_path_ > 0)


def test_ridgecv_bad_input():
    X, y, _ = _data(n=20)
    with pytest.raises(ValueError, match="alphas"):
        RidgeCV(alphas=[1.0, 0.0]).fit(X, y)
    with pytest.raises(ValueError, match="alphas"):
        RidgeCV(alphas=[]).fit(X, y)
    with pytest.raises(ValueError, match="cv"):
        RidgeCV(cv=1).fit(X, y)
    with pytest.raises(ValueError, match="scoring"):
        RidgeCV(criterion="gcv", scoring="r2").fit(X, y)
    with pytest.raises(ValueError, match="1 sample"):
        RidgeCV().fit(X[:1], y[:1])
    with pytest.raises(InvalidParameterError, match="criterion"):
        RidgeCV(criterion="aic").fit(X, y)


def test_elastic_net_with_zero_l1_ratio_is_ridge():
    # seed 001, E7: the elastic net without its L1 part is ridge, with alpha_ridge = n·alpha_enet
    ElasticNet = getattr(lm, "ElasticNet", None)
    if ElasticNet is None:
        pytest.skip("ElasticNet is not exported by statlearning.linear_model")
    X, y, w = _data(n=60, p=4, seed=11)
    n = y.size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        enet = ElasticNet(alpha=0.05, l1_ratio=0.0, tol=1e-14, max_iter=100_000).fit(X, y)
    ridge = Ridge(alpha=n * 0.05).fit(X, y)
    np.testing.assert_allclose(enet.coef_, ridge.coef_, rtol=1e-6)
    assert enet.intercept_ == pytest.approx(ridge.intercept_, rel=1e-6)
    # with weights the data term is divided by Σw instead of n
    enet_w = ElasticNet(alpha=0.05, l1_ratio=0.0, tol=1e-14, max_iter=100_000)
    enet_w.fit(X, y, sample_weight=w)
    ridge_w = Ridge(alpha=w.sum() * 0.05).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(enet_w.coef_, ridge_w.coef_, rtol=1e-6)


def test_store_cv_results_as_scikit_learn():
    from sklearn.linear_model import RidgeCV as SkRidgeCV

    X, y, _ = _data(n=30, seed=3)
    ours = RidgeCV(alphas=ALPHAS, store_cv_results=True).fit(X, y)
    ref = SkRidgeCV(alphas=ALPHAS, store_cv_results=True).fit(X, y)
    assert ours.cv_results_.shape == ref.cv_results_.shape == (30, len(ALPHAS))
    np.testing.assert_allclose(ours.cv_results_, ref.cv_results_, rtol=1e-9)
    with pytest.raises(ValueError, match="store_cv_results=True needs cv=None"):
        RidgeCV(alphas=ALPHAS, cv=3, store_cv_results=True).fit(X, y)
    assert not hasattr(RidgeCV(alphas=ALPHAS).fit(X, y), "cv_results_")
    refit = ours.set_params(store_cv_results=False).fit(X, y)
    assert not hasattr(refit, "cv_results_")


def test_store_cv_values_and_cv_values_are_deprecated():
    X, y, _ = _data(n=30, seed=3)
    with pytest.warns(FutureWarning, match="'store_cv_values' was renamed to 'store_cv_results'"):
        old = RidgeCV(alphas=ALPHAS, store_cv_values=True).fit(X, y)
    with pytest.warns(FutureWarning, match="cv_values_ was renamed to cv_results_"):
        values = old.cv_values_
    np.testing.assert_array_equal(values, old.cv_results_)
    assert not hasattr(RidgeCV(alphas=ALPHAS), "cv_values_")
