"""Backpropagation against central finite differences, and the notes' forward pass by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.special import expit

from statlearning.neural_network import MLPClassifier
from statlearning.neural_network._network import Network

ACTIVATIONS = ("relu", "tanh", "logistic", "identity")
#: (output activation, loss, target kind)
OUTPUTS = [
    ("identity", "squared_error", "real"),
    ("identity", "sse", "real"),
    ("logistic", "log_loss", "binary"),
    ("logistic", "sse", "binary"),
    ("logistic", "squared_error", "binary"),
    ("logistic", "log_loss", "multilabel"),
    ("softmax", "log_loss", "onehot"),
    ("softmax", "sse", "onehot"),
    ("softmax", "squared_error", "onehot"),
]


def _problem(out_activation, kind, n=13, p=4, rng=None):
    rng = np.random.default_rng(0) if rng is None else rng
    X = rng.normal(size=(n, p))
    n_out = {"real": 2, "binary": 1, "multilabel": 3, "onehot": 3}[kind]
    if kind == "real":
        Y = rng.normal(size=(n, n_out))
    elif kind == "onehot":
        Y = np.eye(n_out)[rng.integers(0, n_out, n)]
    else:
        Y = rng.integers(0, 2, size=(n, n_out)).astype(float)
    return X, Y, n_out


def _objective(net, X, Y, sw, theta):
    saved = net.theta.copy()
    net.theta[...] = theta
    value = net.loss_grad(X, Y, sw)
    net.theta[...] = saved
    return value


@pytest.mark.parametrize(
    ("activation", "output", "use_bias", "weighted"),
    [
        (a, o, b, w)
        for a, o, b in itertools.product(ACTIVATIONS, OUTPUTS, (True, False))
        for w in ((False, True) if (a, b) == ("tanh", True) else (False,))
    ],
    ids=lambda v: v[1] if isinstance(v, tuple) else str(v),
)
def test_backpropagation_equals_central_differences(activation, output, use_bias, weighted):
    out_activation, loss, kind = output
    rng = np.random.default_rng(1)
    X, Y, n_out = _problem(out_activation, kind, rng=rng)
    sw = rng.uniform(0.5, 2.0, size=X.shape[0]) if weighted else None
    net = Network([X.shape[1], 5, 3, n_out], activation, out_activation, loss, 0.3, use_bias,
                  np.float64)  # fmt: skip
    net.theta[...] = rng.normal(scale=0.6, size=net.n_params)
    if not use_bias:
        for b in net.intercepts:
            b[...] = 0.0
    if activation == "relu":  # keep every unit away from its kink at 0
        net.theta[...] = np.where(np.abs(net.theta) < 0.05, 0.1, net.theta)
    net.loss_grad(X, Y, sw)
    analytic = net.grad.copy()
    theta = net.theta.copy()
    numeric = np.zeros_like(theta)
    h = 1e-6
    free = np.arange(net.n_params) if use_bias else np.arange(net.n_coef)
    for j in free:
        e = np.zeros_like(theta)
        e[j] = h
        numeric[j] = (
            _objective(net, X, Y, sw, theta + e) - _objective(net, X, Y, sw, theta - e)
        ) / (2 * h)
    scale = np.abs(numeric).max()
    np.testing.assert_allclose(analytic[free], numeric[free], rtol=1e-6, atol=1e-6 * scale)
    if not use_bias:
        assert not analytic[net.n_coef :].any()


def test_l2_term_gradient_alone():
    # the penalty's gradient is αW/S for the weights and nothing for the biases
    rng = np.random.default_rng(2)
    X, Y, _ = _problem("identity", "real", rng=rng)
    with_alpha = Network([4, 3, 2], "tanh", "identity", "squared_error", 2.5, True, np.float64)
    without = Network([4, 3, 2], "tanh", "identity", "squared_error", 0.0, True, np.float64)
    theta = rng.normal(size=with_alpha.n_params)
    with_alpha.theta[...] = theta
    without.theta[...] = theta
    diff_loss = with_alpha.loss_grad(X, Y) - without.loss_grad(X, Y)
    W = theta[: with_alpha.n_coef]
    np.testing.assert_allclose(diff_loss, 2.5 / 2 * (W @ W) / X.shape[0], rtol=1e-13)
    expected = np.r_[2.5 * W / X.shape[0], np.zeros(with_alpha.n_params - with_alpha.n_coef)]
    np.testing.assert_allclose(with_alpha.grad - without.grad, expected, atol=1e-14)


def test_the_notes_forward_pass_2_2_1_sigmoid_without_biases():
    # seed 004 §7.3: Z2 = X W1, a2 = g(Z2), Z3 = a2 W2, ŷ = g(Z3), g the sigmoid, no biases
    X = np.array([[0.5, -1.0], [1.5, 2.0], [-0.3, 0.8], [0.0, 0.0]])
    y = np.array([0, 1, 1, 0])
    clf = MLPClassifier((2,), activation="logistic", use_bias=False, solver="lbfgs",
                        max_iter=1, random_state=0)  # fmt: skip
    with pytest.warns(Warning):
        clf.fit(X, y)
    W1 = np.array([[0.1, -0.4], [0.7, 0.2]])
    W2 = np.array([[1.5], [-2.0]])
    clf.coefs_ = [W1, W2]
    a2 = 1 / (1 + np.exp(-(X @ W1)))
    y_hat = 1 / (1 + np.exp(-(a2 @ W2)))
    # by hand for the first row: z = (0.5·0.1 − 1·0.7, 0.5·(−0.4) − 1·0.2) = (−0.65, −0.4)
    first = expit(1.5 * expit(-0.65) - 2.0 * expit(-0.4))
    np.testing.assert_allclose(y_hat[0, 0], first, rtol=1e-15)
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], y_hat[:, 0], rtol=1e-14)
    assert all(not b.any() for b in clf.intercepts_)
