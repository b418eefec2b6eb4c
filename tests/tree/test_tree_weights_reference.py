"""Weighted trees against R's rpart (tests/reference/rpart/make_rpart_weighted_reference.R):
weights are case weights in the criterion, observations in minsplit / minbucket."""

import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

RPART = REFERENCE / "rpart"
REF = json.loads((RPART / "rpart_weighted_reference.json").read_text())
NAMES = np.array(["infant_mortality", "fertility"])
DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}
CASES = {
    "regression_weighted": DEFAULTS,
    "regression_scaled": DEFAULTS,
    "regression_integer": {"min_samples_split": 60, "min_samples_leaf": 20, "cp": 0.01},
    "classification_weighted": DEFAULTS,
}


@pytest.fixture(scope="module")
def gapminder():
    lines = (RPART / "gapminder2011.csv").read_text().strip().splitlines()
    header = lines[0].split(",")
    rows = [[field.strip() for field in line.split(",")] for line in lines[1:]]
    cols = {h: [r[j] for r in rows] for j, h in enumerate(header)}
    X = np.column_stack([np.array(cols[c], dtype=np.float64) for c in NAMES])
    return X, np.array(cols["life_expectancy"], dtype=np.float64), np.array(cols["le_class"])


def _fit(case, X, y, y_class, w):
    if case.startswith("classification"):
        return DecisionTreeClassifier(**CASES[case]).fit(X, y_class, sample_weight=w)
    return DecisionTreeRegressor(**CASES[case]).fit(X, y, sample_weight=w)


def _assert_same_nodes(tree, ref):
    """The nodes' (n, wt, dev) as multisets and the split variables, as rpart's frame."""
    assert tree.node_count == len(ref["node"])
    order = np.lexsort((tree.weighted_n_node_samples, tree.n_node_samples))
    ref_order = np.lexsort((ref["wt"], ref["n"]))
    np.testing.assert_array_equal(tree.n_node_samples[order], np.asarray(ref["n"])[ref_order])
    np.testing.assert_allclose(tree.weighted_n_node_samples[order],
                               np.asarray(ref["wt"])[ref_order], rtol=1e-13)
    np.testing.assert_allclose(tree.risk[order], np.asarray(ref["dev"])[ref_order],
                               rtol=1e-10)
    internal = tree.feature >= 0
    ref_vars = [v for v in ref["var"] if v != "<leaf>"]
    assert sorted(NAMES[tree.feature[internal]]) == sorted(ref_vars)


@pytest.mark.parametrize("case", list(CASES))
def test_weighted_tree_matches_rpart(case, gapminder):
    X, y, y_class = gapminder
    ref = REF[case]
    est = _fit(case, X, y, y_class, np.asarray(ref["weights"], dtype=np.float64))
    _assert_same_nodes(est.tree_, ref)
    np.testing.assert_allclose(np.asarray(ref["cptable"])[:, 0],
                               _cp_column(est, ref), rtol=1e-10)
    if case.startswith("regression"):
        np.testing.assert_allclose(np.sort(est.tree_.value[:, 0]), np.sort(ref["yval"]),
                                   rtol=1e-12)


def _cp_column(est, ref):
    from statlearning.tree._pruning import cp_table_rows

    cps, _, _ = cp_table_rows(est.tree_, float(est.cp))
    return cps[: len(ref["cptable"])]


def test_rescaled_weights_grow_rparts_same_tree(gapminder):
    """rpart's own tree does not change when the weights are divided by 200, nor does ours."""
    X, y, y_class = gapminder
    a, b = REF["regression_weighted"], REF["regression_scaled"]
    assert a["n"] == b["n"] and a["var"] == b["var"]
    ours = _fit("regression_scaled", X, y, y_class, np.asarray(b["weights"]))
    assert ours.get_n_leaves() == sum(v == "<leaf>" for v in b["var"])


def test_integer_weights_are_not_rparts_repeated_rows(gapminder):
    """With minsplit/minbucket active, integer weights and repeated rows give different trees in
    rpart (a row of weight 3 is one observation); ours reproduce both."""
    X, y, _ = gapminder
    integer, repeated = REF["regression_integer"], REF["regression_repeated"]
    assert len(integer["node"]) != len(repeated["node"])
    w = np.asarray(integer["weights"], dtype=np.int64)
    est = DecisionTreeRegressor(**CASES["regression_integer"]).fit(np.repeat(X, w, axis=0),
                                                                   np.repeat(y, w))
    _assert_same_nodes(est.tree_, repeated)


def test_zero_weights_are_dropped_where_rpart_keeps_them_in_n(gapminder):
    """rpart keeps rows of zero weight in ``n`` (and so in minsplit/minbucket); we drop them
    (scikit-learn's rule). Here the tree is the same: its weights and risks are rpart's."""
    X, y, _ = gapminder
    ref = REF["regression_zero"]
    w = np.asarray(ref["weights"], dtype=np.float64)
    tree = DecisionTreeRegressor(**DEFAULTS).fit(X, y, sample_weight=w).tree_
    assert tree.node_count == len(ref["node"])
    np.testing.assert_allclose(np.sort(tree.weighted_n_node_samples), np.sort(ref["wt"]),
                               rtol=1e-13)
    np.testing.assert_allclose(np.sort(tree.risk), np.sort(ref["dev"]), rtol=1e-10)
    assert ref["n"][0] == 166 and tree.n_node_samples[0] == np.count_nonzero(w)
