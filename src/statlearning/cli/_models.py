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
    rows : {"any", "rows", "class_rows", "one_feature"}, default="any"
        ``"rows"``: an unpenalised fit, undefined when ``p >= n``; ``"class_rows"``: a
        covariance matrix per class, undefined when a class has ``p`` rows or fewer;
        ``"one_feature"``: a smoother of one predictor, left out (with a note) when ``p > 1``.
    target : {"any", "positive", "nonnegative"}, default="any"
        The responses the model is defined for.
    cost : tuple of (float, float), default=(1, 1)
        One fit and prediction take time proportional to ``n**a * p**b``.
    binary_only : bool, default=False
        A classifier of two classes only, left out (with a note) on multi-class data.
    """

    name: str
    family: str
    estimator: str | Callable[[], Any]
    task: str
    description: str
    params: dict = field(default_factory=dict)
    needs_scaling: bool = False
    rows: str = "any"
    target: str = "any"
    cost: tuple = (1, 1)
    binary_only: bool = False


def best_subset_ols():
    """Best subset by BIC (leaps), then least squares on the chosen features."""
    from sklearn.pipeline import make_pipeline

    from ..feature_selection import BestSubsetSelector
    from ..linear_model import LinearRegression

    return make_pipeline(BestSubsetSelector(criterion="bic"), LinearRegression())


#: rpart's defaults (minsplit 20, minbucket 7, cp 0.01) as tree hyper-parameters.
_RPART = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}

LM, NB, DA, NN = "linear_model", "naive_bayes", "discriminant_analysis", "neighbors"
U, C = "rows", "class_rows"  # undefined when p >= n / when a class has p rows or fewer
REG, CLS = "regression", "classification"

#: Every model of the command line, grouped by family.
MODELS: tuple[Model, ...] = (
    # linear_model
    Model("linear_regression", LM, "LinearRegression", REG,
          "Ordinary least squares with R-style inference (lm)", rows=U, cost=(1, 2)),
    Model("logistic_regression", LM, "LogisticRegression", CLS,
          "Logistic regression by maximum likelihood with R-style inference (glm binomial); "
          "multinomial for K > 2", rows=U, cost=(1, 2)),
    Model("logistic_regression_l2", LM, "LogisticRegression", CLS,
          "L2-penalised logistic regression (C=1, L-BFGS)",
          {"penalty": "l2", "solver": "lbfgs"}, needs_scaling=True, cost=(1, 1)),
    Model("logistic_regression_l1", LM, "LogisticRegression", CLS,
          "Lasso logistic regression (C=1, glmnet-style coordinate descent)",
          {"penalty": "l1", "solver": "cd"}, needs_scaling=True, cost=(1, 1)),
    Model("perceptron", LM, "Perceptron", CLS,
          "Rosenblatt's perceptron (one-vs-rest for K > 2)", needs_scaling=True, cost=(1, 1)),
    Model("sgd_classifier", LM, "SGDClassifier", CLS,
          "Linear SVM (hinge loss, L2) trained by stochastic gradient descent, averaged "
          "iterate (one-vs-all for K > 2)", {"average": True, "random_state": 0},
          needs_scaling=True, cost=(1, 1)),
    Model("sgd_regressor", LM, "SGDRegressor", REG,
          "Least squares with an L2 penalty (alpha=1e-4) trained by stochastic gradient "
          "descent (rate eta0 / t^0.25)", {"random_state": 0},
          needs_scaling=True, cost=(1, 1)),
    Model("least_squares_classifier", LM, "LeastSquaresClassifier", CLS,
          "Linear regression on class indicators used as a classifier", rows=U, cost=(1, 2)),
    Model("ridge", LM, "Ridge", REG, "Ridge regression (L2 penalty, alpha=1), closed form",
          needs_scaling=True, cost=(1, 2)),
    Model("ridge_cv", LM, "RidgeCV", REG,
          "Ridge regression with alpha chosen by exact leave-one-out CV",
          {"alphas": (0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)},
          needs_scaling=True, cost=(1, 2)),
    Model("huber_regression", LM, "HuberRegressor", REG,
          "Huber-loss robust regression (delta=1.35 in units of y)", rows=U, cost=(1, 2)),
    Model("lad_regression", LM, "LADRegressor", REG,
          "Least absolute deviations (median) regression, exact LP (quantreg::rq)",
          rows=U, cost=(2, 2)),
    Model("bayesian_linear_regression", LM, "BayesianLinearRegression", REG,
          "Bayesian linear regression, prior precision and noise by evidence maximisation",
          {"estimate_hyperparameters": True}, needs_scaling=True, cost=(1, 3)),
    Model("lasso", LM, "Lasso", REG,
          "Lasso: L1-penalised least squares by coordinate descent (glmnet, alpha = 1)",
          needs_scaling=True, cost=(1, 1)),
    Model("elastic_net", LM, "ElasticNet", REG,
          "Elastic net: L1 + L2 penalised least squares by coordinate descent (glmnet)",
          needs_scaling=True, cost=(1, 1)),
    Model("lasso_cv", LM, "LassoCV", REG,
          "Lasso with the penalty chosen by cross-validation (cv.glmnet, lambda.min)",
          needs_scaling=True, cost=(1, 1)),
    Model("elastic_net_cv", LM, "ElasticNetCV", REG,
          "Elastic net with the penalty chosen by cross-validation (cv.glmnet)",
          needs_scaling=True, cost=(1, 1)),
    Model("glm_gamma_log", LM, "GLMRegressor", REG,
          "Gamma GLM with log link for positive responses, R-style inference (glm)",
          {"family": "gamma", "link": "log"}, rows=U, target="positive", cost=(1, 2)),
    # naive_bayes
    Model("gaussian_nb", NB, "GaussianNB", CLS,
          "Gaussian naive Bayes (independent normal features per class)", cost=(1, 1)),
    # discriminant_analysis
    Model("lda", DA, "LinearDiscriminantAnalysis", CLS,
          "Linear discriminant analysis, pooled covariance (MASS::lda)", rows=U, cost=(1, 2)),
    Model("qda", DA, "QuadraticDiscriminantAnalysis", CLS,
          "Quadratic discriminant analysis, one covariance per class (MASS::qda)",
          rows=C, cost=(1, 2)),
    # feature_selection
    Model("best_subset_ols", "feature_selection", best_subset_ols, REG,
          "Best subset by BIC (leaps), then least squares on the chosen features",
          rows=U, cost=(1, 3)),
    # cross_decomposition
    Model("pcr", "cross_decomposition", "PCRegression", REG,
          "Principal components regression on standardised X, components by 10-fold CV "
          "(pls::pcr)", {"n_components": "cv"}, cost=(1, 2)),
    Model("pls", "cross_decomposition", "PLSRegression", REG,
          "Partial least squares regression on standardised X, components by 10-fold CV "
          "(pls::plsr)", {"n_components": "cv"}, cost=(1, 2)),
    # neighbors
    Model("knn_classifier", NN, "KNeighborsClassifier", CLS,
          "k-nearest-neighbour vote (k = 5, Euclidean)", needs_scaling=True, cost=(2, 1)),
    Model("knn_regressor", NN, "KNeighborsRegressor", REG,
          "k-nearest-neighbour average (k = 5, Euclidean)", needs_scaling=True, cost=(2, 1)),
    Model("gaussian_bayes_classifier", NN, "BayesClassifier", CLS,
          "Plug-in Bayes rule, Gaussian class densities by maximum likelihood",
          rows=C, cost=(1, 2)),
    # tree
    Model("decision_tree_regressor", "tree", "DecisionTreeRegressor", REG,
          "CART regression tree (rpart defaults: minsplit 20, minbucket 7, cp 0.01)", _RPART,
          cost=(1.2, 1)),
    Model("decision_tree_classifier", "tree", "DecisionTreeClassifier", CLS,
          "CART classification tree, Gini (rpart defaults: minsplit 20, minbucket 7, cp 0.01)",
          _RPART, cost=(1.2, 1)),
    Model("decision_tree_regressor_cv", "tree", "DecisionTreeRegressorCV", REG,
          "CART regression tree pruned by 10-fold cross-validated cp (rpart xval)",
          {"cv": 10, "random_state": 0}, cost=(1.2, 1)),
    Model("decision_tree_classifier_cv", "tree", "DecisionTreeClassifierCV", CLS,
          "CART classification tree pruned by 10-fold cross-validated cp (rpart xval)",
          {"cv": 10, "random_state": 0}, cost=(1.2, 1)),
    # ensemble
    Model("random_forest_regressor", "ensemble", "RandomForestRegressor", REG,
          "Random forest, 100 unpruned trees, p/3 columns per split (R randomForest)",
          {"random_state": 0}, cost=(1.2, 1)),
    Model("random_forest_classifier", "ensemble", "RandomForestClassifier", CLS,
          "Random forest, 100 unpruned Gini trees, sqrt(p) columns per split",
          {"random_state": 0}, cost=(1.2, 1)),
    Model("bagging_regressor", "ensemble", "BaggingRegressor", REG,
          "Bagged unpruned regression trees (100 bootstrap samples)",
          {"n_estimators": 100, "random_state": 0}, cost=(1.2, 1)),
    Model("bagging_classifier", "ensemble", "BaggingClassifier", CLS,
          "Bagged unpruned classification trees (100 bootstrap samples, soft vote)",
          {"n_estimators": 100, "random_state": 0}, cost=(1.2, 1)),
    Model("adaboost_classifier", "ensemble", "AdaBoostClassifier", CLS,
          "AdaBoost (SAMME) with 100 stumps", {"n_estimators": 100}, cost=(1.2, 1)),
    Model("gradient_boosting_regressor", "ensemble", "GradientBoostingRegressor", REG,
          "Gradient boosting, squared error, 100 depth-3 trees, learning rate 0.1",
          {"n_estimators": 100, "max_depth": 3}, cost=(1.2, 1)),
    Model("gradient_boosting_classifier", "ensemble", "GradientBoostingClassifier", CLS,
          "Gradient boosting, log-loss, 100 depth-3 trees, learning rate 0.1",
          {"n_estimators": 100, "max_depth": 3}, cost=(1.2, 1)),
    # svm (SMO: about n² kernel evaluations of p multiply-adds)
    Model("svc", "svm", "SVC", CLS,
          "Support vector classifier, RBF kernel (C=1, gamma='scale'), one-vs-one, own SMO",
          needs_scaling=True, cost=(2, 1)),
    Model("svr", "svm", "SVR", REG,
          "Epsilon-support vector regression, RBF kernel (C=1, epsilon=0.1), own SMO",
          needs_scaling=True, cost=(2, 1)),
    # kernel_methods
    Model("kernel_ridge", "kernel_methods", "KernelRidge", REG,
          "Kernel ridge regression, RBF kernel (gamma = 1/p), alpha = 1, unpenalised intercept",
          {"kernel": "rbf", "fit_intercept": True}, needs_scaling=True, cost=(3, 0)),
    Model("kernel_logistic", "kernel_methods", "KernelLogisticRegression", CLS,
          "Kernel logistic regression, RBF kernel (gamma = 'scale'), C = 1, Newton; "
          "multinomial for K > 2", needs_scaling=True, cost=(3, 0)),
    # mars (forward pass: n·p·M² per step for M terms, M ≤ 21 for p ≤ 10)
    Model("mars", "mars", "MARSRegressor", REG,
          "MARS as R's earth: additive hinge terms, forward pass then GCV pruning",
          cost=(1, 1.2)),
    Model("mars_classifier", "mars", "MARSClassifier", CLS,
          "MARS terms as R's earth, then a binomial GLM per class (earth glm=binomial)",
          cost=(1, 1.2)),
    # gam (n·q² per iteration for q ≤ 10 p coefficients)
    Model("gam", "gam", "GAMRegressor", REG,
          "Additive model as mgcv's gam: cubic regression splines (k <= 10) on numeric "
          "features, dummies linear, smoothing parameters by GCV", cost=(1, 2)),
    Model("gam_classifier", "gam", "GAMClassifier", CLS,
          "Additive logistic regression as mgcv's gam(family = binomial): cubic regression "
          "splines, smoothing parameters by UBRE; two classes only", cost=(1, 2),
          binary_only=True),
    # smoothing
    Model("smoothing_spline", "smoothing", "SmoothingSpline", REG,
          "Cubic smoothing spline of one feature, lambda by GCV (smooth.spline); "
          "left out when p > 1", rows="one_feature", cost=(1, 0)),
    # neural_network
    Model("mlp_classifier", "neural_network", "MLPClassifier", CLS,
          "Multilayer perceptron, one hidden layer of 100 ReLU units, Adam, early stopping "
          "on 10% held out", {"early_stopping": True, "max_iter": 500}, needs_scaling=True,
          cost=(1, 1)),
    # L-BFGS: a target far from 0 (life expectancy ~70) stalls Adam's steps of ~1e-3
    Model("mlp_regressor", "neural_network", "MLPRegressor", REG,
          "Multilayer perceptron, one hidden layer of 100 ReLU units, L-BFGS, L2 penalty "
          "alpha = 1", {"solver": "lbfgs", "alpha": 1.0, "max_iter": 500}, needs_scaling=True,
          cost=(1, 1)),
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
                rows=model.rows,
                target=model.target,
                cost=model.cost,
                binary_only=model.binary_only,
            )
            names.append(model.name)
    return names
