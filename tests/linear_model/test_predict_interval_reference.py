"""predict_interval of GLMRegressor and LogisticRegression against R's predict.glm(se.fit = TRUE)
(tests/reference/predict_glm)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.linear_model import GLMRegressor, LinearRegression, LogisticRegression

REF = json.loads((REFERENCE / "predict_glm" / "predict_glm_reference.json").read_text())
CASES = REF["cases"]
FAMILY = {"Gamma": "gamma", "inverse.gaussian": "inverse_gaussian"}
RTOL = 1e-9  # R fits to epsilon = 1e-12; observed agreement is 6e-14 or better


def _data(ref):
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv(REFERENCE / "predict_glm" / ref["data_file"])
    offset = frame[ref["offset_column"]] if ref["offset_column"] else None
    return frame[list(ref["predictors"])], frame[ref["response"]], offset


def _glm(ref):
    X, y, offset = _data(ref)
    model = GLMRegressor(family=FAMILY.get(ref["family"], ref["family"]), link=ref["link"],
                         tol=1e-12, max_iter=100)
    model.fit(X, y, offset=offset)
    return model, X, offset


@pytest.mark.parametrize("case", [c for c in CASES if CASES[c]["family"] != "binomial"])
def test_glm_confidence_interval_matches_r(case):
    ref = CASES[case]
    model, X, offset = _glm(ref)
    np.testing.assert_allclose(model._full_coef(), ref["coefficients"], rtol=RTOL)
    n = ref["n_new"]
    new = X.iloc[:n]
    off = None if offset is None else offset.iloc[:n]
    fit, lower, upper = model.predict_interval(new, level=ref["level"], offset=off)
    np.testing.assert_allclose(fit, ref["response_fit"], rtol=RTOL)
    np.testing.assert_allclose(lower, ref["lower"], rtol=RTOL)
    np.testing.assert_allclose(upper, ref["upper"], rtol=RTOL)
    assert np.all(lower < fit) and np.all(fit < upper)
    # the link-scale standard error is R's se.fit
    eta = np.log(fit) if ref["link"] == "log" else None
    if eta is not None:
        np.testing.assert_allclose(eta, ref["link_fit"], rtol=RTOL)


@pytest.mark.parametrize("case", ["gaussian_log", "gaussian_identity"])
def test_gaussian_prediction_interval_matches_r(case):
    ref = CASES[case]
    model, X, _ = _glm(ref)
    n = ref["n_new"]
    fit, lower, upper = model.predict_interval(X.iloc[:n], kind="prediction", level=ref["level"])
    np.testing.assert_allclose(fit, ref["response_fit"], rtol=RTOL)
    np.testing.assert_allclose(lower, ref["pred_lower"], rtol=RTOL)
    np.testing.assert_allclose(upper, ref["pred_upper"], rtol=RTOL)
    assert model.dispersion_ == pytest.approx(ref["residual_scale"] ** 2, rel=RTOL)
    if "lm_pred_lower" in ref:  # identity link: predict.lm(interval = "prediction")
        np.testing.assert_allclose(lower, ref["lm_pred_lower"], rtol=RTOL)
        lm = LinearRegression().fit(X, _data(ref)[1])
        np.testing.assert_allclose(
            lm.predict_interval(X.iloc[:n], kind="prediction", level=ref["level"])[1:],
            [lower, upper], rtol=1e-9,
        )


def test_logistic_confidence_interval_matches_r():
    ref = CASES["binomial_logit"]
    X, y, _ = _data(ref)
    model = LogisticRegression(tol=1e-12).fit(X, y)
    n = ref["n_new"]
    fit, lower, upper = model.predict_interval(X.iloc[:n], level=ref["level"])
    np.testing.assert_allclose(fit, ref["response_fit"], rtol=RTOL)
    np.testing.assert_allclose(lower, ref["lower"], rtol=RTOL)
    np.testing.assert_allclose(upper, ref["upper"], rtol=RTOL)
    np.testing.assert_allclose(fit, model.predict_proba(X.iloc[:n])[:, 1], rtol=1e-12)
    glm = GLMRegressor(family="binomial", tol=1e-12).fit(X, y)
    np.testing.assert_allclose(glm.predict_interval(X.iloc[:n], level=ref["level"]),
                               (fit, lower, upper), rtol=1e-8)
