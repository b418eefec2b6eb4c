"""``statlearning.optimize.solve_qp``: seed 001 part 2's E19 (an indefinite QP) and E20 (the KKT
conditions and strong duality), KKT residuals and multiplier signs, cross-checks between
HiGHS and the active-set enumeration, and SciPy's SLSQP as an approximate oracle."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from scipy import optimize

from statlearning.optimize import QPResult, solve_qp

HAVE_HIGHS = importlib.util.find_spec("highspy") is not None
METHODS = ["enumerate", pytest.param("highs", marks=pytest.mark.skipif(
    not HAVE_HIGHS, reason="highspy (optional) is not installed"))]  # fmt: skip


def _assert_kkt(res: QPResult, tol=1e-10):
    assert res.success and res.status == "optimal"
    for name, value in res.kkt.items():
        assert value <= tol, (name, value)


def test_seed001_e19_nonconvex_qp():
    """Seed 001 part 2, §A.5.1 (A.64–A.65): min 2x₁² + 2x₁x₂ + x₁ s.t. x ≥ 0, x₁ + x₂ = 1,
    in the notes' encoding (the equality as two inequalities). Q is indefinite (eigenvalues
    2 ± 2√2); on the feasible segment the objective is 3x₁: optimum (0, 1), value 0."""
    Q = np.array([[4.0, 2.0], [2.0, 0.0]])
    A = np.array([[-1.0, 0.0], [0.0, -1.0], [-1.0, -1.0], [1.0, 1.0]])
    c = np.array([1.0, 0.0])
    b = np.array([0.0, 0.0, -1.0, 1.0])
    res = solve_qp(Q, c, A_ub=A, b_ub=b)
    assert res.method == "enumerate" and not res.convex
    assert res.min_eigenvalue == pytest.approx(2 - 2 * np.sqrt(2), rel=1e-14)
    np.testing.assert_allclose(res.x, [0.0, 1.0], atol=1e-14)
    assert res.fun == pytest.approx(0.0, abs=1e-14)
    _assert_kkt(res)
    # ∇f(0, 1) = (3, 0): the bound x₁ ≥ 0 (row 1) carries the multiplier 3 once the equality
    # rows balance; the multipliers of the two equality rows are not unique, their difference is
    lam = res.multipliers["ineq"]
    assert lam[0] + lam[2] - lam[3] == pytest.approx(3.0, abs=1e-12)
    assert lam[3] - lam[2] == pytest.approx(0.0, abs=1e-12)
    assert np.isnan(res.dual_fun)  # no dual function bound for a non-convex Q
    # the same problem written with an equality and bounds
    res2 = solve_qp(Q, c, A_eq=[[1.0, 1.0]], b_eq=[1.0], bounds=(0, None))
    np.testing.assert_allclose(res2.x, [0.0, 1.0], atol=1e-14)
    assert res2.multipliers["lower"][0] == pytest.approx(3.0, abs=1e-12)
    assert res2.multipliers["eq"][0] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="convex problems only"):
        solve_qp(Q, c, A_ub=A, b_ub=b, method="highs")


@pytest.mark.parametrize("method", METHODS)
def test_seed001_e20_kkt(method):
    """Seed 001 part 2, §A.6.2 (A.89–A.90): min x₁² + x₂² s.t. 2x₁ + 2x₂ ≥ 4. KKT point
    x = (1, 1), λ* = 1, the constraint active; p* = 2 and the dual function
    L_D(λ) = 4λ − 2λ² has its maximum d* = 2 at λ = 1 (zero duality gap)."""
    res = solve_qp(2.0 * np.eye(2), [0.0, 0.0], A_ub=[[-2.0, -2.0]], b_ub=[-4.0], method=method)
    assert res.method == method and res.convex
    np.testing.assert_allclose(res.x, [1.0, 1.0], rtol=1e-14)
    assert res.fun == pytest.approx(2.0, rel=1e-14)
    lam = res.multipliers["ineq"]
    np.testing.assert_allclose(lam, [1.0], rtol=1e-12)
    _assert_kkt(res, tol=1e-13)

    def dual_function(lam):  # min_x x₁² + x₂² + λ(4 − 2x₁ − 2x₂), at x = (λ, λ)
        return 4.0 * lam - 2.0 * lam**2

    d_star = optimize.minimize_scalar(lambda t: -dual_function(t), bounds=(0, 5), method="bounded")
    assert d_star.x == pytest.approx(1.0, abs=1e-5)
    assert res.dual_fun == pytest.approx(dual_function(lam[0]), rel=1e-13)
    assert res.dual_fun == pytest.approx(res.fun, rel=1e-13)  # p* = d* = 2


@pytest.mark.parametrize("method", METHODS)
def test_multiplier_signs_of_each_block(method):
    # upper bound active: min (x − 2)², x ≤ 1 → ∇f = −2, ν_u = 2
    res = solve_qp([[2.0]], [-4.0], bounds=[(None, 1.0)], method=method)
    np.testing.assert_allclose(res.x, [1.0])
    assert res.multipliers["upper"][0] == pytest.approx(2.0)
    # lower bound active: min (x + 2)², x ≥ 0 → ν_l = 4
    res = solve_qp([[2.0]], [4.0], bounds=(0.0, None), method=method)
    np.testing.assert_allclose(res.x, [0.0], atol=1e-15)
    assert res.multipliers["lower"][0] == pytest.approx(4.0)
    # equality: min x₁² + x₂², x₁ + x₂ = 2 → 2x + μ = 0, μ = −2
    res = solve_qp(2 * np.eye(2), [0.0, 0.0], A_eq=[[1.0, 1.0]], b_eq=[2.0], method=method)
    np.testing.assert_allclose(res.x, [1.0, 1.0])
    assert res.multipliers["eq"][0] == pytest.approx(-2.0)
    _assert_kkt(res)


def _random_convex(seed, n=4, m=5):
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(n, n))
    Q = M @ M.T + 0.1 * np.eye(n)
    c = rng.normal(size=n) * 3
    A = rng.normal(size=(m, n))
    b = rng.uniform(0.1, 1.0, size=m)  # x = 0 is feasible
    return Q, c, A, b


@pytest.mark.parametrize("seed", range(6))
def test_convex_enumeration_agrees_with_slsqp_and_highs(seed):
    Q, c, A, b = _random_convex(seed)
    bounds = [(-2.0, 2.0)] * 4
    res = solve_qp(Q, c, A_ub=A, b_ub=b, bounds=bounds, method="enumerate")
    _assert_kkt(res, tol=1e-9)
    # SciPy's SLSQP is approximate: compare with its own tolerance
    ref = optimize.minimize(
        lambda x: 0.5 * x @ Q @ x + c @ x, np.zeros(4), jac=lambda x: Q @ x + c,
        constraints=[{"type": "ineq", "fun": lambda x: b - A @ x, "jac": lambda x: -A}],
        bounds=bounds, method="SLSQP", options={"ftol": 1e-14, "maxiter": 500},
    )  # fmt: skip
    assert ref.success
    assert res.fun <= ref.fun + 1e-10
    np.testing.assert_allclose(res.x, ref.x, atol=1e-6)
    if HAVE_HIGHS:
        hi = solve_qp(Q, c, A_ub=A, b_ub=b, bounds=bounds, method="highs")
        np.testing.assert_allclose(hi.x, res.x, atol=1e-10)
        np.testing.assert_allclose(hi.multipliers["ineq"], res.multipliers["ineq"], atol=1e-8)
        assert hi.dual_fun == pytest.approx(hi.fun, rel=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_nonconvex_box_global_minimum(seed):
    """An indefinite QP on a box: enumeration's value is the best of a fine grid refined by
    L-BFGS-B from its best points (an approximate global oracle), never worse."""
    rng = np.random.default_rng(100 + seed)
    M = rng.normal(size=(2, 2))
    Q = M + M.T
    Q -= (np.linalg.eigvalsh(Q)[0] + 1.0) * np.eye(2) * (seed % 2)  # some with two negatives
    c = rng.normal(size=2)
    A = rng.normal(size=(1, 2))
    b = np.array([0.5])
    res = solve_qp(Q, c, A_ub=A, b_ub=b, bounds=(-1.0, 1.0))
    assert not res.convex or seed % 2 == 0
    g = np.linspace(-1, 1, 801)
    X1, X2 = np.meshgrid(g, g)
    P = np.column_stack([X1.ravel(), X2.ravel()])
    P = P[P @ A[0] <= b[0]]
    f = 0.5 * np.einsum("ij,jk,ik->i", P, Q, P) + P @ c
    best = np.inf
    for start in P[np.argsort(f)[:5]]:
        ref = optimize.minimize(
            lambda x: 0.5 * x @ Q @ x + c @ x, start, jac=lambda x: Q @ x + c,
            constraints=[{"type": "ineq", "fun": lambda x: b - A @ x}],
            bounds=[(-1, 1)] * 2, method="SLSQP", options={"ftol": 1e-14},
        )  # fmt: skip
        best = min(best, ref.fun)
    assert res.fun <= best + 1e-10
    assert res.fun >= best - 1e-6  # the oracle is not worse by more than its own error
    assert res.kkt["primal_feasibility"] <= 1e-12
    assert res.kkt["stationarity"] <= 1e-9


def test_infeasible_and_unbounded():
    res = solve_qp(np.eye(2), [0, 0], A_ub=[[1, 0], [-1, 0]], b_ub=[-1, -1], method="enumerate")
    assert res.status == "infeasible" and not res.success and np.all(np.isnan(res.x))
    res = solve_qp(np.zeros((2, 2)), [-1.0, 0.0], A_ub=[[-1.0, 0.0]], b_ub=[0.0])
    assert res.status == "unbounded" and not res.success
    # a convex problem on an unbounded region that is bounded below: solved
    res = solve_qp([[2.0, 0.0], [0.0, 0.0]], [0.0, 1.0], A_ub=[[0.0, -1.0]], b_ub=[-3.0])
    np.testing.assert_allclose(res.x, [0.0, 3.0], atol=1e-14)
    _assert_kkt(res)
    if HAVE_HIGHS:
        hi = solve_qp(np.eye(2), [0, 0], A_ub=[[1, 0], [-1, 0]], b_ub=[-1, -1], method="highs")
        assert not hi.success and "infeasible" in hi.status


def test_bad_input():
    Q = np.eye(2)
    with pytest.raises(ValueError, match="Q must be a non-empty square"):
        solve_qp(np.ones((2, 3)), [0, 0])
    with pytest.raises(ValueError, match="c must have 2 entries"):
        solve_qp(Q, [0, 0, 0])
    with pytest.raises(ValueError, match=r"A_ub must have shape \(m, 2\)"):
        solve_qp(Q, [0, 0], A_ub=[[1, 2, 3]], b_ub=[1])
    with pytest.raises(ValueError, match="b_ub must have 1 entries"):
        solve_qp(Q, [0, 0], A_ub=[[1, 2]], b_ub=[1, 2])
    with pytest.raises(ValueError, match="Q contains NaN"):
        solve_qp([[np.nan, 0], [0, 1]], [0, 0])
    with pytest.raises(ValueError, match="A_eq contains NaN"):
        solve_qp(Q, [0, 0], A_eq=[[np.nan, 1]], b_eq=[0])
    with pytest.raises(ValueError, match=r"bounds\[1\]"):
        solve_qp(Q, [0, 0], bounds=[(0, 1), (2, 1)])
    with pytest.raises(ValueError, match="bounds must be None"):
        solve_qp(Q, [0, 0], bounds=[(0, 1)] * 3)
    with pytest.raises(ValueError, match="method must be one of"):
        solve_qp(Q, [0, 0], method="simplex")
    with pytest.raises(ValueError, match="bounded feasible region"):
        solve_qp([[1.0, 0.0], [0.0, -1.0]], [0, 0], A_ub=[[1.0, 0.0]], b_ub=[1.0])
    with pytest.raises(ValueError, match="more than the limit"):
        solve_qp(-np.eye(17), np.zeros(17), bounds=(-1, 1), method="enumerate")
