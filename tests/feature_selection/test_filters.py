"""Filter scores, Relief/ReliefF and FilterSelector (seed 000, seed 001 §7.4.2)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import mutual_info_classif, mutual_info_regression

from statlearning.exceptions import NumericalWarning
from statlearning.feature_selection import (
    FilterSelector,
    ReliefF,
    f_scores,
    mutual_info_scores,
    variance_mean_scores,
)


def _mixed(seed=0, n=300):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = X[:, 0] ** 2 + 0.5 * X[:, 1] + 0.5 * rng.normal(size=n)
    return rng, X, y


def test_mutual_information_matches_kraskov_and_ross_estimators():
    # scikit-learn implements the same estimators (it adds 1e-10 jitter, irrelevant here).
    rng, X, y = _mixed()
    np.testing.assert_allclose(
        mutual_info_scores(X, y), mutual_info_regression(X, y, random_state=0), rtol=1e-12
    )
    yc = (X[:, 0] > 0.3).astype(int)
    np.testing.assert_allclose(
        mutual_info_scores(X, yc), mutual_info_classif(X, yc, random_state=0), rtol=1e-12
    )
    Xd = rng.integers(0, 3, size=(300, 2))
    np.testing.assert_allclose(
        mutual_info_scores(Xd, y, discrete_features=True),
        mutual_info_regression(Xd, y, discrete_features=True, random_state=0),
        rtol=1e-12,
    )


def test_discrete_mutual_information_from_frequency_counts():
    x = np.array([0, 0, 1, 1, 1, 2])
    y = np.array(["a", "a", "a", "b", "b", "b"])
    pxy = {(0, "a"): 2 / 6, (1, "a"): 1 / 6, (1, "b"): 2 / 6, (2, "b"): 1 / 6}
    px = {0: 2 / 6, 1: 3 / 6, 2: 1 / 6}
    py = {"a": 0.5, "b": 0.5}
    expected = sum(v * np.log(v / (px[a] * py[b])) for (a, b), v in pxy.items())
    got = mutual_info_scores(x[:, None], y, discrete_features=True)
    np.testing.assert_allclose(got, [expected], rtol=1e-14)


def test_f_score_by_hand():
    X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 6.0], [6.0, 5.5], [8.0, 5.0]])
    y = np.array([0, 0, 0, 1, 1])
    for j in range(2):
        pos, neg, mean = X[y == 1, j], X[y == 0, j], X[:, j].mean()
        num = (pos.mean() - mean) ** 2 + (neg.mean() - mean) ** 2
        den = pos.var(ddof=1) + neg.var(ddof=1)
        np.testing.assert_allclose(f_scores(X, y)[j], num / den, rtol=1e-14)
    np.testing.assert_allclose(f_scores(X, np.where(y == 1, "no", "yes")), f_scores(X, y))
    with pytest.raises(ValueError, match="exactly two classes"):
        f_scores(X, np.array([0, 1, 2, 1, 0]))


def test_variance_mean_ratio():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.poisson(4.0, 20000), rng.negative_binomial(2, 0.2, 20000)])
    s = variance_mean_scores(X)
    assert abs(s[0] - 1.0) < 0.05  # Poisson: index of dispersion 1
    assert s[1] > 4.0  # overdispersed: 1 + mean/size = 5
    with pytest.warns(NumericalWarning, match="mean 0"):
        assert np.isnan(variance_mean_scores(np.array([[-1.0], [1.0]]))[0])


def _relief_by_hand(X, y, rows):
    """The notes' Relief: w ← w − (x − nearHit)² + (x − nearMiss)² on [0, 1]-scaled data."""
    Z = (X - X.min(0)) / (X.max(0) - X.min(0))
    w = np.zeros(X.shape[1])
    for i in rows:
        d = ((Z - Z[i]) ** 2).sum(1)
        d[i] = np.inf
        hit = min((j for j in range(len(y)) if y[j] == y[i]), key=lambda j: (d[j], j))
        miss = min((j for j in range(len(y)) if y[j] != y[i]), key=lambda j: (d[j], j))
        w += -((Z[i] - Z[hit]) ** 2) + (Z[i] - Z[miss]) ** 2
    return w / len(rows)


def test_relief_is_the_notes_update():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    est = ReliefF(n_neighbors=1, diff_power=2).fit(X, y)
    np.testing.assert_allclose(est.scores_, _relief_by_hand(X, y, range(40)), rtol=1e-12)
    est = ReliefF(n_neighbors=1, diff_power=2, max_iter=25, random_state=7).fit(X, y)
    rows = np.random.RandomState(7).randint(0, 40, size=25)
    np.testing.assert_allclose(est.scores_, _relief_by_hand(X, y, rows), rtol=1e-12)


def test_relieff_n_iterations_is_a_deprecated_alias_of_max_iter():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    new = ReliefF(n_neighbors=1, max_iter=25, random_state=7).fit(X, y)
    with pytest.warns(FutureWarning, match="ReliefF: parameter 'n_iterations' was renamed"):
        old = ReliefF(n_neighbors=1, n_iterations=25, random_state=7).fit(X, y)
    np.testing.assert_array_equal(old.scores_, new.scores_)
    every = ReliefF(n_neighbors=1).fit(X, y)
    assert not np.array_equal(every.scores_, new.scores_)
    assert (new.n_iter_, old.n_iter_, every.n_iter_) == (25, 25, 40)
    with pytest.raises(ValueError, match="set only max_iter="):
        ReliefF(max_iter=5, n_iterations=6).fit(X, y)


def test_relieff_finds_xor_that_univariate_filters_miss():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(400, 4))
    y = np.where((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5), "odd", "even")
    relief = ReliefF(n_features_to_select=2).fit(X, y)
    assert relief.get_support(indices=True).tolist() == [0, 1]
    assert relief.scores_[:2].min() > 5 * np.abs(relief.scores_[2:]).max()
    fs = f_scores(X, y)
    assert fs[:2].max() < 0.05  # each feature alone carries no signal


def test_relieff_multiclass_priors():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 3))
    y = np.digitize(X[:, 2], [-0.5, 0.5])
    est = ReliefF(n_features_to_select=1, n_neighbors=5).fit(X, y)
    assert est.get_support(indices=True).tolist() == [2]
    assert est.scores_[2] > 10 * np.abs(est.scores_[:2]).max()


def test_filter_selector_top_k_and_permutation_p_values():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 4))
    y = X[:, 0] ** 2 + X[:, 1] + 0.3 * rng.normal(size=200)
    sel = FilterSelector(mutual_info_scores, k=2).fit(X, y)
    assert sel.get_support(indices=True).tolist() == [0, 1]
    assert sel.pvalues_ is None
    perm = FilterSelector(mutual_info_scores, p_value=0.05, n_permutations=99, random_state=0)
    perm.fit(X, y)
    assert perm.pvalues_[0] == pytest.approx(0.01)
    assert perm.pvalues_[1] == pytest.approx(0.01)
    assert perm.get_support(indices=True).tolist() == [0, 1]
    assert np.all(perm.pvalues_[2:] > 0.05)
    again = FilterSelector(mutual_info_scores, p_value=0.05, n_permutations=99, random_state=0)
    np.testing.assert_array_equal(again.fit(X, y).pvalues_, perm.pvalues_)


def test_filter_selector_with_relief_and_bad_score_func():
    _, X, y = _mixed(seed=5)
    labels = np.where(y > np.median(y), "hi", "lo")
    sel = FilterSelector(ReliefF(), k=1).fit(X, labels)
    assert sel.get_support(indices=True).tolist() == [0]
    with pytest.raises(TypeError, match="score_func"):
        FilterSelector(42).fit(X, y)
    with pytest.raises(ValueError, match="shape"):
        FilterSelector(lambda X, y: np.ones(2)).fit(X, y)
