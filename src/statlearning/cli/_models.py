"""The models the command line offers (``statlearning models``, ``compare``, ``fit``): one table.

The estimator families know nothing of the command line: this table names, for each model, the
family subpackage, the public estimator (a class name and its hyper-parameters, or a function
building a pipeline), the task and a one-line description. :func:`register_family` registers the
rows of one family in :mod:`statlearning._registry` once the family has been imported (a family
whose optional dependency is missing is skipped by :func:`statlearning._registry.load_families`,
and its rows with it). A new model is one new row here.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._registry import register_model

__all__ = ["MODELS", "Model", "register_family"]


@dataclass(frozen=True)
class Model:
    """One row of the table.

    Parameters
    ----------
    name : str
        Command-line name (snake case).
    family : str
        The subpackage that provides the estimator.
    estimator : str or callable
        The name of a public class of ``family`` (built with ``params``), or a function
        without arguments that returns a fresh estimator (a pipeline).
    task : {"regression", "classification"}
    description : str
        One line, shown by ``statlearning models``.
    params : dict
        Hyper-parameters given to the class (none: its defaults).
    needs_scaling : bool, default=False
        ``compare`` and ``fit`` standardise the features first.
    """

    name: str
    family: str
    estimator: str | Callable[[], Any]
    task: str
    description: str
    params: dict = field(default_factory=dict)
    needs_scaling: bool = False


def best_subset_ols():
    """Best subset by BIC (leaps), then least squares on the chosen features."""
    from sklearn.pipeline import make_pipeline

    from ..feature_selection import BestSubsetSelector
    from ..linear_model import LinearRegression

    return make_pipeline(BestSubsetSelector(criterion="bic"), LinearRegression())


def principal_components_regression():
    """PCR as the notes define it: standardise, PCA (cumulative:0.95), OLS on the scores."""
    from ..decomposition import principal_components_regression as pcr

    return pcr()


#: rpart's defaults (minsplit 20, minbucket 7, cp 0.01) as tree hyper-parameters.
_RPART = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}

LM, NB, DA, NN = "linear_model", "naive_bayes", "discriminant_analysis", "neighbors"
REG, CLS = "regression", "classification"

#: Every model of the command line, grouped by family.
MODELS: tuple[Model, ...] = (
    # linear_model
    Model("linear_regression", LM, "LinearRegression", REG,
          "Ordinary least squares with R-style inference (lm)"),
    Model("logistic_regression", LM, "LogisticRegression", CLS,
          "Logistic regression by maximum likelihood with R-style inference (glm binomial); "
          "multinomial for K > 2"),
    Model("logistic_regression_l2", LM, "LogisticRegression", CLS,
          "L2-penalised logistic regression (C=1, L-BFGS)",
          {"penalty": "l2", "solver": "lbfgs"}, needs_scaling=True),
    Model("logistic_regression_l1", LM, "LogisticRegression", CLS,
          "Lasso logistic regression (C=1, glmnet-style coordinate descent)",
          {"penalty": "l1", "solver": "cd"}, needs_scaling=True),
    Model("perceptron", LM, "Perceptron", CLS,
          "Rosenblatt's perceptron (one-vs-rest for K > 2)", needs_scaling=True),
    Model("least_squares_classifier", LM, "LeastSquaresClassifier", CLS,
          "Linear regression on class indicators used as a classifier"),
    Model("ridge", LM, "Ridge", REG, "Ridge regression (L2 penalty, alpha=1), closed form",
          needs_scaling=True),
    Model("ridge_cv", LM, "RidgeCV", REG,
          "Ridge regression with alpha chosen by exact leave-one-out CV",
          {"alphas": (0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)}, needs_scaling=True),
    Model("huber_regression", LM, "HuberRegressor", REG,
          "Huber-loss robust regression (delta=1.35 in units of y)"),
    Model("lad_regression", LM, "LADRegressor", REG,
          "Least absolute deviations (median) regression, exact LP (quantreg::rq)"),
    Model("bayesian_linear_regression", LM, "BayesianLinearRegression", REG,
          "Bayesian linear regression, prior precision and noise by evidence maximisation",
          {"estimate_hyperparameters": True}, needs_scaling=True),
    Model("lasso", LM, "Lasso", REG,
          "Lasso: L1-penalised least squares by coordinate descent (glmnet, alpha = 1)",
          needs_scaling=True),
    Model("elastic_net", LM, "ElasticNet", REG,
          "Elastic net: L1 + L2 penalised least squares by coordinate descent (glmnet)",
          needs_scaling=True),
    Model("lasso_cv", LM, "LassoCV", REG,
          "Lasso with the penalty chosen by cross-validation (cv.glmnet, lambda.min)",
          needs_scaling=True),
    Model("elastic_net_cv", LM, "ElasticNetCV", REG,
          "Elastic net with the penalty chosen by cross-validation (cv.glmnet)",
          needs_scaling=True),
    Model("glm_gamma_log", LM, "GLMRegressor", REG,
          "Gamma GLM with log link for positive responses, R-style inference (glm)",
          {"family": "gamma", "link": "log"}),
    # naive_bayes
    Model("gaussian_nb", NB, "GaussianNB", CLS,
          "Gaussian naive Bayes (independent normal features per class)"),
    # discriminant_analysis
    Model("lda", DA, "LinearDiscriminantAnalysis", CLS,
          "Linear discriminant analysis, pooled covariance (MASS::lda)"),
    Model("qda", DA, "QuadraticDiscriminantAnalysis", CLS,
          "Quadratic discriminant analysis, one covariance per class (MASS::qda)"),
    # feature_selection
    Model("best_subset_ols", "feature_selection", best_subset_ols, REG,
          "Best subset by BIC (leaps), then least squares on the chosen features"),
    # decomposition
    Model("pcr", "decomposition", principal_components_regression, REG,
          "Principal components regression: standardise, PCA (cumulative:0.95), OLS"),
    # neighbors
    Model("knn_classifier", NN, "KNeighborsClassifier", CLS,
          "k-nearest-neighbour vote (k = 5, Euclidean)", needs_scaling=True),
    Model("knn_regressor", NN, "KNeighborsRegressor", REG,
          "k-nearest-neighbour average (k = 5, Euclidean)", needs_scaling=True),
    Model("gaussian_bayes_classifier", NN, "BayesClassifier", CLS,
          "Plug-in Bayes rule, Gaussian class densities by maximum likelihood"),
    # tree
    Model("decision_tree_regressor", "tree", "DecisionTreeRegressor", REG,
          "CART regression tree (rpart defaults: minsplit 20, minbucket 7, cp 0.01)", _RPART),
    Model("decision_tree_classifier", "tree", "DecisionTreeClassifier", CLS,
          "CART classification tree, Gini (rpart defaults: minsplit 20, minbucket 7, cp 0.01)",
          _RPART),
    Model("decision_tree_regressor_cv", "tree", "DecisionTreeRegressorCV", REG,
          "CART regression tree pruned by 10-fold cross-validated cp (rpart xval)",
          {"cv": 10, "random_state": 0}),
    Model("decision_tree_classifier_cv", "tree", "DecisionTreeClassifierCV", CLS,
          "CART classification tree pruned by 10-fold cross-validated cp (rpart xval)",
          {"cv": 10, "random_state": 0}),
    # ensemble
    Model("random_forest_regressor", "ensemble", "RandomForestRegressor", REG,
          "Random forest, 100 unpruned trees, p/3 columns per split (R randomForest)",
          {"random_state": 0}),
    Model("random_forest_classifier", "ensemble", "RandomForestClassifier", CLS,
          "Random forest, 100 unpruned Gini trees, sqrt(p) columns per split",
          {"random_state": 0}),
    Model("bagging_regressor", "ensemble", "BaggingRegressor", REG,
          "Bagged unpruned regression trees (100 bootstrap samples)",
          {"n_estimators": 100, "random_state": 0}),
    Model("bagging_classifier", "ensemble", "BaggingClassifier", CLS,
          "Bagged unpruned classification trees (100 bootstrap samples, soft vote)",
          {"n_estimators": 100, "random_state": 0}),
    Model("adaboost_classifier", "ensemble", "AdaBoostClassifier", CLS,
          "AdaBoost (SAMME) with 100 stumps", {"n_estimators": 100}),
    Model("gradient_boosting_regressor", "ensemble", "GradientBoostingRegressor", REG,
          "Gradient boosting, squared error, 100 depth-3 trees, learning rate 0.1",
          {"n_estimators": 100, "max_depth": 3}),
    Model("gradient_boosting_classifier", "ensemble", "GradientBoostingClassifier", CLS,
          "Gradient boosting, log-loss, 100 depth-3 trees, learning rate 0.1",
          {"n_estimators": 100, "max_depth": 3}),
    # svm
    Model("svc", "svm", "SVC", CLS,
          "Support vector classifier, RBF kernel (C=1, gamma='scale'), one-vs-one, own SMO",
          needs_scaling=True),
    Model("svr", "svm", "SVR", REG,
          "Epsilon-support vector regression, RBF kernel (C=1, epsilon=0.1), own SMO",
          needs_scaling=True),
    # kernel_methods
    Model("kernel_ridge", "kernel_methods", "KernelRidge", REG,
          "Kernel ridge regression, RBF kernel (gamma = 1/p), alpha = 1, unpenalised intercept",
          {"kernel": "rbf", "fit_intercept": True}, needs_scaling=True),
    Model("kernel_logistic", "kernel_methods", "KernelLogisticRegression", CLS,
          "Kernel logistic regression, RBF kernel (gamma = 'scale'), C = 1, Newton; "
          "multinomial for K > 2", needs_scaling=True),
)  # fmt: skip


def _factory(model: Model):
    """A callable returning a fresh estimator (the class itself when it has no params)."""
    if callable(model.estimator):
        return model.estimator
    cls = getattr(importlib.import_module(f"statlearning.{model.family}"), model.estimator)
    return functools.partial(cls, **model.params) if model.params else cls


def register_family(family: str) -> list[str]:
    """Register every row of ``family`` in the model registry; return their names."""
    names = []
    for model in MODELS:
        if model.family == family:
            register_model(
                model.name,
                _factory(model),
                task=model.task,
                description=model.description,
                family=model.family,
                needs_scaling=model.needs_scaling,
            )
            names.append(model.name)
    return names
