"""MARSRegressor and MARSClassifier: behaviour beyond the earth fixtures."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.exceptions import NumericalWarning
from statlearning.mars import MARSClassifier, MARSRegressor


def _friedman(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, 5))
    y = 10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3]
    return X, y + rng.normal(size=n)


def test_predict_is_the_selected_basis_times_the_coefficients():
    X, y = _friedman()
    m = MARSRegressor(max_degree=2).fit(X, y)
    B = np.ones((X.shape[0], len(m.basis_)))
    for k, (dirs, cuts) in enumerate(zip(m.dirs_[1:], m.cuts_[1:], strict=True)):
        for j in np.flatnonzero(dirs):
            h = {1: np.maximum(X[:, j] - cuts[j], 0), -1: np.maximum(cuts[j] - X[:, j], 0)}
            B[:, k] *= h[dirs[j]] if dirs[j] != 2 else X[:, j]
    np.testing.assert_allclose(m.predict(X), B @ m.coef_ + m.intercept_, rtol=1e-12)
    # the interaction of x0 and x1 is found
    assert any("*" in t and "x0" in t and "x1" in t for t in m.basis_)
    # x4 does not enter y: evimp lists the four others, the linear x3 first
    assert sorted(m.evimp_["feature"]) == ["x0", "x1", "x2", "x3"]
    assert m.evimp_["feature"][0] == "x3" and m.evimp_["gcv"][0] == 100


def test_gcv_selects_the_minimum_and_prune_false_keeps_every_term():
    X, y = _friedman()
    m = MARSRegressor().fit(X, y)
    k = len(m.basis_) + 1
    assert k == int(np.argmin(m.gcv_per_subset_)) + 1
    assert m.gcv_ == m.gcv_per_subset_[k - 1]
    full = MARSRegressor(prune=False).fit(X, y)
    assert len(full.basis_) + 1 == len(full.forward_terms_)
    assert full.rss_ <= m.rss_


def test_rescaled_data_give_the_same_model_with_a_warning():
    X, y = _friedman(200)
    m = MARSRegressor().fit(X, y)
    with pytest.warns(NumericalWarning, match="scale"):
        big = MARSRegressor().fit(X * 1e300, y)
    assert len(big.basis_) == len(m.basis_)
    np.testing.assert_allclose(big.predict(X * 1e300), m.predict(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(big.cuts_, m.cuts_ * 1e300, rtol=1e-12)


def test_classifier_multiclass_probabilities_and_summary():
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, size=(400, 2))
    y = np.where(X[:, 0] < -1, "a", np.where(X[:, 0] > 1, "c", "b"))
    flip = rng.uniform(size=400) < 0.1
    y[flip] = rng.choice(["a", "b", "c"], size=flip.sum())
    clf = MARSClassifier().fit(X, y)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert clf.coef_.shape == (3, len(clf.basis_))
    assert clf.score(X, y) > 0.85
    lines = str(clf.summary()).splitlines()
    assert lines[0] == "GLM coefficients" and lines[1].split() == ["a", "b", "c"]
    row_b = next(line for line in lines if line.lstrip().startswith("b "))
    assert float(row_b.split()[3]) == pytest.approx(clf.deviance_[1], rel=1e-5)
    np.testing.assert_array_equal(clf.glm_stats_["df_null"], 399)
    frame = clf.summary().to_frame()
    assert list(frame.columns) == ["a", "b", "c"] and frame.index[0] == "(Intercept)"


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"minspan": "big"}, "minspan"),
        ({"endspan": 0}, "endspan"),
        ({"max_degree": 0}, "max_degree"),
        ({"penalty": -2}, "penalty"),
        ({"thresh": -0.1}, "thresh"),
    ],
)
def test_bad_parameters_are_named(params, match):
    X, y = _friedman(50)
    with pytest.raises(ValueError, match=match):
        MARSRegressor(**params).fit(X, y)


def test_bad_data():
    X, y = _friedman(50)
    with pytest.raises(ValueError, match="at least 3 samples"):
        MARSRegressor().fit(X[:2], y[:2])
    with pytest.raises(ValueError, match="class"):
        MARSClassifier().fit(X, np.zeros(50))
    m = MARSRegressor().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(X[:, :3])
