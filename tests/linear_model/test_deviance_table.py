"""deviance_table: what it accepts, what it refuses, and how it tests."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

from statlearning.linear_model import GLMRegressor, LinearRegression, deviance_table

RNG = np.random.default_rng(5)
N = 80
X = RNG.normal(size=(N, 3))
Y = RNG.poisson(np.exp(0.3 + X @ [0.5, -0.2, 0.0])).astype(float)
Y_POS = RNG.gamma(4.0, np.exp(0.3 + X @ [0.5, -0.2, 0.0]) / 4.0)


def _poisson(cols, y=Y, **kw):
    return GLMRegressor(family="poisson", **kw).fit(X[:, cols], y)


def test_chisq_is_the_likelihood_ratio_test():
    small, large = _poisson([0]), _poisson([0, 1, 2])
    table = deviance_table(small, large)
    lr = small.deviance_ - large.deviance_
    expected = [
        [N - 2, small.deviance_, np.nan, np.nan, np.nan],
        [N - 4, large.deviance_, 2, lr, stats.chi2.sf(lr, 2)],
    ]
    np.testing.assert_allclose(table.values, expected, rtol=1e-12, equal_nan=True)
    assert table.models == ["y ~ x0", "y ~ x0 + x1 + x2"]
    assert table.title == "Analysis of Deviance Table"


def test_f_test_uses_the_dispersion_of_the_largest_model():
    small = GLMRegressor(family="gamma", link="log").fit(X[:, :1], Y_POS)
    large = GLMRegressor(family="gamma", link="log").fit(X, Y_POS)
    table = deviance_table(small, large, test="F")
    f = (small.deviance_ - large.deviance_) / 2 / large.dispersion_
    assert table.columns[-2:] == ["F", "Pr(>F)"]
    assert table.values[1, 4] == pytest.approx(f, rel=1e-12)
    assert table.values[1, 5] == pytest.approx(stats.f.sf(f, 2, N - 4), rel=1e-10)


def test_f_test_with_fixed_dispersion_warns_as_r():
    with pytest.warns(UserWarning, match="F test with a 'poisson' family is inappropriate"):
        table = deviance_table(_poisson([0]), _poisson([0, 1]), test="F")
    f = table.values[1, 4]
    assert table.values[1, 5] == pytest.approx(stats.chi2.sf(f, 1), rel=1e-12)


def test_without_a_test_there_are_four_columns():
    table = deviance_table(_poisson([0]), _poisson([0, 1]), test=None)
    assert table.columns == ["Resid. Df", "Resid. Dev", "Df", "Deviance"]
    assert "Pr(" not in str(table)


def test_linear_models_get_r_anova_lmlist_columns():
    small = LinearRegression().fit(X[:, :1], Y)
    large = LinearRegression().fit(X, Y)
    table = deviance_table(small, large, test="F")
    assert table.columns == ["Res.Df", "RSS", "Df", "Sum of Sq", "F", "Pr(>F)"]
    assert table.title == "Analysis of Variance Table"
    f = (small.rss_ - large.rss_) / 2 / (large.rss_ / large.df_resid_)
    assert table.values[1, 4] == pytest.approx(f, rel=1e-12)


def test_three_models_compare_consecutively():
    a, b, c = _poisson([0]), _poisson([0, 1]), _poisson([0, 1, 2])
    table = deviance_table(a, b, c)
    np.testing.assert_allclose(
        table.values[1:, 3], [a.deviance_ - b.deviance_, b.deviance_ - c.deviance_]
    )
    assert str(table).splitlines()[2:5] == [
        "Model 1: y ~ x0",
        "Model 2: y ~ x0 + x1",
        "Model 3: y ~ x0 + x1 + x2",
    ]


@pytest.mark.parametrize(
    ("models", "match"),
    [
        (lambda: [_poisson([0])], "at least two fitted models"),
        (lambda: [_poisson([0, 1]), _poisson([0])], "residual degrees of freedom must strictly"),
        (lambda: [_poisson([0]), _poisson([1])], "residual degrees of freedom must strictly"),
        (lambda: [_poisson([0]), _poisson([0, 1], alpha=0.1)], "penalised"),
        (
            lambda: [_poisson([0]), GLMRegressor(family="gamma").fit(X[:, :2], Y_POS)],
            "different families",
        ),
        (
            lambda: [_poisson([0]), LinearRegression().fit(X[:, :2], Y)],
            "same kind",
        ),
        (
            lambda: [_poisson([0]), GLMRegressor(family="poisson").fit(X[:40], Y[:40])],
            "same number of observations",
        ),
        (lambda: [_poisson([0]), _poisson([0, 1], y=Y + 1)], "null deviances differ"),
        (lambda: [_poisson([0]), "model"], "GLMRegressor or LinearRegression"),
    ],
)
def test_models_that_are_not_nested_are_refused(models, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = models()
    with pytest.raises(ValueError, match=match):
        deviance_table(*fitted)


def test_unknown_test_is_refused():
    with pytest.raises(ValueError, match="test must be 'Chisq', 'F' or None"):
        deviance_table(_poisson([0]), _poisson([0, 1]), test="LRT")


def test_unfitted_model_is_refused():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        deviance_table(_poisson([0]), GLMRegressor())
