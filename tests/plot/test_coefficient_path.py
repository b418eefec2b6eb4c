"""``plot_coefficient_path``: a lasso or elastic net's paths against scikit-learn's, with the
cross-validated penalties marked (artists, not pixels)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from statlearning.linear_model import ElasticNetCV, Lasso, LassoCV, LinearRegression
from statlearning.plot import plot_coefficient_path


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _data(n=80, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * [1.0, 2.0, 0.5, 1.0, 3.0]
    y = X @ [1.5, 0.0, -2.0, 0.7, 0.0] + rng.normal(size=n)
    return X, y


def _sklearn_path(X, y, alphas, l1_ratio):
    """scikit-learn's path on centred data (its path functions fit no intercept)."""
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    _, coefs, _ = sk.enet_path(Xc, yc, l1_ratio=l1_ratio, alphas=alphas, tol=1e-12,
                               max_iter=100_000)  # fmt: skip
    return coefs


@pytest.mark.parametrize("model", [LassoCV(cv=KFold(5), tol=1e-10, max_iter=10_000),
                                   ElasticNetCV(l1_ratio=0.5, cv=KFold(5), tol=1e-10,
                                                max_iter=10_000)])  # fmt: skip
def test_paths_equal_sklearn_and_marks_the_choices(model):
    X, y = _data()
    model.fit(X, y)
    ax = plot_coefficient_path(model, X, y)
    p = X.shape[1]
    lines = ax.lines[:p]
    alphas = np.asarray(lines[0].get_xdata())
    np.testing.assert_allclose(alphas, model.alphas_)
    ours = np.array([line.get_ydata() for line in lines])
    ref = _sklearn_path(X, y, model.alphas_, float(model.l1_ratio_))
    np.testing.assert_allclose(ours, ref, atol=1e-6)
    marks = {line.get_label(): line.get_xdata()[0] for line in ax.lines[p:]}
    assert marks["alpha_min_"] == model.alpha_min_ and marks["alpha_1se_"] == model.alpha_1se_
    assert model.alpha_1se_ >= model.alpha_min_
    at_min = int(np.flatnonzero(model.alphas_ == model.alpha_min_)[0])
    np.testing.assert_allclose(ours[:, at_min], model.coef_, atol=1e-6)  # the refit's
    assert ax.get_xscale() == "log"


def test_pipeline_scales_first_and_plain_lasso_marks_its_alpha():
    X, y = _data(seed=1)
    pipe = make_pipeline(StandardScaler(), LassoCV(cv=KFold(4))).fit(X, y)
    ax = plot_coefficient_path(pipe, X, y, feature_names=list("abcde"))
    Z = StandardScaler().fit_transform(X)
    ref = _sklearn_path(Z, y, pipe[-1].alphas_, 1.0)
    ours = np.array([line.get_ydata() for line in ax.lines[:5]])
    np.testing.assert_allclose(ours, ref, atol=1e-4)
    assert [line.get_label() for line in ax.lines[:5]] == list("abcde")
    ax = plot_coefficient_path(Lasso(alpha=0.2).fit(X, y), X, y, n_alphas=30)
    assert len(ax.lines[0].get_xdata()) == 30
    assert [line.get_label() for line in ax.lines[5:6]] == ["alpha"]


def test_refuses_other_models():
    X, y = _data()
    with pytest.raises(TypeError, match="Lasso, ElasticNet, LassoCV or ElasticNetCV"):
        plot_coefficient_path(LinearRegression().fit(X, y), X, y)
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        plot_coefficient_path(Lasso(alpha=0.1).fit(X, y), X, y, feature_names=["a", "b"])
