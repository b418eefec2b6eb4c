"""The inference builder shared by LinearRegression, GLMRegressor and LogisticRegression."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy import stats

from statlearning.exceptions import RankDeficientWarning
from statlearning.inference._builder import (
    STAT_KEYS,
    check_interval_request,
    fit_statistics,
    formula,
    renamed_attribute,
    wald_inference,
    wald_interval,
    warn_aliased,
)
from statlearning.linear_model import GLMRegressor, LinearRegression, LogisticRegression

# --- the pieces -----------------------------------------------------------------------------


def test_wald_inference_t_z_and_aliased():
    coef = np.array([1.0, np.nan, -2.0])
    unscaled = np.array([[0.25, 0.05], [0.05, 1.0]])
    kept = np.array([True, False, True])
    w = wald_inference(coef, unscaled, kept, 4.0, df=10)
    np.testing.assert_allclose(w.bse, [1.0, np.nan, 2.0])
    np.testing.assert_allclose(w.cov_params[np.ix_(kept, kept)], 4.0 * unscaled)
    assert np.all(np.isnan(w.cov_params[1])) and np.all(np.isnan(w.cov_params[:, 1]))
    np.testing.assert_allclose(w.statistic, [1.0, np.nan, -1.0])
    np.testing.assert_allclose(w.pvalues[[0, 2]], 2 * stats.t.sf(1.0, 10))
    z = wald_inference(coef, unscaled, kept, 1.0)
    np.testing.assert_allclose(z.pvalues[[0, 2]], 2 * stats.norm.sf([2.0, 2.0]))
    assert z.df is None
    assert np.all(np.isnan(wald_inference(coef, unscaled, kept, 1.0, df=0).pvalues))


def test_formula_line():
    assert formula("y", ["(Intercept)", "a", "b"], True) == "y ~ a + b"
    assert formula("y", ["a"], False) == "y ~ 0 + a"
    assert formula("y", ["(Intercept)"], True) == "y ~ 1"
    assert formula("n", ["(Intercept)", "a"], True, ["offset(e)"]) == "n ~ a + offset(e)"


def test_one_aliasing_message():
    with pytest.warns(RankDeficientWarning) as rec:
        warn_aliased("Est", ["(Intercept)", "a", "b", "c"], [False, True, False, True])
    assert str(rec[0].message) == (
        "Est: 2 coefficient(s) not defined because of singularities (aliased: a, c); their "
        "coef_ entries are NaN and predict ignores them."
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_aliased("Est", ["a"], [False])


def test_interval_request_checks():
    check_interval_request("E", "confidence", 0.9)
    for kind, level, match in [("both", 0.9, "kind"), ("confidence", 1.0, "level"),
                               ("confidence", True, "level"), ("confidence", "0.9", "level")]:
        with pytest.raises(ValueError, match=match):
            check_interval_request("E", kind, level)
    with pytest.raises(ValueError, match=r"E\.predict_interval: kind='prediction' because"):
        check_interval_request("E", "prediction", 0.9, prediction_ok=False, why="because")


def test_wald_interval_maps_and_sorts_through_the_inverse_link():
    X = np.array([[0.0], [1.0]])
    cov = np.array([[0.04, 0.0], [0.0, 0.01]])
    eta = np.array([1.0, 2.0])
    se = np.sqrt([0.04, 0.05])
    q = stats.norm.ppf(0.975)
    fit, lo, hi = wald_interval(X, eta, cov, [False, False], True, level=0.95)
    np.testing.assert_allclose([lo, hi], [eta - q * se, eta + q * se])
    fit, lo, hi = wald_interval(X, eta, cov, [False, False], True, level=0.95,
                                inverse=lambda e: 1.0 / e)  # decreasing
    np.testing.assert_allclose(fit, 1 / eta)
    np.testing.assert_allclose(lo, 1 / (eta + q * se))
    np.testing.assert_allclose(hi, 1 / (eta - q * se))
    t = stats.t.ppf(0.95, 7)
    fit, lo, hi = wald_interval(X, eta, cov, [False, False], True, level=0.9, df=7,
                                noise=np.array([1.0, 4.0]))
    np.testing.assert_allclose(hi - fit, t * np.sqrt(se**2 + [1.0, 4.0]))


class _Fitted:
    new_ = renamed_attribute("n_obs_")


def test_renamed_attribute():
    obj = _Fitted()
    assert not hasattr(obj, "new_")
    obj.n_obs_ = 7
    with pytest.warns(FutureWarning, match="new_ was renamed to n_obs_"):
        assert obj.new_ == 7


# --- the three estimators share names, messages and intervals -------------------------------


def _data(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    eta = 0.5 + X @ [0.8, -0.5, 0.3]
    return X, eta, rng


def _fits():
    X, eta, rng = _data()
    return [
        LinearRegression().fit(X, eta + rng.normal(size=eta.size)),
        GLMRegressor(family="poisson").fit(X, rng.poisson(np.exp(eta))),
        GLMRegressor(family="gamma", link="log").fit(X, rng.gamma(2.0, np.exp(eta) / 2)),
        LogisticRegression().fit(X, rng.random(eta.size) < 1 / (1 + np.exp(-eta))),
    ]


@pytest.mark.parametrize("model", _fits(), ids=lambda m: type(m).__name__)
def test_stats_keys_are_the_attribute_names(model):
    s = model.summary().stats
    shared = [k for k in STAT_KEYS if k in s]
    for key in ("n_obs", "df_model", "df_resid", "deviance", "dispersion", "loglik", "aic",
                "bic"):
        assert key in shared, key
    for key in shared:
        assert getattr(model, key + "_") == s[key], key
    assert s == {**fit_statistics(model, exclude=[k for k in STAT_KEYS if k not in s]),
                 **{k: v for k, v in s.items() if k not in STAT_KEYS}}
    assert model.df_model_ == model.rank_ - 1


def test_dispersion_of_each_model():
    lm, pois, gam, logit = _fits()
    assert lm.dispersion_ == pytest.approx(lm.sigma_**2) and lm.deviance_ == lm.rss_
    assert pois.dispersion_ == logit.dispersion_ == 1.0
    assert gam.dispersion_ > 0


@pytest.mark.parametrize(
    ("make", "old", "new"),
    [
        (lambda: _fits()[0], "nobs_", "n_obs_"),
        (lambda: _fits()[0], "rsquared_", "r_squared_"),
        (lambda: _fits()[0], "rsquared_adj_", "adj_r_squared_"),
        (lambda: _fits()[0], "fvalue_", "f_statistic_"),
        (lambda: _fits()[1], "nobs_", "n_obs_"),
        (lambda: _fits()[3], "nobs_", "n_obs_"),
    ],
)
def test_old_attribute_names_are_deprecated(make, old, new):
    model = make()
    with pytest.warns(FutureWarning, match=f"{old} was renamed to {new}"):
        assert getattr(model, old) == getattr(model, new)
    assert not hasattr(type(model)(), old)


def test_aliasing_warning_is_the_same_for_the_three():
    X, eta, rng = _data(seed=2)
    Xa = np.column_stack([X, X[:, 0] + X[:, 1]])
    y_counts = rng.poisson(np.exp(eta))
    y_class = y_counts > np.median(y_counts)
    messages = []
    y_lm = eta + rng.normal(size=eta.size)
    for model, y in [(LinearRegression(), y_lm), (GLMRegressor(family="poisson"), y_counts),
                     (LogisticRegression(), y_class)]:
        with pytest.warns(RankDeficientWarning) as rec:
            model.fit(Xa, y)
        text = next(str(r.message) for r in rec if issubclass(r.category, RankDeficientWarning))
        messages.append(re.sub(r"^\w+: ", "", text))
        assert text.startswith(type(model).__name__ + ":")
        assert np.isnan(model.coef_.ravel()[3]) and model.aliased_.tolist()[-1]
        fit, lo, hi = model.predict_interval(Xa[:5])
        assert np.all(np.isfinite(lo)) and np.all(lo <= fit) and np.all(fit <= hi)
    assert len(set(messages)) == 1 and "(aliased: x3)" in messages[0]


def test_prediction_intervals_refused_where_undefined():
    _, pois, gam, logit = _fits()
    X = np.zeros((2, 3))
    for model in (pois, gam):
        with pytest.raises(ValueError, match="kind='prediction' is defined for the gaussian"):
            model.predict_interval(X, kind="prediction")
    with pytest.raises(ValueError, match="kind='prediction' is not defined for a classifier"):
        logit.predict_interval(X, kind="prediction")
    with pytest.raises(ValueError, match="level"):
        pois.predict_interval(X, level=95)
    Xf, eta, rng = _data()
    pen = GLMRegressor(family="poisson", alpha=0.1).fit(Xf, rng.poisson(np.exp(eta)))
    with pytest.raises(ValueError, match="penalised fit"):
        pen.predict_interval(X)
    pen = LogisticRegression(penalty="l2").fit(Xf, eta > 0.5)
    with pytest.raises(ValueError, match="unpenalised binary fit"):
        pen.predict_interval(X)


def test_glm_gaussian_identity_intervals_equal_lm():
    X, eta, rng = _data(seed=5)
    y = eta + rng.normal(size=eta.size)
    w = rng.uniform(0.5, 2.0, size=eta.size)
    lm = LinearRegression().fit(X, y, sample_weight=w)
    glm = GLMRegressor().fit(X, y, sample_weight=w)
    for kind in ("confidence", "prediction"):
        np.testing.assert_allclose(glm.predict_interval(X[:7], kind=kind, level=0.8,
                                                        sample_weight=w[:7]),
                                   lm.predict_interval(X[:7], kind=kind, level=0.8,
                                                       sample_weight=w[:7]), rtol=1e-9)
