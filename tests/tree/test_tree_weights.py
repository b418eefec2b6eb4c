"""Sample weights are case weights: the stopping rules count observations, not weight."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import tree as sktree
from sklearn.base import clone

from statlearning.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    BaggingRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from statlearning.tree import (
    DecisionTreeClassifier,
    DecisionTreeClassifierCV,
    DecisionTreeRegressor,
    DecisionTreeRegressorCV,
)

RPART = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}


def _data(n=240, p=5, classes=0, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    f = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * X[:, 2] * X[:, 3]
    if classes:
        cuts = np.quantile(f, np.linspace(0, 1, classes + 1)[1:-1])
        y = np.digitize(f + 0.3 * rng.normal(size=n), cuts)
    else:
        y = f + 0.3 * rng.normal(size=n)
    if missing:
        X[rng.uniform(size=X.shape) < 0.1] = np.nan
    return X, y


def _trees(est):
    if hasattr(est, "tree_"):
        return [est.tree_]
    members = est.estimators_
    members = np.ravel(members) if isinstance(members, np.ndarray) else members
    return [m.tree_ if hasattr(m, "tree_") else m for m in members]


def _same_trees(a, b):
    ta, tb = _trees(a), _trees(b)
    assert len(ta) == len(tb)
    for s, t in zip(ta, tb, strict=True):
        for name in ("children_left", "children_right", "feature", "n_node_samples"):
            np.testing.assert_array_equal(getattr(s, name), getattr(t, name))
        np.testing.assert_allclose(s.threshold, t.threshold, rtol=0, atol=0)
        np.testing.assert_allclose(s.value, t.value, rtol=1e-9, atol=1e-12)


_REG = [
    DecisionTreeRegressor(),
    DecisionTreeRegressor(**RPART),
    DecisionTreeRegressor(max_leaf_nodes=9, min_samples_leaf=5),
    DecisionTreeRegressor(criterion="absolute_error", max_depth=4, min_samples_leaf=6),
    DecisionTreeRegressor(max_features=2, min_samples_split=15, random_state=1),
    DecisionTreeRegressor(use_surrogates="always", max_depth=4, min_samples_leaf=8),
    DecisionTreeRegressorCV(cv=np.arange(240) % 4, min_samples_leaf=5),
    BaggingRegressor(n_estimators=4, random_state=0),
    RandomForestRegressor(n_estimators=4, min_samples_split=6, random_state=0),
    RandomForestRegressor(n_estimators=3, max_samples=0.5, bootstrap=False, random_state=0),
    GradientBoostingRegressor(n_estimators=6, max_depth=3, min_samples_leaf=9),
    GradientBoostingRegressor(loss="absolute_error", n_estimators=5, max_depth=2,
                              subsample=0.7, min_samples_split=30, random_state=0),
]
_CLF = [
    DecisionTreeClassifier(),
    DecisionTreeClassifier(**RPART),
    DecisionTreeClassifier(criterion="entropy", max_leaf_nodes=7, min_samples_leaf=4),
    DecisionTreeClassifierCV(cv=np.arange(240) % 3, min_samples_split=25),
    BaggingClassifier(n_estimators=4, random_state=0),
    RandomForestClassifier(n_estimators=4, min_samples_leaf=3, random_state=0),
    AdaBoostClassifier(n_estimators=8),
    AdaBoostClassifier(DecisionTreeClassifier(max_depth=3, min_samples_leaf=10), n_estimators=5),
    GradientBoostingClassifier(n_estimators=4, max_depth=2, min_samples_leaf=6),
]


@pytest.mark.parametrize("est", _REG + _CLF, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("scale", [1 / 200, 7.3])
def test_rescaling_weights_changes_no_tree(est, scale):
    X, y = _data(classes=0 if est in _REG else 3)
    w = np.random.default_rng(4).uniform(0.5, 2.0, size=y.size)
    a = clone(est).fit(X, y, sample_weight=w)
    b = clone(est).fit(X, y, sample_weight=w * scale)
    _same_trees(a, b)
    np.testing.assert_allclose(a.predict(X), b.predict(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_missing_values_path_rescaling(Est):
    X, y = _data(classes=0 if Est is DecisionTreeRegressor else 2, missing=True)
    w = np.random.default_rng(4).uniform(0.5, 2.0, size=y.size)
    a = Est(**RPART).fit(X, y, sample_weight=w)
    b = Est(**RPART).fit(X, y, sample_weight=w / 200)
    _same_trees(a, b)


def test_tiny_weights_grow_the_unweighted_tree():
    """Weights 1/200 on every row used to leave a single leaf (the weight was compared with
    ``min_samples_split``); they are the unweighted tree."""
    X, y = _data()
    a = DecisionTreeRegressor(**RPART).fit(X, y)
    b = DecisionTreeRegressor(**RPART).fit(X, y, sample_weight=np.full(y.size, 1 / 200))
    assert a.get_n_leaves() > 5
    _same_trees(a, b)


@pytest.mark.parametrize("params", [
    {"min_samples_split": 30, "min_samples_leaf": 9},
    {"min_samples_leaf": 12, "max_depth": 5},
    {"min_weight_fraction_leaf": 0.08},
    {"min_weight_fraction_leaf": 0.03, "min_samples_leaf": 4, "max_leaf_nodes": 10},
])
def test_stopping_rules_match_sklearn_with_weights(params):
    """scikit-learn counts the samples of positive weight in ``min_samples_*`` and compares
    ``min_weight_fraction_leaf`` times the total weight with a child's weight."""
    X, y = _data()
    w = np.random.default_rng(5).uniform(0.1, 5.0, size=y.size)
    w[::9] = 0.0  # zero-weight rows are no observations
    ours = DecisionTreeRegressor(**params).fit(X, y, sample_weight=w)
    theirs = sktree.DecisionTreeRegressor(random_state=0, **params).fit(X, y, sample_weight=w)
    assert ours.tree_.node_count == theirs.tree_.node_count
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)
    np.testing.assert_array_equal(np.sort(ours.tree_.n_node_samples),
                                  np.sort(theirs.tree_.n_node_samples))


def test_integer_weights_are_not_repeated_rows_for_min_samples():
    """A row of weight 3 is one observation: with ``min_samples_split`` the weighted tree is
    smaller than the tree of the repeated rows (rpart and scikit-learn agree)."""
    X, y = _data(n=60)
    w = np.full(y.size, 3)
    a = DecisionTreeRegressor(min_samples_split=40).fit(X, y, sample_weight=w)
    b = DecisionTreeRegressor(min_samples_split=40).fit(np.repeat(X, 3, axis=0), np.repeat(y, 3))
    assert a.get_n_leaves() < b.get_n_leaves()
    np.testing.assert_array_equal(a.tree_.n_node_samples[:1], [60])
    c = DecisionTreeRegressor(min_samples_split=40).fit(X, y)
    _same_trees(a, c)


@pytest.mark.parametrize("cls", [RandomForestRegressor, RandomForestClassifier])
def test_forest_tree_is_the_tree_of_its_repeated_rows(cls):
    """A forest's tree grows on the bootstrap sample as repeated rows: a row drawn k times
    counts k times in min_samples_split / min_samples_leaf (R's randomForest)."""
    X, y = _data(n=150, classes=0 if cls is RandomForestRegressor else 2)
    params = {"min_samples_split": 9, "min_samples_leaf": 3}
    forest = cls(n_estimators=2, random_state=0, **params).fit(X, y)
    w = np.ones(y.size)
    counts = forest._in_bag_counts(0, X, y if cls is RandomForestRegressor
                                   else np.searchsorted(forest.classes_, y), w).astype(int)
    member = forest.estimators_[0]
    repeated = type(member)(**member.get_params()).fit(np.repeat(X, counts, axis=0),
                                                     np.repeat(y, counts))
    np.testing.assert_array_equal(member.tree_.feature, repeated.tree_.feature)
    np.testing.assert_array_equal(member.tree_.threshold, repeated.tree_.threshold)
    np.testing.assert_allclose(member.tree_.weighted_n_node_samples,
                               repeated.tree_.n_node_samples)
