"""WrapperSelector (seed 003: selection scored on validation data) and LassoPathSelector."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import Lasso as SkLasso
from sklearn.model_selection import KFold, cross_val_score

from statlearning.feature_selection import LassoPathSelector, WrapperSelector
from statlearning.linear_model import LinearRegression, LogisticRegression


def _data(n=120, p=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 1.0 + 2.0 * X[:, 1] - 1.5 * X[:, 5] + 1.0 * X[:, 6] + rng.normal(size=n)
    return X, y


def test_forward_wrapper_scores_on_validation_folds():
    X, y = _data()
    cv = KFold(5, shuffle=True, random_state=0)
    est = WrapperSelector(LinearRegression(), cv=cv, scoring="neg_mean_squared_error").fit(X, y)
    assert [r["size"] for r in est.path_] == list(range(X.shape[1] + 1))
    assert [set(r["variables"]) for r in est.path_[1:4]] == [{1}, {1, 5}, {1, 5, 6}]
    assert {1, 5, 6}.issubset(est.get_support(indices=True))
    one_se = WrapperSelector(
        LinearRegression(), cv=cv, scoring="neg_mean_squared_error", rule="1se"
    ).fit(X, y)
    assert one_se.get_support(indices=True).tolist() == [1, 5, 6]
    row = est.path_[2]
    manual = cross_val_score(
        LinearRegression(),
        X[:, list(row["variables"])],
        y,
        cv=cv,
        scoring="neg_mean_squared_error",
    )
    assert row["score"] == pytest.approx(manual.mean(), rel=1e-12)
    # Training error would keep adding features; the validation score peaks before the end.
    assert est.best_size_ < X.shape[1]


def test_backward_wrapper_and_one_standard_error_rule():
    X, y = _data(seed=2)
    cv = KFold(5, shuffle=True, random_state=1)
    lo = WrapperSelector(LinearRegression(), direction="backward", cv=cv).fit(X, y)
    assert [r["size"] for r in lo.path_] == list(range(X.shape[1], -1, -1))
    se = WrapperSelector(LinearRegression(), direction="backward", cv=cv, rule="1se")
    se.fit(X, y)
    assert se.best_size_ <= lo.best_size_
    assert {1, 5}.issubset(set(se.get_support(indices=True)))


def test_validation_split_with_string_labels():
    X, y = _data(n=300, seed=3)
    labels = np.where(y > np.median(y), "up", "down")
    est = WrapperSelector(LogisticRegression(), cv=0.3, random_state=0, max_features=3)
    est.fit(X, labels)
    assert len(est.path_) == 4
    assert 1 in est.get_support(indices=True)
    again = WrapperSelector(LogisticRegression(), cv=0.3, random_state=0, max_features=3)
    assert again.fit(X, labels).path_ == est.path_


def test_wrapper_bad_input():
    X, y = _data()
    with pytest.raises(TypeError, match="estimator"):
        WrapperSelector("ols").fit(X, y)
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        WrapperSelector(LinearRegression(), cv=1.5).fit(X, y)


def test_lasso_path_selector_matches_lasso_support():
    X, y = _data(p=10, seed=4)
    Z = X / X.std(axis=0)
    for alpha in (0.05, 0.3, 1.0):
        est = LassoPathSelector(alpha=alpha).fit(X, y)
        ref = SkLasso(alpha=alpha, tol=1e-10, max_iter=100_000).fit(Z, y).coef_ != 0
        np.testing.assert_array_equal(est.support_, ref)
    est = LassoPathSelector(max_features=2).fit(X, y)
    assert est.support_.sum() <= 2
    assert est.entry_order_[0] == 1  # largest |correlation| with y enters first
    assert set(est.entry_order_[:3]) == {1, 5, 6}
    assert LassoPathSelector().fit(X, y).support_.sum() >= 3


def test_selection_is_the_deprecated_name_of_rule():
    from sklearn.model_selection import KFold

    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = X[:, 0] + 0.3 * X[:, 1] + rng.normal(size=60)
    cv = KFold(4)
    new = WrapperSelector(LinearRegression(), cv=cv, rule="1se").fit(X, y)
    with pytest.warns(FutureWarning, match="'selection' was renamed to 'rule'"):
        old = WrapperSelector(LinearRegression(), cv=cv, selection="1se").fit(X, y)
    np.testing.assert_array_equal(old.support_, new.support_)
    from statlearning._core.selection import select_index

    rows = new.path_
    i = select_index([-r["score"] for r in rows], [r["score_se"] for r in rows],
                     [r["size"] for r in rows], rule="1se")
    assert new.best_size_ == rows[i]["size"]
    with pytest.raises(ValueError, match="cv"):
        WrapperSelector(LinearRegression(), cv=1).fit(X, y)
    with pytest.raises(ValueError, match="cv"):
        WrapperSelector(LinearRegression(), cv=1.5).fit(X, y)
