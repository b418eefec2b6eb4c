"""Huber and absolute losses: values, derivatives by finite differences, the objective."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from statlearning._core.robust_losses import (
    absolute_loss,
    absolute_subgradient,
    huber_hessian_weights,
    huber_irls_weights,
    huber_loss,
    huber_psi,
    huber_regression_objective,
    lad_irls_weights,
)


def test_huber_loss_values_follow_the_notes():
    delta = 1.5
    r = np.array([-4.0, -1.5, -0.5, 0.0, 0.5, 1.5, 4.0])
    expected = np.where(np.abs(r) <= delta, r**2 / 2, delta * np.abs(r) - delta**2 / 2)
    np.testing.assert_array_equal(huber_loss(r, delta), expected)
    # seed 001, E8: value and derivative are continuous at |r| = δ
    for x in (delta, -delta):
        below, above = x * (1 - 1e-12), x * (1 + 1e-12)
        assert huber_loss(below, delta) == pytest.approx(huber_loss(above, delta), rel=1e-10)
        assert huber_psi(below, delta) == pytest.approx(huber_psi(above, delta), rel=1e-10)
        assert huber_psi(x, delta) == pytest.approx(x)


@pytest.mark.parametrize("delta", [0.3, 1.35, 10.0])
def test_huber_derivatives_match_finite_differences(delta):
    rng = np.random.default_rng(0)
    r = rng.normal(scale=2 * delta, size=200)
    r = r[np.abs(np.abs(r) - delta) > 1e-3]  # away from the kinks of ψ
    h = 1e-6
    fd = (huber_loss(r + h, delta) - huber_loss(r - h, delta)) / (2 * h)
    np.testing.assert_allclose(huber_psi(r, delta), fd, rtol=1e-7, atol=1e-8)
    fd2 = (huber_psi(r + h, delta) - huber_psi(r - h, delta)) / (2 * h)
    np.testing.assert_allclose(huber_hessian_weights(r, delta), fd2, atol=1e-6)


def test_irls_weights_are_psi_over_r():
    r = np.array([-3.0, -1.0, -0.2, 0.0, 0.2, 1.0, 3.0])
    delta = 1.0
    w = huber_irls_weights(r, delta)
    nz = r != 0
    np.testing.assert_allclose(w[nz], huber_psi(r[nz], delta) / r[nz])
    assert w[~nz] == 1.0
    # LAD weights are the Huber weights with threshold ε, divided by ε
    eps = 0.5
    np.testing.assert_allclose(lad_irls_weights(r, eps), huber_irls_weights(r, eps) / eps)


def test_absolute_loss_and_subgradient():
    r = np.array([-2.0, 0.0, 3.0])
    np.testing.assert_array_equal(absolute_loss(r), [2.0, 0.0, 3.0])
    np.testing.assert_array_equal(absolute_subgradient(r), [-1.0, 0.0, 1.0])
    # the ε-smoothed loss used by LAD-IRLS is within ε/2 of |r|
    eps = 1e-3
    rr = np.linspace(-1, 1, 101)
    assert np.max(np.abs(huber_loss(rr, eps) / eps - np.abs(rr))) <= eps / 2 + 1e-15


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("standardised", [False, True])
def test_objective_gradient_matches_finite_differences(fit_intercept, standardised):
    rng = np.random.default_rng(1)
    n, p = 60, 4
    X = rng.normal(size=(n, p)) * [1.0, 10.0, 0.1, 3.0] + 2.0
    y = X @ rng.normal(size=p) + rng.standard_t(2, size=n)
    w = rng.uniform(0.2, 3.0, size=n)
    offset = X.mean(axis=0) if standardised else None
    scale = X.std(axis=0) if standardised else None
    k = p + int(fit_intercept)
    params = rng.normal(size=k)

    def f(v):
        return huber_regression_objective(
            v, X, y, delta=0.8, sample_weight=w, alpha=0.7, fit_intercept=fit_intercept,
            x_offset=offset, x_scale=scale,
        )

    err = optimize.check_grad(lambda v: f(v)[0], lambda v: f(v)[1], params, epsilon=1e-7)
    assert err < 1e-5 * max(1.0, np.linalg.norm(f(params)[1]))
    # the value is the loss of the back-transformed coefficients
    off = int(fit_intercept)
    beta = params[off:] / (1.0 if scale is None else scale)
    b0 = 0.0
    if fit_intercept:
        b0 = params[0] - (0.0 if offset is None else offset @ beta)
    direct = w @ huber_loss(y - b0 - X @ beta, 0.8) + 0.7 * beta @ beta
    assert f(params)[0] == pytest.approx(direct, rel=1e-12)
