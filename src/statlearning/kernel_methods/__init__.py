"""Kernel machines other than the support vector machines.

- :class:`KernelRidge`: ridge regression in a kernel's feature space (Cholesky dual), with an
  optional unpenalised intercept;
- :class:`KernelLogisticRegression`: penalised logistic regression in a kernel's feature space,
  binary and multinomial, by Newton's method;
- :class:`PrototypeFeatures`: the kernel-feature (prototype) map ``x ↦ (k(x, p₁), …, k(x, p_m))``,
  to be followed by a (sparse) linear model.

Every one accepts ``kernel=`` as scikit-learn's names, a :mod:`statlearning.kernels` object or a
callable (:func:`statlearning.kernels.resolve_kernel`).
"""

from ._logistic import KernelLogisticRegression
from ._prototype import PrototypeFeatures
from ._ridge import KernelRidge

__all__ = ["KernelLogisticRegression", "KernelRidge", "PrototypeFeatures"]
