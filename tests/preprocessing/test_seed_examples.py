"""Seed 004's worked examples E23–E25 (Gapminder 2011: life expectancy against a predictor),
drawn with plot_fit and checked by their numbers; E27 is in tests/smoothing."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.datasets import load_gapminder
from statlearning.preprocessing import (
    BSplineFeatures,
    NaturalSplineFeatures,
    PolynomialFeatures,
    StepFeatures,
    fit_basis,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning.plot import plot_fit  # noqa: E402


@pytest.fixture(scope="module")
def data2011():
    bunch = load_gapminder(year=2011)
    cols = dict(zip(bunch.feature_names, bunch.data.T, strict=True))
    cols["lgdppc"] = np.log(cols["gdp"] / cols["population"])
    return cols, bunch.target


def test_e23_polynomial_d4_with_bands(data2011):
    cols, le = data2011
    assert le.size == 166  # the notes' Data-2011
    widths = {}
    fig, axes = plt.subplots(1, 4)
    for ax, name in zip(axes, ("fertility", "infant_mortality", "lgdppc", "gdp"), strict=True):
        x = cols[name][:, None]
        model = fit_basis(x, le, PolynomialFeatures(4, orthogonal=True))
        assert model.steps[-1][1].coef_.size == 4
        plot_fit(model, x, le, ax=ax)
        lines = ax.get_lines()
        assert len(lines) == 3  # fit and the two ±2 se curves
        fit, lower = lines[0].get_ydata(), lines[1].get_ydata()
        grid = lines[0].get_xdata()
        _, se = model.standard_error(grid[:, None])
        np.testing.assert_allclose(fit - lower, 2 * se)
        _, se_mid_end = model.standard_error(np.array([[np.median(x)], [x.max()]]))
        widths[name] = (se_mid_end[1] / se_mid_end[0], fit.max())
    plt.close(fig)
    # the gdp fit has extreme tail behaviour: at the largest economy its band is 11 times as
    # wide as at the median and the curve leaves the data (a life expectancy near 222 years)
    assert widths["gdp"][0] > 10 and widths["gdp"][1] > 2 * le.max()
    for name in ("fertility", "infant_mortality", "lgdppc"):
        assert widths[name][0] < 8 and widths[name][1] < le.max() + 2


@pytest.mark.parametrize(
    ("name", "n_bins"), [("fertility", 3), ("infant_mortality", 4), ("lgdppc", 3), ("lgdppc", 6)]
)
def test_e24_step_functions(data2011, name, n_bins):
    cols, le = data2011
    x = cols[name][:, None]
    model = fit_basis(x, le, StepFeatures(n_bins))
    ols = model.steps[-1][1]
    breaks = model.steps[0][1].breaks_[0]
    codes = np.searchsorted(breaks[1:-1], x[:, 0], side="right")
    means = np.array([le[codes == k].mean() for k in range(n_bins)])
    # β0 is the mean of the first interval, β_j the shift of interval j from it
    assert ols.intercept_ == pytest.approx(means[0], rel=1e-12)
    np.testing.assert_allclose(ols.coef_, means[1:] - means[0], rtol=1e-10, atol=1e-10)
    ax = plot_fit(model, x, le)
    plt.close(ax.figure)


@pytest.mark.parametrize("n_knots", [0, 1, 2, 10])
def test_e25_cubic_and_natural_splines(data2011, n_knots):
    cols, le = data2011
    x = cols["fertility"][:, None]
    quantiles = np.quantile(x, np.linspace(0, 1, n_knots + 2)[1:-1])
    cubic = fit_basis(x, le, BSplineFeatures(knots=quantiles))
    natural = fit_basis(x, le, NaturalSplineFeatures(knots=quantiles))
    assert cubic.steps[-1][1].coef_.size + 1 == n_knots + 4  # K + 4 parameters
    assert natural.steps[-1][1].coef_.size + 1 == n_knots + 2  # natural: K + 2
    # equally spaced quantiles are what df= places (R's bs/ns rule)
    np.testing.assert_allclose(
        BSplineFeatures(df=n_knots + 3).fit(x).knots_[0], quantiles, rtol=1e-12
    )
    assert cubic.steps[-1][1].rss_ <= natural.steps[-1][1].rss_ + 1e-9
    ax = plot_fit(cubic, x, le)
    marks = [line for line in ax.get_lines() if line.get_marker() == "s"]
    assert len(marks) == (1 if n_knots else 0)
    if n_knots:
        np.testing.assert_allclose(marks[0].get_xdata(), quantiles)
    plt.close(ax.figure)
