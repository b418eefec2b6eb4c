"""Statistical output shared by every estimator with classical inference.

:class:`Summary` and :class:`CoefTable` print like R's ``summary(lm)`` / ``summary(glm)``, render
as HTML in notebooks (``_repr_html_``) and convert to pandas with ``to_frame()``.
"""

from ._anova import AnovaTable
from ._tables import CoefTable, Summary

__all__ = ["AnovaTable", "CoefTable", "Summary"]
