"""Jackknife: seed 004 E18 (both variance formulas), delete-d, estimators and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.datasets import load_gapminder
from statlearning.linear_model import LinearRegression
from statlearning.model_selection import jackknife


@pytest.fixture(scope="module")
def gapminder_2011():
    data = load_gapminder(year=2011)
    names = list(data.feature_names)
    gdppc = data.data[:, names.index("gdp")] / data.data[:, names.index("population")]
    return np.log(gdppc)[:, None], data.target


def ols_coefficients(X, y):
    fit = LinearRegression().fit(X, y)
    return np.r_[fit.intercept_, fit.coef_]


def test_seed004_e18_formula(gapminder_2011):
    X, y = gapminder_2011
    assert X.shape[0] == 166
    res = jackknife(ols_coefficients, X, y, variance="seed004")
    np.testing.assert_allclose(res.se, [0.01128, 0.00129], atol=5e-6)
    np.testing.assert_allclose(res.mean, [37.1101, 4.3169], atol=5e-5)


def test_seed004_e18_standard(gapminder_2011):
    X, y = gapminder_2011
    res = jackknife(LinearRegression(), X, y, attribute="coef_")
    np.testing.assert_allclose(res.se, [0.2136], atol=5e-5)
    res = jackknife(ols_coefficients, X, y)
    np.testing.assert_allclose(res.se, [1.861, 0.2136], atol=5e-4)
    # the two formulas differ by exactly the factor n - 1
    seed = jackknife(ols_coefficients, X, y, variance="seed004")
    np.testing.assert_allclose(res.se / seed.se, 165.0, rtol=1e-12)


def test_mean_is_unbiased_and_se_is_classical():
    x = np.random.default_rng(0).normal(size=30)
    res = jackknife(lambda X, y: X.mean(), x)
    np.testing.assert_allclose(res.bias, 0.0, atol=1e-12)
    np.testing.assert_allclose(res.se, x.std(ddof=1) / np.sqrt(30), rtol=1e-12)
    assert res.replicates.shape == (30, 1)


def test_bias_of_plugin_variance():
    # the jackknife bias of the 1/n variance is exactly -s²/n (Efron & Tibshirani §10.5)
    x = np.random.default_rng(1).normal(size=20)
    res = jackknife(lambda X, y: X.var(), x)
    np.testing.assert_allclose(res.bias, -x.var(ddof=1) / 20, rtol=1e-10)
    np.testing.assert_allclose(res.estimate - res.bias, x.var(ddof=1), rtol=1e-10)


def test_delete_d_for_the_mean():
    # delete-d variance of the mean equals s²/n for every d
    x = np.random.default_rng(2).normal(size=10)
    for d in (1, 2, 3):
        res = jackknife(lambda X, y: X.mean(), x, delete=d)
        np.testing.assert_allclose(res.se, x.std(ddof=1) / np.sqrt(10), rtol=1e-10)
    assert jackknife(lambda X, y: X.mean(), x, delete=3).replicates.shape == (120, 1)


def test_bad_input():
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="variance"):
        jackknife(lambda X, y: X.mean(), x, variance="bogus")
    with pytest.raises(ValueError, match="delete-1"):
        jackknife(lambda X, y: X.mean(), x, variance="seed004", delete=2)
    with pytest.raises(ValueError, match="subsets"):
        jackknife(lambda X, y: X.mean(), np.arange(100.0), delete=10)
    with pytest.raises(ValueError, match="attribute"):
        jackknife(LinearRegression(), x[:, None], x)
    with pytest.raises(ValueError, match="different numbers of samples"):
        jackknife(lambda X, y: X.mean(), x, x[:5])
    with pytest.raises(TypeError, match="callable"):
        jackknife(3.0, x)
