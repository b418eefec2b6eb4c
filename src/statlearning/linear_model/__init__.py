"""Linear models: least squares with R-grade inference (more of the family arrives here:
penalised, robust, Bayesian, logistic and generalised linear models)."""

from ._least_squares import LinearRegression

__all__ = ["LinearRegression"]
