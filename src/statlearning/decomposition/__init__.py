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
    """Build the principal components regression pipeline of the notes (seed 004 §1.6).

    Standardise the features, keep the principal components whose cumulative proportion of
    variance is at most 95% (``PCA("cumulative:0.95")``), regress ``y`` on their scores by OLS.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Unfitted ``make_pipeline(StandardScaler(), PCA("cumulative:0.95"),
        LinearRegression())``.
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ..linear_model import LinearRegression

    return make_pipeline(StandardScaler(), PCA("cumulative:0.95"), LinearRegression())
