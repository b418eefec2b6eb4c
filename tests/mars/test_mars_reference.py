"""MARSRegressor and MARSClassifier against R's earth (tests/reference/mars)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from statlearning.mars import MARSClassifier, MARSRegressor

REF_DIR = Path(__file__).resolve().parents[1] / "reference" / "mars"
REF = json.loads((REF_DIR / "mars_reference.json").read_text())["fits"]
FILES = {
    "trees": "trees.csv",
    "ozone": "ozone.csv",
    "friedman": "friedman.csv",
    "gapminder": "gapminder2011.csv",
    "biopsy": "biopsy.csv",
    "friedman_multi": "friedman_multi.csv",
}
TOL = 1e-6


def _data(fit):
    d = pd.read_csv(REF_DIR / FILES[fit["data"]])
    if isinstance(fit["response"], list):
        return d.drop(columns=fit["response"]), d[fit["response"]]
    y = d.pop(fit["response"])
    if "columns" in fit:
        d = d[fit["columns"]]
    return d, y


def _fit(key):
    fit = REF[key]
    X, y = _data(fit)
    cls = MARSClassifier if key.startswith("biopsy") else MARSRegressor
    params = {"max_degree": fit["degree"]}
    if "settings" in fit:  # earth's arguments other than their defaults
        a = fit["settings"]
        params.update(
            max_terms=a["nk"],
            thresh=a["thresh"],
            minspan=a["minspan"] or "auto",
            endspan=a["endspan"] or "auto",
            penalty=a["penalty"],
            prune=a["pmethod"] != "none",
        )
    return fit, cls(**params).fit(X, y), X, y


@pytest.mark.parametrize("key", sorted(REF))
def test_terms_and_knots_identical(key):
    fit, est, _, _ = _fit(key)
    assert est.forward_terms_ == fit["terms"]
    np.testing.assert_array_equal(est.selected_terms_, fit["selected"])
    assert est.basis_ == [fit["terms"][i] for i in fit["selected"][1:]]
    dirs = np.array(fit["dirs"])[fit["selected"]]
    cuts = np.array(fit["cuts"])[fit["selected"]]
    np.testing.assert_array_equal(est.dirs_, dirs)
    np.testing.assert_array_equal(est.cuts_, cuts)


@pytest.mark.parametrize("key", sorted(REF))
def test_statistics(key):
    fit, est, _, _ = _fit(key)
    for ours, theirs in [
        (est.gcv_, fit["gcv"]),
        (est.rss_, fit["rss"]),
        (est.rsq_, fit["rsq"]),
        (est.grsq_, fit["grsq"]),
    ]:
        assert ours == pytest.approx(theirs, rel=TOL)
    np.testing.assert_allclose(est.rss_per_subset_, fit["rss_per_subset"], rtol=TOL)
    np.testing.assert_allclose(est.gcv_per_subset_, fit["gcv_per_subset"], rtol=TOL)
    assert est.evimp_["feature"] == fit["evimp"]["feature"]
    np.testing.assert_array_equal(est.evimp_["nsubsets"], fit["evimp"]["nsubsets"])
    np.testing.assert_allclose(est.evimp_["gcv"], fit["evimp"]["gcv"], rtol=TOL, atol=1e-9)
    np.testing.assert_allclose(est.evimp_["rss"], fit["evimp"]["rss"], rtol=TOL, atol=1e-9)


@pytest.mark.parametrize("key", sorted(k for k in REF if k.startswith("friedman_multi")))
def test_two_responses_fitted_together(key):
    fit, est, X, Y = _fit(key)
    assert est.coef_.shape == (2, len(est.basis_))
    for j, suffix in enumerate(["", "2"]):
        coef = np.r_[est.intercept_[j], est.coef_[j]]
        expected = np.asarray(fit["coefficients" + suffix])
        np.testing.assert_allclose(coef, expected, rtol=TOL, atol=TOL * np.max(np.abs(expected)))
        np.testing.assert_allclose(
            est.predict(X)[:, j], fit["fitted" + suffix], atol=TOL * Y.iloc[:, j].std()
        )


@pytest.mark.parametrize(
    "key", sorted(k for k in REF if not k.startswith(("biopsy", "friedman_multi")))
)
def test_regression_coefficients_and_fit(key):
    fit, est, X, y = _fit(key)
    coef = np.r_[est.intercept_, est.coef_]
    scale = np.max(np.abs(fit["coefficients"]))
    np.testing.assert_allclose(coef, fit["coefficients"], rtol=TOL, atol=TOL * scale)
    np.testing.assert_allclose(est.predict(X), fit["fitted"], rtol=0, atol=TOL * np.std(y))


def test_classifier_matches_earth_glm_binomial():
    fit, est, X, y = _fit("biopsy_glm")
    np.testing.assert_allclose(
        np.r_[est.intercept_, est.coef_[0]], fit["glm_coefficients"], rtol=TOL, atol=TOL
    )
    assert est.deviance_[0] == pytest.approx(fit["deviance"], rel=TOL)
    assert est.null_deviance_[0] == pytest.approx(fit["null_deviance"], rel=TOL)
    assert est.aic_[0] == pytest.approx(fit["aic"], rel=TOL)
    np.testing.assert_allclose(est.predict_proba(X)[:, 1], fit["glm_fitted"], atol=1e-7)
    # the basis is the regression's on the 0/1 response (earth's)
    lines = str(est.summary()).splitlines()
    assert "Importance: V2, V6, V1, V7, V3, V4, V8, V5-unused, V9-unused" in lines
    assert "Earth selected 13 of 18 terms, and 7 of 9 predictors" in lines
    glm_row = lines[lines.index("GLM (family binomial, link logit):") + 2].split()
    assert glm_row == ["884.35", "682", "83.8676", "670", "0.905", "109.9", "9", "1"]
    reg = MARSRegressor().fit(X, y)
    assert reg.basis_ == est.basis_
    np.testing.assert_allclose(np.r_[reg.intercept_, reg.coef_], fit["coefficients"], rtol=TOL)


def test_termination_and_summary_text():
    fit, est, _, _ = _fit("trees_degree2")
    assert fit["termcond"] == 4
    assert est.termination_ == "RSq changed by less than 0.001 at 7 terms"
    text = str(est.summary())
    assert "Selected 4 of 7 terms, and 2 of 2 predictors" in text
    assert "Number of terms at each degree of interaction: 1 2 1" in text
    assert "GCV 12.33367    RSS 201.4168    GRSq 0.9558265    RSq 0.9751524" in text
    # earth's anova order: by degree, then predictor, cut, reflected hinge first
    rows = [line.split()[0] for line in text.splitlines()[1:5]]
    assert rows == ["(Intercept)", "h(14.2-Girth)", "h(Girth-14.2)", "Girth*h(Height-75)"]
    fit, est, _, _ = _fit("ozone_degree1")
    assert fit["termcond"] == 7
    assert est.termination_ == "Reached nk 21"


def test_seed004_e26_life_expectancy_on_fertility():
    """E26 (chart only in the notes): earth's MARS of LE on fertility, Data-2011."""
    _, est, _, _ = _fit("gapminder_e26")
    assert est.basis_ == ["h(fertility-3.64)", "h(fertility-2)"]
    assert est.intercept_ == pytest.approx(77.12141777342514, rel=1e-9)
    np.testing.assert_allclose(est.coef_, [7.139118415524292, -8.47463604293931], rtol=1e-9)
    # life expectancy falls with fertility, steeply from 2 to 3.64 children, then slowly
    grid = pd.DataFrame({"fertility": [1.5, 2.0, 3.64, 6.0]})
    pred = est.predict(grid)
    assert pred[0] == pytest.approx(pred[1])
    assert (pred[1] - pred[2]) / 1.64 == pytest.approx(8.47463604293931)
    assert (pred[2] - pred[3]) / 2.36 == pytest.approx(8.47463604293931 - 7.139118415524292)
