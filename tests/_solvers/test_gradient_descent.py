"""Batch gradient descent: fixed, Armijo and exact steps."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize
from scipy.special import expit

from statlearning._solvers import SolverResult
from statlearning._solvers.gradient_descent import gradient_descent


def _quadratic(seed=0, k=5, condition=30.0):
    """``f(x) = ½ xᵀHx − bᵀx`` with SPD ``H`` of the given condition number."""
    rng = np.random.default_rng(seed)
    Q = np.linalg.qr(rng.standard_normal((k, k)))[0]
    eig = np.geomspace(1.0, condition, k)
    H = (Q * eig) @ Q.T
    H = (H + H.T) / 2
    b = rng.standard_normal(k)
    return H, b, eig[-1]


def _problem(H, b):
    return (lambda x: 0.5 * x @ H @ x - b @ x), (lambda x: H @ x - b), (lambda v: H @ v)


@pytest.mark.parametrize(
    ("step", "kwargs", "tol"),
    [
        ("fixed", {"learning_rate": "1/L"}, 1e-10),
        ("fixed", {"learning_rate": "1.9/L"}, 1e-10),
        ("exact", {}, 1e-10),
        # Armijo's test compares objective values, so it cannot certify gradients much below
        # sqrt(eps) relative to the start: ask for less
        ("armijo", {"learning_rate": 1.0}, 1e-7),
        ("armijo", {"learning_rate": 10.0, "shrink": 0.3}, 1e-7),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_converges_to_the_solution_of_a_quadratic(step, kwargs, tol, seed):
    H, b, L = _quadratic(seed)
    fun, grad, hessp = _problem(H, b)
    kwargs = dict(kwargs)
    if isinstance(kwargs.get("learning_rate"), str):
        kwargs["learning_rate"] = float(kwargs["learning_rate"].split("/")[0]) / L
    res = gradient_descent(
        fun, grad, np.zeros(b.size), step=step, hessp=hessp, tol=tol, max_iter=5000, **kwargs
    )
    assert isinstance(res, SolverResult)
    assert res.converged
    assert 0 < res.n_iter < 5000
    assert np.linalg.norm(grad(res.x)) <= tol * max(1.0, np.linalg.norm(b))
    expected = np.linalg.solve(H, b)
    # ‖x − x*‖ ≤ ‖∇f(x)‖ / λ_min with λ_min = 1
    np.testing.assert_allclose(res.x, expected, rtol=0, atol=tol * np.linalg.norm(b))


def test_armijo_reaches_the_default_tolerance_on_a_well_conditioned_quadratic():
    H = np.diag([1.0, 100.0])
    b = np.array([3.0, 1.0])
    fun, grad, _ = _problem(H, b)
    res = gradient_descent(fun, grad, np.zeros(2), step="armijo", max_iter=2000)
    assert res.converged


def test_exact_line_search_is_faster_than_a_small_fixed_step():
    H, b, L = _quadratic(3)
    fun, grad, hessp = _problem(H, b)
    exact = gradient_descent(fun, grad, np.zeros(5), step="exact", hessp=hessp, tol=1e-8)
    fixed = gradient_descent(
        fun, grad, np.zeros(5), step="fixed", learning_rate=0.2 / L, tol=1e-8, max_iter=20_000
    )
    assert exact.converged and fixed.converged
    assert exact.n_iter < fixed.n_iter


def test_exact_step_solves_a_one_dimensional_quadratic_in_one_iteration():
    H = np.array([[4.0]])
    b = np.array([2.0])
    fun, grad, hessp = _problem(H, b)
    res = gradient_descent(fun, grad, np.array([3.0]), step="exact", hessp=hessp)
    assert res.n_iter == 1
    np.testing.assert_allclose(res.x, [0.5], rtol=1e-14)


def _logistic(seed=0, n=60, p=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = (rng.uniform(size=n) < expit(X @ rng.normal(size=p))).astype(float)
    lam = 0.1  # a small ridge term keeps the minimiser finite

    def fun(beta):
        eta = X @ beta
        return float(np.sum(np.logaddexp(0.0, eta) - y * eta) + 0.5 * lam * beta @ beta)

    def grad(beta):
        return X.T @ (expit(X @ beta) - y) + lam * beta

    return fun, grad, p


def test_armijo_on_logistic_loss_decreases_monotonically():
    fun, grad, p = _logistic()
    res = gradient_descent(
        fun, grad, np.zeros(p), step="armijo", learning_rate=5.0, record_history=True, tol=1e-9
    )
    assert res.converged
    history = np.array(res.history)
    assert len(history) == res.n_iter + 1
    assert np.all(np.diff(history) <= 0.0)
    assert history[-1] < history[0]
    expected = optimize.minimize(fun, np.zeros(p), jac=grad, method="BFGS", tol=1e-12).x
    np.testing.assert_allclose(res.x, expected, rtol=1e-5, atol=1e-7)


def test_armijo_sufficient_decrease_on_a_smooth_convex_non_quadratic():
    # f(x) = Σ log(1 + exp(a_i x_i)) + ½‖x − c‖²: smooth, strongly convex, not quadratic
    a = np.array([3.0, -2.0, 0.5, 5.0])
    c = np.array([1.0, 2.0, -1.0, 0.5])

    def fun(x):
        return float(np.sum(np.logaddexp(0.0, a * x)) + 0.5 * np.sum((x - c) ** 2))

    def grad(x):
        return a * expit(a * x) + (x - c)

    res = gradient_descent(
        fun, grad, np.full(4, 5.0), step="armijo", learning_rate=2.0, record_history=True
    )
    assert res.converged
    assert np.all(np.diff(res.history) < 0.0)
    np.testing.assert_allclose(grad(res.x), 0.0, atol=1e-7)


def test_max_iter_cap_reports_not_converged():
    H, b, L = _quadratic(4, condition=1e3)
    fun, grad, _ = _problem(H, b)
    res = gradient_descent(fun, grad, np.zeros(5), step="fixed", learning_rate=1 / L, max_iter=7)
    assert not res.converged
    assert res.n_iter == 7
    assert fun(res.x) < fun(np.zeros(5))


def test_start_at_the_minimiser_needs_no_iteration():
    H, b, _ = _quadratic(5)
    fun, grad, hessp = _problem(H, b)
    x0 = np.linalg.solve(H, b)
    res = gradient_descent(fun, grad, x0, step="exact", hessp=hessp, record_history=True)
    assert res.converged
    assert res.n_iter == 0
    assert res.history == [fun(x0)]


def test_too_large_fixed_step_raises_floating_point_error():
    H, b, L = _quadratic(6)
    fun, grad, _ = _problem(H, b)
    with pytest.raises(FloatingPointError, match="step size is too large"):
        gradient_descent(fun, grad, np.zeros(5), step="fixed", learning_rate=10.0 / L)


def test_non_finite_objective_raises_floating_point_error():
    def fun(x):
        with np.errstate(over="ignore"):
            return float(np.exp(x @ x))

    def grad(x):
        with np.errstate(over="ignore"):
            return 2 * x * np.exp(x @ x)

    with pytest.raises(FloatingPointError, match="diverged"):
        gradient_descent(fun, grad, np.array([3.0]), step="fixed", learning_rate=1.0)


def test_exact_without_hessp_is_an_error():
    H, b, _ = _quadratic()
    fun, grad, _ = _problem(H, b)
    with pytest.raises(ValueError, match="hessp"):
        gradient_descent(fun, grad, np.zeros(5), step="exact")


def test_unknown_step_is_an_error():
    H, b, _ = _quadratic()
    fun, grad, _ = _problem(H, b)
    with pytest.raises(ValueError, match="'newton'"):
        gradient_descent(fun, grad, np.zeros(5), step="newton")


@pytest.mark.parametrize("step", ["fixed", "armijo", "exact"])
def test_history_records_the_objective_after_each_iteration(step):
    H, b, L = _quadratic(7)
    fun, grad, hessp = _problem(H, b)
    x0 = np.ones(5)
    res = gradient_descent(
        fun, grad, x0, step=step, learning_rate=1 / L, hessp=hessp, record_history=True, tol=1e-6
    )
    assert len(res.history) == res.n_iter + 1
    assert res.history[0] == fun(x0)
    np.testing.assert_allclose(res.history[-1], fun(res.x), rtol=1e-14)
    assert all(b_ <= a_ for a_, b_ in zip(res.history, res.history[1:], strict=False))
    quiet = gradient_descent(fun, grad, x0, step=step, learning_rate=1 / L, hessp=hessp, tol=1e-6)
    assert quiet.history == []
    np.testing.assert_array_equal(quiet.x, res.x)
    assert quiet.n_iter == res.n_iter


def test_x0_is_not_modified():
    H, b, _ = _quadratic(8)
    fun, grad, hessp = _problem(H, b)
    x0 = np.ones(5)
    res = gradient_descent(fun, grad, x0, step="exact", hessp=hessp)
    np.testing.assert_array_equal(x0, np.ones(5))
    assert not np.shares_memory(res.x, x0)
