"""Decision trees (CART), with rpart's complexity parameter and printed layout.

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`: exhaustive best splits,
  ``x < threshold`` to the left, deterministic ties, rpart's ``cp``;
- :func:`export_text`: rpart's ``print()`` layout or an indented layout;
- :class:`Tree`: the fitted node arrays (``estimator.tree_``).
"""

from .._registry import register_model
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._export import export_text
from ._structure import Tree

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "Tree", "export_text"]

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
