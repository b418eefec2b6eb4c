"""Dimension reduction: principal component analysis with R's conventions, and kernel PCA.

:class:`PCA` follows R's ``prcomp`` (divisor ``n − 1``, ``scale=True`` for the correlation
matrix) and offers the notes' retention rules (:func:`retained_components`);
:class:`KernelPCA` is PCA in a kernel's feature space (the centred Gram matrix, kernlab's
``kpca`` and scikit-learn's ``KernelPCA``).
"""

from ._kernel_pca import KernelPCA
from ._pca import PCA, retained_components
from ._summary import PCASummary

__all__ = [
    "PCA",
    "KernelPCA",
    "PCASummary",
    "principal_components_regression",
    "retained_components",
]


def principal_components_regression():
    """Deprecated: use :class:`statlearning.cross_decomposition.PCRegression`.

    Returns ``PCRegression(n_components="cumulative:0.95", scale=True)``: the same model as the
    former pipeline (standardise, keep the principal components whose cumulative proportion of
    variance is at most 95%, least squares on their scores), with the coefficients on the
    original predictors.

    Returns
    -------
    statlearning.cross_decomposition.PCRegression
        Unfitted.
    """
    import warnings

    from ..cross_decomposition import PCRegression

    warnings.warn(
        "principal_components_regression() is deprecated; use "
        "statlearning.cross_decomposition.PCRegression(n_components='cumulative:0.95').",
        FutureWarning,
        stacklevel=2,
    )
    return PCRegression(n_components="cumulative:0.95", scale=True)
