"""Linear models: least squares with R-grade inference, logistic regression, the perceptron and
the least-squares classifier (penalised, robust, Bayesian and generalised linear models arrive here
too)."""

from ._bayes import BayesianLinearRegression
from ._coordinate_descent import ElasticNet, Lasso, enet_path, lasso_path
from ._coordinate_descent_cv import ElasticNetCV, LassoCV
from ._glm import GLMRegressor
from ._glm_anova import deviance_table
from ._least_squares import LinearRegression
from ._logistic import LogisticRegression
from ._perceptron import LeastSquaresClassifier, Perceptron
from ._ridge import Ridge, RidgeCV
from ._robust import HuberRegressor, LADRegressor
from ._sgd import SGDRegressor
from ._sgd_classifier import SGDClassifier

__all__ = [
    "BayesianLinearRegression",
    "ElasticNet",
    "ElasticNetCV",
    "GLMRegressor",
    "HuberRegressor",
    "LADRegressor",
    "Lasso",
    "LassoCV",
    "LeastSquaresClassifier",
    "LinearRegression",
    "LogisticRegression",
    "Perceptron",
    "Ridge",
    "RidgeCV",
    "SGDClassifier",
    "SGDRegressor",
    "deviance_table",
    "enet_path",
    "lasso_path",
]
