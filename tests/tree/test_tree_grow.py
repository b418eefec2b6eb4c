"""The compiled grower: the same trees as the slow reference builder (``reference_builder.py``);
random subsets; threads."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from reference_builder import build_tree

from statlearning.tree import _grow
from statlearning.tree._apply import apply_checked, apply_kernel
from statlearning.tree._grow import grow_tree
from statlearning.tree._sort import _heapsort, radix_pairs, sort_node, sort_pairs
from statlearning.tree._splitter import (
    ABSOLUTE_ERROR,
    ENTROPY,
    GINI,
    MISCLASSIFICATION,
    SQUARED_ERROR,
)

FIELDS = ("children_left", "children_right", "feature", "threshold", "value", "n_node_samples",
          "weighted_n_node_samples", "impurity", "risk", "depth")
CRITERIA = (SQUARED_ERROR, ABSOLUTE_ERROR, GINI, ENTROPY, MISCLASSIFICATION)


def _dataset(rng, n, p, n_classes):
    """Mixed columns: continuous, few distinct values (ties), constant, signed zeros."""
    X = rng.normal(size=(n, p))
    kinds = rng.integers(0, 4, size=p)
    for j in range(p):
        if kinds[j] == 1:
            X[:, j] = np.round(2 * X[:, j]) / 2
        elif kinds[j] == 2:
            X[:, j] = 1.5
        elif kinds[j] == 3:
            X[:, j] = rng.choice([-0.0, 0.0, 1.0], size=n)
    codes = rng.integers(0, n_classes, size=n)
    y = X[:, 0] + codes + 0.5 * rng.normal(size=n)
    if rng.random() < 0.3:
        y = np.round(y)
    return X, y, codes.astype(np.int64)


def _weights(rng, n, kind):
    if kind == 0:
        return np.ones(n)
    if kind == 1:
        w = rng.integers(0, 4, size=n).astype(float)
    else:
        w = rng.exponential(size=n) * (rng.random(n) > 0.2)
    if w.sum() == 0:
        w[0] = 1.0
    return w


def _params(rng, crit, n_classes, p):
    return dict(
        crit=crit, n_classes=n_classes if crit >= GINI else 1,
        max_depth=[None, 0, 2, 5][rng.integers(4)],
        min_samples_split=int(rng.choice([2, 3, 10])),
        min_samples_leaf=int(rng.choice([1, 1, 2, 5])),
        min_impurity_decrease=float(rng.choice([0.0, 0.0, 1e-3, 0.05])),
        max_leaf_nodes=None, max_features=p, rng=np.random.RandomState(0),
    )


def _assert_same(a, b):
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape, name
        if x.dtype.kind == "i":
            np.testing.assert_array_equal(x, y, err_msg=name)
        else:
            np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("crit", CRITERIA)
def test_same_tree_as_python_builder(crit):
    rng = np.random.default_rng(100 + crit)
    n_cases = 12 if crit == ABSOLUTE_ERROR else 30
    for case in range(n_cases):
        n = int(rng.integers(1, 60 if crit == ABSOLUTE_ERROR else 250))
        p = int(rng.integers(1, 7))
        n_classes = int(rng.integers(2, 5))
        X, y, codes = _dataset(rng, n, p, n_classes)
        w = _weights(rng, n, case % 3)
        kw = _params(rng, crit, n_classes, p)
        ours = grow_tree(X, y, codes, w, **{**kw, "max_features": None})
        _assert_same(ours, build_tree(X, y, codes, w, **kw))


def test_one_row_and_pure_node():
    X = np.array([[1.0, 2.0]])
    for crit in CRITERIA:
        kw = _params(np.random.default_rng(0), crit, 2, 2)
        t = grow_tree(X, np.array([3.0]), np.array([1]), np.ones(1), **kw)
        assert t.node_count == 1
        _assert_same(t, build_tree(X, np.array([3.0]), np.array([1]), np.ones(1), **kw))
    X = np.random.default_rng(1).normal(size=(20, 3))
    t = grow_tree(X, np.ones(20), np.zeros(20, np.int64), np.ones(20), **kw)
    assert t.node_count == 1


@pytest.mark.parametrize("presort", [True, False])
def test_larger_tree_same_as_builder(presort, monkeypatch):
    if not presort:  # the per-node sorting path (taken on data too large to presort)
        monkeypatch.setattr(_grow, "_PRESORT_CAP", 0)
    rng = np.random.default_rng(7)
    X, y, codes = _dataset(rng, 2000, 8, 3)
    for crit in (SQUARED_ERROR, GINI):
        kw = dict(crit=crit, n_classes=3 if crit == GINI else 1, max_depth=None,
                  min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0,
                  max_leaf_nodes=None, max_features=8, rng=None)
        ours = grow_tree(X, y, codes, np.ones(2000), **kw)
        assert ours.node_count > 200
        _assert_same(ours, build_tree(X, y, codes, np.ones(2000), **kw))


@pytest.mark.parametrize("crit", CRITERIA)
def test_best_first_same_as_python_builder(crit):
    """Compiled best-first growth: the builder's nodes in the builder's order (children made
    when their parent is split, the largest weighted decrease first, ties to the older node)."""
    rng = np.random.default_rng(3 + crit)
    for case in range(6 if crit == ABSOLUTE_ERROR else 15):
        n = int(rng.integers(20, 200))
        p = int(rng.integers(1, 6))
        X, y, codes = _dataset(rng, n, p, 3)
        w = _weights(rng, n, case % 3)
        kw = {**_params(rng, crit, 3, p), "max_leaf_nodes": int(rng.integers(2, 30))}
        t = grow_tree(X, y, codes, w, **kw)
        assert t.n_leaves <= kw["max_leaf_nodes"]
        _assert_same(t, build_tree(X, y, codes, w, **kw))


def _check_valid(t, p, n_classes=None):
    internal = np.flatnonzero(t.children_left >= 0)
    leaves = np.flatnonzero(t.children_left < 0)
    assert np.all(t.children_right[leaves] == -1) and np.all(t.feature[leaves] == -2)
    assert np.all((t.feature[internal] >= 0) & (t.feature[internal] < p))
    # pre-order: the left child follows its parent, the right child follows the left subtree
    np.testing.assert_array_equal(t.children_left[internal], internal + 1)
    assert np.all(t.children_right[internal] > t.children_left[internal])
    np.testing.assert_array_equal(
        t.n_node_samples[internal],
        t.n_node_samples[t.children_left[internal]] + t.n_node_samples[t.children_right[internal]],
    )
    np.testing.assert_array_equal(t.depth[t.children_left[internal]], t.depth[internal] + 1)
    if n_classes is not None:
        np.testing.assert_allclose(t.value.sum(axis=1), 1.0)


def _forest_tree(X, y, codes, seed, max_features=2):
    return grow_tree(X, y, codes, np.ones(X.shape[0]), crit=GINI, n_classes=3, max_depth=None,
                     min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0,
                     max_leaf_nodes=None, max_features=max_features,
                     rng=np.random.RandomState(seed))


def test_random_feature_subsets():
    rng = np.random.default_rng(11)
    X, y, codes = _dataset(rng, 400, 10, 3)
    X[:, :3] = rng.normal(size=(400, 3))  # at least three informative-looking columns
    trees = [_forest_tree(X, y, codes, seed) for seed in range(6)]
    for seed, t in enumerate(trees):
        _check_valid(t, 10, 3)
        _assert_same(t, _forest_tree(X, y, codes, seed))  # deterministic for a fixed seed
    roots = {int(t.feature[0]) for t in trees}
    used = [frozenset(t.feature[t.feature >= 0].tolist()) for t in trees]
    assert len(roots) > 1 or len(set(used)) > 1
    assert any(not _trees_equal(trees[0], t) for t in trees[1:])
    # a generator works too, and max_features >= p is the exhaustive search
    t = grow_tree(X, y, codes, np.ones(400), crit=GINI, n_classes=3, max_depth=3,
                  min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0,
                  max_leaf_nodes=None, max_features=4, rng=np.random.default_rng(0))
    _check_valid(t, 10, 3)


def test_constant_features_are_redrawn():
    """With one informative column among constants, max_features=1 still finds it."""
    rng = np.random.default_rng(5)
    X = np.ones((200, 6))
    X[:, 4] = rng.normal(size=200)
    codes = (X[:, 4] > 0).astype(np.int64)
    for seed in range(5):
        t = _forest_tree(X, codes.astype(float), codes, seed, max_features=1)
        assert t.feature[0] == 4 and t.node_count == 3


def _trees_equal(a, b):
    return all(getattr(a, f).shape == getattr(b, f).shape
               and np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS)


def test_threads_give_serial_trees():
    rng = np.random.default_rng(2)
    X, y, codes = _dataset(rng, 3000, 12, 3)
    X[:, :4] = rng.normal(size=(3000, 4))
    seeds = list(range(8))
    serial = [_forest_tree(X, y, codes, s, max_features=3) for s in seeds]
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(pool.map(lambda s: _forest_tree(X, y, codes, s, max_features=3), seeds))
    for a, b in zip(serial, threaded, strict=True):
        _assert_same(a, b)


def test_sort_pairs_is_a_stable_sort():
    rng = np.random.default_rng(4)
    for n in (0, 1, 2, 5, 17, 100, 5000):
        for values in (rng.normal(size=n), rng.integers(0, 3, size=n).astype(float),
                       np.zeros(n), np.arange(n, 0, -1.0), np.arange(float(n)),
                       rng.choice([-0.0, 0.0, -1.5, 2.0, -1e300, 1e-300], size=n),
                       np.ldexp(rng.normal(size=n), rng.integers(-60, 60, size=n))):
            order = np.argsort(values, kind="stable")
            for sort in (sort_pairs, radix_pairs, sort_node):
                xs = values.copy()
                ids = np.arange(n, dtype=np.int64)
                if sort is sort_pairs:
                    sort(xs, ids, n)
                else:
                    sort(xs, ids, n, np.empty(n), np.empty(n, np.int64),
                         np.zeros((8, 256), np.int64))
                np.testing.assert_array_equal(ids, order)
                np.testing.assert_array_equal(xs, values[order])
    xs = rng.integers(0, 5, size=300).astype(float)
    ids = rng.permutation(300).astype(np.int64)
    order = np.lexsort((ids, xs))
    ex, ei = xs[order], ids[order]
    _heapsort(xs, ids, 0, 300)
    np.testing.assert_array_equal(ids, ei)
    np.testing.assert_array_equal(xs, ex)


def _apply_reference(t, X):
    out = np.empty(X.shape[0], dtype=np.int64)
    for i in range(X.shape[0]):
        node = 0
        while t.children_left[node] != -1:
            go_left = X[i, t.feature[node]] < t.threshold[node]
            node = t.children_left[node] if go_left else t.children_right[node]
        out[i] = node
    return out


def test_apply_kernel():
    rng = np.random.default_rng(9)
    X, y, codes = _dataset(rng, 500, 6, 3)
    X[:, :3] = rng.normal(size=(500, 3))
    t = _forest_tree(X, y, codes, 0, max_features=6)
    args = (t.children_left, t.children_right, t.feature, t.threshold)
    for n in (0, 1, 7, 8, 9, 75, 401):  # partial blocks of eight rows, rows read ahead
        Xn = np.ascontiguousarray(rng.normal(size=(n, 6)))
        if n > 3:
            Xn[:3] = X[:3]
            Xn[3, :] = np.nan  # x < t is False: NaN goes right, as the reference
        leaves = apply_kernel(*args, Xn)
        np.testing.assert_array_equal(leaves, _apply_reference(t, Xn))
        checked, clean = apply_checked(*args, Xn)
        np.testing.assert_array_equal(checked, leaves)
        assert clean == (n <= 3)
    # a NaN in a column no split uses does not count; in the last, partial block it does
    Xn = np.ascontiguousarray(X[:13].copy())
    unused = np.setdiff1d(np.arange(6), t.feature[t.feature >= 0])
    assert unused.size  # a constant column of _dataset
    Xn[:, unused[0]] = np.nan
    assert apply_checked(*args, Xn)[1]
    Xn[12, :] = np.nan
    assert not apply_checked(*args, Xn)[1]
    # the training rows land in leaves of pure class (grown to purity, distinct rows)
    leaves = apply_kernel(*args, np.ascontiguousarray(X))
    assert np.all(t.children_left[leaves] == -1)
    stump = grow_tree(X, y, codes, np.ones(500), crit=GINI, n_classes=3, max_depth=0,
                      min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0,
                      max_leaf_nodes=None, max_features=None, rng=None)
    assert np.all(apply_kernel(stump.children_left, stump.children_right, stump.feature,
                               stump.threshold, np.ascontiguousarray(X)) == 0)


@pytest.mark.parametrize("kind", ["numba", "python"])
def test_tie_break_random_picks_tied_columns_at_random(kind):
    """Two identical columns tie at every split: "first" always takes column 0, "random"
    takes either, depending on the seed; the partition and predictions do not change."""
    from statlearning.tree import DecisionTreeRegressor

    rng = np.random.default_rng(3)
    x = rng.normal(size=120)
    X = np.column_stack([x, x, rng.normal(size=120)])
    y = np.sin(2 * x) + 0.1 * rng.normal(size=120)
    # max_leaf_nodes sends the fit through the Python builder
    extra = {"max_leaf_nodes": 6} if kind == "python" else {"max_depth": 2}
    first = DecisionTreeRegressor(**extra).fit(X, y)
    assert set(first.tree_.feature[first.tree_.feature >= 0]) == {0}
    roots = set()
    for seed in range(12):
        est = DecisionTreeRegressor(tie_break="random", random_state=seed, **extra).fit(X, y)
        roots.add(int(est.tree_.feature[0]))
        np.testing.assert_array_equal(est.predict(X), first.predict(X))
        again = DecisionTreeRegressor(tie_break="random", random_state=seed, **extra).fit(X, y)
        np.testing.assert_array_equal(again.tree_.feature, est.tree_.feature)
    assert roots == {0, 1}


def test_tie_break_rejects_unknown_values():
    from statlearning.tree import DecisionTreeClassifier

    with pytest.raises(ValueError, match="tie_break"):
        DecisionTreeClassifier(tie_break="last").fit([[0.0], [1.0]], [0, 1])


def _node_field(tree, name):
    """Node array ``name`` of ``tree``; the surrogate arrays (rows for the splits with
    surrogates) expanded to one row per node, so that trees numbering them differently
    compare."""
    if name.startswith("surrogate_"):
        return tree.surrogates(name.removeprefix("surrogate_"))
    return getattr(tree, name)


SURROGATE_FIELDS = ("surrogate_feature", "surrogate_threshold", "surrogate_left",
                    "surrogate_agreement", "surrogate_adj", "majority_left", "rpart_left")


@pytest.mark.parametrize("crit", CRITERIA)
def test_surrogates_on_complete_data_same_as_python_builder(crit):
    """Compiled surrogate search (complete rows, depth-first and best-first): the surrogate
    arrays, majority sides and rpart child order of the Python builder's general path."""
    rng = np.random.default_rng(7 + crit)
    for case in range(8 if crit == ABSOLUTE_ERROR else 16):
        n = int(rng.integers(20, 150))
        p = int(rng.integers(2, 6))
        X, y, codes = _dataset(rng, n, p, 3)
        w = _weights(rng, n, case % 3)
        kw = _params(rng, crit, 3, p)
        if case % 2:
            kw["max_leaf_nodes"] = int(rng.integers(2, 20))
        ours = grow_tree(X, y, codes, w, **kw, max_surrogates=3)
        ref = build_tree(X, y, codes, w, **kw, max_surrogates=3, force_general=True)
        _assert_same(ours, ref)
        for name in SURROGATE_FIELDS:
            a, b = _node_field(ours, name), _node_field(ref, name)
            if a.dtype.kind in "ib":
                np.testing.assert_array_equal(a, b, err_msg=name)
            else:
                np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("crit", CRITERIA)
def test_missing_values_same_as_python_builder(crit):
    """Compiled growth with NaN in X: columns scored on their present rows, rows missing the
    split column routed by surrogates then the heavier side (or dropped on a tie), depth-first
    and best-first, with 0, 1 or 3 surrogates: the Python builder's general path."""
    rng = np.random.default_rng(11 + crit)
    for case in range(8 if crit == ABSOLUTE_ERROR else 16):
        n = int(rng.integers(20, 150))
        p = int(rng.integers(2, 6))
        X, y, codes = _dataset(rng, n, p, 3)
        X[rng.random(X.shape) < rng.choice([0.05, 0.2, 0.4])] = np.nan
        X[np.isnan(X).all(axis=1), 0] = 1.0
        w = _weights(rng, n, case % 3)
        kw = _params(rng, crit, 3, p)
        if case % 2:
            kw["max_leaf_nodes"] = int(rng.integers(2, 20))
        n_sur = int(rng.choice([0, 1, 3]))
        ours = grow_tree(X, y, codes, w, **kw, max_surrogates=n_sur)
        ref = build_tree(X, y, codes, w, **kw, max_surrogates=n_sur)
        _assert_same(ours, ref)
        for name in SURROGATE_FIELDS:
            a, b = _node_field(ours, name), _node_field(ref, name)
            if a.dtype.kind in "ib":
                np.testing.assert_array_equal(a, b, err_msg=name)
            else:
                np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=name)


CATEGORICAL_FIELDS = ("cat_left", "cat_right", "surrogate_cat_left", "surrogate_cat_right",
                      "n_categories")


@pytest.mark.parametrize("crit", CRITERIA)
def test_categorical_columns_same_as_python_builder(crit):
    """Compiled growth with categorical columns (2 to 70 levels; ordered cuts, rpart's
    Gray-code search for three classes, the ordering heuristic above 10 levels), with and
    without NaN, categorical surrogates: the reference builder's trees and level sets."""
    rng = np.random.default_rng(21 + crit)
    for case in range(8 if crit == ABSOLUTE_ERROR else 16):
        n = int(rng.integers(20, 150))
        p = int(rng.integers(2, 6))
        n_classes = 3 if case % 3 else 2
        X, y, codes = _dataset(rng, n, p, n_classes)
        n_cat = np.zeros(p, dtype=np.int64)
        for j in rng.choice(p, size=int(rng.integers(1, p + 1)), replace=False):
            q = int(rng.choice([2, 3, 5, 12, 70]))
            n_cat[j] = q
            X[:, j] = rng.integers(0, q, size=n)
            y = y + (X[:, j] % 3)
        if case % 4 == 1:
            X[rng.random(X.shape) < 0.15] = np.nan
            X[np.isnan(X).all(axis=1), 0] = 0.0
        w = _weights(rng, n, case % 3)
        kw = _params(rng, crit, n_classes, p)
        if case % 2:
            kw["max_leaf_nodes"] = int(rng.integers(2, 20))
        n_sur = int(rng.choice([0, 1, 3]))
        ours = grow_tree(X, y, codes, w, **kw, max_surrogates=n_sur, n_categories=n_cat)
        ref = build_tree(X, y, codes, w, **kw, max_surrogates=n_sur, n_categories=n_cat)
        _assert_same(ours, ref)
        for name in SURROGATE_FIELDS + CATEGORICAL_FIELDS:
            a, b = _node_field(ours, name), _node_field(ref, name)
            if a.dtype.kind in "ibu":
                np.testing.assert_array_equal(a, b, err_msg=name)
            else:
                np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=name)


def test_random_subsets_with_surrogates_presorted_or_not(monkeypatch):
    """With surrogates every column is read at every split, so random feature subsets use the
    presorted lists too: the same tree and surrogates as per-node sorting."""
    rng = np.random.default_rng(5)
    X, y, codes = _dataset(rng, 400, 8, 3)
    kw = {**_params(rng, GINI, 3, 8), "max_depth": None, "max_features": 3,
          "min_samples_leaf": 2, "rng": np.random.RandomState(4)}
    pre = grow_tree(X, y, codes, np.ones(400), **kw, max_surrogates=3)
    monkeypatch.setattr(_grow, "_PRESORT_CAP", 0)
    kw["rng"] = np.random.RandomState(4)
    sort = grow_tree(X, y, codes, np.ones(400), **kw, max_surrogates=3)
    assert pre.node_count > 20
    _assert_same(pre, sort)
    for name in SURROGATE_FIELDS:
        np.testing.assert_array_equal(_node_field(pre, name), _node_field(sort, name),
                                      err_msg=name)
