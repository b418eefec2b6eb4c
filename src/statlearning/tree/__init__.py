"""Decision trees (CART), with rpart's complexity parameter and printed layout.

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`: exhaustive best splits,
  ``x < threshold`` to the left, deterministic ties, rpart's ``cp``, scikit-learn's
  ``ccp_alpha`` and pruning path, rpart's cross-validated cp table (``xval``);
- :class:`DecisionTreeClassifierCV`, :class:`DecisionTreeRegressorCV`: the subtree chosen by
  cross-validation (minimum error or the one-SE rule);
- :func:`export_text`: rpart's ``print()`` layout or an indented layout;
- :class:`Tree`: the fitted node arrays (``estimator.tree_``).
"""

from .._registry import register_model
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._cv import DecisionTreeClassifierCV, DecisionTreeRegressorCV
from ._export import export_text
from ._structure import Tree

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeClassifierCV",
    "DecisionTreeRegressor",
    "DecisionTreeRegressorCV",
    "Tree",
    "export_text",
]

_RPART_DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}


def _rpart_regression_tree():
    """A regression tree with rpart's defaults (minsplit 20, minbucket 7, cp 0.01)."""
    return DecisionTreeRegressor(**_RPART_DEFAULTS)


def _rpart_classification_tree():
    """A classification tree with rpart's defaults (minsplit 20, minbucket 7, cp 0.01)."""
    return DecisionTreeClassifier(**_RPART_DEFAULTS)

register_model(
    "decision_tree_regressor",
    _rpart_regression_tree,
    task="regression",
    description="CART regression tree (rpart defaults: minsplit 20, minbucket 7, cp 0.01)",
    family="tree",
)
register_model(
    "decision_tree_classifier",
    _rpart_classification_tree,
    task="classification",
    description="CART classification tree, Gini (rpart defaults: minsplit 20, minbucket 7,"
    " cp 0.01)",
    family="tree",
)
register_model(
    "decision_tree_regressor_cv",
    lambda: DecisionTreeRegressorCV(cv=10, random_state=0),
    task="regression",
    description="CART regression tree pruned by 10-fold cross-validated cp (rpart xval)",
    family="tree",
)
register_model(
    "decision_tree_classifier_cv",
    lambda: DecisionTreeClassifierCV(cv=10, random_state=0),
    task="classification",
    description="CART classification tree pruned by 10-fold cross-validated cp (rpart xval)",
    family="tree",
)
