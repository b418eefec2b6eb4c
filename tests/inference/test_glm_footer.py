"""The summary(glm) footer of Summary(kind="glm")."""

from __future__ import annotations

import numpy as np

from statlearning.inference import CoefTable, Summary

STATS = {
    "family": "Gamma",
    "dispersion": 0.002446059,
    "null_deviance": 3.51283,
    "df_null": 8,
    "deviance": 0.016730,
    "df_resid": 7,
    "aic": 37.99,
    "n_iter": 3,
}


def _text(**changes):
    table = CoefTable.from_estimates(["(Intercept)"], [1.0], [0.5], df=7)
    return Summary(coef_table=table, stats={**STATS, **changes}, kind="glm").to_text()


def test_footer_prints_as_r():
    lines = _text().splitlines()
    start = lines.index("(Dispersion parameter for Gamma family taken to be 0.002446059)")
    assert lines[start:] == [
        "(Dispersion parameter for Gamma family taken to be 0.002446059)",
        "",
        "    Null deviance: 3.51283  on 8  degrees of freedom",
        "Residual deviance: 0.01673  on 7  degrees of freedom",
        "AIC: 37.99",
        "",
        "Number of Fisher Scoring iterations: 3",
    ]


def test_degrees_of_freedom_are_right_aligned_and_nan_dispersion_prints_nan():
    text = _text(df_null=120, df_resid=7, dispersion=np.nan)
    assert "taken to be NaN)" in text
    assert "on 120  degrees" in text and "on   7  degrees" in text


def test_optional_lines_are_left_out():
    stats = {k: v for k, v in STATS.items() if k not in ("aic", "n_iter")}
    table = CoefTable.from_estimates(["(Intercept)"], [1.0], [0.5])
    text = Summary(coef_table=table, stats=stats, kind="glm").to_text()
    assert "AIC" not in text and "Fisher Scoring" not in text
    assert text.splitlines()[-1].startswith("Residual deviance:")
