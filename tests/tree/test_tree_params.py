"""Rules shared by every tree-based estimator: max_features and feature sampling (the -OO
import of every subpackage is tests/test_optimised_import.py)."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.ensemble import (
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor
from statlearning.tree._params import resolve_max_features


@pytest.mark.parametrize(("mf", "p", "expected"), [
    (0.29, 100, 28),  # 0.29 * 100 = 28.999999999999996: truncated, as scikit-learn
    (1 / 3, 9, 3), (1 / 3, 2, 1), (0.5, 7, 3), (1e-6, 10, 1),
    ("sqrt", 10, 3), ("sqrt", 16, 4), ("log2", 10, 3), (None, 7, 7), (4, 7, 4),
])
def test_resolve_max_features(mf, p, expected):
    assert resolve_max_features(mf, p) == expected


def test_one_third_is_rs_mtry_default():
    for p in range(1, 5000):
        assert resolve_max_features(1 / 3, p) == max(p // 3, 1)


def test_max_features_exceeding_raises():
    with pytest.raises(ValueError, match="max_features=8"):
        resolve_max_features(8, 7)


def test_trees_forests_and_boosting_agree_on_max_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 100))
    y = X[:, 0] + 0.1 * rng.normal(size=60)
    tree = DecisionTreeRegressor(max_features=0.29, random_state=0).fit(X, y)
    forest = RandomForestRegressor(3, max_features=0.29, random_state=0).fit(X, y)
    gb = GradientBoostingRegressor(n_estimators=2, max_features=0.29, random_state=0).fit(X, y)
    assert tree.max_features_ == forest.max_features_ == gb.max_features_ == 28
    assert forest.estimators_[0].max_features_ == 28
    yc = (y > 0).astype(int)
    assert RandomForestClassifier(2, random_state=0).fit(X, yc).max_features_ == 10


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_max_leaf_nodes_samples_features_by_the_same_rule(Est):
    """A node keeps drawing columns until ``max_features`` non-constant ones were scanned,
    with or without ``max_leaf_nodes``: with one informative column among constant ones and
    ``max_features=1`` every node finds it, so both trees separate the data completely."""
    rng = np.random.default_rng(3)
    n = 80
    X = np.ones((n, 6))
    X[:, 4] = rng.permutation(n)
    y = (X[:, 4] // 10) % 2 if Est is DecisionTreeClassifier else np.sin(X[:, 4])
    full = Est(max_features=1, random_state=1).fit(X, y)
    best_first = Est(max_features=1, max_leaf_nodes=10_000, random_state=1).fit(X, y)
    assert best_first.get_n_leaves() == full.get_n_leaves()
    np.testing.assert_array_equal(best_first.predict(X), full.predict(X))
    assert set(best_first.tree_.feature[best_first.tree_.feature >= 0]) == {4}


def _dispatchers():
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import statlearning.ensemble
    import statlearning.tree

    found = {}
    for pkg in (statlearning.tree, statlearning.ensemble):
        for info in pkgutil.iter_modules(pkg.__path__):
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for name, obj in vars(module).items():
                if isinstance(obj, CPUDispatcher):
                    found[f"{obj.py_func.__module__}.{name}"] = obj
    return found


def _fit_everything(X, y, yc):
    from statlearning.ensemble import GradientBoostingClassifier

    DecisionTreeRegressor(min_samples_leaf=3).fit(X, y).predict(X)
    DecisionTreeRegressor(max_leaf_nodes=6, cp=0.01, xval=3, random_state=0).fit(X, y).apply(X)
    DecisionTreeClassifier(max_features=2, random_state=0).fit(X, yc).predict_proba(X)
    DecisionTreeClassifier(use_surrogates="always", max_depth=3).fit(X, yc).predict(X)
    RandomForestRegressor(3, random_state=0, oob_score=True).fit(X, y).predict(X)
    RandomForestClassifier(3, random_state=0).fit(X, yc).predict_proba(X)
    GradientBoostingRegressor(n_estimators=3, max_depth=3).fit(X, y).predict(X)
    GradientBoostingClassifier(n_estimators=2).fit(X, yc).predict_proba(X)


@pytest.mark.filterwarnings("ignore:.*no OOB prediction:UserWarning")
def test_read_only_input_compiles_no_new_kernel_specialisation():
    """Read-only arrays (``np.load(mmap_mode="r")``, joblib memmaps) are copied into writeable
    ones before they reach a compiled kernel, so numba compiles nothing new for them."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = X[:, 0] + rng.normal(size=120)
    yc = (y > 0).astype(np.int64)
    _fit_everything(X, y, yc)
    kernels = _dispatchers()
    assert len(kernels) > 10
    before = {name: len(d.signatures) for name, d in kernels.items()}
    Xr, yr, ycr = X.copy(), y.copy(), yc.copy()
    for a in (Xr, yr, ycr):
        a.setflags(write=False)
    _fit_everything(Xr, yr, ycr)
    after = {name: len(d.signatures) for name, d in kernels.items()}
    assert after == before
