"""HuberRegressor and LADRegressor: optimality, limits, solvers, seed identities, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from statlearning.exceptions import (
    ConvergenceWarning,
    InvalidParameterError,
    NumericalWarning,
    RankDeficientWarning,
)
from statlearning.linear_model import HuberRegressor, LADRegressor, LinearRegression


def _data(n=120, p=4, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 10.0, size=p) + 3.0
    y = scale * (1.0 + X @ rng.normal(size=p) + rng.standard_t(2, size=n))
    w = rng.uniform(0.3, 3.0, size=n)
    return X, y, w


def _huber_objective(theta, X, y, w, delta, alpha, fit_intercept):
    """The notes' objective (eq. 4.33–4.35) written independently of the package."""
    b0, beta = (theta[0], theta[1:]) if fit_intercept else (0.0, theta)
    r = y - b0 - X @ beta
    a = np.abs(r)
    loss = np.where(a <= delta, 0.5 * r * r, delta * a - 0.5 * delta**2)
    return w @ loss + alpha * beta @ beta


def _theta(m):
    return np.concatenate([[m.intercept_], m.coef_]) if m.fit_intercept else m.coef_


# ------------------------------------------------------------------------------------- Huber


@pytest.mark.parametrize("solver", ["lbfgs", "irls"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("alpha", [0.0, 5.0])
def test_huber_gradient_vanishes_and_objective_is_minimal(solver, fit_intercept, alpha):
    X, y, w = _data()
    delta = 1.0
    m = HuberRegressor(delta=delta, alpha=alpha, fit_intercept=fit_intercept, solver=solver)
    m.fit(X, y, sample_weight=w)
    theta = _theta(m)
    # KKT: the gradient of eq. 4.38 (weighted, plus the ridge term) is zero
    r = y - m.predict(X)
    psi = w * np.clip(r, -delta, delta)
    grad = -(X.T @ psi) + 2 * alpha * m.coef_
    assert np.max(np.abs(grad)) <= 1e-9 * np.max(np.abs(X.T @ np.abs(psi)))
    if fit_intercept:
        assert abs(psi.sum()) <= 1e-9 * np.abs(psi).sum()
    # an independent optimiser on the same objective does not do better
    f = _huber_objective(theta, X, y, w, delta, alpha, fit_intercept)
    assert m.objective_ == pytest.approx(f, rel=1e-13)
    start = np.linalg.lstsq(np.hstack([np.ones((y.size, 1)), X]) if fit_intercept else X, y,
                            rcond=None)[0]
    ref = optimize.minimize(_huber_objective, start, args=(X, y, w, delta, alpha, fit_intercept),
                            method="BFGS", options={"gtol": 1e-10, "maxiter": 10_000})
    assert f <= ref.fun * (1 + 1e-12)
    np.testing.assert_allclose(theta, ref.x, rtol=1e-5, atol=1e-6)


def test_huber_solvers_agree_exactly():
    X, y, w = _data(seed=2)
    a = HuberRegressor(delta=2.0, solver="lbfgs").fit(X, y, sample_weight=w)
    b = HuberRegressor(delta=2.0, solver="irls").fit(X, y, sample_weight=w)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    assert a.intercept_ == pytest.approx(b.intercept_, rel=1e-10)


def test_huber_with_huge_delta_is_least_squares():
    X, y, w = _data(seed=3)
    m = HuberRegressor(delta=1e8).fit(X, y, sample_weight=w)
    ols = LinearRegression().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(m.coef_, ols.coef_, rtol=1e-9)
    assert m.intercept_ == pytest.approx(ols.intercept_, rel=1e-9)


def test_huber_resists_outliers():
    # seed 001, Fig. 4.6: three far-away points pull least squares, not Huber
    rng = np.random.default_rng(4)
    x = np.linspace(0, 10, 40)
    y = 1.0 + 2.0 * x + rng.normal(scale=0.3, size=40)
    y[-3:] -= 40.0
    X = x[:, None]
    huber = HuberRegressor(delta=1.0).fit(X, y)
    ols = LinearRegression().fit(X, y)
    assert abs(huber.coef_[0] - 2.0) < 0.1
    assert abs(ols.coef_[0] - 2.0) > 1.0


def test_huber_matches_sklearn_given_its_scale():
    """scikit-learn's solution minimises ours with delta = epsilon·σ and alpha = alpha_sk·σ/2."""
    from sklearn.linear_model import HuberRegressor as SkHuber

    X, y, _ = _data(seed=5)
    sk = SkHuber(epsilon=1.35, alpha=1e-3, tol=1e-12, max_iter=10_000).fit(X, y)
    delta, alpha = 1.35 * sk.scale_, 1e-3 * sk.scale_ / 2
    ours = HuberRegressor(delta=delta, alpha=alpha).fit(X, y)
    # scikit-learn's L-BFGS (on β and σ jointly) stops close to, not at, the optimum
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-5)
    assert ours.intercept_ == pytest.approx(sk.intercept_, rel=1e-5)
    w = np.ones(y.size)
    theirs = _huber_objective(np.r_[sk.intercept_, sk.coef_], X, y, w, delta, alpha, True)
    assert ours.objective_ <= theirs


def test_huber_convergence_warning_and_n_iter():
    X, y, _ = _data(seed=6, scale=1e4)
    with pytest.warns(ConvergenceWarning, match="HuberRegressor.*max_iter=2"):
        m = HuberRegressor(max_iter=2).fit(X, y)
    assert m.n_iter_ <= 2


def test_huber_integer_weights_equal_repeated_rows():
    X, y, _ = _data(n=40, seed=7)
    k = np.random.default_rng(0).integers(0, 4, size=40)
    a = HuberRegressor().fit(X, y, sample_weight=k)
    b = HuberRegressor().fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9)


@pytest.mark.parametrize(
    ("params", "match"),
    [({"delta": 0.0}, "delta"), ({"alpha": -1.0}, "alpha"), ({"solver": "newton"}, "solver"),
     ({"max_iter": 0}, "max_iter"), ({"tol": 0}, "tol")],
)
def test_huber_bad_parameters(params, match):
    X, y, _ = _data()
    with pytest.raises(InvalidParameterError, match=match):
        HuberRegressor(**params).fit(X, y)


# --------------------------------------------------------------------------------------- LAD


def _lp_optimum(X, y, w, fit_intercept=True):
    """The notes' LP (eq. 4.46) in its primal form, solved directly."""
    n = y.size
    A = np.hstack([np.ones((n, 1)), X]) if fit_intercept else X
    k = A.shape[1]
    res = optimize.linprog(
        np.concatenate([np.zeros(k), w, w]),
        A_eq=np.hstack([A, np.eye(n), -np.eye(n)]),
        b_eq=y,
        bounds=[(None, None)] * k + [(0, None)] * (2 * n),
        method="highs",
    )
    return res.fun


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_lad_objective_equals_the_lp_optimum(fit_intercept):
    # seed 001 §4.7.2: minimising Σ|r| is the LP of eq. 4.46; at our solution they agree
    X, y, w = _data(n=50, seed=8)
    m = LADRegressor(fit_intercept=fit_intercept).fit(X, y, sample_weight=w)
    assert m.unique_
    assert m.objective_ == pytest.approx(w @ np.abs(y - m.predict(X)), rel=1e-14)
    assert m.objective_ == pytest.approx(_lp_optimum(X, y, w, fit_intercept), rel=1e-9)


def test_lad_subgradient_conditions():
    """Residual signs: some s ∈ [−1, 1] on the zero residuals balances Σ w sign(r) a_i."""
    X, y, w = _data(n=80, seed=9)
    m = LADRegressor().fit(X, y, sample_weight=w)
    A = np.hstack([np.ones((y.size, 1)), X])
    r = y - m.predict(X)
    zero = np.abs(r) <= 1e-10 * np.max(np.abs(y))
    assert zero.sum() == A.shape[1]  # an exact vertex: p + 1 interpolated points
    s = np.linalg.solve((A[zero] * w[zero, None]).T, -(A[~zero].T @ (w[~zero] * np.sign(r[~zero]))))
    assert np.all(np.abs(s) <= 1.0)
    # with an intercept, positive and negative residuals balance in weight up to the zero ones
    pos, neg = w[r > 0].sum(), w[r < 0].sum()
    assert abs(pos - neg) <= w[zero].sum() + 1e-12


def test_lad_irls_approaches_the_lp_solution():
    X, y, w = _data(n=150, seed=10)
    exact = LADRegressor().fit(X, y, sample_weight=w)
    approx = LADRegressor(solver="irls", tol=1e-10, max_iter=5000).fit(X, y, sample_weight=w)
    assert approx.objective_ >= exact.objective_ * (1 - 1e-12)
    assert approx.objective_ <= exact.objective_ * (1 + 1e-6)
    np.testing.assert_allclose(approx.coef_, exact.coef_, rtol=1e-3, atol=1e-4)


def test_lad_is_the_median_when_the_feature_is_constant():
    y = np.array([3.0, 1.0, 7.0, 2.0, 100.0])
    with pytest.warns(RankDeficientWarning, match="rank 1 < 2"):
        m = LADRegressor().fit(np.zeros((5, 1)), y)
    assert m.intercept_ == pytest.approx(3.0)
    assert m.coef_[0] == 0.0  # the smallest-‖β‖₁ optimum


def test_lad_non_unique_solutions_warn():
    rng = np.random.default_rng(0)
    with pytest.warns(RankDeficientWarning, match="not unique"):
        m = LADRegressor().fit(rng.normal(size=(5, 8)), rng.normal(size=5))
    assert not m.unique_
    with pytest.warns(NumericalWarning, match="may not be unique"):
        LADRegressor().fit(np.array([[0.0], [0.0], [1.0], [1.0]]), np.array([0.0, 1.0, 0.0, 1.0]))


def test_lad_irls_convergence_warning():
    X, y, _ = _data(n=100, seed=11)
    with pytest.warns(ConvergenceWarning, match="LADRegressor"):
        m = LADRegressor(solver="irls", max_iter=2).fit(X, y)
    assert m.n_iter_ == 2


@pytest.mark.parametrize(
    ("params", "match"),
    [({"solver": "simplex"}, "solver"), ({"max_iter": 0}, "max_iter"),
     ({"fit_intercept": 1}, "fit_intercept")],
)
def test_lad_bad_parameters(params, match):
    X, y, _ = _data()
    with pytest.raises(InvalidParameterError, match=match):
        LADRegressor(**params).fit(X, y)


def test_bad_input_is_rejected():
    X, y, _ = _data(n=20)
    for est in (HuberRegressor(), LADRegressor()):
        with pytest.raises(ValueError, match="sample_weight"):
            est.fit(X, y, sample_weight=np.zeros(y.size))
        with pytest.raises(ValueError, match="inconsistent numbers of samples"):
            est.fit(X, y[:-1])
