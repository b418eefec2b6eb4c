"""Scatterplot smoothers: one predictor (or a few) and a flexible curve.

- :class:`SmoothingSpline`: the penalised cubic spline of R's ``smooth.spline`` (λ from df,
  spar or λ itself, or chosen by GCV/LOOCV), solved in ``O(n)``;
- :class:`LocalRegression`: R's ``loess`` (``surface = "direct"``), degree 0–2, Gaussian or
  robust (``"symmetric"``), up to four columns;
- :class:`KernelRegression`: the Nadaraya–Watson locally weighted average with a Gaussian
  kernel, its bandwidth chosen by leave-one-out CV.
"""

from ._kernel_regression import KernelRegression
from ._loess import LocalRegression
from ._smoothing_spline import SmoothingSpline

__all__ = ["KernelRegression", "LocalRegression", "SmoothingSpline"]
