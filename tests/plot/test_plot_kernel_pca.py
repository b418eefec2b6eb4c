"""The kernel PCA scatter of the plotting module."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from statlearning import plot  # noqa: E402
from statlearning.decomposition import PCA, KernelPCA  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_kernel_pca_scatter_draws_the_scores_by_label():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.repeat(["a", "b"], 20)
    kpca = KernelPCA(3, kernel="rbf", gamma=0.5).fit(X)
    ax = plot.kernel_pca_scatter(kpca, X, y, components=(0, 2))
    assert len(ax.collections) == 2
    scores = kpca.transform(X)
    np.testing.assert_allclose(ax.collections[0].get_offsets(), scores[y == "a"][:, [0, 2]])
    np.testing.assert_allclose(ax.collections[1].get_offsets(), scores[y == "b"][:, [0, 2]])
    assert ax.get_legend_handles_labels()[1] == ["a", "b"]
    share = 100 * kpca.explained_variance_ratio_[2]
    assert ax.get_ylabel() == f"KPC3 ({share:.1f}%)"
    # the linear kernel draws PCA's scores (up to sign)
    lin = KernelPCA(2).fit(X)
    pts = plot.kernel_pca_scatter(lin, X).collections[0].get_offsets()
    np.testing.assert_allclose(np.abs(pts), np.abs(PCA(2).fit(X).transform(X)), atol=1e-10)


def test_kernel_pca_scatter_bad_input():
    X = np.random.default_rng(1).normal(size=(10, 2))
    kpca = KernelPCA(2, kernel="rbf").fit(X)
    with pytest.raises(TypeError, match="kpca must be a fitted KernelPCA"):
        plot.kernel_pca_scatter(PCA(), X)
    with pytest.raises(ValueError, match="kept 2 components"):
        plot.kernel_pca_scatter(kpca, X, components=(0, 2))
    with pytest.raises(ValueError, match="two different indices"):
        plot.kernel_pca_scatter(kpca, X, components=(1, 1))
    with pytest.raises(ValueError, match=r"y must have shape \(10,\)"):
        plot.kernel_pca_scatter(kpca, X, y=[0, 1])
