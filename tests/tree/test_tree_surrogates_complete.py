"""use_surrogates=True (the default) / "always": surrogate splits searched on complete data,
as rpart always does.

Reference: tests/reference/rpart/make_rpart_complete_surrogate_reference.R (rpart 4.1.19):
the seed 004 E29 / E31 trees grown on the complete gapminder-2011 data, then ``predict`` on
the training rows with infant mortality missing in every 5th row and fertility in every 7th.
"""

import json

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

DIR = REFERENCE / "rpart"
REF = json.loads((DIR / "rpart_complete_surrogates.json").read_text())
RPART_DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}


@pytest.fixture(scope="module")
def data():
    d = pd.read_csv(DIR / "gapminder2011.csv")
    X = d[["infant_mortality", "fertility"]].to_numpy(float)
    Q = X.copy()
    Q[::5, 0] = np.nan
    Q[::7, 1] = np.nan
    return X, d["life_expectancy"].to_numpy(float), d["le_class"].to_numpy(), Q


def _surrogates(tree):
    """(threshold, adj) of the first surrogate of every internal node, sorted."""
    rows = tree.surrogate_feature[:, 0] >= 0  # one row per split
    return sorted(zip(tree.surrogate_threshold[rows, 0], tree.surrogate_adj[rows, 0],
                      strict=True))


def _r_surrogates(splits):
    rows = [(t, a) for t, a, c in zip(splits["index"], splits["adj"], splits["count"],
                                      strict=True) if c == 0]
    return sorted(rows)


def test_regression_predicts_missing_rows_as_rpart(data):
    X, y, _, Q = data
    est = DecisionTreeRegressor(use_surrogates="always", **RPART_DEFAULTS).fit(X, y)
    np.testing.assert_allclose(est.predict(Q), REF["regression"]["predict"], rtol=0,
                               atol=1e-10)
    np.testing.assert_allclose(_surrogates(est.tree_), _r_surrogates(REF["regression"]["splits"]),
                               rtol=1e-12)
    # the same tree with the cheaper rule, which has no surrogates and sends a missing value
    # to the larger child instead
    fast = DecisionTreeRegressor(use_surrogates="missing", **RPART_DEFAULTS).fit(X, y)
    np.testing.assert_array_equal(fast.tree_.feature, est.tree_.feature)
    np.testing.assert_array_equal(fast.predict(X), est.predict(X))
    assert fast.tree_.surrogate_feature is None
    assert np.abs(fast.predict(Q) - est.predict(Q)).max() > 1.0


def test_classification_predicts_missing_rows_as_rpart(data):
    X, _, labels, Q = data
    est = DecisionTreeClassifier(use_surrogates="always", **RPART_DEFAULTS).fit(X, labels)
    high = list(est.classes_).index("high")
    np.testing.assert_allclose(est.predict_proba(Q)[:, high],
                               REF["classification"]["prob_high"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(_surrogates(est.tree_),
                               _r_surrogates(REF["classification"]["splits"]), rtol=1e-12)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_default_searches_surrogates_as_rpart(Est, data):
    """Single trees follow rpart by default: surrogates on complete data too (compiled), the
    same tree arrays as ``"always"`` and rpart's predictions of rows with missing values."""
    X, y, labels, Q = data
    target = y if Est is DecisionTreeRegressor else labels
    default = Est(**RPART_DEFAULTS).fit(X, target)
    always = Est(use_surrogates="always", **RPART_DEFAULTS).fit(X, target)
    for name in ("feature", "threshold", "surrogate_feature", "surrogate_threshold",
                 "surrogate_left", "surrogate_agreement", "surrogate_adj", "majority_left",
                 "rpart_left"):
        np.testing.assert_array_equal(getattr(default.tree_, name), getattr(always.tree_, name))
    if Est is DecisionTreeRegressor:
        np.testing.assert_allclose(default.predict(Q), REF["regression"]["predict"], rtol=0,
                                   atol=1e-10)
    else:
        high = list(default.classes_).index("high")
        np.testing.assert_allclose(default.predict_proba(Q)[:, high],
                                   REF["classification"]["prob_high"], rtol=0, atol=1e-12)


def test_always_with_no_surrogates_is_the_fast_path(data):
    X, y, _, _ = data
    a = DecisionTreeRegressor(use_surrogates="always", max_surrogates=0, **RPART_DEFAULTS)
    b = DecisionTreeRegressor(**RPART_DEFAULTS)
    np.testing.assert_array_equal(a.fit(X, y).tree_.threshold, b.fit(X, y).tree_.threshold)


def test_use_surrogates_rejects_other_strings():
    with pytest.raises(ValueError, match="use_surrogates"):
        DecisionTreeRegressor(use_surrogates="sometimes").fit([[0.0], [1.0]], [0.0, 1.0])


def _complete(n=600, p=12, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = X[:, 0] + 0.3 * rng.normal(size=n)  # a good surrogate of column 0
    y = X[:, 0] + 0.5 * X[:, 2] + 0.3 * rng.normal(size=n)
    Q = X[:50].copy()
    Q[:, 0] = np.nan
    return X, y, Q


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_true_skips_the_complete_data_search_with_random_column_subsets(Est):
    """``True`` searches surrogates on complete data only when every column is a split
    candidate; ``"always"`` searches them whatever ``max_features``, on the same tree."""
    X, y, Q = _complete()
    target = y if Est is DecisionTreeRegressor else (y > 0).astype(int)
    kw = {"max_features": "log2", "random_state": 0, "max_depth": 6}
    default = Est(**kw).fit(X, target)
    always = Est(use_surrogates="always", **kw).fit(X, target)
    missing = Est(use_surrogates="missing", **kw).fit(X, target)
    assert default.tree_.surrogate_feature is None
    assert always.tree_.surrogate_feature is not None
    assert np.sum(always.tree_.surrogate_feature >= 0) > 0
    for name in ("children_left", "feature", "threshold", "value"):
        np.testing.assert_array_equal(getattr(default.tree_, name), getattr(always.tree_, name))
        np.testing.assert_array_equal(getattr(default.tree_, name), getattr(missing.tree_, name))
    # without surrogates a NaN follows the larger child, as with "missing"
    np.testing.assert_array_equal(default.apply(Q), missing.apply(Q))
    assert np.any(default.apply(Q) != always.apply(Q))
    # every column a candidate (the int p, the float 1.0): True searches, as "always"
    for mf in (X.shape[1], 1.0):
        full = Est(max_features=mf, random_state=0, max_depth=6).fit(X, target)
        ref = Est(use_surrogates="always", max_features=mf, random_state=0,
                  max_depth=6).fit(X, target)
        assert full.tree_.surrogate_feature is not None
        for name in ("feature", "threshold", "surrogate_index", "surrogate_feature",
                     "surrogate_threshold", "surrogate_adj"):
            np.testing.assert_array_equal(getattr(full.tree_, name), getattr(ref.tree_, name))


def test_true_searches_with_random_subsets_when_the_data_hold_nan():
    """With a ``NaN`` in the training rows every mode but False searches surrogates, also
    with random column subsets (the same tree for True, "always" and "missing")."""
    X, y, _ = _complete()
    X[::9, 0] = np.nan
    kw = {"max_features": "log2", "random_state": 0, "max_depth": 6}
    trees = [DecisionTreeRegressor(use_surrogates=mode, **kw).fit(X, y).tree_
             for mode in (True, "always", "missing")]
    assert trees[0].surrogate_feature is not None
    for t in trees[1:]:
        for name in ("feature", "threshold", "surrogate_index", "surrogate_feature",
                     "surrogate_threshold", "surrogate_adj", "majority_left"):
            np.testing.assert_array_equal(getattr(trees[0], name), getattr(t, name))


@pytest.mark.parametrize("params", [{}, {"max_leaf_nodes": 15}, {"cp": 0.005},
                                    {"ccp_alpha": 0.002}])
def test_surrogate_rows_only_for_splits_that_have_surrogates(params):
    """The surrogate arrays hold one row per split with at least one surrogate
    (``surrogate_index``, ``-1`` at leaves and at splits without one, also after pruning),
    narrow dtypes, no level sets without a categorical column; ``surrogates`` expands them to
    one row per node and routing a ``NaN`` follows them."""
    X, y, Q = _complete(n=800)
    t = DecisionTreeRegressor(**params).fit(X, y).tree_
    index = t.surrogate_index
    assert index.shape == (t.node_count,) and index.dtype == np.int32
    leaves = t.children_left == -1
    assert np.all(index[leaves] == -1)
    rows = index[index >= 0]
    np.testing.assert_array_equal(np.sort(rows), np.arange(t.surrogate_feature.shape[0]))
    assert np.all(t.surrogate_feature[:, 0] >= 0)
    assert t.surrogate_feature.dtype == np.int32
    assert t.surrogate_feature.shape[1] == 5
    assert t.surrogate_cat_left is None and t.surrogate_cat_right is None
    assert t.cat_left is None
    full = t.surrogates("feature")
    assert full.shape == (t.node_count, 5)
    assert np.all(full[leaves] == -1)
    np.testing.assert_array_equal(full[index >= 0], t.surrogate_feature[rows])
    assert np.all(np.isnan(t.surrogates("adj")[leaves]))
    # a row missing column 0 at the root follows the root's first surrogate
    root = index[0]
    assert t.feature[0] == 0 and t.surrogate_feature[root, 0] == 1
    est = DecisionTreeRegressor(**params).fit(X, y)
    path = est.decision_path(Q)
    goes_left = (Q[:, 1] < t.surrogate_threshold[root, 0]) == t.surrogate_left[root, 0]
    child = np.where(goes_left, t.children_left[0], t.children_right[0])
    assert np.all(np.asarray(path[np.arange(Q.shape[0]), child]).ravel() == 1)


def test_routing_compiles_one_specialisation():
    """Trees with and without surrogates or categorical columns hand the router arrays of the
    same types (empty level sets and surrogate rows when absent): one compiled routing."""
    from statlearning.tree._route import route_kernel

    X, y, Q = _complete(n=300, p=4)
    Xn = X.copy()
    Xn[::7, 2] = np.nan
    Xc = X.copy()
    Xc[:, 3] = np.arange(300) % 4
    fits = [
        DecisionTreeRegressor(max_depth=4).fit(X, y),
        DecisionTreeRegressor(max_depth=4, max_surrogates=0).fit(Xn, y),
        DecisionTreeRegressor(max_depth=4).fit(Xn, y),
        DecisionTreeRegressor(max_depth=4, categorical_features=[3]).fit(Xc, y),
        DecisionTreeClassifier(max_depth=4, use_surrogates="always", max_features=2,
                               random_state=0).fit(X, y > 0),
    ]
    counts = []
    for est in fits:
        assert est.tree_.needs_router
        est.predict(Q if est.n_features_in_ == 4 and not est.is_categorical_.any()
                    else np.column_stack([Q[:, :3], np.zeros(len(Q))]))
        counts.append(len(route_kernel.signatures))
    assert counts == [counts[0]] * len(fits)  # the first fit compiled (or reused) the only one


def test_routing_a_read_only_model_compiles_nothing_new():
    """A fitted tree whose arrays are read-only (a model loaded from a memory map) routes with
    the specialisation that writeable trees use."""
    from statlearning.tree._route import route_kernel

    X, y, Q = _complete(n=300, p=4)
    Xn = X.copy()
    Xn[::7, 2] = np.nan
    est = DecisionTreeRegressor(max_depth=4).fit(Xn, y)
    expected = est.predict(Q)
    before = len(route_kernel.signatures)
    for arr in vars(est.tree_).values():
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)
    np.testing.assert_array_equal(est.predict(Q), expected)
    assert len(route_kernel.signatures) == before
