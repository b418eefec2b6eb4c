"""Compiled elementwise loops of backpropagation: ``δ ← δ ⊙ g′(z)`` from the activations.

The derivative of each hidden activation is a function of its output ``a = g(z)``
(scikit-learn's convention): ``relu``: ``1[a > 0]``; ``logistic``: ``a(1 − a)``; ``tanh``:
``1 − a²``; ``identity``: 1. One pass, in place, over C-contiguous arrays viewed flat.
"""

from __future__ import annotations

from numba import njit

__all__ = ["hidden_derivative"]

_OPTIONS = {"cache": True, "nogil": True}


@njit(**_OPTIONS)
def _relu(a, d):  # pragma: no cover - compiled
    for i in range(a.size):
        if a[i] == 0:
            d[i] = 0


@njit(**_OPTIONS)
def _logistic(a, d):  # pragma: no cover - compiled
    for i in range(a.size):
        d[i] *= a[i]
        d[i] *= 1 - a[i]


@njit(**_OPTIONS)
def _tanh(a, d):  # pragma: no cover - compiled
    for i in range(a.size):
        d[i] *= 1 - a[i] ** 2


_KERNELS = {"relu": _relu, "logistic": _logistic, "tanh": _tanh}


def hidden_derivative(activation: str, a, delta) -> None:
    """Multiply ``delta`` in place by the derivative of ``activation`` at output ``a``."""
    kernel = _KERNELS.get(activation)
    if kernel is not None:
        kernel(a.reshape(-1), delta.reshape(-1))
