"""Split scores ``criterion="gain_ratio"`` (C4.5) and ``"chi2"`` (Pearson's statistic of the
class × side table), named by seed 000 beside Gini and entropy: every split of a grown tree is
the argmax of a brute-force search over the rows reaching its node, scored by SciPy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from statlearning.ensemble import AdaBoostClassifier, BaggingClassifier, RandomForestClassifier
from statlearning.tree import DecisionTreeClassifier


def _table(left, y, w, n_classes):
    """Weighted class × side contingency table (rows: sides)."""
    return np.array(
        [np.bincount(y[side], weights=w[side], minlength=n_classes) for side in (left, ~left)]
    )


def gain_ratio(table):
    """Information gain / split information, from SciPy's entropy."""
    sides = table.sum(axis=1)
    W = sides.sum()
    parent = stats.entropy(table.sum(axis=0))
    children = sum(s / W * stats.entropy(row) for s, row in zip(sides, table, strict=True))
    return (parent - children) / stats.entropy(sides)


def chi2(table):
    """Pearson's χ² of the table, without continuity correction (SciPy)."""
    keep = table.sum(axis=0) > 0  # classes absent from the node
    return stats.chi2_contingency(table[:, keep], correction=False)[0]


SCORES = {"gain_ratio": gain_ratio, "chi2": chi2}


def brute_force_split(X, y, w, criterion, n_classes, min_leaf=1):
    """``(score, feature, threshold)`` maximising the score over every column and midpoint
    (ties: the earlier column, then the smaller threshold)."""
    best = None
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for a, b in itertools.pairwise(values):
            t = 0.5 * (a + b)
            left = X[:, j] < t
            if left.sum() < min_leaf or (~left).sum() < min_leaf:
                continue
            score = SCORES[criterion](_table(left, y, w, n_classes))
            if best is None or score > best[0] * (1 + 1e-9):
                best = (score, j, t)
    return best


def check_every_split(tree, X, y, w, criterion, min_leaf=1):
    """Each internal node's split is the brute-force argmax on the rows that reach it."""
    t = tree.tree_
    paths = tree.decision_path(X).toarray().astype(bool)
    n_classes = tree.n_classes_
    n_checked = 0
    for node in np.flatnonzero(t.feature >= 0):
        rows = paths[:, node]
        score, j, thr = brute_force_split(X[rows], y[rows], w[rows], criterion, n_classes, min_leaf)
        assert t.feature[node] == j, (node, criterion)
        assert t.threshold[node] == pytest.approx(thr, rel=1e-15, abs=0)
        assert score > 0
        n_checked += 1
    return n_checked


@pytest.mark.parametrize("criterion", ["gain_ratio", "chi2"])
@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("weighted", [False, True])
def test_splits_are_brute_force_argmax(criterion, n_classes, weighted):
    rng = np.random.default_rng(10 * n_classes + weighted)
    n = 90
    X = np.round(rng.normal(size=(n, 3)), 2)
    y = (np.digitize(X[:, 0] + 0.7 * X[:, 1] + rng.normal(size=n), [-0.8, 0.0, 0.8])) % n_classes
    w = rng.uniform(0.5, 2.0, size=n) if weighted else np.ones(n)
    tree = DecisionTreeClassifier(criterion=criterion, max_depth=3, min_samples_leaf=4)
    tree.fit(X, y, sample_weight=w if weighted else None)
    assert check_every_split(tree, X, y, w, criterion, min_leaf=4) >= 3


def test_the_two_scores_choose_differently():
    """The information gain and the gain ratio disagree: cutting off the last row gains less
    information (0.247 against 0.317 bits) but has much less split information (0.414
    against 0.918 bits), so its ratio is larger (0.597 against 0.345); chi2 weights rare
    classes up where Gini does not."""
    X = np.arange(12.0).reshape(-1, 1)
    y = np.r_[[1] * 8, [0, 1, 1, 0]]
    entropy = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(X, y)
    ratio = DecisionTreeClassifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    assert (entropy.tree_.threshold[0], ratio.tree_.threshold[0]) == (7.5, 10.5)
    by_hand = [gain_ratio(_table(X[:, 0] < t, y, np.ones(12), 2)) for t in (7.5, 10.5)]
    np.testing.assert_allclose(by_hand, [0.34486608407746433, 0.5972453356010589], rtol=1e-12)
    check_every_split(ratio, X, y, np.ones(12), "gain_ratio")

    rng = np.random.default_rng(3)
    X3 = rng.normal(size=(200, 4))
    y3 = np.where(X3[:, 0] > 1.2, 2, (X3[:, 1] > 0).astype(int))  # class 2 rare
    gini = DecisionTreeClassifier(max_depth=1).fit(X3, y3)
    chi = DecisionTreeClassifier(criterion="chi2", max_depth=1).fit(X3, y3)
    assert gini.tree_.feature[0] != chi.tree_.feature[0]
    check_every_split(chi, X3, y3, np.ones(200), "chi2")


def test_chi2_is_gini_for_two_classes():
    """For two classes χ² = W/(2p(1−p)) × the Gini decrease: the same tree."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(150, 4))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=150) > 0).astype(int)
    gini = DecisionTreeClassifier(max_depth=4).fit(X, y)
    chi = DecisionTreeClassifier(criterion="chi2", max_depth=4).fit(X, y)
    np.testing.assert_array_equal(gini.tree_.feature, chi.tree_.feature)
    np.testing.assert_array_equal(gini.tree_.threshold, chi.tree_.threshold)
    np.testing.assert_array_equal(gini.tree_.impurity, chi.tree_.impurity)  # Gini impurity


def test_node_impurity_and_decrease_units():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] + rng.normal(size=80) > 0).astype(int) + (X[:, 1] > 1)
    ratio = DecisionTreeClassifier(criterion="gain_ratio", max_depth=2).fit(X, y)
    entropy = DecisionTreeClassifier(criterion="entropy", max_depth=2).fit(X, y)
    assert ratio.tree_.impurity[0] == entropy.tree_.impurity[0]  # the root's entropy
    # min_impurity_decrease is on the score: chi2 at the root is χ²; just above χ²/W: no split
    root = DecisionTreeClassifier(criterion="chi2", max_depth=1).fit(X, y)
    left = X[:, root.tree_.feature[0]] < root.tree_.threshold[0]
    chi_root = chi2(_table(left, y, np.ones(80), 3))
    just_below = DecisionTreeClassifier(
        criterion="chi2", max_depth=1, min_impurity_decrease=chi_root / 80 * (1 - 1e-9)
    )
    just_above = DecisionTreeClassifier(
        criterion="chi2", max_depth=1, min_impurity_decrease=chi_root / 80 * (1 + 1e-9)
    )
    assert just_below.fit(X, y).tree_.node_count == 3
    assert just_above.fit(X, y).tree_.node_count == 1
    # best-first growth orders the leaves by the score as well
    best_first = DecisionTreeClassifier(criterion="gain_ratio", max_leaf_nodes=4).fit(X, y)
    check_every_split(best_first, X, y, np.ones(80), "gain_ratio")


@pytest.mark.parametrize("criterion", ["gain_ratio", "chi2"])
def test_categorical_column_exhaustive_partition(criterion):
    """Three classes, five levels: the level set sent left is the best of all 2^4 − 1
    partitions (rpart's exhaustive search)."""
    rng = np.random.default_rng(6)
    n = 120
    level = rng.integers(0, 5, size=n)
    y = np.array([0, 1, 2, 1, 0])[level]
    y = np.where(rng.uniform(size=n) < 0.3, rng.integers(0, 3, size=n), y)
    X = np.column_stack([level.astype(float), rng.normal(size=n) * 0.01])
    tree = DecisionTreeClassifier(criterion=criterion, max_depth=1, categorical_features=[0])
    tree.fit(X, y)
    w = np.ones(n)
    best = None
    for r in range(1, 5):
        for subset in itertools.combinations(range(5), r):
            score = SCORES[criterion](_table(np.isin(level, subset), y, w, 3))
            if best is None or score > best[0] * (1 + 1e-9):
                best = (score, set(subset))
    numeric = brute_force_split(X[:, 1:], y, w, criterion, 3)
    assert best[0] > numeric[0]
    assert tree.tree_.feature[0] == 0
    sent_left = set(np.flatnonzero(tree.apply(np.c_[np.arange(5.0), np.zeros(5)]) == 1))
    assert sent_left in (best[1], set(range(5)) - best[1])


@pytest.mark.parametrize("criterion", ["gain_ratio", "chi2"])
def test_missing_values_scored_on_present_rows(criterion):
    """With NaN each column is scored on its present rows (rpart): W_present × gain ratio or
    χ² on those rows decides between the columns."""
    rng = np.random.default_rng(7)
    n = 100
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 0.8)
    X[rng.uniform(size=n) < 0.25, 0] = np.nan
    tree = DecisionTreeClassifier(criterion=criterion, max_depth=1).fit(X, y)
    w = np.ones(n)
    best = None
    for j in range(2):
        ok = ~np.isnan(X[:, j])
        score, _, thr = brute_force_split(X[ok][:, [j]], y[ok], w[ok], criterion, 3)
        decrease = score * ok.sum() if criterion == "gain_ratio" else score
        if best is None or decrease > best[0]:
            best = (decrease, j, thr)
    assert tree.tree_.feature[0] == best[1]
    assert tree.tree_.threshold[0] == pytest.approx(best[2], rel=1e-15)


@pytest.mark.parametrize("criterion", ["gain_ratio", "chi2"])
def test_ensembles_pass_the_criterion_through(criterion):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(120, 4))
    y = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])
    forest = RandomForestClassifier(5, criterion=criterion, max_depth=3, random_state=0).fit(X, y)
    assert all(t.criterion == criterion for t in forest.estimators_)
    assert forest.score(X, y) > 0.7
    stump = DecisionTreeClassifier(criterion=criterion, max_depth=1)
    boost = AdaBoostClassifier(stump, n_estimators=5).fit(X, y)
    assert all(t.criterion == criterion for t in boost.estimators_)
    bag = BaggingClassifier(
        DecisionTreeClassifier(criterion=criterion, max_depth=2), n_estimators=3, random_state=0
    ).fit(X, y)
    assert bag.score(X, y) > 0.6
