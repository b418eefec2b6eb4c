"""GLMRegressor and deviance_table against R's glm and anova (tests/reference/glm)."""

from __future__ import annotations

import csv
import json
import warnings

import numpy as np
import pytest

from conftest import REFERENCE, as_float_array
from statlearning.exceptions import RankDeficientWarning
from statlearning.linear_model import GLMRegressor, LinearRegression, deviance_table

GLM_REF = json.loads((REFERENCE / "glm" / "glm_reference.json").read_text())
CASES = GLM_REF["cases"]
ANOVA_CASES = GLM_REF["anova_cases"]
FAMILY = {
    "gaussian": "gaussian",
    "binomial": "binomial",
    "poisson": "poisson",
    "Gamma": "gamma",
    "inverse.gaussian": "inverse_gaussian",
}
LINK = {"1/mu^2": "inverse_squared"}

# Observed agreement is ~1e-13; these bounds leave room for BLAS differences only.
RTOL = 1e-9
RTOL_P = 1e-8  # p-values in the far tails amplify relative differences


def _read(data_file, columns):
    pd = pytest.importorskip("pandas")
    with open(REFERENCE / "glm" / data_file, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return pd.DataFrame({c: [float(r[c]) for r in rows] for c in columns})


def _column(frame, name):
    return None if name is None else frame[name]


def _fit(ref, predictors=None):
    predictors = ref["predictors"] if predictors is None else predictors
    extra = [c for c in (ref["weights_column"], ref["offset_column"]) if c]
    frame = _read(ref["data_file"], [*predictors, ref["response"], *extra])
    model = GLMRegressor(
        family=FAMILY[ref["family"]],
        link=LINK.get(ref["link"], ref["link"]),
        fit_intercept=ref.get("intercept", True),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", RankDeficientWarning)
        model.fit(
            frame[predictors],
            frame[ref["response"]],  # a Series: the summary names the response
            sample_weight=_column(frame, ref["weights_column"]),
            offset=_column(frame, ref["offset_column"]),
        )
    return model, frame


def _close(actual, expected, rtol=RTOL, atol=0.0):
    expected = as_float_array(expected)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("case", CASES)
def test_coefficient_table_matches_r(case):
    ref = GLM_REF[case]
    model, _ = _fit(ref)
    table = model.summary().coef_table
    assert table.names == ref["coef_names"]
    assert table.statistic_name == ref["statistic_name"]
    np.testing.assert_array_equal(model.aliased_, np.array(ref["aliased"], dtype=bool))
    _close(model._full_coef(), ref["coefficients"])
    _close(model.bse_, ref["std_error"])
    _close(model.tvalues_, ref["statistic"])
    _close(model.pvalues_, ref["p_value"], rtol=RTOL_P)
    vcov = as_float_array(ref["vcov"])
    scale = np.nanmax(np.abs(vcov))
    _close(model.cov_params_, ref["vcov"], atol=1e-12 * scale)


@pytest.mark.parametrize("case", CASES)
def test_fit_statistics_match_r(case):
    ref = GLM_REF[case]
    model, _ = _fit(ref)
    assert (model.rank_, model.n_obs_) == (ref["rank"], ref["n_obs"])
    assert (model.df_resid_, model.df_null_) == (ref["df_residual"], ref["df_null"])
    # Same algorithm as glm.fit (its convergence rule and step halving): same iteration count.
    assert model.n_iter_ == ref["iter"]
    assert ref["converged"] and not ref["boundary"]
    for ours, key in [
        (model.deviance_, "deviance"),
        (model.null_deviance_, "null_deviance"),
        (model.dispersion_, "dispersion"),
        (model.aic_, "aic"),
        (model.bic_, "bic"),
        (model.loglik_, "loglik"),
    ]:
        _close(ours, ref[key])
    stats = model.summary().stats
    assert stats["loglik_df"] == ref["loglik_df"]
    _close(model.summary().residual_quantiles, ref["deviance_residual_quantiles"], atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_predictions_match_r(case):
    ref = GLM_REF[case]
    model, frame = _fit(ref)
    head = frame.iloc[:5]
    offset = _column(head, ref["offset_column"])
    _close(model.predict(head[ref["predictors"]], offset=offset), ref["predict_response"])


def _r_block(text, start_prefix, stop_prefix):
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(start_prefix)) + 1
    stop = next(i for i, line in enumerate(lines) if line.startswith(stop_prefix))
    return [line.rstrip() for line in lines[start:stop]]


@pytest.mark.parametrize("case", CASES)
def test_printed_coefficients_match_r(case):
    """Our coefficient block prints exactly as R's summary(glm) does."""
    ref = GLM_REF[case]
    model, _ = _fit(ref)
    ours = [line.rstrip() for line in str(model.summary().coef_table).splitlines()]
    expected = _r_block(ref["summary_text"], "Coefficients:", "Signif. codes")
    assert ours[: len(expected)] == expected


@pytest.mark.parametrize("case", CASES)
def test_printed_footer_matches_r(case):
    """Dispersion, deviances, AIC and iterations print as R's print.summary.glm."""
    ref = GLM_REF[case]
    model, _ = _fit(ref)
    ours = str(model.summary()).splitlines()
    expected = _r_block(ref["summary_text"], "Signif. codes", "Number of Fisher")
    n = len(expected)
    start = next(i for i, line in enumerate(ours) if line.startswith("(Dispersion"))
    assert [line.rstrip() for line in ours[start - 1 : start - 1 + n]] == expected
    assert f"Number of Fisher Scoring iterations: {ref['iter']}" in ours


# --- anova ----------------------------------------------------------------------------------


def _anova_models(spec):
    if spec["kind"] == "lm":
        out = []
        for predictors in spec["models"]:
            frame = _read(spec["data_file"], [*predictors, spec["response"]])
            y = frame[spec["response"]]
            out.append(LinearRegression().fit(frame[predictors], y))
        return out
    ref = GLM_REF[spec["case"]]
    return [_fit(ref, predictors)[0] for predictors in spec["models"]]


@pytest.mark.parametrize("case", ANOVA_CASES)
def test_deviance_table_matches_r_anova(case):
    spec = GLM_REF["anova"][case]
    models = _anova_models(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = deviance_table(*models, test=spec["test"])
    assert table.columns == spec["columns"]
    expected = as_float_array(spec["table"])
    np.testing.assert_allclose(table.values, expected, rtol=RTOL_P, atol=0, equal_nan=True)
    frame = table.to_frame()
    assert list(frame.columns) == spec["columns"]
    assert list(frame.index) == list(range(1, len(models) + 1))


@pytest.mark.parametrize("case", ANOVA_CASES)
def test_deviance_table_prints_like_r(case):
    spec = GLM_REF["anova"][case]
    models = _anova_models(spec)
    ours = [line.rstrip() for line in str(deviance_table(*models, test=spec["test"])).split("\n")]
    expected = [line.rstrip() for line in spec["text"].splitlines()]
    assert ours == expected
