"""R-style model formulas, on formulaic: ``lm("y ~ x1 + C(g) + bs(x2, df = 4)", data)``.

* :func:`lm`, :func:`glm`, :func:`gam`: models fitted through a formula, returned as a
  :class:`FormulaFit` (the fitted statlearning estimator, R's call, prediction from data
  frames) whose summary prints exactly as R's, coefficient names included (``gB``,
  ``x1:x2``, ``poly(x, 2)1``, ``bs(x2, df = 4)1``);
* :class:`FormulaTransformer`: the design of a formula in scikit-learn pipelines;
* :func:`register_transform`: a function of one's own inside formulas (the bases ``poly``,
  ``bs`` and ``ns`` are R's, from :mod:`statlearning.preprocessing`).

Needs the optional dependency formulaic (``pip install 'statlearning[formula]'``).
"""

from ._design import FormulaTransformer
from ._gam import gam
from ._models import FormulaFit, glm, lm
from ._transforms import register_transform

__all__ = ["FormulaFit", "FormulaTransformer", "gam", "glm", "lm", "register_transform"]
