"""Missing values (surrogate splits) and categorical columns in the CART trees: properties,
optimality of the categorical search, routing, pruning and bad input."""

import itertools
import pickle

import numpy as np
import pytest

from statlearning.tree import (
    DecisionTreeClassifier,
    DecisionTreeClassifierCV,
    DecisionTreeRegressor,
    DecisionTreeRegressorCV,
    export_text,
)
from statlearning.tree._categorical import categorical_split as _compiled_split
from statlearning.tree._splitter import GINI, SQUARED_ERROR


def _data(n=120, seed=0, frac_nan=0.15):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    X[:, 2] = X[:, 0] + 0.3 * rng.normal(size=n)  # a good surrogate for column 0
    y = np.where(X[:, 0] > 0.2, 3.0, 0.0) + X[:, 1] + 0.2 * rng.normal(size=n)
    mask = rng.uniform(size=X.shape) < frac_nan
    mask[:, 3] = False
    X[mask] = np.nan
    return X, y


def _same_tree(a, b):
    for name in ("children_left", "children_right", "feature", "n_node_samples"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    np.testing.assert_allclose(a.value, b.value, rtol=1e-12)
    np.testing.assert_allclose(a.risk, b.risk, rtol=1e-12, atol=1e-12)


def test_surrogate_routes_missing_rows_like_the_correlated_column():
    X, y = _data()
    est = DecisionTreeRegressor(max_depth=1).fit(X, y)
    t = est.tree_
    assert t.feature[0] == 0
    root = t.surrogate_index[0]  # the root split's row of surrogates
    assert t.surrogate_feature[root, 0] == 2  # the column built from column 0
    assert t.surrogate_adj[root, 0] > 0.3
    assert np.all(np.diff(t.surrogate_agreement[root][t.surrogate_feature[root] >= 0]) <= 0)
    # a row missing column 0 follows column 2's surrogate split
    row = np.array([[np.nan, 0.0, 5.0, 0.0], [np.nan, 0.0, -5.0, 0.0]])
    go_left = 5.0 < t.surrogate_threshold[root, 0]
    expect_first = (t.children_left[0] if go_left == t.surrogate_left[root, 0]
                    else t.children_right[0])
    assert est.apply(row)[0] == expect_first
    assert est.apply(row)[1] != expect_first
    # every training row is counted in exactly one child
    left, right = t.children_left[0], t.children_right[0]
    assert t.n_node_samples[left] + t.n_node_samples[right] == X.shape[0]


def test_all_surrogates_missing_follow_the_larger_child():
    X, y = _data(frac_nan=0.0)
    est = DecisionTreeRegressor(max_depth=1, use_surrogates="missing").fit(X, y)
    t = est.tree_
    assert t.surrogate_feature is None  # complete numeric data, "missing": no surrogates
    row = np.full((1, 4), np.nan)
    big = t.children_left[0] if (t.n_node_samples[t.children_left[0]]
                                 > t.n_node_samples[t.children_right[0]]) else t.children_right[0]
    assert est.apply(row)[0] == big
    path = est.decision_path(row).toarray()[0]
    assert path[0] == 1 and path[big] == 1 and path.sum() == 2


def test_decision_path_agrees_with_apply_on_missing_rows():
    X, y = _data()
    est = DecisionTreeRegressor(max_depth=4).fit(X, y)
    leaves = est.apply(X)
    path = est.decision_path(X)
    assert np.all(path[np.arange(X.shape[0]), leaves] == 1)
    depth = est.tree_.depth[leaves]
    np.testing.assert_array_equal(np.asarray(path.sum(axis=1)).ravel(), depth + 1)


def test_invariance_under_increasing_transforms_with_missing_values():
    X, y = _data()
    Z = X.copy()
    Z[:, 0] = np.exp(X[:, 0])
    Z[:, 2] = 3.0 * X[:, 2] - 7.0
    Z[:, 1] = X[:, 1] ** 3
    a = DecisionTreeRegressor(min_samples_leaf=5).fit(X, y)
    b = DecisionTreeRegressor(min_samples_leaf=5).fit(Z, y)
    _same_tree(a.tree_, b.tree_)
    np.testing.assert_array_equal(a.apply(X), b.apply(Z))
    np.testing.assert_array_equal(a.tree_.surrogate_feature, b.tree_.surrogate_feature)
    np.testing.assert_allclose(a.tree_.surrogate_agreement, b.tree_.surrogate_agreement)


def test_useless_column_with_missing_values_changes_nothing():
    X, y = _data()
    extra = np.where(np.arange(X.shape[0]) % 2 == 0, 1.0, np.nan)  # constant where present
    a = DecisionTreeRegressor(min_samples_leaf=3).fit(X, y)
    b = DecisionTreeRegressor(min_samples_leaf=3).fit(np.column_stack([X, extra]), y)
    _same_tree(a.tree_, b.tree_)
    assert not np.any(b.tree_.surrogate_feature == 4)
    np.testing.assert_allclose(a.predict(X), b.predict(np.column_stack([X, extra])))


def test_pickle_round_trip_keeps_surrogates_and_levels():
    X, y = _data()
    X[:, 3] = np.floor(np.abs(X[:, 3]) * 3)
    est = DecisionTreeRegressor(min_samples_leaf=4, categorical_features=[3]).fit(X, y)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(est.predict(X), again.predict(X))
    assert export_text(est) == export_text(again)


def test_pruning_cv_and_path_with_missing_values():
    X, y = _data()
    full = DecisionTreeRegressor(min_samples_leaf=3).fit(X, y)
    pruned = full.prune(cp=0.02)
    direct = DecisionTreeRegressor(min_samples_leaf=3, cp=0.02).fit(X, y)
    _same_tree(pruned.tree_, direct.tree_)
    np.testing.assert_allclose(pruned.predict(X), direct.predict(X))
    path = DecisionTreeRegressor(min_samples_leaf=3).cost_complexity_pruning_path(X, y)
    assert path.ccp_alphas[0] == 0 and np.all(np.diff(path.ccp_alphas) >= 0)
    est = DecisionTreeRegressor(min_samples_leaf=3, cp=0.001, xval=5, random_state=0).fit(X, y)
    assert np.all(np.isfinite(est.cptable_["xerror"]))
    cv = DecisionTreeRegressorCV(cv=5, random_state=0, min_samples_leaf=3).fit(X, y)
    assert cv.get_n_leaves() >= 2
    labels = np.where(y > 1.5, "hi", "lo")
    clf = DecisionTreeClassifierCV(cv=4, random_state=0).fit(X, labels)
    assert set(clf.predict(X)) <= {"hi", "lo"}


def test_best_first_growth_with_missing_values():
    X, y = _data()
    est = DecisionTreeRegressor(max_leaf_nodes=5).fit(X, y)
    assert est.get_n_leaves() == 5
    assert np.all(np.isfinite(est.predict(X)))


def test_max_surrogates_caps_and_zero_uses_the_majority():
    X, y = _data()
    est = DecisionTreeRegressor(max_depth=3, max_surrogates=1).fit(X, y)
    assert est.tree_.surrogate_feature.shape[1] == 1
    none = DecisionTreeRegressor(max_depth=1, max_surrogates=0).fit(X, y)
    t = none.tree_
    miss = np.isnan(X[:, 0])
    leaves = none.apply(X[miss])
    left, right = t.children_left[0], t.children_right[0]
    majority = left if t.majority_left[0] == 1 else right
    predict_side = left if t.n_node_samples[left] > t.n_node_samples[right] else right
    assert np.all(leaves == predict_side)
    assert majority in (left, right)


def test_rows_missing_everything_are_dropped():
    X, y = _data()
    X[:3] = np.nan
    est = DecisionTreeRegressor().fit(X, y)
    assert est.n_rows_all_missing_ == 3
    assert est.tree_.n_node_samples[0] == X.shape[0] - 3
    assert export_text(est).startswith(
        f"n={X.shape[0] - 3} (3 observations deleted due to missingness)\n")


def test_allow_nan_tag_follows_use_surrogates():
    assert DecisionTreeRegressor().__sklearn_tags__().input_tags.allow_nan
    assert not DecisionTreeClassifier(use_surrogates=False).__sklearn_tags__().input_tags.allow_nan


# --- categorical columns -------------------------------------------------------------------

def _brute_force(xc, y, codes, w, q, crit, n_classes):
    """Best gain over every partition of the levels present (exhaustive)."""
    present = np.unique(xc)
    best = -np.inf
    for r in range(1, present.size):
        for left in itertools.combinations(present, r):
            mask = np.isin(xc, left)
            if crit == SQUARED_ERROR:
                m = np.average(y, weights=w)
                sl = np.dot(w[mask], y[mask] - m)
                g = sl * sl / w[mask].sum() + sl * sl / w[~mask].sum()
            else:
                def gg(rows):
                    c = np.bincount(codes[rows], weights=w[rows], minlength=n_classes)
                    return np.dot(c, c) / c.sum()
                g = gg(mask) + gg(~mask) - gg(np.ones_like(mask))
            best = max(best, g)
    return best


def categorical_split(xc, y, codes, w, cnt, q, crit, n_classes, min_leaf, min_wleaf):
    """The compiled level-partition search on one node's rows: ``(gain, left levels)``."""
    n = xc.size
    mask = np.zeros(q, dtype=bool)
    ok, g = _compiled_split(np.arange(n), xc.astype(np.int64), n, q, y.astype(float),
                            codes.astype(np.int64), w.astype(float), cnt.astype(float), crit,
                            n_classes, min_leaf, min_wleaf, mask)
    return (g, np.flatnonzero(mask)) if ok else (-np.inf, None)


@pytest.mark.parametrize("n_classes", [0, 2, 3])
def test_categorical_search_is_optimal(n_classes):
    rng = np.random.default_rng(n_classes)
    q, n = 7, 200
    xc = rng.integers(0, q, size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    if n_classes:
        codes = (xc * 5 + rng.integers(0, 4, size=n)) % n_classes
        y = np.zeros(n)
        crit = GINI
    else:
        codes = np.zeros(n, dtype=np.int64)
        y = np.sin(xc * 1.7) + 0.3 * rng.normal(size=n)
        crit = SQUARED_ERROR
    g, left = categorical_split(xc, y, codes, w, (w > 0) * 1.0, q, crit, max(n_classes, 1), 1.0,
                                0.0)
    assert g == pytest.approx(_brute_force(xc, y, codes, w, q, crit, max(n_classes, 1)),
                              rel=1e-10)
    assert 0 < left.size < q


def test_many_levels_multiclass_uses_the_ordering_heuristic():
    rng = np.random.default_rng(3)
    q, n = 14, 300
    xc = rng.integers(0, q, size=n)
    codes = (xc % 3).astype(np.int64)
    g, left = categorical_split(xc, np.zeros(n), codes, np.ones(n), np.ones(n), q, GINI, 3, 1.0,
                                0.0)
    assert np.isfinite(g) and 0 < left.size < q


def test_numpy_codes_and_dataframe_categories_agree():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    n = 150
    lev = rng.integers(0, 5, size=n)
    x = rng.normal(size=n)
    y = np.where(np.isin(lev, [1, 3]), 2.0, 0.0) + x + 0.1 * rng.normal(size=n)
    names = np.array(["a", "b", "c", "d", "e"])
    X_np = np.column_stack([lev * 2.0 + 4, x])  # codes 4, 6, ..., 12
    frame = pd.DataFrame({"g": pd.Categorical(names[lev], categories=list(names)), "x": x})
    a = DecisionTreeRegressor(min_samples_leaf=5, categorical_features=[0]).fit(X_np, y)
    b = DecisionTreeRegressor(min_samples_leaf=5).fit(frame, y)
    _same_tree(a.tree_, b.tree_)
    np.testing.assert_array_equal(a.categories_[0], [4, 6, 8, 10, 12])
    assert list(b.categories_[0]) == list(names) and b.categories_[1] is None
    np.testing.assert_allclose(a.predict(X_np), b.predict(frame))
    text = export_text(b, style="indented")
    assert "g in {b, d}" in text or "g in {a, c, e}" in text
    assert "g=" in export_text(b)
    mask = DecisionTreeRegressor(min_samples_leaf=5, categorical_features=[True, False])
    _same_tree(mask.fit(X_np, y).tree_, a.tree_)


def test_level_absent_from_a_node_is_routed_as_missing():
    rng = np.random.default_rng(2)
    n = 400
    x = rng.normal(size=n)
    lev = np.where(x < 0, rng.integers(0, 3, size=n), rng.integers(0, 4, size=n)).astype(float)
    y = np.where(x > 0, 10.0, 0.0) + np.where(lev == 0, 3.0, 0.0)
    X = np.column_stack([lev, x])
    est = DecisionTreeRegressor(max_depth=2, max_surrogates=0, categorical_features=[0])
    t = est.fit(X, y).tree_
    assert t.feature[0] == 1
    low = t.children_left[0]  # x < t: levels 0, 1, 2 only
    assert t.feature[low] == 0 and np.isnan(t.threshold[low])
    assert (int(t.cat_left[low, 0]) | int(t.cat_right[low, 0])) == 0b111
    a, b = t.children_left[low], t.children_right[low]
    bigger = a if t.n_node_samples[a] > t.n_node_samples[b] else b
    assert est.apply(np.array([[3.0, -1.0]]))[0] == bigger
    keep = lev != 3
    est2 = DecisionTreeRegressor(max_depth=1, categorical_features=[0]).fit(X[keep], y[keep])
    with pytest.raises(ValueError, match=r"column 0 has level 3 not seen at fit"):
        est2.predict(np.array([[3.0, 0.5]]))


def test_use_surrogates_false_with_categorical_columns():
    rng = np.random.default_rng(4)
    X = np.column_stack([rng.integers(0, 3, size=80), rng.normal(size=80)])
    y = (X[:, 0] == 1).astype(float)
    est = DecisionTreeRegressor(use_surrogates=False, categorical_features=[0], max_depth=2)
    est.fit(X, y)
    assert est.predict(np.array([[1.0, 0.0]]))[0] == pytest.approx(1.0)


# --- bad input ---------------------------------------------------------------------------

def test_nan_rejected_without_surrogates_names_the_columns():
    X, y = _data()
    with pytest.raises(ValueError, match=r"NaN in column\(s\) 0, 1, 2"):
        DecisionTreeRegressor(use_surrogates=False).fit(X, y)
    X0, _ = _data(frac_nan=0.0)
    est = DecisionTreeRegressor(use_surrogates=False).fit(X0, y)
    X0[0, 3] = np.nan
    with pytest.raises(ValueError, match=r"NaN in column\(s\) 3"):
        est.predict(X0)


def test_inf_rejected_even_with_surrogates():
    X, y = _data()
    X[0, 1] = np.inf
    with pytest.raises(ValueError, match=r"infinity in column\(s\) 1;"):
        DecisionTreeRegressor().fit(X, y)
    est = DecisionTreeRegressor().fit(np.nan_to_num(X, posinf=0.0), y)
    X[3, 0] = -np.inf
    with pytest.raises(ValueError, match=r"DecisionTreeRegressor: .*infinity in column\(s\) 0, 1"):
        est.predict(X)


def test_single_class_rejected():
    X, _ = _data()
    with pytest.raises(ValueError, match="class"):
        DecisionTreeClassifier().fit(X, np.ones(X.shape[0]))


def test_max_features_out_of_range():
    X, y = _data()
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeRegressor(max_features=5).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeRegressor(max_features=0.0).fit(X, y)


def test_bad_categorical_input():
    pd = pytest.importorskip("pandas")
    X, y = _data(frac_nan=0.0)
    with pytest.raises(ValueError, match="non-negative integer codes"):
        DecisionTreeRegressor(categorical_features=[0]).fit(X, y)
    with pytest.raises(ValueError, match="categorical_features"):
        DecisionTreeRegressor(categorical_features=[7]).fit(X, y)
    with pytest.raises(ValueError, match="categorical_features"):
        DecisionTreeRegressor(categorical_features=[True, False]).fit(X, y)
    frame = pd.DataFrame({"g": pd.Categorical(["u", "v"] * 30), "x": np.arange(60.0)})
    est = DecisionTreeRegressor().fit(frame, np.arange(60.0))
    new = pd.DataFrame({"g": pd.Categorical(["u", "w"]), "x": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"'g' has level 'w' not seen at fit"):
        est.predict(new)
