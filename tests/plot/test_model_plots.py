"""Figures of a fitted model: regression diagnostics, confusion matrix, ROC, calibration,
per-fold CV scores, coefficients and permutation importances (artists, not pixels)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer, ErrorbarContainer
from sklearn.calibration import calibration_curve
from sklearn.inspection import permutation_importance

from statlearning import plot
from statlearning.ensemble import (
    RandomForestRegressor,
    oob_permutation_importance,
)
from statlearning.inference import influence_measures
from statlearning.linear_model import Lasso, LinearRegression
from statlearning.metrics import auc_se, roc_optimal_threshold


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _regression(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    X[0] = [4.0, -3.0, 3.5]  # a high-leverage row
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=n)
    return X, y


def _points(ax):
    return [c for c in ax.collections if isinstance(c, PathCollection)]


def test_regression_diagnostics_panels_and_values():
    X, y = _regression()
    model = LinearRegression().fit(X, y)
    fig = plot.plot_regression_diagnostics(model, X, y, id_n=2)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "Residuals vs Fitted",
        "Normal Q-Q",
        "Scale-Location",
        "Residuals vs Leverage",
    ]
    resid = y - model.predict(X)
    infl = influence_measures(X, resid)
    ax1, ax2, ax3, ax4 = fig.axes
    np.testing.assert_allclose(
        _points(ax1)[0].get_offsets(), np.column_stack([model.predict(X), resid])
    )
    # Q-Q: sorted standardised residuals against normal quantiles at R's ppoints(n)
    n = y.size
    q = np.asarray(_points(ax2)[0].get_offsets())
    from scipy import stats

    np.testing.assert_allclose(q[:, 0], stats.norm.ppf((np.arange(1, n + 1) - 0.5) / n))
    np.testing.assert_allclose(q[:, 1], np.sort(infl.std_residuals))
    np.testing.assert_allclose(
        _points(ax3)[0].get_offsets()[:, 1], np.sqrt(np.abs(infl.std_residuals))
    )
    np.testing.assert_allclose(
        _points(ax4)[0].get_offsets(), np.column_stack([infl.hat, infl.std_residuals])
    )
    # Cook's distance contours at 0.5 and 1: r = ±sqrt(c p (1 - h) / h), p = 4
    cook = [ln for ln in ax4.lines if ln.get_linestyle() == "--"]
    assert len(cook) == 4
    labels = [ln.get_label() for ln in cook]
    assert labels.count("Cook's distance 0.5") == 1 and labels.count("Cook's distance 1") == 1
    for line, level in zip(cook, [0.5, 0.5, 1.0, 1.0], strict=True):
        h, r = line.get_data()
        np.testing.assert_allclose(np.abs(r), np.sqrt(level * 4 * (1 - h) / h))
    # id_n labels: the two largest |residuals| of panel 1, by 1-based row number
    expected = {str(i + 1) for i in np.argsort(-np.abs(resid))[:2]}
    assert {t.get_text() for t in ax1.texts} == expected
    # a smoother in the residual panels
    assert any(ln.get_label() == "smoother" for ln in ax1.lines)


def test_regression_diagnostics_wide_data_and_errors():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5, 8))
    y = rng.normal(size=5)
    model = Lasso(alpha=0.1).fit(X, y)
    fig = plot.plot_regression_diagnostics(model, X, y)
    assert "leverages undefined" in fig.axes[3].texts[0].get_text()
    with pytest.raises(TypeError, match="predict"):
        plot.plot_regression_diagnostics(object(), X, y)
    with pytest.raises(ValueError, match="rows"):
        plot.plot_regression_diagnostics(model, X, y[:4])
    with pytest.raises(ValueError, match="id_n"):
        plot.plot_regression_diagnostics(model, X, y, id_n=-1)


def test_confusion_matrix_cells():
    y = np.array(["a", "b", "c", "a", "b", "c", "a"])
    pred = np.array(["a", "b", "b", "a", "c", "c", "b"])
    ax = plot.plot_confusion_matrix(y, pred)
    assert [t.get_text() for t in ax.texts] == ["2", "1", "0", "0", "1", "1", "0", "1", "1"]
    assert "accuracy 0.571" in ax.get_title()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    ax = plot.plot_confusion_matrix(y, pred, normalize="true")
    assert ax.texts[0].get_text() == "0.67"
    with pytest.raises(ValueError, match="normalize"):
        plot.plot_confusion_matrix(y, pred, normalize="rows")


def test_roc_auc_se_and_optimal_point():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1], 30)
    score = rng.normal(size=60) + y
    ax = plot.plot_roc(y, score)
    auc, se = auc_se(y, score)
    labels = ax.get_legend_handles_labels()[1]
    assert labels[0] == f"ROC (AUC = {auc:.3f} ± {se:.3f} SE)"
    _thr, fpr, tpr = roc_optimal_threshold(y, score)
    np.testing.assert_allclose(_points(ax)[0].get_offsets(), [[fpr, tpr]])
    ax = plot.plot_roc(y, score, show_auc_se=False, show_optimal=False)
    assert "±" not in ax.get_legend_handles_labels()[1][0]
    assert _points(ax) == []


def test_roc_one_against_rest():
    rng = np.random.default_rng(3)
    y = np.repeat(["x", "y", "z"], 20)
    proba = rng.dirichlet([1, 1, 1], size=60)
    ax = plot.plot_roc(y, proba, classes=["x", "y", "z"])
    labels = ax.get_legend_handles_labels()[1]
    assert [lb.split(" (")[0] for lb in labels[:3]] == ["x vs rest", "y vs rest", "z vs rest"]
    auc, se = auc_se(y == "y", proba[:, 1], pos_label=True)
    assert f"AUC = {auc:.3f} ± {se:.3f} SE" in labels[1]
    assert len(_points(ax)) == 3
    with pytest.raises(ValueError, match="classes"):
        plot.plot_roc(y, proba)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_matches_scikit_learn(strategy):
    rng = np.random.default_rng(4)
    p = rng.uniform(size=300)
    y = np.where(rng.uniform(size=300) < p**1.5, "yes", "no")
    ax = plot.plot_calibration(y, p, pos_label="yes", n_bins=8, strategy=strategy)
    (container,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    x, obs = container.lines[0].get_data()
    prob_true, prob_pred = calibration_curve(y == "yes", p, n_bins=8, strategy=strategy)
    np.testing.assert_allclose(obs, prob_true, rtol=1e-12)
    np.testing.assert_allclose(x, prob_pred, rtol=1e-12)
    brier = np.mean((p - (y == "yes")) ** 2)
    assert f"Brier {brier:.4g}" in ax.get_legend_handles_labels()[1][1]
    with pytest.raises(ValueError, match="probabilities"):
        plot.plot_calibration(y, p + 1, pos_label="yes")


def test_cv_scores_boxes_and_means():
    scores = {"lm": [1.0, 1.2, 0.9, 1.1], "tree": [1.4, 1.1, 1.5, 1.3], "baseline": [2, 2.1, 2, 2]}
    ax = plot.plot_cv_scores(scores, metric="RMSE", highlight={"lm": "best"})
    assert [t.get_text() for t in ax.get_yticklabels()] == ["lm (best)", "tree", "baseline"]
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 3
    means = [c.lines[0].get_xdata()[0] for c in bars]
    np.testing.assert_allclose(means, [np.mean(v) for v in scores.values()])
    assert len(_points(ax)) == 3
    with pytest.raises(ValueError, match="finite"):
        plot.plot_cv_scores({"a": [np.nan]})


def test_coefficients_with_intervals_and_without():
    X, y = _regression()
    model = LinearRegression().fit(X, y)
    ax = plot.plot_coefficients(model)
    table = model.summary().coef_table
    (container,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    segments = container.lines[2][0].get_segments()
    np.testing.assert_allclose([s[0][0] for s in segments], table.conf_low[1:])
    np.testing.assert_allclose([s[1][0] for s in segments], table.conf_high[1:])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x0", "x1", "x2"]
    lasso = Lasso(alpha=0.5).fit(X, y)
    ax = plot.plot_coefficients(lasso, feature_names=["a", "b", "c"], intercept=True)
    np.testing.assert_allclose(_points(ax)[0].get_offsets()[:, 0], [lasso.intercept_, *lasso.coef_])
    with pytest.raises(TypeError, match="fitted linear model"):
        plot.plot_coefficients(object())


def test_permutation_importance_oob_and_holdout():
    X, y = _regression(n=80)
    forest = RandomForestRegressor(n_estimators=30, random_state=0).fit(X, y)
    ax = plot.plot_permutation_importance(forest, X, y, random_state=1)
    ref = oob_permutation_importance(forest, X, y, random_state=1)
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    order = np.argsort(-ref.importances_mean, kind="stable")
    np.testing.assert_allclose([b.get_width() for b in bars], ref.importances_mean[order])
    assert "SE over trees" in ax.get_xlabel()
    model = LinearRegression().fit(X, y)
    ax = plot.plot_permutation_importance(model, X, y, n_repeats=4, random_state=0)
    ref = permutation_importance(model, X, y, n_repeats=4, random_state=0)
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    order = np.argsort(-ref.importances_mean, kind="stable")
    np.testing.assert_allclose([b.get_width() for b in bars], ref.importances_mean[order])
    assert next(t.get_text() for t in ax.get_yticklabels()) == f"x{order[0]}"
    with pytest.raises(ValueError, match="oob"):
        plot.plot_permutation_importance(model, X, y, method="oob")
