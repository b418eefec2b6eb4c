"""Summaries of models fitted through formulas equal R's, character for character.

References: tests/reference/formula (``make_formula_reference.R``, ``make_offset_reference.R``,
R 4.2.2).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("formulaic")

from statlearning.formula import glm, lm

REF = Path(__file__).resolve().parents[1] / "reference" / "formula"


def _gapminder():
    return pd.read_csv(REF / "gapminder2011.csv")


def _binomial():
    return pd.read_csv(REF / "binomial.csv")


def _outcome():
    data = _binomial()
    data["outcome"] = np.where(data["s"] > data["f"], "yes", "no")
    return data


def _weighted():
    data = _gapminder()
    data["w"] = data["fertility"] / 2
    return data


CASES = {
    "lm_factor": lambda: lm("life_expectancy ~ fertility + continent", _gapminder()),
    "lm_interaction_poly": lambda: lm(
        "life_expectancy ~ fertility * continent + poly(infant_mortality, 2)", _gapminder()
    ),
    "lm_splines_missing": lambda: lm(
        "life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) + log(gdp)",
        _gapminder(),
    ),
    "lm_c_identity": lambda: lm(
        "life_expectancy ~ C(continent) + I(fertility^2) + fertility:infant_mortality",
        _gapminder(),
    ),
    "lm_no_intercept": lambda: lm(
        "life_expectancy ~ 0 + continent + infant_mortality", _gapminder()
    ),
    "lm_weighted": lambda: lm(
        "life_expectancy ~ infant_mortality + continent", _weighted(), weights="w"
    ),
    "glm_gaussian": lambda: glm("life_expectancy ~ fertility + continent", _gapminder()),
    "glm_gamma_log": lambda: glm(
        "life_expectancy ~ log(infant_mortality) + continent",
        _gapminder(),
        family="Gamma",
        link="log",
    ),
    "glm_cbind": lambda: glm("cbind(s, f) ~ x + grp", _binomial(), family="binomial"),
    "glm_cbind_probit": lambda: glm(
        "cbind(s, f) ~ x * grp", _binomial(), family="binomial", link="probit"
    ),
    "glm_poisson": lambda: glm("s ~ x + grp", _binomial(), family="poisson"),
    "glm_factor_response": lambda: glm("outcome ~ x + grp", _outcome(), family="binomial"),
    # make_offset_reference.R
    "glm_poisson_offset": lambda: glm(
        "s ~ x + grp + offset(log(s + f))", _binomial(), family="poisson"
    ),
    "lm_offset": lambda: lm(
        "life_expectancy ~ fertility + continent + offset(-0.2 * infant_mortality)", _gapminder()
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_summary_equals_r(case):
    expected = (REF / f"{case}.txt").read_text().split("\n")[:-1]  # writeLines ends with \n
    ours = str(CASES[case]().summary()).split("\n")
    assert ours == expected


def test_offset_predictions_use_the_new_offset():
    """R's ``predict`` on new rows evaluates ``offset(...)`` on them."""
    expected = pd.read_csv(REF / "offset_predictions.csv")
    new_binomial = pd.DataFrame(
        {"s": [3, 10, 0], "f": [7, 30, 50], "x": [-1, 0.5, 2], "grp": ["ctl", "trtA", "trtB"]}
    )
    new_gapminder = pd.DataFrame(
        {
            "fertility": [1.5, 3, 6],
            "infant_mortality": [3, 40, 100],
            "continent": ["Europe", "Asia", "Africa"],
        }
    )
    rate = CASES["glm_poisson_offset"]().predict(new_binomial)
    linear = CASES["lm_offset"]().predict(new_gapminder)
    np.testing.assert_allclose(rate, expected["prediction"][:3], rtol=1e-12)
    np.testing.assert_allclose(linear, expected["prediction"][3:], rtol=1e-12)
