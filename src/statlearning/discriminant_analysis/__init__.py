"""Gaussian discriminant analysis: linear (with Fisher's discriminant coordinates) and
quadratic, with MASS's conventions and the lecture notes' printable discriminant functions."""

from ._lda import LinearDiscriminantAnalysis
from ._qda import QuadraticDiscriminantAnalysis

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]
