"""Gaussian discriminant analysis: linear (with Fisher's discriminant coordinates) and
quadratic, with MASS's conventions and the lecture notes' printable discriminant functions."""

from .._registry import register_model
from ._lda import LinearDiscriminantAnalysis
from ._qda import QuadraticDiscriminantAnalysis

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]

register_model(
    "lda",
    LinearDiscriminantAnalysis,
    task="classification",
    description="Linear discriminant analysis, pooled covariance (MASS::lda)",
    family="discriminant_analysis",
)
register_model(
    "qda",
    QuadraticDiscriminantAnalysis,
    task="classification",
    description="Quadratic discriminant analysis, one covariance per class (MASS::qda)",
    family="discriminant_analysis",
)
