"""Bagging and random forests: invariants, bad input, importance functions (E36)."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification, make_friedman1

from statlearning.ensemble import (
    BaggingClassifier,
    BaggingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    oob_permutation_importance,
    split_level_importance,
)
from statlearning.neighbors import KNeighborsClassifier
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor, Tree


@pytest.fixture(scope="module")
def clf_data():
    return make_classification(300, 6, n_informative=3, n_redundant=1, random_state=0)


@pytest.fixture(scope="module")
def reg_data():
    return make_friedman1(300, 6, noise=1.0, random_state=0)


def _tree_arrays(est):
    t = est.tree_
    return [t.children_left, t.children_right, t.feature, t.threshold, t.value]


def _same_forest(a, b):
    assert len(a.estimators_) == len(b.estimators_)
    for ea, eb in zip(a.estimators_, b.estimators_, strict=True):
        for xa, xb in zip(_tree_arrays(ea), _tree_arrays(eb), strict=True):
            np.testing.assert_array_equal(xa, xb)


@pytest.mark.parametrize("cls", [RandomForestClassifier, RandomForestRegressor])
def test_same_seed_same_forest_and_threads(cls, clf_data, reg_data):
    X, y = clf_data if cls is RandomForestClassifier else reg_data
    a = cls(15, random_state=3).fit(X, y)
    b = cls(15, random_state=3).fit(X, y)
    c = cls(15, random_state=3, n_jobs=2).fit(X, y)
    d = cls(15, random_state=4).fit(X, y)
    _same_forest(a, b)
    _same_forest(a, c)
    np.testing.assert_array_equal(a.predict(X), c.predict(X))
    assert not np.array_equal(a.estimators_[0].tree_.feature, d.estimators_[0].tree_.feature)


@pytest.mark.parametrize("cls", [RandomForestClassifier, RandomForestRegressor,
                                 BaggingClassifier, BaggingRegressor])
def test_integer_weights_are_repeated_rows(cls, clf_data, reg_data):
    X, y = clf_data if cls in (RandomForestClassifier, BaggingClassifier) else reg_data
    X, y = X[:80], y[:80]
    w = np.random.default_rng(1).integers(0, 4, size=80)
    a = cls(n_estimators=8, random_state=0).fit(X, y, sample_weight=w)
    perm = np.random.default_rng(2).permutation(int(w.sum()))
    Xr, yr = np.repeat(X, w, axis=0)[perm], np.repeat(y, w)[perm]
    b = cls(n_estimators=8, random_state=0).fit(Xr, yr)
    method = "predict_proba" if hasattr(a, "predict_proba") else "predict"
    np.testing.assert_allclose(getattr(a, method)(X), getattr(b, method)(X), atol=1e-12)


def test_oob_curve_and_score(clf_data, reg_data):
    X, y = clf_data
    rf = RandomForestClassifier(30, oob_score=True, random_state=0).fit(X, y)
    assert rf.oob_error_curve_.shape == (30,)
    assert rf.oob_error_curve_[-1] == pytest.approx(1 - rf.oob_score_, abs=1e-12)
    proba = rf.oob_decision_function_
    pred = rf.classes_[np.argmax(proba, axis=1)]
    assert np.mean(pred == y) == pytest.approx(rf.oob_score_, abs=1e-12)
    X, y = reg_data
    rr = RandomForestRegressor(30, oob_score=True, random_state=0).fit(X, y)
    mse = np.mean((rr.oob_prediction_ - y) ** 2)
    assert rr.oob_error_curve_[-1] == pytest.approx(mse, rel=1e-10)
    assert rr.oob_score_ == pytest.approx(1 - mse / np.var(y), rel=1e-10)


def test_oob_rows_never_out_of_bag_are_excluded(clf_data):
    X, y = clf_data
    with pytest.warns(UserWarning, match="no OOB prediction"):
        rf = RandomForestClassifier(2, oob_score=True, random_state=0).fit(X, y)
    seen = ~np.isnan(rf.oob_decision_function_[:, 0])
    pred = rf.classes_[np.argmax(rf.oob_decision_function_[seen], axis=1)]
    assert rf.oob_score_ == pytest.approx(np.mean(pred == y[seen]))


def test_hard_voting_gives_vote_fractions(clf_data):
    X, y = clf_data
    rf = RandomForestClassifier(7, voting="hard", random_state=0).fit(X, y)
    p = rf.predict_proba(X[:20])
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(p * 7, np.round(p * 7), atol=1e-12)
    votes = np.zeros_like(p)
    for tree in rf.estimators_:
        votes[np.arange(20), np.argmax(tree.predict_proba(X[:20]), axis=1)] += 1
    np.testing.assert_allclose(p, votes / 7)


@pytest.mark.parametrize("classifier", [True, False])
def test_bagging_trees_equals_forest_with_all_features(classifier, clf_data, reg_data):
    X, y = clf_data if classifier else reg_data
    if classifier:
        tree = DecisionTreeClassifier(tie_break="random")
        bag = BaggingClassifier(tree, 12, random_state=5).fit(X, y)
        rf = RandomForestClassifier(12, max_features=None, random_state=5).fit(X, y)
        np.testing.assert_array_equal(bag.predict_proba(X), rf.predict_proba(X))
    else:
        tree = DecisionTreeRegressor(tie_break="random")
        bag = BaggingRegressor(tree, 12, random_state=5).fit(X, y)
        rf = RandomForestRegressor(12, max_features=None, random_state=5).fit(X, y)
        np.testing.assert_array_equal(bag.predict(X), rf.predict(X))
    _same_forest(bag, rf)


def test_bagging_estimator_without_sample_weight():
    X, y = load_iris(return_X_y=True)
    bag = BaggingClassifier(KNeighborsClassifier(5), 25, oob_score=True, random_state=0)
    bag.fit(X, y)
    assert bag.score(X, y) > 0.9
    assert 0.85 < bag.oob_score_ <= 1.0
    np.testing.assert_allclose(bag.predict_proba(X).sum(axis=1), 1.0)


def test_forest_predict_matches_mean_of_trees(reg_data):
    X, y = reg_data
    rf = RandomForestRegressor(9, random_state=0).fit(X, y)
    mean = np.mean([t.predict(X) for t in rf.estimators_], axis=0)
    np.testing.assert_allclose(rf.predict(X), mean, rtol=1e-12)
    assert rf.max_features_ == 2  # floor(6 / 3), R's mtry for regression
    np.testing.assert_allclose(rf.feature_importances_.sum(), 1.0)


def test_bad_input(clf_data):
    X, y = clf_data
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN.*missing"):
        RandomForestClassifier(3).fit(Xn, y)
    Xi = X.copy()
    Xi[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        RandomForestRegressor(3).fit(Xi, y.astype(float))
    rf = RandomForestClassifier(3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        rf.predict(Xn)
    with pytest.raises(ValueError, match="class"):
        RandomForestClassifier(3).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="max_features"):
        RandomForestClassifier(3, max_features=7).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        RandomForestClassifier(3, max_features=0).fit(X, y)
    with pytest.raises(ValueError, match="bootstrap"):
        BaggingRegressor(bootstrap=False, oob_score=True).fit(X, y)


def _chain_tree(features):
    """A tree whose level-l split (root = level 1) is on ``features[l - 1]``; left children
    are leaves."""
    m = len(features)
    n_nodes = 2 * m + 1
    left = np.full(n_nodes, -1)
    right = np.full(n_nodes, -1)
    feature = np.full(n_nodes, -2)
    depth = np.zeros(n_nodes, dtype=np.int64)
    node = 0
    for level, f in enumerate(features):
        left[node], right[node], feature[node] = node + 1, node + 2, f
        depth[node + 1] = depth[node + 2] = level + 1
        node += 2
    z = np.zeros(n_nodes)
    return Tree(left, right, feature, np.zeros(n_nodes), np.zeros((n_nodes, 1)),
                np.ones(n_nodes, dtype=np.int64), z + 1, z, z, depth)


def test_split_level_importance_e36():
    # seed 004 E36: X1 at levels 1, 4, 3 in trees 1, 2, 5; X2 at levels 2, 2, 3, 5 in trees
    # 2-5 (X3 fills the other levels)
    trees = [
        _chain_tree([0, 2]),
        _chain_tree([2, 1, 2, 0]),
        _chain_tree([2, 1]),
        _chain_tree([2, 2, 1]),
        _chain_tree([2, 2, 0, 2, 1]),
    ]
    imp = split_level_importance(trees, n_features=3)
    assert imp[0] == pytest.approx(19 / 60, abs=1e-15)
    assert imp[1] == pytest.approx(23 / 75, abs=1e-15)


def test_split_level_importance_of_forest(clf_data):
    X, y = clf_data
    rf = RandomForestClassifier(5, max_depth=1, random_state=0).fit(X, y)
    imp = split_level_importance(rf)
    assert imp.shape == (6,)
    assert imp.sum() == pytest.approx(1.0)  # one root split per tree, weight 1


def test_permutation_importance_definitions(reg_data):
    X, y = reg_data
    rf = RandomForestRegressor(40, permutation_importance=True, random_state=0).fit(X, y)
    # friedman1: columns 0-4 matter, column 5 is noise
    assert np.all(rf.permutation_importances_[:5] > rf.permutation_importances_[5])
    br = oob_permutation_importance(rf, X, y, random_state=0)
    diff = np.abs(br.importances_mean - rf.permutation_importances_)
    assert np.all(diff < 4 * np.hypot(br.importances_std, rf.permutation_importances_se_) + 1e-12)
    d = br.importances
    np.testing.assert_allclose(br.importances_mean, d.mean(axis=1))
    np.testing.assert_allclose(
        br.importances_std, np.sqrt(((d**2).mean(axis=1) - d.mean(axis=1) ** 2) / d.shape[1]))
    s1 = oob_permutation_importance(rf, X, y, method="seed001", random_state=0)
    a = np.abs(d)
    np.testing.assert_allclose(s1.importances, a)
    expect = a.mean(axis=1) / np.sqrt(((a - a.mean(axis=1, keepdims=True)) ** 2).sum(axis=1))
    np.testing.assert_allclose(s1.importances_mean, expect)


def test_seed001_zero_denominator_guarded():
    X = np.c_[np.arange(40.0), np.zeros(40)]
    y = (X[:, 0] > 19).astype(int)
    rf = RandomForestClassifier(5, max_features=None, random_state=0).fit(X, y)
    res = oob_permutation_importance(rf, X, y, method="seed001", random_state=0)
    assert res.importances_mean[1] == 0.0  # an unused (constant) column: 0, not 0/0
    assert np.isfinite(res.importances_mean[0])


def test_classifier_per_class_permutation_importance():
    X, y = load_iris(return_X_y=True)
    rf = RandomForestClassifier(30, permutation_importance=True, random_state=0).fit(X, y)
    assert rf.permutation_importances_per_class_.shape == (4, 3)
    # petal columns matter more than sepal width
    assert rf.permutation_importances_[2] > rf.permutation_importances_[1]
    assert rf.permutation_importances_[3] > rf.permutation_importances_[1]
