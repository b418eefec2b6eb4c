"""Step rules: trajectories on quadratics (and linear functions) known in closed form."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._solvers.steps import (
    SGD,
    Adadelta,
    Adagrad,
    Adam,
    LearningRateSchedule,
    Momentum,
    Nesterov,
    RMSProp,
    make_rule,
    optimal_rate_offset,
)

# f(θ) = ½ Σ h_j θ_j² − b·θ: separable, so every coordinate follows its own scalar recursion
H = np.array([0.5, 1.0, 3.0])
B = np.array([1.0, -2.0, 0.5])
X0 = np.array([2.0, -1.0, 0.25])


def _grad(x):
    return H * x - B


def _run(rule, k, x0=X0, grad=_grad):
    x = x0.copy()
    path = [x.copy()]
    for _ in range(k):
        rule.update([x], [np.ascontiguousarray(grad(x))])
        path.append(x.copy())
    return np.array(path)


def test_sgd_is_a_linear_contraction_towards_the_minimiser():
    eta, k = 0.3, 6
    path = _run(SGD(eta), k)
    x_star = B / H
    t = np.arange(k + 1)[:, None]
    np.testing.assert_allclose(path, x_star + (1 - eta * H) ** t * (X0 - x_star), rtol=1e-14)


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_follows_its_companion_matrix(nesterov):
    # e_t = θ_t − θ*; heavy ball: e_{t+1} = (1 + μ − ηh) e_t − μ e_{t−1}.
    # Nesterov (look-ahead form): e_{t+1} = (1 + μ)(1 − ηh) e_t − μ(1 − ηh) e_{t−1}, t ≥ 1.
    eta, mu, k = 0.2, 0.7, 8
    rule = (Nesterov if nesterov else Momentum)(eta, mu)
    path = _run(rule, k)
    e0 = X0 - B / H
    expected = []
    for h in H:
        c = 1 - eta * h
        if nesterov:
            M = np.array([[(1 + mu) * c, -mu * c], [1, 0]])
            e1 = 1 - (1 + mu) * eta * h  # from zero velocity: e_1 = e_0 + μv_1 − ηh e_0
        else:
            M = np.array([[1 + mu - eta * h, -mu], [1, 0]])
            e1 = c
        col = [np.linalg.matrix_power(M, t - 1) @ np.array([e1, 1.0]) for t in range(1, k + 1)]
        expected.append([1.0] + [v[0] for v in col])
    expected = np.array(expected).T * e0 + B / H
    np.testing.assert_allclose(path, expected, rtol=1e-12, atol=1e-14)


def test_nesterov_first_step_by_hand():
    eta, mu = 0.1, 0.9
    x = np.array([1.0])
    rule = Nesterov(eta, mu)
    rule.update([x], [np.array([2.0])])
    # v = −η g = −0.2; θ += μ v − η g = −0.18 − 0.2
    np.testing.assert_allclose(x, [1.0 - 0.38], rtol=1e-15)
    rule.update([x], [np.array([1.0])])
    v = 0.9 * -0.2 - 0.1
    np.testing.assert_allclose(x, [0.62 + 0.9 * v - 0.1], rtol=1e-15)


# Constant gradient c (a linear function, convex): the accumulators have closed forms
C = np.array([0.5, -2.0, 4.0])


def _const(x):
    return C.copy()


def test_adagrad_constant_gradient():
    eta, eps, k = 0.1, 1e-8, 7
    path = _run(Adagrad(eta, eps), k, grad=_const)
    t = np.arange(1, k + 1)[:, None]
    steps = eta * C / (np.sqrt(t) * np.abs(C) + eps)
    np.testing.assert_allclose(path[1:], X0 - np.cumsum(steps, axis=0), rtol=1e-13)


def test_rmsprop_constant_gradient():
    eta, rho, eps, k = 0.05, 0.8, 1e-8, 7
    path = _run(RMSProp(eta, rho, eps), k, grad=_const)
    t = np.arange(1, k + 1)[:, None]
    steps = eta * C / (np.sqrt(1 - rho**t) * np.abs(C) + eps)
    np.testing.assert_allclose(path[1:], X0 - np.cumsum(steps, axis=0), rtol=1e-12)


def test_adam_constant_gradient_moves_by_the_learning_rate():
    eta, b1, b2, eps, k = 0.01, 0.9, 0.999, 1e-8, 9
    rule = Adam(eta, b1, b2, eps)
    path = _run(rule, k, grad=_const)
    t = np.arange(1, k + 1)[:, None]
    lr_t = eta * np.sqrt(1 - b2**t) / (1 - b1**t)
    steps = lr_t * (1 - b1**t) * C / (np.sqrt(1 - b2**t) * np.abs(C) + eps)
    np.testing.assert_allclose(path[1:], X0 - np.cumsum(steps, axis=0), rtol=1e-12)
    assert rule.t == k
    np.testing.assert_allclose(rule.effective_learning_rate, lr_t[-1, 0])


def test_adadelta_two_steps_on_a_quadratic_by_hand():
    rho, eps = 0.9, 1e-6
    x = X0.copy()
    rule = Adadelta(rho, eps)
    g1 = _grad(x)
    rule.update([x], [g1])
    eg1 = (1 - rho) * g1**2
    d1 = -np.sqrt(eps) / np.sqrt(eg1 + eps) * g1
    x1 = X0 + d1
    np.testing.assert_allclose(x, x1, rtol=1e-14)
    g2 = _grad(x)
    rule.update([x], [g2])
    eg2 = rho * eg1 + (1 - rho) * g2**2
    ed1 = (1 - rho) * d1**2
    d2 = -np.sqrt(ed1 + eps) / np.sqrt(eg2 + eps) * g2
    np.testing.assert_allclose(x, x1 + d2, rtol=1e-14)


@pytest.mark.parametrize(
    "rule",
    [
        SGD(0.3),
        Momentum(0.1, 0.8),
        Nesterov(0.1, 0.8),
        Adagrad(0.5),
        RMSProp(0.01),
        Adadelta(0.95, 1e-6),
        Adam(0.01),
    ],
    ids=lambda r: type(r).__name__,
)
def test_every_rule_descends_a_quadratic_in_several_arrays_and_float32(rule):
    # the same rule over a list of arrays of different shapes, float32 kept float32
    A = np.full((2, 3), 3.0, dtype=np.float32)
    b = np.full(4, -2.0, dtype=np.float32)
    f0 = float((A**2).sum() + (b**2).sum())
    for _ in range(300):
        rule.update([A, b], [A.copy(), b.copy()])  # ∇ of ½‖A‖² + ½‖b‖²
    assert A.dtype == np.float32 and b.dtype == np.float32
    assert float((A**2).sum() + (b**2).sum()) < 0.5 * f0


def test_update_rejects_mismatches_and_views():
    rule = SGD(0.1)
    with pytest.raises(ValueError, match="same length"):
        rule.update([np.zeros(2)], [])
    with pytest.raises(ValueError, match="shape"):
        rule.update([np.zeros(2)], [np.zeros(3)])
    with pytest.raises(ValueError, match="C-contiguous"):
        rule.update([np.zeros((3, 3))[:, 0]], [np.zeros(3)])


def test_make_rule_and_schedules():
    assert isinstance(make_rule("nesterov", learning_rate=0.1), Nesterov)
    with pytest.raises(ValueError, match="unknown step rule"):
        make_rule("newton", learning_rate=0.1)
    rule = SGD(0.1)
    LearningRateSchedule("invscaling", 0.1, power_t=0.5).epoch_end(rule, 99)
    assert rule.learning_rate == pytest.approx(0.01)
    adaptive = LearningRateSchedule("adaptive", 0.1)
    rule = SGD(0.1)
    assert adaptive.plateau(rule) is False and rule.learning_rate == pytest.approx(0.02)
    rule.learning_rate = 1e-6
    assert adaptive.plateau(rule) is True
    assert LearningRateSchedule("constant", 0.1).plateau(SGD(0.1)) is True
    adam = Adam(0.1)
    LearningRateSchedule("invscaling", 0.1).epoch_end(adam, 99)
    assert adam.learning_rate == 0.1  # Adam keeps its own step sequence
    with pytest.raises(ValueError, match="schedule"):
        LearningRateSchedule("cosine", 0.1)


def test_per_step_schedules():
    # scikit-learn's SGD rates, step t counted from 1
    assert LearningRateSchedule("constant", 0.1).rate(7) == 0.1
    assert LearningRateSchedule("adaptive", 0.1).rate(7, current=0.02) == 0.02
    assert LearningRateSchedule("invscaling", 0.1, power_t=0.5).rate(4) == pytest.approx(0.05)
    # "optimal": Bottou's start τ/max(1, L'(1, −τ)) with τ = α^(−1/4), then 1/(α(t0 + t − 1))
    alpha = 1e-4
    hinge = lambda y, p: -y if y * p <= 1 else 0.0  # noqa: E731
    t0 = optimal_rate_offset(alpha, hinge)
    assert t0 == pytest.approx(1.0 / (alpha * alpha**-0.25))
    schedule = LearningRateSchedule("optimal", 0.0, alpha=alpha, optimal_offset=t0)
    assert schedule.rate(1) == pytest.approx(alpha**-0.25)  # starts at τ
    assert schedule.rate(11) == pytest.approx(1.0 / (alpha * (t0 + 10)))
    steep = lambda y, p: 4.0  # noqa: E731 - a derivative above 1 shrinks the first rate
    assert optimal_rate_offset(alpha, steep) == pytest.approx(4.0 * t0)
    with pytest.raises(ValueError, match="optimal"):
        LearningRateSchedule("optimal", 0.1)
