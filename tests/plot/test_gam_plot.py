"""plot_partial_dependence: seed 004's Figure 19 (the E28 gapminder GAM)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning.gam import GAMRegressor, f, s, te  # noqa: E402
from statlearning.plot import plot_partial_dependence  # noqa: E402

REF_DIR = Path(__file__).resolve().parents[1] / "reference" / "gam"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_figure_19_panels():
    d = pd.read_csv(REF_DIR / "gapminder2011.csv", skipinitialspace=True)
    X = d[["fertility", "infant_mortality", "gdp", "continent"]]
    model = GAMRegressor().fit(X, d["life_expectancy"])
    fig = plot_partial_dependence(model, X)
    assert len(fig.axes) == 4
    assert fig._suptitle.get_text() == f"intercept = {model.intercept_:.6g}"
    # the smooth panels: the curve is the term, its band ±2 se
    ax = fig.axes[1]
    fit = next(line for line in ax.lines if line.get_label() == "fit")
    upper = next(line for line in ax.lines if line.get_label() == "+2 se")
    xs = fit.get_xdata()
    rows = X.iloc[np.zeros(xs.size, dtype=int)].assign(infant_mortality=xs)
    values, se = model.partial_dependence("s(infant_mortality)", rows)
    np.testing.assert_allclose(fit.get_ydata(), values)
    np.testing.assert_allclose(upper.get_ydata(), values + 2 * se)
    # the factor panel: one step per continent, Africa (the baseline) at zero
    ax = fig.axes[3]
    steps = next(line for line in ax.lines if line.get_label() == "fit")
    assert steps.get_drawstyle() == "steps-mid"
    assert [t.get_text() for t in ax.get_xticklabels()] == sorted(d["continent"].unique())
    assert steps.get_ydata()[0] == 0.0


def test_terms_subset_and_tensor():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.uniform(size=200), "b": rng.uniform(size=200)})
    X["g"] = pd.Categorical(rng.choice(["p", "q"], size=200))
    y = np.sin(3 * X["a"]) * X["b"] + (X["g"] == "q") + rng.normal(scale=0.1, size=200)
    model = GAMRegressor([te("a", "b"), f("g")]).fit(X, y)
    assert len(plot_partial_dependence(model, X).axes) == 2
    fig = plot_partial_dependence(GAMRegressor([s("a"), s("b")]).fit(X, y), X, terms=["s(b)"])
    assert len(fig.axes) == 1 and fig.axes[0].get_xlabel() == "b"
    with pytest.raises(ValueError, match="unknown term"):
        plot_partial_dependence(model, X, terms=["s(z)"])
