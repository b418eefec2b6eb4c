"""Kernel functions and their algebra (no estimators).

- kernel objects :class:`Linear`, :class:`Polynomial`, :class:`RBF` (scalar or per-feature γ),
  :class:`Laplacian`, :class:`Sigmoid`, :class:`Cosine`, :class:`AllSubsets`,
  :class:`Spectrum` (a string kernel), :class:`Precomputed`, :class:`CallableKernel`,
  :class:`Constant`; each is callable, ``kernel(X, Y=None)`` → Gram matrix, with
  ``kernel.diag(X)``;
- the algebra under which positive-definite kernels are closed: ``k1 + k2`` (:class:`Sum`),
  ``k1 * k2`` (:class:`Product`), ``c * k`` (:class:`Scaled`), :class:`Normalized`,
  :class:`Exponential`, and :class:`Rescaled` inputs;
- :func:`pairwise_kernel`, :func:`resolve_kernel` (what every kernel estimator's ``kernel=``
  means), :func:`is_mercer`, :func:`center_kernel` and :class:`KernelCenterer`;
- what every kernel estimator shares, wherever it lives: :data:`KERNEL_CONSTRAINTS`,
  :func:`read_X`, :func:`fitted_kernel`, :func:`training_gram`, :func:`gram_to_train`,
  :func:`gram_times`, :func:`is_precomputed`, :func:`on_sequences`, :func:`pairwise_tags`.

Gram matrices of the numeric kernels are computed with BLAS (``‖x‖² + ‖y‖² − 2xᵀy`` clipped
at 0), never as an ``n × m × p`` tensor.
"""

from ._base import Constant, Exponential, Kernel, Normalized, Product, Rescaled, Scaled, Sum
from ._builtin import (
    RBF,
    AllSubsets,
    CallableKernel,
    Cosine,
    Laplacian,
    Linear,
    Polynomial,
    Precomputed,
    Sigmoid,
    Spectrum,
)
from ._estimators import (
    KERNEL_CONSTRAINTS,
    fitted_kernel,
    gram_times,
    gram_to_train,
    is_precomputed,
    on_sequences,
    pairwise_tags,
    read_X,
    training_gram,
)
from ._tools import KernelCenterer, center_kernel, is_mercer, pairwise_kernel, resolve_kernel

__all__ = [
    "KERNEL_CONSTRAINTS",
    "RBF",
    "AllSubsets",
    "CallableKernel",
    "Constant",
    "Cosine",
    "Exponential",
    "Kernel",
    "KernelCenterer",
    "Laplacian",
    "Linear",
    "Normalized",
    "Polynomial",
    "Precomputed",
    "Product",
    "Rescaled",
    "Scaled",
    "Sigmoid",
    "Spectrum",
    "Sum",
    "center_kernel",
    "fitted_kernel",
    "gram_times",
    "gram_to_train",
    "is_mercer",
    "is_precomputed",
    "on_sequences",
    "pairwise_kernel",
    "pairwise_tags",
    "read_X",
    "resolve_kernel",
    "training_gram",
]
