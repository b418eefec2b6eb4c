"""The L-BFGS-B wrapper: convergence, bounds, iteration cap, inputs untouched."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import optimize

from statlearning._solvers import SolverResult
from statlearning._solvers.lbfgs import lbfgs


def _rosenbrock(x):
    return optimize.rosen(x), optimize.rosen_der(x)


def test_minimises_rosenbrock():
    x0 = np.array([-1.2, 1.0, 0.5, -0.3])
    before = x0.copy()
    res = lbfgs(_rosenbrock, x0, tol=1e-10)
    assert isinstance(res, SolverResult)
    assert res.converged
    assert 1 <= res.n_iter < 1000
    np.testing.assert_allclose(res.x, np.ones(4), atol=1e-6)
    np.testing.assert_array_equal(x0, before)


def test_quadratic_solved_to_the_accuracy_of_its_objective():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(8, 8))
    H = A @ A.T + 8 * np.eye(8)
    b = rng.normal(size=8)
    res = lbfgs(lambda x: (0.5 * x @ H @ x - b @ x, H @ x - b), np.zeros(8), tol=1e-9)
    assert res.converged
    # stops at gtol=1e-9, or earlier when f cannot decrease by 64 eps relatively (ftol)
    assert np.max(np.abs(H @ res.x - b)) <= 1e-7
    np.testing.assert_allclose(res.x, np.linalg.solve(H, b), rtol=1e-7)


def test_bounds_are_respected():
    res = lbfgs(lambda x: ((x - 3.0) @ (x - 3.0), 2 * (x - 3.0)), np.zeros(2),
                bounds=[(None, 1.0), (-1.0, 5.0)])
    np.testing.assert_allclose(res.x, [1.0, 3.0], atol=1e-8)


def test_iteration_cap_reports_not_converged_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = lbfgs(_rosenbrock, np.array([-1.2, 1.0]), max_iter=3)
    assert not res.converged
    assert res.n_iter == 3


@pytest.mark.parametrize("x0", [[0.0], np.zeros((1, 1))])
def test_accepts_lists_and_flattens(x0):
    res = lbfgs(lambda x: ((x[0] - 2.0) ** 2, np.array([2 * (x[0] - 2.0)])), x0)
    assert res.x.shape == (1,)
    assert res.x[0] == pytest.approx(2.0, abs=1e-8)
