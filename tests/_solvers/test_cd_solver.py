"""Elastic-net coordinate descent (contract (a)): optimality, both kernels, weights, warm
starts, penalty factors, the duality gap, the path driver."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._core.penalties import enet_kkt_violation, soft_threshold
from statlearning._solvers._result import SolverResult
from statlearning._solvers.coordinate_descent import (
    CDResult,
    alpha_grid,
    enet_coordinate_descent,
    enet_path,
)

KERNELS = [pytest.param(True, id="gram"), pytest.param(False, id="residual")]


def problem(n=120, p=15, seed=0, sparse=5):
    """Correlated columns on different scales with non-zero means; sparse truth; weights."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, p))
    Z[:, 1:] += 0.5 * Z[:, :-1]
    scales = np.exp(rng.uniform(-1, 1, size=p))
    X = Z * scales + rng.normal(0, 2, size=p)
    beta = np.zeros(p)
    beta[:sparse] = rng.normal(0, 2, size=sparse) / scales[:sparse]
    y = 1.5 + X @ beta + rng.normal(size=n)
    w = rng.uniform(0.2, 2.0, size=n)
    return X, y, w


def objective(X, y, w, coef, intercept, alpha, l1_ratio, pf=None):
    """The contract's objective, written out directly."""
    w = np.ones(len(y)) if w is None else w
    pf = np.ones(X.shape[1]) if pf is None else pf
    r = y - intercept - X @ coef
    pen = alpha * pf @ (l1_ratio * np.abs(coef) + 0.5 * (1 - l1_ratio) * coef**2)
    return 0.5 * (w @ (r * r)) / w.sum() + pen


def kkt(X, y, w, res, alpha, l1_ratio, pf=None):
    """Violation of the optimality conditions (gradient of the loss per unit Σw)."""
    w = np.ones(len(y)) if w is None else w
    r = y - res.intercept - X @ res.x
    grad = -(X.T @ (w * r)) / w.sum()
    return enet_kkt_violation(res.x, grad, alpha, l1_ratio, pf)


def test_result_type():
    X, y, _ = problem()
    res = enet_coordinate_descent(X, y, alpha=0.1)
    assert isinstance(res, CDResult) and isinstance(res, SolverResult)
    assert res.x.shape == (X.shape[1],)
    assert isinstance(res.intercept, float) and res.dual_gap >= 0
    assert res.converged and res.n_iter >= 1


@pytest.mark.parametrize("gram", KERNELS)
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_kkt_conditions_and_gap_at_the_solution(gram, l1_ratio, weighted, fit_intercept):
    X, y, w = problem()
    w = w if weighted else None
    for alpha in (1.0, 0.1, 0.01):
        res = enet_coordinate_descent(
            X, y, alpha=alpha, l1_ratio=l1_ratio, sample_weight=w,
            fit_intercept=fit_intercept, tol=1e-12, gram=gram, max_iter=20_000,
        )
        assert res.converged
        scale = np.abs(X).max() * np.abs(y).max()
        assert kkt(X, y, w, res, alpha, l1_ratio).max() <= 1e-5 * scale
        # the intercept is exactly the weighted-mean profile
        if fit_intercept:
            ww = np.ones(len(y)) if w is None else w
            resid = y - X @ res.x - res.intercept
            assert abs(ww @ resid) <= 1e-9 * ww.sum() * np.abs(y).max()
        else:
            assert res.intercept == 0.0


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5, 0.0])
def test_kernels_agree(l1_ratio):
    X, y, w = problem(seed=1)
    a = enet_coordinate_descent(X, y, alpha=0.05, l1_ratio=l1_ratio, sample_weight=w,
                                tol=1e-14, gram=True)
    b = enet_coordinate_descent(X, y, alpha=0.05, l1_ratio=l1_ratio, sample_weight=w,
                                tol=1e-14, gram=False)
    np.testing.assert_allclose(a.x, b.x, rtol=1e-6, atol=1e-9)
    assert a.intercept == pytest.approx(b.intercept, rel=1e-8)


@pytest.mark.parametrize("gram", KERNELS)
def test_duality_gap_bounds_the_suboptimality(gram):
    X, y, w = problem(seed=2)
    alpha, rho = 0.02, 0.7
    best = enet_coordinate_descent(X, y, alpha=alpha, l1_ratio=rho, sample_weight=w,
                                   tol=1e-15, max_iter=100_000)
    f_best = objective(X, y, w, best.x, best.intercept, alpha, rho)
    for max_iter in (1, 2, 3, 5, 8):
        res = enet_coordinate_descent(X, y, alpha=alpha, l1_ratio=rho, sample_weight=w,
                                      tol=1e-15, max_iter=max_iter, gram=gram)
        gap = objective(X, y, w, res.x, res.intercept, alpha, rho) - f_best
        assert -1e-13 <= gap <= res.dual_gap + 1e-13
        assert res.n_iter <= max_iter and not res.converged


def test_tolerance_is_relative_to_the_weighted_variance_of_y():
    X, y, w = problem(seed=3)
    yc = y - (w @ y) / w.sum()
    var = (w @ (yc * yc)) / w.sum()
    for tol in (1e-2, 1e-4, 1e-8):
        res = enet_coordinate_descent(X, y, alpha=0.01, sample_weight=w, tol=tol)
        assert res.converged and res.dual_gap <= tol * var
    # scaling y scales the solution (lasso equivariance) but not the work
    a = enet_coordinate_descent(X, y, alpha=0.01, tol=1e-10)
    b = enet_coordinate_descent(X, 1000 * y, alpha=10.0, tol=1e-10)
    np.testing.assert_allclose(1000 * a.x, b.x, rtol=1e-6, atol=1e-9)


def test_objective_not_worse_than_scikit_learn():
    from sklearn.linear_model import ElasticNet as SkElasticNet

    X, y, w = problem(seed=4)
    for rho in (1.0, 0.3):
        for alpha in (0.5, 0.05, 0.005):
            ours = enet_coordinate_descent(X, y, alpha=alpha, l1_ratio=rho, sample_weight=w,
                                           tol=1e-12)
            sk = SkElasticNet(alpha=alpha, l1_ratio=rho, tol=1e-8, max_iter=100_000)
            sk.fit(X, y, sample_weight=w)
            f_ours = objective(X, y, w, ours.x, ours.intercept, alpha, rho)
            f_sk = objective(X, y, w, sk.coef_, sk.intercept_, alpha, rho)
            assert f_ours <= f_sk + 1e-12 * abs(f_sk)


@pytest.mark.parametrize("gram", KERNELS)
def test_integer_weights_equal_repeated_rows(gram):
    X, y, _ = problem(n=40, seed=5)
    reps = np.random.default_rng(0).integers(0, 4, size=40)
    a = enet_coordinate_descent(X, y, alpha=0.05, l1_ratio=0.8, sample_weight=reps.astype(float),
                                tol=1e-14, gram=gram)
    b = enet_coordinate_descent(np.repeat(X, reps, axis=0), np.repeat(y, reps), alpha=0.05,
                                l1_ratio=0.8, tol=1e-14, gram=gram)
    np.testing.assert_allclose(a.x, b.x, rtol=1e-8, atol=1e-11)
    assert a.intercept == pytest.approx(b.intercept, rel=1e-9)


@pytest.mark.parametrize("gram", KERNELS)
def test_warm_start_gives_the_same_solution_in_fewer_sweeps(gram):
    X, y, w = problem(seed=6)
    cold = enet_coordinate_descent(X, y, alpha=0.01, sample_weight=w, tol=1e-12, gram=gram)
    near = enet_coordinate_descent(X, y, alpha=0.011, sample_weight=w, tol=1e-12, gram=gram)
    warm = enet_coordinate_descent(X, y, alpha=0.01, sample_weight=w, tol=1e-12, gram=gram,
                                   coef_init=near.x, intercept_init=near.intercept)
    np.testing.assert_allclose(warm.x, cold.x, rtol=1e-6, atol=1e-9)
    assert warm.n_iter < cold.n_iter
    # starting at the solution: nothing to do
    again = enet_coordinate_descent(X, y, alpha=0.01, sample_weight=w, tol=1e-12, gram=gram,
                                    coef_init=cold.x)
    assert again.n_iter == 0 and again.converged


def test_penalty_factor():
    X, y, w = problem(seed=7)
    p = X.shape[1]
    # pf = 0 on every coordinate: weighted least squares
    ls = enet_coordinate_descent(X, y, alpha=1.0, sample_weight=w, penalty_factor=np.zeros(p),
                                 tol=1e-14, max_iter=100_000)
    A = np.column_stack([np.ones(len(y)), X]) * np.sqrt(w)[:, None]
    exact = np.linalg.lstsq(A, y * np.sqrt(w), rcond=None)[0]
    np.testing.assert_allclose(ls.x, exact[1:], rtol=1e-7, atol=1e-9)
    assert ls.intercept == pytest.approx(exact[0], rel=1e-7)
    # an unpenalised coordinate is never zeroed, and the KKT conditions use pf
    pf = np.ones(p)
    pf[-1] = 0.0
    pf[0] = 2.5
    res = enet_coordinate_descent(X, y, alpha=5.0, sample_weight=w, penalty_factor=pf,
                                  tol=1e-13, max_iter=10_000)
    assert res.x[-1] != 0 and np.count_nonzero(res.x[:-1]) == 0
    assert kkt(X, y, w, res, 5.0, 1.0, pf).max() < 1e-8
    # scaling a column by c with pf_j = c is the same problem in β_j / c
    Xs = X.copy()
    Xs[:, 3] *= 4.0
    pf2 = np.ones(p)
    pf2[3] = 4.0
    a = enet_coordinate_descent(X, y, alpha=0.05, tol=1e-14)
    b = enet_coordinate_descent(Xs, y, alpha=0.05, penalty_factor=pf2, tol=1e-14)
    np.testing.assert_allclose(b.x[3] * 4.0, a.x[3], rtol=1e-7)


def test_orthonormal_design_is_soft_thresholded_least_squares():
    """The notes' closed form (Artelt §4.8.1.1, eq. 4.62), exactly: w = S(Xᵀy, λ)."""
    rng = np.random.default_rng(8)
    n, p = 50, 6
    Q, _ = np.linalg.qr(rng.normal(size=(n, p)))
    y = Q @ np.array([3.0, -2.0, 0.5, -0.1, 0.0, 1.0]) + 0.1 * rng.normal(size=n)
    lam = 0.4  # the notes' ½‖y − Xw‖² + λ‖w‖₁ is n times ours with alpha = λ / n
    for gram in (True, False):
        res = enet_coordinate_descent(Q, y, alpha=lam / n, fit_intercept=False, gram=gram,
                                      tol=1e-15)
        np.testing.assert_allclose(res.x, soft_threshold(Q.T @ y, lam), rtol=1e-13, atol=1e-15)
        assert np.count_nonzero(res.x) < p


def test_alpha_above_alpha_max_gives_zero_without_sweeps():
    X, y, w = problem(seed=9)
    grid = alpha_grid(X, y, sample_weight=w, n_alphas=3)
    res = enet_coordinate_descent(X, y, alpha=grid[0] * (1 + 1e-9), sample_weight=w)
    assert np.all(res.x == 0) and res.n_iter == 0
    assert res.intercept == pytest.approx((w @ y) / w.sum())
    res = enet_coordinate_descent(X, y, alpha=grid[0] * 0.99, sample_weight=w)
    assert np.count_nonzero(res.x) >= 1


def test_constant_columns_and_constant_y():
    X, y, _ = problem(seed=10)
    X = np.column_stack([X, np.full(len(y), 3.7)])
    for gram in (True, False):
        res = enet_coordinate_descent(X, y, alpha=0.01, l1_ratio=0.0, gram=gram)
        assert res.x[-1] == 0.0 and res.converged
    res = enet_coordinate_descent(X, np.full(len(y), 2.0), alpha=0.01)
    assert np.all(res.x == 0) and res.intercept == 2.0 and res.n_iter == 0


@pytest.mark.parametrize("order", ["C", "F"])
def test_inputs_are_not_modified(order):
    X, y, w = problem(seed=11)
    X = np.asarray(X, order=order)
    copies = X.copy(order="K"), y.copy(), w.copy()
    init = np.ones(X.shape[1])
    for gram in (True, False):
        for fit_intercept in (True, False):
            enet_coordinate_descent(X, y, alpha=0.1, sample_weight=w, gram=gram,
                                    fit_intercept=fit_intercept, coef_init=init)
    np.testing.assert_array_equal(X, copies[0])
    np.testing.assert_array_equal(y, copies[1])
    np.testing.assert_array_equal(w, copies[2])
    assert np.all(init == 1.0)


def test_random_selection_is_seeded_and_converges_to_the_same_solution():
    X, y, w = problem(seed=12)
    cyclic = enet_coordinate_descent(X, y, alpha=0.02, sample_weight=w, tol=1e-13)
    a = enet_coordinate_descent(X, y, alpha=0.02, sample_weight=w, tol=1e-13,
                                selection="random", random_state=3)
    b = enet_coordinate_descent(X, y, alpha=0.02, sample_weight=w, tol=1e-13,
                                selection="random", random_state=3)
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_allclose(a.x, cyclic.x, rtol=1e-5, atol=1e-8)
    with pytest.raises(ValueError, match="selection"):
        enet_coordinate_descent(X, y, alpha=0.02, selection="greedy")


def test_bad_shapes():
    X, y, _ = problem()
    with pytest.raises(ValueError, match="coef_init"):
        enet_coordinate_descent(X, y, alpha=0.1, coef_init=np.zeros(3))
    with pytest.raises(ValueError, match="penalty_factor"):
        enet_coordinate_descent(X, y, alpha=0.1, penalty_factor=-np.ones(X.shape[1]))
    with pytest.raises(ValueError, match="X must be 2-D"):
        enet_coordinate_descent(X, y[:-1], alpha=0.1)


# --------------------------------------------------------------------------------- the path


@pytest.mark.parametrize("gram", KERNELS)
def test_path_equals_individual_fits(gram):
    X, y, w = problem(seed=13)
    path = enet_path(X, y, l1_ratio=0.6, n_alphas=12, sample_weight=w, tol=1e-13, gram=gram)
    assert path.coefs.shape == (X.shape[1], 12) and path.converged.all()
    assert np.all(np.diff(path.alphas) < 0)
    assert np.all(path.coefs[:, 0] == 0)  # alpha_max
    for i in (1, 5, 11):
        one = enet_coordinate_descent(X, y, alpha=path.alphas[i], l1_ratio=0.6,
                                      sample_weight=w, tol=1e-13, gram=gram)
        np.testing.assert_allclose(path.coefs[:, i], one.x, rtol=1e-6, atol=1e-9)
        assert path.intercepts[i] == pytest.approx(one.intercept, rel=1e-8)


def test_path_grid():
    X, y, w = problem(seed=14)
    grid = alpha_grid(X, y, sample_weight=w, l1_ratio=0.5, n_alphas=5, eps=1e-2)
    xc = X - (w @ X) / w.sum()
    yc = y - (w @ y) / w.sum()
    amax = np.max(np.abs(xc.T @ (w * yc))) / (w.sum() * 0.5)
    np.testing.assert_allclose(grid, np.geomspace(amax, amax * 1e-2, 5), rtol=1e-12)
    path = enet_path(X, y, alphas=[0.1, 1.0, 0.01])
    np.testing.assert_array_equal(path.alphas, [1.0, 0.1, 0.01])
    assert np.all(alpha_grid(X, np.ones(len(y)), n_alphas=4) == np.finfo(float).resolution)


def test_path_strong_rule_never_loses_a_variable():
    """Many features, few samples: the strong rule screens most; KKT checks restore any
    variable it wrongly discarded, so every solution satisfies the conditions."""
    rng = np.random.default_rng(15)
    n, p = 30, 200
    X = rng.normal(size=(n, p))
    X[:, 1] = X[:, 0] + 0.3 * rng.normal(size=n)
    y = X[:, :4] @ [2.0, -1.0, 1.0, 0.5] + 0.2 * rng.normal(size=n)
    path = enet_path(X, y, n_alphas=30, eps=1e-2, tol=1e-12, max_iter=10_000)
    assert path.converged.all()
    for i, alpha in enumerate(path.alphas):
        r = y - path.intercepts[i] - X @ path.coefs[:, i]
        grad = -(X.T @ r) / n
        assert enet_kkt_violation(path.coefs[:, i], grad, alpha).max() < 1e-6


@pytest.mark.parametrize("gram", KERNELS)
def test_tolerance_below_rounding_stops_at_the_fixed_point(gram):
    """With tol = 5e-324 the duality gap never reaches tol; once a sweep moves no coordinate
    the iterate is a fixed point, so the solver stops there (it used to spend every one of
    max_iter sweeps in single-sweep rounds: 35 s for ElasticNetCV on 14 × 1 data)."""
    X, y, _ = problem(n=40, p=4, sparse=2)
    ref = enet_coordinate_descent(X, y, alpha=0.05, l1_ratio=0.5, gram=gram, tol=1e-12)
    res = enet_coordinate_descent(
        X, y, alpha=0.05, l1_ratio=0.5, gram=gram, tol=5e-324, max_iter=100_000
    )
    if not gram:  # its sweeps reach an exact fixed point (the Gram kernel's may dither)
        assert res.n_iter < 1_000
    np.testing.assert_allclose(res.x, ref.x, rtol=1e-9, atol=1e-12)
