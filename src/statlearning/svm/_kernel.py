"""The kernel of a support-vector machine, resolved at fit time.

``kernel`` is one of scikit-learn's names with ``gamma``, ``degree`` and ``coef0``, a kernel
object of :mod:`statlearning.kernels`, or a callable ``k(X, Y) → Gram``
(:func:`statlearning.kernels.resolve_kernel` says what each means). ``gamma="scale"`` is
``1 / (n_features · Var(X))`` over all entries of ``X``, the variance weighted by
``sample_weight`` when one is given (so that an integer weight is a repeated row).

The built-in kernels (and the ARD Gaussian) are evaluated column by column inside the SMO loop
(:mod:`statlearning._core._kernel_columns`) and, for prediction, by the one Gram implementation
:func:`statlearning._core.kernel_gram.gram`; any other kernel object (sums, products, normalised
kernels, callables) is evaluated once into the training Gram matrix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.kernel_gram import KERNELS, gram
from ..kernels import RBF, resolve_kernel

__all__ = ["KERNEL_NAMES", "KernelSpec", "cross_gram", "resolve_svm_kernel"]

KERNEL_NAMES = (*KERNELS, "precomputed")


@dataclass(frozen=True)
class KernelSpec:
    """A resolved kernel: a built-in ``name`` with its numbers (``gamma`` a vector for the ARD
    Gaussian), ``"precomputed"``, or ``"object"`` (evaluated by calling ``function(X, Y)``)."""

    name: str
    gamma: Any = 1.0
    degree: float = 3.0
    coef0: float = 0.0
    function: Any = None

    def evaluate(self, X, Y):
        """The Gram matrix of an ``"object"`` kernel, checked for shape and finiteness."""
        K = np.asarray(self.function(X, Y), dtype=np.float64)
        if K.shape != (X.shape[0], Y.shape[0]):
            raise ValueError(
                f"the kernel returned a Gram matrix of shape {K.shape}; expected "
                f"({X.shape[0]}, {Y.shape[0]})."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("the kernel returned NaN or infinite values.")
        return K


def resolve_svm_kernel(est, X, sample_weight) -> KernelSpec:
    """The kernel of estimator ``est`` (``kernel``, ``gamma``, ``degree``, ``coef0``) on ``X``."""
    kernel = resolve_kernel(est.kernel, gamma=est.gamma, degree=est.degree, coef0=est.coef0,
                            X=X, sample_weight=sample_weight)  # fmt: skip
    spec = kernel.compiled_spec()
    if spec is not None:
        name, g, degree, coef0 = spec
        return KernelSpec(name, float(g), float(degree), float(coef0))
    if isinstance(kernel, RBF):  # the ARD Gaussian: one γ per feature
        g = np.asarray(kernel.gamma, dtype=np.float64)
        if g.shape != (X.shape[1],):
            raise ValueError(
                f"{type(est).__name__}: the RBF kernel has {g.size} values of gamma but X has "
                f"{X.shape[1]} features."
            )
        return KernelSpec("rbf", g, 1.0, 0.0)
    return KernelSpec("object", function=kernel)


def cross_gram(X, Y, spec: KernelSpec) -> np.ndarray:
    """``K(X, Y)`` of a built-in kernel."""
    return gram(X, Y, kernel=spec.name, gamma=spec.gamma, degree=spec.degree, coef0=spec.coef0)
