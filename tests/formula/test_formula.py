"""Formulas: R's names and deparsing, prediction through the stored formula, errors."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("formulaic")

from sklearn.pipeline import make_pipeline

from statlearning.exceptions import RankDeficientWarning
from statlearning.formula import FormulaTransformer, glm, lm, register_transform
from statlearning.formula._deparse import deparse, deparse_call, parse
from statlearning.linear_model import GLMRegressor, LinearRegression, LogisticRegression

REF = Path(__file__).resolve().parents[1] / "reference" / "formula"


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    d = pd.DataFrame(
        {
            "x1": rng.uniform(0, 1, n),
            "x2": rng.uniform(1, 3, n),
            "g": rng.choice(["A", "B", "C"], n),
        }
    )
    d["y"] = 1 + 2 * d.x1 + np.sin(2 * d.x2) + (d.g == "B") + 0.3 * rng.standard_normal(n)
    return d


# --- R's deparse --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("y~x1+x2", "y ~ x1 + x2"),
        ("y ~ a*b + c/d + e:f + g^2", "y ~ a * b + c/d + e:f + g^2"),
        ("y ~ bs(x2, df=4)", "y ~ bs(x2, df = 4)"),
        ("~ I(x**2) + log(x, base=2)", "~I(x^2) + log(x, base = 2)"),
        (
            "y ~ ns(x, knots=[.3, .6]) + poly(x, 2, raw=True)",
            "y ~ ns(x, knots = c(0.3, 0.6)) + poly(x, 2, raw = TRUE)",
        ),
        (
            "y ~ I(1e5 * x) + I(x == 'a') - 1 + `my var`",
            'y ~ I(1e+05 * x) + I(x == "a") - 1 + `my var`',
        ),
    ],
)
def test_deparse_as_r(text, expected):
    assert deparse(text) == expected


def test_call_lines_break_as_r():
    # R 4.2.2: print(quote(lm(formula = y ~ x1 + ... + x20, data = data, weights = w)))
    rhs = " + ".join(f"x{k}" for k in range(1, 21))
    call = deparse_call(
        "lm", [("formula", parse(f"y ~ {rhs}")), ("data", "data"), ("weights", "w")]
    )
    assert call.split("\n") == [
        "lm(formula = y ~ x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + ",
        "    x10 + x11 + x12 + x13 + x14 + x15 + x16 + x17 + x18 + x19 + ",
        "    x20, data = data, weights = w)",
    ]


def test_unreadable_formula_is_an_error():
    with pytest.raises(ValueError, match="cannot read the formula"):
        lm("y ~ x1 +* ", _data())
    with pytest.raises(ValueError, match="cannot read the formula"):
        lm("y ~ x1 $ 2", _data())


# --- names --------------------------------------------------------------------------------------


def test_r_coefficient_names():
    with pytest.warns(RankDeficientWarning, match=r"C.g.B, C.g.C"):
        fit = lm("y ~ x1 * g + C(g) + poly(x2, 2) + I(x1^2) + log(x2) + ns(x2, df=2)", _data())
    names = list(fit.summary().to_frame().index)
    assert names == [
        "(Intercept)", "x1", "gB", "gC", "C(g)B", "C(g)C", "poly(x2, 2)1", "poly(x2, 2)2",
        "I(x1^2)", "log(x2)", "ns(x2, df = 2)1", "ns(x2, df = 2)2", "x1:gB", "x1:gC",
    ]  # fmt: skip
    assert np.isnan(fit.coef_[list(fit.feature_names_in_).index("C(g)B")])  # aliased with gB


def test_levels_follow_categorical_order_and_booleans():
    d = _data()
    d["g"] = pd.Categorical(d["g"], categories=["C", "A", "B"])
    d["flag"] = d["x1"] > 0.5
    fit = lm("y ~ g + flag", d)
    assert list(fit.feature_names_in_) == ["gA", "gB", "flagTRUE"]


def test_dot_is_every_other_column():
    d = _data()
    fit = lm("y ~ .", d)
    assert list(fit.feature_names_in_) == ["x1", "x2", "gB", "gC"]
    assert fit.call == "lm(formula = y ~ ., data = data)"


# --- prediction ---------------------------------------------------------------------------------


def _gapminder():
    return pd.read_csv(REF / "gapminder2011.csv")


@pytest.mark.parametrize(
    ("case", "formula"),
    [
        (
            "lm_splines_missing",
            "life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) + log(gdp)",
        ),
        (
            "lm_interaction_poly",
            "life_expectancy ~ fertility * continent + poly(infant_mortality, 2)",
        ),
    ],
)
def test_predictions_at_new_points_equal_r(case, formula):
    ref = pd.read_csv(REF / "predictions.csv")
    fit = lm(formula, _gapminder())
    new = ref[["gdp", "continent", "fertility", "infant_mortality"]].assign(extra="ignored")
    np.testing.assert_allclose(fit.predict(new), ref[case], rtol=1e-10)


def test_new_data_errors_name_the_column_and_level():
    fit = lm("y ~ x1 + g + bs(x2, df=4)", _data())
    new = _data(5, seed=1)
    with pytest.raises(ValueError, match="'x2' missing from the new data"):
        fit.predict(new.drop(columns="x2"))
    with pytest.raises(ValueError, match=r"column 'g' has level.*'D'.*fitted levels are 'A'"):
        fit.predict(new.assign(g=["A", "D", "B", "C", "A"]))
    with pytest.raises(ValueError, match="column 'x1' contains NaN"):
        fit.predict(new.assign(x1=[0.1, np.nan, 0.2, 0.3, 0.4]))


def test_formula_transformer_in_a_pipeline_equals_lm():
    d = _data()
    fit = lm("y ~ x1 * g + bs(x2, df=4)", d)
    pipe = make_pipeline(FormulaTransformer("y ~ x1 * g + bs(x2, df=4)"), LinearRegression())
    pipe.fit(d, d["y"])
    np.testing.assert_allclose(pipe[-1].coef_, fit.coef_, rtol=1e-10)
    new = _data(7, seed=3)
    np.testing.assert_allclose(pipe.predict(new), fit.predict(new), rtol=1e-10)
    frame = FormulaTransformer("~ x1:g").set_output(transform="pandas").fit_transform(d)
    assert list(frame.columns) == ["x1:gA", "x1:gB", "x1:gC"]
    terms = FormulaTransformer("~ x1 * g + bs(x2, df=3)").fit(d).term_columns_
    assert terms == {
        "x1": ["x1"],
        "g": ["gB", "gC"],
        "bs(x2, df = 3)": ["bs(x2, df = 3)1", "bs(x2, df = 3)2", "bs(x2, df = 3)3"],
        "x1:g": ["x1:gB", "x1:gC"],
    }


def test_interval_and_summary_delegate():
    d = _data()
    fit = lm("y ~ x1 + g", d)
    est = LinearRegression().fit(fit.design(d), d["y"])
    np.testing.assert_allclose(fit.coef_, est.coef_)
    got = fit.predict_interval(d.head(3), kind="prediction")
    want = est.predict_interval(fit.design(d.head(3)), kind="prediction")
    np.testing.assert_allclose(got, want)
    assert fit.summary().formula == "y ~ x1 + g"


# --- glm ----------------------------------------------------------------------------------------


def test_cbind_is_proportions_with_trials_as_weights():
    rng = np.random.default_rng(4)
    d = pd.DataFrame({"x": np.linspace(-1, 1, 20)})
    n = rng.integers(5, 15, 20)
    d["s"] = rng.binomial(n, 1 / (1 + np.exp(-d["x"])))
    d["f"] = n - d["s"]
    d.loc[3, ["s", "f"]] = 0  # no trials: weight 0, as R
    fit = glm("cbind(s, f) ~ x", d, family="binomial")
    assert isinstance(fit.estimator, GLMRegressor)
    direct = GLMRegressor(family="binomial").fit(
        d[["x"]],
        np.where(n > 0, d["s"] / np.maximum(d["s"] + d["f"], 1), 0),
        sample_weight=d["s"] + d["f"],
    )
    np.testing.assert_allclose(fit.coef_, direct.coef_, rtol=1e-10)
    assert fit.n_obs_ == 19


def test_factor_response_is_logistic_regression():
    d = _data()
    d["high"] = np.where(d["y"] > d["y"].median(), "yes", "no")
    fit = glm("high ~ x1 + g", d, family="binomial")
    assert isinstance(fit.estimator, LogisticRegression)
    assert list(fit.classes_) == ["no", "yes"]
    assert fit.predict_proba(d.head(2)).shape == (2, 2)
    probit = glm("high ~ x1 + g", d, family="binomial", link="probit")
    assert isinstance(probit.estimator, GLMRegressor)
    assert probit.call == (
        'glm(formula = high ~ x1 + g, family = binomial(link = "probit"), \n    data = data)'
    )


def test_offset_and_weights_columns_in_the_call():
    d = _data()
    d["count"] = np.round(np.exp(d["x1"]) * 3)
    d["t"] = np.log(d["x2"])
    d["w"] = 1.0
    fit = glm("count ~ x1", d, family="poisson", weights="w", offset="t")
    assert fit.call == (
        "glm(formula = count ~ x1, family = poisson, data = data, weights = w, \n    offset = t)"
    )
    direct = GLMRegressor(family="poisson").fit(d[["x1"]], d["count"], offset=d["t"])
    np.testing.assert_allclose(fit.coef_, direct.coef_, rtol=1e-10)
    new = d.head(4)
    np.testing.assert_allclose(
        fit.predict(new), direct.predict(new[["x1"]], offset=new["t"]), rtol=1e-12
    )
    with pytest.raises(ValueError, match=r"'t' .the offset. missing"):
        fit.predict(new.drop(columns="t"))


def test_missing_rows_are_dropped_jointly():
    d = _data()
    d.loc[[1, 2], "y"] = np.nan
    d.loc[5, "x2"] = np.nan
    fit = lm("y ~ x1 + bs(x2, df=3)", d)
    assert fit.n_obs_ == len(d) - 3
    assert "(3 observations deleted due to missingness)" in str(fit.summary())


def test_errors_name_the_problem():
    d = _data()
    with pytest.raises(ValueError, match="needs a response"):
        lm("~ x1", d)
    with pytest.raises(ValueError, match="reads column 'x9', not in the data"):
        lm("y ~ x9", d)
    with pytest.raises(ValueError, match="no column 'ww'"):
        lm("y ~ x1", d, weights="ww")
    with pytest.raises(TypeError, match="DataFrame"):
        lm("y ~ x1", d.to_numpy())
    with pytest.raises(ValueError, match="family"):
        glm("y ~ x1", d, family="binomal")


def test_registered_transform_is_stateful():
    def centre(x, _state=None):
        if "mean" not in _state:
            _state["mean"] = float(np.mean(x))
        return np.asarray(x, dtype=float) - _state["mean"]

    register_transform("centre", centre)
    d = _data()
    t = FormulaTransformer("~ centre(x1)").fit(d)
    np.testing.assert_allclose(t.transform(d.head(1))[0, 0], d.x1[0] - d.x1.mean())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(t.get_feature_names_out()) == ["centre(x1)"]
