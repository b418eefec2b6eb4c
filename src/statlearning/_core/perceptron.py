"""Rosenblatt's perceptron: the epoch loop, compiled with numba (array in, array out).

On each misclassified sample (``s_i f(x_i) ≤ 0`` with ``f(x) = b + xᵀw`` and ``s_i = ±1``) the
weights move towards it: ``w ← w + η s_i x_i`` and ``b ← b + η s_i``. An epoch visits every
sample once (in a fresh random order when ``shuffle``); the loop stops after the first epoch
without a mistake (the training data are then separated) or after ``max_epochs``.
"""

from __future__ import annotations

import numpy as np

from .compiled import B1, F8, I8, contiguous, either_layout, lazy_kernel, readonly, writeable


def perceptron_epochs(
    X, s, coef, intercept, learning_rate, max_epochs, fit_intercept, shuffle, seed
):
    """Run the perceptron from ``(coef, intercept)``; returns ``(coef, intercept, epochs,
    separated)``. ``coef`` is updated in place (pass a copy)."""
    return _epochs(
        contiguous(np.asarray(X, dtype=np.float64)), np.ascontiguousarray(s, dtype=np.float64),
        coef, float(intercept), float(learning_rate), int(max_epochs), bool(fit_intercept),
        bool(shuffle), int(seed),
    )  # fmt: skip


@lazy_kernel(either_layout(readonly(), writeable(), F8, F8, I8, B1, B1, I8), cache=True)
def _epochs(X, s, coef, intercept, learning_rate, max_epochs, fit_intercept, shuffle, seed):
    n, p = X.shape
    if shuffle:
        np.random.seed(seed)  # noqa: NPY002 - numba's own generator (njit API)
    order = np.arange(n)
    for epoch in range(max_epochs):
        if shuffle:
            np.random.shuffle(order)  # noqa: NPY002
        mistakes = 0
        for t in range(n):
            i = order[t]
            f = intercept
            for j in range(p):
                f += coef[j] * X[i, j]
            if s[i] * f <= 0.0:
                step = learning_rate * s[i]
                for j in range(p):
                    coef[j] += step * X[i, j]
                if fit_intercept:
                    intercept += step
                mistakes += 1
        if mistakes == 0:
            return coef, intercept, epoch + 1, True
    return coef, intercept, max_epochs, False
