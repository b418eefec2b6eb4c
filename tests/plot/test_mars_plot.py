"""plot_mars: the fitted MARS model against each predictor, knots marked (seed 004's E26)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning.mars import MARSClassifier, MARSRegressor  # noqa: E402
from statlearning.plot import plot_mars  # noqa: E402

REF_DIR = Path(__file__).resolve().parents[1] / "reference" / "mars"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _line(ax, label):
    return next(line for line in ax.lines if line.get_label() == label)


def test_seed004_e26_figure_life_expectancy_on_fertility():
    d = pd.read_csv(REF_DIR / "gapminder2011.csv")
    X, y = d[["fertility"]], d["life_expectancy"]
    model = MARSRegressor().fit(X, y)
    fig = plot_mars(model, X, y)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "fertility"
    knots = _line(ax, "knots")
    np.testing.assert_allclose(knots.get_xdata(), [2.0, 3.64])
    fit = _line(ax, "fit")
    xs, ys = np.asarray(fit.get_xdata()), np.asarray(fit.get_ydata())
    assert xs.min() == X["fertility"].min() and xs.max() == X["fertility"].max()
    np.testing.assert_allclose(ys, model.predict(pd.DataFrame({"fertility": xs})))
    # flat below 2 children, then -8.47 years per child up to 3.64, then -1.34
    slope = np.diff(ys) / np.diff(xs)
    np.testing.assert_allclose(slope[xs[1:] <= 2.0], 0.0, atol=1e-9)
    np.testing.assert_allclose(slope[(xs[:-1] >= 2.0) & (xs[1:] <= 3.64)], -8.474636, rtol=1e-6)
    np.testing.assert_allclose(slope[xs[:-1] >= 3.64], -8.474636 + 7.139118, rtol=1e-6)
    assert len(ax.collections) == 1  # the data


def test_panels_follow_evimp_and_others_at_medians():
    d = pd.read_csv(REF_DIR / "trees.csv")
    X, y = d[["Girth", "Height"]], d["Volume"]
    model = MARSRegressor(max_degree=2).fit(X, y)
    fig = plot_mars(model, X)
    assert [ax.get_xlabel() for ax in fig.axes] == ["Girth", "Height"]
    fit = _line(fig.axes[1], "fit")
    rows = pd.DataFrame({"Girth": np.median(X["Girth"]), "Height": fit.get_xdata()})
    np.testing.assert_allclose(fit.get_ydata(), model.predict(rows))


def test_classifier_and_bad_input():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, size=(300, 2))
    y = (np.abs(X[:, 0]) + 0.3 * rng.normal(size=300) > 1.5).astype(int)
    clf = MARSClassifier().fit(X, y)
    fig = plot_mars(clf, X)
    assert fig.axes[0].get_ylabel() == "log-odds"
    with pytest.raises(ValueError, match="2 columns"):
        plot_mars(clf, X[:, :1])
    with pytest.raises(TypeError, match="fitted MARS model"):
        plot_mars(MARSRegressor(), X)
