"""CV estimates with standard errors (seed 004 E16), the one-SE rule and nested CV."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from statlearning.linear_model import LinearRegression, Ridge
from statlearning.model_selection import (
    CVEstimate,
    cv_estimate,
    nested_cv,
    one_standard_error_rule,
)

# Seed 004 E16: per-fold sizes and test MSEs of 10-fold CV of LE ~ lgdppc (Gapminder 2011).
E16_SIZES = [17, 17, 17, 17, 17, 17, 16, 16, 16, 16]
E16_MSE = [33.85, 21.41, 45.62, 29.58, 24.12, 19.39, 48.15, 23.14, 7.83, 19.74]
E16_B0 = [37.69, 36.22, 37.59, 36.66, 37.49, 36.49, 36.78, 36.91, 37.41, 37.68]
E16_B1 = [4.25, 4.44, 4.24, 4.34, 4.26, 4.38, 4.38, 4.33, 4.27, 4.25]


def test_seed004_e16_arithmetic():
    coefs = np.column_stack([E16_B0, E16_B1])
    est = CVEstimate.from_scores(-np.array(E16_MSE), E16_SIZES, coefs=coefs)
    assert est.fold_sizes.sum() == 166
    assert -est.mean == pytest.approx(27.283, abs=5e-4)
    assert -est.weighted_mean == pytest.approx(27.345, abs=5e-4)  # CV_(10)
    assert est.sd == pytest.approx(12.38, abs=5e-3)  # the seed's "ŝe"
    assert est.se == pytest.approx(est.sd / np.sqrt(10), rel=1e-12)
    np.testing.assert_allclose(est.coefs.mean(axis=0), [37.092, 4.314], atol=5e-4)
    np.testing.assert_allclose(est.coefs.std(axis=0, ddof=1), [0.54, 0.07], atol=5e-3)


def test_cv_estimate_matches_a_manual_loop():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(53, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=53)
    est = cv_estimate(
        LinearRegression(), X, y, cv=5, scoring="neg_mean_squared_error", return_coefs=True
    )
    scores, sizes, coefs = [], [], []
    for train, test in KFold(5).split(X):
        fit = LinearRegression().fit(X[train], y[train])
        scores.append(-np.mean((y[test] - fit.predict(X[test])) ** 2))
        sizes.append(len(test))
        coefs.append(np.r_[fit.intercept_, fit.coef_])
    np.testing.assert_allclose(est.scores, scores, rtol=1e-12)
    np.testing.assert_array_equal(est.fold_sizes, sizes)
    np.testing.assert_allclose(est.coefs, coefs, rtol=1e-12)
    w = np.array(sizes) / 53
    assert est.weighted_mean == pytest.approx(np.sum(w * scores), rel=1e-12)
    assert est.weighted_mean != pytest.approx(est.mean, rel=1e-9)  # unequal folds


def test_repeated_cv_is_reproducible():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = X[:, 0] + rng.normal(size=40)
    a = cv_estimate(LinearRegression(), X, y, cv=4, n_repeats=3, random_state=7)
    b = cv_estimate(LinearRegression(), X, y, cv=4, n_repeats=3, random_state=7)
    assert a.scores.shape == (12,)
    np.testing.assert_array_equal(a.scores, b.scores)
    assert a.se == pytest.approx(a.sd / np.sqrt(12))
    with pytest.raises(ValueError, match="n_repeats"):
        cv_estimate(LinearRegression(), X, y, cv=KFold(4), n_repeats=2)
    with pytest.raises(ValueError, match="n_repeats"):
        cv_estimate(LinearRegression(), X, y, n_repeats=0)


def test_classifier_labels_and_pipeline():
    from sklearn.linear_model import LogisticRegression as SkLogistic

    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, "yes", "no")
    est = cv_estimate(make_pipeline(StandardScaler(), SkLogistic()), X, y, cv=5)
    assert np.all((est.scores >= 0) & (est.scores <= 1))
    from sklearn.neighbors import KNeighborsRegressor

    with pytest.raises(TypeError, match="coef_"):
        cv_estimate(KNeighborsRegressor(3), X, X[:, 0], cv=3, return_coefs=True)


def _results(mean, std, alpha, k=5):
    out = {"mean_test_score": np.array(mean), "std_test_score": np.array(std)}
    out["param_alpha"] = np.ma.masked_array(alpha, mask=False, dtype=object)
    for i in range(k):
        out[f"split{i}_test_score"] = np.zeros(len(mean))
    return out


def test_one_se_rule_on_a_curve():
    # best at alpha=1 (-1.0); SE = 0.5/sqrt(5) = 0.2236 → threshold -1.2236
    res = _results([-1.5, -1.2, -1.0, -1.1, -1.3], [0.5] * 5, [100.0, 10.0, 1.0, 0.1, 0.01])
    assert one_standard_error_rule("alpha", simpler="larger")(res) == 1
    assert one_standard_error_rule("alpha", simpler="smaller")(res) == 3
    bare = {k: v for k, v in res.items() if not k.startswith("split")}
    with pytest.raises(ValueError, match="n_splits"):
        one_standard_error_rule("alpha")(bare)
    assert one_standard_error_rule("alpha", simpler="larger", n_splits=5)(bare) == 1
    with pytest.raises(KeyError, match="param_beta"):
        one_standard_error_rule("beta")(res)
    with pytest.raises(ValueError, match="simpler"):
        one_standard_error_rule("alpha", simpler="fewer")


def test_one_se_rule_in_grid_search():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 10))
    y = X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=80)
    grid = {"alpha": np.logspace(-2, 3, 12)}
    rule = one_standard_error_rule("alpha", simpler="larger")
    search = GridSearchCV(Ridge(), grid, cv=5, scoring="neg_mean_squared_error", refit=rule)
    search.fit(X, y)
    res = search.cv_results_
    best = int(np.argmax(res["mean_test_score"]))
    chosen = search.best_index_
    se = res["std_test_score"][best] / np.sqrt(5)
    assert res["mean_test_score"][chosen] >= res["mean_test_score"][best] - se
    assert grid["alpha"][chosen] >= grid["alpha"][best]
    larger = np.flatnonzero(grid["alpha"] > grid["alpha"][chosen])
    assert np.all(res["mean_test_score"][larger] < res["mean_test_score"][best] - se)


def test_one_se_rule_ties():
    # equal best means: the simplest sets the bound; equal complexity: the better mean wins
    res = _results([-1.0, -1.0, -1.05, -1.05], [0.0, 0.4, 0.4, 0.4], [1.0, 10.0, 100.0, 100.0])
    assert one_standard_error_rule("alpha", simpler="larger")(res) == 2  # bound from alpha=10
    res = _results([-1.0, -1.04, -1.02], [0.2, 0.2, 0.2], [1.0, 10.0, 10.0])
    assert one_standard_error_rule("alpha", simpler="larger")(res) == 2


def test_nested_cv():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 5))
    y = X[:, 0] + rng.normal(size=60)
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 1.0, 10.0]}, cv=3, scoring="r2")
    res = nested_cv(search, X, y, outer_cv=4)
    assert res.scores.shape == (4,)
    assert all(p["alpha"] in (0.1, 1.0, 10.0) for p in res.best_params)
    manual = []
    for train, test in KFold(4).split(X):
        fitted = GridSearchCV(Ridge(), {"alpha": [0.1, 1.0, 10.0]}, cv=3).fit(X[train], y[train])
        manual.append(fitted.score(X[test], y[test]))
    np.testing.assert_allclose(res.scores, manual, rtol=1e-12)
    assert res.se == pytest.approx(np.std(manual, ddof=1) / 2)


def test_parallel_folds_give_the_same_estimate():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(90, 4))
    y = X @ [1.0, 0.0, -1.0, 0.5] + rng.normal(size=90)
    seq = cv_estimate(Ridge(), X, y, cv=5, return_coefs=True)
    par = cv_estimate(Ridge(), X, y, cv=5, return_coefs=True, n_jobs=2)
    np.testing.assert_array_equal(seq.scores, par.scores)
    np.testing.assert_array_equal(seq.coefs, par.coefs)
    np.testing.assert_array_equal(seq.fold_sizes, par.fold_sizes)
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            cv_estimate(Ridge(), X, y, cv=5, n_jobs=bad)


def test_scores_equal_cross_val_score_for_any_split():
    """Contiguous test folds are scored on views, others on copies: same scores as sklearn."""
    import pandas as pd
    from sklearn.model_selection import ShuffleSplit, cross_val_score

    rng = np.random.default_rng(6)
    X = rng.normal(size=(70, 3))
    y = X[:, 0] - X[:, 2] + rng.normal(size=70)
    for cv in (7, KFold(5, shuffle=True, random_state=0), ShuffleSplit(4, random_state=1)):
        for Xa, ya in ((X, y), (pd.DataFrame(X), pd.Series(y)), (X.tolist(), y.tolist())):
            got = cv_estimate(Ridge(), Xa, ya, cv=cv, scoring="neg_mean_squared_error").scores
            ref = cross_val_score(Ridge(), X, y, cv=cv, scoring="neg_mean_squared_error")
            np.testing.assert_allclose(got, ref, rtol=1e-12)


def test_test_rows_are_a_view_for_contiguous_folds():
    from statlearning.model_selection._cv import _test_rows

    X = np.arange(20.0).reshape(10, 2)
    assert np.shares_memory(_test_rows(X, np.arange(3, 7)), X)
    assert not np.shares_memory(_test_rows(X, np.array([1, 3, 4])), X)
    np.testing.assert_array_equal(_test_rows(X, np.array([1, 3, 4])), X[[1, 3, 4]])


def test_sparse_X_reaches_the_estimator_which_accepts_or_refuses_it_by_name():
    import scipy.sparse as sp

    from statlearning.linear_model import Lasso

    X = sp.random(30, 4, density=0.5, random_state=0, format="csr")
    y = np.arange(30.0)
    with pytest.raises(TypeError, match=r"^Lasso: X is a sparse matrix"):
        cv_estimate(Lasso(alpha=0.1), X, y, cv=3)

    class Dense(Lasso):
        def fit(self, X, y):
            return super().fit(X.toarray(), y)

        def predict(self, X):
            return super().predict(X.toarray())

    result = cv_estimate(Dense(alpha=0.1), X, y, cv=3)
    expected = cv_estimate(Lasso(alpha=0.1), X.toarray(), y, cv=3)
    np.testing.assert_allclose(result.scores, expected.scores)
