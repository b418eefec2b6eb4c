"""Decision trees against R's rpart (tests/reference/rpart, seed 004 E29 and E31, iris)."""

import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

RPART = REFERENCE / "rpart"
REF = json.loads((RPART / "rpart_reference.json").read_text())
RPART_DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}


def _read_csv(name):
    """Numeric columns as float64 (17-digit text, so the same doubles as R) and the labels."""
    lines = (RPART / name).read_text().strip().splitlines()
    header = lines[0].split(",")
    rows = [[field.strip() for field in line.split(",")] for line in lines[1:]]
    cols = {h: [r[j] for r in rows] for j, h in enumerate(header)}
    return cols


@pytest.fixture(scope="module")
def gapminder():
    cols = _read_csv("gapminder2011.csv")
    X = np.column_stack([np.array(cols[c], dtype=np.float64)
                         for c in ("infant_mortality", "fertility")])
    return X, np.array(cols["life_expectancy"], dtype=np.float64), np.array(cols["le_class"])


@pytest.fixture(scope="module")
def iris():
    cols = _read_csv("iris.csv")
    names = ["Sepal.Length", "Sepal.Width", "Petal.Length", "Petal.Width"]
    X = np.column_stack([np.array(cols[c], dtype=np.float64) for c in names])
    return X, np.array(cols["Species"]), names


def _printed(case):
    return "\n".join(REF[case]["printed"]) + "\n"


def _rpart_preorder(tree):
    """Our nodes listed in rpart's printed order (smaller mean child first)."""
    order, stack = [], [0]
    while stack:
        t = stack.pop()
        order.append(t)
        left, right = tree.children_left[t], tree.children_right[t]
        if left >= 0:
            first, second = (left, right) if tree.value[left, 0] <= tree.value[right, 0] else (
                right, left)
            stack.extend([second, first])
    return np.array(order)


def test_e29_regression_tree_node_by_node(gapminder):
    X, y, _ = gapminder
    est = DecisionTreeRegressor(**RPART_DEFAULTS).fit(X, y)
    tree, ref = est.tree_, REF["gapminder_regression"]
    order = _rpart_preorder(tree)
    assert tree.node_count == len(ref["node"]) == 11
    np.testing.assert_array_equal(tree.n_node_samples[order], ref["n"])
    np.testing.assert_allclose(tree.risk[order], ref["dev"], rtol=1e-12)
    np.testing.assert_allclose(tree.value[order, 0], ref["yval"], rtol=1e-14)
    internal = tree.children_left >= 0
    assert set(tree.feature[internal]) == {0}  # only infant mortality is used
    np.testing.assert_allclose(
        sorted(tree.threshold[internal]), [4.25, 9.35, 22.85, 35.65, 52.9], rtol=1e-14
    )
    leaves = np.sort(tree.value[~internal, 0])
    np.testing.assert_allclose(
        leaves, [58.30714, 63.59615, 69.5, 74.28409, 76.86087, 80.86296], atol=5e-6
    )
    assert est.get_n_leaves() == 6 and est.get_depth() == 3
    assert est.predict([[21.0, 2.0]])[0] == pytest.approx(74.28409, abs=5e-6)  # node 13


def test_e29_export_equals_rpart_print(gapminder):
    X, y, _ = gapminder
    est = DecisionTreeRegressor(**RPART_DEFAULTS).fit(X, y)
    text = export_text(est, feature_names=["infant_mortality", "fertility"])
    assert text == _printed("gapminder_regression")


def test_e31_classification_tree(gapminder):
    X, _, le_class = gapminder
    est = DecisionTreeClassifier(**RPART_DEFAULTS).fit(X, le_class)
    tree = est.tree_
    assert tree.feature[0] == 0 and tree.threshold[0] == pytest.approx(22.85, rel=1e-14)
    assert tree.n_node_samples[tree.children_left[0]] == 94
    assert tree.n_node_samples[tree.children_right[0]] == 72
    assert est.get_n_leaves() == 2  # the Gini split IM < 9.35 is pruned on misclassification
    text = export_text(est, feature_names=["infant_mortality", "fertility"])
    assert text == _printed("gapminder_classification")
    ref = REF["gapminder_classification"]
    np.testing.assert_allclose(tree.value, np.asarray(ref["yprob"]), rtol=1e-14)


def test_e31_without_cp_keeps_the_gini_split(gapminder):
    X, _, le_class = gapminder
    est = DecisionTreeClassifier(min_samples_split=20, min_samples_leaf=7, max_depth=2)
    tree = est.fit(X, le_class).tree_
    left = tree.children_left[0]
    assert tree.threshold[left] == pytest.approx(9.35)
    assert np.all(np.argmax(tree.value[tree.children_left[left]]) == 0)
    assert np.argmax(tree.value[tree.children_right[left]]) == 0  # both children "high"


def test_iris_classification_tree(iris):
    X, species, names = iris
    est = DecisionTreeClassifier(**RPART_DEFAULTS).fit(X, species)
    assert export_text(est, feature_names=names) == _printed("iris_classification")
    ref = REF["iris_classification"]
    tree = est.tree_
    np.testing.assert_allclose(tree.risk, ref["dev"], rtol=1e-14)
    np.testing.assert_array_equal(tree.n_node_samples, ref["n"])


def test_rpart_frame_variables(gapminder, iris):
    """rpart's frame$var (pre-order, '<leaf>' for leaves) equals our features."""
    X, y, _ = gapminder
    names = ["infant_mortality", "fertility"]
    tree = DecisionTreeRegressor(**RPART_DEFAULTS).fit(X, y).tree_
    ours = [names[f] if f >= 0 else "<leaf>" for f in tree.feature[_rpart_preorder(tree)]]
    assert ours == REF["gapminder_regression"]["var"]
    Xi, species, inames = iris
    tree = DecisionTreeClassifier(**RPART_DEFAULTS).fit(Xi, species).tree_
    ours = [inames[f] if f >= 0 else "<leaf>" for f in tree.feature]
    assert ours == REF["iris_classification"]["var"]


def test_e29_from_bundled_gapminder():
    """The bundled data set gives the same tree as the reference CSV (seed 004, E29)."""
    from statlearning.datasets import load_gapminder

    bunch = load_gapminder(year=2011)
    cols = [bunch.feature_names.index(c) for c in ("infant_mortality", "fertility")]
    X, y = bunch.data[:, cols], bunch.target
    assert X.shape == (166, 2)
    est = DecisionTreeRegressor(**RPART_DEFAULTS).fit(X, y)
    text = export_text(est, feature_names=["infant_mortality", "fertility"])
    assert text == _printed("gapminder_regression")
    labels = np.where(y > 72.45, "high", "low")
    clf = DecisionTreeClassifier(**RPART_DEFAULTS).fit(X, labels)
    assert export_text(clf, feature_names=["infant_mortality", "fertility"]) == _printed(
        "gapminder_classification"
    )
