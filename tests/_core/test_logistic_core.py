"""Binary and multinomial logistic losses: finite-difference gradients and Hessians, Hessian
products, numerical stability, binomial statistics and the separation linear program."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from statlearning._core.logistic import (
    binary_loss,
    binary_loss_gradient,
    linear_predictor,
    log_softmax,
    multinomial_hessian,
    multinomial_hessian_product,
    multinomial_loss,
    multinomial_loss_gradient,
    separation_direction,
    sigmoid,
    softmax,
)


def _data(n=40, p=3, K=None, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    w = rng.uniform(0.2, 2.0, size=n)
    if K is None:
        y = (rng.random(n) < 0.5).astype(float)
    else:
        y = rng.integers(0, K, size=n)
    return X, y, w


def _fd_gradient(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_binary_gradient_matches_finite_differences(fit_intercept, weighted):
    X, y, w = _data()
    w = w if weighted else None
    k = X.shape[1] + fit_intercept
    x = np.random.default_rng(1).normal(size=k)
    loss, grad = binary_loss_gradient(x, X, y, w, fit_intercept)
    f = lambda v: binary_loss_gradient(v, X, y, w, fit_intercept)[0]  # noqa: E731
    np.testing.assert_allclose(grad, _fd_gradient(f, x), rtol=1e-6, atol=1e-7)
    eta = linear_predictor(X, x, fit_intercept)
    assert loss == pytest.approx(binary_loss(eta, y, w), rel=1e-13)


def test_binary_loss_is_the_negative_log_likelihood():
    X, y, w = _data()
    x = np.array([0.3, -0.5, 0.2, 0.1])
    mu = 1 / (1 + np.exp(-(X @ x[1:] + x[0])))
    naive = -np.sum(w * (y * np.log(mu) + (1 - y) * np.log(1 - mu)))
    assert binary_loss_gradient(x, X, y, w)[0] == pytest.approx(naive, rel=1e-12)


def test_binary_loss_is_stable_for_extreme_linear_predictors():
    eta = np.array([-1000.0, -40.0, 0.0, 40.0, 1000.0])
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    # exact values: softplus(η) − yη
    expected = np.array(
        [1000.0, np.log1p(np.exp(-40.0)), np.log(2.0), np.log1p(np.exp(-40.0)), 1000]
    )
    assert binary_loss(eta, y) == pytest.approx(expected.sum(), rel=1e-15)
    X = eta[:, None]
    loss, grad = binary_loss_gradient(np.array([0.0, 1.0]), X, y)
    assert np.isfinite(loss) and np.all(np.isfinite(grad))
    assert np.all(np.isfinite(sigmoid(eta))) and sigmoid(-1000.0) == 0.0


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("K", [3, 4])
def test_multinomial_gradient_and_hessian_match_finite_differences(fit_intercept, K):
    X, y, w = _data(K=K, seed=K)
    k = X.shape[1] + fit_intercept
    P = np.random.default_rng(5).normal(size=(K, k))
    loss, G = multinomial_loss_gradient(P, X, y, w, fit_intercept)
    f = lambda v: multinomial_loss_gradient(v, X, y, w, fit_intercept)[0]  # noqa: E731
    np.testing.assert_allclose(G, _fd_gradient(f, P), rtol=1e-6, atol=1e-7)
    assert loss == pytest.approx(
        multinomial_loss(linear_predictor(X, P, fit_intercept), y, w), rel=1e-13
    )
    H = multinomial_hessian(P, X, w, fit_intercept)
    flat = P.ravel()
    Hfd = np.column_stack(
        [
            _fd_gradient(
                lambda v, j=j: multinomial_loss_gradient(v.reshape(K, k), X, y, w, fit_intercept)[
                    1
                ].ravel()[j],
                flat,
            )
            for j in range(K * k)
        ]
    )
    np.testing.assert_allclose(H, Hfd, rtol=1e-5, atol=1e-6)
    V = np.random.default_rng(6).normal(size=(K, k))
    np.testing.assert_allclose(
        multinomial_hessian_product(P, X, V, w, fit_intercept).ravel(), H @ V.ravel(), rtol=1e-10
    )
    # flat direction: adding the same vector to every class changes nothing
    e = np.tile(np.random.default_rng(7).normal(size=k), K)
    np.testing.assert_allclose(H @ e, 0.0, atol=1e-10 * np.abs(H).max())


def test_multinomial_with_two_classes_is_the_binary_model():
    X, y, w = _data()
    x = np.array([0.4, -0.3, 0.8, 0.05])
    P = np.vstack([np.zeros(4), x])
    lm, Gm = multinomial_loss_gradient(P, X, y.astype(int), w)
    lb, gb = binary_loss_gradient(x, X, y, w)
    assert lm == pytest.approx(lb, rel=1e-13)
    np.testing.assert_allclose(Gm[1], gb, rtol=1e-12)
    np.testing.assert_allclose(Gm[0], -gb, rtol=1e-12)


def test_softmax_is_stable_and_normalised():
    eta = np.array([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]])
    P = softmax(eta)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert P[0, 0] == 1.0 and np.all(np.isfinite(log_softmax(eta)))
    np.testing.assert_allclose(P[1], np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum())
    loss = multinomial_loss(eta, np.array([2, 0]))
    assert loss == pytest.approx(2000.0 + special.logsumexp([1.0, 2.0, 3.0]) - 1.0)


def test_multinomial_rejects_bad_labels():
    X, _, _ = _data()
    with pytest.raises(ValueError, match="integer class codes"):
        multinomial_loss_gradient(np.zeros((3, 4)), X, np.full(X.shape[0], 3), None)


def test_separation_linear_program():
    t = np.array([36.5, 36.6, 36.8, 36.9, 37.0, 37.2, 37.5, 37.6, 39.5])[:, None]
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1.0])
    assert separation_direction(t, y) is None  # 37.0 healthy between sick 36.9 and 37.2
    d = separation_direction(np.delete(t, 4, axis=0), np.delete(y, 4))
    assert d is not None
    margins = (2 * np.delete(y, 4) - 1) * (d[0] + np.delete(t, 4, axis=0)[:, 0] * d[1])
    assert np.all(margins >= -1e-9) and margins.max() > 0
    # quasi-complete separation: one tie on the boundary
    Xq = np.array([[0.0], [1.0], [2.0], [2.0], [3.0], [4.0]])
    yq = np.array([0, 0, 0, 1, 1, 1.0])
    assert separation_direction(Xq, yq) is not None
