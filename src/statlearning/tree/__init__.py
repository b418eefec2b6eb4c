"""Decision trees (CART), with rpart's complexity parameter and printed layout.

- :class:`DecisionTreeClassifier`, :class:`DecisionTreeRegressor`: exhaustive best splits,
  ``x < threshold`` to the left, deterministic ties, rpart's ``cp``, scikit-learn's
  ``ccp_alpha`` and pruning path, rpart's cross-validated cp table (``xval``);
- :class:`DecisionTreeClassifierCV`, :class:`DecisionTreeRegressorCV`: the subtree chosen by
  cross-validation (minimum error or the one-SE rule);
- :func:`export_text`: rpart's ``print()`` layout or an indented layout;
- :class:`Tree`: the fitted node arrays (``estimator.tree_``).
"""

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
