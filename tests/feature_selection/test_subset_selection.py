"""BestSubsetSelector and StepwiseSelector: brute force, the notes' numbers, bad input."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline

from statlearning.exceptions import InvalidParameterError, NumericalWarning, RankDeficientWarning
from statlearning.feature_selection import BestSubsetSelector, StepwiseSelector
from statlearning.linear_model import LinearRegression, LogisticRegression


def _data(n=80, p=9, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] += 0.7 * X[:, 0]
    y = 1.0 + 2 * X[:, 0] - 1.5 * X[:, 4] + 0.4 * X[:, 6] + rng.normal(size=n)
    return X, y


def _rss(X, y, cols, intercept=True):
    A = X[:, list(cols)]
    if intercept:
        A = np.column_stack([np.ones(len(y)), A])
    if A.shape[1] == 0:
        return float(y @ y)
    r = y - A @ np.linalg.lstsq(A, y, rcond=None)[0]
    return float(r @ r)


@pytest.mark.parametrize("method", ["exhaustive", "branch_and_bound"])
@pytest.mark.parametrize("intercept", [True, False])
def test_best_subsets_match_brute_force(method, intercept):
    X, y = _data()
    p = X.shape[1]
    est = BestSubsetSelector(method=method, fit_intercept=intercept, max_features=6).fit(X, y)
    assert [r["size"] for r in est.path_] == list(range(7))
    for row in est.path_[1:]:
        s = row["size"]
        best = min(itertools.combinations(range(p), s), key=lambda c: _rss(X, y, c, intercept))
        assert row["variables"] == best
        np.testing.assert_allclose(row["rss"], _rss(X, y, best, intercept), rtol=1e-10)
    if intercept:
        assert est.get_support(indices=True).tolist() == [0, 4, 6]


def test_branch_and_bound_equals_exhaustive_on_many_features():
    X, y = _data(n=200, p=16, seed=3)
    a = BestSubsetSelector(method="exhaustive").fit(X, y).path_
    b = BestSubsetSelector(method="branch_and_bound").fit(X, y).path_
    assert [r["variables"] for r in a] == [r["variables"] for r in b]
    np.testing.assert_allclose([r["rss"] for r in a], [r["rss"] for r in b], rtol=1e-10)


def test_islr_convention_reproduces_seed004_e7():
    # E7: n = 166, two predictors, σ̂² = 17.409 from that (full) model; d = p + 2 = 4.
    rng = np.random.default_rng(1)
    n = 166
    X = rng.normal(size=(n, 2))
    e = rng.normal(size=n)
    A = np.column_stack([np.ones(n), X])
    e -= A @ np.linalg.lstsq(A, e, rcond=None)[0]
    e *= math.sqrt(163 * 17.409 / (e @ e))
    y = 79.677 - 0.276 * X[:, 0] - 0.444 * X[:, 1] + e
    est = BestSubsetSelector(criterion="cp", convention="islr").fit(X, y)
    np.testing.assert_allclose(est.sigma2_, 17.409, rtol=1e-12)
    full = est.path_[2]
    # The notes print σ̂² rounded to 17.409; their Cp and BIC agree to the printed digits.
    np.testing.assert_allclose(full["cp"], 17.934, atol=1e-3)
    np.testing.assert_allclose(full["bic"], 19.239, atol=1e-3)
    # The leaps convention on the same model: Cp = RSS/σ̂² − n + 2k = 163 − 166 + 6 = k = 3.
    leaps = BestSubsetSelector(criterion="cp").fit(X, y).path_[2]
    np.testing.assert_allclose(leaps["cp"], 3.0, rtol=1e-12)


def test_path_renders_with_feature_names_and_pipeline_works():
    X, y = _data()
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    est = BestSubsetSelector().fit(df, y)
    table = pd.DataFrame(est.path_)
    assert list(table.columns[:8]) == [
        "size",
        "variables",
        "rss",
        "r2",
        "adjr2",
        "cp",
        "bic",
        "aic",
    ]
    assert table.loc[3, "variables"] == ("f0", "f4", "f6")
    assert est.get_feature_names_out().tolist() == ["f0", "f4", "f6"]
    pipe = make_pipeline(BestSubsetSelector(), LinearRegression()).fit(X, y)
    assert pipe[-1].coef_.shape == (3,)


def test_cv_criterion_and_one_standard_error_rule():
    X, y = _data(n=120, seed=5)
    cv = KFold(5, shuffle=True, random_state=0)
    lo = BestSubsetSelector(criterion="cv", cv=cv).fit(X, y)
    se = BestSubsetSelector(criterion="cv", cv=cv, rule="1se").fit(X, y)
    errs = np.array([r["cv"] for r in lo.path_])
    assert lo.best_size_ == int(np.argmin(errs))
    limit = errs.min() + lo.path_[lo.best_size_]["cv_se"]
    assert se.best_size_ == int(np.flatnonzero(errs <= limit)[0])
    assert se.best_size_ <= lo.best_size_
    assert all(r["cv_se"] > 0 for r in lo.path_)


def test_refuses_too_many_subsets_with_the_count():
    X = np.random.default_rng(0).normal(size=(40, 31))
    y = X[:, 0]
    with pytest.raises(ValueError, match=r"2,147,483,647 subsets.*branch_and_bound.*Stepwise"):
        BestSubsetSelector().fit(X, y)


def test_cp_needs_residual_degrees_of_freedom():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(8, 10)), rng.normal(size=8)
    with pytest.raises(ValueError, match="needs σ̂² from the full model"):
        BestSubsetSelector(criterion="cp", max_features=3).fit(X, y)
    with pytest.warns(RankDeficientWarning):
        est = BestSubsetSelector(criterion="bic", max_features=3).fit(X, y)
    assert est.best_size_ <= 3


def test_unknown_criterion_is_named():
    X, y = _data()
    with pytest.raises(InvalidParameterError, match="criterion"):
        BestSubsetSelector(criterion="mallows").fit(X, y)
    with pytest.raises(InvalidParameterError, match="criterion"):
        StepwiseSelector(criterion="r2").fit(X, y)


def test_aliased_column_is_never_selected():
    X, y = _data()
    X = np.column_stack([X, X[:, 0] + X[:, 4]])
    with pytest.warns(RankDeficientWarning, match=r"\(9,\)"):
        est = BestSubsetSelector().fit(X, y)
    assert all(9 not in r["variables"] for r in est.path_)


def test_backward_refuses_p_greater_than_n():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(10, 12)), rng.normal(size=10)
    with pytest.raises(ValueError, match=r"p > n.*direction='forward'"):
        StepwiseSelector(direction="backward", criterion="bic").fit(X, y)
    with pytest.warns(RankDeficientWarning):
        est = StepwiseSelector(direction="forward", criterion="bic", max_features=5).fit(X, y)
    assert len(est.path_) == 6


def test_forward_and_backward_paths():
    X, y = _data()
    p = X.shape[1]
    fwd = StepwiseSelector(direction="forward").fit(X, y)
    assert [r["size"] for r in fwd.path_] == list(range(p + 1))
    for a, b in itertools.pairwise(fwd.path_):  # nested models, decreasing RSS
        assert set(a["variables"]) < set(b["variables"]) and b["rss"] <= a["rss"]
        cand = [c for c in range(p) if c not in a["variables"]]
        best = min(cand, key=lambda c: _rss(X, y, (*a["variables"], c)))
        assert set(b["variables"]) - set(a["variables"]) == {best}
    bwd = StepwiseSelector(direction="backward").fit(X, y)
    assert [r["size"] for r in bwd.path_] == list(range(p, -1, -1))
    assert fwd.get_support(indices=True).tolist() == [0, 4, 6]


def test_stop_criterion_halts_at_first_non_improving_step():
    X, y = _data()
    est = StepwiseSelector(criterion="bic", stop="criterion").fit(X, y)
    bics = [r["bic"] for r in est.path_]
    assert all(b < a for a, b in itertools.pairwise(bics))
    full = StepwiseSelector(criterion="bic").fit(X, y)
    nxt = full.path_[len(bics)]["bic"]
    assert nxt >= bics[-1]


def test_start_by_names_and_glm_checks():
    X, y = _data()
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    est = StepwiseSelector(direction="forward", start=["f4"], stop="full").fit(df, y)
    assert est.path_[0]["variables"] == ("f4",)
    with pytest.raises(ValueError, match="unknown feature names"):
        StepwiseSelector(start=["nope"]).fit(df, y)
    yb = (y > np.median(y)).astype(int)
    with pytest.raises(ValueError, match="'aic' or 'bic'"):
        StepwiseSelector(estimator=LogisticRegression(), criterion="cp").fit(X, yb)
    with pytest.raises(InvalidParameterError, match="estimator"):
        StepwiseSelector(estimator=LinearRegression()).fit(X, y)


def test_labels_of_any_type_for_logistic_stepwise():
    X, y = _data()
    labels = np.where(y > np.median(y), "high", "low")
    sel = StepwiseSelector(estimator=LogisticRegression(), criterion="aic", stop="criterion")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # a separating candidate subset
        est = sel.fit(X, labels)
    assert 0 in est.get_support(indices=True)


@pytest.mark.parametrize("make", [
    lambda **kw: BestSubsetSelector(criterion="cv", cv=4, **kw),
    lambda **kw: StepwiseSelector(criterion="cv", cv=4, **kw),
])
def test_selection_is_the_deprecated_name_of_rule(make):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(80, 5))
    y = X[:, 0] - X[:, 2] + 0.2 * X[:, 3] + rng.normal(size=80)
    new = make(rule="1se").fit(X, y)
    with pytest.warns(FutureWarning, match="'selection' was renamed to 'rule'"):
        old = make(selection="1se").fit(X, y)
    np.testing.assert_array_equal(old.support_, new.support_)
    sizes = [r["size"] for r in new.path_]
    cv = np.array([r["cv"] for r in new.path_])
    se = np.array([r["cv_se"] for r in new.path_])
    best = int(np.argmin(cv))
    assert new.best_size_ == min(s for s, c in zip(sizes, cv, strict=True)
                                 if c <= cv[best] + se[best])
