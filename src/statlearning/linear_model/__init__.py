"""Linear models: least squares with R-grade inference, logistic regression, the perceptron and
the least-squares classifier (penalised, robust, Bayesian and generalised linear models arrive here
too)."""

from .._registry import register_model
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
    "deviance_table",
    "enet_path",
    "lasso_path",
]

register_model(
    "linear_regression",
    LinearRegression,
    task="regression",
    description="Ordinary least squares with R-style inference (lm)",
    family="linear_model",
)
register_model(
    "logistic_regression",
    LogisticRegression,
    task="classification",
    description="Logistic regression by maximum likelihood with R-style inference (glm "
    "binomial); multinomial for K > 2",
    family="linear_model",
)
register_model(
    "logistic_regression_l2",
    lambda: LogisticRegression(penalty="l2", solver="lbfgs"),
    task="classification",
    description="L2-penalised logistic regression (C=1, L-BFGS)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "logistic_regression_l1",
    lambda: LogisticRegression(penalty="l1", solver="cd"),
    task="classification",
    description="Lasso logistic regression (C=1, glmnet-style coordinate descent)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "perceptron",
    Perceptron,
    task="classification",
    description="Rosenblatt's perceptron (one-vs-rest for K > 2)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "least_squares_classifier",
    LeastSquaresClassifier,
    task="classification",
    description="Linear regression on class indicators used as a classifier",
    family="linear_model",
)
register_model(
    "ridge",
    Ridge,
    task="regression",
    description="Ridge regression (L2 penalty, alpha=1), closed form",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "ridge_cv",
    lambda: RidgeCV(alphas=(0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)),
    task="regression",
    description="Ridge regression with alpha chosen by exact leave-one-out CV",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "huber_regression",
    HuberRegressor,
    task="regression",
    description="Huber-loss robust regression (delta=1.35 in units of y)",
    family="linear_model",
)
register_model(
    "lad_regression",
    LADRegressor,
    task="regression",
    description="Least absolute deviations (median) regression, exact LP (quantreg::rq)",
    family="linear_model",
)
register_model(
    "bayesian_linear_regression",
    lambda: BayesianLinearRegression(estimate_hyperparameters=True),
    task="regression",
    description="Bayesian linear regression, prior precision and noise by evidence maximisation",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "lasso",
    Lasso,
    task="regression",
    description="Lasso: L1-penalised least squares by coordinate descent (glmnet, alpha = 1)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "elastic_net",
    ElasticNet,
    task="regression",
    description="Elastic net: L1 + L2 penalised least squares by coordinate descent (glmnet)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "lasso_cv",
    LassoCV,
    task="regression",
    description="Lasso with the penalty chosen by cross-validation (cv.glmnet, lambda.min)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "elastic_net_cv",
    ElasticNetCV,
    task="regression",
    description="Elastic net with the penalty chosen by cross-validation (cv.glmnet)",
    family="linear_model",
    needs_scaling=True,
)
register_model(
    "glm_gamma_log",
    lambda: GLMRegressor(family="gamma", link="log"),
    task="regression",
    description="Gamma GLM with log link for positive responses, R-style inference (glm)",
    family="linear_model",
)
