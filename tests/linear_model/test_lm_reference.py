"""LinearRegression against R's lm on committed fixtures (tests/reference/lm)."""

from __future__ import annotations

import csv
import warnings

import numpy as np
import pytest

from conftest import LM_CASES, REFERENCE, as_float_array
from statlearning.exceptions import RankDeficientWarning
from statlearning.linear_model import LinearRegression

RTOL = 1e-8
CASES = LM_CASES


def _read_case(ref):
    """The case's data as R read it; X as a DataFrame so the terms carry R's names."""
    pd = pytest.importorskip("pandas")
    with open(REFERENCE / "lm" / ref["data_file"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = pd.DataFrame({c: [float(r[c]) for r in rows] for c in ref["predictors"]})
    y = np.array([float(r[ref["response"]]) for r in rows])
    w = None
    if ref["weights_column"]:
        w = np.array([float(r[ref["weights_column"]]) for r in rows])
    return X, y, w


def pd_frame(values, columns):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(values, columns=columns)


def _fit(ref, solver="qr"):
    X, y, w = _read_case(ref)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        model = LinearRegression(fit_intercept=ref["intercept"], solver=solver)
        return model.fit(X, y, sample_weight=w)


def _close(actual, expected, rtol=RTOL):
    expected = as_float_array(expected)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("case", CASES)
def test_coefficient_table_matches_r(lm_reference, case):
    ref = lm_reference[case]
    model = _fit(ref)
    table = model.summary()
    assert table.coef_table.names == ref["coef_names"]
    _close(model._full_coef(), ref["coefficients"])
    _close(model.bse_, ref["std_error"])
    _close(model.tvalues_, ref["t_value"])
    # p-values below ~1e-300 underflow differently; compare on the log scale where tiny
    _close(model.pvalues_, ref["p_value"], rtol=1e-7)
    np.testing.assert_array_equal(model.aliased_, np.array(ref["aliased"], dtype=bool))
    _close(model.cov_params_, ref["vcov"])
    frame_low = table.coef_table.conf_low
    frame_high = table.coef_table.conf_high
    ci = as_float_array(ref["confint_95"])
    _close(frame_low, ci[:, 0])
    _close(frame_high, ci[:, 1])
    ci90 = as_float_array(ref["confint_90"])
    t90 = model.summary(level=0.90).coef_table
    _close(t90.conf_low, ci90[:, 0])
    _close(t90.conf_high, ci90[:, 1])


@pytest.mark.parametrize("case", CASES)
def test_fit_statistics_match_r(lm_reference, case):
    ref = lm_reference[case]
    model = _fit(ref)
    assert model.rank_ == ref["rank"]
    assert model.df_resid_ == ref["df_residual"]
    assert model.n_obs_ == ref["n_obs"]
    _close(model.sigma_, ref["sigma"])
    _close(model.r_squared_, ref["r_squared"])
    _close(model.adj_r_squared_, ref["adj_r_squared"])
    fvalue, numdf, dendf = ref["fstatistic"]
    _close(model.f_statistic_, fvalue)
    assert (model.df_model_, model.df_resid_) == (numdf, dendf)
    _close(model.f_pvalue_, ref["f_pvalue"], rtol=1e-7)
    _close(model.loglik_, ref["loglik"])
    _close(model.aic_, ref["aic"])
    _close(model.bic_, ref["bic"])
    _close(model.rss_, ref["deviance"])
    stats = model.summary().stats
    assert stats["loglik_df"] == ref["loglik_df"]
    _close(model.summary().residual_quantiles, ref["residual_quantiles"], rtol=1e-7)


@pytest.mark.parametrize("case", CASES)
def test_intervals_match_r(lm_reference, case):
    ref = lm_reference[case]
    model = _fit(ref)
    newX = pd_frame(as_float_array(ref["newdata"]), ref["predictors"])
    fit, lo, hi = model.predict_interval(newX, kind="confidence", level=0.95)
    _close(fit, ref["predict_fit"])
    _close(model.predict(newX), ref["predict_fit"])
    conf = as_float_array(ref["confidence_95"])
    _close(lo, conf[:, 0])
    _close(hi, conf[:, 1])
    for key, level in (("prediction_95", 0.95), ("prediction_90", 0.90)):
        _, lo, hi = model.predict_interval(newX, kind="prediction", level=level)
        pred = as_float_array(ref[key])
        _close(lo, pred[:, 0])
        _close(hi, pred[:, 1])


@pytest.mark.parametrize("case", CASES)
def test_printed_coefficients_match_r(lm_reference, case):
    """Our coefficient block prints exactly as R's summary(lm) does."""
    ref = lm_reference[case]
    model = _fit(ref)
    ours = str(model.summary().coef_table).splitlines()
    r_lines = ref["summary_text"].splitlines()
    start = next(i for i, line in enumerate(r_lines) if line.startswith("Coefficients:")) + 1
    stop = next(i for i, line in enumerate(r_lines) if line.startswith("Signif. codes"))
    expected = [line.rstrip() for line in r_lines[start:stop]]
    assert [line.rstrip() for line in ours[: len(expected)]] == expected


@pytest.mark.parametrize("case", CASES)
def test_printed_footer_matches_r(lm_reference, case):
    ref = lm_reference[case]
    text = str(_fit(ref).summary())
    for line in ref["summary_text"].splitlines():
        if line.startswith(("Residual standard error", "Multiple R-squared", "F-statistic")):
            assert line.rstrip() in text


@pytest.mark.parametrize("solver", ["normal", "gd"])
@pytest.mark.parametrize("case", ["rank_deficient", "weighted", "gapminder2011"])
def test_other_solvers_match_r_on_identifiable_fits(lm_reference, case, solver):
    ref = lm_reference[case]
    model = _fit(ref, solver=solver)
    _close(model._full_coef(), ref["coefficients"], rtol=1e-7)
    _close(model.bse_, ref["std_error"], rtol=1e-8)
    np.testing.assert_array_equal(model.aliased_, np.array(ref["aliased"], dtype=bool))
