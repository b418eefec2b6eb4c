"""CART decision trees: :class:`DecisionTreeClassifier` and :class:`DecisionTreeRegressor`."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from .._core.class_labels import encode_class_labels
from .._validation import Interval, Options, RandomState, check_sample_weight
from ..base import ClassifierMixin, RegressorMixin, StatBase, fit_context
from ._builder import build_tree
from ._criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA
from ._structure import TREE_LEAF, apply_tree, decision_path_tree, prune_weakest_link

_COMMON_CONSTRAINTS = {
    "max_depth": [None, Interval(Integral, 1, None, closed="left")],
    "min_samples_split": [Interval(Integral, 2, None, closed="left")],
    "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
    "min_impurity_decrease": [Interval(Real, 0, None, closed="left")],
    "max_leaf_nodes": [None, Interval(Integral, 2, None, closed="left")],
    "cp": [Interval(Real, 0, None, closed="left")],
    "max_features": [
        None,
        Options({"sqrt", "log2"}),
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0, 1, closed="right"),
    ],
    "random_state": [RandomState()],
}

_NOTES_COMMON = """
    Growth: every node with at least ``min_samples_split`` rows is split by the exhaustive
    search over the midpoints between consecutive distinct values of every candidate column,
    keeping the split that maximises the weighted impurity decrease
    :math:`W_t i(t) - W_L i(L) - W_R i(R)` subject to at least ``min_samples_leaf`` rows in
    each child. ``x < threshold`` goes to the left child (scikit-learn sends
    ``x <= threshold`` left; with midpoint thresholds the training partition is the same).
    Ties keep the earlier column, then the smaller threshold. ``min_impurity_decrease`` is
    scikit-learn's (the decrease divided by the total weight); ``max_leaf_nodes`` switches to
    best-first growth. ``cp`` is rpart's complexity parameter: after growth the tree is
    replaced by its weakest-link subtree at :math:`\\alpha = cp \\cdot R(\\text{root})`, so
    every remaining split improves the risk :math:`R` by more than ``cp`` times the root's
    risk per extra leaf. ``sample_weight`` are frequency weights: rows of zero weight are
    dropped and the ``min_samples_*`` rules compare a node's total weight, so integer
    weights are exactly repeated rows and an unweighted fit counts rows as rpart's
    ``minsplit``/``minbucket`` and scikit-learn do (with fractional weights, rescale them to
    mean one to keep the row-count reading).

    Mapping to R: ``rpart(..., control = rpart.control(minsplit, minbucket, cp, maxdepth))``
    is ``min_samples_split=minsplit, min_samples_leaf=minbucket, cp=cp, max_depth=maxdepth``
    (rpart's defaults 20, 7 and 0.01 must be given explicitly: our defaults are
    scikit-learn's, with no pruning). rpart's printed node numbering (children ``2k`` and
    ``2k + 1``, the child with the smaller mean first) is reproduced by
    :func:`statlearning.tree.export_text`.

    Missing values are not supported yet: ``NaN`` in ``X`` raises a ``ValueError``
    (surrogate splits are planned). Cost-complexity pruning paths, categorical splits and
    ``ccp_alpha`` are planned as well.
"""


def _resolve_max_features(max_features, n_features: int) -> int:
    if max_features is None:
        return n_features
    if max_features == "sqrt":
        return max(1, int(math.sqrt(n_features)))
    if max_features == "log2":
        return max(1, int(math.log2(n_features)))
    if isinstance(max_features, Integral):
        if max_features > n_features:
            raise ValueError(
                f"max_features={max_features} exceeds the number of features ({n_features})."
            )
        return int(max_features)
    return max(1, int(max_features * n_features))


class _BaseTree(StatBase):
    _criteria: dict = {}

    def _fit_tree(self, X, y, codes, w, n_classes):
        crit = self._criteria[self.criterion]
        rng = check_random_state(self.random_state)
        tree = build_tree(
            X, y, codes, w, crit=crit, n_classes=n_classes, max_depth=self.max_depth,
            min_samples_split=self.min_samples_split, min_samples_leaf=self.min_samples_leaf,
            min_impurity_decrease=self.min_impurity_decrease,
            max_leaf_nodes=self.max_leaf_nodes,
            max_features=_resolve_max_features(self.max_features, X.shape[1]), rng=rng,
        )
        if self.cp > 0:
            tree = prune_weakest_link(tree, self.cp * tree.risk[0])
        self.tree_ = tree
        self.max_features_ = _resolve_max_features(self.max_features, X.shape[1])
        self.feature_importances_ = _mdi(tree, X.shape[1])

    def _validate_X_predict(self, X):
        check_is_fitted(self, "tree_")
        return validate_data(self, X, reset=False, dtype=np.float64)

    def apply(self, X) -> np.ndarray:
        """Index (into ``tree_`` arrays) of the leaf each sample lands in."""
        X = self._validate_X_predict(X)
        t = self.tree_
        return apply_tree(t.children_left, t.children_right, t.feature, t.threshold, X)

    def decision_path(self, X):
        """Sparse CSR indicator ``(n_samples, n_nodes)`` of the nodes each sample visits."""
        X = self._validate_X_predict(X)
        t = self.tree_
        return decision_path_tree(t.children_left, t.children_right, t.feature, t.threshold, X)

    def get_depth(self) -> int:
        """Depth of the tree (0 for a single leaf)."""
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves


def _mdi(tree, n_features: int) -> np.ndarray:
    """Mean decrease in impurity, normalised to sum to one (zeros for a single leaf)."""
    imp = np.zeros(n_features)
    internal = np.flatnonzero(tree.children_left != TREE_LEAF)
    if internal.size:
        wi = tree.weighted_n_node_samples * tree.impurity
        dec = wi[internal] - wi[tree.children_left[internal]] - wi[tree.children_right[internal]]
        np.add.at(imp, tree.feature[internal], np.maximum(dec, 0.0))
    total = imp.sum()
    return imp / total if total > 0 else imp


class DecisionTreeRegressor(RegressorMixin, _BaseTree):
    """CART regression tree (rpart's ``method = "anova"``).

    Parameters
    ----------
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
        Node impurity: weighted variance (leaves predict the mean) or weighted mean absolute
        deviation about the median (leaves predict the weighted median). The absolute-error
        search costs O(m² log m) per column in a node of m rows: meant for small data.
    max_depth : int, default=None
        Maximum depth (root at depth 0); ``None`` for no limit.
    min_samples_split : int, default=2
        A node with fewer rows (smaller total weight) is not split (rpart's ``minsplit``).
    min_samples_leaf : int, default=1
        Minimum rows (total weight) in each child (rpart's ``minbucket``).
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity, divided by the total weight, by at least
        this much.
    max_leaf_nodes : int, default=None
        Grow best-first up to this many leaves.
    cp : float, default=0.0
        rpart's complexity parameter on the SSE scale (``0`` grows without pruning).
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Columns drawn at random (without replacement) at each node; ``None`` uses all.
    random_state : int, RandomState instance or None, default=None
        Seeds the feature draws (only used when ``max_features`` is below ``n_features``).

    Attributes
    ----------
    tree_ : Tree
        The node arrays (see :class:`statlearning.tree.Tree`).
    feature_importances_ : ndarray of shape (n_features,)
        Normalised mean decrease in impurity (MDI).
    max_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The tree is a piecewise-constant fit :math:`\\hat f(x) = \\sum_m c_m 1\\{x \\in R_m\\}`
    grown greedily to minimise the residual sum of squares
    :math:`\\sum_m \\sum_{x_i \\in R_m} w_i (y_i - c_m)^2` (seed 004 §1.8, ISLR §8.1).
    {notes_common}

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.tree import DecisionTreeRegressor
    >>> X = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
    >>> y = np.array([1.0, 1.2, 0.8, 5.0, 5.2, 4.8])
    >>> DecisionTreeRegressor(max_depth=1).fit(X, y).predict([[0.0], [20.0]])
    array([1., 5.])
    """

    _criteria = REGRESSION_CRITERIA
    _parameter_constraints = {
        "criterion": [Options(set(REGRESSION_CRITERIA))],
        **_COMMON_CONSTRAINTS,
    }

    def __init__(self, criterion="squared_error", *, max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, max_leaf_nodes=None, cp=0.0,
                 max_features=None, random_state=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.max_features = max_features
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` and infinite values raise ``ValueError``.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights.

        Returns
        -------
        self : DecisionTreeRegressor
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
        codes = np.zeros(X.shape[0], dtype=np.int64)
        self._fit_tree(X, y.astype(np.float64), codes, w, 1)
        return self

    def predict(self, X) -> np.ndarray:
        """Leaf mean (or median) of each sample."""
        check_is_fitted(self, "tree_")
        return self.tree_.value[self.apply(X), 0]


class DecisionTreeClassifier(ClassifierMixin, _BaseTree):
    """CART classification tree (rpart's ``method = "class"``).

    Parameters
    ----------
    criterion : {"gini", "entropy", "misclassification"}, default="gini"
        Node impurity :math:`1-\\sum_k p_k^2`, :math:`-\\sum_k p_k \\log p_k` (natural log,
        :math:`0 \\log 0 = 0`) or :math:`1 - \\max_k p_k`.
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, max_leaf_nodes, \
max_features, random_state
        As in :class:`DecisionTreeRegressor`.
    cp : float, default=0.0
        rpart's complexity parameter, measured on the weighted misclassification count
        whatever ``criterion`` grows the tree (rpart grows with Gini and prunes on the
        misclassification risk), so a split whose children predict the same class is pruned
        for any ``cp > 0``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    tree_ : Tree
        ``tree_.value`` holds the weighted class proportions of every node.
    feature_importances_ : ndarray of shape (n_features,)
        Normalised mean decrease in impurity (MDI).
    max_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The tree partitions the feature space into rectangles :math:`R_m` and predicts the
    majority class of each; it is grown greedily to minimise
    :math:`\\sum_m W_m \\, i(R_m)` for the chosen impurity :math:`i` (seed 004 §1.8, ISLR
    §8.1.2). Class probabilities are the weighted class frequencies of the leaf.
    {notes_common}

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.tree import DecisionTreeClassifier
    >>> X = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
    >>> y = np.array(["a", "a", "a", "b", "b", "b"])
    >>> DecisionTreeClassifier().fit(X, y).predict([[0.0], [20.0]])
    array(['a', 'b'], dtype='<U1')
    """

    _criteria = CLASSIFICATION_CRITERIA
    _parameter_constraints = {
        "criterion": [Options(set(CLASSIFICATION_CRITERIA))],
        **_COMMON_CONSTRAINTS,
    }

    def __init__(self, criterion="gini", *, max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, max_leaf_nodes=None, cp=0.0,
                 max_features=None, random_state=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.max_features = max_features
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` and infinite values raise ``ValueError``.
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights.

        Returns
        -------
        self : DecisionTreeClassifier
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, codes = encode_class_labels(y, name, min_classes=1)
        self.n_classes_ = int(self.classes_.size)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        self._fit_tree(X, np.zeros(X.shape[0]), codes, w, self.n_classes_)
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Weighted class frequencies of each sample's leaf (columns in ``classes_`` order)."""
        check_is_fitted(self, "tree_")
        return self.tree_.value[self.apply(X)].copy()

    def predict_log_proba(self, X) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for absent classes)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """Majority class of each sample's leaf (ties to the first class in ``classes_``)."""
        check_is_fitted(self, "tree_")
        node_class = np.argmax(self.tree_.value, axis=1)
        return self.classes_[node_class[self.apply(X)]]


for _cls in (DecisionTreeRegressor, DecisionTreeClassifier):
    _cls.__doc__ = _cls.__doc__.replace("    {notes_common}\n", _NOTES_COMMON)
