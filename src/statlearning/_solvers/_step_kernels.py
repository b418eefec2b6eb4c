"""Compiled in-place updates of the step rules in :mod:`statlearning._solvers.steps`.

Each kernel walks one flat parameter array, its gradient and the rule's state arrays once, with
no temporaries (NumPy would allocate several arrays per update). Scalars arrive as float64; the
arrays are float64 or float32 (each dtype is compiled once, at its first call, and cached).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_OPTIONS = {"cache": True, "nogil": True, "fastmath": False}


@njit(**_OPTIONS)
def plain_step(p, g, lr):  # pragma: no cover - compiled
    for i in range(p.size):
        p[i] -= lr * g[i]


@njit(**_OPTIONS)
def momentum_step(p, g, v, mu, lr, nesterov):  # pragma: no cover - compiled
    for i in range(p.size):
        vi = mu * v[i] - lr * g[i]
        v[i] = vi
        if nesterov:
            p[i] += mu * vi - lr * g[i]
        else:
            p[i] += vi


@njit(**_OPTIONS)
def adagrad_step(p, g, acc, lr, eps):  # pragma: no cover - compiled
    for i in range(p.size):
        gi = g[i]
        a = acc[i] + gi * gi
        acc[i] = a
        p[i] -= lr * gi / (np.sqrt(a) + eps)


@njit(**_OPTIONS)
def rmsprop_step(p, g, acc, lr, rho, eps):  # pragma: no cover - compiled
    for i in range(p.size):
        gi = g[i]
        a = rho * acc[i] + (1.0 - rho) * (gi * gi)
        acc[i] = a
        p[i] -= lr * gi / (np.sqrt(a) + eps)


@njit(**_OPTIONS)
def adadelta_step(p, g, acc_g, acc_d, rho, eps):  # pragma: no cover - compiled
    for i in range(p.size):
        gi = g[i]
        a = rho * acc_g[i] + (1.0 - rho) * (gi * gi)
        acc_g[i] = a
        d = -np.sqrt(acc_d[i] + eps) / np.sqrt(a + eps) * gi
        acc_d[i] = rho * acc_d[i] + (1.0 - rho) * (d * d)
        p[i] += d


@njit(**_OPTIONS)
def adam_step(p, g, m, v, beta_1, beta_2, lr_t, eps):  # pragma: no cover - compiled
    for i in range(p.size):
        gi = g[i]
        mi = beta_1 * m[i] + (1.0 - beta_1) * gi
        vi = beta_2 * v[i] + (1.0 - beta_2) * (gi * gi)
        m[i] = mi
        v[i] = vi
        p[i] += -lr_t * mi / (np.sqrt(vi) + eps)


# Learning-rate schedules per step (codes of ``steps.SCHEDULE_CODES``).
CONSTANT, OPTIMAL, INVSCALING, ADAPTIVE = 1, 2, 3, 4


@njit(**_OPTIONS)
def scheduled_rate(kind, eta, alpha, t, power_t, optimal_init):  # pragma: no cover - compiled
    """The rate of step ``t`` (counted from 1): ``eta`` itself (constant, adaptive),
    ``eta / t**power_t`` (invscaling) or ``1 / (alpha (optimal_init + t − 1))`` (optimal)."""
    if kind == OPTIMAL:
        return 1.0 / (alpha * (optimal_init + t - 1.0))
    if kind == INVSCALING:
        return eta / t**power_t
    return eta
