"""The notes' worked example (Boily, §2.1: E2–E8): Gapminder 2011, LE ~ IM + fertility.

Every number below is printed in the notes (or re-verified against the data where the notes
misprint it: F = 259.76, not 258.169; the t reference distribution has 163 df, not 164).
"""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.datasets import load_gapminder
from statlearning.linear_model import LinearRegression


@pytest.fixture(scope="module")
def data_2011():
    bunch = load_gapminder(year=2011)
    cols = [bunch.feature_names.index(c) for c in ("infant_mortality", "fertility")]
    return bunch.data[:, cols], bunch.target


@pytest.fixture(scope="module")
def model(data_2011):
    return LinearRegression().fit(*data_2011)


def _printed(value, expected, decimals):
    """Agreement to the precision the notes print."""
    assert round(value, decimals) == pytest.approx(expected, abs=0.51 * 10.0**-decimals)


def test_design_has_the_notes_size(data_2011):
    X, y = data_2011
    assert X.shape == (166, 2) and y.shape == (166,)


def test_e2_normal_equations(data_2011):
    X, y = data_2011
    A = np.column_stack([np.ones(len(y)), X])
    np.testing.assert_allclose(
        A.T @ A,
        [[166, 4537.3, 486.54], [4537.3, 225043.25, 18445.28], [486.54, 18445.28, 1790.238]],
        rtol=1e-6,
    )
    np.testing.assert_allclose(A.T @ y, [11756.7, 291153.33, 32874.952], rtol=1e-7)


def test_e2_coefficients(model):
    _printed(model.intercept_, 79.6759, 4)
    _printed(model.coef_[0], -0.27626, 5)
    _printed(model.coef_[1], -0.44401, 5)


def test_e3_sums_of_squares_and_r2(model):
    _printed(model.rss_, 2837.690, 3)
    _printed(model.rss_ / (1 - model.r_squared_), 11882.178, 3)  # SSTot
    _printed(model.r_squared_, 0.76118, 5)
    _printed(model.adj_r_squared_, 0.75825, 5)


def test_e4_overall_f_test(model):
    _printed(model.f_statistic_, 259.76, 2)
    assert (model.df_model_, model.df_resid_) == (2, 163)
    assert model.f_pvalue_ == pytest.approx(2.05e-51, rel=0.01)


def test_e6_t_test_for_infant_mortality(model):
    sigma2 = model.sigma_**2
    _printed(sigma2, 17.409, 3)
    xtx_inv_11 = model.cov_params_[1, 1] / sigma2
    assert xtx_inv_11 == pytest.approx(3.53387e-5, rel=1e-5)
    _printed(model.bse_[1], 0.02480, 5)
    _printed(model.tvalues_[1], -11.1379, 4)
    assert model.pvalues_[1] == pytest.approx(8.8e-22, rel=0.06)


def test_e7_coefficient_table(model):
    _printed(model.bse_[0], 0.7985, 4)
    _printed(model.bse_[2], 0.4131, 4)
    _printed(model.tvalues_[0], 99.786, 3)
    _printed(model.tvalues_[2], -1.0748, 4)
    _printed(model.pvalues_[2], 0.284, 3)
    _printed(model.sigma_, 4.172, 3)
    _printed(model.loglik_, -471.16, 2)
    _printed(model.aic_, 950.32, 2)
    _printed(model.bic_, 962.77, 2)
    # t-based 95% intervals (R's confint); the notes print β̂ ± 2·se
    frame = model.summary().coef_table
    np.testing.assert_allclose(frame.conf_low, [78.10, -0.325, -1.260], atol=0.0051)
    np.testing.assert_allclose(frame.conf_high, [81.25, -0.227, 0.372], atol=0.0051)


def test_e7_printed_summary_reads_like_r(model):
    text = str(model.summary())
    assert "Residual standard error: 4.172 on 163 degrees of freedom" in text
    assert "F-statistic: 259.8 on 2 and 163 DF,  p-value: < 2.2e-16" in text
    assert "Multiple R-squared:  0.7612,\tAdjusted R-squared:  0.7583" in text
    assert "Log-likelihood: -471.161 (df=4),  AIC: 950.321,  BIC: 962.769" in text


def test_e8_reduced_model(data_2011):
    X, y = data_2011
    reduced = LinearRegression().fit(X[:, :1], y)
    _printed(reduced.intercept_, 78.993, 3)
    _printed(reduced.coef_[0], -0.29888, 5)
    low, high = reduced.coef_[0] - 2 * reduced.bse_[1], reduced.coef_[0] + 2 * reduced.bse_[1]
    assert (round(low, 3), round(high, 3)) == (-0.325, -0.273)
