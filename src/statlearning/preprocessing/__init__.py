"""Basis expansions as scikit-learn transformers (R's ``poly``, ``cut``, ``bs``, ``ns``).

Each transformer expands every column of ``X`` into its own basis (no bias column, as R's
terms) and concatenates them; the knots, breaks or recurrence found at ``fit`` are kept, so
``transform`` on new data evaluates the same functions, as R's ``predict`` on a formula with
``bs(x, df = 6)``.

- :class:`PolynomialFeatures`: raw powers or R's orthogonal ``poly``;
- :class:`StepFeatures`: R's ``cut`` intervals, dummy coded;
- :class:`TruncatedPowerFeatures`: the notes' ``x, …, x^d, (x − ξ)₊^d`` basis;
- :class:`BSplineFeatures`, :class:`NaturalSplineFeatures`: R's ``bs`` and ``ns``;
- :func:`fit_basis`: a basis and a linear model fitted together (a :class:`BasisPipeline`),
  with R's ``summary`` and pointwise ±2se bands.
"""

from ._fit import BasisPipeline as BasisPipeline  # the type fit_basis returns
from ._fit import fit_basis
from ._polynomial import PolynomialFeatures, StepFeatures
from ._splines import BSplineFeatures, NaturalSplineFeatures, TruncatedPowerFeatures

__all__ = [
    "BSplineFeatures",
    "NaturalSplineFeatures",
    "PolynomialFeatures",
    "StepFeatures",
    "TruncatedPowerFeatures",
    "fit_basis",
]
