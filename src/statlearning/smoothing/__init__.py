"""Scatterplot smoothers: one predictor (or a few) and a flexible curve.

- :class:`SmoothingSpline`: the penalised cubic spline of R's ``smooth.spline`` (λ from df,
  spar or λ itself, or chosen by GCV/LOOCV), solved in ``O(n)``;
"""

from ._smoothing_spline import SmoothingSpline

__all__ = ["SmoothingSpline"]
