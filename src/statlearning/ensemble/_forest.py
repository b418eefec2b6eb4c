"""Random forests: :class:`RandomForestClassifier` and :class:`RandomForestRegressor`."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._validation import Boolean, Interval, Options, RandomState
from ..base import ClassifierMixin, RegressorMixin, fit_context
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..tree._criteria import CLASSIFICATION_CRITERIA
from ..tree._params import resolve_max_features
from ._base import BaseBagging, ClassifierOutputs, RegressorOutputs
from ._importance import mean_and_se, tree_permutation_deltas

_CONSTRAINTS = {
    "n_estimators": [Interval(Integral, 1, None, closed="left")],
    "max_depth": [None, Interval(Integral, 1, None, closed="left")],
    "min_samples_split": [Interval(Integral, 2, None, closed="left")],
    "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
    "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
    "max_features": [None, Options({"sqrt", "log2"}), Interval(Integral, 1, None, closed="left"),
                     Interval(Real, 0, 1, closed="right")],
    "max_leaf_nodes": [None, Interval(Integral, 2, None, closed="left")],
    "min_impurity_decrease": [Interval(Real, 0, None, closed="left")],
    "bootstrap": [Boolean()],
    "oob_score": [Boolean()],
    "permutation_importance": [Boolean()],
    "max_samples": [None, Interval(Integral, 1, None, closed="left"),
                    Interval(Real, 0, 1, closed="right")],
    "n_jobs": [None, Interval(Integral, 1, None, closed="left"),
               Interval(Integral, None, -1, closed="right")],
    "random_state": [RandomState()],
}


class _BaseForest(BaseBagging):
    def _tree_params(self):
        return {"max_depth": self.max_depth, "min_samples_split": self.min_samples_split,
                "min_samples_leaf": self.min_samples_leaf,
                "min_weight_fraction_leaf": self.min_weight_fraction_leaf,
                "max_leaf_nodes": self.max_leaf_nodes,
                "min_impurity_decrease": self.min_impurity_decrease,
                "criterion": self.criterion}

    def _make_estimator(self, seed, n_features):
        cls = DecisionTreeClassifier if self._is_classifier else DecisionTreeRegressor
        # ties between columns at random, as R and scikit-learn: the first column would
        # otherwise win every tie in every tree
        est = cls(max_features=resolve_max_features(self.max_features, n_features),
                  random_state=seed, tie_break="random", **self._tree_params())
        if "use_surrogates" in est.get_params(deep=False):
            est.set_params(use_surrogates=False)  # finite inputs only: no surrogate splits
        return est

    def _n_draws(self, n):
        if self.max_samples is None:
            return max(1, round(n))
        return super()._n_draws(n)

    def _fit_forest(self, X, y, sample_weight):
        X, target, w = self._validate_fit(X, y, sample_weight)
        self.max_features_ = resolve_max_features(self.max_features, X.shape[1])
        per_tree = None
        if self.permutation_importance:
            if not self.bootstrap:
                raise ValueError(f"{type(self).__name__}: permutation_importance=True needs "
                                 "bootstrap=True (out-of-bag rows).")
            k = self.n_classes_ if self._is_classifier else 1

            def per_tree(est, counts, seed):
                counts = np.where(w > 0, counts, 1.0)  # zero-weight rows are never OOB
                return tree_permutation_deltas(est, X, target, counts, self._is_classifier,
                                               k, np.random.RandomState(seed))

        extras = self._fit_members(X, target, w, per_tree)
        if self.permutation_importance:
            d = np.array([e[0] for e in extras])
            self.permutation_importances_, self.permutation_importances_se_ = mean_and_se(d)
            if self._is_classifier:
                mean, se = mean_and_se(np.array([e[1] for e in extras]))
                self.permutation_importances_per_class_ = mean
                self.permutation_importances_per_class_se_ = se
        if self.oob_score:
            self._compute_oob(X, target, w)
        return self

    @property
    def feature_importances_(self):
        """Mean decrease in impurity: per-tree normalised MDI averaged, renormalised."""
        check_is_fitted(self, "estimators_")
        imps = [e.feature_importances_ for e in self.estimators_ if e.tree_.node_count > 1]
        if not imps:
            return np.zeros(self.n_features_in_)
        mean = np.mean(imps, axis=0)
        return mean / mean.sum()


class RandomForestRegressor(RegressorOutputs, RegressorMixin, _BaseForest):
    """Random forest regressor (Breiman 2001; R's ``randomForest``).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees (R's ``ntree``).
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
    max_depth : int, default=None
    min_samples_split : int, default=2
        A node with fewer in-bag observations (a row drawn :math:`k` times counts :math:`k`
        times) is not split (R's ``nodesize + 1``).
    min_samples_leaf : int, default=1
        Minimum in-bag observations in each child.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        Minimum share of the tree's in-bag weight in each child (scikit-learn's).
    max_features : int, float, {"sqrt", "log2"} or None, default=1/3
        Columns drawn at each split; a float ``f`` gives ``max(1, int(f * p))``
        (scikit-learn's rule), so the default is R's ``max(floor(p/3), 1)``; ``None`` is
        bagging.
    max_leaf_nodes : int, default=None
        Best-first growth up to this many leaves (R's ``maxnodes``).
    min_impurity_decrease : float, default=0.0
    bootstrap : bool, default=True
    oob_score : bool, default=False
        Compute ``oob_prediction_``, ``oob_score_`` (:math:`R^2`), ``oob_error_curve_``.
    permutation_importance : bool, default=False
        Compute Breiman's OOB permutation importance during the fit (R's ``importance=TRUE``).
    max_samples : int, float or None, default=None
        Bootstrap sample size (``None``: the number of rows, a row of frequency weight
        :math:`r_i` counting :math:`r_i` times (see Notes); a float is a fraction of it;
        R's ``sampsize``).
    n_jobs : int, default=None
        joblib threads for fitting and prediction (``None``: 1 unless a
        ``joblib.parallel_config`` context says otherwise; ``-1``: all cores).
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    estimators_ : list of DecisionTreeRegressor
    feature_importances_ : ndarray of shape (n_features,)
        Normalised MDI.
    permutation_importances_, permutation_importances_se_ : ndarray of shape (n_features,)
        Only with ``permutation_importance``: mean OOB MSE increase and its standard error.
    oob_prediction_ : ndarray of shape (n_samples,)
    oob_score_ : float
    oob_error_curve_ : ndarray of shape (n_estimators,)
        OOB MSE of the first ``b`` trees (R's ``fit$mse``).
    max_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    A random forest (Breiman 2001; seed 000 §1.6, seed 001 A3, seed 004 §77, ISLR §8.2.2) is
    bagging of unpruned CART trees in which every split considers only ``max_features``
    columns drawn afresh at that node. The prediction is
    :math:`\\hat f(x) = \\frac1B \\sum_b T_b(x)` (regression), the mean of the trees' class
    proportions (``voting="soft"``, scikit-learn) or the majority vote (``voting="hard"``,
    the notes' (6.4)/(6.5) and R). With tree predictions of variance :math:`\\sigma^2` and
    pairwise correlation :math:`\\rho`, the average has variance
    :math:`\\rho\\sigma^2 + (1-\\rho)\\sigma^2/B`; the random feature subsets lower
    :math:`\\rho`, more trees the second term. Every tree is grown on its bootstrap sample
    as repeated rows: a row drawn :math:`k` times has weight :math:`k` and counts as
    :math:`k` observations in ``min_samples_split`` / ``min_samples_leaf`` (as R's
    regression forests, grown on the repeated rows; R's classification forests and
    scikit-learn count distinct in-bag rows, which gives somewhat smaller trees for
    ``min_samples_split > 2``). ``sample_weight`` enter through their ratios
    :math:`r_i = w_i / \\min_{w_j > 0} w_j`, so rescaling them changes nothing: when every
    :math:`r_i` is an integer (frequency weights; unit weights included) the bootstrap draws
    uniformly from the rows repeated :math:`r_i` times, so the forest is the forest of the
    repeated rows; otherwise each sample draws ``max_samples`` of the rows of positive
    weight with probabilities proportional to :math:`w` (R's ``randomForest`` has no case
    weights). Each tree's bootstrap
    and feature draws come from seeds drawn up front from ``random_state``: the forest does
    not depend on ``n_jobs`` (threads; the compiled loops release the GIL) nor on the order
    of the rows.

    OOB: row :math:`i` is predicted by the trees whose bootstrap left it out; rows never out
    of bag are excluded. ``oob_error_curve_[b-1]`` is the OOB error of the first :math:`b`
    trees (misclassification rate or MSE; R's ``err.rate[, "OOB"]`` / ``mse``).
    ``feature_importances_`` is the mean decrease in impurity (MDI): each tree's normalised
    MDI averaged over the trees with a split and renormalised (scikit-learn).
    ``permutation_importance=True`` adds Breiman's OOB permutation importance: for tree
    :math:`b` and column :math:`j` permuted among the tree's OOB rows,
    :math:`d_{bj}` is the decrease in the tree's OOB accuracy (classification) or the increase
    in its OOB MSE (regression); ``permutation_importances_`` :math:`= \\bar d_j` and
    ``permutation_importances_se_`` :math:`= \\sqrt{(\\overline{d_j^2} - \\bar d_j^2)/B}`,
    R's ``importance(fit, type = 1, scale = FALSE)`` and ``fit$importanceSD``.

    Mapping to R's ``randomForest``: ``ntree`` = ``n_estimators``; ``mtry`` =
    ``max_features`` (an integer; R's defaults ``floor(sqrt(p))`` and ``max(floor(p/3), 1)``
    are ``"sqrt"`` and ``1/3``, both floored, at least 1); ``nodesize`` is a *split* rule
    in R (a node of at most ``nodesize`` rows is not split; no child-size limit), i.e.
    ``min_samples_split = nodesize + 1, min_samples_leaf = 1`` (R's defaults 1 for
    classification and 5 for regression are exactly ``min_samples_split=2`` and ``6``; for
    classification with ``nodesize > 1`` R counts distinct rows, so the map is approximate);
    ``maxnodes`` = ``max_leaf_nodes``; ``importance = TRUE`` = ``permutation_importance``;
    ``keep.inbag`` is not stored (the counts are recomputed from seeds); ``replace`` =
    ``bootstrap``; ``sampsize`` = ``max_samples``. Equally good splits on different columns
    are chosen at random (the trees' ``tie_break="random"``), as R and scikit-learn do;
    always taking the first column would favour it in every tree. Tied votes go to the
    first class in ``classes_`` (R breaks them at random). scikit-learn's ``RandomForest*``
    has the same names (its regressor default is ``max_features=1.0``).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import RandomForestRegressor
    >>> X = np.arange(40.0).reshape(-1, 2)
    >>> y = np.r_[np.zeros(10), np.ones(10)]
    >>> RandomForestRegressor(20, random_state=0).fit(X, y).predict([[0.0, 1.0], [38.0, 39.0]])
    array([0., 1.])
    """

    _parameter_constraints = {**_CONSTRAINTS,
                              "criterion": [Options({"squared_error", "absolute_error"})]}

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1 / 3,
                 max_leaf_nodes=None, min_impurity_decrease=0.0, bootstrap=True,
                 oob_score=False, permutation_importance=False, max_samples=None, n_jobs=None,
                 random_state=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.permutation_importance = permutation_importance
        self.max_samples = max_samples
        self.n_jobs = n_jobs
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the forest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric features (NaN or infinity raise ``ValueError``).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Each bootstrap sample draws rows with probabilities proportional to ``w``;
            weights proportional to integers are repeated rows, and rescaling ``w`` changes
            nothing (see Notes); the OOB error is weighted.

        Returns
        -------
        self : RandomForestRegressor
        """
        return self._fit_forest(X, y, sample_weight)


class RandomForestClassifier(ClassifierOutputs, ClassifierMixin, _BaseForest):
    """Random forest classifier (Breiman 2001; R's ``randomForest``).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees (R's ``ntree``).
    criterion : {"gini", "entropy", "misclassification", "gain_ratio", "chi2"}, default="gini"
        Impurity minimised by each split: the Gini index (R's ``randomForest``), the
        entropy (deviance) or the misclassification rate of the in-bag class weights; or the
        split scores ``"gain_ratio"`` and ``"chi2"`` of
        :class:`~statlearning.tree.DecisionTreeClassifier`.
    max_depth : int, default=None
        Maximum depth of each tree (``None``: unlimited, as R).
    min_samples_split : int, default=2
        A node with fewer in-bag observations (a row drawn :math:`k` times counts :math:`k`
        times) is not split (R's ``nodesize + 1``; R's classification default
        ``nodesize = 1`` is ``min_samples_split=2``).
    min_samples_leaf : int, default=1
        Minimum in-bag observations in each child.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        Minimum share of the tree's in-bag weight in each child (scikit-learn's).
    max_features : int, float, {"sqrt", "log2"} or None, default="sqrt"
        Columns drawn at each split (R's ``mtry = floor(sqrt(p))``); a float ``f`` gives
        ``max(1, int(f * p))`` (scikit-learn's rule); ``None`` is bagging.
    max_leaf_nodes : int, default=None
        Best-first growth up to this many leaves (R's ``maxnodes``).
    min_impurity_decrease : float, default=0.0
        A split must decrease the weighted impurity, divided by the tree's total in-bag
        weight, by at least this much (scikit-learn's).
    bootstrap : bool, default=True
        Draw each tree's sample with replacement (R's ``replace``; else without).
    oob_score : bool, default=False
        Compute ``oob_decision_function_``, ``oob_score_`` (accuracy), ``oob_error_curve_``.
    permutation_importance : bool, default=False
        Breiman's OOB permutation importance (mean decrease in accuracy), overall and per
        class (R's ``importance=TRUE``).
    voting : {"soft", "hard"}, default="soft"
        Mean of the trees' class proportions (scikit-learn) or majority vote with vote
        fractions as probabilities (the notes, R).
    max_samples : int, float or None, default=None
        Bootstrap sample size (``None``: the number of rows, a row of frequency weight
        :math:`r_i` counting :math:`r_i` times (see the Notes of
        :class:`RandomForestRegressor`); a float is a fraction of it; R's ``sampsize``).
    n_jobs : int, default=None
        joblib threads for fitting and prediction (``None``: 1 unless a
        ``joblib.parallel_config`` context says otherwise; ``-1``: all cores).
    random_state : int, RandomState instance or None, default=None
        Source of each tree's bootstrap, feature-draw and permutation seeds; an int makes
        the forest reproducible.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    estimators_ : list of DecisionTreeClassifier
    feature_importances_ : ndarray of shape (n_features,)
        Normalised MDI (Gini decrease).
    permutation_importances_, permutation_importances_se_ : ndarray of shape (n_features,)
        Mean decrease in OOB accuracy and its standard error (R's ``MeanDecreaseAccuracy``
        column, unscaled, and ``importanceSD``).
    permutation_importances_per_class_, permutation_importances_per_class_se_ : ndarray
        Shape (n_features, n_classes): the same over each class's OOB rows (R's class columns).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
    oob_score_ : float
        OOB accuracy, ``1 - oob_error_curve_[-1]``.
    oob_error_curve_ : ndarray of shape (n_estimators,)
        OOB misclassification rate of the first ``b`` trees (R's ``err.rate[, "OOB"]``).
    max_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    As in :class:`RandomForestRegressor` (see its Notes), with the trees' class
    proportions averaged (``voting="soft"``) or their votes counted (``"hard"``), the
    OOB error the misclassification rate and R's ``mtry = floor(sqrt(p))`` the default.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import RandomForestClassifier
    >>> X = np.arange(40.0).reshape(-1, 2)
    >>> y = np.r_[["a"] * 10, ["b"] * 10]
    >>> RandomForestClassifier(20, random_state=0).fit(X, y).predict([[0.0, 1.0], [38.0, 39.0]])
    array(['a', 'b'], dtype='<U1')
    """

    _parameter_constraints = {
        **_CONSTRAINTS,
        "criterion": [Options(set(CLASSIFICATION_CRITERIA))],
        "voting": [Options({"soft", "hard"})],
    }
    _is_classifier = True

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt",
                 max_leaf_nodes=None, min_impurity_decrease=0.0, bootstrap=True,
                 oob_score=False, permutation_importance=False, voting="soft",
                 max_samples=None, n_jobs=None, random_state=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.permutation_importance = permutation_importance
        self.voting = voting
        self.max_samples = max_samples
        self.n_jobs = n_jobs
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Grow the forest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric features (NaN or infinity raise ``ValueError``).
        y : array-like of shape (n_samples,)
            Class labels of any type (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Each bootstrap sample draws rows with probabilities proportional to ``w``;
            weights proportional to integers are repeated rows, and rescaling ``w`` changes
            nothing (see Notes); the OOB error is weighted.

        Returns
        -------
        self : RandomForestClassifier
        """
        return self._fit_forest(X, y, sample_weight)
