"""``method="backfitting"`` of GAMRegressor/GAMClassifier against R's gam package
(tests/reference/gam_backfit: fits, predictions and ``summary(gam::gam)``)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.gam import GAMClassifier, GAMRegressor, f, l, lo, s, ss
from statlearning.gam._terms import LinearTerm, SmoothingSplineTerm

HERE = REFERENCE / "gam_backfit"
REF = json.loads((HERE / "gam_backfit_reference.json").read_text())
SUMMARY = json.loads((HERE / "gam_backfit_summary.json").read_text())
DATA = pd.read_csv(HERE / "data_gam.csv").assign(fac=lambda d: d.f.astype(str))
SMALL = pd.read_csv(HERE / "data_small.csv")
COLS = ["x1", "x2", "fac"]
NEW = pd.DataFrame(
    {"x1": REF["new_x1"], "x2": REF["new_x2"], "fac": [str(v) for v in REF["new_f"]]}
)
NEW_LO = NEW.iloc[1:5].assign(x1=[0.5, 2.5, 5.55, 8.0])

#: case -> (data, terms, response, family, weight column) as the R script's formulas
CASES = {
    "gaussian": (DATA, [ss("x1", 4), l("x2")], "y", "gaussian", None),
    "gaussian_two": (DATA, [ss("x1", 4), ss("x2", 5), f("fac")], "y", "gaussian", None),
    "gaussian_weighted": (DATA, [ss("x1", 6), l("x2")], "y", "gaussian", "w"),
    "gaussian_small": (SMALL, [ss("x1", 3), l("x2")], "y", "gaussian", None),
    "binomial": (DATA, [ss("x1", 4), l("x2")], "yb", "binomial", None),
    "poisson": (DATA, [ss("x1", 4), ss("x2", 3)], "yc", "poisson", None),
    "loess": (DATA, [lo("x1", span=0.5), l("x2")], "y", "gaussian", None),
    "loess_mixed": (
        DATA, [lo("x1", span=0.3, degree=2), ss("x2", 4), f("fac")], "y", "gaussian", None,
    ),
}  # fmt: skip


def _fit(case):
    data, terms, resp, family, wcol = CASES[case]
    X = data[[c for c in COLS if c in data]]
    w = None if wcol is None else data[wcol]
    model = GAMRegressor(terms, family=family, method="backfitting")
    return model.fit(X, data[resp], sample_weight=w), X


@pytest.mark.parametrize("case", sorted(CASES))
def test_fitted_values_match_gam(case):
    ref = REF["cases"][case]
    model, X = _fit(case)
    # lo() terms: the brief allows 5 % of the response SD; the engine reproduces the surface
    np.testing.assert_allclose(model.predict(X), ref["fitted"], rtol=0, atol=1e-4)
    assert model.intercept_ == pytest.approx(ref["constant"], abs=1e-6)
    terms = np.column_stack([model.partial_dependence(k, X)[0] for k in range(len(model.edf_))])
    np.testing.assert_allclose(terms, np.array(ref["terms"]).T, rtol=0, atol=1e-4)
    assert model.partial_dependence(0, X)[1] is None
    assert model.deviance_ == pytest.approx(ref["deviance"], rel=1e-6)
    assert model.df_resid_ == pytest.approx(ref["df_residual"], abs=1e-6)
    dev0 = ref["null_deviance"]
    assert model.deviance_explained_ == pytest.approx((dev0 - ref["deviance"]) / dev0, abs=1e-6)
    # gam's convention: a smoother's df is its linear part plus nl.df (s(x, df) has about df)
    smooth = [k for k, t in enumerate(CASES[case][1]) if t.kind in ("ss", "lo")]
    np.testing.assert_allclose(
        np.sort(model.edf_[smooth] - 1 - np.array([t.kind == "lo" and t.degree == 2
                                                   for t in CASES[case][1]])[smooth]),
        np.sort(np.atleast_1d(ref["nl_df"])), atol=1e-8,
    )  # fmt: skip


@pytest.mark.parametrize("case", ["gaussian", "gaussian_two", "binomial", "poisson", "loess"])
def test_predictions_at_new_rows_match_gam(case):
    ref = REF["cases"][case]
    model, X = _fit(case)
    new = (NEW_LO if case.startswith("loess") else NEW)[X.columns]
    # gam's predict refits its splines at the last spar its search tried (see
    # test_backfitting.py): 1e-3 for splines, the surface itself for lo()
    tol = 1e-6 if case.startswith("loess") else 1e-3
    link = model.intercept_ + sum(
        model.partial_dependence(k, new)[0] for k in range(len(model.edf_))
    )
    np.testing.assert_allclose(link, ref["new_link"], atol=tol)
    inv = {"gaussian": lambda v: v, "binomial": lambda v: 1 / (1 + np.exp(-v)), "poisson": np.exp}
    np.testing.assert_allclose(model.predict(new), inv[model.family_](link), rtol=1e-12)


@pytest.mark.parametrize("case", sorted(SUMMARY["cases"]))
def test_summary_matches_gam(case):
    ref = SUMMARY["cases"][case]
    model, _ = _fit(case)
    summ = model.summary()
    assert model.aic_ == pytest.approx(ref["aic"], rel=1e-6)
    assert model.scale_ == pytest.approx(ref["dispersion"], rel=1e-6)
    pa = summ.parametric_anova
    np.testing.assert_allclose(pa["Df"], ref["param_df"][:-1])
    np.testing.assert_allclose(pa["Sum Sq"], ref["param_ss"][:-1], rtol=1e-5)
    assert summ.residual_row[1] == pytest.approx(ref["param_ss"][-1], rel=1e-6)
    np.testing.assert_allclose(pa["F value"], ref["param_f"], rtol=1e-5)
    np.testing.assert_allclose(pa["Pr(>F)"], ref["param_p"], rtol=1e-4, atol=1e-12)
    na = list(summ.nonparametric_anova.values())
    np.testing.assert_allclose(na[0], np.atleast_1d(ref["npar_df"]), atol=1e-8)
    np.testing.assert_allclose(na[1], np.atleast_1d(ref["npar_stat"]), rtol=1e-4)
    np.testing.assert_allclose(na[2], np.atleast_1d(ref["npar_p"]), rtol=1e-3, atol=1e-10)
    text = str(summ)
    for line in ("Anova for Parametric Effects", "Anova for Nonparametric Effects", "AIC: "):
        assert line in text
    assert summ.term_names[0] in text and text.startswith("Formula: y")


def test_classifier_is_the_binomial_fit():
    ref = REF["cases"]["binomial"]
    labels = np.where(DATA.yb == 1, "yes", "no")
    clf = GAMClassifier([ss("x1", 4), l("x2")], method="backfitting").fit(
        DATA[["x1", "x2"]], labels
    )
    np.testing.assert_allclose(
        clf.predict_proba(DATA[["x1", "x2"]])[:, 1], ref["fitted"], atol=1e-4
    )
    np.testing.assert_allclose(clf.decision_function(DATA[["x1", "x2"]]), ref["eta"], atol=1e-4)
    assert "Npar Chisq" in str(clf.summary())


def test_auto_terms_use_smoothing_splines():
    model = GAMRegressor(method="backfitting").fit(DATA[["x1", "x2", "fac"]], DATA.y)
    kinds = [type(t) for t in model.terms_]
    assert kinds[:2] == [SmoothingSplineTerm, SmoothingSplineTerm] and model.terms_[0].df == 4
    few = GAMRegressor(method="backfitting").fit(
        np.c_[np.arange(40) % 4, DATA.x1[:40]], DATA.y[:40]
    )
    assert isinstance(model.terms_[2], type(f(0))) and isinstance(few.terms_[0], LinearTerm)


def test_backfitting_errors():
    X = DATA[COLS]
    with pytest.raises(ValueError, match=r"takes ss\(\), lo\(\), l\(\) and f\(\)"):
        GAMRegressor([s("x1")], method="backfitting").fit(X, DATA.y)
    model = GAMRegressor([ss("x1"), f("fac")], method="backfitting").fit(X, DATA.y)
    with pytest.raises(ValueError, match="GAMRegressor: column 'fac' has level"):
        model.predict(NEW.assign(fac="9"))
    with pytest.raises(ValueError, match=r"GAMRegressor: .*unique values"):
        GAMRegressor([ss(0)], method="backfitting").fit(np.c_[np.arange(30) % 3], np.arange(30.0))
    with pytest.raises(ValueError, match="unknown term"):
        model.partial_dependence("lo(x1)", X)
    num = GAMRegressor([ss(0), f(1)], method="backfitting").fit(X[["x1"]].assign(g=DATA.f), DATA.y)
    with pytest.raises(ValueError, match=r"GAMRegressor: column 1 .*unseen"):
        num.predict(pd.DataFrame({"x1": [1.0], "g": [7.0]}))


@pytest.mark.parametrize("seed", range(6))
def test_backfitting_fuzz(seed):
    """Random shapes, scales, ties and weights: a finite fit, or a clear error."""
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(8, 80)), int(rng.integers(1, 4))
    X = rng.normal(size=(n, p)) * 10.0 ** rng.integers(-6, 7, size=p)
    if seed % 2:
        X[:, 0] = np.round(X[:, 0], 0 if seed % 3 else 8)  # ties
    w = rng.integers(0, 4, size=n).astype(float) if seed % 3 == 0 else None
    family = ["gaussian", "poisson", "binomial"][seed % 3]
    eta = np.tanh(X[:, 0] / (np.std(X[:, 0]) + 1e-300))
    y = {
        "gaussian": eta + rng.normal(size=n),
        "poisson": rng.poisson(np.exp(eta)).astype(float),
        "binomial": (rng.uniform(size=n) < 1 / (1 + np.exp(-eta))).astype(float),
    }[family]
    model = GAMRegressor(family=family, method="backfitting")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X, y, sample_weight=w)
    except ValueError as exc:
        assert str(exc).startswith("GAMRegressor:")
        return
    pred = model.predict(X)
    assert pred.shape == (n,) and np.all(np.isfinite(pred))
    assert np.all(np.isfinite(model.edf_)) and str(model.summary())
