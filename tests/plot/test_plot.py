"""The optional plotting module: every figure on tiny fitted objects, and the missing extra."""

import importlib
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402

from statlearning import plot  # noqa: E402
from statlearning.cluster import AgglomerativeClustering, KMeans  # noqa: E402
from statlearning.decomposition import PCA  # noqa: E402
from statlearning.feature_selection import BestSubsetSelector  # noqa: E402
from statlearning.linear_model import LassoCV  # noqa: E402
from statlearning.metrics import roc_optimal_threshold  # noqa: E402
from statlearning.model_selection import bootstrap, jackknife  # noqa: E402

E22 = np.array([17, 8, 3, 2, 1, 0.5, 0.25, 0.0])  # seed 004 E22's eigenvalues


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _e22_pca():
    """A PCA whose eigenvalues are exactly E22's: orthogonal centred columns with those
    variances."""
    rng = np.random.default_rng(0)
    n = 40
    Z = rng.normal(size=(n, 8))
    Z -= Z.mean(axis=0)
    Q, _ = np.linalg.qr(Z)
    X = Q * np.sqrt(E22 * (n - 1))
    return PCA().fit(X), X


def _vlines_x(ax):
    """x positions of the vertical lines (axvline) of ``ax``, in drawing order."""
    out = []
    for line in ax.get_lines():
        x = np.asarray(line.get_xdata(), dtype=float)
        if x.size == 2 and x[0] == x[1] and tuple(line.get_ydata()) == (0, 1):
            out.append(float(x[0]))
    return out


def test_scree_plot_marks_e22_rules():
    pca, _ = _e22_pca()
    np.testing.assert_allclose(pca.eigenvalues_, E22, atol=1e-9)
    ax = plot.scree_plot(pca)
    assert len(ax.get_lines()) == 2 + 4
    assert _vlines_x(ax) == [4, 2, 2, 3]  # cumulative 0.95, individual 0.25, kaiser, elbow
    labels = ax.get_legend_handles_labels()[1]
    assert "cumulative:0.95: 4 components" in labels
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata()[-1], 1.0)
    assert ax.get_xlabel() == "Principal component"


def test_scree_plot_accepts_eigenvalues_and_an_axes():
    _, ax = plt.subplots()
    out = plot.scree_plot(E22, rules=("elbow",), ax=ax)
    assert out is ax
    assert _vlines_x(ax) == [3]
    with pytest.raises(ValueError, match="unknown retention rule"):
        plot.scree_plot(E22, rules=("nonsense",))


def test_biplot_arrows_follow_loadings():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3)) @ np.array([[2, 0, 0], [1, 1, 0], [0, 0, 0.3]])
    pca = PCA().fit(X)
    ax = plot.biplot(pca, X, feature_names=["a", "b", "c"])
    assert [t.get_text() for t in ax.texts] == ["a", "b", "c"]
    assert len(ax.patches) == 3
    points = ax.collections[0].get_offsets()
    assert points.shape == (30, 2)
    # R's scale = 1: scores divided by sdev * sqrt(n)
    lam = np.sqrt(pca.explained_variance_[:2] * 30)
    np.testing.assert_allclose(points, pca.transform(X)[:, :2] / lam)
    # arrow tips (text positions / 1.08) are parallel to the scaled loadings
    tips = np.array([t.get_position() for t in ax.texts]) / 1.08
    ref = pca.components_[:2].T * lam
    np.testing.assert_allclose(tips / np.abs(tips).max(), ref / np.abs(ref).max(), atol=1e-12)
    assert ax.get_xlabel().startswith("PC1 (")
    with pytest.raises(ValueError, match="components"):
        plot.biplot(pca, X, components=(0, 5))
    with pytest.raises(ValueError, match="feature_names"):
        plot.biplot(pca, X, feature_names=["a"])


def test_dendrogram_has_one_leaf_per_sample():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(9, 2))
    agg = AgglomerativeClustering(n_clusters=2, linkage="average").fit(X)
    ax = plot.dendrogram(agg)
    assert len(ax.get_xticklabels()) == 9
    assert ax.get_ylabel() == "Height"
    # the top merge is drawn at the last linkage height
    top = max(max(p.vertices[:, 1]) for c in ax.collections for p in c.get_paths())
    np.testing.assert_allclose(top, agg.linkage_matrix_[-1, 2])
    with pytest.raises(ValueError, match="linkage matrix"):
        plot.dendrogram(np.zeros((3, 3)))


def _nearest_two_equal(centers, points):
    d = np.sort(np.linalg.norm(points[:, None, :] - centers[None], axis=2), axis=1)
    return np.allclose(d[:, 0], d[:, 1], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_cluster_scatter_voronoi_edges_are_bisectors(k):
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(loc=c, scale=0.3, size=(15, 2))
                   for c in [(0, 0), (4, 0), (0, 4), (4, 4)][:k]])
    km = KMeans(n_clusters=k, random_state=0, n_init=3).fit(X)
    ax = plot.cluster_scatter(X, km.labels_, centers=km.cluster_centers_, voronoi=True)
    scatters = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(scatters) == k + 1  # one per cluster + the centres
    np.testing.assert_allclose(scatters[-1].get_offsets(), km.cluster_centers_)
    edges = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(edges) == 1
    segs = edges[0].get_segments()
    assert len(segs) >= k - 1
    for seg in segs:
        pts = np.asarray(seg)
        t = np.linspace(0, 1, 5)[:, None]
        assert _nearest_two_equal(km.cluster_centers_, pts[0] + t * (pts[1] - pts[0]))
    # the data, not the far ends of unbounded edges, set the view
    assert ax.get_xlim()[1] < X[:, 0].max() + 2


def test_cluster_scatter_noise_and_bad_input():
    X = np.array([[0, 0], [1, 1], [5, 5], [9, 0.0]])
    ax = plot.cluster_scatter(X, [0, 0, 1, -1])
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["noise", "cluster 0", "cluster 1"]
    with pytest.raises(ValueError, match="X must have shape"):
        plot.cluster_scatter(np.zeros((4, 3)), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="labels"):
        plot.cluster_scatter(X, [0, 1])
    with pytest.raises(ValueError, match="voronoi"):
        plot.cluster_scatter(X, [0, 0, 1, 1], voronoi=True)


def test_cv_curve_marks_minimum_and_one_se():
    x = np.array([0.01, 0.1, 1.0, 10.0])
    mean = np.array([3.0, 2.0, 2.2, 4.0])
    se = np.array([0.3, 0.2, 0.3, 0.4])
    ax = plot.cv_curve(x, mean, se, one_se_index=2)
    assert ax.get_xscale() == "log"
    assert _vlines_x(ax) == [0.1, 1.0]
    hline = [ln for ln in ax.get_lines() if tuple(ln.get_xdata()) == (0, 1)]
    assert len(hline) == 1 and hline[0].get_ydata()[0] == pytest.approx(2.2)
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    np.testing.assert_allclose(bars[0].get_segments()[1][:, 1], [1.8, 2.2])
    with pytest.raises(ValueError, match="equal lengths"):
        plot.cv_curve(x, mean[:3], se)
    with pytest.raises(ValueError, match="positive"):
        plot.cv_curve(x - 1, mean, se)
    with pytest.raises(ValueError, match="best_index"):
        plot.cv_curve(x, mean, se, best_index=7)


def test_lasso_cv_curve_uses_fitted_choice():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 5))
    y = X[:, 0] - 2 * X[:, 1] + rng.normal(size=60)
    model = LassoCV(cv=5, n_alphas=20).fit(X, y)
    ax = plot.lasso_cv_curve(model)
    np.testing.assert_allclose(_vlines_x(ax), [model.alpha_min_, model.alpha_1se_])
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), model.cv_mean_)
    with pytest.raises(TypeError, match="lasso_cv"):
        plot.lasso_cv_curve(LassoCV())


def test_roc_curve_plot_optimal_point():
    rng = np.random.default_rng(5)
    y = np.array(["no", "yes"] * 20)
    score = rng.normal(size=40) + (y == "yes")
    ax = plot.roc_curve_plot(y, score, pos_label="yes", method="youden")
    thr, fpr, tpr = roc_optimal_threshold(y, score, pos_label="yes", method="youden")
    (point,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    np.testing.assert_allclose(point.get_offsets(), [[fpr, tpr]])
    assert len(ax.get_lines()) == 2
    assert f"threshold {thr:.4g}" in ax.get_legend_handles_labels()[1][-1]
    from sklearn.metrics import roc_auc_score

    auc = roc_auc_score(y == "yes", score)
    assert f"AUC = {auc:.3f}" in ax.get_legend_handles_labels()[1][0]


def test_subset_criteria_plot_marks_best_sizes():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(50, 4))
    y = 2 * X[:, 0] - X[:, 2] + rng.normal(size=50)
    sel = BestSubsetSelector().fit(X, y)
    fig = plot.subset_criteria_plot(sel)
    axes = [a for a in fig.axes if a.get_visible()]
    assert [a.get_ylabel() for a in axes] == ["RSS", "Adjusted R²", "Cp", "BIC"]
    assert not [c for c in axes[0].collections if isinstance(c, PathCollection)]
    for ax, key, pick in [(axes[1], "adjr2", np.argmax), (axes[2], "cp", np.argmin),
                          (axes[3], "bic", np.argmin)]:
        values = np.array([r[key] for r in sel.path_])
        (mark,) = ax.collections
        assert mark.get_offsets()[0][0] == sel.path_[int(pick(values))]["size"]
    bic_mark = axes[3].collections[0].get_offsets()[0][0]
    assert bic_mark == sel.best_size_
    with pytest.raises(ValueError, match="not in the selector"):
        plot.subset_criteria_plot(sel, criteria=("cv",))


def test_replicates_plot_bootstrap_and_jackknife():
    rng = np.random.default_rng(7)
    x = rng.exponential(size=30)

    def mean_and_sd(X, y):
        return [X.mean(), X.std()]

    boot = bootstrap(mean_and_sd, x, n_resamples=200, random_state=0)
    ax = plot.replicates_plot(boot)
    assert len(ax.patches) > 3
    np.testing.assert_allclose(
        _vlines_x(ax), [boot.estimate[0], boot.ci_low[0], boot.ci_high[0]]
    )
    ax = plot.replicates_plot(boot, stat=(0, 1))
    np.testing.assert_allclose(ax.collections[0].get_offsets(), boot.replicates)
    jack = jackknife(mean_and_sd, x)
    ax = plot.replicates_plot(jack, stat=1, level=0.9)
    half = 1.6448536269514722 * jack.se[1]
    np.testing.assert_allclose(
        _vlines_x(ax), [jack.estimate[1], jack.estimate[1] - half, jack.estimate[1] + half]
    )
    with pytest.raises(ValueError, match="stat"):
        plot.replicates_plot(jack, stat=2)
    with pytest.raises(TypeError, match="result"):
        plot.replicates_plot(object())


def test_missing_matplotlib_names_the_extra(monkeypatch):
    for name in [m for m in sys.modules if m == "statlearning.plot" or
                 m.startswith("statlearning.plot.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install "statlearning\[plot\]"'):
        importlib.import_module("statlearning.plot")


def test_nothing_else_imports_matplotlib():
    from pathlib import Path

    src = Path(plot.__file__).resolve().parents[1]
    # the command line's HTML report draws figures; it checks for the [report] extra first
    allowed = {Path("cli/_report.py")}
    offenders = [
        str(p.relative_to(src)) for p in src.rglob("*.py")
        if "matplotlib" in p.read_text(encoding="utf-8") and "plot" not in p.parts
        and p.relative_to(src) not in allowed
    ]
    assert offenders == []


def _e29_tree():
    """Seed 004 E29: the gapminder-2011 regression tree with rpart's defaults (6 leaves)."""
    from statlearning.datasets import load_gapminder
    from statlearning.tree import DecisionTreeRegressor

    bunch = load_gapminder(year=2011)
    cols = [bunch.feature_names.index(c) for c in ("infant_mortality", "fertility")]
    est = DecisionTreeRegressor(min_samples_split=20, min_samples_leaf=7, cp=0.01)
    return est.fit(bunch.data[:, cols], bunch.target)


def test_plot_tree_draws_e29_splits_and_leaves():
    est = _e29_tree()
    ax = plot.plot_tree(est, feature_names=["IM", "fert"])
    texts = [t.get_text() for t in ax.texts]
    splits = [t for t in texts if "<" in t]
    leaves = [t for t in texts if "n=" in t]
    assert splits[0] == "IM < 35.6"  # the root, drawn first (pre-order)
    assert sorted(splits) == sorted(["IM < 35.6", "IM < 52.9", "IM < 9.35", "IM < 22.9",
                                     "IM < 4.25"])
    means = sorted(float(t.split("\n")[0]) for t in leaves)
    np.testing.assert_allclose(means, [58.3, 63.6, 69.5, 74.3, 76.9, 80.9])
    assert sum(int(t.split("n=")[1]) for t in leaves) == 166
    (branches,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(branches.get_segments()) == 2 * len(splits)
    # leaves left to right in order: the x < t child is drawn to the left of its sibling
    tree = est.tree_
    xs = {t.get_text(): t.get_position()[0] for t in ax.texts}
    assert xs["IM < 9.35"] < xs["IM < 35.6"] < xs["IM < 52.9"]
    assert tree.n_leaves == 6


def test_plot_tree_risk_spacing_and_depth_cut():
    est = _e29_tree()
    tree = est.tree_
    ax = plot.plot_tree(est, uniform=False)
    ys = {t.get_text(): t.get_position()[1] for t in ax.texts}
    root_drop = tree.risk[0] - tree.risk[tree.children_left[0]] - tree.risk[
        tree.children_right[0]]
    left_split = f"x0 < {tree.threshold[tree.children_left[0]]:.3g}"
    np.testing.assert_allclose(ys["x0 < 35.6"] - ys[left_split], root_drop)
    ax = plot.plot_tree(est, max_depth=1)
    assert len([t for t in ax.texts if "n=" in t.get_text()]) == 2
    assert [t.get_text() for t in ax.texts if "<" in t.get_text()] == ["x0 < 35.6"]


def test_plot_tree_classifier_colours_and_errors():
    from statlearning.tree import DecisionTreeClassifier

    X = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
    clf = DecisionTreeClassifier().fit(X, ["a", "a", "a", "b", "b", "b"])
    ax = plot.plot_tree(clf, class_names=["low", "high"])
    leaves = [t.get_text() for t in ax.texts if "n=" in t.get_text()]
    assert leaves == ["low\n1/0\nn=3", "high\n0/1\nn=3"]
    with pytest.raises(ValueError, match="feature_names has 2 entries"):
        plot.plot_tree(clf, feature_names=["a", "b"])
    with pytest.raises(ValueError, match="class_names has 1 entries"):
        plot.plot_tree(clf, class_names=["x"])
    with pytest.raises(TypeError, match="fitted decision tree"):
        plot.plot_tree(DecisionTreeClassifier())
    with pytest.raises(ValueError, match="max_depth"):
        plot.plot_tree(clf, max_depth=-1)


def test_plot_tree_labels_categorical_splits():
    from statlearning.tree import DecisionTreeRegressor

    rng = np.random.default_rng(0)
    level = rng.integers(0, 4, size=200).astype(float)
    y = np.where(np.isin(level, [1, 3]), 5.0, 0.0) + rng.normal(scale=0.1, size=200)
    est = DecisionTreeRegressor(max_depth=1, categorical_features=[0]).fit(level[:, None], y)
    ax = plot.plot_tree(est, feature_names=["g"])
    (split,) = [t.get_text() for t in ax.texts if "n=" not in t.get_text()]
    assert split in ("g in {0, 2}", "g in {1, 3}")
