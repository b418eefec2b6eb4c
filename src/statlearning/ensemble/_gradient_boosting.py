"""Gradient boosting with regression trees: :class:`GradientBoostingRegressor` and
:class:`GradientBoostingClassifier` (Friedman 2001; ISLR's Algorithm 8.2 with ``init="zero"``).

Every stage grows one squared-error tree per class on the negative gradient with a single call
to the tree grower, rewrites its leaf values with the loss's line search and updates the
training predictions by one leaf lookup of the new tree; earlier trees are never re-evaluated.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import expit, softmax
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from .._core.class_labels import encode_class_labels
from .._core.compiled import kernel_array
from .._validation import Interval, Options, RandomState, check_sample_weight
from ..base import ClassifierMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import warn_unrescaled_scale
from ..tree._apply import apply_packed
from ..tree._grow import grow_tree  # the one switch point for the tree grower
from ..tree._params import resolve_max_features
from ..tree._splitter import SQUARED_ERROR
from ..tree._structure import TREE_LEAF, apply_tree
from ._accumulate import accumulate_forest, pack_forest
from ._gb_losses import make_loss

__all__ = ["GradientBoostingClassifier", "GradientBoostingRegressor"]


class _BaseGradientBoosting(StatBase):
    """Shared fitting and prediction machinery."""

    _parameter_constraints: dict = {
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "subsample": [Interval(Real, 0, 1, closed="right")],
        "max_depth": [None, Interval(Integral, 1, None, closed="left")],
        "min_samples_split": [Interval(Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
        "min_impurity_decrease": [Interval(Real, 0, None, closed="left")],
        "max_leaf_nodes": [None, Interval(Integral, 2, None, closed="left")],
        "max_features": [
            None,
            Options({"sqrt", "log2"}),
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
        ],
        "init": [Options({"mean", "zero"})],
        "random_state": [RandomState()],
    }

    def _fit_boosting(self, X, y, w, weighted, loss):
        """Run the stages on validated arrays; ``y`` is numeric (class codes for classifiers)."""
        n, p = X.shape
        K = loss.n_trees
        rng = check_random_state(self.random_state)
        max_features = resolve_max_features(self.max_features, p)
        init = loss.init_raw(y, w, weighted) if self.init == "mean" else np.zeros(K)
        raw = np.tile(init, (n, 1)).astype(np.float64)
        do_oob = self.subsample < 1.0
        n_inbag = max(1, int(self.subsample * n))
        B = self.n_estimators
        trees = np.empty((B, K), dtype=object)
        train_score = np.zeros(B)
        oob_scores = np.zeros(B) if do_oob else None
        inbag = np.ones(n, dtype=bool)
        codes = np.zeros(n, dtype=np.int64)
        for b in range(B):
            if do_oob:
                inbag = np.zeros(n, dtype=bool)
                inbag[rng.choice(n, size=n_inbag, replace=False)] = True
                if b == 0:
                    init_oob = loss.factor * loss.loss(y[~inbag], raw[~inbag], w[~inbag])
            loss.prepare(y, raw, w)
            g = loss.neg_gradient(y, raw)
            w_in = w * inbag if do_oob else w
            for k in range(K):
                tree = grow_tree(
                    X, np.ascontiguousarray(g[:, k]), codes, w_in, crit=SQUARED_ERROR,
                    n_classes=1, max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    min_weight_leaf=self.min_weight_fraction_leaf * float(w_in.sum()),
                    min_impurity_decrease=self.min_impurity_decrease,
                    max_leaf_nodes=self.max_leaf_nodes, max_features=max_features, rng=rng,
                )
                leaf = apply_tree(tree.children_left, tree.children_right, tree.feature,
                                  tree.threshold, X)
                leaves = np.flatnonzero(tree.children_left == TREE_LEAF)
                loss.line_search(tree.value, leaf, leaves, y, g[:, k], raw, w_in, inbag, k)
                raw[:, k] += self.learning_rate * tree.value[leaf, 0]
                trees[b, k] = tree
            if do_oob:
                train_score[b] = loss.factor * loss.loss(y[inbag], raw[inbag], w[inbag])
                oob_scores[b] = loss.factor * loss.loss(y[~inbag], raw[~inbag], w[~inbag])
            else:
                train_score[b] = loss.factor * loss.loss(y, raw, w)
        if not np.all(np.isfinite(raw)):
            warnings.warn(
                f"{type(self).__name__}: non-finite predictions after boosting; lower "
                "learning_rate.", RuntimeWarning, stacklevel=3,
            )
        self.estimators_ = trees
        self.n_estimators_ = B
        self.init_raw_prediction_ = init
        self.train_score_ = train_score
        self.max_features_ = max_features
        # routing tables for predict: every stage's tree of score k, packed once
        self._packed = [pack_forest(trees[:, k]) for k in range(trees.shape[1])]
        if do_oob:
            self.oob_scores_ = oob_scores
            self.oob_improvement_ = np.concatenate([[init_oob], oob_scores[:-1]]) - oob_scores
            self.oob_score_ = float(oob_scores[-1])
        return raw

    def _validate_X(self, X):
        check_is_fitted(self, "estimators_")
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _staged_raw(self, X):
        """Raw predictions after each stage (a generator of ``(n, K)`` arrays, copies)."""
        return self._stages(kernel_array(self._validate_X(X), np.float64))

    def _stages(self, X):
        raw = np.tile(self.init_raw_prediction_, (X.shape[0], 1)).astype(np.float64)
        for b in range(self.estimators_.shape[0]):
            for k, packed in enumerate(self._packed):
                table, value, _ = packed[b]  # the routing tables fit stored
                leaf, _ = apply_packed(table, X)
                raw[:, k] += self.learning_rate * value[leaf, 0]
            yield raw.copy()

    def _raw_predict(self, X):
        """:math:`f_0 + \\lambda \\sum_b h_b(x)` for every score, rows in cache-sized blocks."""
        X = kernel_array(self._validate_X(X), np.float64)
        raw = np.empty((X.shape[0], len(self._packed)))
        total = np.empty((X.shape[0], 1))
        for k, packed in enumerate(self._packed):
            total[:] = 0.0
            accumulate_forest(packed, X, False, total)
            raw[:, k] = self.init_raw_prediction_[k] + self.learning_rate * total[:, 0]
        return raw

    @property
    def feature_importances_(self) -> np.ndarray:
        """Mean decrease in squared error over every tree with a split, normalised to one."""
        check_is_fitted(self, "estimators_")
        imps = []
        for tree in self.estimators_.ravel():
            internal = np.flatnonzero(tree.children_left != TREE_LEAF)
            if internal.size == 0:
                continue
            wi = tree.weighted_n_node_samples * tree.impurity
            dec = (wi[internal] - wi[tree.children_left[internal]]
                   - wi[tree.children_right[internal]])
            imp = np.zeros(self.n_features_in_)
            np.add.at(imp, tree.feature[internal], dec)
            imps.append(imp / tree.weighted_n_node_samples[0])
        if not imps:
            return np.zeros(self.n_features_in_)
        avg = np.mean(imps, axis=0)
        return avg / avg.sum()


class GradientBoostingRegressor(RegressorMixin, _BaseGradientBoosting):
    """Gradient-boosted regression trees (stumps by default, as ISLR).

    Parameters
    ----------
    loss : {"squared_error", "absolute_error", "huber"}, default="squared_error"
        The loss whose negative gradient each tree fits (see Notes).
    learning_rate : float, default=0.1
        Shrinkage :math:`\\lambda > 0` (ISLR's λ, gbm's ``shrinkage``).
    n_estimators : int, default=100
        Number of stages :math:`B` (gbm's ``n.trees``).
    max_depth : int or None, default=1
        Depth of every tree (1 = stumps, ISLR's ``d = 1``; scikit-learn's default is 3).
    subsample : float in (0, 1], default=1.0
        Fraction of rows drawn without replacement for each stage (gbm's ``bag.fraction``).
    alpha : float in (0, 1), default=0.9
        Huber's quantile of ``|residual|`` that sets δ (``loss="huber"`` only).
    init : {"mean", "zero"}, default="mean"
        Start from the loss's best constant or from 0 (ISLR).
    min_samples_split, min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, \
max_leaf_nodes, max_features
        Tree growth rules, as :class:`statlearning.tree.DecisionTreeRegressor`
        (``min_samples_*`` count the in-bag rows of positive weight, whatever the weights;
        ``min_weight_fraction_leaf`` is a share of the in-bag weight).
    random_state : int, RandomState or None, default=None
        Seeds the row subsamples and the feature draws.

    Attributes
    ----------
    estimators_ : ndarray of :class:`statlearning.tree.Tree`, shape (n_estimators, 1)
        The fitted trees; leaf values are the unshrunken line-search values.
    init_raw_prediction_ : ndarray of shape (1,)
        The initial constant :math:`f_0`.
    train_score_ : ndarray of shape (n_estimators,)
        In-bag loss after each stage.
    oob_improvement_, oob_scores_ : ndarray of shape (n_estimators,)
        Only with ``subsample < 1``: out-of-bag loss decrease and loss after each stage.
    oob_score_ : float
        The last out-of-bag loss (``subsample < 1``).
    feature_importances_ : ndarray of shape (n_features,)
    n_estimators_, max_features_, n_features_in_, feature_names_in_

    Notes
    -----
    Forward stagewise additive modelling. With a differentiable loss :math:`L(y, f)` the model
    is :math:`f_B(x) = f_0 + \\lambda \\sum_{b=1}^{B} h_b(x)`. ``init="mean"`` starts from the
    best constant :math:`f_0 = \\arg\\min_c \\sum_i w_i L(y_i, c)` (scikit-learn's choice: the
    weighted mean, the weighted median (absolute error and Huber), the log-odds, or the centred
    log class priors; medians are inverted-CDF weighted medians, the lower median for unit
    weights); ``init="zero"`` starts from :math:`f_0 = 0`, ISLR's Algorithm 8.2. Stage
    :math:`b` computes the negative gradient (pseudo-residual)
    :math:`r_i = -\\partial L(y_i, f)/\\partial f |_{f = f_{b-1}(x_i)}`, grows a least-squares
    regression tree on :math:`(x_i, r_i)` (``max_depth``, ``min_samples_split``,
    ``min_samples_leaf``, ``max_features``), and replaces the value of each leaf :math:`R_j`
    by the line search :math:`\\gamma_j = \\arg\\min_\\gamma \\sum_{x_i \\in R_j} w_i
    L(y_i, f_{b-1}(x_i) + \\gamma)`:

    - squared error :math:`(y - f)^2`: :math:`r = y - f`, :math:`\\gamma_j` the mean residual
      (the tree's own leaf value);
    - absolute error :math:`|y - f|`: :math:`r = \\mathrm{sign}(y - f)`, :math:`\\gamma_j` the
      weighted median of :math:`y - f` in the leaf;
    - Huber: :math:`\\delta` the ``alpha``-quantile of :math:`|y - f_{b-1}|`, :math:`r` the
      residual clipped at :math:`\\pm\\delta`, and Friedman's one-step M-estimate
      :math:`\\gamma_j = \\tilde m_j + \\mathrm{mean}_j[\\mathrm{sign}(y - f - \\tilde m_j)
      \\min(\\delta, |y - f - \\tilde m_j|)]` about the leaf median :math:`\\tilde m_j`;
    - binary log-loss on the logit scale: :math:`r = y - p`, one Newton step
      :math:`\\gamma_j = \\sum w r / \\sum w p(1 - p)`;
    - :math:`K`-class log-loss (softmax, :math:`K` trees per stage, all on the stage's starting
      probabilities): :math:`r_k = 1\\{y = k\\} - p_k`,
      :math:`\\gamma_{jk} = \\frac{K-1}{K} \\sum w r_k / \\sum w |r_k|(1 - |r_k|)` (Friedman's
      Algorithm 6, as scikit-learn).

    Shrinkage: :math:`f_b = f_{b-1} + \\lambda \\sum_j \\gamma_j 1\\{x \\in R_j\\}` with
    :math:`\\lambda` = ``learning_rate``. With ``subsample`` :math:`< 1` (stochastic boosting)
    each stage grows and line-searches on a random ``int(subsample · n)`` rows drawn without
    replacement; ``oob_improvement_[b]`` is the decrease of the loss on the other rows from
    stage :math:`b-1` to :math:`b` and ``oob_scores_[b]`` that loss. ``train_score_`` is the
    in-bag loss after each stage on scikit-learn's scale (the MSE, the mean absolute error, the
    Huber loss, the binomial deviance :math:`2\\,\\mathrm{mean}(\\log(1 + e^f) - yf)`, the
    multinomial negative log-likelihood). ``feature_importances_`` is the mean decrease in
    squared error of the split nodes, averaged over every tree with a split and normalised.

    Mapping. ISLR (seed notes item 78): :math:`\\lambda` = ``learning_rate``, :math:`B` =
    ``n_estimators``, :math:`d` splits = ``max_depth=1`` (stumps, :math:`d = 1`; a depth
    :math:`D` tree has up to :math:`2^D - 1` splits), and ``init="zero"`` with
    ``loss="squared_error"`` is exactly the algorithm f̂ = 0, r = y, f̂ += λ f̂ᵇ, r −= λ f̂ᵇ(x).
    R's gbm: ``shrinkage`` = ``learning_rate``, ``n.trees`` = ``n_estimators``,
    ``interaction.depth`` = ``max_depth`` (gbm grows ``interaction.depth`` splits; equal for
    stumps), ``bag.fraction`` = ``subsample`` (gbm's default 0.5, ours 1), ``n.minobsinnode`` =
    ``min_samples_leaf`` (gbm's default 10, ours 1), ``distribution = "gaussian" | "laplace" |
    "bernoulli" | "multinomial"`` = ``loss``. scikit-learn's ``GradientBoosting*`` has the same
    parameters and algorithm; our default ``max_depth=1`` (ISLR's stumps) differs from its 3,
    our trees send ``x < threshold`` left (the same training partition) and our ``init`` is
    ``"mean"`` or ``"zero"`` only.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import GradientBoostingRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3)); y = X[:, 0] + np.sin(X[:, 1])
    >>> gb = GradientBoostingRegressor(n_estimators=200).fit(X, y)
    >>> bool(gb.score(X, y) > 0.8)
    True
    """

    _parameter_constraints = {
        **_BaseGradientBoosting._parameter_constraints,
        "loss": [Options({"squared_error", "absolute_error", "huber"})],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(self, loss="squared_error", learning_rate=0.1, n_estimators=100, *,
                 max_depth=1, subsample=1.0, alpha=0.9, init="mean", min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, min_impurity_decrease=0.0,
                 max_leaf_nodes=None, max_features=None, random_state=None):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.subsample = subsample
        self.alpha = alpha
        self.init = init
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.max_features = max_features
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the boosted model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (rescaling them changes nothing).

        Returns
        -------
        self : GradientBoostingRegressor
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        warn_unrescaled_scale(self, y, "y")
        X = kernel_array(X, np.float64)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
        loss = make_loss(self.loss, alpha=self.alpha)
        self._fit_boosting(X, y.astype(np.float64), w, True, loss)
        return self

    def predict(self, X) -> np.ndarray:
        """Predict the response: the boosted model after all stages, :math:`f_B(x)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples,)
            :math:`f_B(x) = f_0 + \\lambda \\sum_{b=1}^{B} h_b(x)`, the initial constant
            plus the shrunken leaf values of every stage's tree.
        """
        return self._raw_predict(X)[:, 0]

    def staged_predict(self, X):
        """Yield the prediction after each stage (``f_1(x), …, f_B(x)``).

        Used to follow the test error as a function of the number of stages :math:`B`
        without refitting.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples,)
            :math:`f_b(x)` for :math:`b = 1, \\dots,` ``n_estimators``, in order; each a
            fresh array. The last equals :meth:`predict` up to rounding.
        """
        for raw in self._staged_raw(X):
            yield raw[:, 0]


class GradientBoostingClassifier(ClassifierMixin, _BaseGradientBoosting):
    """Gradient-boosted trees for classification with the log-loss (binomial / multinomial).

    Two classes: one tree per stage on the logit scale, :math:`P(y = c_1) = 1/(1 + e^{-f})`.
    :math:`K > 2` classes: :math:`K` trees per stage and the softmax of the :math:`K` scores.

    Parameters
    ----------
    loss : {"log_loss"}, default="log_loss"
    learning_rate, n_estimators, max_depth, subsample, init, min_samples_split, \
min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, max_leaf_nodes, \
max_features, random_state
        As :class:`GradientBoostingRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    estimators_ : ndarray of :class:`statlearning.tree.Tree`, shape (n_estimators, K)
        ``K = 1`` for two classes.
    init_raw_prediction_ : ndarray of shape (K,)
        Log-odds of the second class, or the centred log class priors.
    train_score_, oob_improvement_, oob_scores_, oob_score_, feature_importances_
        As :class:`GradientBoostingRegressor` (deviance scale).

    Notes
    -----
    As in :class:`GradientBoostingRegressor` (see its Notes), with the binary or
    :math:`K`-class log-loss.
    """

    _parameter_constraints = {
        **_BaseGradientBoosting._parameter_constraints,
        "loss": [Options({"log_loss"})],
    }

    def __init__(self, loss="log_loss", learning_rate=0.1, n_estimators=100, *, max_depth=1,
                 subsample=1.0, init="mean", min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0,
                 min_impurity_decrease=0.0, max_leaf_nodes=None, max_features=None,
                 random_state=None):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.subsample = subsample
        self.init = init
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.max_features = max_features
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the boosted model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.
        y : array-like of shape (n_samples,)
            Class labels of any type (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (rescaling them changes nothing).

        Returns
        -------
        self : GradientBoostingClassifier
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        X = kernel_array(X, np.float64)
        self.classes_, codes = encode_class_labels(y, name, min_classes=2)
        self.n_classes_ = int(self.classes_.size)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        if np.count_nonzero(np.bincount(codes, weights=w, minlength=self.n_classes_)) < 2:
            raise ValueError(
                f"{name}: y has only one class with positive sample_weight; classification "
                "needs at least 2 classes."
            )
        loss = make_loss(self.loss, n_classes=self.n_classes_)
        self._fit_boosting(X, codes.astype(np.float64), w, True, loss)
        return self

    def _raw_to_proba(self, raw):
        if self.n_classes_ == 2:
            p1 = expit(raw[:, 0])
            return np.column_stack([1.0 - p1, p1])
        return softmax(raw, axis=1)

    def decision_function(self, X) -> np.ndarray:
        """Log-odds of ``classes_[1]`` (two classes, shape (n,)) or the K scores (n, K).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: the raw score :math:`f_B(x) = \\log\\{P(y = c_1)/P(y = c_0)\\}`
            with :math:`c_k` = ``classes_[k]``. :math:`K > 2` classes: the :math:`K` raw
            scores :math:`f_{Bk}(x)`, columns in ``classes_`` order, whose softmax is
            :meth:`predict_proba` (adding a constant to a row leaves the probabilities
            unchanged).
        """
        raw = self._raw_predict(X)
        return raw[:, 0] if self.n_classes_ == 2 else raw

    def staged_decision_function(self, X):
        """Yield :meth:`decision_function` after each stage.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The raw scores after stages :math:`1, \\dots,` ``n_estimators``, in order, shaped
            as :meth:`decision_function`'s; each a fresh array.
        """
        for raw in self._staged_raw(X):
            yield raw[:, 0] if self.n_classes_ == 2 else raw

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities (columns in ``classes_`` order).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            :math:`P(y = c_1) = 1/(1 + e^{-f_B(x)})` and its complement (two classes) or the
            softmax of the :math:`K` scores; each row sums to one.
        """
        return self._raw_to_proba(self._raw_predict(X))

    def predict_log_proba(self, X) -> np.ndarray:
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Natural logarithm of the class probabilities, columns in ``classes_`` order
            (``-inf`` where a probability underflows to zero).
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def staged_predict_proba(self, X):
        """Yield :meth:`predict_proba` after each stage.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples, n_classes)
            Class probabilities after stages :math:`1, \\dots,` ``n_estimators``, in order,
            columns in ``classes_`` order.
        """
        for raw in self._staged_raw(X):
            yield self._raw_to_proba(raw)

    def predict(self, X) -> np.ndarray:
        """The most probable class (ties to the first in ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted class labels, taken from ``classes_``.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def staged_predict(self, X):
        """Yield :meth:`predict` after each stage.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples,)
            Predicted class labels (from ``classes_``) after stages :math:`1, \\dots,`
            ``n_estimators``, in order.
        """
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]
