"""``score`` on Dask collections: R², accuracy and the GLM's D² from block sums, equal to the
in-memory scores, for the estimators that fit on Dask."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.discriminant_analysis import QuadraticDiscriminantAnalysis
from statlearning.linear_model import GLMRegressor, LinearRegression, LogisticRegression, Ridge
from statlearning.naive_bayes import CategoricalNB, GaussianNB

da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.dask

ROWS = (90, 3, 70, 40)


def data(n=203, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    w = rng.uniform(0.2, 2.0, n)
    w[::17] = 0.0
    y = {
        "real": 1.0 + X @ [1.0, -1.0, 0.5] + rng.normal(size=n),
        "count": rng.poisson(np.exp(0.2 + X @ [0.3, -0.2, 0.1])).astype(float),
        "label": np.where(X[:, 0] + rng.normal(size=n) > 0, "a", "b"),
    }
    return X, y, w


def chunked(a, rows=ROWS):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


@pytest.mark.parametrize(
    ("estimator", "target"),
    [
        (LinearRegression(), "real"),
        (Ridge(alpha=2.0), "real"),
        (GLMRegressor(family="poisson"), "count"),
        (LogisticRegression(), "label"),
        (GaussianNB(), "label"),
        (QuadraticDiscriminantAnalysis(), "label"),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, str) else v,
)
def test_score_equals_in_memory_score(client, estimator, target):
    X, ys, w = data()
    y = ys[target]
    estimator.fit(X, y)
    for sw in (None, w):
        ref = estimator.score(X, y, sample_weight=sw)
        ours = estimator.score(chunked(X), chunked(y), None if sw is None else chunked(w))
        assert isinstance(ours, float)
        assert ours == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_categorical_nb_score_and_constant_target(client):
    X, ys, _ = data()
    X = np.round(X)
    model = CategoricalNB().fit(X, ys["label"])
    assert model.score(chunked(X), chunked(ys["label"])) == model.score(X, ys["label"])
    # R² of a constant y: scikit-learn's convention (1 for an exact fit, else 0)
    lin = LinearRegression().fit(X, ys["real"])
    const = np.full(X.shape[0], 2.0)
    assert lin.score(chunked(X), chunked(const)) == lin.score(X, const) == 0.0


def test_nan_in_y_is_an_error_not_a_nan_score(client):
    X, ys, _ = data()
    model = LinearRegression().fit(X, ys["real"])
    y = ys["real"].copy()
    y[150] = np.nan
    with pytest.raises(ValueError, match=r"y .*NaN|NaN.*y"):
        model.score(chunked(X), chunked(y))
