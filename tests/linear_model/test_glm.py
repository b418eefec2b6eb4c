"""GLMRegressor: behaviour, equivalences, warnings and bad input."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

from statlearning.exceptions import (
    ConvergenceWarning,
    NumericalWarning,
    RankDeficientWarning,
)
from statlearning.inference import Summary
from statlearning.linear_model import GLMRegressor, LinearRegression

RNG = np.random.default_rng(11)
N = 120
X = RNG.normal(size=(N, 2))
ETA = 0.5 + X @ [0.6, -0.4]
Y_COUNT = RNG.poisson(np.exp(ETA)).astype(float)
Y_POS = RNG.gamma(5.0, np.exp(ETA) / 5.0)
Y_BIN = (RNG.random(N) < 1 / (1 + np.exp(-ETA))).astype(float)
Y_REAL = ETA + RNG.normal(size=N)


def _fit(model, X_, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return model.fit(X_, y, **kw)


# --- equivalences ----------------------------------------------------------------------------


def test_gaussian_identity_is_linear_regression():
    glm = _fit(GLMRegressor(), X, Y_REAL)
    lm = LinearRegression().fit(X, Y_REAL)
    np.testing.assert_allclose(glm.coef_, lm.coef_, rtol=1e-12)
    np.testing.assert_allclose(glm.bse_, lm.bse_, rtol=1e-10)
    np.testing.assert_allclose(glm.pvalues_, lm.pvalues_, rtol=1e-8)
    assert glm.dispersion_ == pytest.approx(lm.sigma_**2, rel=1e-12)
    for a in ("aic_", "bic_", "loglik_"):
        assert getattr(glm, a) == pytest.approx(getattr(lm, a), rel=1e-12)
    assert glm.deviance_ == pytest.approx(lm.rss_, rel=1e-12)
    assert glm.score(X, Y_REAL) == pytest.approx(lm.score(X, Y_REAL), rel=1e-12)
    assert glm.n_iter_ == 2  # R: the second iteration confirms the least-squares solution


def test_poisson_loglik_is_the_notes_log_likelihood():
    """Seed 001 §5.5: LL = Σ [yᵢ ηᵢ − exp(ηᵢ) − log yᵢ!]."""
    from scipy.special import gammaln

    m = _fit(GLMRegressor(family="poisson"), X, Y_COUNT)
    eta = m.intercept_ + X @ m.coef_
    ll = np.sum(Y_COUNT * eta - np.exp(eta) - gammaln(Y_COUNT + 1))
    assert m.loglik_ == pytest.approx(ll, rel=1e-12)
    assert m.aic_ == pytest.approx(-2 * ll + 2 * 3, rel=1e-12)
    assert m.bic_ == pytest.approx(-2 * ll + np.log(N) * 3, rel=1e-12)
    assert m.dispersion_ == 1.0
    assert m.summary().coef_table.statistic_name == "z value"


def test_binomial_proportions_with_trials_equal_the_expanded_outcomes():
    """R: glm(cbind(s, m − s) ~ x, binomial) = the fit on the m individual 0/1 outcomes."""
    groups = RNG.normal(size=(30, 2))
    trials = RNG.integers(1, 9, 30)
    p = 1 / (1 + np.exp(-(0.2 + groups @ [0.8, -0.5])))
    succ = RNG.binomial(trials, p)
    grouped = _fit(GLMRegressor(family="binomial"), groups, succ / trials, sample_weight=trials)
    rows = np.repeat(np.arange(30), trials)
    outcome = np.concatenate(
        [[1.0] * s + [0.0] * (m - s) for s, m in zip(succ, trials, strict=True)]
    )
    single = _fit(GLMRegressor(family="binomial"), groups[rows], outcome)
    # the two fits start from different means (R's mustart), hence agree to the IRLS tolerance
    np.testing.assert_allclose(grouped.coef_, single.coef_, rtol=1e-8)
    np.testing.assert_allclose(grouped.bse_, single.bse_, rtol=1e-6)
    assert grouped.df_resid_ == 27 and single.df_resid_ == trials.sum() - 3


def test_integer_weights_equal_repeated_rows():
    w = RNG.integers(0, 4, N)
    a = _fit(GLMRegressor(family="poisson"), X, Y_COUNT, sample_weight=w)
    b = _fit(GLMRegressor(family="poisson"), np.repeat(X, w, 0), np.repeat(Y_COUNT, w))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    np.testing.assert_allclose(a.bse_, b.bse_, rtol=1e-9)
    for attr in ("deviance_", "null_deviance_", "aic_", "loglik_"):
        assert getattr(a, attr) == pytest.approx(getattr(b, attr), rel=1e-10)


def test_weights_are_precision_weights_for_the_dispersion():
    """As R: the dispersion divides the Pearson statistic by rows − rank, not by Σw − rank."""
    w = RNG.integers(0, 4, N)
    a = _fit(GLMRegressor(family="gamma", link="log"), X, Y_POS, sample_weight=w)
    b = _fit(GLMRegressor(family="gamma", link="log"), np.repeat(X, w, 0), np.repeat(Y_POS, w))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    assert a.deviance_ == pytest.approx(b.deviance_, rel=1e-10)
    assert (a.n_obs_, b.n_obs_) == (np.sum(w > 0), w.sum())
    pearson_a, pearson_b = a.dispersion_ * a.df_resid_, b.dispersion_ * b.df_resid_
    assert pearson_a == pytest.approx(pearson_b, rel=1e-8)


def test_offset_is_a_known_term_of_the_linear_predictor():
    exposure = RNG.uniform(0.5, 3.0, N)
    y = RNG.poisson(exposure * np.exp(ETA)).astype(float)
    m = _fit(GLMRegressor(family="poisson"), X, y, offset=np.log(exposure))
    mu = m.predict(X, offset=np.log(exposure))
    np.testing.assert_allclose(mu, exposure * m.predict(X), rtol=1e-12)
    # the null model keeps the offset (R refits the intercept with it)
    from statlearning._core.families import get_family

    b0 = np.log(y.sum() / exposure.sum())
    null = get_family("poisson").deviance(y, exposure * np.exp(b0))
    assert m.null_deviance_ == pytest.approx(null, rel=1e-9)
    assert "offset(offset)" in m.summary().formula


def test_score_is_the_fraction_of_deviance_explained():
    from sklearn.metrics import d2_tweedie_score

    m = _fit(GLMRegressor(family="poisson"), X, Y_COUNT)
    expected = d2_tweedie_score(Y_COUNT, m.predict(X), power=1)
    assert m.score(X, Y_COUNT) == pytest.approx(expected, rel=1e-12)
    assert m.score(X, Y_COUNT) == pytest.approx(1 - m.deviance_ / m.null_deviance_, rel=1e-12)


@pytest.mark.parametrize("solver", ["auto", "irls"])
@pytest.mark.parametrize(
    ("family", "link", "y", "peer"),
    [
        ("poisson", "log", Y_COUNT, "PoissonRegressor"),
        ("gamma", "log", Y_POS, "GammaRegressor"),
    ],
)
def test_ridge_matches_scikit_learn(family, link, y, peer, solver):
    import sklearn.linear_model as sk

    model = GLMRegressor(family=family, link=link, alpha=0.05, tol=1e-13, max_iter=200)
    m = _fit(model.set_params(solver=solver), X, y)
    ref = getattr(sk, peer)(alpha=0.05, tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-7)
    assert m.intercept_ == pytest.approx(ref.intercept_, rel=1e-7)
    assert m.score(X, y) == pytest.approx(ref.score(X, y), rel=1e-8)


def test_inverse_gaussian_ridge_matches_scikit_learn_tweedie_power_3():
    from sklearn.linear_model import TweedieRegressor

    model = GLMRegressor(family="inverse_gaussian", link="log", alpha=0.02, tol=1e-13, max_iter=100)
    m = _fit(model, X, Y_POS)
    ref = TweedieRegressor(power=3, link="log", alpha=0.02, tol=1e-12, max_iter=10_000)
    ref.fit(X, Y_POS)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-6)


def test_elastic_net_gaussian_matches_scikit_learn():
    from sklearn.linear_model import ElasticNet

    m = _fit(GLMRegressor(alpha=0.1, l1_ratio=0.7), X, Y_REAL)
    ref = ElasticNet(alpha=0.1, l1_ratio=0.7, tol=1e-12, max_iter=100_000).fit(X, Y_REAL)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-7)


def test_lasso_sets_irrelevant_coefficients_to_zero():
    Xw = np.column_stack([X, RNG.normal(size=(N, 4))])
    m = _fit(GLMRegressor(family="poisson", alpha=0.3, l1_ratio=1.0), Xw, Y_COUNT)
    assert np.sum(m.coef_ == 0) >= 2


# --- fitted state and summary ----------------------------------------------------------------


def test_summary_reports_r_statistics():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X, columns=["dose", "age"])
    m = _fit(GLMRegressor(family="gamma", link="log"), frame, pd.Series(Y_POS, name="time"))
    s = m.summary()
    assert isinstance(s, Summary) and s.kind == "glm"
    assert s.coef_table.names == ["(Intercept)", "dose", "age"]
    assert s.coef_table.statistic_name == "t value" and s.coef_table.df == N - 3
    assert s.formula == "time ~ dose + age"
    for key in ("deviance", "null_deviance", "df_resid", "df_null", "loglik", "aic", "dispersion"):
        assert key in s.stats
    text = str(s)
    assert "(Dispersion parameter for Gamma family taken to be" in text
    assert "Deviance Residuals:" in text
    assert f"Number of Fisher Scoring iterations: {m.n_iter_}" in text
    frame_out = s.to_frame()
    assert list(frame_out.index) == ["(Intercept)", "dose", "age"]


def test_penalised_fit_has_no_inference():
    m = _fit(GLMRegressor(family="poisson", alpha=0.1), X, Y_COUNT)
    assert not hasattr(m, "bse_") and not hasattr(m, "aic_")
    assert m.deviance_ > 0 and m.null_deviance_ > m.deviance_
    with pytest.raises(ValueError, match=r"penalised fit \(alpha=0.1\).*alpha=0"):
        m.summary()


def test_aliased_column_is_nan_and_named_in_the_warning():
    Xa = np.column_stack([X, X[:, 0] + X[:, 1]])
    with pytest.warns(RankDeficientWarning, match=r"aliased: x2"):
        m = GLMRegressor(family="poisson").fit(Xa, Y_COUNT)
    assert np.isnan(m.coef_[2]) and m.aliased_.tolist() == [False, False, False, True]
    assert m.rank_ == 3 and m.df_resid_ == N - 3
    ref = _fit(GLMRegressor(family="poisson"), X, Y_COUNT)
    np.testing.assert_allclose(m.predict(Xa), ref.predict(X), rtol=1e-10)
    assert "(1 not defined because of singularities)" in str(m.summary())


def test_more_features_than_samples_is_aliased_like_r():
    Xw = RNG.normal(size=(6, 9))
    with pytest.warns(RankDeficientWarning):
        m = GLMRegressor(family="poisson").fit(Xw, Y_COUNT[:6])
    assert m.rank_ == 6 and np.isnan(m.coef_[5:]).all()


def test_no_training_data_is_stored():
    n = 257
    Xb = RNG.normal(size=(n, 3))
    y = RNG.poisson(np.exp(0.2 + Xb[:, 0] * 0.3)).astype(float)
    for model in (GLMRegressor(family="poisson"), GLMRegressor(family="poisson", alpha=0.1)):
        _fit(model, Xb, y)
        for name, value in vars(model).items():
            if isinstance(value, np.ndarray):
                assert n not in value.shape, name


def test_pickle_round_trip():
    m = _fit(GLMRegressor(family="gamma", link="log"), X, Y_POS)
    again = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(again.predict(X), m.predict(X))
    assert str(again.summary()) == str(m.summary())


def test_no_intercept_null_deviance_uses_the_offset_only():
    m = _fit(GLMRegressor(family="poisson", fit_intercept=False), X, Y_COUNT)
    assert m.intercept_ == 0.0 and m.df_null_ == N
    from statlearning._core.families import get_family

    assert m.null_deviance_ == pytest.approx(get_family("poisson").deviance(Y_COUNT, np.ones(N)))


# --- warnings --------------------------------------------------------------------------------


def test_separation_warns_like_r():
    x = np.linspace(-1, 1, 20)[:, None]
    y = (x[:, 0] > 0).astype(float)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        GLMRegressor(family="binomial").fit(x, y)
    messages = {(w.category, str(w.message).split(":")[1].strip()[:30]) for w in caught}
    assert (NumericalWarning, "fitted probabilities numerical") in messages
    assert (ConvergenceWarning, "IRLS did not converge in max_i") in messages


def test_non_convergence_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        m = GLMRegressor(family="binomial", link="probit", max_iter=1).fit(X, Y_BIN)
    assert m.n_iter_ == 1


def test_non_integer_successes_warn():
    with pytest.warns(UserWarning, match="non-integer numbers of successes"):
        GLMRegressor(family="binomial").fit(X, np.full(N, 0.3))


def test_non_integer_counts_warn_and_have_no_likelihood():
    with pytest.warns(NumericalWarning, match="non-integer"):
        m = GLMRegressor(family="poisson").fit(X, Y_COUNT + 0.5)
    assert m.aic_ == np.inf and np.isfinite(m.bse_).all()


def test_no_residual_degrees_of_freedom_warns_for_estimated_dispersion():
    with pytest.warns(NumericalWarning, match="no residual degrees of freedom"):
        m = GLMRegressor(family="gamma", link="log").fit(X[:3], Y_POS[:3])
    assert np.isnan(m.dispersion_) and np.isnan(m.bse_).all()


def test_zero_weight_rows_may_lie_outside_the_binomial_domain():
    """R sets y to 0 where the weight is 0 before checking the domain."""
    y = Y_BIN.copy()
    y[0] = 3.0
    w = np.ones(N)
    w[0] = 0
    m = _fit(GLMRegressor(family="binomial"), X, y, sample_weight=w)
    ref = _fit(GLMRegressor(family="binomial"), X[1:], Y_BIN[1:])
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-10)
    assert m.n_obs_ == N - 1


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "y", "phrase"),
    [
        ("poisson", -Y_COUNT - 1, "non-negative for the 'poisson' family"),
        ("gamma", Y_POS - 10, "positive for the 'gamma' family"),
        ("inverse_gaussian", np.zeros(N), "positive for the 'inverse_gaussian' family"),
        ("binomial", Y_COUNT, r"in \[0, 1\] for the 'binomial' family"),
    ],
)
def test_y_outside_the_family_domain_is_a_clear_error(family, y, phrase):
    with pytest.raises(ValueError, match=f"y must be {phrase}"):
        GLMRegressor(family=family).fit(X, y)
    if family != "binomial":
        m = _fit(GLMRegressor(family=family, link="log"), X, np.abs(y) + 1)
        with pytest.raises(ValueError, match=phrase):
            m.score(X, y)


def test_link_not_available_for_the_family():
    with pytest.raises(
        ValueError, match=r"link 'logit' is not available for the 'poisson'.*'sqrt'"
    ):
        GLMRegressor(family="poisson", link="logit").fit(X, Y_COUNT)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"family": "tweedie"}, "family"),
        ({"link": "cauchit"}, "link"),
        ({"alpha": -1.0}, "alpha"),
        ({"l1_ratio": 1.5}, "l1_ratio"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": 0.0}, "tol"),
        ({"fit_intercept": "yes"}, "fit_intercept"),
    ],
)
def test_invalid_hyper_parameters_are_named(params, name):
    with pytest.raises(ValueError, match=f"GLMRegressor: parameter '{name}'"):
        GLMRegressor(**params).fit(X, Y_REAL)


@pytest.mark.parametrize(
    ("offset", "match"),
    [
        (np.ones(3), r"offset must have shape \(120,\)"),
        (np.full(N, np.nan), "offset contains NaN"),
        (["a"] * N, "offset must be numeric"),
    ],
)
def test_bad_offset_is_a_clear_error(offset, match):
    with pytest.raises(ValueError, match=match):
        GLMRegressor(family="poisson").fit(X, Y_COUNT, offset=offset)
    m = _fit(GLMRegressor(family="poisson"), X, Y_COUNT)
    with pytest.raises(ValueError, match=match.replace("120", str(N))):
        m.predict(X, offset=offset)


def test_gaussian_log_link_with_non_positive_y_still_fits():
    """R stops ("cannot find valid starting values"); we start from the constant model."""
    y = np.exp(ETA) + RNG.normal(scale=0.2, size=N)
    y[:3] = -0.1
    m = _fit(GLMRegressor(link="log"), X, y)
    assert np.all(m.predict(X) > 0) and m.n_iter_ < 25


def test_prediction_outside_the_link_domain_is_nan_with_a_warning():
    m = _fit(GLMRegressor(family="inverse_gaussian"), X, Y_POS)
    far = np.array([[0.0, 0.0], [-1e3, 1e3], [1e3, -1e3]])
    with pytest.warns(NumericalWarning, match="'inverse_squared' link"):
        mu = m.predict(far)
    assert np.isfinite(mu[0]) and np.isnan(mu).sum() == 1


# --- solvers ---------------------------------------------------------------------------------


def test_auto_solver_gives_the_irls_ridge_solution():
    auto = _fit(GLMRegressor(family="poisson", alpha=0.02, tol=1e-10, max_iter=100), X, Y_COUNT)
    irls = _fit(GLMRegressor(family="poisson", alpha=0.02, solver="irls", tol=1e-12), X, Y_COUNT)
    np.testing.assert_allclose(auto.coef_, irls.coef_, rtol=1e-7)
    assert auto.deviance_ == pytest.approx(irls.deviance_, rel=1e-10)


def test_irls_finishes_when_lbfgs_reaches_max_iter():
    m = _fit(GLMRegressor(family="gamma", link="log", alpha=0.02, max_iter=5), X, Y_POS)
    ref = _fit(GLMRegressor(family="gamma", link="log", alpha=0.02, solver="irls"), X, Y_POS)
    assert m.n_iter_ > 5  # L-BFGS iterations plus the IRLS ones
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-5)


def test_lbfgs_reaching_max_iter_warns():
    with pytest.warns(ConvergenceWarning, match="L-BFGS did not converge in max_iter=2"):
        GLMRegressor(family="poisson", alpha=0.02, solver="lbfgs", max_iter=2).fit(X, Y_COUNT)


@pytest.mark.parametrize(
    "params",
    [
        {"family": "poisson"},
        {"family": "poisson", "alpha": 0.1, "l1_ratio": 0.5},
        {"family": "gamma", "alpha": 0.1},
    ],
)
def test_lbfgs_solver_outside_its_scope_is_a_clear_error(params):
    with pytest.raises(ValueError, match="solver='lbfgs' fits ridge-penalised models"):
        GLMRegressor(solver="lbfgs", **params).fit(X, Y_POS)
