"""``statlearning.formula.gam``: the mgcv and gam-package reference fits through formulas."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("formulaic")

from conftest import REFERENCE
from statlearning.formula import gam
from statlearning.gam import GAMClassifier, GAMRegressor, f, l, s, ss, te

MGCV = json.loads((REFERENCE / "gam" / "gam_reference.json").read_text())["fits"]
SIM = pd.read_csv(REFERENCE / "gam" / "sim.csv", skipinitialspace=True)
BACKFIT = json.loads((REFERENCE / "gam_backfit" / "gam_backfit_reference.json").read_text())
DATA = pd.read_csv(REFERENCE / "gam_backfit" / "data_gam.csv")
RESPONSE = {"gaussian": "y_gauss", "binomial": "y_binom", "poisson": "y_pois", "gamma": "y_gamma"}
KEYS = [k for k in MGCV if not k.startswith("gapminder")]


def _formula_and_terms(key):
    family, method = key.split("_", 1)
    y = RESPONSE[family]
    if method == "bs_REML":
        rhs = "s(x1, bs = 'bs', k = 10) + s(x2, bs = 'bs', k = 10) + f"
        terms = [s("x1", basis="bs"), s("x2", basis="bs"), f("f")]
    elif method == "te_REML":
        rhs, terms = "te(x1, x2, k = 5) + f", [te("x1", "x2"), f("f")]
    else:
        rhs = "s(x1, bs = 'cr', k = 10) + s(x2, bs = 'cr', k = 10) + f"
        terms = [s("x1"), s("x2"), f("f")]
    return f"{y} ~ {rhs}", terms, family, ("GCV.Cp" if method == "GCV.Cp" else "REML")


@pytest.mark.parametrize("key", KEYS)
def test_mgcv_fits_through_the_formula(key):
    formula, terms, family, method = _formula_and_terms(key)
    ref = MGCV[key]
    fit = gam(formula, SIM, family=family, method=method)
    np.testing.assert_allclose(fit.predict(SIM), ref["fitted"], rtol=0, atol=1e-4)
    smooth = [e for e, b in zip(fit.edf_, fit._blocks, strict=True) if b.smooth]
    np.testing.assert_allclose(smooth, ref["edf"], atol=1e-3)
    criterion = "gcv" if method == "GCV.Cp" else "reml"
    est = GAMRegressor(terms, family=family, criterion=criterion)
    est.fit(SIM[["x1", "x2", "f"]], SIM[RESPONSE[family]])
    np.testing.assert_allclose(fit.predict(SIM), est.predict(SIM[["x1", "x2", "f"]]), atol=1e-8)
    text = str(fit.summary())
    assert f"Formula:\n{formula.replace(chr(39), chr(34))}" in text
    label = formula.split("+")[0].split("~")[1].strip().replace("'", '"')
    assert f"\n{label} " in text  # the smooth's row carries the formula's label


@pytest.mark.parametrize(
    ("case", "formula"),
    [
        ("gaussian", "y ~ s(x1, 4) + x2"),
        ("gaussian_two", "y ~ s(x1, 4) + s(x2, df = 5) + factor(f)"),
        ("binomial", "yb ~ s(x1, 4) + x2"),
        ("poisson", "yc ~ s(x1, 4) + s(x2, 3)"),
        ("loess", "y ~ lo(x1, span = 0.5) + x2"),
        ("loess_mixed", "y ~ lo(x1, span = 0.3, degree = 2) + s(x2, 4) + factor(f)"),
    ],
)
def test_gam_package_fits_through_the_formula(case, formula):
    ref = BACKFIT["cases"][case]
    family = {"binomial": "binomial", "poisson": "poisson"}.get(case, "gaussian")
    fit = gam(formula, DATA, family=family, method="backfitting")
    np.testing.assert_allclose(fit.predict(DATA), ref["fitted"], rtol=0, atol=1e-4)
    assert fit.intercept_ == pytest.approx(ref["constant"], abs=1e-6)
    text = str(fit.summary())
    assert " ".join(text.split()).startswith(f"Call: gam(formula = {formula}")
    assert "Anova for Nonparametric Effects" in text


def test_same_fit_as_the_estimator_with_backfitting():
    fit = gam("y ~ s(x1, 4) + x2", DATA, method="backfitting")
    est = GAMRegressor([ss("x1", 4), l("x2")], method="backfitting").fit(DATA[["x1", "x2"]], DATA.y)
    np.testing.assert_allclose(fit.predict(DATA), est.predict(DATA[["x1", "x2"]]), atol=1e-12)
    assert list(fit.summary().term_names) == ["s(x1, 4)", "x2"]
    vals, se = fit.partial_dependence("s(x1, 4)", fit.design(DATA))
    assert se is None and np.allclose(vals, est.partial_dependence(0, DATA[["x1", "x2"]])[0])


def test_factor_response_is_a_classifier_and_calls():
    data = DATA.assign(lab=np.where(DATA.yb == 1, "yes", "no"))
    fit = gam("lab ~ s(x1, 4) + x2", data, family="binomial", method="backfitting")
    assert isinstance(fit.estimator, GAMClassifier)
    np.testing.assert_allclose(
        fit.predict_proba(data)[:, 1], BACKFIT["cases"]["binomial"]["fitted"], atol=1e-4
    )
    assert fit.call == "gam(formula = lab ~ s(x1, 4) + x2, family = binomial, data = data)"
    fit = gam("y_gauss ~ s(x1) + f", SIM, method="REML", weights="x2")
    assert (
        " ".join(fit.call.split())
        == 'gam(formula = y_gauss ~ s(x1) + f, data = data, weights = x2, method = "REML")'
    )


@pytest.mark.parametrize(
    ("formula", "method", "message"),
    [
        ("y ~ s(x1, 4)", "REML", "s\\(x, df\\) is gam's smoothing spline"),
        ("y ~ lo(x1)", "GCV.Cp", "lo\\(\\) needs method='backfitting'"),
        ("y ~ te(x1, x2)", "backfitting", "te\\(\\) needs method"),
        ("y ~ s(x1, k = 5)", "backfitting", "takes only df"),
        ("y ~ s(x1)", "ML", "method must be"),
        ("y ~ s(x1) - 1", "REML", "keeps its intercept"),
        ("y ~ s(x1, bs = 'xx')", "REML", "basis"),
    ],
)
def test_formula_errors(formula, method, message):
    with pytest.raises((ValueError, NotImplementedError), match=message):
        gam(formula, DATA, method=method)


def test_backfitting_summary_through_the_formula_matches_gam():
    """A factor's dummies are one row of gam's parametric anova, as R's term."""
    ref = json.loads((REFERENCE / "gam_backfit" / "gam_backfit_summary.json").read_text())
    ref = ref["cases"]["gaussian_two"]
    fit = gam("y ~ s(x1, 4) + s(x2, 5) + factor(f)", DATA, method="backfitting")
    summ = fit.summary()
    assert summ.term_names == ["s(x1, 4)", "s(x2, 5)", "factor(f)"]
    pa = summ.parametric_anova
    np.testing.assert_allclose(pa["Df"], ref["param_df"][:-1])
    np.testing.assert_allclose(pa["Sum Sq"], ref["param_ss"][:-1], rtol=1e-5)
    np.testing.assert_allclose(pa["F value"], ref["param_f"], rtol=1e-5)
    np.testing.assert_allclose(pa["Pr(>F)"], ref["param_p"], rtol=1e-4, atol=1e-40)
    np.testing.assert_allclose(summ.nonparametric_anova["Npar F"], ref["npar_stat"], rtol=1e-4)
    np.testing.assert_allclose(summ.edf, [4, 5, 2], atol=2e-4)
