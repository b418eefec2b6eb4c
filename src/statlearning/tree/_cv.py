"""Trees pruned by rpart's cross-validated cp table: the minimum-xerror or one-SE subtree."""

from __future__ import annotations

from .._core.selection import select_index
from .._validation import CV, DEPRECATED, Options, renamed_parameter
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._pruning import snip


class _CVMixin:
    _xval_name = "cv"

    def _xval_value(self):
        return self.cv

    def _ccp_value(self) -> float:
        return 0.0

    def _select(self, tree):
        tab = self.cptable_
        rule = renamed_parameter(self, "selection", "rule")
        best = select_index(tab["xerror"], tab["xstd"], tab["nsplit"], rule=rule)
        self.best_index_ = best
        self.cp_ = float(tab["CP"][best])
        return snip(tree, self.cp_ * tree.risk[0])


def _cv_constraints(base):
    out = {k: v for k, v in base._parameter_constraints.items() if k not in ("ccp_alpha", "xval")}
    out["cv"] = [CV(fold_ids=True)]
    out["rule"] = [Options({"min", "1se"})]
    out["selection"] = [Options({"min", "1se"}), Options({DEPRECATED})]
    return out


class DecisionTreeRegressorCV(_CVMixin, DecisionTreeRegressor):
    """Regression tree pruned by cross-validation of rpart's cp table.

    Parameters
    ----------
    criterion : str
        As in the base estimator.
    cv : int, array-like of shape (n_samples,), splitter or list of (train, test), default=10
        Number of folds or the fold id of every row (rpart's ``xval``), or a scikit-learn
        splitter / ``(train, test)`` index pairs whose test sets partition the rows (each
        fold's tree is grown on the rows outside its test set).
    rule : {"min", "1se"}, default="min"
        Minimum cross-validated error or the one-standard-error rule.
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
min_impurity_decrease, max_leaf_nodes, cp, max_features, random_state, use_surrogates, \
max_surrogates, categorical_features, tie_break
        As in :class:`DecisionTreeRegressor`; ``random_state`` also draws the folds.
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``).

    Attributes
    ----------
    cptable_ : dict of ndarray
        rpart's cross-validated cp table of the grown tree (keys ``"CP"``, ``"nsplit"``,
        ``"rel_error"``, ``"xerror"``, ``"xstd"``).
    best_index_ : int
        Row of ``cptable_`` chosen.
    cp_ : float
        Its ``CP``, at which the grown tree was pruned.
    tree_, feature_importances_, max_features_, n_features_in_, feature_names_in_
        As in the base estimator (of the pruned tree).

    Notes
    -----
    The tree is grown as by the base estimator (with ``cp``), and its cp table is
    cross-validated as rpart's ``xval`` (``cv`` folds drawn from ``random_state``, or the fold
    id of every row); see the base estimator's Notes for ``CP``, ``xerror`` and ``xstd``.
    ``rule="min"`` keeps the subtree of smallest ``xerror`` (the smaller tree on ties);
    ``rule="1se"`` is Breiman's one-standard-error rule (seed 004 §1.8, ISLR §8.1): the
    smallest subtree with :math:`xerror \\le \\min_k xerror_k + xstd_{k^*}`, :math:`k^*` the
    minimising row (the package's one rule, as
    :func:`statlearning.model_selection.one_standard_error_rule`, with rpart's ``xstd`` as the
    standard error). The chosen subtree is ``rpart::prune(fit, cp = cptable[k, "CP"])``.
    In R: ``fit <- rpart(..., control = rpart.control(xval = cv, cp = cp))`` then
    ``prune(fit, cp = fit$cptable[which.min(fit$cptable[, "xerror"]), "CP"])``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.tree import DecisionTreeRegressorCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 1))
    >>> y = (X[:, 0] > 0.5) + 0.1 * rng.normal(size=200)
    >>> DecisionTreeRegressorCV(random_state=0).fit(X, y).get_n_leaves()
    2
    """

    _parameter_constraints = _cv_constraints(DecisionTreeRegressor)

    def __init__(self, criterion="squared_error", *, cv=10, rule="min", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 min_impurity_decrease=0.0,
                 max_leaf_nodes=None, cp=0.0, max_features=None, random_state=None,
                 use_surrogates=True, max_surrogates=5, categorical_features=None,
                 tie_break="first", selection=DEPRECATED):
        self.criterion = criterion
        self.cv = cv
        self.rule = rule
        self.selection = selection
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.max_features = max_features
        self.random_state = random_state
        self.use_surrogates = use_surrogates
        self.max_surrogates = max_surrogates
        self.categorical_features = categorical_features
        self.tie_break = tie_break


class DecisionTreeClassifierCV(_CVMixin, DecisionTreeClassifier):
    """Classification tree pruned by cross-validation of rpart's cp table (0/1 loss).

    Parameters
    ----------
    criterion : str
        As in the base estimator.
    cv : int, array-like of shape (n_samples,), splitter or list of (train, test), default=10
        Number of folds or the fold id of every row (rpart's ``xval``), or a scikit-learn
        splitter / ``(train, test)`` index pairs whose test sets partition the rows (each
        fold's tree is grown on the rows outside its test set).
    rule : {"min", "1se"}, default="min"
        Minimum cross-validated error or the one-standard-error rule.
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
min_impurity_decrease, max_leaf_nodes, cp, max_features, random_state, use_surrogates, \
max_surrogates, categorical_features, tie_break
        As in :class:`DecisionTreeClassifier`; ``random_state`` also draws the folds.
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``).

    Attributes
    ----------
    cptable_ : dict of ndarray
        rpart's cross-validated cp table of the grown tree (keys ``"CP"``, ``"nsplit"``,
        ``"rel_error"``, ``"xerror"``, ``"xstd"``).
    best_index_ : int
        Row of ``cptable_`` chosen.
    cp_ : float
        Its ``CP``, at which the grown tree was pruned.
    tree_, feature_importances_, max_features_, n_features_in_, feature_names_in_
        As in the base estimator (of the pruned tree).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int

    Notes
    -----
    As in :class:`DecisionTreeRegressorCV` (see its Notes), with the 0/1 loss in
    ``xerror``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.tree import DecisionTreeClassifierCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 1))
    >>> y = np.where(X[:, 0] > 0.5, "b", "a")
    >>> DecisionTreeClassifierCV(random_state=0).fit(X, y).predict([[0.1], [0.9]])
    array(['a', 'b'], dtype='<U1')
    """

    _parameter_constraints = _cv_constraints(DecisionTreeClassifier)

    def __init__(self, criterion="gini", *, cv=10, rule="min", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 min_impurity_decrease=0.0,
                 max_leaf_nodes=None, cp=0.0, max_features=None, random_state=None,
                 use_surrogates=True, max_surrogates=5, categorical_features=None,
                 tie_break="first", selection=DEPRECATED):
        self.criterion = criterion
        self.cv = cv
        self.rule = rule
        self.selection = selection
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.cp = cp
        self.max_features = max_features
        self.random_state = random_state
        self.use_surrogates = use_surrogates
        self.max_surrogates = max_surrogates
        self.categorical_features = categorical_features
        self.tie_break = tie_break
