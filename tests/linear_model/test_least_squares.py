"""LinearRegression: solver agreement, gradient descent, rank deficiency, weights, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning.exceptions import (
    ConvergenceWarning,
    InvalidParameterError,
    NumericalWarning,
    RankDeficientWarning,
)
from statlearning.linear_model import LinearRegression

SOLVERS = ["qr", "svd", "normal", "gd"]


def well_conditioned(n=200, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) + rng.normal(size=p)  # non-zero column means
    y = 3.0 + X @ rng.normal(size=p) + rng.normal(size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    return X, y, w


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("solver", SOLVERS[1:])
def test_solvers_agree_with_qr(solver, weighted, fit_intercept):
    X, y, w = well_conditioned()
    sw = w if weighted else None
    ref = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    est = LinearRegression(fit_intercept=fit_intercept, solver=solver, tol=1e-12)
    est.fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-8)
    assert est.intercept_ == pytest.approx(ref.intercept_, rel=1e-8, abs=1e-12)
    np.testing.assert_allclose(est.bse_, ref.bse_, rtol=1e-8)
    np.testing.assert_allclose(est.cov_params_, ref.cov_params_, rtol=1e-8, atol=1e-14)
    for attr in ("sigma_", "r_squared_", "adj_r_squared_", "f_statistic_", "loglik_", "aic_",
                 "bic_"):
        assert getattr(est, attr) == pytest.approx(getattr(ref, attr), rel=1e-8), attr


def test_agrees_with_statsmodels_wls():
    sm = pytest.importorskip("statsmodels.api")
    X, y, w = well_conditioned(seed=3)
    ours = LinearRegression().fit(X, y, sample_weight=w)
    theirs = sm.WLS(y, sm.add_constant(X), weights=w).fit()
    np.testing.assert_allclose(ours._full_coef(), theirs.params, rtol=1e-10)
    np.testing.assert_allclose(ours.bse_, theirs.bse, rtol=1e-10)
    np.testing.assert_allclose(ours.cov_params_, theirs.cov_params(), rtol=1e-9)
    assert ours.loglik_ == pytest.approx(theirs.llf, rel=1e-10)
    assert ours.f_statistic_ == pytest.approx(theirs.fvalue, rel=1e-10)


def test_gd_converges_within_tolerance_and_reports_iterations():
    X, y, _ = well_conditioned()
    exact = LinearRegression().fit(X, y)
    for lr in ("exact", 0.5):
        gd = LinearRegression(solver="gd", learning_rate=lr, tol=1e-10).fit(X, y)
        assert 1 <= gd.n_iter_ < 10_000
        np.testing.assert_allclose(gd.coef_, exact.coef_, rtol=1e-7)
        assert gd.summary().stats["n_iter"] == gd.n_iter_


def test_gd_warns_at_max_iter():
    X, y, _ = well_conditioned()
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]  # ill-conditioned: slow steepest descent
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        est = LinearRegression(solver="gd", max_iter=5).fit(X, y)
    assert est.n_iter_ == 5


def test_gd_too_large_step_raises_clear_error():
    X, y, _ = well_conditioned()
    with pytest.raises(ValueError, match="learning_rate=50"):
        LinearRegression(solver="gd", learning_rate=50.0).fit(X, y)


def test_rank_deficient_design_behaves_like_r():
    X, y, _ = well_conditioned(p=3)
    X = np.column_stack([X[:, 0], X[:, 1], 2 * X[:, 0] - X[:, 1], X[:, 2]])
    with pytest.warns(RankDeficientWarning, match=r"aliased: x2"):
        est = LinearRegression().fit(X, y)
    assert np.isnan(est.coef_[2]) and not np.isnan(est.coef_).sum() > 1
    np.testing.assert_array_equal(est.aliased_, [False, False, False, True, False])
    assert est.rank_ == 4 and est.df_resid_ == len(y) - 4
    assert np.isnan(est.bse_[3]) and np.isnan(est.cov_params_[3]).all()
    # prediction ignores the aliased column and equals the fit without it
    reduced = LinearRegression().fit(X[:, [0, 1, 3]], y)
    np.testing.assert_allclose(est.predict(X), reduced.predict(X[:, [0, 1, 3]]), rtol=1e-10)
    assert "(1 not defined because of singularities)" in str(est.summary())
    fit, lo, hi = est.predict_interval(X[:5], kind="prediction")
    assert np.all(np.isfinite(lo)) and np.all(lo < fit) and np.all(fit < hi)


def test_constant_column_is_aliased_with_the_intercept():
    X, y, _ = well_conditioned(p=2)
    X = np.column_stack([X, np.full(len(y), 7.0)])
    with pytest.warns(RankDeficientWarning, match="x2"):
        est = LinearRegression().fit(X, y)
    assert np.isnan(est.coef_[2])
    # without an intercept the constant column plays its role
    no_int = LinearRegression(fit_intercept=False).fit(X, y)
    assert no_int.coef_[2] * 7.0 == pytest.approx(est.intercept_, rel=1e-10)


def test_p_greater_than_n_with_svd_gives_minimum_norm_solution():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10, 30))
    y = rng.normal(size=10)
    with pytest.warns(RankDeficientWarning, match="minimum-norm"):
        est = LinearRegression(solver="svd", fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(est.coef_, np.linalg.pinv(X) @ y, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(est.predict(X), y, atol=1e-10)  # interpolates
    assert est.df_resid_ == 0 and np.isnan(est.sigma_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        centred = LinearRegression(solver="svd").fit(X, y)
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(centred.coef_, np.linalg.pinv(Xc) @ (y - y.mean()), atol=1e-10)


def test_qr_with_p_greater_than_n_aliases_trailing_columns():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 10))
    y = rng.normal(size=6)
    with pytest.warns(RankDeficientWarning):
        est = LinearRegression().fit(X, y)
    assert est.rank_ == 6
    assert np.isnan(est.coef_[5:]).all() and not np.isnan(est.coef_[:5]).any()


def test_integer_weights_equal_repeated_rows_and_zero_weights_drop_rows():
    X, y, _ = well_conditioned(n=40)
    w = np.tile([0, 1, 2, 3], 10)
    weighted = LinearRegression().fit(X, y, sample_weight=w)
    repeated = LinearRegression().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-10)
    # zero-weight rows are not observations (R): counts use the 30 positive-weight rows
    assert weighted.n_obs_ == 30 and weighted.df_resid_ == 30 - 6


def test_prediction_interval_contains_confidence_interval():
    X, y, _ = well_conditioned()
    est = LinearRegression().fit(X, y)
    fit, clo, chi = est.predict_interval(X[:10])
    fit2, plo, phi = est.predict_interval(X[:10], kind="prediction", level=0.95)
    np.testing.assert_array_equal(fit, fit2)
    assert np.all(plo < clo) and np.all(chi < phi)
    _, lo90, hi90 = est.predict_interval(X[:10], level=0.90)
    assert np.all(clo < lo90) and np.all(hi90 < chi)


def test_summary_frame_and_names_from_dataframe():
    pd = pytest.importorskip("pandas")
    X, y, _ = well_conditioned(p=2)
    frame = pd.DataFrame(X, columns=["height", "weight"])
    est = LinearRegression().fit(frame, pd.Series(y, name="score"))
    out = est.summary().to_frame()
    assert list(out.index) == ["(Intercept)", "height", "weight"]
    assert list(out.columns) == [
        "estimate", "std_error", "statistic", "p_value", "conf_low", "conf_high"
    ]
    assert "score ~ height + weight" in str(est.summary())
    assert "height" in est.summary()._repr_html_()


def test_perfect_fit_warns():
    X, _, _ = well_conditioned()
    y = 1.0 + X @ np.arange(1.0, 6.0)
    with pytest.warns(NumericalWarning, match="perfect fit"):
        LinearRegression().fit(X, y)


# ----------------------------------------------------------------------------- bad input
def test_nan_and_inf_are_rejected_with_clear_errors():
    X, y, _ = well_conditioned()
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearRegression().fit(Xn, y)
    Xi = X.copy()
    Xi[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        LinearRegression().fit(Xi, y)
    yn = y.copy()
    yn[0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearRegression().fit(X, yn)


def test_shape_errors():
    X, y, _ = well_conditioned()
    with pytest.raises(ValueError, match="Expected 2D array"):
        LinearRegression().fit(X[:, 0], y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LinearRegression().fit(X, y[:-1])
    with pytest.raises(ValueError, match="0 sample"):
        LinearRegression().fit(X[:0], y[:0])
    est = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :3])


def test_strings_are_rejected():
    X = np.array([["a", "b"], ["c", "d"], ["e", "f"]], dtype=object)
    with pytest.raises(ValueError):
        LinearRegression().fit(X, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        LinearRegression().fit([[1.0], [2.0], [3.0]], ["a", "b", "c"])


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"solver": "cholesky"}, "solver"),
        ({"fit_intercept": "yes"}, "fit_intercept"),
        ({"tol": 0.0}, "tol"),
        ({"max_iter": 0}, "max_iter"),
        ({"learning_rate": "fast"}, "learning_rate"),
        ({"learning_rate": -1.0}, "learning_rate"),
        ({"rank_tol": 2.0}, "rank_tol"),
    ],
)
def test_invalid_parameters_name_estimator_parameter_and_value(params, name):
    X, y, _ = well_conditioned()
    with pytest.raises(InvalidParameterError) as info:
        LinearRegression(**params).fit(X, y)
    msg = str(info.value)
    assert msg.startswith("LinearRegression: parameter") and repr(name) in msg
    assert repr(next(iter(params.values()))) in msg


def test_bad_sample_weight_and_interval_arguments():
    X, y, _ = well_conditioned()
    with pytest.raises(ValueError, match="non-negative"):
        LinearRegression().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="199 entries"):
        LinearRegression().fit(X, y, sample_weight=np.ones(199))
    est = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="kind must be"):
        est.predict_interval(X, kind="credible")
    with pytest.raises(ValueError, match="level must be in"):
        est.predict_interval(X, level=95)


def test_single_observation_gives_nan_inference_with_warning():
    with pytest.warns(NumericalWarning, match="no residual degrees of freedom"):
        est = LinearRegression().fit([[1.0]], [2.0])
    assert est.predict([[5.0]])[0] == pytest.approx(2.0)
    assert np.isnan(est.sigma_)


def test_an_exact_fit_gives_R_infinite_F_not_zero_division():
    """Found by fuzzing: y = 2x exactly made rss 0 and the F statistic a Python
    ZeroDivisionError. R: summary(lm(y ~ x)) warns, F = Inf, sigma = 0, logLik = Inf."""
    from statlearning.exceptions import NumericalWarning

    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    with pytest.warns(NumericalWarning, match="perfect fit"):
        stats = LinearRegression().fit(X, 2.0 * X[:, 0]).summary().stats
    assert stats["f_statistic"] == np.inf and stats["f_pvalue"] == 0.0
    assert stats["sigma"] == 0.0 and stats["loglik"] == np.inf and stats["r_squared"] == 1.0
