"""Trees with missing values (surrogate splits) and categorical columns against R's rpart.

Reference: tests/reference/rpart/make_rpart_missing_reference.R (rpart 4.1.19, defaults
usesurrogate = 2, surrogatestyle = 0, maxsurrogate = 5). Node by node: frame (var, n, wt, dev,
yval / class probabilities), primary and surrogate splits (variable, threshold, direction,
agree, adj, level sets), predict() on every row, and the printed tree.
"""

import json

import numpy as np
import pytest
from reference_builder import to_bitset

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text
from statlearning.tree._export import _rpart_order

pd = pytest.importorskip("pandas")

RPART = REFERENCE / "rpart"
REF = json.loads((RPART / "rpart_missing_reference.json").read_text())
DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}
# rpart's cp = 0 still removes splits that do not lower the risk: a tiny positive cp does too
BIG = {"min_samples_split": 10, "min_samples_leaf": 3, "cp": 1e-12}
GM_X = ["infant_mortality", "fertility", "log_population"]
CONTINENTS = ["Africa", "Americas", "Asia", "Europe", "Oceania"]


def _read(name):
    return pd.read_csv(RPART / name, skipinitialspace=True, na_values=["NA"])


@pytest.fixture(scope="module")
def gapminder():
    d = _read("gapminder2011_missing.csv")
    d["continent"] = pd.Categorical(d["continent"].str.strip(), categories=CONTINENTS)
    d["le_class"] = d["le_class"].str.strip()
    return d


@pytest.fixture(scope="module")
def biopsy():
    d = _read("biopsy.csv")
    return d[[f"V{k}" for k in range(1, 10)]].astype(float), d["class"].str.strip().to_numpy()


@pytest.fixture(scope="module")
def iris_cut():
    d = _read("iris_cut.csv")
    levels = sorted(d["pl_cut"].unique(), key=lambda s: float(s[1:].split(",")[0]))
    d["pl_cut"] = pd.Categorical(d["pl_cut"], categories=levels)
    return d[["Sepal.Length", "Sepal.Width", "pl_cut"]], d["Species"].to_numpy()


def _check_against_rpart(est, X, ref):
    """Frame, splits and surrogates of ``est`` node by node in rpart's printed order."""
    tree = est.tree_
    names = list(est.feature_names_in_)
    order = _rpart_order(est, tree)
    nodes = np.array([o[0] for o in order])
    assert [o[1] for o in order] == ref["node"]
    assert [names[f] if f >= 0 else "<leaf>" for f in tree.feature[nodes]] == ref["var"]
    np.testing.assert_array_equal(tree.n_node_samples[nodes], ref["n"])
    np.testing.assert_allclose(tree.weighted_n_node_samples[nodes], ref["wt"], rtol=1e-12)
    np.testing.assert_allclose(tree.risk[nodes], ref["dev"], rtol=1e-10, atol=1e-9)
    if hasattr(est, "classes_"):
        np.testing.assert_allclose(tree.value[nodes], ref["yprob"], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(est.predict_proba(X), ref["predict"], rtol=1e-10,
                                   atol=1e-12)
    else:
        np.testing.assert_allclose(tree.value[nodes, 0], ref["yval"], rtol=1e-10)
        np.testing.assert_allclose(est.predict(X), ref["predict"], rtol=1e-10)
    row = 0
    csplit = np.asarray(ref.get("csplit", []))
    words = tree.cat_left.shape[1] if tree.cat_left is not None else 1
    for t, nsur in zip(nodes, ref["nsurrogate"], strict=True):
        if tree.children_left[t] < 0:
            continue
        left, right = tree.children_left[t], tree.children_right[t]
        first_is_left = bool(np.any(np.array([o[0] for o in order]) == left)
                             and [o[0] for o in order].index(left)
                             < [o[0] for o in order].index(right))
        f = tree.feature[t]
        assert ref["split_var"][row] == names[f]
        if est.is_categorical_[f]:
            code = np.asarray(csplit[int(ref["split_index"][row]) - 1])
            rleft = np.flatnonzero(code == 1)
            rright = np.flatnonzero(code == 3)
            ours = (tree.cat_left[t], tree.cat_right[t])
            ours = ours if first_is_left else ours[::-1]
            np.testing.assert_array_equal(ours[0], to_bitset(rleft, words))
            np.testing.assert_array_equal(ours[1], to_bitset(rright, words))
        else:
            assert tree.threshold[t] == pytest.approx(ref["split_index"][row], rel=1e-12)
            assert (ref["split_ncat"][row] == -1) == first_is_left
        row += 1
        s = tree.surrogate_index[t]  # the split's row of surrogates
        ours_n = int(np.sum(tree.surrogate_feature[s] >= 0)) if s >= 0 else 0
        assert ours_n == nsur
        for k in range(nsur):
            assert ref["split_var"][row] == names[tree.surrogate_feature[s, k]]
            assert tree.surrogate_agreement[s, k] == pytest.approx(ref["split_improve"][row],
                                                                   rel=1e-12)
            assert tree.surrogate_adj[s, k] == pytest.approx(ref["split_adj"][row], rel=1e-10)
            if not est.is_categorical_[tree.surrogate_feature[s, k]]:
                assert tree.surrogate_threshold[s, k] == pytest.approx(
                    ref["split_index"][row], rel=1e-12)
                assert (ref["split_ncat"][row] == -1) == (
                    bool(tree.surrogate_left[s, k]) == first_is_left)
            row += 1
    assert row == len(ref.get("split_var", []))


def _printed(case):
    return "\n".join(REF[case]["printed"]) + "\n"


@pytest.mark.parametrize("case, params", [
    ("gm_missing_regression", DEFAULTS), ("gm_missing_regression_big", BIG)])
def test_gapminder_regression_with_missing_values(gapminder, case, params):
    X = gapminder[GM_X]
    est = DecisionTreeRegressor(**params).fit(X, gapminder["life_expectancy"])
    assert est.n_rows_all_missing_ == 1
    _check_against_rpart(est, X, REF[case])
    assert export_text(est) == _printed(case)


@pytest.mark.parametrize("case, params", [
    ("gm_missing_classification", DEFAULTS), ("gm_missing_classification_big", BIG)])
def test_gapminder_classification_with_missing_values(gapminder, case, params):
    X = gapminder[GM_X]
    est = DecisionTreeClassifier(**params).fit(X, gapminder["le_class"])
    _check_against_rpart(est, X, REF[case])
    assert export_text(est) == _printed(case)


@pytest.mark.parametrize("case, params", [("biopsy", DEFAULTS),
                                          ("biopsy_big", {**BIG, "max_depth": 5})])
def test_biopsy_bare_nuclei_missing(biopsy, case, params):
    X, y = biopsy
    assert int(X["V6"].isna().sum()) == 16
    est = DecisionTreeClassifier(**params).fit(X, y)
    _check_against_rpart(est, X, REF[case])
    assert export_text(est) == _printed(case)


def test_categorical_regression(gapminder):
    X = gapminder[["continent", "fertility"]]
    est = DecisionTreeRegressor(**BIG).fit(X, gapminder["life_expectancy"])
    assert est.is_categorical_.tolist() == [True, False]
    assert list(est.categories_[0]) == CONTINENTS
    _check_against_rpart(est, X, REF["gm_categorical_regression"])
    assert export_text(est) == _printed("gm_categorical_regression")


def test_categorical_binary_classification(gapminder):
    X = gapminder[["continent", "fertility"]]
    est = DecisionTreeClassifier(**BIG).fit(X, gapminder["le_class"])
    _check_against_rpart(est, X, REF["gm_categorical_classification"])
    assert export_text(est) == _printed("gm_categorical_classification")


def test_categorical_three_classes(iris_cut):
    X, y = iris_cut
    est = DecisionTreeClassifier(**BIG).fit(X, y)
    _check_against_rpart(est, X, REF["iris_categorical"])
    assert export_text(est) == _printed("iris_categorical")
