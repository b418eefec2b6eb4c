"""Leverages, standardised residuals and Cook's distances against R's lm."""

import json
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from statlearning.inference import influence_measures
from statlearning.linear_model import LinearRegression

REF = Path(__file__).resolve().parents[1] / "reference"
R = json.loads((REF / "influence" / "influence_reference.json").read_text())


def _case(name):
    if name == "mtcars":
        d = pd.read_csv(REF / "lm" / "mtcars.csv")
        return d[["wt", "hp", "qsec", "drat"]].to_numpy(), d["mpg"].to_numpy(), True
    if name == "mtcars_no_intercept":
        d = pd.read_csv(REF / "lm" / "mtcars.csv")
        return d[["wt", "hp"]].to_numpy(), d["mpg"].to_numpy(), False
    d = pd.read_csv(REF / "lm" / "rank_deficient.csv")
    return d.drop(columns="mpg").to_numpy(), d["mpg"].to_numpy(), True


@pytest.mark.parametrize("name", ["mtcars", "mtcars_no_intercept", "rank_deficient"])
def test_matches_r(name):
    X, y, intercept = _case(name)
    with pytest.warns(UserWarning) if name == "rank_deficient" else nullcontext():
        fit = LinearRegression(fit_intercept=intercept).fit(X, y)
    resid = y - fit.predict(X)
    ref = R[name]
    np.testing.assert_allclose(resid, ref["residuals"], rtol=1e-9, atol=1e-10)
    infl = influence_measures(X, resid, fit_intercept=intercept)
    assert infl.rank == ref["rank"]
    np.testing.assert_allclose(infl.hat, ref["hat"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(infl.std_residuals, ref["rstandard"], rtol=1e-9)
    np.testing.assert_allclose(infl.cooks_distance, ref["cooks"], rtol=1e-9)
    assert infl.sigma == pytest.approx(ref["sigma"], rel=1e-12)
    assert infl.df_resid == len(y) - ref["rank"]


def test_unit_leverage_is_nan():
    X = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 1.0]])
    infl = influence_measures(X, np.array([0.1, -0.2, 0.1, 0.0]))
    assert infl.hat[3] == pytest.approx(1.0)
    assert np.isnan(infl.std_residuals[3]) and np.isnan(infl.cooks_distance[3])
    assert np.all(np.isfinite(infl.std_residuals[:3]))


def test_bad_input():
    with pytest.raises(ValueError, match="one row per residual"):
        influence_measures(np.ones((3, 1)), np.ones(4))
    with pytest.raises(ValueError, match="finite"):
        influence_measures(np.array([[1.0], [np.nan], [2.0]]), np.ones(3))
    with pytest.raises(ValueError, match="no residual degrees of freedom"):
        influence_measures(np.array([[1.0], [2.0]]), np.ones(2))
