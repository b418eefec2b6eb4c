"""Least absolute deviations by linear programming: optimality, exactness, uniqueness."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from statlearning._solvers.linprog import LADResult, lad_linprog


def _data(n=60, p=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 1.0 + X @ rng.normal(size=p) + rng.standard_t(2, size=n)
    return X, y


def _primal_lp_optimum(X, y, w, fit_intercept):
    """The notes' LP (eq. 4.46) as written: variables θ (free), u, v ≥ 0."""
    n = X.shape[0]
    A = np.hstack([np.ones((n, 1)), X]) if fit_intercept else X
    k = A.shape[1]
    c = np.concatenate([np.zeros(k), w, w])
    A_eq = np.hstack([A, np.eye(n), -np.eye(n)])
    bounds = [(None, None)] * k + [(0, None)] * (2 * n)
    res = optimize.linprog(c, A_eq=A_eq, b_eq=y, bounds=bounds, method="highs-ds")
    assert res.status == 0
    return res.fun


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_objective_equals_the_primal_lp_optimum(fit_intercept, weighted):
    X, y = _data()
    w = np.random.default_rng(5).uniform(0.5, 2.0, size=y.size) if weighted else np.ones(y.size)
    res = lad_linprog(X, y, sample_weight=w, fit_intercept=fit_intercept)
    assert isinstance(res, LADResult)
    assert res.converged and res.unique
    f_lp = _primal_lp_optimum(X, y, w, fit_intercept)
    assert res.objective == pytest.approx(f_lp, rel=1e-10)
    b0 = res.intercept if fit_intercept else 0.0
    assert res.objective == pytest.approx(w @ np.abs(y - b0 - X @ res.x), rel=1e-14)


def test_solution_is_an_exact_vertex():
    X, y = _data(n=40, p=2, seed=3)
    res = lad_linprog(X, y)
    r = y - res.intercept - X @ res.x
    # a unique LAD solution interpolates exactly k = p + 1 observations
    assert np.sum(np.abs(r) <= 1e-12 * np.max(np.abs(y))) == 3
    assert res.rank == 3


def test_zero_weight_rows_are_ignored():
    X, y = _data(n=30, seed=2)
    w = np.ones(30)
    w[:5] = 0.0
    a = lad_linprog(X, y, sample_weight=w)
    b = lad_linprog(X[5:], y[5:])
    np.testing.assert_allclose(a.x, b.x, rtol=1e-12)
    assert a.intercept == pytest.approx(b.intercept, rel=1e-12)


def test_non_unique_solution_is_the_smallest_l1_norm_on_the_optimal_face():
    # p + 1 > n: every interpolant is optimal (objective 0); the tie-break picks min ‖β‖₁
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 10))
    y = rng.normal(size=6)
    res = lad_linprog(X, y)
    assert not res.unique
    assert res.objective == pytest.approx(0.0, abs=1e-12)
    # basis pursuit with a free intercept, solved independently
    n, p = X.shape
    c = np.concatenate([[0.0], np.ones(2 * p)])
    A_eq = np.hstack([np.ones((n, 1)), X, -X])
    bp = optimize.linprog(c, A_eq=A_eq, b_eq=y, bounds=[(None, None)] + [(0, None)] * (2 * p))
    assert np.abs(res.x).sum() == pytest.approx(bp.fun, rel=1e-9)
    # and it does not depend on the order or the replication of the rows
    order = rng.permutation(n)
    again = lad_linprog(np.vstack([X[order], X[:2]]), np.concatenate([y[order], y[:2]]))
    np.testing.assert_allclose(again.x, res.x, atol=1e-10)


def test_median_tie_is_flagged():
    res = lad_linprog(np.zeros((4, 0)), np.array([1.0, 2.0, 3.0, 4.0]))
    assert not res.unique
    assert 2.0 <= res.intercept <= 3.0
    assert res.objective == pytest.approx(4.0)
