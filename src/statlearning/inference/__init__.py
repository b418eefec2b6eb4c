"""Statistical output shared by every estimator with classical inference.

:class:`Summary` and :class:`CoefTable` print like R's ``summary(lm)`` / ``summary(glm)``, render
as HTML in notebooks (``_repr_html_``) and convert to pandas with ``to_frame()``. The private
``_builder`` module computes what they show (Wald standard errors, tests, intervals, the fit
statistics named as the ``stats`` keys) for every estimator with a coefficient table.
:func:`influence_measures` gives the leverages, standardised residuals and Cook's distances of a
linear design (R's ``hatvalues``, ``rstandard``, ``cooks.distance``).
"""

from ._anova import AnovaTable
from ._influence import Influence, influence_measures
from ._tables import CoefTable, Summary

__all__ = ["AnovaTable", "CoefTable", "Influence", "Summary", "influence_measures"]
