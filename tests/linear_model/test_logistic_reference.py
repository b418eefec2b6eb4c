"""LogisticRegression against R (glm binomial, nnet::multinom; tests/reference/logistic),
statsmodels' MNLogit and scikit-learn's LogisticRegression on the same penalised objective."""

from __future__ import annotations

import csv
import json
import warnings

import numpy as np
import pytest

from conftest import REFERENCE, as_float_array
from statlearning.exceptions import RankDeficientWarning
from statlearning.linear_model import LogisticRegression

REF = json.loads((REFERENCE / "logistic" / "logistic_reference.json").read_text())
BINARY = REF["binary_cases"]
RTOL = 1e-8


def _read(ref):
    pd = pytest.importorskip("pandas")
    with open(REFERENCE / "logistic" / ref["data_file"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = pd.DataFrame({c: [float(r[c]) for r in rows] for c in ref["predictors"]})
    y = np.array([float(r[ref["response"]]) for r in rows])
    w = None
    if ref.get("weights_column"):
        w = np.array([float(r[ref["weights_column"]]) for r in rows])
    return X, y, w


def _fit(ref, **params):
    X, y, w = _read(ref)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        return LogisticRegression(fit_intercept=ref["intercept"], **params).fit(
            X, y, sample_weight=w
        )


def _close(actual, expected, rtol=RTOL):
    np.testing.assert_allclose(actual, as_float_array(expected), rtol=rtol, atol=0, equal_nan=True)


def test_reference_records_versions():
    assert REF["r_version"].startswith("R version 4.")
    assert REF["nnet_version"] and REF["dslabs_version"]


@pytest.mark.parametrize("case", BINARY)
def test_coefficient_table_matches_glm(case):
    ref = REF[case]
    model = _fit(ref)
    table = model.summary().coef_table
    assert table.names == ref["coef_names"]
    _close(model._full_coef(), ref["coefficients"])
    _close(model.bse_, ref["std_error"])
    _close(model.tvalues_, ref["z_value"])
    _close(model.pvalues_, ref["p_value"], rtol=1e-7)
    _close(model.cov_params_, ref["vcov"])
    np.testing.assert_array_equal(model.aliased_, np.array(ref["aliased"], dtype=bool))
    assert table.statistic_name == "z value"


@pytest.mark.parametrize("case", BINARY)
def test_fit_statistics_match_glm(case):
    ref = REF[case]
    model = _fit(ref)
    for ours, theirs in [
        (model.deviance_, "deviance"),
        (model.null_deviance_, "null_deviance"),
        (model.loglik_, "loglik"),
        (model.aic_, "aic"),
        (model.bic_, "bic"),
    ]:
        assert ours == pytest.approx(ref[theirs], rel=RTOL), theirs
    assert model.df_resid_ == ref["df_residual"]
    assert model.df_null_ == ref["df_null"]
    assert model.rank_ == ref["rank"]
    assert model.n_obs_ == ref["n_obs"]
    assert model.n_iter_ == ref["iter"]  # R's "Number of Fisher Scoring iterations"
    _close(model._residual_quantiles, ref["deviance_residual_quantiles"], rtol=1e-7)
    s = model.summary().stats
    assert s["aic"] == model.aic_ and s["null_deviance"] == model.null_deviance_


@pytest.mark.parametrize("case", BINARY)
def test_predictions_match_glm(case):
    pd = pytest.importorskip("pandas")
    ref = REF[case]
    model = _fit(ref)
    new = pd.DataFrame(as_float_array(ref["newdata"]), columns=ref["predictors"])
    _close(model.predict_proba(new)[:, 1], ref["predict_response"])
    _close(model.decision_function(new), ref["predict_link"], rtol=1e-7)


@pytest.mark.parametrize("case", BINARY)
def test_printed_summary_has_glm_layout(case):
    ref = REF[case]
    text = str(_fit(ref).summary())
    for line in ref["summary_text"].splitlines():
        if line.startswith(("    Null deviance", "Residual deviance", "AIC:", "Number of Fisher")):
            assert line.strip() in text, line
    assert "(Dispersion parameter for binomial family taken to be 1)" in text


@pytest.mark.parametrize("solver", ["lbfgs", "gd"])
def test_other_solvers_reach_the_glm_fit(solver):
    ref = REF["mtcars_am"]
    pd = pytest.importorskip("pandas")
    X, y, _ = _read(ref)
    Xs = (X - X.mean()) / X.std()  # standardised so that first-order methods converge quickly
    model = LogisticRegression(solver=solver, tol=1e-10, max_iter=100_000).fit(Xs, y)
    scale = X.std().to_numpy()
    coef = model.coef_[0] / scale
    intercept = model.intercept_[0] - float(pd.Series(coef, index=X.columns) @ X.mean())
    _close(np.concatenate([[intercept], coef]), ref["coefficients"], rtol=1e-5)
    assert model.deviance_ == pytest.approx(ref["deviance"], rel=1e-9)
    # standard errors from the Hessian at the optimum; slopes rescale with the columns
    _close(model.bse_[1:] / scale, as_float_array(ref["std_error"])[1:], rtol=1e-5)


# ------------------------------------------------------------------------------ multinomial


@pytest.fixture(scope="module")
def multinomial_case():
    ref = REF["gapminder2011_continent"]
    X, y, _ = _read(ref)
    return ref, X, y.astype(int)


# nnet's BFGS (reltol 1e-16) stops ~1e-6 from the optimum; L-BFGS on these unscaled columns
# (infant mortality ~ 100, log GDP ~ 10) reaches the deviance to 1e-10 but the flat directions
# of the likelihood only to ~1e-4.
@pytest.mark.parametrize(("solver", "rtol"), [("newton", 2e-5), ("lbfgs", 5e-4)])
def test_unpenalised_multinomial_matches_nnet_multinom(multinomial_case, solver, rtol):
    ref, X, y = multinomial_case
    model = LogisticRegression(solver=solver, max_iter=5000).fit(X, y)
    params = np.hstack([model.intercept_[:, None], model.coef_])
    np.testing.assert_array_equal(params[0], 0.0)  # the reference class (first of classes_)
    _close(params[1:], ref["coefficients"], rtol=rtol)
    assert model.deviance_ == pytest.approx(ref["deviance"], rel=1e-9)
    np.testing.assert_allclose(
        model.predict_proba(X)[:5], as_float_array(ref["fitted_first_rows"]), atol=50 * rtol
    )


@pytest.mark.filterwarnings("ignore:Maximum Likelihood optimization failed")
def test_unpenalised_multinomial_matches_statsmodels_mnlogit(multinomial_case):
    sm = pytest.importorskip("statsmodels.api")
    _, X, y = multinomial_case
    res = sm.MNLogit(y, sm.add_constant(X)).fit(method="newton", maxiter=100, tol=1e-14, disp=0)
    model = LogisticRegression().fit(X, y)
    params = np.hstack([model.intercept_[:, None], model.coef_])[1:]
    np.testing.assert_allclose(params, res.params.to_numpy().T, rtol=1e-7)
    assert -model.deviance_ / 2 == pytest.approx(res.llf, rel=1e-12)


# -------------------------------------------------------------- penalised: scikit-learn oracle


def _objective(model, X, y, C, rho):
    """Σ log-loss + (1/C)(ρ‖β‖₁ + ½(1 − ρ)‖β‖²) — both libraries' objective (× 1/C)."""
    eta = X @ model.coef_.T + model.intercept_
    if eta.shape[1] == 1:
        e = eta[:, 0]
        loss = np.sum(np.logaddexp(0, e) - y * e)
    else:
        lse = np.logaddexp.reduce(eta, axis=1)
        loss = np.sum(lse - eta[np.arange(len(y)), y])
    beta = model.coef_
    return loss + (rho * np.abs(beta).sum() + 0.5 * (1 - rho) * (beta**2).sum()) / C


@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :10]
    return (X - X.mean(0)) / X.std(0), y


@pytest.fixture(scope="module")
def wine():
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


PENALISED = [
    ("l2", None, 0.3, "newton"),
    ("l2", None, 0.3, "lbfgs"),
    ("l2", None, 0.3, "cd"),
    ("l2", None, 0.3, "gd"),
    ("l1", None, 0.2, "cd"),
    ("elasticnet", 0.4, 0.5, "cd"),
]


@pytest.mark.parametrize(("penalty", "l1_ratio", "C", "solver"), PENALISED)
def test_penalised_binary_matches_scikit_learn(cancer, penalty, l1_ratio, C, solver):
    from sklearn.linear_model import LogisticRegression as SkLogistic

    X, y = cancer
    rho = {"l2": 0.0, "l1": 1.0}.get(penalty, l1_ratio)
    peer = SkLogistic(
        C=C, l1_ratio=rho, solver="saga" if rho > 0 else "lbfgs", tol=1e-12, max_iter=100_000
    ).fit(X, y)
    model = LogisticRegression(
        penalty=penalty, C=C, l1_ratio=l1_ratio, solver=solver, max_iter=100_000, tol=1e-10
    ).fit(X, y)
    f_ours, f_peer = _objective(model, X, y, C, rho), _objective(peer, X, y, C, rho)
    assert f_ours <= f_peer * (1 + 1e-6)
    assert f_ours == pytest.approx(f_peer, rel=1e-6)
    np.testing.assert_allclose(model.coef_, peer.coef_, atol=1e-4)
    assert model.intercept_[0] == pytest.approx(peer.intercept_[0], abs=1e-4)


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_penalised_multinomial_matches_scikit_learn(wine, solver):
    from sklearn.linear_model import LogisticRegression as SkLogistic

    X, y = wine
    C = 0.5
    peer = SkLogistic(C=C, tol=1e-12, max_iter=100_000).fit(X, y)
    model = LogisticRegression(penalty="l2", C=C, solver=solver, tol=1e-10).fit(X, y)
    assert model.coef_.shape == (3, X.shape[1])
    assert _objective(model, X, y, C, 0.0) == pytest.approx(
        _objective(peer, X, y, C, 0.0), rel=1e-6
    )
    np.testing.assert_allclose(model.coef_, peer.coef_, atol=1e-4)
    np.testing.assert_allclose(
        model.intercept_, peer.intercept_ - peer.intercept_.mean(), atol=1e-4
    )
    np.testing.assert_allclose(model.predict_proba(X), peer.predict_proba(X), atol=1e-5)


@pytest.mark.parametrize(("penalty", "l1_ratio"), [("l1", None), ("elasticnet", 0.5), ("l2", None)])
def test_penalised_multinomial_cd_matches_scikit_learn(wine, penalty, l1_ratio):
    from sklearn.linear_model import LogisticRegression as SkLogistic

    X, y = wine
    C = 0.2
    rho = {"l2": 0.0, "l1": 1.0}.get(penalty, l1_ratio)
    peer = SkLogistic(
        C=C, l1_ratio=rho, solver="saga" if rho else "lbfgs", tol=1e-12, max_iter=200_000
    ).fit(X, y)
    model = LogisticRegression(penalty, C, l1_ratio, solver="cd", tol=1e-12).fit(X, y)
    f_ours, f_peer = _objective(model, X, y, C, rho), _objective(peer, X, y, C, rho)
    assert f_ours == pytest.approx(f_peer, rel=1e-6)
    np.testing.assert_allclose(model.coef_, peer.coef_, atol=1e-4)
    if rho:
        assert (model.coef_ == 0).any()  # exact zeros from the l1 part
