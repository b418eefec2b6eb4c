"""Ensembles of trees: bagging, random forests and boosting.

- :class:`BaggingClassifier`, :class:`BaggingRegressor`: bootstrap aggregation of any estimator
  (default: unpruned CART trees), probability averaging or majority vote, out-of-bag
  predictions, score and error curve;
- :class:`RandomForestClassifier`, :class:`RandomForestRegressor`: Breiman's random forests
  (R's ``randomForest``), with OOB error curve, MDI and OOB permutation importance;
- :func:`oob_permutation_importance`: Breiman's or the lecture notes' (Algorithm 7) OOB
  permutation importance; :func:`split_level_importance`: inverse-split-level importance;
- :class:`AdaBoostClassifier`: discrete AdaBoost (SAMME for several classes), stumps by default;
- :class:`GradientBoostingRegressor`, :class:`GradientBoostingClassifier`: Friedman's gradient
  boosting (squared, absolute, Huber and log-loss), ISLR's algorithm with ``init="zero"``.
"""

from .._registry import register_model
from ._bagging import BaggingClassifier, BaggingRegressor
from ._forest import RandomForestClassifier, RandomForestRegressor
from ._gradient_boosting import GradientBoostingClassifier, GradientBoostingRegressor
from ._importance import oob_permutation_importance, split_level_importance
from ._weight_boosting import AdaBoostClassifier

__all__ = [
    "AdaBoostClassifier",
    "BaggingClassifier",
    "BaggingRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "oob_permutation_importance",
    "split_level_importance",
]

register_model(
    "random_forest_regressor",
    lambda: RandomForestRegressor(random_state=0),
    task="regression",
    description="Random forest, 100 unpruned trees, p/3 columns per split (R randomForest)",
    family="ensemble",
)
register_model(
    "random_forest_classifier",
    lambda: RandomForestClassifier(random_state=0),
    task="classification",
    description="Random forest, 100 unpruned Gini trees, sqrt(p) columns per split",
    family="ensemble",
)
register_model(
    "bagging_regressor",
    lambda: BaggingRegressor(n_estimators=100, random_state=0),
    task="regression",
    description="Bagged unpruned regression trees (100 bootstrap samples)",
    family="ensemble",
)
register_model(
    "bagging_classifier",
    lambda: BaggingClassifier(n_estimators=100, random_state=0),
    task="classification",
    description="Bagged unpruned classification trees (100 bootstrap samples, soft vote)",
    family="ensemble",
)
register_model(
    "adaboost_classifier",
    lambda: AdaBoostClassifier(n_estimators=100),
    task="classification",
    description="AdaBoost (SAMME) with 100 stumps",
    family="ensemble",
)
register_model(
    "gradient_boosting_regressor",
    lambda: GradientBoostingRegressor(n_estimators=100, max_depth=3),
    task="regression",
    description="Gradient boosting, squared error, 100 depth-3 trees, learning rate 0.1",
    family="ensemble",
)
register_model(
    "gradient_boosting_classifier",
    lambda: GradientBoostingClassifier(n_estimators=100, max_depth=3),
    task="classification",
    description="Gradient boosting, log-loss, 100 depth-3 trees, learning rate 0.1",
    family="ensemble",
)
