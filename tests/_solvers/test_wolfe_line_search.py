"""The strong Wolfe line search (Nocedal & Wright, Algorithms 3.5 and 3.6) against
``scipy.optimize.line_search`` on Rosenbrock's function and on quadratics, and as the
``step="wolfe"`` option of gradient descent."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import optimize

from statlearning._solvers.gradient_descent import gradient_descent, strong_wolfe


def _strong_wolfe_holds(fun, grad, x, p, t, c1, c2):
    f0, d0 = fun(x), grad(x) @ p
    decrease = fun(x + t * p) <= f0 + c1 * t * d0 + 1e-14 * abs(f0)
    curvature = abs(grad(x + t * p) @ p) <= c2 * abs(d0) * (1 + 1e-12)
    return decrease and curvature


def _quadratic(seed):
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(5, 5))
    H = M @ M.T + 0.5 * np.eye(5)
    b = rng.normal(size=5)
    return (lambda x: 0.5 * x @ H @ x - b @ x), (lambda x: H @ x - b), H


@pytest.mark.parametrize("c2", [0.9, 0.1])
@pytest.mark.parametrize("seed", range(10))
def test_rosenbrock_against_scipy(seed, c2):
    """Both searches return steps satisfying the strong Wolfe conditions (the steps may
    differ: the zoom phases interpolate differently); where they agree, to 1e-8."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.0, 2.0, size=4)
    # steepest descent, and a random descent direction
    directions = [-optimize.rosen_der(x), rng.normal(size=4)]
    if directions[1] @ optimize.rosen_der(x) > 0:
        directions[1] = -directions[1]
    for p in directions:
        ours = strong_wolfe(optimize.rosen, optimize.rosen_der, x, p, c2=c2)
        with warnings.catch_warnings():  # SciPy's search sometimes gives up (returns None)
            warnings.filterwarnings("ignore", message="The line search algorithm did not")
            ref = optimize.line_search(optimize.rosen, optimize.rosen_der, x, p, c2=c2)
        assert ours is not None
        t, f_t, g_t = ours
        assert f_t == optimize.rosen(x + t * p)
        np.testing.assert_array_equal(g_t, optimize.rosen_der(x + t * p))
        assert _strong_wolfe_holds(optimize.rosen, optimize.rosen_der, x, p, t, 1e-4, c2)
        if ref[0] is not None and abs(ref[0] - t) > 1e-8 * t:
            assert _strong_wolfe_holds(optimize.rosen, optimize.rosen_der, x, p, ref[0], 1e-4, c2)


def _quadratic_steps(seed, c2):
    """Whether SciPy's step equals ours (to 1e-8) on a quadratic; ours is the exact minimiser."""
    fun, grad, H = _quadratic(seed)
    x = np.random.default_rng(100 + seed).normal(size=5) * 3
    g = grad(x)
    t_star = (g @ g) / (g @ H @ g)
    ours = strong_wolfe(fun, grad, x, -g, c2=c2)
    ref = optimize.line_search(fun, grad, x, -g, c2=c2)
    assert ours[0] == pytest.approx(t_star, rel=1e-10)
    same = ref[0] == pytest.approx(ours[0], rel=1e-8)
    if not same:
        assert _strong_wolfe_holds(fun, grad, x, -g, ref[0], 1e-4, c2)
    return same


def test_quadratic_same_step_as_scipy_and_exact():
    """Along a line a quadratic is a parabola: the cubic interpolation of the zoom lands on
    its minimiser t* = gᵀg / gᵀHg. SciPy's search lands there too (same step to 1e-8) in
    most cases; where it stops elsewhere (its quadratic and bisection fallbacks), its step
    satisfies the conditions as well."""
    same = [_quadratic_steps(seed, c2) for seed in range(6) for c2 in (0.9, 0.1)]
    assert sum(same) >= 10


def test_first_trial_accepted_and_expansion():
    fun, grad, H = _quadratic(0)
    x = np.ones(5)
    g = grad(x)
    t_star = (g @ g) / (g @ H @ g)
    # a first trial inside the acceptable interval is returned untouched
    t = strong_wolfe(fun, grad, x, -g, t0=0.9 * t_star, c2=0.9)[0]
    assert t == 0.9 * t_star
    # a tiny first trial is doubled until the bracket holds an acceptable step
    t = strong_wolfe(fun, grad, x, -g, t0=1e-6 * t_star, c2=0.1)[0]
    assert _strong_wolfe_holds(fun, grad, x, -g, t, 1e-4, 0.1)


def test_no_descent_direction_and_failure():
    fun, grad, _ = _quadratic(1)
    x = np.ones(5)
    assert strong_wolfe(fun, grad, x, grad(x)) is None  # ascent direction
    assert strong_wolfe(fun, grad, x, np.zeros(5)) is None
    # unbounded below along p (a linear function): expansion stops at t_max
    lin = np.array([1.0, -2.0])
    assert strong_wolfe(lambda z: lin @ z, lambda z: lin, np.zeros(2), -lin, t_max=1e3) is None


@pytest.mark.parametrize("problem", ["quadratic", "rosenbrock"])
def test_gradient_descent_with_wolfe_steps(problem):
    if problem == "quadratic":
        fun, grad, H = _quadratic(2)
        b = -grad(np.zeros(5))
        x_star = np.linalg.solve(H, b)
        res = gradient_descent(fun, grad, np.zeros(5), step="wolfe", tol=1e-10, max_iter=5000)
        np.testing.assert_allclose(res.x, x_star, rtol=1e-8)
    else:
        res = gradient_descent(optimize.rosen, optimize.rosen_der, np.zeros(3), step="wolfe",
                               wolfe_c2=0.9, tol=1e-7, max_iter=50000)  # fmt: skip
        np.testing.assert_allclose(res.x, np.ones(3), atol=1e-5)
    assert res.converged


def test_wolfe_constants_are_checked():
    fun, grad, _ = _quadratic(0)
    with pytest.raises(ValueError, match="0 < c1 < c2 < 1"):
        gradient_descent(fun, grad, np.zeros(5), step="wolfe", armijo_c=0.5, wolfe_c2=0.4)
    with pytest.raises(ValueError, match="'wolfe'"):
        gradient_descent(fun, grad, np.zeros(5), step="goldstein")
