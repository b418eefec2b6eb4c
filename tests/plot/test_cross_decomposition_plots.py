"""Figures of the component regressions: the RMSEP curve and PLS loadings."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning import plot  # noqa: E402
from statlearning.cross_decomposition import PCRegression, PLSRegression  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.normal(size=(50, 4))
Y = X @ [1.0, -1.0, 0.5, 0.0] + RNG.normal(size=50)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("est", [PCRegression, PLSRegression])
def test_rmsep_curve_draws_validation(est):
    fit = est(n_components="cv", cv=5, selection="1se").fit(X, Y)
    ax = plot.rmsep_curve(fit)
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), fit.validation_["RMSEP"][0])
    np.testing.assert_allclose(line.get_xdata(), np.arange(5))
    labels = ax.get_legend_handles_labels()[1]
    assert "adjCV" in labels and any(lab.startswith("one-SE rule") for lab in labels)
    assert ax.get_xlabel() == "Number of components"
    with pytest.raises(TypeError, match="n_components='cv'"):
        plot.rmsep_curve(est(2).fit(X, Y))


def test_pls_loadings_plot_lines_are_loadings():
    pls = PLSRegression(2).fit(X, Y)
    ax = plot.pls_loadings_plot(pls, feature_names=["a", "b", "c", "d"])
    lines = ax.get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), pls.x_loadings_[:, 0])
    np.testing.assert_allclose(lines[1].get_ydata(), pls.x_loadings_[:, 1])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match="components"):
        plot.pls_loadings_plot(pls, components=(0, 2))
