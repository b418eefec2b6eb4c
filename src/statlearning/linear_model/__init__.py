"""Linear models: least squares with R-grade inference (more of the family arrives here:
penalised, robust, Bayesian, logistic and generalised linear models)."""

from .._registry import register_model
from ._least_squares import LinearRegression

__all__ = ["LinearRegression"]

register_model(
    "linear_regression",
    LinearRegression,
    task="regression",
    description="Ordinary least squares with R-style inference (lm)",
    family="linear_model",
)
