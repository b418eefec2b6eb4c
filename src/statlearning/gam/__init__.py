"""Generalised additive models: penalised regression splines as mgcv, and their terms.

:class:`GAMRegressor` and :class:`GAMClassifier` fit ``g(μ) = β₀ + Σ f_j(x_j)`` with smooth
terms :func:`s` (cubic regression or B-spline bases with mgcv's penalties and constraints) and
:func:`te` (tensor products), linear terms :func:`l` and factors :func:`f`, choosing several
smoothing parameters by GCV/UBRE or REML (mgcv's ``gam``); :func:`ss` and :func:`lo` are the
smoothers of R gam's backfitting.
"""

from ._classes import GAMClassifier, GAMRegressor
from ._terms import Terms, f, l, lo, s, ss, te

__all__ = ["GAMClassifier", "GAMRegressor", "Terms", "f", "l", "lo", "s", "ss", "te"]
