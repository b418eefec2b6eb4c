"""plot_decision_boundary: regions, boundary and margins, support vectors."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning.plot import plot_decision_boundary  # noqa: E402
from statlearning.svm import SVC  # noqa: E402

X = np.array([[0.2, -1.4], [-2.1, 1.7], [0.9, 1.0], [-1.0, -3.1], [-0.2, -1.0],
              [-0.2, 1.3], [2.0, -1.0], [0.5, 2.1]])  # fmt: skip
Y = np.array([-1, 1, 1, -1, -1, 1, -1, 1])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_margins_and_support_vectors_of_seed003_exercise4():
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, Y)
    ax = plot_decision_boundary(svc, X, Y, grid=50)
    sv = [c for c in ax.collections if c.get_label() == "support vectors"]
    assert len(sv) == 1
    np.testing.assert_allclose(np.sort(sv[0].get_offsets()[:, 1]), [-1.0, -1.0, 1.0])
    # the boundary x2 = 0 and the margins x2 = ±1 are among the drawn contour levels
    levels = [lev for c in ax.collections if hasattr(c, "levels") for lev in c.levels]
    assert {-1.0, 0.0, 1.0} <= set(levels)


def test_three_classes_and_bad_input():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(60, 2)) + np.repeat([[0, 3], [3, 0], [-3, 0]], 20, axis=0)
    labels = np.repeat(["a", "b", "c"], 20)
    ax = plot_decision_boundary(SVC().fit(Z, labels), Z, labels, grid=30)
    assert {"a", "b", "c"} <= {c.get_label() for c in ax.collections}
    with pytest.raises(ValueError, match="shape"):
        plot_decision_boundary(SVC().fit(Z, labels), np.ones((60, 3)), labels)
    with pytest.raises(TypeError, match="estimator"):
        plot_decision_boundary(object(), Z, labels)
