"""``ols_statistics`` against statsmodels and R's conventions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from statlearning._core.ols import ols_statistics

sm = pytest.importorskip("statsmodels.api")


def _data(seed=0, n=40, p=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p)) + rng.normal(size=p)
    y = X @ rng.normal(size=p) + 2.0 + rng.standard_normal(n)
    w = rng.uniform(0.2, 3.0, size=n)
    return X, y, w


def _design(X, fit_intercept):
    return sm.add_constant(X, prepend=True, has_constant="add") if fit_intercept else X


def _ours(X, y, w, fit_intercept):
    """Fit by weighted least squares with numpy and compute our statistics."""
    A = _design(X, fit_intercept)
    sw = np.ones(len(y)) if w is None else np.sqrt(w)
    coef = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)[0]
    fitted = A @ coef
    rank = np.linalg.matrix_rank(A * sw[:, None])
    return ols_statistics(y - fitted, fitted, w, rank, fit_intercept)


def _compare_with_statsmodels(ours, res):
    """Same numbers as statsmodels, whose AIC/BIC do not count the variance parameter."""
    assert ours["n_obs"] == res.nobs
    assert ours["df_model"] == res.df_model
    assert ours["df_resid"] == res.df_resid
    np.testing.assert_allclose(ours["rss"], res.ssr, rtol=1e-10)
    np.testing.assert_allclose(ours["deviance"], res.ssr, rtol=1e-10)
    np.testing.assert_allclose(ours["sigma"], np.sqrt(res.scale), rtol=1e-10)
    np.testing.assert_allclose(ours["r_squared"], res.rsquared, rtol=1e-10)
    np.testing.assert_allclose(ours["adj_r_squared"], res.rsquared_adj, rtol=1e-10)
    np.testing.assert_allclose(ours["f_statistic"], res.fvalue, rtol=1e-9)
    np.testing.assert_allclose(ours["f_pvalue"], res.f_pvalue, rtol=1e-7)
    np.testing.assert_allclose(ours["loglik"], res.llf, rtol=1e-10)
    # R: k = rank + 1 parameters (the variance counts); statsmodels: k = rank
    n = res.nobs
    np.testing.assert_allclose(ours["aic"], res.aic + 2.0, rtol=1e-10)
    np.testing.assert_allclose(ours["bic"], res.bic + np.log(n), rtol=1e-10)
    assert ours["loglik_df"] == res.df_model + res.k_constant + 1


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ols_matches_statsmodels(fit_intercept):
    X, y, _ = _data()
    res = sm.OLS(y, _design(X, fit_intercept)).fit()
    assert res.k_constant == int(fit_intercept)
    _compare_with_statsmodels(_ours(X, y, None, fit_intercept), res)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_wls_matches_statsmodels(fit_intercept):
    X, y, w = _data(seed=1)
    res = sm.WLS(y, _design(X, fit_intercept), weights=w).fit()
    _compare_with_statsmodels(_ours(X, y, w, fit_intercept), res)


def test_unit_weights_equal_no_weights():
    X, y, _ = _data(seed=2)
    a = _ours(X, y, None, True)
    b = _ours(X, y, np.ones(len(y)), True)
    for key in ("n_obs", "df_model", "df_resid"):
        assert a[key] == b[key]
    for key in ("rss", "sigma", "r_squared", "adj_r_squared", "f_statistic", "loglik", "aic"):
        np.testing.assert_allclose(a[key], b[key], rtol=1e-12)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_zero_weights_drop_rows_as_r_does(fit_intercept):
    """R's lm drops zero-weight rows from every count; statsmodels' WLS keeps them in nobs.

    So the fit with zero weights must equal the fit on the remaining rows, which statsmodels
    computes with R's counts.
    """
    X, y, w = _data(seed=3, n=30)
    w[[0, 4, 5, 17]] = 0.0
    keep = w > 0
    ours = _ours(X, y, w, fit_intercept)
    res = sm.WLS(y[keep], _design(X[keep], fit_intercept), weights=w[keep]).fit()
    _compare_with_statsmodels(ours, res)
    assert ours["n_obs"] == 26
    assert ours["df_resid"] == 26 - (X.shape[1] + fit_intercept)
    # statsmodels on the full data counts the zero-weight rows (the convention we do not follow)
    full = sm.WLS(y, _design(X, fit_intercept), weights=w).fit()
    assert full.nobs == 30 != ours["n_obs"]


def test_statistics_by_hand_with_weights():
    """R's formulas written out (summary.lm, logLik.lm) on a small weighted fit."""
    X, y, w = _data(seed=4, n=12, p=2)
    w[3] = 0.0
    A = _design(X, True)
    sw = np.sqrt(w)
    coef = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)[0]
    f = A @ coef
    r = y - f
    ours = ols_statistics(r, f, w, 3, True)
    pos = w > 0
    wp, rp, fp = w[pos], r[pos], f[pos]
    n = pos.sum()
    rss = np.sum(wp * rp**2)
    mss = np.sum(wp * (fp - np.sum(wp * fp) / np.sum(wp)) ** 2)
    r2 = mss / (mss + rss)
    fstat = (mss / 2) / (rss / (n - 3))
    loglik = 0.5 * (np.sum(np.log(wp)) - n * (np.log(2 * np.pi) + 1 - np.log(n) + np.log(rss)))
    np.testing.assert_allclose(ours["rss"], rss, rtol=1e-12)
    np.testing.assert_allclose(ours["sigma"], np.sqrt(rss / (n - 3)), rtol=1e-12)
    np.testing.assert_allclose(ours["r_squared"], r2, rtol=1e-12)
    np.testing.assert_allclose(ours["adj_r_squared"], 1 - (1 - r2) * (n - 1) / (n - 3), rtol=1e-12)
    np.testing.assert_allclose(ours["f_statistic"], fstat, rtol=1e-12)
    np.testing.assert_allclose(ours["f_pvalue"], stats.f.sf(fstat, 2, n - 3), rtol=1e-10)
    np.testing.assert_allclose(ours["loglik"], loglik, rtol=1e-12)
    np.testing.assert_allclose(ours["aic"], -2 * loglik + 2 * 4, rtol=1e-12)
    np.testing.assert_allclose(ours["bic"], -2 * loglik + np.log(n) * 4, rtol=1e-12)
    # weighted residuals of the positive-weight rows (what summary.lm prints)
    np.testing.assert_allclose(
        ours["residual_quantiles"], np.quantile(np.sqrt(wp) * rp, [0, 0.25, 0.5, 0.75, 1])
    )


def test_no_intercept_uses_uncentred_total_sum_of_squares():
    X, y, _ = _data(seed=5)
    ours = _ours(X, y, None, False)
    A = X
    f = A @ np.linalg.lstsq(A, y, rcond=None)[0]
    rss = np.sum((y - f) ** 2)
    np.testing.assert_allclose(ours["r_squared"], 1 - rss / np.sum(y**2), rtol=1e-12)
    assert ours["df_model"] == X.shape[1]
    np.testing.assert_allclose(
        ours["adj_r_squared"], 1 - (1 - ours["r_squared"]) * len(y) / (len(y) - 3), rtol=1e-12
    )


def test_rank_deficient_counts_use_the_rank():
    X, y, _ = _data(seed=6, n=20, p=2)
    X = np.column_stack([X, X[:, 0] + X[:, 1]])
    ours = _ours(X, y, None, True)  # rank 3 of 4 columns
    assert ours["df_model"] == 2
    assert ours["df_resid"] == 17
    assert ours["loglik_df"] == 4
    res = sm.OLS(y, _design(X[:, :2], True)).fit()
    _compare_with_statsmodels(ours, res)


def test_intercept_only_model_has_no_r_squared_or_f_test():
    y = np.array([1.0, 2.0, 4.0, 7.0])
    f = np.full(4, y.mean())
    out = ols_statistics(y - f, f, None, 1, True)
    assert out["df_model"] == 0
    assert out["df_resid"] == 3
    assert np.isnan(out["r_squared"])
    assert np.isnan(out["f_statistic"])
    assert np.isnan(out["f_pvalue"])
    np.testing.assert_allclose(out["sigma"], np.std(y, ddof=1), rtol=1e-12)


def test_saturated_model_has_no_residual_degrees_of_freedom():
    X = np.array([[0.0], [1.0]])
    y = np.array([1.0, 3.0])
    f = y.copy()
    out = ols_statistics(y - f, f, None, 2, True)
    assert out["df_resid"] == 0
    assert np.isnan(out["sigma"])
    assert np.isnan(out["adj_r_squared"])
    assert np.isnan(out["f_statistic"])
    assert X.shape[0] == out["n_obs"]


def test_inputs_are_not_modified():
    X, y, w = _data(seed=7)
    w[2] = 0.0
    A = _design(X, True)
    f = A @ np.linalg.lstsq(A, y, rcond=None)[0]
    r = y - f
    copies = (r.copy(), f.copy(), w.copy())
    ols_statistics(r, f, w, 4, True)
    for arr, copy in zip((r, f, w), copies, strict=True):
        np.testing.assert_array_equal(arr, copy)
