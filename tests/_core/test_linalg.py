"""Least-squares factorisations of ``_core.linalg``: agreement with LAPACK and R's aliasing rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import linalg
from threadpoolctl import threadpool_info

from statlearning._core.linalg import (
    R_TOL,
    _dqrdc2,
    augmented_design,
    cholesky_factor,
    gram,
    qr_least_squares,
    svd_least_squares,
    symmetric_eigh,
    weighted_gram,
)

SETTINGS = settings(max_examples=50, deadline=None, derandomize=True, database=None)


def _design(X, sqrt_w=None, fit_intercept=True):
    A = np.hstack([np.ones((X.shape[0], 1)), X]) if fit_intercept else X.copy()
    return A if sqrt_w is None else A * sqrt_w[:, None]


def _problem(seed, n, p, weighted):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p)) * rng.uniform(0.1, 10.0, size=p) + rng.normal(size=p)
    y = rng.standard_normal(n) * 3 + 1
    sqrt_w = np.sqrt(rng.uniform(0.2, 3.0, size=n)) if weighted else None
    return X, y, sqrt_w


@st.composite
def full_rank_problems(draw):
    fit_intercept = draw(st.booleans())
    p = draw(st.integers(0 if fit_intercept else 1, 6))
    k = p + fit_intercept
    n = draw(st.integers(k + 1, k + 25))
    seed = draw(st.integers(0, 2**32 - 1))
    weighted = draw(st.booleans())
    X, y, sqrt_w = _problem(seed, n, p, weighted)
    return X, y, sqrt_w, fit_intercept


def _lapack_solution(X, y, sqrt_w, fit_intercept):
    A = _design(X, sqrt_w, fit_intercept)
    yw = y if sqrt_w is None else y * sqrt_w
    coef = np.linalg.lstsq(A, yw, rcond=None)[0]
    return A, coef


def _svd(A, y, rcond=None):
    """``svd_least_squares`` on a fresh ``[A | y]`` (the function may overwrite its input)."""
    M = np.asfortranarray(np.column_stack([A, y]), dtype=np.float64)
    return svd_least_squares(M, rcond)


def _ref_norms(M, k):
    norms = np.linalg.norm(M[:, :k], axis=0)
    return np.where(norms == 0.0, 1.0, norms)


def _slow_path(X, y, sqrt_w=None, fit_intercept=True, tol=R_TOL):
    M = augmented_design(X, y, sqrt_w, fit_intercept)
    k = M.shape[1] - 1
    return _dqrdc2(M, k, _ref_norms(M, k), tol)


def _normal_equations(X, y, sqrt_w=None, fit_intercept=True, tol=R_TOL):
    G, b = weighted_gram(X, y, sqrt_w, fit_intercept)
    return cholesky_factor(G, b, tol)


SOLVERS = {
    "qr": qr_least_squares,
    "dqrdc2": _slow_path,
    "normal": _normal_equations,
}


# --- agreement with numpy.linalg.lstsq on full-rank problems ------------------------------------


@SETTINGS
@given(full_rank_problems())
def test_qr_matches_lstsq(problem):
    X, y, sqrt_w, fit_intercept = problem
    A, expected = _lapack_solution(X, y, sqrt_w, fit_intercept)
    fac = qr_least_squares(X, y, sqrt_w, fit_intercept)
    np.testing.assert_allclose(fac.coef, expected, rtol=1e-9, atol=1e-10)
    assert fac.kept.all()
    assert fac.rank == A.shape[1]
    np.testing.assert_allclose(fac.unscaled_cov, np.linalg.inv(A.T @ A), rtol=1e-8, atol=1e-12)


@SETTINGS
@given(full_rank_problems())
def test_dqrdc2_slow_path_matches_fast_path(problem):
    X, y, sqrt_w, fit_intercept = problem
    fast = qr_least_squares(X, y, sqrt_w, fit_intercept)
    slow = _slow_path(X, y, sqrt_w, fit_intercept)
    np.testing.assert_array_equal(slow.kept, fast.kept)
    assert slow.rank == fast.rank
    np.testing.assert_allclose(slow.coef, fast.coef, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(slow.unscaled_cov, fast.unscaled_cov, rtol=1e-8, atol=1e-12)


@SETTINGS
@given(full_rank_problems())
def test_cholesky_matches_lstsq(problem):
    X, y, sqrt_w, fit_intercept = problem
    A, expected = _lapack_solution(X, y, sqrt_w, fit_intercept)
    fac = _normal_equations(X, y, sqrt_w, fit_intercept)
    np.testing.assert_allclose(fac.coef, expected, rtol=1e-7, atol=1e-9)
    assert fac.kept.all()
    assert fac.rank == A.shape[1]
    np.testing.assert_allclose(fac.unscaled_cov, np.linalg.inv(A.T @ A), rtol=1e-7, atol=1e-12)


@SETTINGS
@given(full_rank_problems())
def test_svd_matches_lstsq(problem):
    X, y, sqrt_w, fit_intercept = problem
    A, expected = _lapack_solution(X, y, sqrt_w, fit_intercept)
    yw = y if sqrt_w is None else y * sqrt_w
    fac = _svd(A, yw)
    np.testing.assert_allclose(fac.coef, expected, rtol=1e-9, atol=1e-10)
    assert fac.rank == A.shape[1]
    assert fac.kept.all()
    np.testing.assert_allclose(fac.unscaled_cov, np.linalg.inv(A.T @ A), rtol=1e-8, atol=1e-12)


# --- R's aliasing rule ---------------------------------------------------------------------------


def _base_columns(n=12, m=4, seed=0):
    return np.random.default_rng(seed).standard_normal((n, m))


def _check_kept_solution(fac, X, y, sqrt_w=None, fit_intercept=True):
    """Kept coefficients solve the problem restricted to the kept columns, in their order."""
    A = _design(X, sqrt_w, fit_intercept)
    yw = y if sqrt_w is None else y * sqrt_w
    Ak = A[:, fac.kept]
    expected = np.linalg.lstsq(Ak, yw, rcond=None)[0]
    np.testing.assert_allclose(fac.coef[fac.kept], expected, rtol=1e-8, atol=1e-10)
    assert np.isnan(fac.coef[~fac.kept]).all()
    assert fac.rank == fac.kept.sum()
    np.testing.assert_allclose(fac.unscaled_cov, np.linalg.inv(Ak.T @ Ak), rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("solver", SOLVERS)
def test_later_combination_is_aliased_not_the_earlier_column(solver):
    B = _base_columns()
    a, b, c = B[:, 0], B[:, 1], B[:, 2]
    X = np.column_stack([a, 2.0 * a, b, a - 3.0 * b, c])
    y = B[:, 3]
    fac = SOLVERS[solver](X, y)
    np.testing.assert_array_equal(fac.kept, [True, True, False, True, False, True])
    _check_kept_solution(fac, X, y)


@pytest.mark.parametrize("solver", SOLVERS)
def test_intercept_makes_a_constant_column_aliased(solver):
    B = _base_columns()
    X = np.column_stack([B[:, 0], np.full(12, 5.0), B[:, 1]])
    fac = SOLVERS[solver](X, B[:, 2])
    np.testing.assert_array_equal(fac.kept, [True, True, False, True])
    _check_kept_solution(fac, X, B[:, 2])


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("position", [0, 1, 2])
def test_zero_column_is_aliased(solver, position):
    B = _base_columns()
    X = np.insert(B[:, :2], position, 0.0, axis=1)
    fac = SOLVERS[solver](X, B[:, 3], fit_intercept=False)
    expected = np.ones(3, bool)
    expected[position] = False
    np.testing.assert_array_equal(fac.kept, expected)
    _check_kept_solution(fac, X, B[:, 3], fit_intercept=False)


@pytest.mark.parametrize("solver", SOLVERS)
def test_column_zero_where_weights_are_positive_is_aliased(solver):
    B = _base_columns()
    sqrt_w = np.ones(12)
    sqrt_w[:3] = 0.0
    col = np.zeros(12)
    col[:3] = [1.0, -2.0, 4.0]
    X = np.column_stack([B[:, 0], col, B[:, 1]])
    fac = SOLVERS[solver](X, B[:, 2], sqrt_w)
    np.testing.assert_array_equal(fac.kept, [True, True, False, True])
    _check_kept_solution(fac, X, B[:, 2], sqrt_w)


def _nearly_dependent(residual):
    """Columns ``a, b, a + b + e`` with ``‖e‖ = residual · ‖a + b‖`` and ``e ⟂ a, b``."""
    B = _base_columns(n=30)
    a, b = B[:, 0], B[:, 1]
    e = B[:, 2] - B[:, :2] @ np.linalg.lstsq(B[:, :2], B[:, 2], rcond=None)[0]
    nearly = a + b + residual * np.linalg.norm(a + b) * e / np.linalg.norm(e)
    return np.column_stack([a, b, nearly]), B[:, 3]


@pytest.mark.parametrize("solver", SOLVERS)
def test_aliasing_tolerance(solver):
    X, y = _nearly_dependent(1e-5)
    kept = SOLVERS[solver](X, y, fit_intercept=False)
    np.testing.assert_array_equal(kept.kept, [True, True, True])
    aliased = SOLVERS[solver](X, y, fit_intercept=False, tol=1e-4)
    np.testing.assert_array_equal(aliased.kept, [True, True, False])


@pytest.mark.parametrize("solver", ["qr", "dqrdc2"])
def test_aliasing_tolerance_is_resolved_by_qr_near_machine_precision(solver):
    # the normal equations square the residual (1e-18): beyond double precision there
    X, y = _nearly_dependent(1e-9)
    aliased = SOLVERS[solver](X, y, fit_intercept=False)
    np.testing.assert_array_equal(aliased.kept, [True, True, False])
    kept = SOLVERS[solver](X, y, fit_intercept=False, tol=1e-11)
    np.testing.assert_array_equal(kept.kept, [True, True, True])


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", ["qr", "dqrdc2"])
def test_wide_design_keeps_first_n_independent_columns(solver, fit_intercept):
    n = 5
    B = _base_columns(n=n, m=8, seed=3)
    X = np.column_stack([B[:, 0], 2.0 * B[:, 0], B[:, 1:7]])  # 8 columns, the second aliased
    y = B[:, 7]
    fac = SOLVERS[solver](X, y, fit_intercept=fit_intercept)
    k = X.shape[1] + fit_intercept
    expected = np.zeros(k, bool)
    # R keeps columns left to right until n are accepted, skipping the aliased one
    order = [i for i in range(k) if not (i == 1 + fit_intercept)]
    expected[order[:n]] = True
    np.testing.assert_array_equal(fac.kept, expected)
    assert fac.rank == n
    _check_kept_solution(fac, X, y, fit_intercept=fit_intercept)


def test_qr_slow_and_fast_path_agree_on_rank_deficient_data():
    B = _base_columns(n=20, m=5, seed=5)
    X = np.column_stack([B[:, 0], B[:, 1], B[:, 0] + B[:, 1], B[:, 2], B[:, 3]])
    y = B[:, 4]
    fast = qr_least_squares(X, y)
    slow = _slow_path(X, y)
    chol = _normal_equations(X, y)
    for fac in (slow, chol):
        np.testing.assert_array_equal(fac.kept, fast.kept)
        np.testing.assert_allclose(fac.coef, fast.coef, rtol=1e-8, equal_nan=True)
        np.testing.assert_allclose(fac.unscaled_cov, fast.unscaled_cov, rtol=1e-7)


def test_all_columns_zero():
    X = np.zeros((6, 2))
    y = np.arange(6.0)
    for solver in SOLVERS.values():
        fac = solver(X, y, fit_intercept=False)
        assert fac.rank == 0
        assert not fac.kept.any()
        assert np.isnan(fac.coef).all()
        assert fac.unscaled_cov.shape == (0, 0)


# --- SVD: minimum-norm solution -----------------------------------------------------------------


@pytest.mark.parametrize(("n", "tall"), [(40, True), (7, False), (4, False)])
def test_svd_minimum_norm_on_rank_deficient_design(n, tall):
    rng = np.random.default_rng(11)
    Z = rng.standard_normal((n, 3))
    A = np.column_stack([Z, Z[:, 0] - Z[:, 1], 2 * Z[:, 2], rng.standard_normal(n)])
    if n < 6:
        A = A[:, :5]
    y = rng.standard_normal(n)
    assert (n >= 2 * A.shape[1]) == tall  # both code paths (QR reduction or not) are exercised
    fac = _svd(A, y)
    np.testing.assert_allclose(fac.coef, np.linalg.pinv(A) @ y, rtol=1e-8, atol=1e-10)
    assert fac.rank == np.linalg.matrix_rank(A)
    assert fac.kept.all()
    np.testing.assert_allclose(fac.unscaled_cov, np.linalg.pinv(A.T @ A), rtol=1e-6, atol=1e-10)
    # minimum norm: adding a null-space direction keeps the fit and increases the norm
    null = np.linalg.svd(A)[2][-1]
    np.testing.assert_allclose(A @ null, 0.0, atol=1e-10)
    assert np.linalg.norm(fac.coef) < np.linalg.norm(fac.coef + 0.1 * null)


def test_svd_rcond():
    A = np.diag([1.0, 1e-3, 1e-17])
    y = np.ones(3)
    assert _svd(A, y).rank == 2  # default cutoff max(n, k) · eps · s_max
    assert _svd(A, y, rcond=1e-18).rank == 3
    coef = _svd(A, y, rcond=1e-2).coef
    np.testing.assert_allclose(coef, [1.0, 0.0, 0.0])


# --- Gram matrices and the augmented design -----------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
def test_gram_equals_explicit_product(order):
    A = np.asarray(np.random.default_rng(1).standard_normal((9, 4)), order=order)
    G = gram(A)
    np.testing.assert_allclose(G, A.T @ A, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(G, G.T)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_weighted_gram_equals_explicit_product(weighted, fit_intercept):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((15, 3)) + 2.0
    y = rng.standard_normal(15)
    w = rng.uniform(0.0, 2.0, size=15) if weighted else np.ones(15)
    A = _design(X, None, fit_intercept)
    G, b = weighted_gram(X, y, np.sqrt(w) if weighted else None, fit_intercept)
    np.testing.assert_allclose(G, A.T @ np.diag(w) @ A, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b, A.T @ (w * y), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(G, G.T)


def test_weighted_gram_intercept_only():
    X = np.empty((5, 0))
    y = np.arange(5.0)
    G, b = weighted_gram(X, y, None, True)
    np.testing.assert_array_equal(G, [[5.0]])
    np.testing.assert_array_equal(b, [10.0])


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_augmented_design(fit_intercept):
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 2)).astype(np.float32)
    y = rng.standard_normal(6)
    sqrt_w = rng.uniform(0.5, 1.5, size=6)
    M = augmented_design(X, y, sqrt_w, fit_intercept)
    assert M.dtype == np.float64
    assert M.flags.f_contiguous
    expected = np.column_stack([_design(X.astype(np.float64), sqrt_w, fit_intercept), y * sqrt_w])
    np.testing.assert_allclose(M, expected, rtol=1e-15)
    M0 = augmented_design(X, y, None, fit_intercept)
    np.testing.assert_allclose(M0, np.column_stack([_design(X, None, fit_intercept), y]))
    assert not np.shares_memory(M0, X) and not np.shares_memory(M0, y)


# --- inputs are never modified ------------------------------------------------------------------


@pytest.mark.parametrize("deficient", [False, True])
@pytest.mark.parametrize("order", ["C", "F"])
def test_inputs_are_not_modified(deficient, order):
    rng = np.random.default_rng(6)
    X = rng.standard_normal((10, 3))
    if deficient:
        X[:, 2] = X[:, 0] - X[:, 1]
    X = np.asarray(X, order=order)
    y = rng.standard_normal(10)
    sqrt_w = rng.uniform(0.5, 1.5, size=10)
    copies = [X.copy(), y.copy(), sqrt_w.copy()]
    for weights in (None, sqrt_w):
        qr_least_squares(X, y, weights)
        _slow_path(X, y, weights)
        G, b = weighted_gram(X, y, weights)
        G0, b0 = G.copy(), b.copy()
        cholesky_factor(G, b)
        np.testing.assert_array_equal(G, G0)
        np.testing.assert_array_equal(b, b0)
        augmented_design(X, y, weights)
        svd_least_squares(augmented_design(X, y, weights))
        gram(X)
    for arr, copy in zip((X, y, sqrt_w), copies, strict=True):
        np.testing.assert_array_equal(arr, copy)


# --- the weighted Gram ------------------------------------------------------------------------


def _explicit_design(X, s, center, intercept, extra, extra_center):
    n = X.shape[0]
    cols = [np.ones((n, 1))] if intercept else []
    cols.append(X - (0.0 if center is None else center))
    if extra is not None:
        E = extra.reshape(n, -1)
        cols.append(E - (0.0 if extra_center is None else extra_center))
    M = np.hstack(cols)
    return M if s is None else M * s[:, None]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("centred", [False, True])
@pytest.mark.parametrize("intercept", [False, True])
@pytest.mark.parametrize("extra_cols", [0, 1, 2])
@pytest.mark.parametrize("block_rows", [None, 37])
def test_gram_equals_the_product_of_the_explicit_design(
    weighted, centred, intercept, extra_cols, block_rows
):
    rng = np.random.default_rng(11)
    n, p = 203, 6
    X = rng.normal(size=(n, p)) + 3.0
    s = rng.uniform(0.5, 2.0, n) if weighted else None
    c = X.mean(axis=0) if centred else None
    E = rng.normal(size=(n, extra_cols)) if extra_cols else None
    cE = (E.mean(axis=0) if centred else None) if extra_cols else None
    G = gram(
        X, sqrt_weights=s, center=c, intercept=intercept, extra=E, extra_center=cE,
        block_rows=block_rows,
    )  # fmt: skip
    M = _explicit_design(X, s, c, intercept, E, cE)
    np.testing.assert_allclose(G, M.T @ M, rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(G, G.T)
    if centred and not weighted:  # the centres are the means: same matrix without the sums
        G2 = gram(X, center=c, intercept=intercept, extra=E, extra_center=cE, center_is_mean=True)
        np.testing.assert_allclose(G2, M.T @ M, rtol=1e-12, atol=1e-9)


def test_gram_of_a_one_dimensional_extra_column_and_scalar_centre():
    rng = np.random.default_rng(12)
    X, y = rng.normal(size=(50, 3)), rng.normal(size=50)
    G = gram(X, center=X.mean(0), extra=y, extra_center=float(y.mean()))
    M = np.column_stack([X - X.mean(0), y - y.mean()])
    np.testing.assert_allclose(G, M.T @ M, rtol=1e-12, atol=1e-12)


def test_gram_guards_against_cancellation_when_centring():
    """A column with mean 1e6 and spread 1: XᵀX − n x̄x̄ᵀ would lose about 12 digits; the guard
    switches to blocks of centred rows, which keep the centred sums of squares exact."""
    rng = np.random.default_rng(13)
    n = 10_000
    X = np.column_stack([1e6 + rng.normal(size=n), rng.normal(size=n)])
    mean = X.mean(axis=0)
    G = gram(X, center=mean)
    Xc = X - mean
    np.testing.assert_allclose(G, Xc.T @ Xc, rtol=1e-10)
    naive = X.T @ X - n * np.outer(mean, mean)
    assert abs(naive[0, 0] - (Xc[:, 0] @ Xc[:, 0])) > 1e-6 * (Xc[:, 0] @ Xc[:, 0])


def test_gram_of_an_empty_design():
    assert gram(np.zeros((5, 0))).shape == (0, 0)
    G = gram(np.zeros((5, 0)), intercept=True, extra=np.arange(5.0))
    np.testing.assert_allclose(G, [[5.0, 10.0], [10.0, 30.0]])
    assert gram(np.zeros((0, 3)), sqrt_weights=np.zeros(0)).shape == (3, 3)
    G = gram(np.zeros((0, 3)), sqrt_weights=np.zeros(0), intercept=True, extra=np.zeros(0))
    np.testing.assert_array_equal(G, np.zeros((5, 5)))


@pytest.mark.parametrize("p", [5, 120, 400])
def test_symmetric_eigh_is_scipy_eigh_on_either_side_of_the_thread_rule(p):
    rng = np.random.default_rng(p)
    Z = rng.standard_normal((p + 3, p))
    A, B = Z.T @ Z, np.eye(p) + 0.1 * np.diag(rng.uniform(size=p))
    before = [lib["num_threads"] for lib in threadpool_info()]
    for kwargs in ({}, {"driver": "evd"}, {"subset_by_index": [p - 2, p - 1]}):
        w, v = symmetric_eigh(A, **kwargs)
        w0, v0 = linalg.eigh(A, **kwargs)
        np.testing.assert_allclose(w, w0, rtol=1e-10, atol=1e-10 * w0.max())
        np.testing.assert_allclose(np.abs(v.T @ v0), np.eye(v.shape[1]), atol=1e-6)
    np.testing.assert_allclose(
        symmetric_eigh(A, eigvals_only=True), linalg.eigvalsh(A), rtol=1e-10, atol=1e-10 * p
    )
    w, v = symmetric_eigh(A, B)  # the generalised problem A v = λ B v, vᵀBv = 1
    np.testing.assert_allclose(A @ v, B @ v * w, atol=1e-8 * w.max())
    np.testing.assert_allclose(v.T @ B @ v, np.eye(p), atol=1e-8)
    assert [lib["num_threads"] for lib in threadpool_info()] == before  # the limit is undone


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("intercept", [True, False])
def test_least_squares_columns_is_the_qr_answer_for_every_column(weighted, intercept):
    from statlearning._core.linalg import least_squares_columns, qr_least_squares

    rng = np.random.default_rng(3)
    X = rng.standard_normal((300, 6))
    Y = rng.standard_normal((300, 3)) + X[:, :3]
    sw = np.sqrt(rng.uniform(0.5, 2.0, 300)) if weighted else None
    coef, kept = least_squares_columns(X, Y, sw, intercept)
    assert kept.all() and coef.shape == (6 + intercept, 3)
    for j in range(3):
        fac = qr_least_squares(X, Y[:, j], sw, intercept)
        np.testing.assert_allclose(coef[:, j], fac.coef, rtol=1e-12, atol=1e-14)
    # an aliased column: the QR decides (NaN coefficient), for every column alike
    Xa = np.column_stack([X, X[:, 0] + X[:, 1]])
    coef, kept = least_squares_columns(Xa, Y, sw, intercept)
    assert not kept[-1] and np.isnan(coef[-1]).all()
    for j in range(3):
        fac = qr_least_squares(Xa, Y[:, j], sw, intercept)
        np.testing.assert_array_equal(coef[:, j], fac.coef)
    # one response, fewer rows than coefficients: the QR as well
    coef1, _ = least_squares_columns(X[:5], Y[:5, 0], None, intercept)
    np.testing.assert_array_equal(
        coef1[:, 0], qr_least_squares(X[:5], Y[:5, 0], None, intercept).coef
    )


@pytest.mark.parametrize("lower", [True, False])
def test_triangular_inverse_is_the_inverse_with_the_other_triangle_zero(lower):
    from statlearning._core.linalg import triangular_inverse

    rng = np.random.default_rng(0)
    A = rng.normal(size=(40, 40))
    T = np.linalg.cholesky(A @ A.T + 40 * np.eye(40))
    T = T if lower else T.T
    inverse = triangular_inverse(T, lower=lower)
    np.testing.assert_allclose(inverse @ T, np.eye(40), atol=1e-12)
    assert np.all((np.triu(inverse, 1) if lower else np.tril(inverse, -1)) == 0.0)
    assert triangular_inverse(np.zeros((0, 0)), lower).shape == (0, 0)
    S = T.copy()
    S[3, 3] = 0.0  # exactly singular
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        triangular_inverse(S, lower=lower)


def _unit_upper(rng, k, smallest):
    """An upper-triangular factor with unit column norms and singular values from 1 down to
    about ``smallest``."""
    Q, _ = np.linalg.qr(rng.standard_normal((k, k)))
    V, _ = np.linalg.qr(rng.standard_normal((k, k)))
    A = Q @ np.diag(np.geomspace(1.0, smallest, k)) @ V
    R = np.linalg.qr(A, mode="r")
    return R / np.sqrt(np.einsum("ij,ij->j", R, R))


@pytest.mark.parametrize("scale", [1.0, 1e-150, 1e150])
def test_cholesky_stands_for_qr_decides_by_kappa2(scale):
    """The κ₁ estimate accepts; where it cannot decide, the singular values do: κ₂ below
    CHOLESKY_FOR_QR_COND and σ_min clear of rank_tol. The decision ignores column scale."""
    from scipy.linalg import lapack

    from statlearning._core.linalg import CHOLESKY_FOR_QR_COND, cholesky_stands_for_qr

    rng = np.random.default_rng(5)
    for k, smallest, expected in [(5, 0.5, True), (80, 1 / 40, True), (80, 1 / 400, False)]:
        U = _unit_upper(rng, k, smallest)
        s = np.linalg.svd(U, compute_uv=False)
        assert bool(s[0] / s[-1] < CHOLESKY_FOR_QR_COND) is expected
        assert cholesky_stands_for_qr(U * scale, R_TOL) is expected
        assert not cholesky_stands_for_qr(U * scale, 0.5)  # such a tolerance could alias
    U = _unit_upper(rng, 80, 1 / 40)
    rcond, _ = lapack.dtrcon(U, norm="1", uplo="U", diag="N")
    assert 1 / rcond > CHOLESKY_FOR_QR_COND  # the case the singular values decide
    assert not cholesky_stands_for_qr(None, R_TOL)
    assert not cholesky_stands_for_qr(np.triu(np.ones((3, 3))) * [1.0, 0.0, 1.0], R_TOL)


@pytest.mark.parametrize("free", [False, True])
def test_gram_in_parts_is_one_sum_however_the_parts_run(monkeypatch, free):
    """Cut into parts by rows (one per core), the Gram is the same to the last bit whether the
    parts run side by side (a core free) or one after the other, and equals the product."""
    import threading

    from statlearning._core import linalg as linalg_module

    monkeypatch.setattr(linalg_module, "GRAM_SPLIT_FROM", 1)
    monkeypatch.setattr(linalg_module, "CORES", 3)
    threads = []
    rows = linalg_module._gram_rows
    monkeypatch.setattr(
        linalg_module, "_gram_rows",
        lambda *a: threads.append(threading.get_ident()) or rows(*a),
    )  # fmt: skip
    rng = np.random.default_rng(6)
    X, z, s = rng.normal(size=(1000, 7)), rng.normal(size=1000), rng.uniform(0.1, 2.0, 1000)
    assert linalg_module.gram_parts(1000, 9, 64) == 3
    results = []
    for run_free in (free, not free):
        monkeypatch.setattr(linalg_module, "core_is_free", lambda run_free=run_free: run_free)
        threads.clear()
        results.append(gram(X, sqrt_weights=s, intercept=True, extra=z, block_rows=64))
        assert len(threads) == 3
        main = threading.get_ident()
        assert all((t != main) if run_free else (t == main) for t in threads)
    np.testing.assert_array_equal(results[0], results[1])
    M = _explicit_design(X, s, None, True, z[:, None], None)
    np.testing.assert_allclose(results[0], M.T @ M, rtol=1e-12)
    assert linalg_module.gram_parts(1000, 9, 640) == 1  # fewer rows than two blocks


def test_gram_in_parts_works_in_a_forked_child(monkeypatch):
    """The parts' thread pool is rebuilt in a forked child: the parent's threads do not exist
    there, and an inherited pool would wait for them for ever."""
    import multiprocessing
    import threading

    from statlearning._core import linalg as linalg_module

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    monkeypatch.setattr(linalg_module, "GRAM_SPLIT_FROM", 1)
    monkeypatch.setattr(linalg_module, "core_is_free", lambda: True)
    rng = np.random.default_rng(7)
    X, s = rng.normal(size=(600, 4)), rng.uniform(0.5, 1.5, 600)
    expected = gram(X, sqrt_weights=s, block_rows=64)
    # every thread of the parent's pool started, all idle now
    barrier = threading.Barrier(linalg_module.CORES)
    list(linalg_module._gram_pool().map(lambda _: barrier.wait(30), range(linalg_module.CORES)))
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(_child_gram, (X, s)).get(timeout=30)
    np.testing.assert_array_equal(result, expected)


def _child_gram(X, s):
    from statlearning._core import linalg as linalg_module

    linalg_module.GRAM_SPLIT_FROM = 1
    linalg_module.core_is_free = lambda: True
    return gram(X, sqrt_weights=s, block_rows=64)
