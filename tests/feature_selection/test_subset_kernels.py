"""The compiled subset and stepwise kernels against plain references."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from statlearning.feature_selection import BestSubsetSelector, StepwiseSelector, _common
from statlearning.feature_selection._common import cross_products, sweep_in
from statlearning.feature_selection._subset import search_cross_products
from statlearning.feature_selection._subset_kernels import sweep_inplace


def _correlated(n, p, rho, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    for k in range(1, p):
        X[:, k] = rho * X[:, k - 1] + np.sqrt(1 - rho**2) * X[:, k]
    beta = np.where(np.arange(p) % 2 == 0, 1.0, -1.0) / (1 + np.arange(p) / 3)
    return X, X @ beta + 2 * rng.normal(size=n)


@pytest.mark.parametrize(
    ("n", "p", "rho", "max_size", "intercept"),
    [(300, 12, 0.0, 12, True), (300, 14, 0.7, 14, True), (200, 13, 0.5, 5, False),
     (60, 11, 0.9, 8, True)],
)
def test_bounds_return_the_full_enumeration(n, p, rho, max_size, intercept):
    """The pruned search finds exactly the subsets of the enumeration of all 2^p subsets."""
    X, y = _correlated(n, p, rho, seed=p)
    C = cross_products(X, y, intercept)[0]
    full = search_cross_products(C, max_size, intercept, prune=False)
    pruned = search_cross_products(C, max_size, intercept, prune=True)
    assert pruned[1] == full[1]
    np.testing.assert_array_equal(pruned[0], full[0])
    est = BestSubsetSelector(max_features=max_size, fit_intercept=intercept).fit(X, y)
    assert [r["variables"] for r in est.path_] == list(full[1])


def test_sweeping_twice_takes_a_variable_out():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(50, 5))
    C = Z.T @ Z
    A = C.copy()
    sweep_inplace(A, 2)
    sweep_inplace(A, 2)
    sign = np.ones(5)
    sign[2] = -1.0  # row and column 2 come back with their sign flipped
    np.testing.assert_allclose(A, C * np.outer(sign, sign), rtol=1e-12, atol=1e-12)


def test_sweep_in_keeps_the_aliasing_rule():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 4))
    X = np.column_stack([X, X[:, 0] - 2 * X[:, 3]])
    C = cross_products(X, rng.normal(size=40), True)[0]
    _, kept, aliased = sweep_in(C, [4, 0, 1, 2, 3])
    assert kept == [4, 0, 1, 2] and aliased == [3]
    residual = X - X.mean(axis=0)
    beta = np.linalg.lstsq(residual[:, [4, 0, 1, 2]], residual[:, 3], rcond=None)[0]
    assert np.allclose(residual[:, [4, 0, 1, 2]] @ beta, residual[:, 3])


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_compiled_path_matches_refits(direction):
    """Each step of the compiled forward/backward path is the best single move by refits."""
    X, y = _correlated(150, 9, 0.6, seed=4)
    est = StepwiseSelector(direction=direction).fit(X, y)
    Xc, yc = X - X.mean(axis=0), y - y.mean()

    def rss(cols):
        if not cols:
            return float(yc @ yc)
        r = yc - Xc[:, cols] @ np.linalg.lstsq(Xc[:, cols], yc, rcond=None)[0]
        return float(r @ r)

    for a, b in itertools.pairwise(est.path_):
        cur = list(a["variables"])
        if direction == "forward":
            moves = [sorted([*cur, j]) for j in range(9) if j not in cur]
        else:
            moves = [[c for c in cur if c != j] for j in cur]
        best = min(moves, key=rss)
        assert list(b["variables"]) == best
        np.testing.assert_allclose(b["rss"], rss(best), rtol=1e-10)


def test_one_blas_thread_changes_no_number(monkeypatch):
    X, y = _correlated(500, 10, 0.5, seed=2)
    a = cross_products(X, y, True)[0]
    monkeypatch.setattr(_common, "SINGLE_THREAD_FLOPS", 0)  # threaded path
    b = cross_products(X, y, True)[0]
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
