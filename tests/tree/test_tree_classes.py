"""Decision trees: scikit-learn as oracle, invariances, export, bad input."""

import numpy as np
import pytest
from sklearn import tree as sktree

from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text


def _data(n=300, p=5, seed=0, classes=0):
    """Continuous features exactly representable in float32 (scikit-learn's dtype), no ties."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)).astype(np.float32).astype(np.float64)
    signal = X[:, 0] + 0.5 * X[:, 1] ** 2 - X[:, 2] * X[:, 3]
    if classes:
        y = np.digitize(signal + 0.5 * rng.normal(size=n),
                        np.quantile(signal, np.linspace(0, 1, classes + 1)[1:-1]))
    else:
        y = signal + 0.3 * rng.normal(size=n)
    return X, y


def _assert_same_structure(ours, theirs):
    t, s = ours.tree_, theirs.tree_
    np.testing.assert_array_equal(t.children_left, s.children_left)
    np.testing.assert_array_equal(t.children_right, s.children_right)
    np.testing.assert_array_equal(t.feature, s.feature)
    internal = t.children_left >= 0
    np.testing.assert_allclose(t.threshold[internal], s.threshold[internal], rtol=1e-6)
    np.testing.assert_array_equal(t.n_node_samples, s.n_node_samples)
    np.testing.assert_allclose(t.weighted_n_node_samples, s.weighted_n_node_samples)


# Nodes of a few rows often have several columns inducing the same partition (an exact tie,
# which scikit-learn breaks at random): the configurations keep nodes large enough.
@pytest.mark.parametrize("params", [
    {"min_samples_leaf": 5},
    {"max_depth": 5, "min_samples_leaf": 8},
    {"min_samples_split": 30, "min_impurity_decrease": 0.01},
])
def test_regressor_matches_sklearn(params):
    X, y = _data()
    ours = DecisionTreeRegressor(**params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    _assert_same_structure(ours, theirs)
    np.testing.assert_allclose(ours.tree_.value[:, 0], theirs.tree_.value[:, 0, 0], rtol=1e-10)
    np.testing.assert_allclose(ours.tree_.impurity, theirs.tree_.impurity, rtol=1e-8,
                               atol=1e-12)
    Xt, _ = _data(seed=1)
    np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=1e-10)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               rtol=1e-7, atol=1e-12)
    assert (ours.decision_path(Xt) != theirs.decision_path(Xt)).nnz == 0
    np.testing.assert_array_equal(ours.apply(Xt), theirs.apply(Xt))
    assert ours.get_depth() == theirs.get_depth()
    assert ours.get_n_leaves() == theirs.get_n_leaves()


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("params", [{"max_depth": 3}, {"max_depth": 5, "min_samples_leaf": 20}])
def test_classifier_matches_sklearn(criterion, params):
    X, y = _data(n=2000, classes=3)
    labels = np.array(["lo", "mid", "hi"])[y]
    ours = DecisionTreeClassifier(criterion, **params).fit(X, labels)
    theirs = sktree.DecisionTreeClassifier(criterion=criterion, random_state=0, **params)
    theirs.fit(X, labels)
    _assert_same_structure(ours, theirs)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(ours.tree_.value, theirs.tree_.value[:, 0, :], rtol=1e-12)
    scale = np.log(2) if criterion == "entropy" else 1.0  # we use natural logs
    np.testing.assert_allclose(ours.tree_.impurity, theirs.tree_.impurity * scale,
                               rtol=1e-8, atol=1e-12)
    Xt, _ = _data(seed=2)
    np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt), rtol=1e-12)
    np.testing.assert_array_equal(ours.predict(Xt), theirs.predict(Xt))


def test_best_first_matches_sklearn_predictions():
    X, y = _data()
    ours = DecisionTreeRegressor(max_leaf_nodes=8).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(max_leaf_nodes=8, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == 8
    Xt, _ = _data(seed=3)
    np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=1e-10)


def test_sample_weight_matches_sklearn():
    X, y = _data(classes=2)
    w = np.random.default_rng(5).uniform(0.5, 2.0, size=y.size)
    ours = DecisionTreeClassifier(max_depth=4).fit(X, y, sample_weight=w)
    theirs = sktree.DecisionTreeClassifier(max_depth=4, random_state=0)
    theirs.fit(X, y, sample_weight=w)
    _assert_same_structure(ours, theirs)
    np.testing.assert_allclose(ours.tree_.value, theirs.tree_.value[:, 0, :], rtol=1e-10)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_partition_invariant_to_increasing_transforms(Est):
    X, y = _data(classes=0 if Est is DecisionTreeRegressor else 3)
    X2 = X.copy()
    X2[:, 0] = np.exp(X[:, 0])
    X2[:, 1] = X[:, 1] ** 3 + 5.0
    a = Est(min_samples_leaf=3).fit(X, y)
    b = Est(min_samples_leaf=3).fit(X2, y)
    np.testing.assert_array_equal(a.apply(X), b.apply(X2))
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_allclose(a.tree_.value, b.tree_.value)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
@pytest.mark.parametrize("params", [{}, {"cp": 0.01}, {"max_leaf_nodes": 6}])
def test_integer_weights_equal_repeated_rows_for_criterion_and_values(Est, params):
    """With the stopping rules inactive, integer weights are repeated rows for the split
    criterion and the node values (``min_samples_*`` count observations: see
    ``test_tree_weights.py``)."""
    X, y = _data(n=120, classes=0 if Est is DecisionTreeRegressor else 2)
    w = np.random.default_rng(1).integers(0, 4, size=y.size)
    a = Est(**params).fit(X, y, sample_weight=w)
    b = Est(**params).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    for name in ("children_left", "children_right", "feature", "threshold"):
        np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))
    np.testing.assert_allclose(a.tree_.value, b.tree_.value, rtol=1e-10)
    np.testing.assert_allclose(a.tree_.weighted_n_node_samples, b.tree_.n_node_samples)


def test_threshold_rule_is_strictly_less_goes_left():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    est = DecisionTreeRegressor(max_depth=1).fit(X, [0.0, 0.0, 1.0, 1.0])
    assert est.tree_.threshold[0] == 1.5
    assert est.predict([[1.5]])[0] == 1.0  # exactly at the threshold: right child
    assert est.predict([[1.4999]])[0] == 0.0


def test_tie_break_earlier_column_then_smaller_threshold():
    X = np.array([[0, 0], [1, 1], [2, 2], [3, 3]], dtype=float)
    est = DecisionTreeClassifier(max_depth=1).fit(X, [0, 0, 1, 1])
    assert est.tree_.feature[0] == 0
    # two equally good thresholds on one column: the smaller wins
    X1 = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    est = DecisionTreeClassifier(max_depth=1, criterion="misclassification")
    est.fit(X1, [0, 1, 0, 1, 1])
    assert est.tree_.threshold[0] == 0.5


def test_entropy_zero_log_zero_and_pure_node():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    est = DecisionTreeClassifier("entropy").fit(X, [0, 0, 1, 1])
    assert est.tree_.impurity[0] == pytest.approx(np.log(2))
    assert np.all(est.tree_.impurity[1:] == 0.0)
    assert est.get_n_leaves() == 2


def test_absolute_error_leaves_are_medians():
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0], [13.0]])
    y = np.array([1.0, 2.0, 100.0, 5.0, 6.0, 7.0, 50.0])
    est = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(X, y)
    assert est.tree_.value[0, 0] == 6.0
    # left {1, 2, 100, 5, 6, 7}: 105 about 5.5; right {50}: 0 (the split at 6.0 costs 145)
    assert est.tree_.threshold[0] == 12.5
    np.testing.assert_allclose(est.predict([[0.5], [13.0]]), [5.5, 50.0])
    sk = sktree.DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(X, y)
    np.testing.assert_allclose(est.predict(X), sk.predict(X))


def test_every_node_stores_prediction_size_impurity():
    X, y = _data(classes=2)
    t = DecisionTreeClassifier(max_depth=3).fit(X, y).tree_
    internal = np.flatnonzero(t.children_left >= 0)
    for node in internal:
        left, right = t.children_left[node], t.children_right[node]
        assert t.n_node_samples[node] == t.n_node_samples[left] + t.n_node_samples[right]
        counts = t.value[node] * t.weighted_n_node_samples[node]
        kids = (t.value[left] * t.weighted_n_node_samples[left]
                + t.value[right] * t.weighted_n_node_samples[right])
        np.testing.assert_allclose(counts, kids)
        assert t.depth[left] == t.depth[node] + 1
    np.testing.assert_allclose(t.value.sum(axis=1), 1.0)


def test_export_indented():
    X = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    est = DecisionTreeRegressor(max_depth=1).fit(X, [1.0, 1.0, 3.0, 3.0])
    text = export_text(est, style="indented", feature_names=["a", "b"])
    assert text == ("|--- a <  1.50\n|   |--- value: [1.00]\n"
                    "|--- a >= 1.50\n|   |--- value: [3.00]\n")
    assert export_text(est).splitlines()[3] == "      * denotes terminal node"
    assert "feature_0< 1.5" in export_text(est)


def test_cp_prunes_on_root_relative_risk():
    X, y = _data()
    full = DecisionTreeRegressor(min_samples_leaf=5).fit(X, y)
    pruned = DecisionTreeRegressor(min_samples_leaf=5, cp=0.01).fit(X, y)
    assert pruned.get_n_leaves() < full.get_n_leaves()
    t = pruned.tree_
    root_risk = t.risk[0]
    for node in np.flatnonzero(t.children_left >= 0):
        gain = t.risk[node] - t.risk[t.children_left[node]] - t.risk[t.children_right[node]]
        assert gain > 0.01 * root_risk or t.children_left[t.children_left[node]] >= 0 or (
            t.children_left[t.children_right[node]] >= 0)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_and_inf_rejected(bad):
    X, y = _data(n=20)
    X[3, 1] = bad
    with pytest.raises(ValueError, match=r"NaN|infinity"):
        DecisionTreeRegressor(use_surrogates=False).fit(X, y)
    if np.isinf(bad):
        with pytest.raises(ValueError, match="infinity"):
            DecisionTreeRegressor().fit(X, y)


def test_bad_parameters():
    X, y = _data(n=20)
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeRegressor(max_features=6).fit(X, y)
    with pytest.raises(ValueError, match="criterion"):
        DecisionTreeRegressor(criterion="gini").fit(X, y)
    with pytest.raises(ValueError, match="min_samples_leaf"):
        DecisionTreeClassifier(min_samples_leaf=0).fit(X, y > 0)
    est = DecisionTreeRegressor().fit(X, y)
    with pytest.raises(ValueError, match="feature_names"):
        export_text(est, feature_names=["a"])
    with pytest.raises(ValueError, match="style"):
        export_text(est, style="graphviz")


def test_single_class_is_rejected():
    X, _ = _data(n=10)
    with pytest.raises(ValueError, match="class"):
        DecisionTreeClassifier().fit(X, ["a"] * 10)


def test_max_features_is_reproducible_and_random():
    X, y = _data()
    a = DecisionTreeRegressor(max_features=2, random_state=0).fit(X, y)
    b = DecisionTreeRegressor(max_features=2, random_state=0).fit(X, y)
    c = DecisionTreeRegressor(max_features=2, random_state=1).fit(X, y)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    assert a.max_features_ == 2
    Xt, _ = _data(seed=4)
    assert not np.array_equal(a.predict(Xt), c.predict(Xt))
