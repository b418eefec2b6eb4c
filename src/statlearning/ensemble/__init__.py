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
