"""What every CART tree shares: parameter constraints, growth with rpart's cp, pruning and the
cp table, input checks, routing (``apply``/``decision_path``) and the impurity importances."""

from __future__ import annotations

import copy
import math
from numbers import Integral, Real

import numpy as np
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import kernel_array
from .._validation import (
    ArrayLike,
    Boolean,
    Interval,
    Options,
    RandomState,
    validate_data,
)
from ..base import StatBase
from ._apply import apply_checked
from ._criteria import ENTROPY_IMPURITY
from ._grow import RPART_MIN_IMPROVEMENT, grow_tree
from ._inputs import encode_columns, encode_frame, resolve_categorical
from ._params import resolve_max_features
from ._pruning import (
    cp_table_rows,
    prune_at,
    rpart_prune,
    sklearn_cost,
    snip,
    weakest_link_sequence,
    xval_errors,
)
from ._structure import (
    TREE_LEAF,
    decision_path_from_nodes,
    decision_path_tree,
    route_tree,
)

_COMMON_CONSTRAINTS = {
    "max_depth": [None, Interval(Integral, 1, None, closed="left")],
    "min_samples_split": [Interval(Integral, 2, None, closed="left")],
    "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
    "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
    "min_impurity_decrease": [Interval(Real, 0, None, closed="left")],
    "max_leaf_nodes": [None, Interval(Integral, 2, None, closed="left")],
    "cp": [Interval(Real, 0, None, closed="left")],
    "ccp_alpha": [Interval(Real, 0, None, closed="left")],
    "xval": [Interval(Integral, 0, None, closed="left"), ArrayLike()],
    "max_features": [
        None,
        Options({"sqrt", "log2"}),
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0, 1, closed="right"),
    ],
    "random_state": [RandomState()],
    "tie_break": [Options({"first", "random"})],
    "use_surrogates": [Boolean(), Options({"always", "missing"})],
    "max_surrogates": [Interval(Integral, 0, None, closed="left")],
    "categorical_features": [None, ArrayLike()],
}


class _BaseTree(StatBase):
    _criteria: dict = {}
    _is_classifier = False

    def _grow(self, X, y, codes, w, n_classes, scale=None, n_obs=None, surrogates=True):
        """Grow on ``(X, y, codes, w)`` and prune at rpart's ``cp`` (no ``ccp_alpha``).

        ``cp`` is measured against ``scale`` (default: the root's risk); ``n_obs`` are the
        observations per row of the stopping rules (default: one per row of positive weight);
        ``surrogates=False`` skips the surrogate search on complete data (a fold's tree that
        will route no missing value).
        """
        n_categories = getattr(self, "_n_categories", None)
        max_features = resolve_max_features(self.max_features, X.shape[1])
        mode = self.use_surrogates
        # rpart searches surrogates whenever it grows a tree ("always"; True too when every
        # column is a split candidate, as in rpart); with NaN or a categorical column every
        # mode but False searches them
        on_complete = (mode == "always" if isinstance(mode, str)
                       else bool(mode) and max_features == X.shape[1])
        search = ((surrogates and on_complete)
                  or (bool(mode) and (n_categories is not None or np.isnan(X).any())))
        tree = grow_tree(
            X, y, codes, w, crit=self._criteria[self.criterion], n_classes=n_classes,
            max_depth=self.max_depth, min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_weight_leaf=self.min_weight_fraction_leaf * float(w.sum()), n_obs=n_obs,
            min_impurity_decrease=self._in_fit_units(self.min_impurity_decrease),
            max_leaf_nodes=self.max_leaf_nodes,
            max_features=max_features,
            rng=check_random_state(self.random_state), tie_break=self.tie_break,
            max_surrogates=self.max_surrogates if search else 0, n_categories=n_categories,
            # with rpart's cp, rpart's refusal of useless splits too
            min_relative_improvement=RPART_MIN_IMPROVEMENT if self.cp > 0 else 0.0,
        )
        # rpart's node complexities at alpha = cp R(root) (the cp table and prune(cp) read
        # them); with cp > 0 the splits rpart would not make are removed
        return rpart_prune(tree, self.cp * (tree.risk[0] if scale is None else scale),
                           remove=self.cp > 0)


    #: ``(t, k)`` while a regression tree is grown on ``y / t``: impurities are then in units of
    #: ``t**k`` (``k = 2`` for squared error, ``1`` for absolute error)
    _fit_units = (1.0, 0)

    def _in_fit_units(self, value) -> float:
        """An impurity-valued parameter in the units of the rescaled response being fitted."""
        t, k = self._fit_units
        if value == 0 or k == 0:
            return value
        with np.errstate(over="ignore", under="ignore"):
            out = np.float64(value)
            for _ in range(k):
                out = out / t
        return float(out)

    _xval_name = "xval"

    def _xval_value(self):
        return self.xval

    def _ccp_value(self) -> float:
        return float(self.ccp_alpha)

    def _select(self, tree):
        """Hook for the cross-validated estimators: the final tree from the fitted cp table."""
        return tree

    def _fold_ids(self, X, target) -> np.ndarray | None:
        xval, name = self._xval_value(), self._xval_name
        n = X.shape[0]
        if isinstance(xval, Integral) and not isinstance(xval, bool):
            if xval == 0:
                return None
            if xval == 1 or xval > n:
                raise ValueError(f"{name}={xval} must be 0 (no cross-validation) or between 2 "
                                 f"and the number of samples (n_samples={n}).")
            rng = check_random_state(self.random_state)
            return rng.permutation(np.arange(n) % xval)
        if hasattr(xval, "split"):
            xval = list(xval.split(X, target))
        first = xval[0] if isinstance(xval, list | tuple) and len(xval) else None
        if isinstance(first, list | tuple) and len(first) == 2 and not np.isscalar(first[0]):
            return _splits_to_folds(xval, n, name)
        folds = np.asarray(xval).ravel()
        if folds.shape[0] != n:
            raise ValueError(f"{name} has {folds.shape[0]} fold ids but X has {n} samples.")
        if np.unique(folds).size < 2:
            raise ValueError(f"{name} must hold at least two distinct fold ids.")
        return folds

    def _fit_replicated(self, X, y, counts):
        """Fit on rows replicated ``counts`` times (a bootstrap sample): ``counts`` are both the
        case weights and the observations of ``min_samples_split``/``min_samples_leaf``, so
        the tree is the one grown on the repeated rows (R's ``randomForest``)."""
        self._validate_params()
        return self._fit(X, y, counts, n_obs=counts)

    def _fit_tree(self, X, y, codes, w, n_classes, n_obs=None):
        X = kernel_array(X, np.float64)  # read-only input: one copy, no new compilation
        all_missing = np.isnan(X).all(axis=1)
        self.n_rows_all_missing_ = int(np.count_nonzero(all_missing & (w > 0)))
        if all_missing.any():
            w = np.where(all_missing, 0.0, w)
            if not np.any(w > 0):
                raise ValueError("Every row of X is missing every feature.")
        if n_obs is not None:
            n_obs = np.where(w > 0, np.asarray(n_obs, dtype=np.float64), 0.0)
        folds = self._fold_ids(X, y if not self._is_classifier else codes)
        if folds is not None and n_obs is not None:
            raise ValueError("Cross-validation of a tree grown on replicated rows is not "
                             "supported; pass the repeated rows instead.")
        tree = self._grow(X, y, codes, w, n_classes, n_obs=n_obs)
        if folds is not None:
            cps, nsplit, rel = cp_table_rows(tree, float(self.cp))
            keep = w > 0
            # complete rows route by the primary splits only: no surrogates in the folds
            sur = bool(np.isnan(X).any())
            xerror, xstd = xval_errors(
                lambda *a: self._grow(*a[:4], n_classes, a[4], surrogates=sur),
                X[keep], y[keep], codes[keep], w[keep], folds[keep], cps, tree.risk[0],
                self._is_classifier,
            )
            self.cptable_ = {"CP": cps, "nsplit": nsplit, "rel_error": rel,
                             "xerror": xerror, "xstd": xstd}
            tree = self._select(tree)
        if self._ccp_value() > 0:
            alpha = self._in_fit_units(self._ccp_value())
            tree = prune_at(tree, self._ccp_cost(tree), alpha, one_at_a_time=True)
        self._set_tree(tree, X.shape[1])

    def _ccp_cost(self, tree):
        """scikit-learn's node cost ``W_t i(t) / W`` (entropy in bits, as scikit-learn)."""
        cost = sklearn_cost(tree)
        return cost / math.log(2.0) if self.criterion in ENTROPY_IMPURITY else cost

    def _set_tree(self, tree, n_features):
        self.tree_ = tree
        self.max_features_ = resolve_max_features(self.max_features, n_features)
        self.feature_importances_ = _mdi(tree, n_features)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """Compute scikit-learn's minimal cost-complexity pruning path.

        Grows the tree on ``(X, y)`` with this estimator's parameters and ``ccp_alpha=0``
        (``cp`` still applies), then collapses the weakest link one node at a time.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        path : Bunch
            ``ccp_alphas`` (increasing effective alphas, the first 0) and ``impurities``
            (total leaf impurity :math:`\\sum_{leaves} W_t i(t) / W` of each subtree).
        """
        from ._classes import DecisionTreeClassifier, DecisionTreeRegressor  # defined on this base

        base = DecisionTreeClassifier if self._is_classifier else DecisionTreeRegressor
        names = set(base().get_params(deep=False))
        params = {k: v for k, v in self.get_params(deep=False).items() if k in names}
        est = base(**{**params, "ccp_alpha": 0.0, "xval": 0})
        est.fit(X, y, sample_weight=sample_weight)
        alphas, costs, _, _ = weakest_link_sequence(
            est.tree_, est._ccp_cost(est.tree_), one_at_a_time=True)
        return Bunch(ccp_alphas=alphas, impurities=costs)

    def prune(self, *, ccp_alpha=None, cp=None):
        """A pruned copy of this fitted tree (give exactly one of ``ccp_alpha`` and ``cp``).

        Parameters
        ----------
        ccp_alpha : float, default=None
            scikit-learn's complexity on the impurity scale :math:`W_t i(t) / W`.
        cp : float, default=None
            rpart's complexity: the splits whose node complexity (``tree_.complexity``) does not
            exceed :math:`cp \\cdot R(root)` are removed, with
            :math:`R` the SSE (regression) or the weighted misclassification count
            (classification), as ``rpart::prune(fit, cp)``.

        Returns
        -------
        pruned : estimator
            A copy with ``tree_`` and ``feature_importances_`` replaced; ``cptable_`` is
            truncated as by ``rpart::prune`` (the rows whose CP exceeds ``cp``, then the first
            other row with its CP set to ``cp``), and dropped for ``ccp_alpha``.
        """
        check_is_fitted(self, "tree_")
        if (ccp_alpha is None) == (cp is None):
            raise ValueError("prune needs exactly one of ccp_alpha and cp.")
        value, name = (ccp_alpha, "ccp_alpha") if cp is None else (cp, "cp")
        if isinstance(value, bool) or not isinstance(value, Real) or not value >= 0:
            raise ValueError(f"{name} must be a non-negative number, got {value!r}.")
        out = copy.deepcopy(self)
        tree = self.tree_
        if cp is None:
            tree = prune_at(tree, self._ccp_cost(tree), float(ccp_alpha), one_at_a_time=True)
            if hasattr(out, "cptable_"):
                del out.cptable_
        else:
            tree = snip(tree, float(cp) * tree.risk[0])
            if hasattr(out, "cptable_"):
                # rpart's prune.rpart: the rows of CP above cp and the first at or below it,
                # whose CP becomes cp
                temp = np.maximum(out.cptable_["CP"], float(cp))
                keep = np.sort(np.unique(temp, return_index=True)[1])
                table = {k: v[keep].copy() for k, v in out.cptable_.items()}
                table["CP"][-1] = float(cp)
                out.cptable_ = table
        out._set_tree(tree, self.n_features_in_)
        return out

    def _validate_X(self, X, y="no_validation", *, reset):
        """``validate_data`` with categorical columns coded ``0 … q-1`` and NaN checks."""
        mask = None
        if reset:
            mask = resolve_categorical(self.categorical_features, X, frame_only=True)
        elif hasattr(self, "is_categorical_"):
            mask = self.is_categorical_
        X, frame_cats = encode_frame(X, mask, None if reset else self.categories_)
        # finiteness is checked below, where the offending columns can be named
        kwargs = {"dtype": np.float64, "ensure_all_finite": False}
        if isinstance(y, str) and y == "no_validation":
            X = validate_data(self, X, reset=reset, **kwargs)
        else:
            X, y = validate_data(self, X, y, y_numeric=not self._is_classifier, **kwargs)
        if reset:
            if mask is None:
                mask = resolve_categorical(self.categorical_features, X)
            if mask is None:
                mask = np.zeros(X.shape[1], dtype=bool)
            self.is_categorical_ = np.asarray(mask, dtype=bool)
            self.categories_ = [None] * X.shape[1]
        X = encode_columns(X, self, frame_cats, reset=reset,
                           names=getattr(self, "feature_names_in_", None))
        names = getattr(self, "feature_names_in_", None)

        def columns(bad):
            return ", ".join(str(names[j]) if names is not None else str(j) for j in bad)

        bad = np.flatnonzero(np.isinf(X).any(axis=0))
        if bad.size:
            raise ValueError(
                f"{type(self).__name__}: Input X contains infinity in column(s) "
                f"{columns(bad)}; trees need finite values (NaN marks a missing value)."
            )
        if not self.use_surrogates:
            bad = np.flatnonzero(np.isnan(X).any(axis=0))
            if bad.size:
                raise ValueError(
                    f"{type(self).__name__}: Input X contains NaN in column(s) "
                    f"{columns(bad)}; use_surrogates=True routes missing values by surrogate "
                    "splits."
                )
        if reset:
            n_cat = np.array([0 if c is None else len(c) for c in self.categories_],
                             dtype=np.int64)
            self._n_categories = n_cat if n_cat.any() else None
        return X if isinstance(y, str) and y == "no_validation" else (X, y)

    def _validate_X_predict(self, X):
        check_is_fitted(self, "tree_")
        return self._validate_X(X, reset=False)

    def _final_nodes(self, X):
        t = self.tree_
        if t.n_categories is None:
            leaves, clean = apply_checked(t.children_left, t.children_right, t.feature,
                                          t.threshold, kernel_array(X, np.float64))
            if clean:
                return leaves
        return route_tree(t, X)

    def apply(self, X) -> np.ndarray:
        """Index (into ``tree_`` arrays) of the node each sample lands in.

        A leaf, except for a row with missing values that reaches a split whose surrogates are
        all missing and whose children hold as many training rows: it stays at that node (as
        rpart).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        ndarray of int64, shape (n_samples,)
            Node id of each row (a leaf but for the rows described above).
        """
        return self._final_nodes(self._validate_X_predict(X))

    def decision_path(self, X):
        """Sparse CSR indicator ``(n_samples, n_nodes)`` of the nodes each sample visits.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features coded as at fit (categorical columns as non-negative integer codes or a
            DataFrame's ``category`` columns); ``NaN`` marks a missing value, routed by the
            surrogate splits, then to the child with more training rows (``predict.rpart``;
            a ``ValueError`` when ``use_surrogates=False``).

        Returns
        -------
        scipy.sparse.csr_matrix of int64, shape (n_samples, n_nodes)
            Entry ``(i, t)`` is ``1`` when row ``i`` passes through node ``t`` on its way from
            the root to the node :meth:`apply` returns (routed the same way), else ``0``.
        """
        X = self._validate_X_predict(X)
        t = self.tree_
        if t.n_categories is not None or np.isnan(X).any():
            return decision_path_from_nodes(t.children_left, t.children_right,
                                            route_tree(t, X), X.shape[0])
        return decision_path_tree(t.children_left, t.children_right, t.feature, t.threshold, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = bool(self.use_surrogates)
        return tags

    def get_depth(self) -> int:
        """Depth of the tree (0 for a single leaf).

        Returns
        -------
        int
            The largest node depth, the root at depth 0.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves.

        Returns
        -------
        int
            Number of nodes without children.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves


def _splits_to_folds(splits, n: int, name: str) -> np.ndarray:
    """Fold ids from ``(train, test)`` index pairs whose test sets partition the rows."""
    folds = np.full(n, -1, dtype=np.int64)
    for k, (_, test) in enumerate(splits):
        test = np.asarray(test, dtype=np.int64)
        if np.any(folds[test] >= 0):
            raise ValueError(f"{name}: every row must be in exactly one test set.")
        folds[test] = k
    if np.any(folds < 0) or len(splits) < 2:
        raise ValueError(f"{name}: the test sets must cover every row in at least two folds.")
    return folds


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
