"""Cross-decomposition: partial least squares, principal components regression, canonical
correlation analysis (linear and kernel).

:class:`PLSRegression` and :class:`PCRegression` follow R's ``pls`` package (``plsr``, ``pcr``:
coefficients on the raw predictors, cross-validated RMSEP with ``pls``'s segments, ``summary``);
:class:`CCA` follows R's ``cancor``; :class:`PLSCanonical` scikit-learn's estimator of that name;
:class:`KernelCCA` the regularised kernel CCA of seed 002 (14.7–14.15).
"""

from ._cca import CCA, KernelCCA
from ._pcr import PCRegression
from ._pls import PLSCanonical, PLSRegression
from ._summary import ComponentSummary

__all__ = ["CCA", "ComponentSummary", "KernelCCA", "PCRegression", "PLSCanonical", "PLSRegression"]
