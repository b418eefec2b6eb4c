"""plot_loss_curve and plot_network."""

import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402

from statlearning.neural_network import MLPClassifier, MLPRegressor  # noqa: E402
from statlearning.plot import plot_loss_curve, plot_network  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


def test_loss_curve_with_validation_scores():
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MLPClassifier((6,), early_stopping=True, max_iter=30, random_state=0).fit(X, y)
    ax = plot_loss_curve(clf)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), clf.loss_curve_)
    twin = next(a for a in ax.figure.axes if a is not ax)
    np.testing.assert_allclose(twin.lines[0].get_ydata(), clf.validation_scores_)
    assert twin.lines[1].get_ydata()[0] == max(clf.validation_scores_)


def test_loss_curve_errors():
    X, _ = _data()
    with pytest.raises(TypeError, match="mlp"):
        plot_loss_curve(MLPClassifier())
    lbfgs = MLPRegressor((3,), solver="lbfgs", random_state=0).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="lbfgs"):
        plot_loss_curve(lbfgs)


def test_network_diagram_edges_follow_the_weights():
    X, y = _data()
    clf = MLPClassifier((4, 2), solver="lbfgs", random_state=0).fit(X, y)
    ax = plot_network(clf, feature_names=["a", "b", "c"])
    assert len(ax.lines) == 3 * 4 + 4 * 2 + 2 * 1
    widths = np.array([line.get_linewidth() for line in ax.lines[:12]])
    w = np.abs(clf.coefs_[0]).ravel()
    top = max(np.abs(c).max() for c in clf.coefs_)
    np.testing.assert_allclose(widths, 0.3 + 3.0 * w / top)
    assert [t.get_text() for t in ax.texts[-3:]] == ["a", "b", "c"]
    plain = plot_network(clf, weights=False, max_units=2)
    assert len(plain.lines) == 2 * 2 + 2 * 2 + 2 * 1
    with pytest.raises(ValueError, match="feature_names"):
        plot_network(clf, feature_names=["a"])
    with pytest.raises(ValueError, match="max_units"):
        plot_network(clf, max_units=0)
