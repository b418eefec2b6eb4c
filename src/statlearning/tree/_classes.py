"""CART decision trees: :class:`DecisionTreeClassifier` and :class:`DecisionTreeRegressor`."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels
from .._core.scaling import max_abs, scale_for, times
from .._validation import (
    Options,
    check_sample_weight,
)
from ..base import ClassifierMixin, RegressorMixin, fit_context
from ..exceptions import warn_data_scale
from ._base import _COMMON_CONSTRAINTS, _BaseTree
from ._criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA


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
        A node with fewer observations (rows of positive weight, whatever their weights) is
        not split (rpart's ``minsplit``).
    min_samples_leaf : int, default=1
        Minimum observations in each child (rpart's ``minbucket``).
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        Minimum share of the total sample weight in each child (scikit-learn's).
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity, divided by the total weight, by at least
        this much.
    max_leaf_nodes : int, default=None
        Grow best-first up to this many leaves.
    cp : float, default=0.0
        rpart's complexity parameter on the SSE scale (``0`` grows without pruning).
    ccp_alpha : float, default=0.0
        scikit-learn's minimal cost-complexity pruning parameter, on the scale of the
        weighted impurity divided by the total weight, applied after growth.
    xval : int or array-like of shape (n_samples,), default=0
        rpart's ``xval``: the number of cross-validation folds (``0`` for none) or the fold id
        of every row; when set, ``cptable_`` holds the cross-validated cp table.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Columns drawn at random (without replacement) at each node; ``None`` uses all.
    random_state : int, RandomState instance or None, default=None
        Seeds the feature draws (when ``max_features`` is below ``n_features``) and the
        column order of ``tie_break="random"``.
    use_surrogates : bool, "always" or "missing", default=True
        Route rows with missing values by rpart's surrogate splits (``usesurrogate = 2``).
        ``True`` (rpart's rule) searches surrogates whenever a tree is grown, also on
        complete data, so that a ``NaN`` met at prediction time is routed exactly as
        ``predict.rpart``; on complete numeric data only when every column is a split
        candidate (``max_features`` resolves to ``n_features``, as in rpart, which has no
        column subsampling), since a split reading a few random columns would otherwise pay
        for a search through all of them at every node. ``"always"`` searches them in every
        case, also with random column subsets. ``"missing"`` searches them only when the
        training data hold a ``NaN`` or a categorical column (cheaper: a tree grown on
        complete data then sends a ``NaN`` to the child with more training rows); ``False``
        rejects ``NaN``. With a ``NaN`` or a categorical column in the training data
        ``True``, ``"always"`` and ``"missing"`` all search surrogates.
    max_surrogates : int, default=5
        Surrogate splits kept per node (rpart's ``maxsurrogate``); ``0`` routes every row
        missing the split column to the majority side.
    categorical_features : array-like of int or bool, default=None
        Categorical columns, by index or boolean mask; ``None`` means the ``category``
        columns of a pandas DataFrame, else none. A numeric categorical column holds
        non-negative integer codes (or ``NaN``).
    tie_break : {"first", "random"}, default="first"
        Among equally good splits on different columns: the earlier column (deterministic,
        rpart's rule) or a column chosen at random (the candidate columns are scanned in a
        random order at every node, as scikit-learn's trees and R's ``randomForest``). Ties
        are frequent in small nodes (any column separating two rows is as good as any
        other); the ensembles use ``"random"``, because always taking the first column would
        favour it in every tree, biasing the forest's predictions and importances.

    Attributes
    ----------
    tree_ : Tree
        The node arrays (see :class:`statlearning.tree.Tree`).
    feature_importances_ : ndarray of shape (n_features,)
        Normalised mean decrease in impurity (MDI).
    cptable_ : dict of ndarray
        Only with ``xval``: rpart's cp table, keys ``"CP"``, ``"nsplit"``, ``"rel_error"``,
        ``"xerror"``, ``"xstd"`` (``pandas.DataFrame(est.cptable_)`` prints it).
    max_features_ : int
    categories_ : list of (ndarray or None)
        Levels of each categorical column seen at fit (``None`` for numeric columns): the
        DataFrame categories, or the sorted distinct codes.
    is_categorical_ : ndarray of bool, shape (n_features,)
    n_rows_all_missing_ : int
        Rows dropped because every feature was missing (rpart's ``na.rpart``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The tree is a piecewise-constant fit :math:`\\hat f(x) = \\sum_m c_m 1\\{x \\in R_m\\}`
    grown greedily to minimise the residual sum of squares
    :math:`\\sum_m \\sum_{x_i \\in R_m} w_i (y_i - c_m)^2` (seed 004 §1.8, ISLR §8.1).

    Growth: every node with at least ``min_samples_split`` observations is split by the
    exhaustive
    search over the midpoints between consecutive distinct values of every candidate column,
    keeping the split that maximises the weighted impurity decrease
    :math:`W_t i(t) - W_L i(L) - W_R i(R)` subject to at least ``min_samples_leaf`` rows in
    each child. ``x < threshold`` goes to the left child (scikit-learn sends
    ``x <= threshold`` left; with midpoint thresholds the training partition is the same).
    Ties keep the earlier column, then the smaller threshold. ``min_impurity_decrease`` is
    scikit-learn's (the decrease divided by the total weight); ``max_leaf_nodes`` switches to
    best-first growth. ``cp`` is rpart's complexity parameter: after growth the tree is
    replaced by rpart's subtree at :math:`\\alpha = cp \\cdot R(\\text{root})` (see Pruning), so
    every remaining split improves the risk :math:`R` by more than ``cp`` times the root's
    risk per extra leaf.

    Weights. ``sample_weight`` are case weights: they weight the split criterion, the node
    values and the risks, and ``min_samples_split`` / ``min_samples_leaf`` count
    observations, as rpart's ``minsplit``/``minbucket`` and scikit-learn's ``min_samples_*``
    do (rows of zero weight are dropped, as scikit-learn; rpart keeps them in its ``n`` and
    counts them in ``minsplit``/``minbucket``); the weighted variant
    is ``min_weight_fraction_leaf`` (scikit-learn's: a child needs at least that fraction of
    the total weight). Rescaling every weight by one constant therefore leaves the tree
    unchanged. Integer weights equal repeated rows for the split criterion and the leaf
    values, not for the stopping rules (a row of weight 3 is one observation, three repeated
    rows are three). The ensembles grow each tree on its bootstrap sample as repeated rows:
    a row drawn :math:`k` times weighs :math:`k` and counts as :math:`k` observations, as in
    R's ``randomForest``.

    Mapping to R: ``rpart(..., control = rpart.control(minsplit, minbucket, cp, maxdepth))``
    is ``min_samples_split=minsplit, min_samples_leaf=minbucket, cp=cp, max_depth=maxdepth``
    (rpart's defaults 20, 7 and 0.01 must be given explicitly: our defaults are
    scikit-learn's, with no pruning). rpart's printed node numbering (children ``2k`` and
    ``2k + 1``, the child with the smaller mean first) is reproduced by
    :func:`statlearning.tree.export_text`.

    Pruning. ``ccp_alpha`` selects a subtree of the weakest-link (minimal cost-complexity)
    sequence :math:`T_\\alpha = \\arg\\min_{T \\preceq T_0} C(T) + \\alpha |T|`, with
    :math:`|T|` the number of leaves. ``cp`` follows rpart's own algorithm (``partition.c``):
    every node gets, bottom-up, the complexity
    :math:`(R(t) - \\sum_{m} R(m)) / s_t` of its subtree, :math:`s_t` its splits, where a
    child whose own complexity is smaller collapses first (one level at a time), each
    clamped to its parent's; a split of complexity at most :math:`\\alpha` is removed, a
    node whose risk (or the bound its parent passes down) is at most :math:`\\alpha` is not
    split, nor is a node whose best split improves the impurity by no more than
    :math:`10^{-10}` of the largest improvement seen (rpart's ``bsplit``; only with
    ``cp > 0``). These complexities are the weakest-link sequence under rpart's cost
    :math:`C(T) = \\sum_m R(m)` except where collapsing one child at a time does not reach
    the optimal subtree; they are stored in ``tree_.complexity`` (rpart's
    ``frame$complexity`` times the root risk). ``ccp_alpha`` uses scikit-learn's
    :math:`C(T) = \\sum_m W_m i(m) / W` (entropy in bits, as scikit-learn), applied after
    ``cp``, one node at a time, as scikit-learn's ``ccp_alpha``.
    :meth:`cost_complexity_pruning_path` is scikit-learn's path and :meth:`prune` returns a
    pruned copy (``rpart::prune(fit, cp)``). With ``xval`` the estimator also stores
    ``cptable_``, rpart's ``fit$cptable``: ``CP`` the distinct node complexities (at least
    ``cp``) over the root risk, largest first, and for each the subtree of the splits whose
    complexity exceeds it: ``nsplit``,
    ``rel_error`` (its risk over the root risk) and the cross-validated ``xerror`` and
    ``xstd``: each fold's tree is grown on the other rows with ``cp`` measured against
    :math:`R(root) W_{train} / W`, pruned by its own node complexities at the geometric mean
    :math:`\\sqrt{CP_k CP_{k-1}}` (:math:`10\\,CP_0` for the first row) on that same scale,
    and scores its held-out rows by the squared error or the 0/1 loss (a held-out row that
    no surrogate routes takes the side the split sent more weight to, as rpart's
    ``xval``); ``xerror`` is the weighted total over the root risk and ``xstd`` the square
    root of the weighted sum of squared deviations of the row losses from their mean, over
    the root risk, as rpart.
    ``xval=10`` is ``rpart.control(xval = 10)`` with folds drawn from ``random_state``; an
    array of fold ids reproduces rpart's exactly.

    Missing values (``use_surrogates=True``) follow rpart 4.1 with its defaults
    ``usesurrogate = 2, surrogatestyle = 0, maxsurrogate = 5``. A column's split is scored on
    the node's rows where it is present, against their own totals (the weighted impurity
    decrease of that subset, not rescaled, as rpart), and the best column wins. Then every other
    column :math:`j` gets the split :math:`s_j` (threshold and side, or a partition of its
    levels) maximising the agreement
    :math:`a_j = \\sum_{i:\\,x_{ij}\\text{ present}} w_i 1\\{s_j(x_i) = s^*(x_i)\\} / W^*`,
    with :math:`s^*` the primary split and :math:`W^*` the weight it routes (rpart's
    ``surrogatestyle = 0``), and the adjusted agreement
    :math:`adj_j = (a_j - m) / (1 - m)`, :math:`m` the majority side's share; columns with
    :math:`adj_j > 0` are kept, best first (ties to the earlier column, then the smaller
    threshold), at most ``max_surrogates`` (rpart's ``maxsurrogate``) and stored in
    ``tree_.surrogate_*`` (a row per split that has surrogates, ``tree_.surrogate_index``
    maps a node to it; ``tree_.surrogates(name)`` gives one row per node). A row missing
    the primary column (also when predicting) follows its first surrogate whose column it
    has; when all are missing it takes the side the primary
    sent more weight to (fitting) or the child with more training rows (predicting), as
    rpart's ``usesurrogate = 2``; such rows count in their child's ``n``, weight, value and
    risk. Rows missing every column are dropped from the fit (rpart's ``na.rpart``; counted in
    ``n_rows_all_missing_``). ``use_surrogates=False`` rejects ``NaN`` (surrogates are not
    searched; a categorical level that did not reach a node then takes the majority side).
    With ``use_surrogates=True`` surrogates are searched whenever the tree is grown, on
    complete data too, as rpart does (on complete data the search reads every column's rows
    in sorted order once per split: about 1.5 to 2 times the fit time of the splits alone),
    provided every column is a split candidate (``max_features`` resolving to
    ``n_features``, always the case in rpart). With random column subsets a split reads
    ``max_features`` columns while the surrogate search reads all of them, at every node
    (``max_features="log2"`` on 100 columns: about four times the fit time), so ``True``
    then searches no surrogates on complete numeric data and a ``NaN`` met at prediction
    time follows the child with more training rows; ``"always"`` searches them in every
    case. ``use_surrogates="missing"`` searches them only when the training ``X`` holds a
    ``NaN`` or a categorical column; a tree grown on complete numeric data then has none,
    and a ``NaN`` met at prediction time follows the child with more training rows
    (scikit-learn's rule). With a ``NaN`` or a categorical column in the training data
    every mode but ``False`` searches surrogates, whatever ``max_features``. The ensembles'
    trees use ``"missing"`` or ``False`` (they accept no ``NaN``).

    Categorical columns (``categorical_features``, or a DataFrame's ``category`` columns) are
    split into two sets of levels. Regression and two-class classification order the levels
    present in the node by mean response / proportion of the first class and scan the ordered
    cuts, which is optimal (Fisher 1958; Breiman et al. 1984); with more classes every one of
    the :math:`2^{q-1} - 1` partitions of the :math:`q` levels present is tried when
    :math:`q \\le 10` (rpart's Gray-code search), and above 10 levels the levels are ordered by
    the proportion of the node's most frequent class (a heuristic, not guaranteed optimal).
    Level sets are stored as bitsets in ``tree_.cat_left``/``tree_.cat_right`` and
    ``tree_.threshold`` is ``NaN`` at such nodes; a level that did not reach a node at fit
    time is routed there as a missing value (surrogates, then the majority side, as rpart's
    ``predict``); a level never seen at fit raises ``ValueError``. Categorical columns can be
    surrogates too.

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
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, min_impurity_decrease=0.0,
                 max_leaf_nodes=None, cp=0.0, ccp_alpha=0.0, xval=0, max_features=None,
                 random_state=None, use_surrogates=True, max_surrogates=5,
                 categorical_features=None, tie_break="first"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.ccp_alpha = ccp_alpha
        self.xval = xval
        self.max_features = max_features
        self.random_state = random_state
        self.use_surrogates = use_surrogates
        self.max_surrogates = max_surrogates
        self.categorical_features = categorical_features
        self.tie_break = tie_break

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features; ``NaN`` marks a missing value (routed by surrogate splits; a
            ``ValueError`` when ``use_surrogates=False``); infinite values raise
            ``ValueError``. Categorical columns hold non-negative integer codes, or are a
            DataFrame's ``category`` columns.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (see Notes: they do not change what
            ``min_samples_split``/``min_samples_leaf`` count).

        Returns
        -------
        self : DecisionTreeRegressor
        """
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight, n_obs=None):
        X, y = self._validate_X(X, y, reset=True)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
        codes = np.zeros(X.shape[0], dtype=np.int64)
        y = y.astype(np.float64)
        t = scale_for(y)
        if t is None:
            self._fit_tree(X, y, codes, w, 1, n_obs)
            return self
        # a response whose squares leave float64's range: grown on y / t (t a power of two),
        # which splits the same way, then node values by t and impurities by t**k
        k = 2 if self.criterion == "squared_error" else 1
        self._fit_units = (t, k)
        try:
            self._fit_tree(X, y / t, codes, w, 1, n_obs)
        finally:
            del self._fit_units
        tree = self.tree_
        self.tree_ = replace(
            tree,
            value=tree.value * t,
            impurity=times(tree.impurity, t, k),
            risk=times(tree.risk, t, k),
        )
        if np.any((tree.risk > 0) & ((self.tree_.risk == 0) | np.isinf(self.tree_.risk))):
            warn_data_scale(self, ["tree_.impurity", "tree_.risk"], float(max_abs(y)))
        return self

    def predict(self, X) -> np.ndarray:
        """Leaf mean (or median) of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        ndarray of float64, shape (n_samples,)
            The value of the node :meth:`apply` returns: the weighted mean of its training
            responses (``"squared_error"``) or their weighted median (``"absolute_error"``).
        """
        check_is_fitted(self, "tree_")
        return self.tree_.value[self.apply(X), 0]


class DecisionTreeClassifier(ClassifierMixin, _BaseTree):
    """CART classification tree (rpart's ``method = "class"``).

    Parameters
    ----------
    criterion : {"gini", "entropy", "misclassification", "gain_ratio", "chi2"}, default="gini"
        Node impurity :math:`1-\\sum_k p_k^2`, :math:`-\\sum_k p_k \\log p_k` (natural log,
        :math:`0 \\log 0 = 0`) or :math:`1 - \\max_k p_k`, whose weighted decrease the split
        maximises; or a split score (see Notes): ``"gain_ratio"``, C4.5's information gain
        over split information (node impurity: the entropy), or ``"chi2"``, Pearson's
        :math:`\\chi^2` statistic of the class × side table (node impurity: Gini).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
min_impurity_decrease, max_leaf_nodes
        As in :class:`DecisionTreeRegressor`.
    cp : float, default=0.0
        rpart's complexity parameter, measured on the weighted misclassification count
        whatever ``criterion`` grows the tree (rpart grows with Gini and prunes on the
        misclassification risk), so a split whose children predict the same class is pruned
        for any ``cp > 0``.
    ccp_alpha, xval
        As in :class:`DecisionTreeRegressor` (``ccp_alpha`` on the scale of the criterion's
        impurity, entropy in bits; ``xval`` scores the 0/1 loss).
    max_features, random_state, use_surrogates, max_surrogates, categorical_features, \
tie_break
        As in :class:`DecisionTreeRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    tree_ : Tree
        ``tree_.value`` holds the weighted class proportions of every node.
    feature_importances_ : ndarray of shape (n_features,)
        Normalised mean decrease in impurity (MDI).
    cptable_ : dict of ndarray
        Only with ``xval``: rpart's cp table, keys ``"CP"``, ``"nsplit"``, ``"rel_error"``,
        ``"xerror"``, ``"xstd"`` (``pandas.DataFrame(est.cptable_)`` prints it).
    max_features_ : int
    categories_ : list of (ndarray or None)
        Levels of each categorical column seen at fit (``None`` for numeric columns): the
        DataFrame categories, or the sorted distinct codes.
    is_categorical_ : ndarray of bool, shape (n_features,)
    n_rows_all_missing_ : int
        Rows dropped because every feature was missing (rpart's ``na.rpart``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The tree partitions the feature space into rectangles :math:`R_m` and predicts the
    majority class of each; it is grown greedily to minimise
    :math:`\\sum_m W_m \\, i(R_m)` for the chosen impurity :math:`i` (seed 004 §1.8, ISLR
    §8.1.2). Class probabilities are the weighted class frequencies of the leaf.
    Growth, stopping rules, sample weights, pruning (``cp``, ``ccp_alpha``, ``xval`` and
    ``cptable_``), missing values and categorical columns are as in
    :class:`DecisionTreeRegressor` (see its Notes), with rpart's ``method = "class"``:
    splits chosen by ``criterion``, ``cp`` and ``xval`` measured on the weighted
    misclassification count.

    Split scores (seed 000 names them beside Gini and entropy). For a split of a node of
    weight :math:`W` and class weights :math:`c_k` into sides :math:`s \\in \\{L, R\\}` of
    weights :math:`W_s` and class weights :math:`c_{sk}`, ``"gain_ratio"`` maximises

    .. math:: \\frac{H(c/W) - \\sum_s \\frac{W_s}{W} H(c_s/W_s)}
              {-\\sum_s \\frac{W_s}{W} \\log\\frac{W_s}{W}},

    the information gain over the split information (Quinlan's C4.5, without its rule that
    restricts the candidates to those of at least average gain; the ratio is the same in
    any log base), and ``"chi2"`` maximises Pearson's statistic

    .. math:: \\chi^2 = \\sum_s \\sum_k \\frac{(c_{sk} - W_s c_k / W)^2}{W_s c_k / W}
              = W \\sum_s \\sum_k \\frac{c_{sk}^2}{W_s c_k} - W

    (CHAID's statistic, without its p-values or merging of levels; for two classes it is
    :math:`W / (2 p (1 - p))` times the Gini decrease, so it chooses Gini's split). For these
    two, ``min_impurity_decrease`` and best-first growth (``max_leaf_nodes``) use the
    score itself, :math:`W` × gain ratio or :math:`\\chi^2`, as the split's decrease (divided
    by the total weight for ``min_impurity_decrease``); the node impurity behind
    ``ccp_alpha`` and ``feature_importances_`` is the entropy (in bits for ``ccp_alpha``) or
    the Gini index. Categorical columns with two classes order their levels by the class
    proportion, which is exact for ``"chi2"`` and a heuristic for ``"gain_ratio"``.

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
    _is_classifier = True
    _parameter_constraints = {
        "criterion": [Options(set(CLASSIFICATION_CRITERIA))],
        **_COMMON_CONSTRAINTS,
    }

    def __init__(self, criterion="gini", *, max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, min_impurity_decrease=0.0,
                 max_leaf_nodes=None, cp=0.0, ccp_alpha=0.0, xval=0, max_features=None,
                 random_state=None, use_surrogates=True, max_surrogates=5,
                 categorical_features=None, tie_break="first"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.ccp_alpha = ccp_alpha
        self.xval = xval
        self.max_features = max_features
        self.random_state = random_state
        self.use_surrogates = use_surrogates
        self.max_surrogates = max_surrogates
        self.categorical_features = categorical_features
        self.tie_break = tie_break

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features; ``NaN`` marks a missing value (routed by surrogate splits; a
            ``ValueError`` when ``use_surrogates=False``); infinite values raise
            ``ValueError``. Categorical columns hold non-negative integer codes, or are a
            DataFrame's ``category`` columns.
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (see Notes: they do not change what
            ``min_samples_split``/``min_samples_leaf`` count).

        Returns
        -------
        self : DecisionTreeClassifier
        """
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight, n_obs=None):
        name = type(self).__name__
        X, y = self._validate_X(X, y, reset=True)
        self.classes_, codes = encode_class_labels(y, name, min_classes=2)
        self.n_classes_ = int(self.classes_.size)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        self._fit_tree(X, np.zeros(X.shape[0]), codes, w, self.n_classes_, n_obs)
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Weighted class frequencies of each sample's leaf (columns in ``classes_`` order).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        ndarray of float64, shape (n_samples, n_classes)
            The weighted class proportions of the training rows in the node :meth:`apply`
            returns; each row sums to one.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.value[self.apply(X)].copy()

    def predict_log_proba(self, X) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for absent classes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        ndarray of float64, shape (n_samples, n_classes)
            Natural logarithm of the class probabilities, columns in ``classes_`` order.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """Majority class of each sample's leaf (ties to the first class in ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        ndarray of shape (n_samples,)
            The class label (from ``classes_``) with the largest weighted proportion in the
            node :meth:`apply` returns.
        """
        check_is_fitted(self, "tree_")
        node_class = np.argmax(self.tree_.value, axis=1)
        return self.classes_[node_class[self.apply(X)]]
