"""Gaussian discriminant analysis: linear (with Fisher's discriminant coordinates) and
quadratic, with MASS's conventions and the lecture notes' printable discriminant functions;
kernel Fisher discriminant analysis (Fisher's criterion in a kernel's feature space)."""

from ._kernel_fisher import KernelFisherDiscriminant
from ._lda import LinearDiscriminantAnalysis
from ._qda import QuadraticDiscriminantAnalysis

__all__ = [
    "KernelFisherDiscriminant",
    "LinearDiscriminantAnalysis",
    "QuadraticDiscriminantAnalysis",
]
