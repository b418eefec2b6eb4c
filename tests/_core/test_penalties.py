"""L1/L2/elastic-net penalties: values, soft-thresholding, prox, KKT residuals, alpha_max."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from statlearning._core.penalties import (
    enet_alpha_max,
    enet_kkt_violation,
    enet_penalty,
    enet_prox,
    l1_penalty,
    l2_penalty,
    soft_threshold,
)

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
nonneg = st.floats(0, 1e6, allow_nan=False, allow_infinity=False)


def test_soft_threshold_values():
    z = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(soft_threshold(z, 1.0), [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    # zeros are positive zeros (the subgradient of |x| at 0 is [-1, 1]; we return 0, not -0)
    assert not np.signbit(soft_threshold(-0.5, 1.0))
    assert soft_threshold(2.5, 0.0) == 2.5
    assert isinstance(soft_threshold(2.5, 1.0), float)


def test_soft_threshold_rejects_negative_threshold():
    with pytest.raises(ValueError, match="non-negative"):
        soft_threshold(1.0, -0.1)


@settings(max_examples=200, deadline=None)
@given(finite, nonneg)
def test_soft_threshold_is_the_prox_of_the_absolute_value(z, lam):
    """S(z, λ) minimises ½(b − z)² + λ|b| (the notes' eq. 4.62)."""
    b = soft_threshold(z, lam)
    f = lambda t: 0.5 * (t - z) ** 2 + lam * abs(t)  # noqa: E731
    assert f(b) <= f(b + 1e-3 * (1 + abs(z))) + 1e-9 * (1 + z * z)
    assert f(b) <= f(b - 1e-3 * (1 + abs(z))) + 1e-9 * (1 + z * z)
    # subgradient condition: z − b ∈ λ ∂|b|
    if b != 0:
        assert z - b == pytest.approx(lam * np.sign(b), abs=1e-9 * (1 + abs(z)))
    else:
        assert abs(z) <= lam


@settings(max_examples=100, deadline=None)
@given(finite, st.floats(0.01, 10), st.floats(0.0, 10.0), st.floats(0.0, 1.0))
def test_enet_prox_minimises_its_objective(z, step, alpha, l1_ratio):
    b = float(enet_prox(np.array([z]), step, alpha, l1_ratio)[0])

    def f(t):
        return 0.5 * (t - z) ** 2 + step * enet_penalty(np.array([t]), alpha, l1_ratio)

    best = minimize_scalar(f, bracket=(min(0.0, z) - 1, max(0.0, z) + 1), tol=1e-12)
    assert f(b) <= best.fun + 1e-9 * (1 + z * z)


def test_penalty_values():
    b = np.array([1.0, -2.0, 0.0, 3.0])
    pf = np.array([1.0, 0.5, 2.0, 0.0])
    assert l1_penalty(b) == 6.0
    assert l2_penalty(b) == 7.0
    assert l1_penalty(b, pf) == 2.0
    assert l2_penalty(b, pf) == 0.5 * (1 + 0.5 * 4)
    assert enet_penalty(b, 2.0, 1.0) == 12.0
    assert enet_penalty(b, 2.0, 0.0) == 14.0
    assert enet_penalty(b, 2.0, 0.25, pf) == pytest.approx(2.0 * (0.25 * 2.0 + 0.75 * 1.5))


def test_penalty_factor_is_checked():
    with pytest.raises(ValueError, match="penalty_factor"):
        l1_penalty(np.ones(3), [1.0, 1.0])
    with pytest.raises(ValueError, match="non-negative"):
        l1_penalty(np.ones(2), [1.0, -1.0])


def test_kkt_violation_is_zero_at_the_orthonormal_lasso_solution():
    # ½‖β − z‖² + λ‖β‖₁: gradient of the smooth part is β − z, solution S(z, λ)
    z = np.array([3.0, -0.2, 0.7, -5.0])
    lam = 0.5
    beta = soft_threshold(z, lam)
    np.testing.assert_allclose(enet_kkt_violation(beta, beta - z, lam), 0.0, atol=1e-15)
    # moving one coordinate off the solution shows up in that coordinate only
    bad = beta.copy()
    bad[0] += 0.1
    v = enet_kkt_violation(bad, bad - z, lam)
    assert v[0] == pytest.approx(0.1) and np.all(v[1:] < 1e-15)
    # a zero coordinate with |g| > λ violates by |g| − λ
    v = enet_kkt_violation(np.zeros(4), -z, lam)
    np.testing.assert_allclose(v, np.maximum(np.abs(z) - lam, 0))


def test_kkt_violation_elastic_net():
    z = np.array([2.0, -0.3, 1.0])
    alpha, rho = 0.8, 0.4
    beta = enet_prox(z, 1.0, alpha, rho)
    np.testing.assert_allclose(enet_kkt_violation(beta, beta - z, alpha, rho), 0.0, atol=1e-15)


def test_alpha_max():
    g = np.array([0.5, -2.0, 1.0])
    assert enet_alpha_max(g) == 2.0
    assert enet_alpha_max(g, 0.5) == 4.0
    assert enet_alpha_max(g, 1.0, [1.0, 0.0, 2.0]) == 0.5  # the unpenalised one is ignored
    assert enet_alpha_max(g, 1.0, [0.0, 0.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="l1_ratio"):
        enet_alpha_max(g, 0.0)
    # at alpha_max the zero vector satisfies the KKT conditions, just below it does not
    assert np.all(enet_kkt_violation(np.zeros(3), g, 2.0) == 0)
    assert enet_kkt_violation(np.zeros(3), g, 1.99).max() > 0
