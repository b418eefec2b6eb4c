"""Zupan & Štrumbelj's and Vandin's worked examples (seed 000 + 003 §2, §6.1) reproduced with
the library: trees on Table 3.1 and on the regression-criterion example, the out-of-bag
fraction, correlated averages, Vandin's representation and wrapper examples, and the
figure set-ups on random data (leakage, overfitting random labels)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline

from statlearning.ensemble import BaggingRegressor
from statlearning.exceptions import NumericalWarning
from statlearning.feature_selection import FilterSelector, WrapperSelector, f_scores
from statlearning.linear_model import LinearRegression, LogisticRegression
from statlearning.model_selection import cv_estimate
from statlearning.neighbors import KNeighborsClassifier
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

# Table 1.1 [Z:71-78]: sepal length, sepal width, petal length, petal width; two species
IRIS_ROWS = np.array(
    [
        [4.4, 2.9, 1.4, 0.2],
        [4.8, 3.4, 1.6, 0.2],
        [5.4, 3.9, 1.3, 0.4],
        [5.2, 2.7, 3.9, 1.4],
        [6.0, 2.2, 4.0, 1.0],
    ]
)
IRIS_SPECIES = np.array(["setosa"] * 3 + ["versicolor"] * 2)

# Table 3.1 [Z:540-551] (decimal commas in the notes): body temperature, healthy 0 / sick 1
TEMPERATURE = np.array([36.5, 36.6, 36.8, 36.9, 37.0, 37.2, 37.5, 37.6, 39.5])[:, None]
SICK = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1])


def _children_weighted(tree):
    """Σ (n_child / n) · impurity(child) of a stump."""
    n = tree.n_node_samples
    return (n[1] * tree.impurity[1] + n[2] * tree.impurity[2]) / n[0]


def test_s2_1_iris_sample_split_on_petal_length():
    petal = IRIS_ROWS[:, [2]]
    stump = DecisionTreeClassifier(max_depth=1).fit(petal, IRIS_SPECIES)
    assert 1.6 < stump.tree_.threshold[0] < 3.9
    assert stump.score(petal, IRIS_SPECIES) == 1.0


def test_s2_2_curse_of_dimensionality_edges():
    # edge s = f^(1/d) of the sub-cube holding a fraction f of uniform data in d = 10
    # erratum (seed 000 Appendix A E21): s(0.1, 10) = 0.794, printed "0.8"
    s1, s2 = 0.10 ** (1 / 10), 0.01 ** (1 / 10)
    assert (round(s1, 6), round(s2, 6)) == (0.794328, 0.630957)
    assert (round(s1, 1), round(s2, 2)) == (0.8, 0.63)
    pts = np.random.default_rng(2).uniform(size=(200_000, 10))
    assert np.all(pts <= s1, axis=1).mean() == pytest.approx(0.10, abs=0.003)


class _RowsSeen(RegressorMixin, BaseEstimator):
    """Records the rows a bootstrap sample gives weight to."""

    def fit(self, X, y, sample_weight=None):
        self.in_bag_ = len(X) if sample_weight is None else np.count_nonzero(sample_weight)
        return self

    def predict(self, X):
        return np.zeros(len(X))


def test_s2_3_out_of_bag_fraction():
    # "bootstrap sampling leaves e^-1 = 0.368 of the data out of sample"; at n = 100 the exact
    # expectation is (1 − 1/n)^n = 0.366032
    n = 100
    assert round(math.exp(-1), 3) == 0.368
    assert round((1 - 1 / n) ** n, 6) == 0.366032
    X, y = np.arange(n, dtype=float)[:, None], np.zeros(n)
    bag = BaggingRegressor(_RowsSeen(), n_estimators=2000, random_state=0).fit(X, y)
    oob = 1 - np.mean([est.in_bag_ for est in bag.estimators_]) / n
    assert oob == pytest.approx(0.366032, abs=0.004)  # 2000 bags: standard error 0.0011


def test_s2_4_variance_of_correlated_average():
    # Var(mean of B equicorrelated predictors) = ρσ² + (1 − ρ)σ²/B; σ²/B when ρ = 0
    B, sigma2 = 25, 4.0
    for rho in (0.0, 0.3, 0.8):
        cov = sigma2 * ((1 - rho) * np.eye(B) + rho)
        exact = np.ones(B) @ cov @ np.ones(B) / B**2
        assert exact == pytest.approx(rho * sigma2 + (1 - rho) * sigma2 / B, rel=1e-14)
        draws = np.random.default_rng(4).multivariate_normal(np.zeros(B), cov, size=100_000)
        assert draws.mean(axis=1).var() == pytest.approx(exact, rel=0.02)


def test_s2_5_stump_on_table_3_1():
    gini = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(TEMPERATURE, SICK)
    tree = gini.tree_
    assert round(tree.threshold[0], 2) == 37.10
    assert round(tree.impurity[0], 6) == 0.493827
    weighted = _children_weighted(tree)
    assert round(weighted, 4) == 0.1778
    assert round(tree.impurity[0] - weighted, 4) == 0.3160
    assert list(tree.n_node_samples) == [9, 5, 4] and tree.impurity[2] == 0.0  # right is pure
    # entropy (the library's unit is the nat; the table's, the bit)
    ent = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(TEMPERATURE, SICK).tree_
    assert round(ent.threshold[0], 2) == 37.10
    bits = math.log(2)
    assert round(ent.impurity[0] / bits, 6) == 0.991076
    assert round(ent.impurity[0], 6) == 0.686962
    assert round(_children_weighted(ent) / bits, 4) == 0.4011
    assert round((ent.impurity[0] - _children_weighted(ent)) / bits, 4) == 0.5900


def test_s6_1_regression_tree_split_minimises_the_sse_sum():
    x = np.arange(1.0, 9.0)[:, None]
    y = np.array([6, 5, 5, 9, 2, 8, 6, 0], dtype=float)
    tree = DecisionTreeRegressor(max_depth=1).fit(x, y).tree_
    assert tree.threshold[0] == 7.5
    sse = tree.impurity[1:3] * tree.n_node_samples[1:3]  # impurity is the node's mean square
    assert round(sse.sum(), 3) == 30.857
    left, right = y[:4], y[4:]  # the split at 4.5
    sse_45 = np.sum((left - left.mean()) ** 2) + np.sum((right - right.mean()) ** 2)
    assert sse_45 == 50.75
    # erratum (seed 000 Appendix A E1): SSE weighted by the children's proportions would pick
    # 4.5 (cost 25.375 vs 27.0 at 7.5); the library minimises SSE_L + SSE_R
    assert 0.5 * np.sum((left - left.mean()) ** 2) + 0.5 * np.sum((right - 4) ** 2) == 25.375
    assert round(7 / 8 * sse.sum(), 3) == 27.0


def test_s2_15_representation_changes_the_error():
    # x1 ~ U(−1, 1), y = x1², x2 = y + U(−0.01, 0.01): on x1 the best line is the constant 1/3
    # (MSE 4/45 = 0.08889); on x2 the MSE is about the noise variance 0.02²/12 = 3.3e-5
    rng = np.random.default_rng(15)
    n = 200_000
    x1 = rng.uniform(-1, 1, n)
    y = x1**2
    x2 = y + rng.uniform(-0.01, 0.01, n)
    on_x1 = LinearRegression().fit(x1[:, None], y)
    on_x2 = LinearRegression().fit(x2[:, None], y)
    with pytest.warns(NumericalWarning, match="perfect fit"):
        on_sq = LinearRegression().fit((x1**2)[:, None], y)
    mse = [np.mean((y - m.predict(X[:, None])) ** 2) for m, X in [(on_x1, x1), (on_x2, x2)]]
    assert mse[0] == pytest.approx(4 / 45, abs=0.001)
    assert on_x1.intercept_ == pytest.approx(1 / 3, abs=0.003)
    assert abs(on_x1.coef_[0]) < 0.003
    assert mse[1] == pytest.approx(0.02**2 / 12, rel=0.02)
    assert round(mse[1], 6) == pytest.approx(3.3e-5, abs=1e-6)
    assert mse[0] / mse[1] > 2500
    assert np.mean((y - on_sq.predict((x1**2)[:, None])) ** 2) < 1e-25


class _CountingLinearRegression(LinearRegression):
    calls = 0

    def fit(self, X, y, sample_weight=None):
        type(self).calls += 1
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize(
    "direction, k",
    [("forward", 3), ("forward", None), ("backward", 2), ("backward", None)],
)
def test_s2_16_fit_call_counts(direction, k):
    # Vandin: forward to size k fits Σ_{j<k} (d − j) models, backward from d to k fits
    # Σ_{j=k+1}^{d} j; the wrapper adds one fit (the empty model forward, the full backward).
    # The exhaustive search's C(d, k) is not counted: BestSubsetSelector sweeps the
    # cross-product matrix instead of refitting.
    d = 6
    rng = np.random.default_rng(16)
    X = rng.normal(size=(60, d))
    y = X @ rng.normal(size=d) + rng.normal(size=60)
    _CountingLinearRegression.calls = 0
    WrapperSelector(
        _CountingLinearRegression(), direction=direction, max_features=k, cv=0.25, random_state=0
    ).fit(X, y)
    if direction == "forward":
        expected = sum(d - j for j in range(d if k is None else k))
    else:
        expected = sum(range((0 if k is None else k) + 1, d + 1))
    assert _CountingLinearRegression.calls == expected + 1


def test_s2_17_selection_outside_the_folds_leaks():
    # Fig. 1.5 / §5.1: the 10 of 1000 random features best correlated with a random label,
    # chosen on all the data, look predictive under CV; chosen inside the folds, they do not
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 1000))
    y = np.repeat([0, 1], 25)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    chosen = FilterSelector(f_scores, k=10).fit(X, y).transform(X)
    leaky = cv_estimate(KNeighborsClassifier(5), chosen, y, cv=cv, scoring="accuracy")
    inside = make_pipeline(FilterSelector(f_scores, k=10), KNeighborsClassifier(5))
    honest = cv_estimate(inside, X, y, cv=cv, scoring="accuracy")
    assert leaky.mean > 0.8
    assert honest.mean < 0.65
    assert leaky.mean - honest.mean > 0.25


def test_s2_17_random_labels_are_fitted_as_features_grow():
    # Figs. 1.6 and 1.8: on random balanced labels (50 instances), training accuracy rises with
    # tree depth (1 feature) and with the number of logistic-regression features (up to 35)
    rng = np.random.default_rng(6)
    labels = rng.permutation(np.repeat([0, 1], 25))
    x = rng.uniform(size=(50, 1))
    depth = [
        DecisionTreeClassifier(max_depth=m).fit(x, labels).score(x, labels) for m in (1, 4, 16)
    ]
    assert depth[0] < 0.75 and depth == sorted(depth) and depth[-1] == 1.0
    X = rng.normal(size=(50, 35))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # separable at 35 features: the MLE diverges
        acc = [LogisticRegression().fit(X[:, :p], labels).score(X[:, :p], labels) for p in (1, 35)]
    assert acc[0] < 0.7 and acc[1] == 1.0


def test_s2_17_xor_pair_forward_misses_backward_keeps():
    # the pair (x0, x1) decides y by XOR, useless one at a time; x2 is a noisy copy of y and x3
    # noise. Forward selection takes x2 first and never holds both members of the pair; backward
    # elimination starts from all features and keeps the pair.
    rng = np.random.default_rng(0)
    n = 400
    X = rng.uniform(-1, 1, size=(n, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    X[:, 2] = y + rng.normal(scale=0.7, size=n)
    knn = KNeighborsClassifier(5)
    fwd = WrapperSelector(knn, max_features=2, cv=0.3, random_state=0).fit(X, y)
    bwd = WrapperSelector(knn, direction="backward", max_features=2, cv=0.3, random_state=0)
    bwd.fit(X, y)
    assert not any({0, 1} <= set(row["variables"]) for row in fwd.path_)
    assert fwd.path_[1]["variables"] == (2,)
    assert bwd.support_[0] and bwd.support_[1]
    best = {name: max(row["score"] for row in sel.path_) for name, sel in [("f", fwd), ("b", bwd)]}
    assert best["b"] > best["f"] + 0.15
