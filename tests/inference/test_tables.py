"""``CoefTable`` and ``Summary``: statistics, text, HTML and pandas output."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scipy import stats

from conftest import LM_CASES, as_float_array
from statlearning.inference import CoefTable, Summary
from statlearning.linear_model import LinearRegression

pd = pytest.importorskip("pandas")

FRAME_COLUMNS = ["estimate", "std_error", "statistic", "p_value", "conf_low", "conf_high"]
NAMES = ["(Intercept)", "x0", "x1", "x2"]
EST = np.array([1.5, -0.25, 3.0, np.nan])
SE = np.array([0.5, 0.2, 0.1, np.nan])


@pytest.mark.parametrize("level", [0.95, 0.9, 0.5])
@pytest.mark.parametrize("df", [3, 12.5, 1000])
def test_from_estimates_t(df, level):
    table = CoefTable.from_estimates(NAMES, EST, SE, df=df, level=level)
    assert table.statistic_name == "t value"
    assert table.p_name == "Pr(>|t|)"
    assert table.df == float(df)
    assert table.level == level
    ok = slice(0, 3)
    t = EST[ok] / SE[ok]
    np.testing.assert_allclose(table.statistic[ok], t, rtol=1e-15)
    np.testing.assert_allclose(table.p_value[ok], 2 * stats.t.sf(np.abs(t), df), rtol=1e-12)
    q = stats.t.ppf(1 - (1 - level) / 2, df)
    np.testing.assert_allclose(table.conf_low[ok], EST[ok] - q * SE[ok], rtol=1e-12)
    np.testing.assert_allclose(table.conf_high[ok], EST[ok] + q * SE[ok], rtol=1e-12)
    for column in FRAME_COLUMNS:
        assert np.isnan(getattr(table, column)[3]), column


@pytest.mark.parametrize("level", [0.95, 0.99])
def test_from_estimates_z(level):
    table = CoefTable.from_estimates(NAMES, EST, SE, level=level)
    assert table.statistic_name == "z value"
    assert table.p_name == "Pr(>|z|)"
    assert table.df is None
    ok = slice(0, 3)
    z = EST[ok] / SE[ok]
    np.testing.assert_allclose(table.p_value[ok], 2 * stats.norm.sf(np.abs(z)), rtol=1e-12)
    q = stats.norm.ppf(1 - (1 - level) / 2)
    np.testing.assert_allclose(table.conf_low[ok], EST[ok] - q * SE[ok], rtol=1e-12)
    np.testing.assert_allclose(table.conf_high[ok], EST[ok] + q * SE[ok], rtol=1e-12)
    assert "z value" in table.to_text() and "Pr(>|z|)" in table.to_text()


def test_t_intervals_are_wider_than_z_intervals():
    t = CoefTable.from_estimates(NAMES, EST, SE, df=5)
    z = CoefTable.from_estimates(NAMES, EST, SE)
    assert np.all((t.conf_high - t.conf_low)[:3] > (z.conf_high - z.conf_low)[:3])
    assert np.all(t.p_value[:3] > z.p_value[:3])


def test_from_estimates_accepts_lists_and_keeps_names():
    table = CoefTable.from_estimates(("a", "b"), [1.0, 2.0], [1.0, 1.0], df=10)
    assert table.names == ["a", "b"]
    assert len(table) == 2
    assert table.estimate.dtype == np.float64


def test_to_frame_columns_and_index():
    table = CoefTable.from_estimates(NAMES, EST, SE, df=7)
    frame = table.to_frame()
    assert list(frame.columns) == FRAME_COLUMNS
    assert list(frame.index) == NAMES
    assert frame.index.name == "term"
    for column in FRAME_COLUMNS:
        np.testing.assert_array_equal(frame[column].to_numpy(), getattr(table, column))


def _parse_html(text):
    """Well-formedness check: the HTML must parse as XML (every tag closed, entities escaped)."""
    return ET.fromstring(text)


def test_repr_html_is_well_formed_and_escapes_names():
    names = ["(Intercept)", "a<b", "x & y", 'q"uote']
    table = CoefTable.from_estimates(names, EST, SE, df=4)
    text = table._repr_html_()
    root = _parse_html(text)
    assert root.tag == "table"
    rows = root.find("tbody").findall("tr")
    assert [row.find("th").text for row in rows] == names
    assert "a<b" not in text and "a&lt;b" in text
    assert "x &amp; y" in text
    cells = [td.text for td in rows[3].findall("td")]
    assert cells == ["NA"] * 6
    assert float(rows[0].findall("td")[0].text) == pytest.approx(1.5)
    header = [th.text or "" for th in root.find("thead").iter("th")]
    assert header[1:5] == ["Estimate", "Std. Error", "t value", "Pr(>|t|)"]
    assert header[5:] == ["95% low", "95% high"]


def _summary(notes=()):
    table = CoefTable.from_estimates(NAMES, EST, SE, df=20)
    stats_ = {
        "n_obs": 24,
        "df_model": 2,
        "df_resid": 20,
        "sigma": 1.234567,
        "r_squared": 0.761181,
        "adj_r_squared": 0.7583,
        "f_statistic": 259.8123,
        "f_pvalue": 1e-20,
        "loglik": -40.5,
        "loglik_df": 4,
        "aic": 89.0,
        "bic": 93.7,
    }
    return Summary(
        coef_table=table,
        stats=stats_,
        title="Linear regression <test>",
        formula="y ~ x0 + x1 + x2",
        residual_quantiles=np.array([-2.0, -0.5, 0.0, 0.5, 2.5]),
        notes=list(notes),
    )


def test_summary_text_sections():
    text = _summary(notes=["something to know"]).to_text()
    lines = text.splitlines()
    assert lines[0] == "Linear regression <test>"
    for section in (
        "Formula:",
        "Residuals:",
        "Coefficients: (1 not defined because of singularities)",
    ):
        assert section in lines
    assert "y ~ x0 + x1 + x2" in lines
    assert "Residual standard error: 1.235 on 20 degrees of freedom" in lines
    assert "Multiple R-squared:  0.7612,\tAdjusted R-squared:  0.7583" in lines
    assert "F-statistic: 259.8 on 2 and 20 DF,  p-value: < 2.2e-16" in lines
    assert any(line.startswith("Log-likelihood: -40.5 (df=4)") for line in lines)
    assert "Note: something to know" in lines
    assert "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1" in lines
    assert str(_summary()) == repr(_summary()) == _summary().to_text()


def test_summary_prints_na_rows():
    text = _summary().to_text()
    row = next(line for line in text.splitlines() if line.startswith("x2 "))
    assert row.split() == ["x2", "NA", "NA", "NA", "NA"]
    frame = _summary().to_frame()
    assert frame.loc["x2"].isna().all()
    assert not frame.loc["x1"].isna().any()


def test_summary_without_optional_parts():
    table = CoefTable.from_estimates(["x0"], [1.0], [0.5], df=3)
    s = Summary(coef_table=table, stats={"sigma": 1.0, "df_resid": 3}, kind="lm")
    text = s.to_text()
    assert "Formula:" not in text
    assert "Residuals:" not in text
    assert "R-squared" not in text
    assert "F-statistic" not in text
    assert "Residual standard error: 1 on 3 degrees of freedom" in text


def test_summary_generic_footer():
    table = CoefTable.from_estimates(["x0"], [1.0], [0.5])
    s = Summary(coef_table=table, stats={"deviance": 12.3456789, "n_iter": 7}, kind="other")
    lines = s.to_text().splitlines()
    assert "deviance: 12.3457" in lines
    assert "n_iter: 7" in lines


def test_summary_to_frame_equals_coef_table_frame():
    s = _summary()
    pd.testing.assert_frame_equal(s.to_frame(), s.coef_table.to_frame())


def test_summary_html_is_well_formed_and_escaped():
    s = _summary(notes=["a < b & c"])
    text = s._repr_html_()
    root = _parse_html(text)
    assert root.tag == "div"
    assert root.find("h4").text == "Linear regression <test>"
    assert "<test>" not in text
    assert root.find("p").find("code").text == "y ~ x0 + x1 + x2"
    stats_table = root.findall("table")[1]
    keys = [row.find("th").text for row in stats_table.iter("tr")]
    assert keys == list(s.stats)
    assert "a &lt; b &amp; c" in text


# --- summaries printed as R prints them (numbers from tests/reference/lm) ------------------------


def _summary_from_reference(ref):
    table = CoefTable.from_estimates(
        ref["coef_names"],
        as_float_array(ref["coefficients"]),
        as_float_array(ref["std_error"]),
        df=ref["df_residual"],
    )
    f, numdf, _ = ref["fstatistic"]
    stats_ = {
        "sigma": ref["sigma"],
        "df_resid": ref["df_residual"],
        "df_model": numdf,
        "r_squared": ref["r_squared"],
        "adj_r_squared": ref["adj_r_squared"],
        "f_statistic": f,
        "f_pvalue": ref["f_pvalue"],
    }
    label = "Weighted Residuals" if ref["weights_column"] else "Residuals"
    return Summary(
        coef_table=table,
        stats=stats_,
        residual_quantiles=np.array(ref["residual_quantiles"]),
        residual_label=label,
    )


CASES = LM_CASES


@pytest.mark.parametrize("case", CASES)
def test_summary_body_prints_as_r(lm_reference, case):
    ref = lm_reference[case]
    r_lines = [line.rstrip() for line in ref["summary_text"].splitlines()]
    start = next(i for i, line in enumerate(r_lines) if line.endswith("Residuals:"))
    stop = next(i for i, line in enumerate(r_lines) if line.startswith("F-statistic"))
    ours = [line.rstrip() for line in _summary_from_reference(ref).to_text().splitlines()]
    begin = ours.index(r_lines[start])
    assert ours[begin : begin + stop + 1 - start] == r_lines[start : stop + 1]


# --- term names from LinearRegression ------------------------------------------------------------


def _xy(seed=0, n=20):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 3.0 + rng.standard_normal(n)
    return X, y


def test_dataframe_column_names_become_terms():
    X, y = _xy()
    frame = pd.DataFrame(X, columns=["wt", "hp", "a<b"])
    model = LinearRegression().fit(frame, pd.Series(y, name="mpg"))
    s = model.summary()
    assert s.coef_table.names == ["(Intercept)", "wt", "hp", "a<b"]
    assert list(s.to_frame().index) == ["(Intercept)", "wt", "hp", "a<b"]
    assert s.formula == "mpg ~ wt + hp + a<b"
    assert "a&lt;b" in s._repr_html_()
    np.testing.assert_allclose(s.to_frame()["estimate"].to_numpy(), model._full_coef())


def test_numpy_input_gives_positional_names():
    X, y = _xy(1)
    s = LinearRegression().fit(X, y).summary()
    assert s.coef_table.names == ["(Intercept)", "x0", "x1", "x2"]
    assert s.formula == "y ~ x0 + x1 + x2"
    s0 = LinearRegression(fit_intercept=False).fit(X, y).summary()
    assert s0.coef_table.names == ["x0", "x1", "x2"]
    assert s0.formula == "y ~ 0 + x0 + x1 + x2"


def test_fitted_summary_frame_matches_fitted_attributes():
    X, y = _xy(2)
    model = LinearRegression().fit(X, y)
    frame = model.summary(level=0.9).to_frame()
    np.testing.assert_allclose(frame["std_error"], model.bse_)
    np.testing.assert_allclose(frame["statistic"], model.tvalues_)
    np.testing.assert_allclose(frame["p_value"], model.pvalues_)
    q = stats.t.ppf(0.95, model.df_resid_)
    np.testing.assert_allclose(frame["conf_low"], model._full_coef() - q * model.bse_)
