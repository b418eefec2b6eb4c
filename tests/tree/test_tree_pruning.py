"""Cost-complexity pruning, ``prune`` and rpart's cross-validated cp table (seed 004 E30)."""

import numpy as np
import pytest
from sklearn import tree as sktree

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

RPART = REFERENCE / "rpart"
COLUMNS = ("CP", "nsplit", "rel_error", "xerror", "xstd")
RPART_CTRL = {"min_samples_split": 20, "min_samples_leaf": 7}


@pytest.fixture(scope="module")
def gapminder():
    lines = (RPART / "gapminder2011.csv").read_text().strip().splitlines()
    header = lines[0].split(",")
    rows = [[f.strip() for f in line.split(",")] for line in lines[1:]]
    col = {h: [r[j] for r in rows] for j, h in enumerate(header)}
    X = np.column_stack([np.array(col[c], dtype=np.float64)
                         for c in ("infant_mortality", "fertility")])
    return X, np.array(col["life_expectancy"], dtype=np.float64), np.array(col["le_class"])


@pytest.fixture(scope="module")
def folds():
    return np.loadtxt(RPART / "rpart_cptable_folds.csv", skiprows=1).astype(np.int64)


def _no_ties(seed, n=120, p=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * rng.normal(size=n)
    return X, y


@pytest.mark.parametrize("params", [{}, {"min_samples_leaf": 3}, {"max_depth": 4}])
def test_regression_path_and_ccp_alpha_match_sklearn(params):
    X, y = _no_ties(0)
    ours = DecisionTreeRegressor(**params).cost_complexity_pruning_path(X, y)
    ref = sktree.DecisionTreeRegressor(**params).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours.ccp_alphas, ref.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.impurities, ref.impurities, rtol=1e-9, atol=1e-12)
    for alpha in ref.ccp_alphas[1:-1:3]:
        a = alpha * 1.0001
        m = DecisionTreeRegressor(ccp_alpha=a, **params).fit(X, y)
        s = sktree.DecisionTreeRegressor(ccp_alpha=a, **params).fit(X, y)
        assert m.get_n_leaves() == s.get_n_leaves()
        np.testing.assert_allclose(m.predict(X), s.predict(X), rtol=1e-12)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_classification_path_and_ccp_alpha_match_sklearn(criterion):
    X, y = _no_ties(1)
    labels = np.where(y > 0.3, "up", "down")
    ours = DecisionTreeClassifier(criterion).cost_complexity_pruning_path(X, labels)
    ref = sktree.DecisionTreeClassifier(criterion=criterion).cost_complexity_pruning_path(
        X, labels)
    np.testing.assert_allclose(ours.ccp_alphas, ref.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.impurities, ref.impurities, rtol=1e-9, atol=1e-12)
    a = ref.ccp_alphas[len(ref.ccp_alphas) // 2] * 1.0001
    m = DecisionTreeClassifier(criterion, ccp_alpha=a).fit(X, labels)
    s = sktree.DecisionTreeClassifier(criterion=criterion, ccp_alpha=a).fit(X, labels)
    assert m.get_n_leaves() == s.get_n_leaves()
    np.testing.assert_array_equal(m.predict(X), s.predict(X))
    np.testing.assert_allclose(m.predict_proba(X), s.predict_proba(X), rtol=1e-12)


def test_prune_ccp_alpha_equals_constructor_and_is_a_copy():
    X, y = _no_ties(2)
    full = DecisionTreeRegressor().fit(X, y)
    n_full = full.get_n_leaves()
    alpha = full.cost_complexity_pruning_path(X, y).ccp_alphas[-4]
    pruned = full.prune(ccp_alpha=alpha)
    direct = DecisionTreeRegressor(ccp_alpha=alpha).fit(X, y)
    assert full.get_n_leaves() == n_full
    assert pruned.get_n_leaves() == direct.get_n_leaves() < n_full
    np.testing.assert_allclose(pruned.predict(X), direct.predict(X))
    np.testing.assert_allclose(pruned.feature_importances_, direct.feature_importances_)


@pytest.mark.parametrize("cp, leaves, splits", [
    (0.028, 4, [35.65, 52.9, 9.35]), (0.06, 3, [35.65, 9.35]), (0.02, 5, None)])
def test_e30_prune_by_cp(gapminder, cp, leaves, splits):
    X, y, _ = gapminder
    fit = DecisionTreeRegressor(**RPART_CTRL, cp=0.01).fit(X, y)
    pruned = fit.prune(cp=cp)
    assert pruned.get_n_leaves() == leaves
    assert fit.get_n_leaves() == 6
    if splits is not None:
        t = pruned.tree_
        np.testing.assert_allclose(sorted(t.threshold[t.children_left >= 0]), sorted(splits))
    direct = DecisionTreeRegressor(**RPART_CTRL, cp=cp).fit(X, y)
    np.testing.assert_allclose(pruned.predict(X), direct.predict(X))


def test_e30_cp_table_without_cross_validation_columns(gapminder):
    X, y, _ = gapminder
    fit = DecisionTreeRegressor(**RPART_CTRL, cp=0.01, xval=5, random_state=0).fit(X, y)
    tab = fit.cptable_
    np.testing.assert_allclose(tab["CP"], [0.6695, 0.0874, 0.0317, 0.0246, 0.0167, 0.01],
                               atol=5e-5)
    np.testing.assert_array_equal(tab["nsplit"], [0, 1, 2, 3, 4, 5])
    np.testing.assert_allclose(tab["rel_error"], [1, 0.3305, 0.2430, 0.2113, 0.1867, 0.1700],
                               atol=5e-5)
    assert np.all(tab["xerror"] > tab["rel_error"] - 0.05)


@pytest.mark.parametrize("case", ["regression", "classification"])
def test_cp_table_matches_rpart_with_fold_ids(gapminder, folds, case):
    X, y, c = gapminder
    est = DecisionTreeRegressor if case == "regression" else DecisionTreeClassifier
    target = y if case == "regression" else c
    fit = est(**RPART_CTRL, cp=0.001, xval=folds).fit(X, target)
    ref = np.loadtxt(RPART / f"rpart_cptable_{case}.csv", delimiter=",", skiprows=1, ndmin=2)
    for j, name in enumerate(COLUMNS):
        np.testing.assert_allclose(fit.cptable_[name], ref[:, j], rtol=1e-8, atol=1e-12,
                                   err_msg=name)
    # rpart::prune keeps the rows with CP at least cp
    pruned = fit.prune(cp=0.02)
    assert pruned.cptable_["CP"].min() >= 0.02
    assert pruned.cptable_["CP"][-1] == 0.02
    assert pruned.get_n_leaves() == pruned.cptable_["nsplit"][-1] + 1


def test_xval_int_is_reproducible_and_absent_by_default(gapminder):
    X, y, _ = gapminder
    a = DecisionTreeRegressor(**RPART_CTRL, cp=0.01, xval=10, random_state=3).fit(X, y)
    b = DecisionTreeRegressor(**RPART_CTRL, cp=0.01, xval=10, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.cptable_["xerror"], b.cptable_["xerror"])
    assert not hasattr(DecisionTreeRegressor().fit(X, y), "cptable_")


def test_bad_prune_and_xval_arguments(gapminder):
    X, y, _ = gapminder
    fit = DecisionTreeRegressor(max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match="exactly one"):
        fit.prune()
    with pytest.raises(ValueError, match="exactly one"):
        fit.prune(cp=0.1, ccp_alpha=0.1)
    with pytest.raises(ValueError, match="cp"):
        fit.prune(cp=-1.0)
    with pytest.raises(ValueError, match="xval"):
        DecisionTreeRegressor(xval=1).fit(X, y)
    with pytest.raises(ValueError, match="xval"):
        DecisionTreeRegressor(xval=np.arange(5)).fit(X, y)
    with pytest.raises(ValueError, match="ccp_alpha"):
        DecisionTreeRegressor(ccp_alpha=-0.5).fit(X, y)


@pytest.mark.parametrize("selection", ["min", "1se"])
def test_cv_estimators_choose_the_rpart_row(gapminder, folds, selection):
    X, y, c = gapminder
    from statlearning.tree import DecisionTreeClassifierCV, DecisionTreeRegressorCV

    for cv_est, est, target, case in [
        (DecisionTreeRegressorCV, DecisionTreeRegressor, y, "regression"),
        (DecisionTreeClassifierCV, DecisionTreeClassifier, c, "classification"),
    ]:
        fit = cv_est(**RPART_CTRL, cp=0.001, cv=folds, rule=selection).fit(X, target)
        ref = np.loadtxt(RPART / f"rpart_cptable_{case}.csv", delimiter=",", skiprows=1,
                         ndmin=2)
        xerror, xstd = ref[:, 3], ref[:, 4]
        best = int(np.argmin(xerror))
        if selection == "1se":
            best = int(np.flatnonzero(xerror <= xerror[best] + xstd[best])[0])
        assert fit.best_index_ == best
        assert fit.get_n_leaves() == ref[best, 1] + 1
        np.testing.assert_allclose(fit.cp_, ref[best, 0], rtol=1e-8)
        full = est(**RPART_CTRL, cp=0.001).fit(X, target)
        np.testing.assert_array_equal(fit.predict(X), full.prune(cp=fit.cp_).predict(X))
    # regression: the minimum is the 6-split tree, the one-SE rule the 4-split tree
    reg = DecisionTreeRegressorCV(**RPART_CTRL, cp=0.001, cv=folds, rule=selection)
    assert reg.fit(X, y).get_n_leaves() == (7 if selection == "min" else 5)


def test_cv_path_uses_the_grown_tree(gapminder):
    X, y, _ = gapminder
    from statlearning.tree import DecisionTreeRegressorCV

    path = DecisionTreeRegressorCV(cv=5, random_state=0).cost_complexity_pruning_path(X, y)
    ref = DecisionTreeRegressor().cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path.ccp_alphas, ref.ccp_alphas)
    with pytest.raises(ValueError, match="cv"):
        DecisionTreeRegressorCV(cv=np.ones(len(y))).fit(X, y)


def test_cv_splitter_equals_fold_ids(gapminder):
    from sklearn.model_selection import KFold

    from statlearning.tree import DecisionTreeRegressorCV

    X, y, _ = gapminder
    ids = np.repeat(np.arange(4), [42, 42, 41, 41])
    a = DecisionTreeRegressorCV(cv=KFold(4), cp=0.005).fit(X, y)
    b = DecisionTreeRegressorCV(cv=ids, cp=0.005).fit(X, y)
    c = DecisionTreeRegressor(xval=ids, cp=0.005).fit(X, y)
    for name in COLUMNS:
        np.testing.assert_array_equal(a.cptable_[name], b.cptable_[name])
        np.testing.assert_array_equal(c.cptable_[name], b.cptable_[name])
    overlapping = [(np.arange(100, 166), np.arange(100)), (np.arange(50), np.arange(50, 166))]
    with pytest.raises(ValueError, match="exactly one test set"):
        DecisionTreeRegressorCV(cv=overlapping).fit(X, y)


def subtree_leaves_and_risk(tree):
    """Number of leaves and summed leaf risk of the subtree rooted at each node."""
    n = tree.node_count
    leaves = np.zeros(n, dtype=np.int64)
    risk = np.zeros(n)
    # children always have larger ids than their parent: sweep ids downwards
    for t in range(n - 1, -1, -1):
        left, right = tree.children_left[t], tree.children_right[t]
        if left == -1:
            leaves[t] = 1
            risk[t] = tree.risk[t]
        else:
            leaves[t] = leaves[left] + leaves[right]
            risk[t] = risk[left] + risk[right]
    return leaves, risk


def _iterated_weakest_link(tree, alpha):
    """The literal weakest-link loop: collapse the smallest-g node(s) while g <= alpha."""
    from statlearning.tree._structure import TREE_LEAF, collapse

    while tree.node_count > 1:
        leaves, sub_risk = subtree_leaves_and_risk(tree)
        internal = np.flatnonzero(tree.children_left != TREE_LEAF)
        g = (tree.risk[internal] - sub_risk[internal]) / (leaves[internal] - 1)
        gmin = g.min()
        if gmin > alpha * (1 + 1e-12) + 1e-12 * abs(tree.risk[0]):
            break
        tree = collapse(tree, internal[g <= gmin + 1e-12 * max(abs(gmin), 1e-300)])
    return tree


@pytest.mark.parametrize("seed", range(5))
def test_rpart_pruning_equals_iterated_weakest_link_on_nested_trees(seed):
    """rpart's one-pass complexities (partition.c) give the weakest-link subtree whenever
    collapsing one child at a time reaches it, as on these trees (not on every tree: with
    many tied misclassification risks rpart's approximation can keep or drop other splits,
    and the package follows rpart; see test_tree_cptable_missing_reference.py)."""
    from statlearning.tree._pruning import rpart_prune

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, 4))
    y = X[:, 0] + np.sin(2 * X[:, 1]) + rng.normal(size=400)
    if seed % 2:
        y = np.round(y)  # ties in the risks
    if seed >= 3:  # classification: misclassification risks, many tied complexities
        full = DecisionTreeClassifier(min_samples_leaf=2).fit(X, y > 0.5).tree_
    else:
        full = DecisionTreeRegressor(min_samples_leaf=3).fit(X, y).tree_
    for cp in (0.0, 1e-4, 1e-3, 0.005, 0.02, 0.1, 0.5):
        alpha = cp * full.risk[0]
        ours, ref = rpart_prune(full, alpha), _iterated_weakest_link(full, alpha)
        np.testing.assert_array_equal(ours.children_left, ref.children_left)
        np.testing.assert_array_equal(ours.feature, ref.feature)
        np.testing.assert_array_equal(ours.threshold, ref.threshold)


@pytest.mark.parametrize("classification", [False, True])
def test_xval_loss_sums_equal_routing_at_every_complexity(classification):
    """The difference-array kernel equals pruning at each complexity and predicting."""
    from statlearning.tree._pruning import rpart_prune
    from statlearning.tree._structure import TREE_LEAF, apply_tree
    from statlearning.tree._xval import xval_loss_sums

    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] + np.sin(3 * X[:, 1]) + 0.3 * rng.normal(size=300)
    codes = (y > 0.2).astype(np.int64)
    est = (DecisionTreeClassifier(min_samples_leaf=2).fit(X[:200], codes[:200]) if classification
           else DecisionTreeRegressor(min_samples_leaf=2).fit(X[:200], y[:200]))
    tree = est.tree_
    internal = tree.children_left != -1
    node_alpha = np.where(internal, rpart_prune(tree, 0.0, remove=False).complexity, np.inf)
    mids = np.sort(np.unique(np.r_[node_alpha[np.isfinite(node_alpha)], 0.0, 1e-9]))[::-1]
    mids = np.r_[np.inf, mids * 1.0000001, mids, mids * 0.9999999]
    mids = np.sort(mids)[::-1]
    Xt, yt, ct = X[200:], y[200:], codes[200:]
    wt = rng.integers(1, 3, size=100).astype(float)
    total, total_sq = np.zeros(mids.size), np.zeros(mids.size)
    xval_loss_sums(tree.children_left, tree.children_right, tree.feature, tree.threshold,
                   node_alpha, tree.value[:, 0].copy(), np.argmax(tree.value, axis=1), Xt, yt,
                   ct, wt, mids, classification, total, total_sq)
    for k, m in enumerate(mids):
        left = np.where(node_alpha > m, tree.children_left, TREE_LEAF)
        right = np.where(node_alpha > m, tree.children_right, TREE_LEAF)
        leaf = apply_tree(left, right, tree.feature, tree.threshold, Xt)
        if classification:
            err = (np.argmax(tree.value[leaf], axis=1) != ct).astype(float)
        else:
            err = (yt - tree.value[leaf, 0]) ** 2
        np.testing.assert_allclose(total[k], wt @ err, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(total_sq[k], wt @ err ** 2, rtol=1e-12, atol=1e-12)


def test_cv_selection_is_the_deprecated_name_of_rule(gapminder, folds):
    X, y, _ = gapminder
    from statlearning._core.selection import select_index
    from statlearning.tree import DecisionTreeRegressorCV

    new = DecisionTreeRegressorCV(**RPART_CTRL, cp=0.001, cv=folds, rule="1se").fit(X, y)
    with pytest.warns(FutureWarning, match="'selection' was renamed to 'rule'"):
        old = DecisionTreeRegressorCV(**RPART_CTRL, cp=0.001, cv=folds, selection="1se").fit(X, y)
    assert old.best_index_ == new.best_index_
    tab = new.cptable_
    assert new.best_index_ == select_index(tab["xerror"], tab["xstd"], tab["nsplit"], rule="1se")
    with pytest.raises(ValueError, match="cv"):
        DecisionTreeRegressorCV(cv=1).fit(X, y)
