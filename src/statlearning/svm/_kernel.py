"""The kernel of a support-vector machine: its parameters resolved at fit time.

``kernel`` is one of scikit-learn's names with ``gamma``, ``degree`` and ``coef0``, or a
callable ``k(X, Y) → Gram``. ``gamma="scale"`` is ``1 / (n_features · Var(X))`` over all
entries of ``X`` (weighted by ``sample_weight`` when given, so that an integer weight is a
repeated row), ``"auto"`` is ``1 / n_features``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["KERNEL_NAMES", "KernelSpec", "cross_gram", "resolve_svm_kernel"]

KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed")


@dataclass(frozen=True)
class KernelSpec:
    """A resolved kernel: a built-in name with its numbers, ``"precomputed"``, or
    ``"callable"`` (then ``function`` is called as ``function(X, Y)``)."""

    name: str
    gamma: float = 1.0
    degree: float = 3.0
    coef0: float = 0.0
    function: Any = None

    def evaluate(self, X, Y):
        """The Gram matrix of a callable kernel, checked for shape and finiteness."""
        K = np.asarray(self.function(X, Y), dtype=np.float64)
        if K.shape != (X.shape[0], Y.shape[0]):
            raise ValueError(
                f"the kernel callable returned shape {K.shape}; expected "
                f"({X.shape[0]}, {Y.shape[0]})."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("the kernel callable returned NaN or infinite values.")
        return K


def _scale_gamma(X, sample_weight):
    if sample_weight is None:
        var = X.var()
    else:
        w = sample_weight / sample_weight.sum()
        mean = float(w @ X.mean(axis=1))
        var = float(w @ ((X - mean) ** 2).mean(axis=1))
    return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


def resolve_svm_kernel(est, X, sample_weight=None) -> KernelSpec:
    """The kernel of estimator ``est`` (``kernel``, ``gamma``, ``degree``, ``coef0``) on ``X``."""
    kernel = est.kernel
    if callable(kernel):
        return KernelSpec("callable", function=kernel)
    if kernel == "precomputed":
        return KernelSpec("precomputed")
    gamma = est.gamma
    if gamma == "scale":
        gamma = _scale_gamma(X, sample_weight)
    elif gamma == "auto":
        gamma = 1.0 / X.shape[1]
    return KernelSpec(kernel, float(gamma), float(est.degree), float(est.coef0))


def cross_gram(X, Y, spec: KernelSpec) -> np.ndarray:
    """``K(X, Y)`` of a built-in kernel."""
    from sklearn.metrics.pairwise import pairwise_kernels

    params = {"linear": {}, "cosine": {}, "rbf": {"gamma": spec.gamma},
              "laplacian": {"gamma": spec.gamma},
              "poly": {"gamma": spec.gamma, "degree": spec.degree, "coef0": spec.coef0},
              "sigmoid": {"gamma": spec.gamma, "coef0": spec.coef0}}[spec.name]  # fmt: skip
    return pairwise_kernels(X, Y, metric=spec.name, **params)
