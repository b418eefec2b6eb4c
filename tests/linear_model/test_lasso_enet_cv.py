"""LassoCV and ElasticNetCV: the CV curve, its standard error, lambda.min / lambda.1se and the
refit; agreement with scikit-learn's LassoCV (as an oracle) on the same folds."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import KFold

from statlearning.exceptions import InvalidParameterError
from statlearning.linear_model import ElasticNet, ElasticNetCV, Lasso, LassoCV, enet_path


def data(n=120, p=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) + rng.normal(size=p)
    y = 2.0 + X[:, :3] @ [1.5, -2.0, 0.7] + rng.normal(size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    return X, y, w


def test_cv_curve_is_the_held_out_mse_of_the_fold_paths():
    X, y, w = data()
    folds = KFold(4, shuffle=True, random_state=0)
    est = ElasticNetCV(l1_ratio=0.6, n_alphas=15, cv=folds, tol=1e-12).fit(X, y, sample_weight=w)
    assert est.alphas_.shape == (15,) and est.mse_path_.shape == (15, 4)
    for k, (train, test) in enumerate(folds.split(X)):
        _, coefs, intercepts = enet_path(X[train], y[train], l1_ratio=0.6, alphas=est.alphas_,
                                         sample_weight=w[train], tol=1e-12)
        err = y[test, None] - X[test] @ coefs - intercepts
        expected = (w[test] @ err**2) / w[test].sum()
        np.testing.assert_allclose(est.mse_path_[:, k], expected, rtol=1e-9)
    np.testing.assert_allclose(est.cv_mean_, est.mse_path_.mean(axis=1))
    np.testing.assert_allclose(est.cv_se_, est.mse_path_.std(axis=1, ddof=1) / 2.0)


def test_min_and_one_standard_error_rule():
    X, y, _ = data(seed=1)
    est = LassoCV(n_alphas=40, cv=5).fit(X, y)
    m, s, a = est.cv_mean_, est.cv_se_, est.alphas_
    i = int(np.argmin(m))
    assert est.alpha_min_ == a[i] and est.alpha_ == est.alpha_min_
    # glmnet's lambda.1se: the largest alpha whose mean error is within one SE of the minimum
    within = a[m <= m[i] + s[i]]
    assert est.alpha_1se_ == within.max()
    assert est.alpha_1se_ >= est.alpha_min_
    assert est.alpha_1se_ > est.alpha_min_  # on these data the rule does pick a simpler model
    # the refit is the plain estimator at the chosen alpha, on all the data
    ref = Lasso(alpha=est.alpha_).fit(X, y)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-10, atol=1e-12)
    one_se = LassoCV(n_alphas=40, cv=5, rule="1se").fit(X, y)
    assert one_se.alpha_ == est.alpha_1se_
    assert np.count_nonzero(one_se.coef_) <= np.count_nonzero(est.coef_)
    np.testing.assert_allclose(one_se.coef_, Lasso(alpha=est.alpha_1se_).fit(X, y).coef_)


def test_agrees_with_scikit_learn_lasso_cv():
    from sklearn.linear_model import LassoCV as SkLassoCV

    X, y, _ = data(seed=2)
    ours = LassoCV(n_alphas=30, cv=5, tol=1e-10).fit(X, y)
    theirs = SkLassoCV(alphas=30, cv=5, tol=1e-10, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.alphas_, theirs.alphas_, rtol=1e-12)
    np.testing.assert_allclose(ours.mse_path_, theirs.mse_path_, rtol=1e-6)
    assert ours.alpha_ == pytest.approx(theirs.alpha_, rel=1e-12)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-8)


def test_elastic_net_cv_with_a_list_of_l1_ratios():
    X, y, _ = data(seed=3)
    est = ElasticNetCV(l1_ratio=[0.1, 0.5, 1.0], n_alphas=12, cv=3).fit(X, y)
    assert est.alphas_.shape == (3, 12) and est.mse_path_.shape == (3, 12, 3)
    assert est.cv_mean_.shape == (3, 12) and est.cv_se_.shape == (3, 12)
    best = int(np.argmin(est.cv_mean_.min(axis=1)))
    assert est.l1_ratio_ == [0.1, 0.5, 1.0][best]
    assert est.alpha_min_ == est.alphas_[best, np.argmin(est.cv_mean_[best])]
    # each row's grid starts at that l1_ratio's alpha_max
    np.testing.assert_allclose(est.alphas_[0, 0] * 0.1, est.alphas_[2, 0], rtol=1e-12)
    ref = ElasticNet(alpha=est.alpha_, l1_ratio=est.l1_ratio_).fit(X, y)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-10, atol=1e-12)


def test_explicit_alphas_and_ridge():
    X, y, _ = data(seed=4)
    est = ElasticNetCV(l1_ratio=0.0, alphas=[0.01, 1.0, 0.1], cv=3).fit(X, y)
    np.testing.assert_array_equal(est.alphas_, [1.0, 0.1, 0.01])
    with pytest.raises(ValueError, match="l1_ratio=0 needs explicit alphas"):
        ElasticNetCV(l1_ratio=[0.0, 0.5]).fit(X, y)


def test_cv_accepts_splitters_and_iterables():
    X, y, _ = data(seed=5)
    splits = list(KFold(3).split(X))
    a = LassoCV(n_alphas=10, cv=splits).fit(X, y)
    b = LassoCV(n_alphas=10, cv=3).fit(X, y)
    np.testing.assert_allclose(a.mse_path_, b.mse_path_)
    with pytest.raises(ValueError, match="at least two folds"):
        LassoCV(n_alphas=10, cv=splits[:1], rule="1se").fit(X, y)
    single = LassoCV(n_alphas=10, cv=splits[:1]).fit(X, y)
    assert np.all(np.isnan(single.cv_se_)) and np.isnan(single.alpha_1se_)


@pytest.mark.parametrize(
    ("est", "match"),
    [
        (LassoCV(rule="2se"), r"LassoCV: parameter 'rule' must be one of"),
        (LassoCV(n_alphas=0), r"parameter 'n_alphas'"),
        (ElasticNetCV(l1_ratio=1.2), r"l1_ratio"),
        (ElasticNetCV(l1_ratio=[0.5, 1.2]), r"every l1_ratio must be in \[0, 1\]"),
        (ElasticNetCV(l1_ratio=[]), r"non-empty"),
        (LassoCV(alphas=[-1.0]), r"alphas must be finite and non-negative"),
        (LassoCV(cv="five"), r"cv"),
    ],
)
def test_bad_parameters(est, match):
    X, y, _ = data()
    with pytest.raises((InvalidParameterError, ValueError), match=match):
        est.fit(X, y)


@pytest.mark.parametrize("cls", [LassoCV, ElasticNetCV])
def test_selection_is_the_deprecated_name_of_rule(cls):
    X, y, _ = data()
    new = cls(n_alphas=15, cv=4, rule="1se").fit(X, y)
    with pytest.warns(FutureWarning, match="'selection' was renamed to 'rule'"):
        old = cls(n_alphas=15, cv=4, selection="1se").fit(X, y)
    assert old.alpha_ == new.alpha_ == new.alpha_1se_
    np.testing.assert_array_equal(old.coef_, new.coef_)
    with pytest.raises(ValueError, match="set only rule="):
        cls(n_alphas=15, cv=4, rule="1se", selection="min").fit(X, y)


def test_one_se_choice_is_the_shared_rule():
    from statlearning._core.selection import select_index

    X, y, _ = data()
    m = LassoCV(n_alphas=30, cv=5, rule="1se").fit(X, y)
    i_min = select_index(m.cv_mean_, complexity=-m.alphas_)
    i_1se = select_index(m.cv_mean_, m.cv_se_, -m.alphas_, rule="1se")
    assert (m.alpha_min_, m.alpha_1se_) == (m.alphas_[i_min], m.alphas_[i_1se])
    # the largest alpha whose mean error is within one SE (sd/√K, ddof=1) of the minimum
    se = m.mse_path_.std(axis=1, ddof=1) / np.sqrt(5)
    ok = m.cv_mean_ <= m.cv_mean_[i_min] + se[i_min]
    assert m.alpha_1se_ == m.alphas_[ok].max()


def test_a_vanishing_l1_ratio_is_a_clear_error_not_an_internal_one():
    """Found by fuzzing: l1_ratio=5e-324 overflowed the grid's largest alpha."""
    from statlearning.linear_model import ElasticNetCV

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    y = X[:, 0] + rng.normal(size=20)
    with pytest.raises(ValueError, match=r"l1_ratio=5e-324 is too small"):
        ElasticNetCV(l1_ratio=5e-324).fit(X, y)


def test_an_underflowing_eps_is_a_clear_error():
    """Found by fuzzing: eps=5e-324 made the grid's smallest alpha 0 (numpy's geomspace error)."""
    from statlearning.linear_model import LassoCV

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    y = 1e-3 * (X[:, 0] + rng.normal(size=20))  # alpha_max < 1: eps * alpha_max underflows
    with pytest.raises(ValueError, match=r"eps=5e-324 is too small"):
        LassoCV(eps=5e-324).fit(X, y)
